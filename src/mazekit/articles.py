"""The robot and forest articles' text formats: read an input, answer it as the article prints it.

The command line (``mazekit robot``, ``mazekit forest``) and the playground's article page both
answer through these two functions, so the text they print is the same to the byte.

* **robot** (article 1): a line ``R C r1 c1 r2 c2`` (1-based), then R rows of C digits (0 free,
  1 blocked). The answer: the BFS route's cells as ``r c`` lines, **1-based**, start first, or
  ``-1`` when there is none.
* **forest** (article 2): a line ``R C``, then R rows over ``X`` (trap), ``O`` (free) and one
  ``E`` (the explorer). The answer: ``r c`` lines, **0-based**, from E to the first border cell the
  recursive DFS reaches (neighbours up, down, left, right), or ``-1``.

Inside, cells are 0-based ``(r, c)`` as everywhere in mazekit; the robot's 1-based cells are
converted here, when the input is read and when the answer is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .errors import InputError
from .grid import Point, decode_text, format_points, parse_char_rows, parse_digit_rows, parse_header, split_lines

__all__ = ["FOREST_EXAMPLE", "ROBOT_EXAMPLE", "ArticleAnswer", "forest", "robot"]

ROBOT_EXAMPLE = """\
4 7 1 3 2 6
1001000
0010100
0000000
1101000
"""

FOREST_EXAMPLE = """\
5 5
XXXXX
XEOOX
XXXOX
XOOOX
XOXXX
"""

#: The forest's cells: X a trap, O free; E, the explorer's cell, is not entered again.
FOREST_LEGEND = {"X": False, "O": True, "E": False}


@dataclass(frozen=True, eq=False)
class ArticleAnswer:
    """An article's answer: its text, and what a picture of it needs (0-based cells).

    Attributes
    ----------
    text : str
        The answer as the article prints it (``-1`` and a newline when there is no route).
    passable : ndarray of bool
        The grid read from the input (True = may enter).
    start, goal : (r, c) or None
        Where the search starts and where it ended (the forest's goal is the border cell found).
    route : ndarray of shape (n, 2) or None
        The route's cells, start first; None when there is none.
    order : ndarray of int or None
        The step at which the search visited each cell (-1 never); None when it did not run.
    marks : dict
        Letters to draw on cells (the forest's ``E``).
    """

    text: str
    passable: NDArray[np.bool_]
    start: Point
    goal: Point | None
    route: NDArray[np.int64] | None = None
    order: NDArray[np.int32] | None = None
    marks: dict[Point, str] = field(default_factory=dict)

    def drawing(self) -> dict[str, Any]:
        """The keyword arguments a picture of the answer is drawn from."""
        return {
            "passable": self.passable,
            "route": self.route,
            "start": self.start,
            "goal": self.goal,
            "order": self.order,
            "marks": self.marks or None,
        }


def _lines(data: bytes | str, header: str) -> list[str]:
    """The input's lines; an empty input is an error that names the header expected."""
    lines = split_lines(decode_text(data))
    if not lines or not lines[0].strip():
        raise InputError(1, f"empty input: expected '{header}'")
    return lines


def robot(data: bytes | str) -> ArticleAnswer:
    """The robot article's answer for one input: the shortest route by BFS, 1-based.

    >>> print(robot(ROBOT_EXAMPLE).text, end="")
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
    lines = _lines(data, "R C r1 c1 r2 c2")
    rows, cols, r1, c1, r2, c2 = parse_header(lines[0], 1, ["R", "C", "r1", "c1", "r2", "c2"])
    if rows < 1 or cols < 1:
        raise InputError(1, f"the maze must have at least one row and one column, got {rows}x{cols}")
    for name, r, c in (("start", r1, c1), ("finish", r2, c2)):
        if not (1 <= r <= rows and 1 <= c <= cols):
            raise InputError(1, f"{name} ({r}, {c}) is outside the {rows}x{cols} maze (rows and columns count from 1)")
    passable = parse_digit_rows(lines, rows, cols, first=1)
    start = (r1 - 1, c1 - 1)  # the robot's cells count from 1; mazekit's from 0
    goal = (r2 - 1, c2 - 1)
    if not passable[start] or not passable[goal]:
        return ArticleAnswer("-1\n", passable, start, goal)
    from .search import bfs

    result = bfs(passable, start, goal)
    if not result.found:
        return ArticleAnswer("-1\n", passable, start, goal, order=result.order)
    return ArticleAnswer(format_points(result.path, base=1), passable, start, goal, result.path, result.order)


def forest(data: bytes | str) -> ArticleAnswer:
    """The forest article's answer for one input: the recursive DFS's way to the border, 0-based.

    >>> print(forest(FOREST_EXAMPLE).text, end="")
    1 1
    1 2
    1 3
    2 3
    3 3
    3 2
    3 1
    4 1
    """
    lines = _lines(data, "R C")
    rows, cols = parse_header(lines[0], 1, ["R", "C"])
    grid = parse_char_rows(lines, rows, cols, first=1, legend=FOREST_LEGEND, marks="E")
    cells = grid.marks.get("E", [])
    if len(cells) != 1:
        if not cells:
            raise InputError(2, "no explorer: expected exactly one 'E'")
        r, _ = cells[1]
        raise InputError(r + 2, f"a second explorer 'E' at row {r}: expected exactly one")
    from .search import dfs

    start = cells[0]
    result = dfs(grid.passable, start, targets="border")
    marks = {start: "E"}
    if not result.found:
        return ArticleAnswer("-1\n", grid.passable, start, None, order=result.order, marks=marks)
    text = format_points(result.path)
    return ArticleAnswer(text, grid.passable, start, result.goal, result.path, result.order, marks)
