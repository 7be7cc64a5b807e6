"""A game of Minesweeper: the mutable state around an immutable :class:`Board`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ..grid import Point, check_point
from .board import Board, FirstClick, generate, mine_room, three_bv_solved
from .solver import CLOSED

__all__ = ["Game", "State", "opening_order", "result_line"]

State = Literal["ready", "playing", "won", "lost"]


class Game:
    """One game: open, flag, chord; won when every safe cell is open.

    The board is laid out at the first click so that the first-click rule holds
    ("safe": the click is never a mine; "zero": neither is any neighbour, so
    the first click always opens an area). Pass ``board`` to play a fixed one.

    Parameters
    ----------
    rows, cols, mines : int
        Size and number of mines (ignored when ``board`` is given).
    first_click : {"safe", "zero"}
        The first-click rule.
    no_guess : bool
        Lay out a board that logic alone solves from the first click.
    rng : Generator, int or None
        The randomness; the same seed and first click give the same board.
    board : Board, optional
        A fixed layout (no first-click rule applies).
    clock : callable
        Seconds as a float (``time.monotonic``); tests pass a fake one.

    Examples
    --------
    >>> g = Game(board=Board.parse("*..\\n...\\n..."))
    >>> g.open((2, 2))
    8
    >>> g.state, g.text()
    ('won', '#10\\n110\\n000\\n')
    >>> g = Game(board=Board.parse("*..\\n*..\\n*.."))
    >>> _ = g.open((1, 1)), g.toggle_flag((0, 0)), g.toggle_flag((1, 0)), g.toggle_flag((2, 0))
    >>> g.chord((1, 1)), g.state, g.three_bv(), g.clicks
    (5, 'won', 1, 5)
    """

    def __init__(
        self,
        rows: int = 9,
        cols: int = 9,
        mines: int = 10,
        *,
        first_click: FirstClick = "safe",
        no_guess: bool = False,
        rng: np.random.Generator | int | None = None,
        board: Board | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if first_click not in ("safe", "zero"):
            raise ValueError(f"first_click must be 'safe' or 'zero', got {first_click!r}")
        if board is not None:
            rows, cols, mines = board.rows, board.cols, board.n_mines
        elif rows < 1 or cols < 1 or not 0 <= mines <= mine_room(rows, cols, first_click):
            raise ValueError(f"cannot lay {mines} mines on a {rows}x{cols} board with first click {first_click!r}")
        self.rows, self.cols, self.n_mines = rows, cols, mines
        self.first_click: FirstClick = first_click
        self.no_guess = no_guess
        self._rng = np.random.default_rng(rng)
        self._clock = clock
        self.board: Board | None = board
        self._density: NDArray[np.int8] | None = None if board is None else board.density()
        self.opened = np.zeros((rows, cols), dtype=bool)
        self.flagged = np.zeros((rows, cols), dtype=bool)
        self.state: State = "ready"
        self.exploded: Point | None = None
        self.clicks = 0
        self.started: float | None = None
        self.finished: float | None = None

    # ---------------------------------------------------------------- queries
    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def over(self) -> bool:
        return self.state in ("won", "lost")

    @property
    def mines_left(self) -> int:
        """Mines minus flags (the counter a player sees)."""
        return self.n_mines - int(np.count_nonzero(self.flagged))

    @property
    def elapsed(self) -> float:
        """Seconds since the first click (frozen when the game ends)."""
        if self.started is None:
            return 0.0
        end = self.finished if self.finished is not None else self._clock()
        return end - self.started

    @property
    def density(self) -> NDArray[np.int8]:
        if self._density is None:
            raise RuntimeError("the board is laid out at the first click")
        return self._density

    def view(self) -> NDArray[np.int8]:
        """What the player sees, for the solver: -1 closed, 0-8 open (flags are not knowledge)."""
        if self._density is None:
            return np.full(self.shape, CLOSED, dtype=np.int8)
        return np.where(self.opened, self._density, np.int8(CLOSED)).astype(np.int8)

    def three_bv(self) -> int:
        if self.board is None:
            raise RuntimeError("the board is laid out at the first click")
        return self.board.three_bv()

    def three_bv_solved(self) -> int:
        """The part of the 3BV the player has done (all of it once won)."""
        if self.board is None:
            return 0
        return three_bv_solved(self.board.mines, self.opened)

    def efficiency(self) -> float:
        """The 3BV done divided by the clicks made (open, chord and flag clicks).

        A game lost early counts what the player opened, not the whole board's
        3BV; only chording can take it above 1.
        """
        return self.three_bv_solved() / self.clicks if self.clicks else 0.0

    def text(self) -> str:
        """Rows of digits for open cells, ``F`` for flags, ``#`` for closed cells
        (``*`` for the mines once the game is lost)."""
        out = []
        dens = self._density
        mines = self.board.mines if self.board is not None else None
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                if self.opened[r, c]:
                    row.append("*" if mines is not None and mines[r, c] else str(int(dens[r, c])))  # type: ignore[index]
                elif self.flagged[r, c]:
                    row.append("F")
                elif self.state == "lost" and mines is not None and mines[r, c]:
                    row.append("*")
                else:
                    row.append("#")
            out.append("".join(row) + "\n")
        return "".join(out)

    # ---------------------------------------------------------------- moves
    def _lay_out(self, cell: Point) -> None:
        if self.no_guess:
            from .noguess import generate_no_guess

            self.board = generate_no_guess(
                self.rows, self.cols, self.n_mines, click=cell, first_click=self.first_click, rng=self._rng
            )
        else:
            self.board = generate(
                self.rows, self.cols, self.n_mines, click=cell, first_click=self.first_click, rng=self._rng
            )
        self._density = self.board.density()

    def open(self, cell: Point) -> int:
        """Open ``cell`` (the article's flood fill from a zero); return how many cells opened.

        Opening a flagged or open cell, or any cell once the game is over, does nothing.
        """
        cell = check_point(cell, self.shape, name="cell")
        if self.over or self.opened[cell] or self.flagged[cell]:
            return 0
        if self.board is None:
            self._lay_out(cell)
        if self.started is None:
            self.started = self._clock()
            self.state = "playing"
        self.clicks += 1
        return self._open_one(cell)

    def _open_one(self, cell: Point) -> int:
        assert self.board is not None
        if self.board.mines[cell]:
            self.opened[cell] = True
            self.exploded = cell
            self._finish("lost")
            return 1
        from ..search import flood

        region = flood(~self.board.mines & ~self.flagged, cell, connectivity=8, stop=self.density > 0)
        new = int(np.count_nonzero(region & ~self.opened))
        self.opened |= region
        if not np.any(~self.opened & ~self.board.mines):
            self._finish("won")
        return new

    def toggle_flag(self, cell: Point) -> bool:
        """Put or take away a flag on a closed cell; return whether it is flagged now."""
        cell = check_point(cell, self.shape, name="cell")
        if self.over or self.opened[cell]:
            return bool(self.flagged[cell])
        self.flagged[cell] = not self.flagged[cell]
        self.clicks += 1
        return bool(self.flagged[cell])

    def chord(self, cell: Point) -> int:
        """On an open number with as many flags around it: open its other closed neighbours.

        A wrong flag makes the chord open a mine: the game is lost. Returns the
        number of cells opened (0 when the chord does not apply).
        """
        r, c = check_point(cell, self.shape, name="cell")
        if self.over or not self.opened[r, c] or self.board is None:
            return 0
        n = int(self.density[r, c])
        r0, r1, c0, c1 = max(r - 1, 0), min(r + 2, self.rows), max(c - 1, 0), min(c + 2, self.cols)
        if n == 0 or int(np.count_nonzero(self.flagged[r0:r1, c0:c1])) != n:
            return 0
        self.clicks += 1
        total = 0
        for rr in range(r0, r1):
            for cc in range(c0, c1):
                if not self.opened[rr, cc] and not self.flagged[rr, cc] and not self.over:
                    total += self._open_one((rr, cc))
        return total

    def _finish(self, state: State) -> None:
        self.state = state
        self.finished = self._clock()


def result_line(game: Game) -> str:
    """The line shown when a game ends: time, 3BV, 3BV/s and efficiency.

    A lost game counts the 3BV the player did (:meth:`Game.three_bv_solved`).

    >>> t = iter([0.0, 2.0])
    >>> g = Game(board=Board.parse("*..\\n...\\n..."), clock=lambda: next(t))
    >>> _ = g.open((2, 2))
    >>> result_line(g)
    'won in 2.0 s: 3BV 1, 3BV/s 0.50, 1 clicks, efficiency 100%'
    """
    secs = max(game.elapsed, 1e-9)
    bv, done = game.three_bv(), game.three_bv_solved()
    if game.state == "won":
        return (
            f"won in {game.elapsed:.1f} s: 3BV {bv}, 3BV/s {bv / secs:.2f}, "
            f"{game.clicks} clicks, efficiency {100 * game.efficiency():.0f}%"
        )
    return (
        f"lost in {game.elapsed:.1f} s: 3BV {done} of {bv} done, 3BV/s {done / secs:.2f}, "
        f"{game.clicks} clicks, efficiency {100 * game.efficiency():.0f}%"
    )


def opening_order(game: Game, before: NDArray[np.bool_], seeds: Sequence[Point]) -> tuple[list[list[int]], list[int]]:
    """The cells a move opened (open now, closed in ``before``) in flood order, and each one's wave.

    Each seed's fill is the game's own (:func:`mazekit.search.flood_order`:
    breadth-first over cells without a mine or a flag, spreading only from
    zeros); a chord's seeds follow one another in the game's order. ``wave`` is
    a cell's distance in fill steps from its seed: it starts at 0 with each
    seed and never decreases within one seed's fill. A mine that was hit is a
    one-cell fill.

    >>> g = Game(board=Board.parse("*...\\n....\\n...."))
    >>> before = g.opened.copy()
    >>> _ = g.open((2, 3))
    >>> cells, wave = opening_order(g, before, [(2, 3)])
    >>> cells[:4], wave[:4], len(cells)
    ([[2, 3], [1, 3], [2, 2], [1, 2]], [0, 1, 1, 1], 11)
    """
    from ..search import flood_order

    assert game.board is not None
    new = game.opened & ~before
    rows, cols = game.shape
    mines = game.board.mines
    zero = (game.density == 0) & ~mines
    passable = ~mines & ~game.flagged
    done = np.zeros(game.shape, dtype=bool)
    cells: list[list[int]] = []
    waves: list[int] = []
    for s in seeds:
        if not new[s] or done[s]:
            continue
        if mines[s]:
            done[s] = True
            cells.append([s[0], s[1]])
            waves.append(0)
            continue
        order = flood_order(passable, s, connectivity=8, stop=~zero).ravel()
        reached = np.flatnonzero(order >= 0)
        reached = reached[np.argsort(order[reached], kind="stable")]
        wave = np.full(rows * cols, -1, dtype=np.int64)
        for i in reached.tolist():
            r, c = divmod(i, cols)
            if (r, c) == s:
                w = 0
            else:
                w = (
                    min(
                        int(wave[rr * cols + cc])
                        for rr in range(max(r - 1, 0), min(r + 2, rows))
                        for cc in range(max(c - 1, 0), min(c + 2, cols))
                        if zero[rr, cc] and wave[rr * cols + cc] >= 0
                    )
                    + 1
                )
            wave[i] = w
            if new[r, c] and not done[r, c]:
                done[r, c] = True
                cells.append([r, c])
                waves.append(w)
    return cells, waves
