"""``mazekit forest``: escape from the forest (article 2), depth-first search.

Input: a line ``R C``, then R rows over ``X`` (trap), ``O`` (free) and one ``E``
(the explorer). Output: ``r c`` lines (0-based) from E to the first border cell
the recursive DFS reaches (neighbours up, down, left, right), or ``-1`` when no
border cell can be reached.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InputError
from ..grid import decode_text, format_points, parse_char_rows, parse_header, split_lines
from ._io import check_outputs, read_input, write_output

EXAMPLE = """\
5 5
XXXXX
XEOOX
XXXOX
XOOOX
XOXXX
"""

LEGEND = {"X": False, "O": True, "E": False}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "forest",
        help="escape from the forest: DFS to the border (article 2)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", nargs="?", help="input file (default: stdin)")
    p.add_argument("-o", "--output", metavar="OUT", help="write the answer here (default: stdout)")
    p.add_argument("--png", metavar="FILE", help="also draw the forest and the way out as a PNG")
    p.add_argument("--html", metavar="FILE", help="also write a page replaying the search (self-contained HTML)")
    p.set_defaults(func=run)


def solve_text(data: bytes | str) -> str:
    """The answer for one input, as the article prints it.

    >>> print(solve_text(EXAMPLE), end="")
    1 1
    1 2
    1 3
    2 3
    3 3
    3 2
    3 1
    4 1
    """
    return _answer(data)[0]


def _answer(data: bytes | str) -> tuple[str, dict[str, Any]]:
    """The answer's text, and what a picture of it needs."""
    lines = split_lines(decode_text(data))
    if not lines or not lines[0].strip():
        raise InputError(1, "empty input: expected 'R C'")
    rows, cols = parse_header(lines[0], 1, ["R", "C"])
    grid = parse_char_rows(lines, rows, cols, first=1, legend=LEGEND, marks="E")
    cells = grid.marks.get("E", [])
    if len(cells) != 1:
        if not cells:
            raise InputError(2, "no explorer: expected exactly one 'E'")
        r, _ = cells[1]
        raise InputError(r + 2, f"a second explorer 'E' at row {r}: expected exactly one")
    from ..search import dfs

    result = dfs(grid.passable, cells[0], targets="border")
    drawing: dict[str, Any] = {
        "passable": grid.passable,
        "route": None,
        "start": cells[0],
        "goal": None,
        "order": result.order,
        "marks": {cells[0]: "E"},
    }
    if not result.found:
        return "-1\n", drawing
    drawing["route"] = result.path
    drawing["goal"] = result.goal
    return format_points(result.path), drawing


def run(args: argparse.Namespace) -> int:
    check_outputs(args.output, args.png, args.html)
    answer, drawing = _answer(read_input(args.file))
    if args.png or args.html:
        from .maze import write_grid_pictures

        steps = "no way out" if drawing["route"] is None else f"way out: {len(drawing['route']) - 1} steps"
        write_grid_pictures(
            args.png,
            args.html,
            title="Escape from the forest",
            info=f"DFS, {steps}",
            **drawing,
            output=args.output,
            text=answer,
        )
        return 0
    write_output(args.output, answer)
    return 0
