"""Minesweeper boards: mines, densities, the flood-fill opening, 3BV.

A :class:`Board` is an immutable, hashable value: the mine layout of an
``R x C`` board. Everything else (densities, what a click opens, 3BV) is derived.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point, check_point

__all__ = [
    "LEVELS",
    "Board",
    "FirstClick",
    "density",
    "generate",
    "mine_room",
    "protected_cells",
    "three_bv",
    "three_bv_solved",
]

FirstClick = Literal["safe", "zero"]

#: The classic levels: name -> (rows, cols, mines).
LEVELS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}

_STEPS8 = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def density(mines: ArrayLike) -> NDArray[np.int8]:
    """The number of mines among each cell's 8 neighbours (for every cell, mines too).

    >>> density([[1, 0, 0], [0, 0, 1]]).tolist()
    [[0, 2, 1], [1, 2, 0]]
    """
    m = np.asarray(mines, dtype=bool)
    if m.ndim != 2:
        raise ValueError(f"mines must be a 2-D array, got shape {m.shape}")
    rows, cols = m.shape
    pad = np.zeros((rows + 2, cols + 2), dtype=np.int8)
    pad[1:-1, 1:-1] = m
    out = np.zeros((rows, cols), dtype=np.int8)
    for dr, dc in _STEPS8:
        out += pad[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return out


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """An immutable Minesweeper board (the mine layout).

    Parameters
    ----------
    rows, cols : int
        The size.
    cells : bytes
        ``rows * cols`` bytes in reading order, 1 for a mine, 0 otherwise. Build
        boards with :meth:`from_mines`, :func:`generate` or :meth:`parse`.

    Examples
    --------
    >>> b = Board.parse("*..\\n...\\n..*")
    >>> b.shape, b.n_mines
    ((3, 3), 2)
    >>> print(b.render(b.open((0, 2))), end="")
    #10
    #21
    ###
    >>> print(b, end="")
    *..
    ...
    ..*
    """

    rows: int
    cols: int
    cells: bytes

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"a board needs at least one row and one column, got {self.rows}x{self.cols}")
        if len(self.cells) != self.rows * self.cols:
            raise ValueError(f"cells must hold {self.rows * self.cols} bytes, got {len(self.cells)}")

    @classmethod
    def from_mines(cls, mines: ArrayLike) -> Board:
        """A board from a 2-D bool array (True = mine)."""
        m = np.asarray(mines, dtype=bool)
        if m.ndim != 2:
            raise ValueError(f"mines must be a 2-D array, got shape {m.shape}")
        return cls(int(m.shape[0]), int(m.shape[1]), m.astype(np.uint8).tobytes())

    @classmethod
    def parse(cls, text: str) -> Board:
        """A board from rows of ``.`` (no mine) and ``*`` (mine)."""
        rows = [line for line in text.splitlines() if line]
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            raise ValueError("a board is a rectangle of '.' and '*'")
        if set("".join(rows)) - {".", "*"}:
            raise ValueError("a board is a rectangle of '.' and '*'")
        return cls.from_mines([[ch == "*" for ch in r] for r in rows])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.rows, self.cols, self.cells) == (other.rows, other.cols, other.cells)

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self.cells))

    def __repr__(self) -> str:
        return f"Board({self.rows}x{self.cols}, {self.n_mines} mines)"

    def __str__(self) -> str:
        return self.render(None)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def mines(self) -> NDArray[np.bool_]:
        """A read-only bool array, True at the mines."""
        arr = np.frombuffer(self.cells, dtype=np.uint8).view(np.bool_).reshape(self.rows, self.cols)
        return arr

    @property
    def n_mines(self) -> int:
        return int(np.count_nonzero(np.frombuffer(self.cells, dtype=np.uint8)))

    def density(self) -> NDArray[np.int8]:
        """Each cell's number of neighbouring mines (see :func:`density`)."""
        return density(self.mines)

    def open(self, seed: Point, *, density: NDArray[np.int8] | None = None) -> NDArray[np.bool_]:
        """The cells a click on ``seed`` opens (the article's flood fill, "loang").

        The seed opens; if its density is 0, the opening spreads to all 8
        neighbours, recursively, stopping at (but opening) cells of density > 0.
        A mine opens only itself (the game is lost). ``density`` may be passed
        when it is already known.

        Notes
        -----
        This is :func:`mazekit.search.flood` with ``passable = ~mines``,
        8-connectivity and ``stop = density > 0``: a breadth-first fill in
        O(R*C), compiled for large boards, no recursion (a 1000x1000 board is
        a normal input).
        """
        from ..search import flood

        s = check_point(seed, self.shape, name="seed")
        mines = self.mines
        if mines[s]:
            out = np.zeros(self.shape, dtype=bool)
            out[s] = True
            return out
        dens = self.density() if density is None else density
        return flood(~mines, s, connectivity=8, stop=dens > 0)

    def three_bv(self) -> int:
        """The board's 3BV: the fewest clicks that open it (see :func:`three_bv`)."""
        return three_bv(self.mines)

    def render(self, opened: ArrayLike | None = None, *, closed: str = "#") -> str:
        """Text rows. With ``opened``: open cells as their density digit (an open
        mine as ``*``) and closed cells as ``closed``; without: the layout as
        ``.`` (no mine) and ``*`` (mine)."""
        mines = self.mines
        if opened is None:
            chars = np.where(mines, "*", ".")
        else:
            op = np.asarray(opened, dtype=bool)
            digits = np.array(list("012345678"))[self.density()]
            chars = np.where(op, np.where(mines, "*", digits), closed)
        return "".join("".join(row) + "\n" for row in chars.tolist())


def three_bv(mines: ArrayLike) -> int:
    """The 3BV of a layout: openings (8-connected regions of zeros) plus the
    safe numbered cells not next to any zero.

    >>> three_bv([[0, 0, 0], [0, 0, 0], [0, 0, 1]])
    1
    >>> three_bv([[0, 1, 0]])
    2
    """
    _, n_open, lonely = _three_bv_parts(np.asarray(mines, dtype=bool))
    return int(n_open) + int(np.count_nonzero(lonely))


def three_bv_solved(mines: ArrayLike, opened: ArrayLike) -> int:
    """The part of the 3BV a player has done: the openings with an open zero,
    plus the open safe numbered cells not next to any zero.

    Equal to :func:`three_bv` once every safe cell is open; what a lost game
    reports (the clicks that were needed for what the player opened).

    >>> mines = [[0, 0, 0, 1], [0, 0, 0, 1], [1, 1, 1, 1], [0, 1, 0, 1]]
    >>> three_bv(mines), three_bv_solved(mines, [[1, 1, 1, 0]] + [[0, 0, 0, 0]] * 3)
    (3, 1)
    """
    m = np.asarray(mines, dtype=bool)
    op = np.asarray(opened, dtype=bool) & ~m
    labels, _, lonely = _three_bv_parts(m)
    return int(np.unique(labels[op & (labels > 0)]).size) + int(np.count_nonzero(lonely & op))


def _three_bv_parts(m: NDArray[np.bool_]) -> tuple[NDArray[np.int32], int, NDArray[np.bool_]]:
    """The zero regions' labels (0 elsewhere), their count, and the lonely numbered cells.

    An opening is done when one of its zeros is open (the flood opens the rest);
    a number beside an opening, opened alone, does not count.
    """
    from ..search import label

    dens = density(m)
    zero = (dens == 0) & ~m
    zlab, n_open = label(zero, connectivity=8)
    near_zero = density(zero) > 0
    lonely = ~m & ~zero & ~near_zero
    return np.asarray(zlab, dtype=np.int32), int(n_open), lonely


def mine_room(rows: int, cols: int, first_click: FirstClick = "safe") -> int:
    """The most mines a ``rows x cols`` board holds under a first-click rule, wherever the
    first click falls: every cell but those the rule keeps free ("safe": the click;
    "zero": the click and its neighbours, up to 9 cells).

    >>> mine_room(9, 9), mine_room(9, 9, "zero"), mine_room(2, 5, "zero")
    (80, 72, 4)
    """
    if first_click not in ("safe", "zero"):
        raise ValueError(f"first_click must be 'safe' or 'zero', got {first_click!r}")
    kept = 1 if first_click == "safe" else min(rows, 3) * min(cols, 3)
    return max(rows * cols - kept, 0)


def protected_cells(shape: tuple[int, int], click: Point | None, rule: FirstClick) -> NDArray[np.bool_]:
    """The cells the first-click rule keeps free: the click ("safe"), or the
    click and its 8 neighbours ("zero")."""
    if rule not in ("safe", "zero"):
        raise ValueError(f"first_click must be 'safe' or 'zero', got {rule!r}")
    out = np.zeros(shape, dtype=bool)
    if click is None:
        return out
    r, c = check_point(click, shape, name="click")
    if rule == "safe":
        out[r, c] = True
    else:
        out[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = True
    return out


def generate(
    rows: int,
    cols: int,
    mines: int,
    *,
    click: Point | None = None,
    first_click: FirstClick = "safe",
    rng: np.random.Generator | int | None = None,
) -> Board:
    """A random board with ``mines`` mines, uniform among the layouts the rule allows.

    Parameters
    ----------
    rows, cols, mines : int
        Size and number of mines.
    click : (r, c), optional
        The first click; the rule ``first_click`` keeps it (and, for "zero",
        its neighbours) free of mines.
    first_click : {"safe", "zero"}
        The first-click rule.
    rng : Generator, int or None
        The randomness; the same seed gives the same board.

    Examples
    --------
    >>> b = generate(9, 9, 10, click=(4, 4), first_click="zero", rng=1)
    >>> b.n_mines, bool(b.density()[4, 4] == 0 and not b.mines[4, 4])
    (10, True)
    >>> b == generate(9, 9, 10, click=(4, 4), first_click="zero", rng=1)
    True
    """
    if rows < 1 or cols < 1:
        raise ValueError(f"a board needs at least one row and one column, got {rows}x{cols}")
    prot = protected_cells((rows, cols), click, first_click)
    free = np.flatnonzero(~prot.ravel())
    if not 0 <= mines <= free.size:
        raise ValueError(
            f"mines must be between 0 and {free.size} for a {rows}x{cols} board "
            f"with first click {first_click!r}, got {mines}"
        )
    gen = np.random.default_rng(rng)
    where = gen.choice(free, size=mines, replace=False)
    cells = np.zeros(rows * cols, dtype=np.uint8)
    cells[where] = 1
    return Board(rows, cols, cells.tobytes())


def _padded(board: Board) -> tuple[NDArray[np.int8], NDArray[np.int64], int]:
    """The kernels' form of a board: padded flat densities (9 = mine, -3 = border),
    neighbour offsets and the padded width."""
    rows, cols = board.shape
    width = cols + 2
    dens = np.full((rows + 2, width), -3, dtype=np.int8)
    d = board.density()
    dens[1:-1, 1:-1] = np.where(board.mines, np.int8(9), d)
    offsets = np.array([dr * width + dc for dr, dc in _STEPS8], dtype=np.int64)
    return dens.reshape(-1), offsets, width
