"""The solver: deductions never wrong, probabilities exact, no-guess boards, compiled = interpreted."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings

from mazekit.minesweeper import Board, generate, generate_no_guess, play, probabilities, solvable
from mazekit.minesweeper import _guess_kernels as G
from mazekit.minesweeper import _kernels as K
from mazekit.minesweeper import _play_kernels as P
from mazekit.minesweeper.board import _padded, protected_cells
from mazekit.minesweeper.solver import _buffers, _Padded
from tests.conftest import jit_mode
from tests.strategies import mine_views


def _stuck_state(board: Board, click: tuple[int, int]) -> np.ndarray:
    """Run the proof-only solver; return its final ``know`` (padded, flat)."""
    dens, offsets, width = _padded(board)
    know = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(-1)).astype(np.int8)
    n = dens.shape[0]
    first = (click[0] + 1) * width + click[1] + 1
    P.solve_kernel.compiled()(
        P.Field(dens, know, offsets, width, board.rows, board.n_mines), first, P.proofs_only(2_000_000), _buffers(n)
    )
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
    return _brute_force_count(view, total)[0]


def _brute_force_count(view: np.ndarray, total: int) -> tuple[np.ndarray, int]:
    """Mine probabilities and the number of layouts that agree with ``view``."""
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
    out = counts / max(z, 1)
    out[view != -1] = np.nan
    return out, z


@settings(max_examples=60)
@given(mine_views())
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


@settings(max_examples=25, deadline=None)
@given(mine_views())
def test_layout_count_and_value_chances_match_brute_force(case: tuple[np.ndarray, int]) -> None:
    """The kernel's layout count is exact, so the look-ahead's chance of each value
    a closed cell may show (a ratio of counts) is exact and sums to its safety."""
    view, total = case
    p, z = _brute_force_count(view, total)
    pp = _Padded(view)
    prob = np.empty(pp.know.shape[0])
    info = np.zeros(2)
    K.probability_kernel.py_func(pp.know, pp.offsets, total, prob, 2_000_000, info)
    assert info[0] == pytest.approx(np.log(z), abs=1e-9)
    rows, cols = view.shape
    for r, c in np.argwhere((view == -1) & (p < 1 - 1e-12))[:2]:  # a proved mine is never opened
        around = view[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
        flagged, closed = int((around == -2).sum()), int((around == -1).sum()) - 1
        chances = 0.0
        for v in range(9):
            hyp = view.copy()
            hyp[r, c] = v
            count = _brute_force_count(hyp, total)[1]
            chances += count / z
            if not flagged <= v <= flagged + closed:
                assert count == 0  # the look-ahead tries only these values
                continue
            hp = _Padded(hyp)
            st = K.probability_kernel.py_func(hp.know, hp.offsets, total, np.empty(hp.know.shape[0]), 2_000_000, info)
            assert (st == 2) == (count == 0)
            if count:
                assert np.exp(info[0]) == pytest.approx(count, rel=1e-9)
        assert chances == pytest.approx(1.0 - p[r, c], abs=1e-9)


def _two_step(view: np.ndarray, total: int, cell: tuple[int, int]) -> float:
    """Brute force: the chance to survive opening ``cell`` and the next guess (none
    is needed when the new view proves a cell safe or leaves only mines)."""
    _, z = _brute_force_count(view, total)
    score = 0.0
    for v in range(9):
        hyp = view.copy()
        hyp[cell] = v
        p, count = _brute_force_count(hyp, total)
        if count == 0:
            continue
        closed = p[hyp == -1]
        if closed.size == 0 or (closed < 1e-12).any() or (closed > 1 - 1e-12).all():
            score += count / z
        else:
            score += count / z * (1.0 - closed[closed < 1 - 1e-12].min())
    return score


@settings(max_examples=12, deadline=None)
@given(mine_views())
def test_lookahead_maximises_two_step_survival(case: tuple[np.ndarray, int]) -> None:
    view, total = case
    p, _ = _brute_force_count(view, total)
    closed = view == -1
    if not closed.any() or (p[closed] < 1e-12).any() or (p[closed] > 1 - 1e-12).all():
        return  # a proved move exists: no guess to make
    pp = _Padded(view)
    prob = np.empty(pp.know.shape[0])
    info = np.zeros(2)
    K.probability_kernel.py_func(pp.know, pp.offsets, total, prob, 2_000_000, info)
    know = pp.know.copy()
    g = G.lookahead_kernel.py_func(know, prob, pp.offsets, total, 2_000_000, info[0], 64, 1.0, False, 0)
    assert (know == pp.know).all()  # the view is restored
    pick = pp.point(int(g))
    scores = {}
    for r, c in np.argwhere(closed):
        near = view[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
        if (near >= 0).any() and p[r, c] < 1 - 1e-12:
            scores[(int(r), int(c))] = _two_step(view, total, (int(r), int(c)))
    if scores:
        assert _two_step(view, total, pick) >= max(scores.values()) - 1e-9


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
            before = P.solve_kernel.calls_compiled
            fast = play(board, (0, 0))
            assert P.solve_kernel.calls_compiled == before + 1
        assert slow == fast


def test_solver_win_rate_is_sane() -> None:
    wins = sum(play(generate(9, 9, 10, click=(0, 0), rng=s), (0, 0)).won for s in range(300))
    assert wins > 0.85 * 300


def _brute_force_win(view: np.ndarray, total: int) -> dict[tuple[int, int], float]:
    """Each closed cell's chance to win when opened now and the game is then
    played optimally (the end-game search's model), by memoised recursion over
    sets of layouts."""
    from functools import lru_cache

    closed = [tuple(x) for x in np.argwhere(view == -1)]
    known = view == -2
    vals = []
    for pick in itertools.combinations(range(len(closed)), total - int(known.sum())):
        mines = known.copy()
        for i in pick:
            mines[closed[i]] = True
        d = Board.from_mines(mines).density()
        ok = view >= 0
        if (d[ok] == view[ok]).all() and not mines[ok].any():
            vals.append(tuple(9 if mines[c] else int(d[c]) for c in closed))

    def scores(s: tuple[int, ...]) -> tuple[bool, dict[int, float]]:
        out: dict[int, float] = {}
        decided = True
        for j in range(len(closed)):
            mines = sum(vals[t][j] == 9 for t in s)
            if 0 < mines < len(s):
                decided = False
            if mines == len(s):
                continue
            parts: dict[int, list[int]] = {}
            for t in s:
                if vals[t][j] != 9:
                    parts.setdefault(vals[t][j], []).append(t)
            if mines == 0 and len(parts) == 1:
                continue  # a dead cell: nothing to learn
            out[j] = sum(len(p) / len(s) * win(tuple(p)) for p in parts.values())
        return decided, out

    @lru_cache(None)
    def win(s: tuple[int, ...]) -> float:
        decided, out = scores(s)
        return 1.0 if decided else max(out.values())

    _, root = scores(tuple(range(len(vals))))
    return {(int(closed[j][0]), int(closed[j][1])): v for j, v in root.items()}


def _probabilities(view: np.ndarray, total: int, kernel: Any = None) -> tuple[_Padded, np.ndarray, np.ndarray]:
    """The padded view, each cell's mine probability and the kernel's info (log of the layouts);
    the plain kernel unless another version of it is given."""
    pp = _Padded(view)
    prob = np.empty(pp.know.shape[0])
    info = np.zeros(2)
    (kernel or K.probability_kernel.py_func)(pp.know, pp.offsets, total, prob, 2_000_000, info)
    return pp, prob, info


def _a_guess_to_make(view: np.ndarray, total: int) -> bool:
    """Closed cells, none of them proved safe, not all of them proved mines (the compiled kernel:
    the strategy asks this of many views)."""
    pp, prob, _ = _probabilities(view, total, K.probability_kernel.compiled())
    closed = pp.know == -1
    return bool(closed.any() and not (prob[closed] == 0.0).any() and not (prob[closed] == 1.0).all())


@settings(max_examples=40, deadline=None)
@given(mine_views(keep=_a_guess_to_make))
def test_endgame_search_finds_the_best_chance_to_win(case: tuple[np.ndarray, int]) -> None:
    view, total = case
    assume(_a_guess_to_make(view, total))  # made so by the strategy, but for one in thousands
    pp, prob, info = _probabilities(view, total)
    out = np.zeros(2)
    if G.endgame_kernel.py_func(pp.know, pp.offsets, total, 300, 1_000_000, out) == 0:
        # it gives up only on one of its two caps: more than 300 layouts, or more than 1,000,000
        # positions searched (then, with no cap on the work, it answers)
        if np.exp(info[0]) <= 299:
            assert G.endgame_kernel.compiled()(pp.know, pp.offsets, total, 300, 10**12, out) == 1
        return
    scores = _brute_force_win(view, total)
    assert out[1] == pytest.approx(max(scores.values()), abs=1e-9)
    assert scores[pp.point(int(out[0]))] == pytest.approx(out[1], abs=1e-9)  # the chosen cell achieves it
