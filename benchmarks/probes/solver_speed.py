"""How fast the Sokoban solver expands states, on a fixed set of searches: the speed half of the
proof that a restructuring changed nothing (``solver_trace.py`` is the other half).

    python benchmarks/probes/solver_speed.py                      # this checkout
    python benchmarks/probes/solver_speed.py --src ../other/src   # another checkout's solver, same searches

Each search of the first core's portfolio and the plain best-first search runs on the first
levels of XSokoban in fixed slices up to an expansion cap (so the work is the same whatever the
clock says), after a warm-up that compiles or loads the kernels; the figure is expansions per
CPU second of the searching thread (steadier than the wall clock when other work shares the
machine), the median of ``--repeat`` runs of the whole set. Run two checkouts one after the
other, twice in turn, and compare the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LEVELS = Path(os.environ.get("MAZEKIT_LEVELS", HERE.parents[2] / "shared" / "levels"))


def searches(levels: int, cap: int) -> list[tuple[object, object, bool]]:
    """(problem, options, optimal) of every search of the set."""
    from mazekit.sokoban import parse_levels
    from mazekit.sokoban.solver import PORTFOLIO, SearchOptions, as_problem

    out: list[tuple[object, object, bool]] = []
    for level in parse_levels((LEVELS / "xsokoban90.xsb").read_bytes())[:levels]:
        prob = as_problem(level)
        for opts in (*PORTFOLIO, SearchOptions(fess=False)):
            out.append((prob, opts, False))
    return out


def run(prob: object, opts: object, cap: int) -> tuple[int, float]:
    """One search in fixed slices up to ``cap`` expansions: (expanded, CPU seconds of the search's
    thread: on a loaded machine steadier than the wall clock; the kernels are compiled already)."""
    try:
        from mazekit.sokoban.solver import run_search
    except ImportError:  # a checkout from before the solver's public run_search
        from mazekit.sokoban.solver.search import _search_one as run_search  # type: ignore[attr-defined,no-redef]
    t0 = time.thread_time()
    res = run_search(prob, opts, time_limit=None, fixed_slice=512, max_expansions=cap)  # type: ignore[arg-type]
    return res.stats.expanded, time.thread_time() - t0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", help="the src/ folder of the checkout to measure (default: the installed mazekit)")
    ap.add_argument("--levels", type=int, default=12, help="the first N XSokoban levels (default 12)")
    ap.add_argument("--cap", type=int, default=20000, help="expansions a search (default 20000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of the whole set (default 3)")
    args = ap.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    if not (LEVELS / "xsokoban90.xsb").exists():
        print(f"solver_speed: no {LEVELS / 'xsokoban90.xsb'} (set MAZEKIT_LEVELS)", file=sys.stderr)
        return 2
    import mazekit

    todo = searches(args.levels, args.cap)
    run(*todo[0][:2], 1000)  # compile, or load from numba's cache
    rates = []
    for _ in range(args.repeat):
        expanded = seconds = 0.0
        for prob, opts, _optimal in todo:
            e, s = run(prob, opts, args.cap)
            expanded += e
            seconds += s
        rates.append(expanded / seconds)
    where = Path(mazekit.__file__).parent
    print(
        f"{where}: {len(todo)} searches, {int(expanded)} expansions a run; "
        f"{statistics.median(rates):,.0f} expansions/s (median of {len(rates)}: "
        + ", ".join(f"{r:,.0f}" for r in rates)
        + ")"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
