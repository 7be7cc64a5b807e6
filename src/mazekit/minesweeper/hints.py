"""The solver's move with its reason, in words: what ``mines hint``, ``mines play``'s ``?``
and the playground's hint show."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point
from . import _kernels as K
from .board import FirstClick
from .solver import CLOSED, DEFAULT, Decision, Move, SolverOptions, _decide, _Padded, _position, possible_flips

if TYPE_CHECKING:
    from .game import Game

__all__ = ["GuessOutlook", "Hint", "first_click_reason", "guess_outlook", "hint"]

#: The probabilities' search budget for the hint (as the solver's).
K_NODES = DEFAULT.max_nodes


@dataclass(frozen=True, slots=True)
class GuessOutlook:
    """What opening a closed cell may bring: ``safe`` its chance to be safe, ``opens`` to
    show a 0 (it opens an area), ``progress`` to be safe and leave a proved next move (or
    end the game)."""

    safe: float
    opens: float
    progress: float


@dataclass(frozen=True, slots=True)
class Hint:
    """The solver's move (None when there is none) and why.

    ``reason`` is a sentence ("safe: ...", "mine: ...", "the best guess: safe 82%, and
    opens an area 40% of the time; ..."); ``because`` the cells it rests on (the numbers
    and mines that prove it, or the other cell of a coin flip); ``rule`` how the move was
    found: "first click", "proved", "coin flip", "end game", "region", "look-ahead", "safest",
    or "none" (the game is over or no cell is closed). For a guess, ``outlook`` gives
    its chances and ``win`` the chance to win with best play when the end game was
    searched (else None).
    """

    move: Move | None
    reason: str
    because: tuple[Point, ...]
    rule: str
    outlook: GuessOutlook | None = None
    win: float | None = None

    @property
    def proved(self) -> bool:
        """True for a proved move (and for any first click, which the rules make safe)."""
        return self.move is not None and not self.move.guess


def first_click_reason(first_click: FirstClick, *, no_guess: bool = False) -> str:
    """Why any first click is safe under a first-click rule.

    >>> first_click_reason("zero")
    'safe: every cell is safe to start with: the first click always opens an area (first-click rule \u201czero\u201d).'
    """
    rule = (
        "the first click always opens an area (first-click rule \u201czero\u201d)"
        if first_click == "zero"
        else "the first click is never a mine (first-click rule \u201csafe\u201d)"
    )
    extra = " and the board is laid out around it so that logic alone solves it" if no_guess else ""
    return f"safe: every cell is safe to start with: {rule}{extra}."


def guess_outlook(view: ArrayLike, total_mines: int, cell: Point) -> GuessOutlook:
    """The chances of opening ``cell`` (closed) on ``view``, counted exactly: for each
    number the cell may show, the layouts that agree with the view and that number.

    >>> o = guess_outlook([[-1, -1, -1]], 1, (0, 0))
    >>> round(o.safe, 3), round(o.opens, 3), round(o.progress, 3)
    (0.667, 0.333, 0.667)
    """
    pp = _Padded(view)
    i = (cell[0] + 1) * pp.width + cell[1] + 1
    if pp.know[i] != CLOSED:
        raise ValueError(f"cell {cell} is not closed")
    kernel = K.probability_kernel.pick(pp.rows * pp.cols * 8)
    prob = np.empty(pp.know.shape[0], dtype=np.float64)
    info = np.zeros(2, dtype=np.float64)
    kernel(pp.know, pp.offsets, int(total_mines), prob, K_NODES, info)
    base = float(info[0])
    safe = 1.0 - float(prob[i])
    opens = progress = 0.0
    around = pp.know[i + pp.offsets]
    flagged = int(np.count_nonzero(around == K.KNOWN_MINE))
    for v in range(flagged, flagged + int(np.count_nonzero(around == CLOSED)) + 1):
        pp.know[i] = v
        if kernel(pp.know, pp.offsets, int(total_mines), prob, K_NODES, info) == 2:
            continue
        pv = math.exp(float(info[0]) - base)
        closed = pp.know == CLOSED
        if v == 0:
            opens += pv
        if not closed.any() or (prob[closed] == 0.0).any() or (prob[closed] == 1.0).all():
            progress += pv
    pp.know[i] = CLOSED
    return GuessOutlook(safe, opens, progress)


def _at(cell: Point) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _word(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _around(shape: tuple[int, int], cell: Point) -> list[Point]:
    rows, cols = shape
    a, b = cell
    return [
        (i, j)
        for i in range(max(a - 1, 0), min(a + 2, rows))
        for j in range(max(b - 1, 0), min(b + 2, cols))
        if (i, j) != (a, b)
    ]


def _proved(view: NDArray[np.int8], n_mines: int, d: Decision) -> tuple[str, tuple[Point, ...]]:
    """The reason for a proved move: one number when one number proves it, else the count."""
    prob, cell = d.prob, d.move.cell
    mine = (view == K.KNOWN_MINE) | ((view == CLOSED) & (prob == 1.0))
    numbers = [p for p in _around(view.shape, cell) if view[p] > 0]
    mines_word = _word(n_mines, "mine", "mines")
    if d.move.kind == "open":
        for p in numbers:
            known = [q for q in _around(view.shape, p) if mine[q]]
            if len(known) == int(view[p]):
                return (
                    f"safe: the {view[p]} at {_at(p)} already touches its {_word(len(known), 'mine', 'mines')} "
                    "(proved), so its other neighbours are safe.",
                    (p, *known),
                )
        return (
            f"safe: no layout of mines that fits all the numbers and the {mines_word} of the board puts one here.",
            tuple(numbers),
        )
    for p in numbers:
        closed = [q for q in _around(view.shape, p) if view[q] in (CLOSED, K.KNOWN_MINE)]
        if len(closed) == int(view[p]):
            return (
                f"mine: the {view[p]} at {_at(p)} has exactly "
                f"{_word(len(closed), 'closed neighbour', 'closed neighbours')}: "
                f"{'it must be a mine' if len(closed) == 1 else 'they must all be mines'}.",
                (p, *closed),
            )
    return (
        f"mine: every layout of mines that fits all the numbers and the {mines_word} of the board puts one here.",
        tuple(numbers),
    )


def _coin_partner(view: NDArray[np.int8], prob: NDArray[np.float64], cell: Point) -> Point | None:
    """The other cell of the coin flip at ``cell`` (a closed cell at 50% within two steps)."""
    r, c = cell
    rows, cols = view.shape
    for i in range(max(r - 2, 0), min(r + 3, rows)):
        for j in range(max(c - 2, 0), min(c + 3, cols)):
            if (i, j) != cell and view[i, j] == CLOSED and abs(prob[i, j] - 0.5) <= 1e-9:
                return (i, j)
    return None


def _guess(
    view: NDArray[np.int8], n_mines: int, d: Decision, options: SolverOptions
) -> tuple[str, tuple[Point, ...], GuessOutlook]:
    cell = d.move.cell
    o = guess_outlook(view, n_mines, cell)
    head = f"the best guess: safe {100 * o.safe:.0f}%, and opens an area {100 * o.opens:.0f}% of the time"
    if d.rule == "coin flip":
        other = _coin_partner(view, d.prob, cell)
        where = f"this cell or {_at(other)}" if other is not None else "this cell or its twin"
        return (
            f"{head}; a coin flip: one mine is in {where}, and no cell can ever tell which, "
            "so it is taken now, before any other risk.",
            () if other is None else (other,),
            o,
        )
    if d.rule == "end game":
        return (f"{head}; every way the game can go from here was searched: best play wins {100 * d.win:.0f}%.", (), o)
    if d.rule == "region":
        return (
            f"{head}; these closed cells touch only each other and numbers, so no other cell can "
            f"tell anything about them: every way to play them was searched, and best play clears "
            f"them {100 * d.win:.0f}% of the time.",
            (),
            o,
        )
    if d.rule == "look-ahead":
        text = (
            f"{head}; of the cells nearly as safe, it best survives this guess and the next "
            f"(the next move is proved {100 * o.progress:.0f}% of the time)"
        )
        flips = possible_flips(view, n_mines, cell, least=0.05) if options.flips > 0 else []
        if not flips:
            return (f"{text}.", (), o)
        others = tuple(p for p in flips[0].cells if p != cell)
        if len(others) == 1:
            what = (
                f"with {_at(others[0])}: {100 * flips[0].chance:.0f}% of the time no cell could ever "
                "tell which of the two holds the mine"
            )
        else:
            what = (
                f"in the 2x2 square it makes with its neighbours: {100 * flips[0].chance:.0f}% of the time no "
                "cell could ever tell which diagonal holds its two mines"
            )
        return (
            f"{text}; and it settles a possible coin flip {what}, where another guess would leave "
            "that flip to be taken later.",
            others,
            o,
        )
    return (f"{head}; no cell is safer.", (), o)


def hint(position: ArrayLike | Game, total_mines: int | None = None, *, options: SolverOptions = DEFAULT) -> Hint:
    """The solver's next move on ``position`` with its reason.

    ``position`` is a view with ``total_mines`` (see :mod:`~mazekit.minesweeper.solver`)
    or a :class:`~mazekit.minesweeper.Game` (before its first click any cell is safe;
    flags on proved mines count as known).

    Examples
    --------
    >>> hint([[1, -1]], 1).reason
    'mine: the 1 at row 1, column 1 has exactly 1 closed neighbour: it must be a mine.'
    >>> h = hint([[0, 1, -1], [0, 1, -1], [0, 1, -1]], 1)
    >>> h.move.cell, h.reason
    ((0, 2), 'safe: the 1 at row 1, column 2 already touches its 1 mine (proved), so its other neighbours are safe.')
    >>> print(*hint([[-1, -1], [-1, -1]], 1).reason.split("; "), sep="\\n")
    the best guess: safe 75%, and opens an area 0% of the time
    every way the game can go from here was searched: best play wins 25%.
    """
    from .game import Game  # game.py imports the solver, which this module imports

    if isinstance(position, Game):
        game = position
        if game.over:
            return Hint(None, "The game is over: start a new one.", (), "none")
        if game.board is None:
            cell = (game.rows // 2, game.cols // 2)
            reason = first_click_reason(game.first_click, no_guess=game.no_guess)
            return Hint(Move("open", cell, 0.0), reason, (), "first click")
    view, total = _position(position, total_mines)
    view = np.asarray(view, dtype=np.int8)
    d = _decide(view, total, options)
    if d is None:
        return Hint(None, "No cell is closed.", (), "none")
    if not d.move.guess:
        reason, because = _proved(view, total, d)
        return Hint(d.move, reason, because, "proved")
    reason, because, outlook = _guess(view, total, d, options)
    return Hint(d.move, reason, because, d.rule, outlook, d.win if d.rule == "end game" else None)
