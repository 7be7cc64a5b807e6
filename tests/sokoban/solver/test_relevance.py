"""Relevance cuts (``SearchOptions.relevance``): the floor distances they measure by, the count of
switches along a path, and searches that use them."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings

from mazekit.sokoban import generate_level, replay
from mazekit.sokoban.solver import PORTFOLIO, as_problem, search_level
from mazekit.sokoban.solver import _kernels as K
from mazekit.sokoban.solver.search import floor_distances
from tests.strategies import sokoban_levels


@settings(max_examples=60, deadline=None)
@given(sokoban_levels(sides=(2, 8), border=True, wall_percent=30))
def test_floor_distances_are_the_steps_over_the_floor(level):
    prob = as_problem(level)
    near = floor_distances(prob)
    assert near is not None
    floor = prob.floor.astype(bool)
    for a in np.flatnonzero(floor):
        want = np.full(floor.shape[0], 255)
        want[a] = 0
        todo = deque([a])
        while todo:
            x = todo.popleft()
            for d in prob.off[:4]:
                y = x + d
                if floor[y] and want[y] == 255:
                    want[y] = want[x] + 1
                    todo.append(y)
        assert (near[a][floor] == want[floor]).all()


def test_switches_are_counted_along_the_path():
    """Nodes 1-4 on one path from root 0, each made by a push from the cell named; node 2's push
    was a switch. A push near one of the window's pushes is local (0), else one more switch than
    the window holds."""
    parent = np.array([-1, 0, 1, 2, 3], dtype=np.int32)
    cells = [0, 10, 50, 51, 52]
    push = np.array([K.encode_push(0, 1, c, 0) for c in cells], dtype=np.int32)
    rel = np.array([0, 1, 1, 0, 0], dtype=np.uint8)
    near = np.full((64, 64), 255, dtype=np.uint8)
    for a in range(64):
        for b in range(64):
            near[a, b] = min(abs(a - b), 255)
    assert K.switch_kernel(parent, push, rel, near, 4, 53, 2, 1) == 0  # beside node 4's push
    assert K.switch_kernel(parent, push, rel, near, 4, 30, 2, 1) == 1  # nodes 4, 3: no switch
    assert K.switch_kernel(parent, push, rel, near, 4, 30, 3, 1) == 2  # node 2's switch in the window
    assert K.switch_kernel(parent, push, rel, near, 4, 30, 9, 1) == 3  # the whole path: 2 and 1
    assert K.switch_kernel(parent, push, rel, near, 4, 11, 9, 1) == 0  # beside node 1's push
    assert K.switch_kernel(parent, push, rel, near, 0, 11, 9, 1) == 1  # from the root: a switch


@pytest.mark.parametrize("member", range(len(PORTFOLIO)))
def test_searches_with_relevance_cuts_replay(member):
    from dataclasses import replace

    for seed in range(3):
        level = generate_level(rows=10, cols=10, boxes=4, seed=seed).level
        opts = replace(PORTFOLIO[member], relevance=4, relevance_switches=1, relevance_radius=1)
        res = search_level(level, options=opts, time_limit=20)
        assert res.solution is not None and replay(level, res.solution.lurd).solved
