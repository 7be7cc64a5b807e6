"""The guessing rules against brute force over every layout of small boards.

Each rule's choice is checked with the exact chance to win from the position
(every layout enumerated, the rest of the game played optimally:
``_brute_force_win`` of test_solver), and the compiled kernels against their
plain-Python source (``kernel.py_func``).
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from hypothesis import given, settings

from mazekit.minesweeper import Board, PossibleFlip, SolverOptions, hint, next_move, possible_flips
from mazekit.minesweeper import _flip_kernels as F
from mazekit.minesweeper import _guess_kernels as G
from mazekit.minesweeper import _kernels as K
from mazekit.minesweeper.solver import _Padded
from tests.minesweeper.test_solver import _brute_force_count, _brute_force_win, _probabilities
from tests.strategies import mine_views


def _layouts(view: np.ndarray, total: int) -> list[np.ndarray]:
    """Every mine layout (bool array) that agrees with ``view`` and the mine count."""
    closed = [tuple(x) for x in np.argwhere(view == -1)]
    known = view == -2
    out = []
    for pick in itertools.combinations(range(len(closed)), total - int(known.sum())):
        mines = known.copy()
        for i in pick:
            mines[closed[i]] = True
        d = Board.from_mines(mines).density()
        ok = view >= 0
        if (d[ok] == view[ok]).all() and not mines[ok].any():
            out.append(mines)
    return out


def _coin_flip(view: np.ndarray, total: int) -> int:
    pp, prob, _ = _probabilities(view, total, K.probability_kernel.compiled())
    return int(G.fifty_kernel.py_func(pp.know, prob, pp.offsets, pp.width))


def _has_coin_flip(view: np.ndarray, total: int) -> bool:
    return bool((view == -1).sum() <= 12) and _coin_flip(view, total) >= 0


@settings(max_examples=40, deadline=None)
@given(mine_views(keep=_has_coin_flip, tries=400))
def test_a_coin_flip_is_forced_and_taking_it_first_costs_nothing(case: tuple[np.ndarray, int]) -> None:
    view, total = case
    a = _coin_flip(view, total)
    if a < 0 or (view == -1).sum() > 12:
        return  # the strategy found none in its tries
    pp, prob, _ = _probabilities(view, total)
    assert G.fifty_kernel.compiled()(pp.know, prob, pp.offsets, pp.width) == a  # compiled = plain
    cell = pp.point(a)
    layouts = _layouts(view, total)
    # the other cell: the one always holding the mine when this one does not
    partners = [
        (int(r), int(c))
        for r, c in np.argwhere(view == -1)
        if (int(r), int(c)) != cell and all(m[cell] != m[r, c] for m in layouts)
    ]
    assert partners, "a coin flip's two cells hold exactly one mine in every layout"
    assert sum(m[cell] for m in layouts) * 2 == len(layouts)
    # best play wins as much when it opens the coin flip now
    scores = _brute_force_win(view, total)
    assert scores[cell] == pytest.approx(max(scores.values()), abs=1e-9)


def _guess_needed(view: np.ndarray, total: int) -> bool:
    pp, prob, _ = _probabilities(view, total, K.probability_kernel.compiled())
    closed = pp.know == -1
    small = closed.sum() <= 11
    return bool(small and closed.any() and not (prob[closed] == 0.0).any() and not (prob[closed] == 1.0).any())


def _lookahead(
    view: np.ndarray, total: int, skip_dead: bool, deep: int, kernel: object = None, flips: float = 0.0
) -> tuple[_Padded, int]:
    pp, prob, info = _probabilities(view, total)
    know = pp.know.copy()
    run = kernel or G.lookahead_kernel.py_func
    extra = 8 if flips > 0 else 0
    g = run(know, prob, pp.offsets, total, 2_000_000, info[0], 8, 0.05, skip_dead, deep, pp.width, flips, extra)  # type: ignore[operator]
    assert (know == pp.know).all()  # the view is restored
    return pp, int(g)


@settings(max_examples=40, deadline=None)
@given(mine_views(keep=_guess_needed, tries=200))
def test_a_dead_cell_passed_over_is_dead(case: tuple[np.ndarray, int]) -> None:
    """When skipping dead cells changes the look-ahead's pick, the cell it no longer picks
    shows one number in every layout where it is safe, and no view after it proves a move."""
    view, total = case
    if not _guess_needed(view, total):
        return
    pp, with_skip = _lookahead(view, total, True, 0)
    _, without = _lookahead(view, total, False, 0)
    if with_skip == without:
        return
    cell = pp.point(without)
    values = {int(Board.from_mines(m).density()[cell]) for m in _layouts(view, total) if not m[cell]}
    assert len(values) == 1
    hyp = view.copy()
    hyp[cell] = values.pop()
    p, _ = _brute_force_count(hyp, total)
    closed = p[hyp == -1]
    assert closed.size and not (closed < 1e-12).any() and not (closed > 1 - 1e-12).all()


#: The most win chance the look-ahead's pick (one or two plies, dead cells skipped) may give
#: up against best play, on average over the positions below (each one's exact chance to win
#: enumerated over every layout). Measured: 0.008 for both plies (22 positions, the worst 0.10),
#: 0.003 with the allowance for coin flips to come (the worst 0.07).
MEAN_REGRET = 0.03


@pytest.mark.parametrize(("deep", "flips"), [(0, 0.0), (4, 0.0), (0, 1.0)])
def test_the_lookahead_is_near_best_play_on_small_boards(deep: int, flips: float) -> None:
    """The look-ahead's picks on the stuck positions of games on 4x6 boards with 6 mines,
    scored by the exact chance to win (every layout, best play after): near the best."""
    from tests.minesweeper.test_constraints import _stuck_views

    views = [v for v in _stuck_views(4, 6, 6, range(80)) if _guess_needed(v, 6)]
    assert len(views) >= 15
    regrets = []
    for view in views:
        pp, g = _lookahead(view, 6, True, deep, flips=flips)
        _, fast = _lookahead(view, 6, True, deep, G.lookahead_kernel.compiled(), flips=flips)
        assert g == fast  # compiled = plain
        scores = _brute_force_win(view, 6)
        best = max(scores.values())
        regrets.append(best - scores.get(pp.point(g), 0.0))
    assert min(regrets) >= -1e-9
    print(f"deep={deep} flips={flips}: mean regret {np.mean(regrets):.4f}, worst {max(regrets):.4f}")
    assert float(np.mean(regrets)) <= MEAN_REGRET


@settings(max_examples=30, deadline=None)
@given(mine_views(keep=_guess_needed, tries=200))
def test_next_move_with_few_layouts_is_best_play(case: tuple[np.ndarray, int]) -> None:
    """With at most 500 layouts left the solver's guess has the best chance to win (the end game
    searched exactly), unless it takes a coin flip, which costs nothing (tested above)."""
    view, total = case
    if not _guess_needed(view, total):
        return
    mv = next_move(view, total)
    assert mv is not None and mv.guess
    scores = _brute_force_win(view, total)
    assert scores[mv.cell] == pytest.approx(max(scores.values()), abs=1e-9)
    slow = next_move(view, total, options=SolverOptions(endgame=0, look=0, fifty=False))  # the safest cell
    assert slow is not None and slow.p_mine == pytest.approx(
        min(np.nan_to_num(_brute_force_count(view, total)[0], nan=2).ravel())
    )


def test_the_hint_gives_the_outlook_of_its_guess() -> None:
    view = np.array([[1, -1, -1, -1], [-1, -1, -1, -1], [-1, -1, -1, -1]], np.int8)
    h = hint(view, 2)
    assert h.move is not None and h.move.guess and h.outlook is not None
    layouts = _layouts(view, 2)
    cell = h.move.cell
    safe = [m for m in layouts if not m[cell]]
    assert h.outlook.safe == pytest.approx(len(safe) / len(layouts))
    zero = [m for m in safe if Board.from_mines(m).density()[cell] == 0]
    assert h.outlook.opens == pytest.approx(len(zero) / len(layouts))
    assert h.reason.startswith(f"the best guess: safe {100 * h.outlook.safe:.0f}%, and opens an area")


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"look": -1}, "SolverOptions.look must be a number at least 0"),
        ({"look": 1.5}, "SolverOptions.look must be a whole number"),
        ({"margin": float("nan")}, "SolverOptions.margin must be a number"),
        ({"tol": 0.5}, "SolverOptions.tol must be a number at least 0 and below 0.5"),
        ({"fifty": 1}, "SolverOptions.fifty must be True or False"),
        ({"max_nodes": 0}, "SolverOptions.max_nodes must be a number above 0"),
    ],
)
def test_solver_options_say_what_is_wrong(kw: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        SolverOptions(**kw)  # type: ignore[arg-type]
    assert SolverOptions(look=0, margin=0.0, endgame=0, deep=0) is not None


def _region(view: np.ndarray, total: int, kernel: object = None) -> tuple[_Padded, int, float]:
    pp, _prob, _ = _probabilities(view, total)
    out = np.zeros(3)
    run = kernel or G.region_kernel.py_func
    found = run(pp.know.copy(), pp.offsets, total, 2_000, 400_000, 16, out)  # type: ignore[operator]
    return pp, (int(out[0]) if found else -1), float(out[1])


def _has_region(view: np.ndarray, total: int) -> bool:
    return _guess_needed(view, total) and _region(view, total, G.region_kernel.compiled())[1] >= 0


@settings(max_examples=40, deadline=None)
@given(mine_views(keep=_has_region, tries=300))
def test_an_isolated_region_played_first_loses_nothing(case: tuple[np.ndarray, int]) -> None:
    """A guess the region rule makes has the best chance to win the whole game (every layout
    enumerated, best play after): the region is a game of its own."""
    view, total = case
    if not _has_region(view, total):
        return  # the strategy found none in its tries
    pp, g, clear = _region(view, total)
    assert _region(view, total, G.region_kernel.compiled())[1] == g  # compiled = plain
    cell = pp.point(g)
    assert view[cell] == -1
    scores = _brute_force_win(view, total)
    assert scores[cell] == pytest.approx(max(scores.values()), abs=1e-9)
    assert clear >= scores[cell] - 1e-9  # the region is cleared at least as often as the game is won


def test_a_region_is_isolated_only_when_no_cell_of_it_reaches_the_interior() -> None:
    # a coin flip at the left wall (one mine in (1, 0) and (2, 0)) boxed in by flagged mines and
    # numbers, beside two closed columns that reach the unknown interior
    mines = np.zeros((4, 5), bool)
    mines[[0, 0, 3, 3, 1, 2], [0, 1, 0, 1, 0, 4]] = True
    density = Board.from_mines(mines).density()
    view = np.where(mines, -2, density).astype(np.int8)
    view[1:3, 0] = -1
    view[:, 3:] = -1
    total = int(mines.sum())
    pp, g, clear = _region(view, total)
    assert pp.point(g) in {(1, 0), (2, 0)} and clear == pytest.approx(0.5)
    # with (1, 2) closed the pair's numbers reach the closed columns, and those the interior
    view[1, 2] = -1
    assert _region(view, total)[1] == -1


def test_the_hint_says_when_a_region_was_searched() -> None:
    # the pair of the test above, walled off by flagged mines from a closed area of many layouts;
    # with coin flips not taken first, the region rule plays the pair
    mines = np.zeros((4, 10), bool)
    mines[[0, 0, 3, 3, 1], [0, 1, 0, 1, 0]] = True
    mines[:, 3] = True
    mines[[0, 1, 2, 3, 0, 2, 1, 3], [4, 5, 6, 7, 8, 9, 9, 5]] = True
    view = np.where(mines, -2, Board.from_mines(mines).density()).astype(np.int8)
    view[1:3, 0] = -1
    view[:, 4:] = -1
    h = hint(view, int(mines.sum()), options=SolverOptions(fifty=False))
    assert h.rule == "region" and h.move is not None and h.move.cell in {(1, 0), (2, 0)}
    assert "touch only each other and numbers" in h.reason and "clears them 50%" in h.reason


def _a_guess_to_make_small(view: np.ndarray, total: int) -> bool:
    pp, prob, _ = _probabilities(view, total, K.probability_kernel.compiled())
    closed = pp.know == -1
    return bool(2 <= closed.sum() <= 12 and not (prob[closed] == 0.0).any())


def _flip_by_layouts(view: np.ndarray, total: int, cells: np.ndarray, ns: int, nd: int, pp: _Padded) -> float:
    """The share of the layouts in which every cell that could tell the possible coin flip's
    layouts apart (``cells[4:4 + nd]``, the border aside) is a mine and its cells
    (``cells[:ns]``) hold one of its two layouts (the first half mines and the rest safe, or
    the other way round)."""
    inside = [pp.point(int(c)) for c in cells[4 : 4 + nd] if pp.know[int(c)] != K.BORDER]
    own = [pp.point(int(c)) for c in cells[:ns]]
    half = ns // 2
    layouts = _layouts(view, total)
    hits = 0
    for m in layouts:
        if not all(m[p] for p in inside):
            continue
        first = all(m[p] for p in own[:half]) and not any(m[p] for p in own[half:])
        second = all(m[p] for p in own[half:]) and not any(m[p] for p in own[:half])
        hits += first or second
    return hits / len(layouts)


@settings(max_examples=300, deadline=None)
@given(mine_views(keep=_a_guess_to_make_small, tries=200))
def test_the_chance_of_a_coin_flip_to_come_is_counted_exactly(case: tuple[np.ndarray, int]) -> None:
    view, total = case
    pp, prob, info = _probabilities(view, total, K.probability_kernel.compiled())
    if not (pp.know == -1).any() or (pp.know == -1).sum() > 12:
        return
    cells = np.empty(10, np.int64)
    scratch = np.empty(pp.know.shape[0])
    for kind in range(3):
        for a in np.flatnonzero(pp.know == -1):
            got = F._flip_chance.py_func(
                pp.know, prob, pp.offsets, pp.width, total, 2_000_000, info[0], kind, int(a), cells, scratch, 0.0
            )
            ns, nd = F._flip_cells.py_func(kind, int(a), pp.width, cells)
            own = cells[:ns]
            if (own >= pp.know.shape[0]).any() or (pp.know[own] != -1).any():
                assert got == 0.0
                continue
            if (pp.know[cells[4 : 4 + nd]] >= 0).any():
                assert got == 0.0  # an open cell already tells the layouts apart
                continue
            assert got == pytest.approx(_flip_by_layouts(view, total, cells, ns, nd, pp), abs=1e-9)
            own_cells = tuple(sorted(pp.point(int(c)) for c in own))
            if got > 0:  # the library's list of the possible coin flips that hold a cell has it
                assert PossibleFlip(own_cells, pytest.approx(got)) in possible_flips(view, total, own_cells[0], least=0)
    assert (pp.know == K.UNKNOWN).sum() == (view == -1).sum()  # the view is left as it was


#: A stuck position of an expert game (16x30, 99 mines; F a proved mine). The top row's cells at
#: columns 10 and 11 and the two below them touch only numbers that see one of each diagonal,
#: and the cells diagonally beyond the square are mines or the border.
FLIP_VIEW = """\
001F2F101#####################
001121112#####################
11100002F4FF##################
1F211002F33###################
223F1001111###################
1F2110122113##################
1121213FF11###################
012F3F3F322###################
01F3F23222F4##################
0112222F12F###################
00012F21113###################
1111F222223###################
2F21111FF4F###################
2F200025F#####################
2210112FF#####################
F1001F223#####################"""


def test_the_hint_says_when_a_guess_settles_a_possible_coin_flip() -> None:
    view = np.array(
        [
            [{"#": -1, "F": -2}.get(ch, 0) if not ch.isdigit() else int(ch) for ch in row]
            for row in FLIP_VIEW.splitlines()
        ],
        np.int8,
    )
    flips = possible_flips(view, 99, (0, 9))
    assert flips and flips[0].cells == ((0, 9), (0, 10), (1, 9), (1, 10))
    assert 0.3 < flips[0].chance < 0.35
    h = hint(view, 99)
    assert h.rule == "look-ahead" and h.move is not None and h.move.cell == (0, 9)
    assert "settles a possible coin flip in the 2x2 square" in h.reason and "32% of the time" in h.reason
    assert set(h.because) == {(0, 10), (1, 9), (1, 10)}
    # without the allowance the hint says nothing of it
    plain = hint(view, 99, options=SolverOptions(flips=0.0, flip_extra=0))
    assert "coin flip" not in plain.reason and plain.because == ()
    with pytest.raises(ValueError, match="not a closed cell"):
        possible_flips(view, 99, (0, 0))
    with pytest.raises(ValueError, match="cell"):
        possible_flips(view, 99, (16, 0))
