"""A Minesweeper solver: exact deductions, exact probabilities, a guessing policy.

What the player knows is a *view*: an int array of the board's shape with
``-1`` for a closed cell, ``-2`` for a cell known to be a mine, and ``0``-``8``
for an open cell (its density). User flags are not knowledge: pass only what
is proved.

The solver, in order of cost:

1. **Local rules**: a number whose missing mines equal its closed neighbours
   (all mines) or whose mines are all known (all safe); the pair rule for two
   numbers at most two cells apart (the mines in their shared cells lie in
   ``[lo, hi]``), which contains the subset rule.
2. **Exact probabilities** with the global mine count: the frontier (closed
   cells next to a number) splits into independent components; each one's
   placements are enumerated and counted by number of mines, the components are
   convolved, and ``K`` frontier mines are weighted by ``C(I, M - K)``, where
   ``I`` closed cells lie away from the frontier and ``M`` mines remain. A cell
   of probability 0 (1) is proved safe (a mine): this is every deduction the
   position allows.
3. **Guessing** when nothing is proved (options: :class:`SolverOptions`). A
   forced coin flip (two cells, one mine, that nothing can ever tell apart) is
   taken first: it must be taken sooner or later and costs the same now. With
   few layouts left (at most ``endgame``), an exhaustive search over the sets
   of layouts still possible picks the cell with the best chance to *win*.
   Otherwise a look-ahead: the ``look`` safest cells (within ``margin`` of the
   safest; ties: the best chance of a zero, which favours corners and edges
   away from the frontier) are scored by the chance of surviving this guess
   and the next one: for each value ``v`` the cell may show, the exact count
   of layouts with the cell open showing ``v`` gives ``P(v)``, and the view
   after it either proves a cell safe (the next move is free) or its safest
   cell is the next guess (with ``deep``, that view's own look-ahead: two
   plies). A dead cell (it can show one number only, and opening it proves
   nothing) is passed over while another candidate remains.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import check_number
from ..grid import Point, check_point
from . import _flip_kernels as F
from . import _kernels as K
from . import _play_kernels as P
from .board import Board, _padded


@runtime_checkable
class GameLike(Protocol):
    """What the solver reads of a :class:`~mazekit.minesweeper.Game` (game.py imports this module,
    so the solver names the game by what it offers)."""

    n_mines: int
    flagged: NDArray[np.bool_]

    def view(self) -> NDArray[np.int8]: ...


__all__ = [
    "CLOSED",
    "DEFAULT",
    "KNOWN_MINE",
    "Decision",
    "Deduction",
    "Move",
    "PlayResult",
    "PossibleFlip",
    "SolverOptions",
    "deduce",
    "next_move",
    "play",
    "possible_flips",
    "probabilities",
    "solvable",
    "with_proved_flags",
]

CLOSED = -1
KNOWN_MINE = -2

#: Search nodes allowed per frontier component before falling back to estimates.
MAX_NODES = 2_000_000


@dataclass(frozen=True, slots=True)
class SolverOptions:
    """How the solver guesses when nothing is proved (the defaults are the benchmark's).

    Parameters
    ----------
    look : int
        Guess candidates examined by the look-ahead (0: the safest cell, no look-ahead).
    margin : float
        How much riskier than the safest cell a look-ahead candidate may be.
    look_nodes : int
        No look-ahead from positions whose probabilities took more search nodes than this.
    endgame : int
        Exhaustive end-game search when at most this many mine layouts remain (0: never).
    endgame_work : int
        Positions the end-game search may visit before it gives up.
    skip_dead : bool
        The look-ahead passes over dead cells (their number is known before they are
        opened and opening them proves nothing) while another candidate remains.
    fifty : bool
        A forced coin flip (two cells, one mine, that nothing can ever tell apart) is
        taken before any other guess.
    deep : int
        A two-ply look-ahead (0: one ply): for a look-ahead candidate's outcome that
        proves nothing, the next guess is scored by its own one-ply look-ahead over
        ``deep`` candidates, not by its safety alone.
    deep_nodes : int
        The two-ply look-ahead runs only where the probabilities took at most this
        many search nodes (a small frontier: it costs a few hundred countings).
    region : int
        Before the look-ahead, an isolated region (closed cells that touch only each
        other and open numbers) of at most this many cells, whose layouts all hold the
        same number of mines, is played by exhaustive search: a game of its own (0: never).
    flips : float
        The look-ahead's allowance for coin flips to come (0: none). A pair of closed
        cells (or a 2x2 square) whose cells that could tell its layouts apart may all be
        mines is a coin flip that must be taken some day; a guess that settles it now (at
        one of its cells, or at one of those that tell it apart) is preferred to one that
        leaves it to cost half its chance later, this many times over.
    flip_extra : int
        With ``flips``, up to this many cells of such possible coin flips join the
        look-ahead's candidates, beyond ``margin``, when the allowance could make up for
        their risk.
    tol : float
        Probability tolerance within which guesses count as equally safe (``look=0``).
    max_nodes : int
        Search nodes allowed per frontier component before falling back to estimates.
    """

    look: int = 8
    margin: float = 0.05
    look_nodes: int = 20_000
    endgame: int = 2_000
    endgame_work: int = 400_000
    skip_dead: bool = True
    fifty: bool = True
    deep: int = 0
    deep_nodes: int = 2_000
    region: int = 16
    flips: float = 1.0
    flip_extra: int = 8
    tol: float = 1e-9
    max_nodes: int = 2_000_000

    def __post_init__(self) -> None:
        for name in ("look", "look_nodes", "endgame", "endgame_work", "deep", "deep_nodes", "region"):
            check_number("SolverOptions", name, getattr(self, name), 0, 2**31, open_low=False)
        check_number("SolverOptions", "max_nodes", self.max_nodes, 0, 2**62)
        check_number("SolverOptions", "margin", self.margin, 0, 2, open_low=False)
        check_number("SolverOptions", "tol", self.tol, 0, 0.5, open_low=False)
        check_number("SolverOptions", "flips", self.flips, 0, 2, open_low=False)
        check_number("SolverOptions", "flip_extra", self.flip_extra, 0, 64, open_low=False)
        for name in (
            "look",
            "look_nodes",
            "endgame",
            "endgame_work",
            "deep",
            "deep_nodes",
            "region",
            "max_nodes",
            "flip_extra",
        ):
            if not isinstance(getattr(self, name), int):
                raise ValueError(f"SolverOptions.{name} must be a whole number, got {getattr(self, name)!r}")
        for name in ("skip_dead", "fifty"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"SolverOptions.{name} must be True or False, got {getattr(self, name)!r}")

    def policy(self, *, guess: bool = True) -> P.Policy:
        """The kernels' form of these options."""
        return P.Policy(
            bool(guess),
            float(self.tol),
            int(self.max_nodes),
            int(self.look),
            float(self.margin),
            int(self.look_nodes),
            int(self.endgame),
            int(self.endgame_work),
            bool(self.skip_dead),
            bool(self.fifty),
            int(self.deep),
            int(self.deep_nodes),
            int(self.region),
            float(self.flips),
            int(self.flip_extra),
        )


#: The solver's options by default (the benchmark's).
DEFAULT = SolverOptions()


@dataclass(frozen=True, slots=True)
class Deduction:
    """Cells proved safe and proved to be mines (sorted ``(r, c)`` tuples)."""

    safe: tuple[Point, ...]
    mines: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Move:
    """The solver's next move: ``kind`` "open" or "flag" at ``cell``;
    ``p_mine`` is the cell's mine probability (0 or 1 for proved moves)."""

    kind: Literal["open", "flag"]
    cell: Point
    p_mine: float

    @property
    def guess(self) -> bool:
        return 0.0 < self.p_mine < 1.0


@dataclass(frozen=True, slots=True)
class PlayResult:
    """A game played by the solver: won or not, guesses made, cells opened."""

    won: bool
    guesses: int
    opened: int


class _Padded:
    __slots__ = ("rows", "cols", "width", "know", "offsets")

    def __init__(self, view: ArrayLike) -> None:
        v = np.asarray(view)
        if v.ndim != 2 or v.shape[0] < 1 or v.shape[1] < 1:
            raise ValueError(f"view must be a non-empty 2-D array, got shape {v.shape}")
        if v.size and (v.min() < -2 or v.max() > 8):
            raise ValueError("view values must be -2 (known mine), -1 (closed) or 0-8 (open)")
        self.rows, self.cols = int(v.shape[0]), int(v.shape[1])
        self.width = self.cols + 2
        know = np.full((self.rows + 2, self.width), K.BORDER, dtype=np.int8)
        know[1:-1, 1:-1] = v
        self.know = know.reshape(-1)
        w = self.width
        self.offsets = np.array(
            [dr * w + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))],
            dtype=np.int64,
        )

    def unpad(self, flat: NDArray[np.generic]) -> NDArray[np.generic]:
        return flat.reshape(self.rows + 2, self.width)[1:-1, 1:-1]

    def point(self, i: int) -> Point:
        return (i // self.width - 1, i % self.width - 1)


def probabilities(view: ArrayLike, total_mines: int, *, max_nodes: int = MAX_NODES) -> NDArray[np.float64]:
    """The exact mine probability of every closed cell (NaN for the others).

    Parameters
    ----------
    view : array_like of int, shape (R, C)
        What is known (see the module docs).
    total_mines : int
        The number of mines on the board.
    max_nodes : int
        Search budget per frontier component; past it, that component's cells
        get local estimates (never exactly 0 or 1).

    Examples
    --------
    >>> view = [[1, -1],
    ...         [-1, -1]]
    >>> probabilities(view, 1).round(3).tolist()
    [[nan, 0.333], [0.333, 0.333]]
    >>> probabilities([[1, -1, -1]], 1).tolist()
    [[nan, 1.0, 0.0]]
    """
    pp = _Padded(view)
    prob = np.empty(pp.know.shape[0], dtype=np.float64)
    logz = np.zeros(2, dtype=np.float64)
    K.probability_kernel.pick(pp.rows * pp.cols * 8)(pp.know, pp.offsets, int(total_mines), prob, int(max_nodes), logz)
    out = pp.unpad(prob).astype(np.float64)
    out[np.asarray(view) != CLOSED] = np.nan
    return out


def deduce(view: ArrayLike, total_mines: int) -> Deduction:
    """Every closed cell that the view and the mine count prove safe or a mine.

    >>> deduce([[1, -1, -1], [1, -1, -1]], 1)
    Deduction(safe=((0, 2), (1, 2)), mines=())
    """
    p = probabilities(view, total_mines)
    safe = tuple((int(r), int(c)) for r, c in np.argwhere(p == 0.0))
    mines = tuple((int(r), int(c)) for r, c in np.argwhere(p == 1.0))
    return Deduction(safe, mines)


def with_proved_flags(view: ArrayLike, total_mines: int, flags: ArrayLike | None) -> NDArray[np.int8]:
    """``view`` with the flags that the view proves to be mines marked known (-2);
    other flags are dropped (a player's flag may be wrong).

    >>> with_proved_flags([[1, -1, -1]], 1, [[False, True, True]]).tolist()
    [[1, -2, -1]]
    """
    v = np.asarray(view, dtype=np.int8)
    if flags is None:
        return v
    f = np.asarray(flags, dtype=bool)
    if f.shape != v.shape:
        raise ValueError(f"flags must have the view's shape {v.shape}, got {f.shape}")
    if not f.any() or not (v >= 0).any():
        return v
    proved = probabilities(v, total_mines) == 1.0
    return np.where(f & proved, np.int8(KNOWN_MINE), v).astype(np.int8)


def _position(position: ArrayLike | GameLike, total_mines: int | None) -> tuple[NDArray[np.int8], int]:
    """The view and mine count of a position given as a view and a count, or as a :class:`Game`.

    A game's flags count as knowledge where the view proves them (a flag on a
    proved mine); other flags are ignored (a player's flag may be wrong).
    """
    if isinstance(position, GameLike):
        total = position.n_mines if total_mines is None else int(total_mines)
        return with_proved_flags(position.view(), total, position.flagged), total
    if total_mines is None:
        raise TypeError("total_mines is needed with a view (the board's number of mines); or pass a Game")
    return np.asarray(position), int(total_mines)


def _decide(view: ArrayLike, total_mines: int, options: SolverOptions) -> Decision | None:
    """The solver's move on ``view`` and how it was chosen (None when no cell is closed)."""
    pp = _Padded(view)
    if not np.any(pp.know == CLOSED):
        return None
    prob = np.empty(pp.know.shape[0], dtype=np.float64)
    work = pp.rows * pp.cols * 8
    info = np.zeros(2, dtype=np.float64)
    st = K.probability_kernel.pick(work)(pp.know, pp.offsets, int(total_mines), prob, int(options.max_nodes), info)
    if st == 2:
        raise ValueError(f"no layout of {total_mines} mines agrees with the numbers of the view")
    closed = pp.know == CLOSED
    grid = pp.unpad(prob).astype(np.float64)
    grid[np.asarray(view) != CLOSED] = np.nan
    safe = np.flatnonzero(closed & (prob == 0.0))
    if safe.size:
        return Decision(Move("open", pp.point(int(safe[0])), 0.0), grid, "proved", -1.0)
    mine = np.flatnonzero(closed & (prob == 1.0))
    if mine.size:
        return Decision(Move("flag", pp.point(int(mine[0])), 1.0), grid, "proved", -1.0)
    out = np.zeros(3, dtype=np.float64)
    g = int(
        P.guess_kernel.pick(work * 20)(
            pp.know, prob, pp.offsets, pp.width, pp.rows, int(total_mines), options.policy(), info, out
        )
    )
    return Decision(Move("open", pp.point(g), float(prob[g])), grid, RULES[int(out[1])], float(out[2]))


def possible_flips(view: ArrayLike, total_mines: int, cell: Point, *, least: float = 0.01) -> list[PossibleFlip]:
    """The possible coin flips that hold ``cell`` (a closed cell of ``view``), likeliest first.

    A pair of touching closed cells with one mine (or a 2x2 square with its mines on one
    diagonal or the other) is a coin flip for good when every cell that touches only part
    of it is a mine: no number can ever tell its layouts apart. Each one whose chance of
    being so is at least ``least`` is returned with that chance, counted exactly over the
    layouts the view allows. A guess at ``cell`` settles them now; the look-ahead counts
    that in its favour (:attr:`SolverOptions.flips`).
    """
    pp = _Padded(view)
    cell = check_point(cell, (pp.rows, pp.cols), name="cell")
    c = (cell[0] + 1) * pp.width + cell[1] + 1
    if pp.know[c] != CLOSED:
        raise ValueError(f"{cell} is not a closed cell")
    prob = np.empty(pp.know.shape[0], dtype=np.float64)
    info = np.zeros(2, dtype=np.float64)
    work = pp.rows * pp.cols * 8
    if K.probability_kernel.pick(work)(pp.know, pp.offsets, int(total_mines), prob, MAX_NODES, info) == 2:
        raise ValueError(f"no layout of {total_mines} mines agrees with the numbers of the view")
    anchors = np.empty((24, 2), dtype=np.int64)
    cells = np.empty(10, dtype=np.int64)
    scratch = np.empty(pp.know.shape[0], dtype=np.float64)
    found = []
    for kind, a in anchors[: F._flips_near.py_func(c, pp.width, anchors)]:
        q = F._flip_chance.pick(work)(
            pp.know, prob, pp.offsets, pp.width, int(total_mines), MAX_NODES, info[0], kind, a, cells, scratch, 0.0
        )
        ns, _ = F._flip_cells.py_func(kind, a, pp.width, cells)
        own = tuple(pp.point(int(x)) for x in cells[:ns])
        if q >= least and cell in own:
            found.append(PossibleFlip(tuple(sorted(own)), float(q)))
    return sorted(found, key=lambda f: -f.chance)


@dataclass(frozen=True, slots=True)
class PossibleFlip:
    """A possible coin flip (see :func:`possible_flips`): its closed cells and the chance that
    nothing will ever tell its layouts apart."""

    cells: tuple[Point, ...]
    chance: float


@dataclass(frozen=True, slots=True)
class Decision:
    """A move with the facts behind it: every closed cell's mine probability (NaN
    elsewhere), the rule that chose it (:data:`RULES` or "proved") and, for the end-game
    search, the chance to win with best play (else -1)."""

    move: Move
    prob: NDArray[np.float64]
    rule: str
    win: float


#: The rules that choose a guess, by the kernels' number for them.
RULES = {
    P.BY_SAFEST: "safest",
    P.BY_LOOKAHEAD: "look-ahead",
    P.BY_ENDGAME: "end game",
    P.BY_COIN_FLIP: "coin flip",
    P.BY_REGION: "region",
}


def next_move(
    position: ArrayLike | GameLike, total_mines: int | None = None, *, options: SolverOptions = DEFAULT
) -> Move | None:
    """The solver's next move: a proved one if any, else its guess.

    ``position`` is a view (with ``total_mines``, the board's mines) or a
    :class:`~mazekit.minesweeper.Game` (its view and mines; flags on proved
    mines count as known). None when no cell is closed; ``ValueError`` when
    no layout of mines agrees with the view.

    >>> next_move([[-1, -1], [-1, -1]], 1)
    Move(kind='open', cell=(0, 0), p_mine=0.25)
    >>> next_move([[1, -1, -1]], 1)
    Move(kind='open', cell=(0, 2), p_mine=0.0)
    >>> from mazekit.minesweeper import Board, Game
    >>> g = Game(board=Board.parse(".*.\\n...\\n..."))
    >>> _ = g.open((2, 0))
    >>> next_move(g)
    Move(kind='open', cell=(0, 0), p_mine=0.0)
    """
    view, total = _position(position, total_mines)
    d = _decide(view, total, options)
    return None if d is None else d.move


def _buffers(n: int) -> P.Work:
    """Scratch for the playing kernel, ``n`` padded cells."""
    return P.Work(np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(n, np.int8), np.empty(n, np.float64))


def play(board: Board, click: Point, *, guess: bool = True, options: SolverOptions = DEFAULT) -> PlayResult:
    """Let the solver play ``board`` from the first click ``click``.

    With ``guess=False`` it stops when nothing is proved (``won`` False).

    >>> b = Board.parse("*...\\n....\\n....")
    >>> play(b, (2, 3))
    PlayResult(won=True, guesses=0, opened=11)
    """
    dens, offsets, width = _padded(board)
    know = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(CLOSED)).astype(np.int8)
    first = (check_point(click, board.shape, name="click")[0] + 1) * width + click[1] + 1
    field = P.Field(dens, know, offsets, width, board.rows, board.n_mines)
    st, guesses, opened = P.solve_kernel.pick(board.rows * board.cols * 20)(
        field, first, options.policy(guess=guess), _buffers(dens.shape[0])
    )
    return PlayResult(bool(st == 1), int(guesses), int(opened))


def solvable(board: Board, click: Point) -> bool:
    """True when the solver opens the whole board from ``click`` without a guess.

    >>> solvable(Board.parse("*...\\n....\\n...."), (2, 3))
    True
    >>> solvable(Board.parse("*.\\n.*"), (0, 1))
    False
    """
    return play(board, click, guess=False).won
