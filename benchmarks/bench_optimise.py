"""Sokoban solution optimiser benchmark: how much shorter solutions get.

``python benchmarks/run.py optimise [--sets xsokoban,generated,microban] [--jobs 2]
[--time-limit S] [--metric moves|pushes] [--first N] [--no-write]``

Inputs, per set:

* ``xsokoban``: the reference solutions of the 90 XSokoban levels that come with the
  shared collections (``xsokoban90_solutions.toml``, "not optimal");
* ``generated``: the generator's own solutions of 200 levels of
  :mod:`mazekit.sokoban.generate` (the reverse game read backwards: they wander);
* ``microban``: the solver's fast-mode solutions of Microban (10 s a level, solved here
  first, not counted in the optimiser's time).

Each solution is optimised for ``--time-limit`` seconds (one level per core), the
result replayed to a win by the engine, and the moves and pushes before and after
summed. Writes the "Sokoban solution optimiser" section of ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _harness as H  # noqa: E402
from bench_sokoban import LEVELS, _ignore_interrupts, xsokoban_references  # noqa: E402

SETS = ("xsokoban", "generated", "microban")


def _inputs(name: str, first: int | None) -> list[tuple[int, Any, str]]:
    """``(number, level, solution)`` of a set."""
    from mazekit.sokoban import generate_levels, parse_levels

    if name == "xsokoban":
        levels = parse_levels((LEVELS / "xsokoban90.xsb").read_bytes())
        out = [(i + 1, lv, sol) for i, (lv, sol) in enumerate(zip(levels, xsokoban_references(), strict=True))]
    elif name == "generated":
        out = [(i + 1, g.level, g.solution) for i, g in enumerate(generate_levels(200, seed=0))]
    else:
        from mazekit.sokoban.solver import solve

        levels = parse_levels((LEVELS / "microban.xsb").read_bytes())[:first]
        out = []
        for i, lv in enumerate(levels):
            sol = solve(lv, time_limit=10)
            if sol is not None:
                out.append((i + 1, lv, sol.lurd))
    return out[:first]


def _optimise_one(task: tuple[int, Any, str, str, float]) -> dict[str, Any]:
    from mazekit.sokoban import replay
    from mazekit.sokoban.solver import optimise

    number, level, lurd, metric, seconds = task
    res = optimise(level, lurd, metric=metric, time_limit=seconds)  # type: ignore[arg-type]
    check = replay(level, res.lurd)
    assert check.solved and (check.moves, check.pushes) == (res.moves, res.pushes), number
    return {
        "number": number,
        "before": (res.before_moves, res.before_pushes),
        "after": (res.moves, res.pushes),
        "time": res.time,
        "stopped": res.stopped,
    }


def run_set(name: str, args: argparse.Namespace) -> dict[str, Any]:
    tasks = [(n, lv, sol, args.metric, args.time_limit) for n, lv, sol in _inputs(name, args.first)]
    t0 = time.perf_counter()
    outs = []
    with multiprocessing.get_context("fork").Pool(args.jobs, initializer=_ignore_interrupts) as pool:
        for k, o in enumerate(pool.imap_unordered(_optimise_one, tasks), 1):
            outs.append(o)
            if k % 10 == 0 or k == len(tasks):
                print(f"  {name}: {k}/{len(tasks)}, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    before = [sum(o["before"][j] for o in outs) for j in (0, 1)]
    after = [sum(o["after"][j] for o in outs) for j in (0, 1)]
    return {
        "name": name,
        "levels": len(outs),
        "improved": sum(1 for o in outs if o["after"] != o["before"]),
        "done": sum(1 for o in outs if o["stopped"] == "done"),
        "before": before,
        "after": after,
        "wall": time.perf_counter() - t0,
    }


def _pct(a: int, b: int) -> str:
    return f"{100 * (b - a) / a:+.1f}%" if a else "-"


def report(rows: list[dict[str, Any]], args: argparse.Namespace, argv: list[str], load_before: str) -> str:
    first = "moves, then pushes" if args.metric == "moves" else "pushes, then moves"
    lines = [
        f"Command: `{H.command_line('benchmarks/run.py', ['optimise', *argv])}`; counting {first}; "
        f"{args.time_limit:g} s a level, {args.jobs} levels at once; every result replayed to a win.",
        f"Machine: {H.machine()}; {load_before} at the start, {H.load()} now.",
        "",
        "| input solutions | levels | shortened | searched to the end | moves before → after | "
        "pushes before → after | wall time |",
        "|---|---|---|---|---|---|---|",
    ]
    what = {
        "xsokoban": "XSokoban's reference solutions (shared, not optimal)",
        "generated": "the generator's (200 levels, 10x10, 4 boxes)",
        "microban": "the solver's on Microban (fast mode, 10 s)",
    }
    for r in rows:
        (mb, pb), (ma, pa) = r["before"], r["after"]
        lines.append(
            f"| {what[r['name']]} | {r['levels']} | {r['improved']} | {r['done']} | {mb:,} → {ma:,} ({_pct(mb, ma)}) "
            f"| {pb:,} → {pa:,} ({_pct(pb, pa)}) | {r['wall']:.0f} s |"
        )
    lines += [
        "",
        "*Searched to the end*: every window's searches (the A* and, counting moves, the vicinity "
        "search) ended below their caps, so more time would change nothing. The vicinity search moves "
        "at most four boxes, so a window in which more move is searched for the fewest pushes only. "
        "Peers: no other optimiser runs here (YASS, the one players use most, is a Windows program); "
        "the reference is the input itself.",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py optimise", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per level (default 10)")
    ap.add_argument("--metric", choices=("moves", "pushes"), default="moves")
    ap.add_argument("--first", type=int, default=None, help="only the first N levels of each set")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    names = H.chosen_sets(ap, args.sets, SETS)
    from mazekit.sokoban import parse_level
    from mazekit.sokoban.solver import optimise
    from mazekit.sokoban.solver.kernels.expand import search_kernel

    optimise(parse_level("#######\n#@ $ .#\n#     #\n#######"), "rRdrruLdlluRR")  # compile before forking
    search_kernel.compiled()
    load_before = H.load()
    rows = []
    for n in names:
        rows.append(run_set(n, args))
        body = report(rows, args, argv, load_before)
        if not args.no_write:
            H.write_section("optimise", "Sokoban solution optimiser", body)
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
