"""The game: first click, flags, chording (a wrong chord loses), win, loss, 3BV and efficiency."""

from __future__ import annotations

import numpy as np
import pytest

from mazekit.minesweeper import Board, Game, next_move


def test_first_click_never_a_mine_and_zero_opens_an_area() -> None:
    for seed in range(30):
        g = Game(9, 9, 10, rng=seed)
        g.open((4, 4))
        assert g.state != "lost"
        z = Game(16, 30, 99, first_click="zero", rng=seed)
        assert z.open((0, 0)) >= 4


def test_flags_block_opening_and_count() -> None:
    g = Game(board=Board.parse("*..\n...\n..."))
    assert g.toggle_flag((2, 2)) is True
    assert g.open((2, 2)) == 0
    assert g.mines_left == 0
    assert g.toggle_flag((2, 2)) is False
    g.open((2, 2))
    assert g.state == "won"


def test_wrong_chord_loses() -> None:
    g = Game(board=Board.parse("*..\n...\n..*"))
    g.open((0, 1))  # a 1
    g.toggle_flag((1, 2))  # wrong flag
    assert g.chord((0, 1)) >= 1
    assert g.state == "lost" and g.exploded == (0, 0)
    assert "*" in g.text()


def test_chord_needs_matching_flags() -> None:
    g = Game(board=Board.parse("*..\n...\n..*"))
    g.open((0, 1))
    assert g.chord((0, 1)) == 0 and g.state == "playing"


def test_timer_and_efficiency() -> None:
    ticks = iter([10.0, 13.0])
    g = Game(board=Board.parse("*..\n...\n..."), clock=lambda: next(ticks))
    g.open((2, 2))
    assert g.state == "won" and g.elapsed == pytest.approx(3.0)
    assert g.three_bv() == 1 and g.efficiency() == 1.0


def test_solver_plays_a_game_through_the_public_api() -> None:
    g = Game(9, 9, 10, rng=11)
    g.open((0, 0))
    while not g.over:
        mv = next_move(np.where(g.flagged & ~g.opened, -2, g.view()), g.n_mines)
        assert mv is not None
        if mv.kind == "flag":
            assert g.board is not None and g.board.mines[mv.cell]
            g.toggle_flag(mv.cell)
        else:
            g.open(mv.cell)
    assert g.state in ("won", "lost")


def test_no_guess_game() -> None:
    g = Game(16, 16, 40, no_guess=True, first_click="zero", rng=3)
    g.open((8, 8))
    assert g.board is not None
    from mazekit.minesweeper import solvable

    assert solvable(g.board, (8, 8))
