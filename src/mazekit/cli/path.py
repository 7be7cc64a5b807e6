"""``mazekit path``: a route through any grid, with the algorithm of your choice.

The grid is text: 0/1 digits (0 free), ``.``/``#`` maps, the forest's X/O, with
optional marks ``S`` (start), ``G`` (goal), ``E`` (start) and ``x`` (goal), and
an optional header line ``R C``. A robot-article header ``R C r1 c1 r2 c2`` gives
the start and goal. Cells are ``R,C``, 0-based unless ``--one-based``.

Prints the route, one ``r c`` per line, and a summary on stderr; ``--draw``
prints the grid with the route instead. When there is no route it prints ``-1``
and exits with status 1.
"""

from __future__ import annotations

import argparse
import sys

from ..grid import Grid, Point, decode_text, draw_path, format_points, read_grid, split_lines
from ._io import UsageError, check_outputs, read_input, stdout_is_tty, write_output

ALGORITHMS = ("bfs", "astar", "dijkstra", "greedy", "dfs")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "path",
        help="find a route through any grid (bfs, astar, dijkstra, greedy, dfs)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", help="grid file (default: stdin)")
    p.add_argument("-a", "--algorithm", choices=ALGORITHMS, default="bfs", help="search algorithm (default: bfs)")
    p.add_argument("--start", metavar="R,C", help="start cell (default: the cell marked S or E)")
    goal = p.add_mutually_exclusive_group()
    goal.add_argument("--goal", metavar="R,C", help="goal cell (default: the cell marked G or x)")
    goal.add_argument("--border", action="store_true", help="go to the nearest border cell instead of a goal")
    p.add_argument("-c", "--connectivity", type=int, choices=(4, 8), default=4, help="4 or 8 neighbours (default: 4)")
    p.add_argument("--one-based", action="store_true", help="cells count from 1 in options and output")
    p.add_argument("--draw", action="store_true", help="print the grid with the route drawn over it")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour for --draw")
    p.add_argument("-o", "--output", metavar="OUT", help="write the answer here (default: stdout)")
    p.set_defaults(func=run)


def _cell(text: str, option: str, base: int) -> Point:
    parts = text.replace(" ", ",").split(",")
    try:
        r, c = (int(x) for x in parts if x != "")
    except ValueError:
        raise UsageError(f"{option} must be R,C (two integers), got {text!r}") from None
    return (r - base, c - base)


def run(args: argparse.Namespace) -> int:
    check_outputs(args.output)
    text = decode_text(read_input(args.file))
    grid = read_grid(text)
    base = 1 if args.one_based else 0
    lines = split_lines(text)
    header = lines[0].split() if lines else []
    robot = len(header) == 6 and all(w.isdigit() for w in header)
    start = _cell(args.start, "--start", base) if args.start else grid.marked("SE")
    if start is None and robot:
        start = (int(header[2]) - 1, int(header[3]) - 1)
    goal = _cell(args.goal, "--goal", base) if args.goal else None
    if goal is None and not args.border:
        goal = grid.marked("Gx")
        if goal is None and robot:
            goal = (int(header[4]) - 1, int(header[5]) - 1)
    if start is None:
        raise UsageError("no start: give --start R,C or mark a cell S")
    if goal is None and not args.border:
        raise UsageError("no goal: give --goal R,C, --border, or mark a cell G")
    rows, cols = grid.shape
    for name, pt in (("start", start), ("goal", goal)):
        if pt is not None and not (0 <= pt[0] < rows and 0 <= pt[1] < cols):
            raise UsageError(f"{name} ({pt[0] + base}, {pt[1] + base}) is outside the {rows}x{cols} grid")
    result = _search(args.algorithm, grid, start, goal, args.connectivity)
    if not result.found:
        write_output(args.output, "-1\n")
        print(f"{args.algorithm}: no route ({result.visited} cells visited)", file=sys.stderr)
        return 1
    if args.draw:
        color = args.color == "always" or (args.color == "auto" and args.output is None and stdout_is_tty())
        out = draw_path(grid.passable, result.path, color=color, width=2 if color else 1)
    else:
        out = format_points(result.path, base=base)
    write_output(args.output, out)
    cost = f", cost {result.cost:g}" if args.algorithm == "dijkstra" or args.connectivity == 8 else ""
    print(f"{args.algorithm}: length {result.length}{cost}, {result.visited} cells visited", file=sys.stderr)
    return 0


def _search(algorithm: str, grid: Grid, start: Point, goal: Point | None, conn: int):  # type: ignore[no-untyped-def]
    from .. import search

    passable = grid.passable.copy()
    passable[start] = True
    targets = "border" if goal is None else None
    if algorithm == "bfs":
        return search.bfs(passable, start, goal, targets=targets, connectivity=conn)  # type: ignore[arg-type]
    if algorithm == "dfs":
        return search.dfs(passable, start, goal, targets=targets, connectivity=conn)  # type: ignore[arg-type]
    if algorithm == "dijkstra":
        import numpy as np

        cost = np.where(passable, 1.0, np.inf)
        return search.dijkstra(cost, start, goal, targets=targets, connectivity=conn)  # type: ignore[arg-type]
    if goal is None:
        raise UsageError(f"--border needs bfs, dfs or dijkstra: {algorithm} needs a goal")
    fn = search.astar if algorithm == "astar" else search.greedy
    return fn(passable, start, goal, connectivity=conn)  # type: ignore[arg-type]
