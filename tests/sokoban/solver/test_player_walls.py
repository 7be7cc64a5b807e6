"""The backward player's walls: the fewest boxes between the player's region and the start's
player cell (:func:`~mazekit.sokoban._padded_kernels.boxes_between_kernel`), against a plain
shortest-path reference, and searches that count them solve levels that replay to a win."""

from __future__ import annotations

import heapq

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban import parse_level, replay
from mazekit.sokoban._padded_kernels import boxes_between_kernel, flood_min_kernel
from mazekit.sokoban.solver import SearchOptions, as_problem, search_level
from tests.conftest import jit_mode
from tests.sokoban.solver.test_solver import SMALL
from tests.strategies import sokoban_levels


def fewest_boxes(floor: np.ndarray, boxes: set[int], off: np.ndarray, region: set[int], target: int) -> int:
    """The fewest boxes on a walk from ``target`` to a cell of ``region`` (Dijkstra: stepping
    onto a box's cell costs 1, the target's own box included); -1 when there is no walk."""
    best = {target: int(target in boxes)}
    heap = [(best[target], target)]
    while heap:
        d, x = heapq.heappop(heap)
        if d > best[x]:
            continue
        if x in region:
            return d
        for o in off:
            y = x + int(o)
            dy = d + int(y in boxes)
            if floor[y] and dy < best.get(y, 1 << 30):
                best[y] = dy
                heapq.heappush(heap, (dy, y))
    return -1


@settings(max_examples=200, deadline=None)
@given(sokoban_levels(sides=(3, 8), border=True, wall_percent=15, max_boxes=10), st.data())
def test_the_boxes_between_match_a_shortest_path_reference(level, data):
    prob = as_problem(level)
    floor, off = prob.floor, prob.off
    free = [int(x) for x in np.flatnonzero(floor)]
    nb = data.draw(st.integers(0, len(free) - 1))
    cells = data.draw(st.permutations(free))[: nb + 1]
    player, boxes = cells[0], set(cells[1:])
    target = data.draw(st.sampled_from(free))
    n = len(floor)
    boxat = np.full(n, -1, dtype=np.int32)
    boxat[sorted(boxes)] = np.arange(len(boxes))
    mark = np.zeros(n, dtype=np.int64)
    flood_min_kernel(floor, boxat, off, player, 3, mark, np.empty(n, dtype=np.int64))
    region = {x for x in free if mark[x] == 3}
    expected = fewest_boxes(floor, boxes, off, region, target)
    seen = np.zeros(n, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    for now, kernel in ((1, boxes_between_kernel.py_func), (2, boxes_between_kernel)):
        assert kernel(floor, boxat, off, mark, 3, target, seen, now, queue) == expected
    if target in region:
        assert expected == 0


@pytest.mark.parametrize("mode", ["never", "always"])
@pytest.mark.parametrize("text", SMALL)
def test_searches_counting_the_walls_replay_to_a_win(text, mode):
    level = parse_level(text)
    opts = SearchOptions(player_penalty=2, player_walls=True, backward_share=0.9)
    with jit_mode(mode):
        res = search_level(level, time_limit=20, options=opts)
    assert res.solution is not None
    r = replay(level, res.solution.lurd)
    assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)
