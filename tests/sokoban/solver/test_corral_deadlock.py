"""Corral deadlocks: the small search of a corral's boxes never calls a solvable position dead.

Also the fast search's other options (the backward search's player penalty).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mazekit.sokoban import parse_level, replay
from mazekit.sokoban._deadlock_kernels import frozen_kernel
from mazekit.sokoban._padded_kernels import flood_min_kernel
from mazekit.sokoban.problem import Problem
from mazekit.sokoban.solver import SearchOptions, as_problem, search_level
from mazekit.sokoban.solver.directions import corral_scratch
from mazekit.sokoban.solver.kernels.bound import hungarian_kernel
from mazekit.sokoban.solver.kernels.corrals import corral_deadlock_kernel
from mazekit.sokoban.solver.kernels.state import BIG
from tests.sokoban.conftest import brute_force_pushes, portfolio_with, rows_level
from tests.sokoban.solver.test_solver import SMALL, jit_mode, pushed_positions
from tests.strategies import sokoban_levels, tiny_sokoban_levels


class CorralChecker:
    """Runs :func:`~corral_deadlock_kernel` on positions of one problem, for every box."""

    def __init__(self, prob: Problem, mode: str = "always", limit: int = 256, maxb: int = 12, grow: int = 1) -> None:
        self.prob = prob
        n = prob.height * prob.width
        self.kernel = corral_deadlock_kernel.pick(10**9 if mode == "always" else 0)
        self.flood = flood_min_kernel.pick(10**9 if mode == "always" else 0)
        self.cs = corral_scratch(n, max(len(prob.boxes), 1))
        self.boxat = np.full(n, -1, dtype=np.int32)
        self.mark = np.zeros(n, dtype=np.int64)
        self.queue = np.empty(n, dtype=np.int64)
        self.stamp = 0
        self.limit, self.maxb, self.grow = limit, maxb, grow
        rng = np.random.default_rng(1)
        self.zbox = rng.integers(0, 1 << 62, size=n, dtype=np.int64)
        self.zpl = rng.integers(0, 1 << 62, size=n, dtype=np.int64)

    def dead(self, cells: np.ndarray, player: int) -> bool:
        """True when some box's neighbouring corral is found dead."""
        p = self.prob
        cells = np.asarray(cells, dtype=np.int64)
        self.boxat[cells] = np.arange(len(cells), dtype=np.int32)
        self.stamp += 1
        try:
            low = self.flood(p.floor, self.boxat, p.off, player, self.stamp, self.mark, self.queue)
            return any(
                self.kernel(
                    p.floor,
                    p.goalm,
                    p.dead,
                    p.off,
                    self.zbox,
                    self.zpl,
                    self.boxat,
                    cells,
                    self.mark,
                    self.stamp,
                    int(c),
                    player,
                    low,
                    self.limit,
                    self.maxb,
                    self.grow,
                    self.cs,
                )
                for c in cells
            )
        finally:
            self.boxat[cells] = -1


# Two boxes on the lip of a goal-less pocket: the only pushes that could move them go into
# the pocket, onto dead squares, so the pocket (a corral) can never be opened. Neither the
# freeze test (each box is free on its vertical axis) nor the matching bound (each box alone
# could be pushed up to a goal) sees it.
POCKET = [
    "#######",
    "#.  . #",
    "#@$$  #",
    "##  ###",
    "#######",
]


@pytest.mark.parametrize("mode", ["never", "always"])
def test_a_pocket_fenced_by_two_boxes_is_a_corral_deadlock(mode):
    level = rows_level(POCKET)
    assert brute_force_pushes(level) is None
    prob = as_problem(level)
    cells = np.sort(prob.boxes)
    with jit_mode(mode):
        checker = CorralChecker(prob, mode)
        assert checker.dead(cells, int(prob.player))
        # without the pocket's fence (one box moved away) there is nothing to find
        other = np.array([cells[0], prob.cell(1, 3)], dtype=np.int64)
        assert not checker.dead(np.sort(other), int(prob.player))
    fz = np.zeros(2, dtype=np.uint8)
    boxat = np.full(prob.height * prob.width, -1, dtype=np.int32)
    boxat[cells] = [0, 1]
    assert not frozen_kernel(cells, boxat, prob.floor, prob.dead, prob.goalm, prob.off, fz)
    u = np.zeros(3, dtype=np.int64)
    v, p, way, minv = (np.zeros(3, dtype=np.int64) for _ in range(4))
    assert hungarian_kernel(cells, prob.dist, u, v, p, way, minv, np.zeros(3, dtype=np.uint8)) < BIG


def test_the_search_proves_the_pocket_unsolvable_with_and_without_corral_tests():
    level = rows_level(POCKET)
    for nodes in (0, 64):
        res = search_level(level, time_limit=20, portfolio=portfolio_with(corral_nodes=nodes))
        assert res.solution is None and res.stats.stopped == "unsolvable"


# A corral closed by a box that does not touch it: the cell right of the top box is a
# goal-less corner, fenced by the top box and the box below it; the box in the corner of
# the two pins both. With the fence alone the pinning box is taken away, the lower fence
# box can then be pushed left and the corral opens; with the fence's neighbours the
# three boxes cannot move at all.
PINNED = [
    "########",
    "#.  $ ##",
    "#   $$ #",
    "#@ ..  #",
    "#      #",
    "########",
]


def test_a_box_beside_the_fence_can_close_a_corral():
    level = rows_level(PINNED)
    assert brute_force_pushes(level) is None
    prob = as_problem(level)
    cells = np.sort(prob.boxes)
    assert not CorralChecker(prob, grow=0).dead(cells, int(prob.player))
    assert CorralChecker(prob, grow=1).dead(cells, int(prob.player))
    # the top box alone (the pinning box only below it) is not a deadlock
    assert not CorralChecker(prob, grow=1).dead(np.sort(cells[[0, 1]]), int(prob.player))
    for grow in (0, 1):
        res = search_level(level, time_limit=20, portfolio=portfolio_with(corral_grow=grow))
        assert res.solution is None and res.stats.stopped == "unsolvable"


@settings(max_examples=150, deadline=None)
@given(tiny_sokoban_levels, st.sampled_from([4, 64]), st.sampled_from([0, 1, 2]))
def test_a_position_called_dead_has_no_solution(level, limit, grow):
    prob = as_problem(level)
    checker = CorralChecker(prob, limit=limit, grow=grow)
    if checker.dead(np.sort(prob.boxes), int(prob.player)):
        assert brute_force_pushes(level) is None


@settings(max_examples=40, deadline=None)
@given(sokoban_levels(sides=(4, 7), border=True, wall_percent=15, max_boxes=6), st.data())
def test_the_corral_cache_gives_the_verdicts_of_a_fresh_check(level, data):
    """Many positions of one level through one checker (its cache keyed by the player's least
    cell first, then by the region with the corral's boxes alone) and each through a fresh one:
    the same verdicts."""
    prob = as_problem(level)
    free = [int(x) for x in np.flatnonzero(prob.floor)]
    nb = len(prob.boxes)
    assume(len(free) > nb + 1)
    shared = CorralChecker(prob, limit=64, grow=1)
    for _ in range(8):
        boxes = np.sort(data.draw(st.permutations(free))[:nb])
        for player in sorted(set(free) - set(boxes.tolist())):  # each region, from each of its cells
            assert shared.dead(boxes, player) == CorralChecker(prob, limit=64, grow=1).dead(boxes, player)


def test_no_corral_deadlock_along_the_reference_solutions(xsokoban):
    """Every position along the 90 reference solutions passes the corral test."""
    levels, solutions = xsokoban
    for level, lurd in zip(levels, solutions, strict=False):
        prob = as_problem(level)
        checkers = [CorralChecker(prob, limit=64, maxb=10, grow=grow) for grow in (0, 1, 2)]
        for i, cells, player in pushed_positions(prob, level, lurd):
            for checker in checkers:
                assert not checker.dead(cells, player), (level.title, i, checker.grow)


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("penalty", [0, 2, 50])
@pytest.mark.parametrize("corral_nodes", [0, 1, 64])
def test_options_of_the_fast_search_keep_solutions_valid(text, penalty, corral_nodes):
    """The backward search's player penalty and the corral test's bound change the order, never the answer."""
    level = parse_level(text)
    res = search_level(
        level, time_limit=20, portfolio=portfolio_with(player_penalty=penalty, corral_nodes=corral_nodes)
    )
    assert res.solution is not None and replay(level, res.solution.lurd).solved


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("grow", [0, 1, 3])
def test_grown_corrals_keep_solutions_valid(text, grow):
    level = parse_level(text)
    res = search_level(level, time_limit=20, options=SearchOptions(corral_grow=grow))
    assert res.solution is not None and replay(level, res.solution.lurd).solved
