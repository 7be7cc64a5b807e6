"""``mazekit forest``: escape from the forest (article 2), depth-first search.

Input: a line ``R C``, then R rows over ``X`` (trap), ``O`` (free) and one ``E``
(the explorer). Output: ``r c`` lines (0-based) from E to the first border cell
the recursive DFS reaches (neighbours up, down, left, right), or ``-1`` when no
border cell can be reached.
"""

from __future__ import annotations

import argparse

from .. import articles
from ._io import check_outputs, read_input, write_output

EXAMPLE = articles.FOREST_EXAMPLE


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
    """The answer for one input, as the article prints it (:func:`mazekit.articles.forest`)."""
    return articles.forest(data).text


def run(args: argparse.Namespace) -> int:
    check_outputs(args.output, args.png, args.html)
    found = articles.forest(read_input(args.file))
    answer, drawing = found.text, found.drawing()
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
