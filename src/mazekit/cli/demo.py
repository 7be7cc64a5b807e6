"""``mazekit demo``: generate a maze, find the shortest route, and draw both.

With no arguments: a 12x32-cell recursive-backtracker maze (seed 2026), solved
from the top-left cell to the bottom-right one by A*, printed in colour on a
terminal.
"""

from __future__ import annotations

import argparse
import sys

from ._io import size_arg, stdout_is_tty, write_output


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "demo",
        help="generate a maze, solve it, and draw the route",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--size",
        metavar="RxC",
        help="maze size in cells (default: what fits the terminal, 80 columns when not a terminal)",
    )
    p.add_argument("--seed", type=int, default=2026, help="random seed (default: 2026)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour (default: auto)")
    p.set_defaults(func=run)


def fitting_size() -> tuple[int, int]:
    """The largest maze (in cells, at most 12 rows) whose picture fits the terminal.

    A maze of C cells is 2C+1 squares wide, drawn two characters a square; the
    summary line and the prompt need two lines below it.
    """
    import shutil

    width, height = shutil.get_terminal_size((80, 24))
    cols = max(2, (width // 2 - 1) // 2)
    rows = max(2, min(12, (height - 3) // 2))
    return rows, cols


def run(args: argparse.Namespace) -> int:
    from ..generate import backtracker
    from ..grid import draw_path
    from ..search import astar

    rows, cols = size_arg(args.size) if args.size else fitting_size()
    maze = backtracker(rows, cols, rng=args.seed)
    start, goal = (1, 1), (2 * rows - 1, 2 * cols - 1)
    result = astar(maze, start, goal)
    color = args.color == "always" or (args.color == "auto" and stdout_is_tty())
    picture = draw_path(maze, result.path, color=color, width=2, wall="#", free=" ", route=".")
    write_output(None, picture)
    print(
        f"backtracker {rows}x{cols}, seed {args.seed}: route of {result.length} steps, "
        f"A* visited {result.visited} of {int(maze.sum())}",
        file=sys.stderr,
    )
    return 0
