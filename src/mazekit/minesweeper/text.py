"""The article's text format: a board and a click in, the opened board out.

An input is a line ``R C r c`` (rows, columns and the clicked cell, 1-based),
then R rows of ``.`` (no mine) and ``*`` (mine). The answer is R rows, each
open cell as its density digit (0-8) and each closed cell as ``#``, or the
single line ``BOOM`` when the clicked cell is a mine.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from ..grid import Point, decode_text, parse_char_rows, parse_header, split_lines
from .board import Board

__all__ = ["EXAMPLE", "VIEW_EXAMPLE", "open_text", "parse_open", "parse_view"]

#: The article's example input.
EXAMPLE = """\
5 6 5 1
..*...
......
....*.
......
......
"""


def open_text(data: bytes | str) -> str:
    """The article's answer for one input.

    >>> print(open_text(EXAMPLE), end="")
    01####
    0112##
    0001##
    000111
    000000
    >>> open_text("1 2 1 2\\n.*\\n")
    'BOOM\\n'
    """
    board, seed = parse_open(data)
    if board.mines[seed]:
        return "BOOM\n"
    return board.render(board.open(seed))


def parse_open(data: bytes | str) -> tuple[Board, Point]:
    """The board and the (0-based) clicked cell of an input (:class:`~mazekit.errors.InputError`
    names the line of a mistake)."""
    lines = split_lines(decode_text(data))
    if not lines or not lines[0].strip():
        raise InputError(1, "empty input: expected 'R C r c'")
    rows, cols, r, c = parse_header(lines[0], 1, ["R", "C", "r", "c"])
    if rows < 1 or cols < 1:
        raise InputError(1, f"the board must have at least one row and one column, got {rows}x{cols}")
    if not (1 <= r <= rows and 1 <= c <= cols):
        raise InputError(
            1, f"the clicked cell ({r}, {c}) is outside the {rows}x{cols} board (rows and columns count from 1)"
        )
    grid = parse_char_rows(lines, rows, cols, first=1, legend={".": True, "*": False})
    for extra in range(1 + rows, len(lines)):
        if lines[extra].strip():
            raise InputError(extra + 1, f"unexpected text after the {rows} rows of the board")
    return Board.from_mines(~grid.passable), (r - 1, c - 1)  # the only 1-based code


#: An example input of :func:`parse_view` (``mazekit mines hint``).
VIEW_EXAMPLE = """\
4 5 4
1####
#####
#####
#####
"""


def parse_view(data: bytes | str) -> tuple[NDArray[np.int8], int, NDArray[np.bool_]]:
    """A position as a player sees it: a line ``R C M`` (rows, columns, mines), then R rows
    of ``#`` (closed), ``F`` (closed, flagged) and ``0``-``8`` (open); ``.`` is also 0.

    Returns the view (-1 closed, 0-8 open), the mines and the flags.

    >>> view, mines, flags = parse_view(VIEW_EXAMPLE)
    >>> view[0].tolist(), mines, int(flags.sum())
    ([1, -1, -1, -1, -1], 4, 0)
    """
    lines = split_lines(decode_text(data))
    if not lines or not lines[0].strip():
        raise InputError(1, "empty input: expected 'R C M' (rows, columns, mines)")
    rows, cols, mines = parse_header(lines[0], 1, ["R", "C", "M"])
    if rows < 1 or cols < 1:
        raise InputError(1, f"the board must have at least one row and one column, got {rows}x{cols}")
    if not 0 <= mines <= rows * cols:
        raise InputError(1, f"M must be between 0 and {rows * cols} for a {rows}x{cols} board, got {mines}")
    body = list(lines[1:])
    while body and not body[-1].strip():
        body.pop()
    if len(body) != rows:
        raise InputError(
            1 + min(len(body), rows) + (len(body) > rows), f"expected {rows} rows of the board, got {len(body)}"
        )
    view = np.full((rows, cols), -1, dtype=np.int8)
    flags = np.zeros((rows, cols), dtype=bool)
    for r, line in enumerate(body):
        row = line.strip()
        if len(row) != cols:
            raise InputError(r + 2, f"expected {cols} cells, got {len(row)}")
        for c, ch in enumerate(row):
            if ch in "012345678.":
                view[r, c] = 0 if ch == "." else int(ch)
            elif ch in "Ff":
                flags[r, c] = True
            elif ch != "#":
                raise InputError(r + 2, f"unexpected {ch!r} in column {c + 1}: use # (closed), F (flag) or 0-8 (open)")
    return view, int(mines), flags
