"""Reading and writing Sokoban levels: XSB collections, run-length rows, the assignment's map.

This is the only module of mazekit that knows the assignment's ``(x, y)``
coordinates (column, row counted from the bottom); everything else uses ``(r, c)``.

Formats read:

* **XSB** (the standard text form): ``#`` wall, ``@`` player, ``+`` player on a
  goal, ``$`` box, ``*`` box on a goal, ``.`` goal, space, ``-`` or ``_`` floor.
  A file may hold a collection: levels are separated by blank lines, ``;``
  comments and free text; a level's title is the text of a ``Title:`` line after
  it, else the last text line before it (``; 12`` gives ``12``).
* **Run-length encoded rows**: a count before a character repeats it, ``|``
  separates rows: ``4#|#-@$.#`` is the two rows ``####`` and ``#-@$.#``.
* **The assignment's map** (article 5): 10 lines of at most 20 characters
  (``@`` player, ``o`` box, ``x`` target, space floor, ``#`` wall), then one line
  of moves over ``^ v < >``. One target, the *fake* one, does not count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from ..grid import decode_text, split_lines
from .level import Level, State

__all__ = [
    "ASSIGNMENT_COLS",
    "ASSIGNMENT_MOVES",
    "ASSIGNMENT_ROWS",
    "MAX_LEVEL_CELLS",
    "Assignment",
    "fake_target",
    "format_assignment_map",
    "format_level",
    "format_levels",
    "from_xy",
    "level_index",
    "load_levels",
    "parse_assignment",
    "parse_level",
    "parse_levels",
    "to_xy",
]

_XSB = set("#@+$*.-_ ")
_RLE = set("0123456789|")
_SOLID = set("#@+$*.")
_XSB_CODES = np.array([ord(ch) for ch in sorted(_XSB)], dtype=np.uint32)
_GOAL_CODES = np.array([ord(ch) for ch in ".+*"], dtype=np.uint32)
_PLAYER_CODES = np.array([ord(ch) for ch in "@+"], dtype=np.uint32)
_BOX_CODES = np.array([ord(ch) for ch in "$*"], dtype=np.uint32)

#: The most cells a level read from text may have (a few run-length rows could otherwise ask for gigabytes).
MAX_LEVEL_CELLS = 2**22

#: The assignment's map size.
ASSIGNMENT_ROWS = 10
ASSIGNMENT_COLS = 20
#: The assignment's move characters and their LURD letters.
ASSIGNMENT_MOVES = {"^": "u", "v": "d", "<": "l", ">": "r"}


# ----------------------------------------------------------------------- XSB


def _is_board_line(line: str) -> bool:
    s = line.strip()
    if not s:
        return False
    if re.match(r"\d*#", s):
        return True
    return set(s) <= (_XSB | _RLE) and bool(set(s) & _SOLID)


def _expand_rle(text: str, lineno: int) -> list[str]:
    """Expand one run-length encoded line into rows (at most :data:`MAX_LEVEL_CELLS` characters in all)."""
    rows: list[str] = []
    out: list[str] = []
    count = ""
    total = 0
    for col, ch in enumerate(text, 1):
        if ch in "0123456789":  # not str.isdigit: int() refuses '²'
            count += ch
            continue
        if ch == "|":
            if count:
                raise InputError(lineno, f"count {count} before '|' in column {col}")
            rows.append("".join(out))
            out = []
            continue
        n = int(count) if count else 1
        if n > 100000:
            raise InputError(lineno, f"run length {n} in column {col} is too large")
        total += n
        if total > MAX_LEVEL_CELLS:
            raise InputError(lineno, f"the run-length rows expand to more than {MAX_LEVEL_CELLS} cells")
        out.append(ch * n)
        count = ""
    if count:
        raise InputError(lineno, f"count {count} at the end of the row repeats nothing")
    rows.append("".join(out))
    return rows


def _build_xsb(rows: list[tuple[int, str]], title: str) -> Level:
    """A level from ``(line number, row text)`` pairs of XSB rows."""
    first_line = rows[0][0]
    height = len(rows)
    width = max(len(t) for _, t in rows)
    if height * width > MAX_LEVEL_CELLS:
        raise InputError(first_line, f"a {height}x{width} level is too large (more than {MAX_LEVEL_CELLS} cells)")
    # the rows as one array of character codes, short rows padded with floor
    codes = np.full((height, width), ord(" "), dtype=np.uint32)
    for r, (_, text) in enumerate(rows):
        codes[r, : len(text)] = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    bad = np.flatnonzero(~np.isin(codes, _XSB_CODES))
    if len(bad):
        r, c = divmod(int(bad[0]), width)
        raise InputError(rows[r][0], f"unexpected character {chr(int(codes[r, c]))!r} in column {c + 1} of the level")
    walls = codes == ord("#")
    goals = np.isin(codes, _GOAL_CODES)
    flat = codes.ravel()
    players = [
        (rows[p // width][0], p // width, p % width) for p in np.flatnonzero(np.isin(flat, _PLAYER_CODES))[:2].tolist()
    ]
    boxes = [int(b) for b in np.flatnonzero(np.isin(flat, _BOX_CODES))]
    if not players:
        raise InputError(first_line, "level has no player ('@' or '+')")
    if len(players) > 1:
        lineno, r, c = players[1]
        raise InputError(lineno, f"a second player in column {c + 1} (a level has exactly one)")
    if not boxes:
        raise InputError(first_line, "level has no boxes")
    n_goals = int(goals.sum())
    if len(boxes) > n_goals:
        raise InputError(first_line, f"level has {len(boxes)} boxes but only {n_goals} goals")
    _, pr, pc = players[0]
    start = State.make(pr * width + pc, boxes)
    return Level(walls, goals, start, np.zeros_like(goals), title)


def _title_of(text: str) -> str:
    s = text.strip()
    s = s.lstrip(";").strip()
    if s.lower().startswith("title:"):
        s = s[6:].strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        s = s[1:-1].strip()
    return s


def parse_levels(data: bytes | str) -> list[Level]:
    """Read every level of an XSB collection (run-length rows accepted).

    Raises :class:`~mazekit.errors.InputError` naming the line of the first
    problem: a strange character in a level row, no player or two, no boxes,
    more boxes than goals, no level at all, or a level (run-length rows
    expanded) of more than :data:`MAX_LEVEL_CELLS` cells.

    Examples
    --------
    >>> text = "; Two tiny levels\\n\\n; one\\n#####\\n#@$.#\\n#####\\n\\n5#|#.$@#|5#\\nTitle: two\\n"
    >>> levels = parse_levels(text)
    >>> [(lv.title, lv.shape) for lv in levels]
    [('one', (3, 5)), ('two', (3, 5))]
    >>> parse_levels("####\\n#@@#\\n####")
    Traceback (most recent call last):
    ...
    mazekit.errors.InputError: line 2: a second player in column 3 (a level has exactly one)
    """
    lines = split_lines(decode_text(data))
    blocks: list[tuple[list[tuple[int, str]], list[str], list[str]]] = []
    text_lines: list[str] = []
    current: list[tuple[int, str]] = []
    cells = 0  # characters in the current level's rows
    for i, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if _is_board_line(line):
            if not current:
                blocks.append((current, text_lines, []))
                text_lines = []
                cells = 0
            if set(line.strip()) & _RLE:
                expanded = _expand_rle(line.strip() if "|" in line else line, i)
                current.extend((i, row) for row in expanded)
                cells += sum(len(row) for row in expanded)
                if cells > MAX_LEVEL_CELLS:
                    raise InputError(i, f"the level's run-length rows expand to more than {MAX_LEVEL_CELLS} cells")
            else:
                current.append((i, line))
            continue
        if current:
            current = []
        if line.strip():
            if blocks:
                blocks[-1][2].append(line)
            text_lines.append(line)
    if not blocks:
        raise InputError(0, "no level found (expected rows of '#', '@', '$', '.' ...)")
    levels: list[Level] = []
    for rows, before, after in blocks:
        title = ""
        titled = [t for t in after if _title_line(t)]
        if titled:
            title = _title_of(titled[0])
        else:
            pool = [t for t in before if not _title_line(t)]
            if pool:
                title = _title_of(pool[-1])
        levels.append(_build_xsb(rows, title))
    return levels


def _title_line(t: str) -> bool:
    return t.strip().lower().startswith("title:")


def parse_level(data: bytes | str) -> Level:
    """Read a text holding exactly one level (see :func:`parse_levels`).

    >>> parse_level("#####\\n#@$.#\\n#####").start
    State(player=6, boxes=(7,))
    """
    levels = parse_levels(data)
    if len(levels) != 1:
        raise InputError(0, f"expected one level, found {len(levels)}")
    return levels[0]


def _chars(level: Level, state: State | None) -> list[list[str]]:
    st = level.start if state is None else state
    rows, cols = level.shape
    grid = np.full((rows, cols), " ", dtype="<U1")
    grid[level.goals] = "."
    grid[level.walls] = "#"
    flat = grid.reshape(-1)
    for b in st.boxes:
        flat[b] = "*" if level.goals.flat[b] else "$"
    flat[st.player] = "+" if level.goals.flat[st.player] else "@"
    return [list(row) for row in grid]


def _rle_row(row: str) -> str:
    out: list[str] = []
    for m in re.finditer(r"(.)\1*", row):
        run = m.group(0)
        out.append((str(len(run)) if len(run) > 1 else "") + run[0])
    return "".join(out)


def format_level(level: Level, state: State | None = None, *, rle: bool = False, floor: str = " ") -> str:
    """Write a level (at ``state``, default its start) in XSB, one row per line.

    Trailing floor is dropped from each row. With ``rle`` the rows are run-length
    encoded and joined by ``|`` on one line (floor written ``-``). ``floor``
    chooses the floor character (``" "``, ``"-"`` or ``"_"``).

    >>> lv = parse_level("#####\\n#@$.#\\n#####")
    >>> print(format_level(lv), end="")
    #####
    #@$.#
    #####
    >>> format_level(lv, rle=True)
    '5#|#@$.#|5#\\n'
    """
    rows = ["".join(r).rstrip() for r in _chars(level, state)]
    if rle:
        return "|".join(_rle_row(r.replace(" ", "-")) for r in rows) + "\n"
    if floor != " ":
        rows = [r.replace(" ", floor) for r in rows]
    return "".join(r + "\n" for r in rows)


def format_levels(levels: Iterable[Level], *, rle: bool = False) -> str:
    """Write a collection: each level preceded by a ``; title`` line, blank lines between.

    The output reads back with :func:`parse_levels` to the same levels.
    """
    parts = []
    for i, lv in enumerate(levels, 1):
        parts.append(f"; {lv.title or i}\n\n" + format_level(lv, rle=rle))
    return "\n".join(parts)


# ---------------------------------------------------------------- assignment


def to_xy(level: Level, cell: int) -> tuple[int, int]:
    """The assignment's ``(x, y)`` of flat ``cell``: column, and row counted from the bottom.

    >>> lv = Level.build(np.zeros((10, 20)), goals=[(0, 0)], player=(2, 18), boxes=[(3, 18)])
    >>> to_xy(lv, lv.start.player), to_xy(lv, lv.start.boxes[0])
    ((18, 7), (18, 6))
    """
    r, c = level.rc(cell)
    return (c, level.shape[0] - 1 - r)


def from_xy(level: Level, xy: tuple[int, int]) -> int:
    """The flat cell of the assignment's ``(x, y)`` (inverse of :func:`to_xy`)."""
    x, y = xy
    return level.cell((level.shape[0] - 1 - y, x))


def fake_target(targets: Sequence[tuple[int, int]]) -> int:
    """Index in ``targets`` (``(x, y)`` points) of the assignment's fake target.

    The fake target is the one nearest the diagonal ``y = x`` (smallest
    ``|x - y|``); ties go to the smallest ``x + y``. Two targets can still tie,
    mirror images ``(a, b)`` and ``(b, a)``: the article is silent, and mazekit
    takes the one with the smaller ``x``.

    >>> fake_target([(10, 2), (4, 7), (3, 6), (6, 3)])
    2
    """
    return min(range(len(targets)), key=lambda i: (abs(targets[i][0] - targets[i][1]), sum(targets[i]), targets[i][0]))


@dataclass(frozen=True, slots=True)
class Assignment:
    """An assignment input: the level (the fake target as a decoy) and its moves in LURD letters."""

    level: Level
    moves: str


def parse_assignment(data: bytes | str) -> Assignment:
    """Read the assignment's input: 10 map lines of at most 20 characters, then the moves.

    Shorter map lines are padded with spaces. The map has exactly one ``@``, one
    to four boxes ``o`` and one target ``x`` more than boxes; the fake target
    becomes :attr:`Level.decoys`, the others :attr:`Level.goals`. The moves line
    holds ``^ v < >`` (spaces ignored) and may be empty; it is returned as the
    lower-case letters ``u d l r``.

    >>> rows = ["#" * 20] + ["#@ o x     x       #"] + ["#" * 20] * 8
    >>> a = parse_assignment("\\n".join(rows) + "\\n>>\\n")
    >>> a.moves, to_xy(a.level, a.level.goal_cells[0])
    ('rr', (11, 8))
    """
    lines = split_lines(decode_text(data))
    rows = ASSIGNMENT_ROWS
    _check_assignment_lines(lines, rows)
    walls, players, boxes, targets = _assignment_map(lines[:rows])
    _check_assignment_pieces(players, boxes, targets)
    moves = _assignment_moves(lines[rows], rows + 1)
    xy = [(c, rows - 1 - r) for r, c in targets]
    fake = fake_target(xy)
    level = Level.build(
        walls,
        goals=[t for i, t in enumerate(targets) if i != fake],
        decoys=[targets[fake]],
        player=players[0],
        boxes=boxes,
    )
    return Assignment(level, moves)


def _check_assignment_lines(lines: list[str], rows: int) -> None:
    """The map's rows, then one line of moves, then nothing."""
    if not any(line.strip() for line in lines):
        raise InputError(0, f"empty input: expected {rows} map rows and a line of moves")
    if len(lines) < rows:
        raise InputError(len(lines) + 1, f"missing map row: expected {rows} rows, got {len(lines)}")
    if len(lines) < rows + 1:
        raise InputError(rows + 1, "missing the line of moves (^ v < >) after the map")
    for i in range(rows + 1, len(lines)):
        if lines[i].strip():
            raise InputError(i + 1, f"unexpected text after the line of moves: {lines[i][:20]!r}")


Cells = list[tuple[int, int]]


def _assignment_map(map_rows: list[str]) -> tuple[NDArray[np.bool_], Cells, Cells, Cells]:
    """The walls and where the players, boxes and targets stand, row by row."""
    cols = ASSIGNMENT_COLS
    walls = np.zeros((len(map_rows), cols), dtype=np.bool_)
    found: dict[str, Cells] = {"@": [], "o": [], "x": []}
    for r, text in enumerate(map_rows):
        if len(text) > cols:
            raise InputError(r + 1, f"map row has {len(text)} characters, at most {cols}")
        for c, ch in enumerate(text):
            if ch == "#":
                walls[r, c] = True
            elif ch in found:
                if ch == "@" and found["@"]:
                    raise InputError(r + 1, f"a second player '@' in column {c + 1} (the map has exactly one)")
                found[ch].append((r, c))
            elif ch != " ":
                raise InputError(
                    r + 1, f"unexpected character {ch!r} in column {c + 1} (expected '@', 'o', 'x', '#' or space)"
                )
    return walls, found["@"], found["o"], found["x"]


def _check_assignment_pieces(players: Cells, boxes: Cells, targets: Cells) -> None:
    """One player, one to four boxes, one target more than boxes."""
    if not players:
        raise InputError(1, "the map has no player '@'")
    if not boxes:
        raise InputError(1, "the map has no box 'o'")
    if len(boxes) > 4:
        raise InputError(boxes[4][0] + 1, f"the map has {len(boxes)} boxes, at most 4")
    if len(targets) != len(boxes) + 1:
        raise InputError(
            1,
            f"the map has {len(boxes)} boxes and {len(targets)} targets 'x'; "
            f"expected {len(boxes) + 1} (one more than boxes)",
        )


def _assignment_moves(line: str, lineno: int) -> str:
    """The moves line (``^ v < >``, spaces ignored) as ``u d l r``."""
    moves: list[str] = []
    for c, ch in enumerate(line, 1):
        if ch in ASSIGNMENT_MOVES:
            moves.append(ASSIGNMENT_MOVES[ch])
        elif not ch.isspace():
            raise InputError(lineno, f"unexpected move {ch!r} in column {c} (expected ^ v < >)")
    return "".join(moves)


def format_assignment_map(level: Level, state: State | None = None) -> str:
    """Draw the map in the assignment's characters, as its ``printCurrentMap`` does.

    Every target (the fake one too) is ``x``; the player and the boxes are drawn
    over them. Each row is written in full (20 characters for the assignment).

    >>> rows = ["#" * 20] + ["#@ o x     x       #"] + ["#" * 20] * 8
    >>> a = parse_assignment("\\n".join(rows) + "\\n\\n")
    >>> format_assignment_map(a.level).splitlines()[1]
    '#@ o x     x       #'
    """
    st = level.start if state is None else state
    grid = np.full(level.shape, " ", dtype="<U1")
    grid[level.goals | level.decoys] = "x"
    grid[level.walls] = "#"
    flat = grid.reshape(-1)
    for b in st.boxes:
        flat[b] = "o"
    flat[st.player] = "@"
    return "".join("".join(row) + "\n" for row in grid)


def _looks_like_assignment(text: str) -> bool:
    """Whether ``text`` starts with the assignment's 10-row map (``# @ o x`` and spaces)."""
    lines = split_lines(text)[:10]
    chars = set("".join(lines))
    return len(lines) == 10 and chars <= set("#@ox ") and bool(chars & set("ox"))


def load_levels(data: bytes | str) -> tuple[list[Level], str | None]:
    """The levels of a text, and the assignment's moves (LURD letters) when it is the assignment.

    The text is an XSB collection (see :func:`parse_levels`) or the assignment's input (its
    10x20 map and a line of moves, see :func:`parse_assignment`), told apart by its first rows.
    The command line reads its level files and the playground its pasted levels through it.

    >>> levels, moves = load_levels("#####\\n#@$.#\\n#####\\n")
    >>> len(levels), moves
    (1, None)
    """
    text = decode_text(data)
    if _looks_like_assignment(text):
        a = parse_assignment(text)
        return [a.level], a.moves
    return parse_levels(text), None


def level_index(levels: Sequence[Level], which: str) -> int:
    """The 0-based index of level ``which`` of a collection: a number counted from 1, or a title.

    Raises ``ValueError`` naming the level asked for when the collection has no such level.

    >>> levels = parse_levels("#####\\n#@$.#\\n#####\\nTitle: one\\n\\n#####\\n#@$.#\\n#####\\nTitle: two\\n")
    >>> level_index(levels, "2"), level_index(levels, "one")
    (1, 0)
    """
    titles = [lv.title for lv in levels]
    if which in titles and not which.isdigit():
        return titles.index(which)
    try:
        n = int(which)
    except ValueError:
        if which in titles:
            return titles.index(which)
        raise ValueError(f"level {which!r}: no level has that title") from None
    if not 1 <= n <= len(levels):
        raise ValueError(f"level {n}: the file has {len(levels)} level(s), numbered from 1")
    return n - 1
