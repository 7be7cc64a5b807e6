"""``mazekit robot``: the robot in the maze (article 1), shortest route by BFS.

Input: a line ``R C r1 c1 r2 c2`` (1-based), then R rows of C digits (0 free,
1 blocked). Output: the route's cells as ``r c`` lines (1-based), start first,
or ``-1`` when there is none.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InputError
from ..grid import decode_text, format_points, parse_digit_rows, parse_header, split_lines
from ._io import check_outputs, read_input, write_output

EXAMPLE = """\
4 7 1 3 2 6
1001000
0010100
0000000
1101000
"""


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
    """The answer for one input, as the text the article prints.

    >>> print(solve_text(EXAMPLE), end="")
    1 3
    1 2
    2 2
    3 2
    3 3
    3 4
    3 5
    3 6
    2 6
    """
    return _answer(data)[0]


def _answer(data: bytes | str) -> tuple[str, dict[str, Any]]:
    """The answer's text, and what a picture of it needs (0-based cells)."""
    lines = split_lines(decode_text(data))
    if not lines or not lines[0].strip():
        raise InputError(1, "empty input: expected 'R C r1 c1 r2 c2'")
    rows, cols, r1, c1, r2, c2 = parse_header(lines[0], 1, ["R", "C", "r1", "c1", "r2", "c2"])
    if rows < 1 or cols < 1:
        raise InputError(1, f"the maze must have at least one row and one column, got {rows}x{cols}")
    for name, r, c in (("start", r1, c1), ("finish", r2, c2)):
        if not (1 <= r <= rows and 1 <= c <= cols):
            raise InputError(1, f"{name} ({r}, {c}) is outside the {rows}x{cols} maze (rows and columns count from 1)")
    passable = parse_digit_rows(lines, rows, cols, first=1)
    start = (r1 - 1, c1 - 1)  # the only 1-based code
    goal = (r2 - 1, c2 - 1)
    drawing: dict[str, Any] = {"passable": passable, "route": None, "start": start, "goal": goal}
    if not passable[start] or not passable[goal]:
        return "-1\n", drawing
    from ..search import bfs

    result = bfs(passable, start, goal)
    drawing["order"] = result.order
    if not result.found:
        return "-1\n", drawing
    drawing["route"] = result.path
    return format_points(result.path, base=1), drawing


def run(args: argparse.Namespace) -> int:
    check_outputs(args.output, args.png, args.html)
    answer, drawing = _answer(read_input(args.file))
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
