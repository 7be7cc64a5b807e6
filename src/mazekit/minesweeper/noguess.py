"""No-guess boards: layouts that logic alone solves from the first click."""

from __future__ import annotations

import numpy as np

from ..grid import Point, check_point
from . import _play_kernels as P
from .board import Board, FirstClick, _padded, generate, protected_cells
from .solver import solvable

__all__ = ["generate_no_guess", "noguess_work"]

#: Search budget of the probability step while a board is being built. A frontier
#: whose exact count needs more is treated as "stuck" (a mine is moved) instead of
#: being enumerated: that keeps the rare slow boards fast. The finished board is
#: still verified with the solver's full budget.
NOGUESS_NODES = 20_000


def noguess_work(rows: int, cols: int, mines: int) -> int:
    """The work :func:`generate_no_guess` announces to its compiled loop (which runs it
    compiled from :data:`mazekit._jit.THRESHOLD` on): a solver pass over the cells for
    each of up to about one mine move per mine. An expert board (16x30/99) reaches the
    threshold, so its first board does not crawl through seconds of plain Python.

    >>> noguess_work(9, 9, 10), noguess_work(16, 30, 99)
    (4050, 47520)
    """
    return rows * cols * max(mines, 50)


def generate_no_guess(
    rows: int,
    cols: int,
    mines: int,
    *,
    click: Point,
    first_click: FirstClick = "zero",
    rng: np.random.Generator | int | None = None,
    max_moves: int | None = None,
    attempts: int = 50,
) -> Board:
    """A random board that the solver opens from ``click`` without guessing.

    Parameters
    ----------
    rows, cols, mines : int
        Size and number of mines.
    click : (r, c)
        The first click.
    first_click : {"safe", "zero"}
        The first-click rule (kept by every board produced).
    rng : Generator, int or None
        The randomness; the same seed gives the same board.
    max_moves : int, optional
        Mine moves allowed per attempt (default ``4 * mines + 50``).
    attempts : int
        Fresh random layouts tried before giving up (``RuntimeError``).

    Returns
    -------
    Board
        Verified: :func:`~mazekit.minesweeper.solver.solvable` is True for it.

    Notes
    -----
    In the spirit of Simon Tatham's Mines, written afresh: start from a random
    layout; run the deduction solver (local rules, then exact probabilities
    with the mine count, moving only on certainties); when it is stuck, pick a
    random closed cell next to the open area and swap it with a random cell of
    the other kind away from the open area (a mine leaves the frontier, or a
    free cell becomes a mine there), update the shown numbers and resume from
    where the solver stood. A finished board is solved again from scratch to
    verify it. The loop runs compiled (:func:`~._kernels.noguess_kernel`).

    Examples
    --------
    >>> from mazekit.minesweeper.solver import solvable
    >>> b = generate_no_guess(9, 9, 10, click=(4, 4), rng=3)
    >>> b.n_mines, solvable(b, (4, 4))
    (10, True)
    """
    click = check_point(click, (rows, cols), name="click")
    gen = np.random.default_rng(rng)
    moves = 4 * mines + 50 if max_moves is None else int(max_moves)
    prot = protected_cells((rows, cols), click, first_click)
    width = cols + 2
    pad_prot = np.zeros((rows + 2, width), dtype=np.uint8)
    pad_prot[1:-1, 1:-1] = prot
    first = (click[0] + 1) * width + click[1] + 1
    for _ in range(attempts):
        board = generate(rows, cols, mines, click=click, first_click=first_click, rng=gen)
        _, offsets, _ = _padded(board)
        pad = np.zeros((rows + 2, width), dtype=np.uint8)
        pad[1:-1, 1:-1] = board.mines
        flat = pad.reshape(-1)
        rand = gen.random(2 * moves + 2)
        kernel = P.noguess_kernel.pick(noguess_work(rows, cols, mines))
        done = kernel(flat, pad_prot.reshape(-1), offsets, width, rows, mines, first, rand, NOGUESS_NODES, moves)
        if done >= 0:
            result = Board.from_mines(flat.reshape(rows + 2, width)[1:-1, 1:-1].astype(bool))
            if solvable(result, click):
                return result
    raise RuntimeError(f"no no-guess {rows}x{cols} board with {mines} mines found in {attempts} attempts")
