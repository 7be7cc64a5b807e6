"""The solver: deductions never wrong, probabilities exact, no-guess boards, compiled = interpreted."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.minesweeper import Board, generate, generate_no_guess, play, probabilities, solvable
from mazekit.minesweeper import _kernels as K
from mazekit.minesweeper.board import _padded, protected_cells

from tests.conftest import jit_mode


def _stuck_state(board: Board, click: tuple[int, int]) -> np.ndarray:
    """Run the proof-only solver; return its final ``know`` (padded, flat)."""
    dens, offsets, width = _padded(board)
    know = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(-1)).astype(np.int8)
    n = dens.shape[0]
    first = (click[0] + 1) * width + click[1] + 1
    K.solve_kernel.compiled()(dens, know, offsets, width, board.rows, board.n_mines, first, False, 0.0,
                              2_000_000, 0, 0.0, 0, np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(n, np.int8),
                              np.empty(n, np.float64))
    return know.reshape(board.rows + 2, width)[1:-1, 1:-1]


@pytest.mark.parametrize(("rows", "cols", "mines"), [(9, 9, 10), (16, 16, 40), (16, 30, 99), (12, 12, 40)])
def test_deductions_are_never_wrong(rows: int, cols: int, mines: int) -> None:
    for seed in range(150):
        board = generate(rows, cols, mines, click=(0, 0), rng=seed)
        know = _stuck_state(board, (0, 0))
        assert not (know == K.MINE).any(), "a proved-safe cell was a mine"
        assert board.mines[know == -2].all(), "a proved mine was not a mine"
        opened = know >= 0
        assert (know[opened] == board.density()[opened]).all()


def _brute_force(view: np.ndarray, total: int) -> np.ndarray:
    closed = np.argwhere(view == -1)
    known = view == -2
    counts = np.zeros(view.shape)
    z = 0
    for pick in itertools.combinations(range(len(closed)), total - int(known.sum())):
        mines = known.copy()
        for i in pick:
            mines[tuple(closed[i])] = True
        d = Board.from_mines(mines).density()
        ok = view >= 0
        if (d[ok] == view[ok]).all() and not mines[ok].any():
            z += 1
            counts += mines
    out = counts / z
    out[view != -1] = np.nan
    return out


@st.composite
def small_views(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    rows = draw(st.integers(2, 5))
    cols = draw(st.integers(2, 5))
    n = rows * cols
    total = draw(st.integers(1, min(5, n - 1)))
    seed = draw(st.integers(0, 2**31))
    gen = np.random.default_rng(seed)
    mines = np.zeros(n, bool)
    mines[gen.choice(n, total, replace=False)] = True
    mines = mines.reshape(rows, cols)
    dens = Board.from_mines(mines).density()
    opened = (gen.random((rows, cols)) < draw(st.sampled_from([0.2, 0.4, 0.6]))) & ~mines
    view = np.where(opened, dens, -1).astype(np.int8)
    flags = mines & (gen.random((rows, cols)) < 0.2)
    view[flags] = -2
    return view, total


@settings(max_examples=60)
@given(small_views())
def test_probabilities_match_brute_force(case: tuple[np.ndarray, int]) -> None:
    view, total = case
    expected = _brute_force(view, total)
    for mode in ("never", "always"):
        with jit_mode(mode):  # type: ignore[arg-type]
            got = probabilities(view, total)
        np.testing.assert_allclose(got, expected, atol=1e-9)
        # proved cells are exactly 0 or 1
        assert ((got == 0.0) == (expected < 1e-12)).all()
        assert ((got == 1.0) == (expected > 1 - 1e-12)).all()


@pytest.mark.parametrize("rule", ["safe", "zero"])
@pytest.mark.parametrize(("rows", "cols", "mines"), [(9, 9, 10), (16, 16, 40), (16, 30, 99)])
def test_no_guess_boards_are_solved_without_guessing(rows: int, cols: int, mines: int, rule: str) -> None:
    click = (rows // 2, cols // 2)
    for seed in range(4):
        b = generate_no_guess(rows, cols, mines, click=click, first_click=rule, rng=seed)  # type: ignore[arg-type]
        assert b.n_mines == mines
        assert not (b.mines & protected_cells(b.shape, click, rule)).any()  # type: ignore[arg-type]
        assert solvable(b, click)
        r = play(b, click)
        assert r.won and r.guesses == 0


def test_no_guess_is_seeded() -> None:
    a = generate_no_guess(16, 16, 40, click=(0, 0), rng=9)
    assert a == generate_no_guess(16, 16, 40, click=(0, 0), rng=9)


def test_compiled_and_interpreted_games_agree() -> None:
    for seed in range(6):
        board = generate(9, 9, 10, click=(0, 0), rng=seed)
        with jit_mode("never"):
            slow = play(board, (0, 0))
        with jit_mode("always"):
            before = K.solve_kernel.calls_compiled
            fast = play(board, (0, 0))
            assert K.solve_kernel.calls_compiled == before + 1
        assert slow == fast


def test_solver_win_rate_is_sane() -> None:
    wins = sum(play(generate(9, 9, 10, click=(0, 0), rng=s), (0, 0)).won for s in range(300))
    assert wins > 0.85 * 300
