"""``mazekit demo``: generate a maze, find the shortest route, and draw both.

With no arguments: a 12x32-cell recursive-backtracker maze (seed 2026), solved
from the top-left cell to the bottom-right one by A*, printed in colour on a
terminal.
"""

from __future__ import annotations

import argparse
import sys

from ._io import UsageError, stdout_is_tty, write_output


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "demo",
        help="generate a maze, solve it, and draw the route",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--size", default="12x32", metavar="RxC", help="maze size in cells (default: 12x32)")
    p.add_argument("--seed", type=int, default=2026, help="random seed (default: 2026)")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour (default: auto)")
    p.set_defaults(func=run)


def parse_size(text: str) -> tuple[int, int]:
    """``RxC`` -> (R, C)."""
    try:
        r, c = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size must be RxC (like 12x32), got {text!r}") from None
    if r < 1 or c < 1:
        raise UsageError(f"--size must be at least 1x1, got {text!r}")
    return r, c


def run(args: argparse.Namespace) -> int:
    from ..generate import backtracker
    from ..grid import draw_path
    from ..search import astar

    rows, cols = parse_size(args.size)
    maze = backtracker(rows, cols, rng=args.seed)
    start, goal = (1, 1), (2 * rows - 1, 2 * cols - 1)
    result = astar(maze, start, goal)
    color = args.color == "always" or (args.color == "auto" and stdout_is_tty())
    picture = draw_path(maze, result.path, color=color, width=2, wall="#", free=" ", route=".")
    write_output(None, picture)
    print(
        f"{rows}x{cols} backtracker maze (seed {args.seed}): shortest route {result.length} steps, "
        f"A* visited {result.visited} of {int(maze.sum())} open cells",
        file=sys.stderr,
    )
    return 0
