"""What the solver's feature cells see along an XSokoban level's reference solution.

``python benchmarks/reference_trace.py --levels 89 [--upto 0.25]``

replays the shared reference solution (``xsokoban90_solutions.toml``, not optimal) of each level
and prints a line at each push where one of the feature-space search's measures changes: the
boxes on the filled prefixes of the goal areas' packing orders (:func:`goal_areas`), the boxes on
goals, and the regions of free floor (the connectivity axis of the feature cells counts
``1 .. NCONN``, the last meaning that many or more). A stretch of pushes with no line is one in
which the search's features show no progress: it is guided there by its bound and its move
weights alone. ``--upto`` stops after that fraction of the pushes.

:func:`last_fills` (the push at which each goal is filled for the last time) is also what
``try_options.py --reference-order`` orders each goal area by.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_sokoban import set_levels, xsokoban_references  # noqa: E402
from portfolio_members import _pick  # noqa: E402


def _fail(message: str) -> NoReturn:
    print(f"reference_trace: {message}", file=sys.stderr)
    raise SystemExit(2)


def _played(level: Any, lurd: str) -> Iterator[tuple[int, int, Any]]:
    """``(push, the cell its box went to, the position after it)`` for each push of ``lurd``, the
    pushes counted from 1."""
    from mazekit.sokoban import push
    from mazekit.sokoban.rules import lurd_pushes

    state = level.start
    for k, (box, d) in enumerate(lurd_pushes(level, lurd), start=1):
        state = push(level, state, box, d)
        yield k, int(level.nbr[box, d]), state


def last_fills(level: Any, lurd: str) -> dict[int, int]:
    """For each goal (the level's flat cell) a box ends on in ``lurd``, the push (counted from 1)
    that puts it there for the last time."""
    import numpy as np

    goals = set(np.flatnonzero(level.goals).tolist())
    return {dest: k for k, dest, _ in _played(level, lurd) if dest in goals}


def trace(level: Any, lurd: str, upto: float = 1.0) -> list[tuple[int, int, int, int]]:
    """``(push, packed, on goals, regions)`` at the start and at each push that changes one of them,
    up to the fraction ``upto`` of the pushes."""
    import numpy as np

    from mazekit.sokoban.solver import as_problem
    from mazekit.sokoban.solver.prepare import goal_areas

    prob = as_problem(level)
    _, forder, fstart = goal_areas(prob)
    orders = [forder[fstart[a] : fstart[a + 1]].tolist() for a in range(len(fstart) - 1)]
    last = upto * sum(ch.isupper() for ch in lurd)

    def measures(boxes: tuple[int, ...]) -> tuple[int, int, int]:
        padded = np.sort(np.array([prob.cell(*divmod(b, level.width)) for b in boxes], dtype=np.int64))
        on = set(padded.tolist())
        packed = sum(next((i for i, g in enumerate(order) if g not in on), len(order)) for order in orders)
        return packed, int(prob.goalm[padded].sum()), len(prob.regions(padded))

    rows = [(0, *measures(level.start.boxes))]
    for k, _, state in _played(level, lurd):
        if k > last:
            break
        now = measures(state.boxes)
        if now != rows[-1][1:]:
            rows.append((k, *now))
    return rows


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", required=True, help="XSokoban level numbers, e.g. 23,89 or 88-90")
    ap.add_argument("--upto", type=float, default=1.0, help="stop after this fraction of the pushes")
    args = ap.parse_args(argv)
    if not 0.0 < args.upto <= 1.0:
        _fail(f"--upto takes a fraction above 0 and at most 1, got {args.upto}")
    levels = set_levels("xsokoban")
    try:
        numbers = _pick(args.levels, len(levels))
    except ValueError:
        _fail(f"--levels takes numbers and ranges such as 23,88-90, got {args.levels!r}")
    if not numbers or min(numbers) < 1 or max(numbers) > len(levels):
        _fail(f"--levels: xsokoban has levels 1 to {len(levels)}")
    from mazekit.sokoban.solver.kernels.state import NCONN

    refs = xsokoban_references()
    for n in numbers:
        lurd = refs[n - 1]
        total = sum(ch.isupper() for ch in lurd)
        print(f"xsokoban {n}: {total} pushes (connectivity counted to {NCONN})")
        print("  push  fraction  packed  on goals  regions")
        for k, packed, on, regions in trace(levels[n - 1], lurd, args.upto):
            print(f"  {k:4d}  {k / total:8.3f}  {packed:6d}  {on:8d}  {regions:7d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
