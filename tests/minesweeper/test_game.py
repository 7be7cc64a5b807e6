"""The game: first click, flags, chording (a wrong chord loses), win, loss, 3BV and efficiency."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit.minesweeper import Board, Game, next_move, result_line, three_bv, three_bv_solved
from tests.strategies import seeds


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


# ------------------------------------------------------------ efficiency after a loss (#15 item 1)


def test_a_quick_loss_reports_what_was_opened_not_the_whole_board() -> None:
    """`mines play --level beginner --seed 1`, open, open, open on a mine: it said 'efficiency 500%'."""
    game = Game(rows=9, cols=9, mines=10, rng=1)
    clicks = [(0, 0), (0, 2), (1, 2)]
    for cell in clicks:
        if game.over:
            break
        game.open(cell)
    # find a mine next to what is open and step on it
    mine = tuple(np.argwhere(game.board.mines)[0])
    game.open(mine)
    assert game.state == "lost"
    assert game.three_bv_solved() <= game.clicks
    assert game.efficiency() <= 1.0
    line = result_line(game)
    assert line.startswith("lost") and f"3BV {game.three_bv_solved()} of {game.three_bv()} done" in line


@given(seeds, st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=1, max_size=30))
def test_efficiency_without_chords_never_passes_100_percent(seed: int, cells: list[tuple[int, int]]) -> None:
    game = Game(rows=9, cols=9, mines=10, rng=seed)
    for cell in cells:
        if game.over:
            break
        game.open(cell)
    assert 0 <= game.three_bv_solved() <= game.three_bv()
    assert game.efficiency() <= 1.0
    if game.state == "won":
        assert game.three_bv_solved() == game.three_bv()


def test_three_bv_solved_counts_openings_once_and_lonely_numbers() -> None:
    mines = np.array([[0, 0, 0, 1], [0, 0, 0, 1], [1, 1, 1, 1], [0, 1, 0, 1]], dtype=bool)
    assert three_bv(mines) == 3  # one opening, the lonely cells (3, 0) and (3, 2)
    nothing = np.zeros_like(mines)
    assert three_bv_solved(mines, nothing) == 0
    assert three_bv_solved(mines, ~mines) == 3
    one_zero = nothing.copy()
    one_zero[0, 0] = True
    assert three_bv_solved(mines, one_zero) == 1
    border_number = nothing.copy()
    border_number[1, 2] = True  # a number beside the opening, opened alone: the opening is not done
    assert three_bv_solved(mines, border_number) == 0


def test_next_move_and_hint_take_a_game() -> None:
    """``next_move(game)`` and ``hint(game)`` need no mine count; a flag counts only when proved."""
    from mazekit.minesweeper import hint

    first = hint(Game(4, 4, 2, first_click="zero", rng=1))
    assert first.rule == "first click" and first.proved and "zero" in first.reason
    game = Game(board=Board.parse(".*..\n....\n....\n...*"))
    game.open((2, 0))
    view = game.view()
    assert next_move(game) == next_move(view, game.n_mines)
    with pytest.raises(TypeError, match="total_mines"):
        next_move(view)
    game.toggle_flag((3, 3))  # not proved: ignored
    assert next_move(game) == next_move(view, game.n_mines)
    while not game.over:
        mv = next_move(game)
        assert mv is not None
        game.toggle_flag(mv.cell) if mv.kind == "flag" else game.open(mv.cell)
    assert hint(game).move is None and "over" in hint(game).reason


@pytest.mark.parametrize("rule", ["safe", "zero"])
def test_mine_room_is_the_most_mines_any_first_click_allows(rule: str) -> None:
    from mazekit.minesweeper import generate, mine_room

    for rows, cols in [(2, 2), (2, 5), (3, 3), (9, 9), (1, 7)]:
        room = mine_room(rows, cols, rule)  # type: ignore[arg-type]
        for r in range(rows):
            for c in range(cols):
                if room > 0:
                    assert generate(rows, cols, room, click=(r, c), first_click=rule, rng=0).n_mines == room  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            Game(rows, cols, room + 1, first_click=rule)  # type: ignore[arg-type]
