"""``mazekit robot``: the robot in the maze (article 1), shortest route by BFS.

Input: a line ``R C r1 c1 r2 c2`` (1-based), then R rows of C digits (0 free,
1 blocked). Output: the route's cells as ``r c`` lines (1-based), start first,
or ``-1`` when there is none.
"""

from __future__ import annotations

import argparse

from .. import articles
from ._io import check_outputs, read_input, write_output

EXAMPLE = articles.ROBOT_EXAMPLE


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "robot",
        help="the robot in the maze: shortest route by BFS (article 1)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", help="input file (default: stdin)")
    p.add_argument("-o", "--output", metavar="OUT", help="write the answer here (default: stdout)")
    p.add_argument("--png", metavar="FILE", help="also draw the maze and the route as a PNG")
    p.add_argument("--html", metavar="FILE", help="also write a page replaying the search (self-contained HTML)")
    p.set_defaults(func=run)


def solve_text(data: bytes | str) -> str:
    """The answer for one input, as the article prints it (:func:`mazekit.articles.robot`)."""
    return articles.robot(data).text


def run(args: argparse.Namespace) -> int:
    check_outputs(args.output, args.png, args.html)
    found = articles.robot(read_input(args.file))
    answer, drawing = found.text, found.drawing()
    if args.png or args.html:
        from .maze import write_grid_pictures

        steps = "no route" if drawing["route"] is None else f"shortest route: {len(drawing['route']) - 1} steps"
        write_grid_pictures(
            args.png,
            args.html,
            title="The robot in the maze",
            info=f"BFS, {steps}",
            **drawing,
            output=args.output,
            text=answer,
        )
        return 0
    write_output(args.output, answer)
    return 0
