"""Reading and writing grids as text.

One coordinate system is used everywhere inside mazekit: ``(r, c)``, row then
column, 0-based, row 0 at the top. A grid is a 2-D bool array ``passable``
(True = a cell that may be entered); the characters of a text form are
translated when it is read, and marked cells (a start ``S``, a goal ``G``, an
explorer ``E``, an exit ``x``) are returned beside it.

Text forms understood:

* 0/1 digits, ``0`` free and ``1`` blocked, written ``1001000`` or ``1 0 0 1 0 0 0``;
* character maps with a legend, such as the forest's ``X`` (trap) / ``O`` (free)
  / ``E`` (explorer), or ``#`` / ``.`` maps;
* CRLF or LF line ends, an optional header line ``R C`` before the rows.

Every problem is reported as :class:`~mazekit.errors.InputError` naming the
1-based line and what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._jit import njit
from .errors import InputError

__all__ = [
    "DEFAULT_LEGEND",
    "DEFAULT_MARKS",
    "Grid",
    "Point",
    "as_passable",
    "border_mask",
    "check_point",
    "decode_text",
    "draw_path",
    "format_grid",
    "format_points",
    "header_ends",
    "parse_char_rows",
    "parse_digit_rows",
    "parse_header",
    "parse_size",
    "read_grid",
    "split_lines",
]

Point = tuple[int, int]

#: Characters understood by :func:`read_grid` when no legend is given:
#: True = passable, False = blocked.
DEFAULT_LEGEND: Mapping[str, bool] = {
    "0": True,
    "1": False,
    ".": True,
    "#": False,
    " ": True,
    "O": True,
    "X": False,
    "S": True,
    "G": True,
    "E": True,
    "x": True,
}

#: Characters whose positions :func:`read_grid` records (start, goal, explorer, exit).
DEFAULT_MARKS = "SGEx"


@dataclass(frozen=True, slots=True, eq=False)
class Grid:
    """A grid read from text: the passable cells and the marked cells.

    Attributes
    ----------
    passable : ndarray of bool, shape (R, C)
        True where a cell may be entered.
    marks : dict
        For each mark character found, the cells where it stands, in reading order.
    """

    passable: NDArray[np.bool_]
    marks: dict[str, list[Point]] = field(default_factory=dict)

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)``."""
        return (int(self.passable.shape[0]), int(self.passable.shape[1]))

    def marked(self, chars: str) -> Point | None:
        """The cell marked with the first of ``chars`` that appears (None when none does);
        InputError when that mark stands on several cells.

        >>> read_grid("S.\\n.x\\n").marked("Gx")
        (1, 1)
        """
        for ch in chars:
            cells = self.marks.get(ch, [])
            if len(cells) > 1:
                raise InputError(0, f"{len(cells)} cells are marked {ch!r}: expected one")
            if cells:
                return cells[0]
        return None

    def mark(self, char: str, *, line_hint: int = 0) -> Point:
        """The single cell marked ``char``; InputError when there is none or several."""
        cells = self.marks.get(char, [])
        if len(cells) != 1:
            found = "no" if not cells else str(len(cells))
            raise InputError(line_hint, f"expected exactly one '{char}', found {found}")
        return cells[0]


def as_passable(passable: ArrayLike, *, name: str = "passable") -> NDArray[np.bool_]:
    """Check and convert a grid argument to a 2-D bool array (no copy when possible).

    >>> as_passable([[0, 1], [1, 1]]).dtype
    dtype('bool')
    """
    arr = np.asarray(passable)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got {arr.ndim} dimension(s)")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must have at least one row and one column, got shape {arr.shape}")
    if arr.dtype != np.bool_:
        if arr.dtype.kind not in "biuf":
            raise ValueError(f"{name} must be bool or numeric, got dtype {arr.dtype}")
        arr = arr != 0
    return arr


def check_point(point: object, shape: tuple[int, int], *, name: str = "point") -> Point:
    """Validate ``point`` as ``(r, c)`` inside a grid of ``shape``; return it as ints.

    >>> check_point((1, 2), (3, 3))
    (1, 2)
    >>> check_point((5, 0), (3, 3), name="start")
    Traceback (most recent call last):
    ...
    ValueError: start (5, 0) is outside a 3x3 grid
    """
    try:
        pr, pc = point  # type: ignore[misc]
        r, c = int(pr), int(pc)  # type: ignore[has-type]
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair (r, c) of integers, got {point!r}") from None
    rows, cols = shape
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"{name} ({r}, {c}) is outside a {rows}x{cols} grid")
    return (r, c)


def decode_text(data: bytes | str) -> str:
    """Decode input bytes as UTF-8 text; an InputError names the line of a bad byte.

    >>> decode_text(b"ab\\n\\xff")
    Traceback (most recent call last):
    ...
    mazekit.errors.InputError: line 2: not UTF-8 text (byte 0xff in column 1)
    """
    if isinstance(data, str):
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(line, f"not UTF-8 text (byte 0x{data[exc.start]:02x} in column {col})") from None
    if "\x00" in text:
        pos = text.index("\x00")
        raise InputError(text.count("\n", 0, pos) + 1, "binary data (a NUL byte) in a text input")
    return text.removeprefix("\ufeff")


def split_lines(text: str) -> list[str]:
    """Split text into lines, accepting LF, CRLF and CR line ends.

    A final line end does not start an extra empty line.

    >>> split_lines("ab\\r\\ncd\\n")
    ['ab', 'cd']
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_header(line: str, lineno: int, names: Sequence[str]) -> list[int]:
    """Parse a line of whitespace-separated integers named ``names``.

    >>> parse_header("4 7 1 3 2 6", 1, ["R", "C", "r1", "c1", "r2", "c2"])
    [4, 7, 1, 3, 2, 6]
    >>> parse_header("4 7", 1, ["R", "C", "r1"])
    Traceback (most recent call last):
    ...
    mazekit.errors.InputError: line 1: expected 3 integers (R C r1), got 2
    """
    words = line.split()
    want = " ".join(names)
    if len(words) != len(names):
        raise InputError(lineno, f"expected {len(names)} integers ({want}), got {len(words)}")
    values = []
    for name, word in zip(names, words, strict=False):
        try:
            values.append(int(word))
        except ValueError:
            raise InputError(lineno, f"{name} must be an integer, got {word!r}") from None
    return values


def _is_int(word: str) -> bool:
    """Whether ``word`` is an integer as ``int`` reads it: ASCII digits, maybe a minus ('²' and '--5' are not)."""
    digits = word[1:] if word.startswith("-") else word
    return digits.isascii() and digits.isdigit()


def _check_size(rows: int, cols: int, lineno: int) -> None:
    if rows < 1 or cols < 1:
        raise InputError(lineno, f"the grid must have at least one row and one column, got {rows}x{cols}")
    if rows * cols > 2**31 - 1:
        raise InputError(lineno, f"a {rows}x{cols} grid is too large (more than 2**31 cells)")


def _unspace(row: str, cols: int) -> str:
    """Accept ``1 0 0 1`` for ``1001`` (cells separated by single spaces or tabs)."""
    if len(row) == 2 * cols - 1 and row[1::2].strip(" \t") == "":
        return row[::2]
    return row


def _rows_fit(lines: Sequence[str], rows: int, cols: int) -> bool:
    """Whether ``lines`` are ``rows`` rows of ``cols`` cells (blank lines after them allowed)."""
    body = list(lines)
    while body and not body[-1].strip():
        body.pop()
    return cols >= 1 and len(body) == rows and all(len(_unspace(row, cols)) == cols for row in body)


def _row_lines(lines: Sequence[str], rows: int, first: int) -> Sequence[str]:
    """The ``rows`` lines from index ``first``; blank lines after them are allowed."""
    have = len(lines) - first
    if have < rows:
        raise InputError(len(lines) + 1, f"missing row: expected {rows} rows, got {max(have, 0)}")
    for i in range(first + rows, len(lines)):
        if lines[i].strip():
            raise InputError(i + 1, f"unexpected text after the {rows} rows of the grid: {lines[i][:20]!r}")
    return lines[first : first + rows]


def parse_digit_rows(lines: Sequence[str], rows: int, cols: int, *, first: int) -> NDArray[np.bool_]:
    """Parse ``rows`` rows of ``0``/``1`` digits starting at ``lines[first]``.

    ``0`` is free (passable), ``1`` blocked. Digits may be separated by spaces.
    Lines after the grid must be blank.

    >>> parse_digit_rows(["10", "0 0"], 2, 2, first=0).astype(int).tolist()
    [[0, 1], [1, 1]]
    """
    _check_size(rows, cols, first)
    body = _row_lines(lines, rows, first)
    cleaned: list[str] = []
    for i, raw in enumerate(body):
        row = raw.rstrip(" \t")
        if len(row) != cols:
            if " " in row or "\t" in row:
                row = row.replace(" ", "").replace("\t", "")
            if len(row) != cols:
                raise InputError(first + i + 1, f"expected {cols} cells, got {len(row)}")
        cleaned.append(row)
    joined = "".join(cleaned)
    try:
        raw_bytes = joined.encode("ascii")
    except UnicodeEncodeError as exc:
        k = exc.start
        raise InputError(
            first + k // cols + 1,
            f"unexpected character {joined[k]!r} in column {k % cols + 1} (expected 0 or 1)",
        ) from None
    codes = np.frombuffer(raw_bytes, dtype=np.uint8)
    bad = (codes - np.uint8(48)) > 1
    if bad.any():
        k = int(np.argmax(bad))
        raise InputError(
            first + k // cols + 1,
            f"unexpected character {joined[k]!r} in column {k % cols + 1} (expected 0 or 1)",
        )
    passable: NDArray[np.bool_] = (codes == 48).reshape(rows, cols)
    return passable


def parse_char_rows(
    lines: Sequence[str],
    rows: int,
    cols: int,
    *,
    first: int,
    legend: Mapping[str, bool],
    marks: str = "",
) -> Grid:
    """Parse ``rows`` rows of a character map, translating with ``legend``.

    Parameters
    ----------
    lines : sequence of str
        The input lines.
    rows, cols : int
        The grid's size.
    first : int
        Index in ``lines`` of the first row.
    legend : mapping
        Each allowed character and whether it is passable.
    marks : str
        Characters whose positions are recorded in :attr:`Grid.marks`.

    Examples
    --------
    >>> g = parse_char_rows(["XEO", "XOX"], 2, 3, first=0,
    ...                     legend={"X": False, "O": True, "E": True}, marks="E")
    >>> g.passable.astype(int).tolist(), g.marks
    ([[0, 1, 1], [0, 1, 0]], {'E': [(0, 1)]})
    """
    _check_size(rows, cols, first)
    body = _row_lines(lines, rows, first)
    allowed = "".join(sorted(legend))
    cleaned: list[str] = []
    for i, raw in enumerate(body):
        row = raw
        if len(row) != cols:
            row = _unspace(row, cols)
            if len(row) != cols and " " not in legend:
                row = row.rstrip(" \t")
            if len(row) != cols:
                raise InputError(first + i + 1, f"expected {cols} cells, got {len(row)}")
        cleaned.append(row)
    joined = "".join(cleaned)
    if joined.isascii() and all(ord(ch) < 128 for ch in legend):
        arr: NDArray[np.integer[Any]] = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
        table = np.zeros(128, dtype=np.uint8)  # 0 unknown, 1 wall, 2 free
        for ch, ok in legend.items():
            table[ord(ch)] = 2 if ok else 1
        kind = table[arr]
    else:
        arr = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        kind = np.zeros(arr.shape, dtype=np.uint8)
        for ch, ok in legend.items():
            kind[arr == ord(ch)] = 2 if ok else 1
    if not kind.all():
        k = int(np.argmin(kind))
        expected = " ".join(repr(ch) for ch in allowed)
        raise InputError(
            first + k // cols + 1,
            f"unexpected character {joined[k]!r} in column {k % cols + 1} (expected one of {expected})",
        )
    passable = (kind == 2).reshape(rows, cols)
    found: dict[str, list[Point]] = {}
    for ch in marks:
        idx = np.flatnonzero(arr == ord(ch))
        if idx.size:
            found[ch] = [(int(k // cols), int(k % cols)) for k in idx]
    return Grid(passable, found)


def read_grid(
    data: bytes | str,
    *,
    legend: Mapping[str, bool] | None = None,
    marks: str = DEFAULT_MARKS,
) -> Grid:
    """Read a grid in any of the text forms mazekit understands.

    An optional first line ``R C`` gives the size (more integers after them are
    ignored, so the robot article's header is accepted); otherwise the size is
    taken from the rows, which must all be as long as the first. A first line
    of 0s and 1s alone (``1 0``) could be either: it is a header only when the
    rows after it fit it. Blank lines at the end are ignored.

    Parameters
    ----------
    data : bytes or str
        The text.
    legend : mapping, optional
        Characters and whether they are passable (default :data:`DEFAULT_LEGEND`).
    marks : str
        Characters whose positions are recorded (default ``"SGEx"``).

    Examples
    --------
    >>> g = read_grid("S.#\\n..G\\n")
    >>> g.shape, g.marks["S"], g.marks["G"]
    ((2, 3), [(0, 0)], [(1, 2)])
    >>> read_grid("1 0\\n0 1\\n").passable.tolist()  # a spaced 2x2 grid, not a header
    [[False, True], [True, False]]
    >>> read_grid("2 2\\n01\\n10\\n").shape  # a header: the rows fit it
    (2, 2)
    >>> read_grid("01\\n1\\n")
    Traceback (most recent call last):
    ...
    mazekit.errors.InputError: line 2: expected 2 cells, got 1
    """
    legend = DEFAULT_LEGEND if legend is None else legend
    lines = split_lines(decode_text(data))
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise InputError(0, "empty input: expected the rows of a grid")
    first = 0
    words = lines[0].split()
    if len(words) >= 2 and all(_is_int(w) for w in words) and len(lines) > 1:
        rows, cols = int(words[0]), int(words[1])
        if set(words) <= {"0", "1"}:
            # "1 0" may be a header or a row of a spaced grid: a header only where the rows fit it
            if _rows_fit(lines[1:], rows, cols):
                first = 1
        elif len(words) == 2 or len(lines) - 1 == rows:
            first = 1
    if first == 0:
        rows = len(lines)
        cols = len(_unspace(lines[0], (len(lines[0]) + 1) // 2)) if lines[0] else 0
        if cols == 0:
            raise InputError(1, "empty row: expected the rows of a grid")
    digits_only = set("".join(lines[first:])) <= set("01 \t")
    if digits_only and legend is DEFAULT_LEGEND:
        if first == 0:
            cols = len(lines[0].replace(" ", "").replace("\t", ""))
        return Grid(parse_digit_rows(lines, rows, cols, first=first), {})
    return parse_char_rows(lines, rows, cols, first=first, legend=legend, marks=marks)


def header_ends(text: str, shape: tuple[int, int]) -> tuple[Point, Point] | None:
    """The start and goal of a robot-article header ``R C r1 c1 r2 c2`` (1-based), 0-based.

    None when the first line is not such a header for a grid of ``shape``, or
    when a cell it names is outside the grid.

    >>> header_ends("4 7 1 3 2 6\\n1001000\\n", (4, 7))
    ((0, 2), (1, 5))
    >>> header_ends("1001000\\n", (1, 7)) is None
    True
    """
    lines = split_lines(text)
    words = lines[0].split() if lines else []
    if len(words) != 6 or not all(_is_int(w) for w in words):
        return None
    rows, cols, r1, c1, r2, c2 = (int(w) for w in words)
    if (rows, cols) != shape or not (1 <= r1 <= rows and 1 <= r2 <= rows and 1 <= c1 <= cols and 1 <= c2 <= cols):
        return None
    return (r1 - 1, c1 - 1), (r2 - 1, c2 - 1)  # the header counts from 1


def format_grid(passable: ArrayLike, *, free: str = "0", wall: str = "1") -> str:
    """Write a grid as text, one line per row (the form :func:`read_grid` reads).

    >>> print(format_grid([[True, False], [True, True]]), end="")
    01
    00
    """
    arr = as_passable(passable)
    if len(free) == 1 and len(wall) == 1 and free.isascii() and wall.isascii():
        rows, cols = arr.shape
        buf = np.empty((rows, cols + 1), dtype=np.uint8)
        buf[:, :cols] = np.where(arr, ord(free), ord(wall))
        buf[:, cols] = 10
        return buf.tobytes().decode("ascii")
    table = np.array([wall, free])
    return "".join("".join(row) + "\n" for row in table[arr.astype(np.intp)])


def border_mask(shape: tuple[int, int]) -> NDArray[np.bool_]:
    """A bool mask of the cells on the grid's outer border.

    >>> border_mask((3, 3)).astype(int).tolist()
    [[1, 1, 1], [1, 0, 1], [1, 1, 1]]
    """
    mask = np.zeros(shape, dtype=bool)
    mask[0, :] = mask[-1, :] = True
    mask[:, 0] = mask[:, -1] = True
    return mask


_ANSI = {
    "wall": "\x1b[48;5;238m",
    "path": "\x1b[48;5;214m",
    "start": "\x1b[48;5;34m",
    "goal": "\x1b[48;5;160m",
    "reset": "\x1b[0m",
}


def draw_path(
    passable: ArrayLike,
    path: Iterable[Point] | NDArray[np.integer] = (),
    *,
    color: bool = False,
    wall: str = "#",
    free: str = ".",
    route: str = "*",
    start: str = "S",
    goal: str = "G",
    width: int = 1,
) -> str:
    """Draw the grid with a route over it, as text (with ANSI colours if ``color``).

    Parameters
    ----------
    passable : array_like of bool
        The grid.
    path : sequence of (r, c)
        The route, start first; its ends are drawn as ``start`` and ``goal``.
    color : bool
        Colour the cells with ANSI escapes (for terminals).
    wall, free, route, start, goal : str
        One character each for the plain-text picture.
    width : int
        Characters per cell (2 gives square cells on most terminals).

    Examples
    --------
    >>> print(draw_path([[1, 1, 0], [0, 1, 1]], [(0, 0), (0, 1), (1, 1), (1, 2)]), end="")
    S*#
    #*G
    """
    arr = as_passable(passable)
    rows, cols = arr.shape
    canvas = np.where(arr, free, wall).astype(object)
    kinds = np.where(arr, "free", "wall").astype(object)
    pts = [(int(r), int(c)) for r, c in path]
    for r, c in pts:
        canvas[r, c] = route
        kinds[r, c] = "path"
    if pts:
        canvas[pts[0]] = start
        kinds[pts[0]] = "start"
        canvas[pts[-1]] = goal
        kinds[pts[-1]] = "goal"
    out = []
    for r in range(rows):
        parts = []
        for c in range(cols):
            cell = str(canvas[r, c]) * width
            kind = kinds[r, c]
            if color and kind != "free":
                cell = _ANSI[kind] + (" " * width if kind in ("wall", "path") else cell) + _ANSI["reset"]
            parts.append(cell)
        out.append("".join(parts) + "\n")
    return "".join(out)


@njit
def _points_kernel(pts: Any, base: int, out: Any) -> int:
    """Write ``r c\\n`` lines for the rows of ``pts`` (+ ``base``) into ``out``."""
    pos = 0
    for i in range(pts.shape[0]):
        for j in range(2):
            v = pts[i, j] + base
            if v < 0:
                out[pos] = 45
                pos += 1
                v = -v
            start = pos
            if v == 0:
                out[pos] = 48
                pos += 1
            while v > 0:
                out[pos] = 48 + v % 10
                v //= 10
                pos += 1
            lo = start
            hi = pos - 1
            while lo < hi:
                t = out[lo]
                out[lo] = out[hi]
                out[hi] = t
                lo += 1
                hi -= 1
            out[pos] = 32 if j == 0 else 10
            pos += 1
    return pos


_SIZE = re.compile(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*")


def parse_size(text: str) -> tuple[int, int]:
    """``"RxC"`` (rows by columns, ``x``, ``X`` or ``*`` between) as ``(R, C)``, both at least 1.

    Raises ``ValueError`` saying what is expected; the caller checks its own limits.

    >>> parse_size("12x32"), parse_size("3 X 4")
    ((12, 32), (3, 4))
    >>> parse_size("3y3")
    Traceback (most recent call last):
    ...
    ValueError: must be RxC (two positive integers, like 12x32), got '3y3'
    """
    m = _SIZE.fullmatch(text)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise ValueError(f"must be RxC (two positive integers, like 12x32), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def format_points(points: ArrayLike, *, base: int = 0) -> str:
    """Cells as ``r c`` lines (adding ``base`` to each coordinate, e.g. 1 for 1-based).

    Millions of points are written by a compiled loop, not by Python formatting.

    >>> print(format_points([(0, 2), (10, 3)], base=1), end="")
    1 3
    11 4
    """
    pts = np.asarray(points, dtype=np.int64).reshape(-1, 2)
    if pts.shape[0] == 0:
        return ""
    biggest = int(np.abs(pts).max()) + abs(base)
    width = len(str(biggest)) + 1
    out = np.empty(pts.shape[0] * (2 * width + 2), dtype=np.uint8)
    n = int(_points_kernel.pick(pts.shape[0] * 4)(pts, base, out))
    return out[:n].tobytes().decode("ascii")
