"""Universal escape strings on many random mazes: length / lower bound, share proved, time (issue #18).

``python benchmarks/run.py universal_quality [--count N] [--sizes 10,12,16] [--time-limit S] [--quick]
[--method auto] [--no-write]``

Sizes are grids of *squares*, like the article's 10x10 maze (walls are squares too), not cells of
a generated maze. Maze ``i`` of a size (seed ``1000 * size + i``) is, by ``i % 3``:

* a **perfect** maze: ``backtracker(size // 2, size // 2)`` (a ``(size + 1)`` square layout)
  without its first row and column, so ``size x size`` squares (its last row and column are
  the generator's outer wall);
* a **braided** maze: the same with half of its dead ends opened (``braid(maze, 0.5)``);
* an **open grid**: each square a wall with probability 0.3; free squares cut off from the
  exit are made walls (so that a string exists).

The exit is a free square drawn uniformly ("exit anywhere"). Each maze gets one ``find``
call with ``time_limit``; the string is checked by ``verify``. Reported per size: the
median and worst ``length / lower bound``, the share proved shortest, the median and
worst time. Runs in one process, one maze at a time (kernels compiled before timing).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from _harness import command_line, load, machine, write_section

KINDS = ("perfect", "braided", "open")


def make_maze(size: int, i: int) -> tuple[np.ndarray, tuple[int, int], str]:
    """Maze ``i`` of ``size``: ``(passable, exit, kind)``; deterministic."""
    from mazekit.generate import backtracker, braid
    from mazekit.search import bfs_distances

    gen = np.random.default_rng(1000 * size + i)
    kind = KINDS[i % 3]
    if kind == "open":
        passable = gen.random((size, size)) >= 0.3
        if not passable.any():
            passable[0, 0] = True
    else:
        maze = backtracker(size // 2, size // 2, rng=gen)
        if kind == "braided":
            maze = braid(maze, 0.5, rng=gen)
        passable = maze[1 : size + 1, 1 : size + 1].copy()
    free = np.argwhere(passable)
    r, c = free[int(gen.integers(len(free)))]
    exit = (int(r), int(c))
    reach = bfs_distances(passable, exit)
    passable &= reach >= 0  # open grids: pockets cut off from the exit become walls
    return passable, exit, kind


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(np.array(xs), q)) if xs else float("nan")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py universal_quality", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--count", type=int, default=100, help="mazes per size (default 100)")
    ap.add_argument("--sizes", default="10,12,16", help="grid sides in squares (default 10,12,16)")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per maze (default 10)")
    ap.add_argument("--method", default="auto", choices=("auto", "heuristic", "exact"))
    ap.add_argument("--quick", action="store_true", help="10 mazes a size, 3 s each")
    ap.add_argument("--label", default="", help="a name for this run in the section title")
    ap.add_argument("--no-write", action="store_true", help="print only, do not touch RESULTS.md")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per maze")
    args = ap.parse_args(argv)
    if args.quick:
        args.count, args.time_limit = 10, 3.0
    sizes = [int(s) for s in args.sizes.split(",")]

    from mazekit.universal import find, verify

    for i in range(3):  # compile / load every kernel the runs use (not timed)
        find(*make_maze(10, i)[:2], time_limit=2.0)

    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    say(f"Command: `{command_line('benchmarks/run.py universal_quality', argv)}`  ")
    say(f"Machine: {machine()}; {load()} at the start  ")
    say(f"{args.count} mazes per size (perfect, braided, open 30% walls in turn; exit anywhere), ")
    say(f"`find(method={args.method!r}, time_limit={args.time_limit:g})` on each, every string checked by `verify`.")
    say()
    say(
        "| size | mazes | starts (median) | length / lower bound: median | worst | proved shortest "
        "| time: median | worst |"
    )
    say("|---|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        ratios: list[float] = []
        times: list[float] = []
        starts: list[int] = []
        proved = 0
        for i in range(args.count):
            passable, exit, kind = make_maze(size, i)
            t0 = time.perf_counter()
            res = find(passable, exit, method=args.method, time_limit=args.time_limit)  # type: ignore[arg-type]
            dt = time.perf_counter() - t0
            assert res.found and verify(passable, exit, res.string).ok, (size, i)
            ratio = len(res.string) / res.lower_bound if res.lower_bound > 0 else 1.0
            ratios.append(ratio)
            times.append(dt)
            starts.append(res.starts)
            proved += res.proven
            if args.verbose:
                print(
                    f"  {size}x{size} #{i} {kind}: {res.starts} starts, length {len(res.string)}, "
                    f"bound {res.lower_bound}, {res.method}{' proved' if res.proven else ''}, {dt:.2f} s",
                    flush=True,
                )
        say(
            f"| {size}x{size} | {args.count} | {int(np.median(starts))} | {np.median(ratios):.3f} | {max(ratios):.3f} "
            f"| {proved}/{args.count} ({100 * proved / args.count:.0f}%) | {np.median(times):.2f} s "
            f"| {max(times):.2f} s |"
        )
    say()
    say(f"Load at the end: {load()}.")
    if not args.no_write:
        title = "Universal escape strings: quality on random mazes" + (f" ({args.label})" if args.label else "")
        key = "universal_quality" + (f"_{args.label}" if args.label else "")
        write_section(key, title, "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
