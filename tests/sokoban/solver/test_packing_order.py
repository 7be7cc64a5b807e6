"""The goal areas' packing orders: the compiled take-out search against a plain breadth-first
search over sets, on generated levels, compiled and not."""

from __future__ import annotations

from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban.problem import Problem
from mazekit.sokoban.solver import as_problem
from mazekit.sokoban.solver.kernels.packing import take_out_kernel, take_out_scratch
from tests.strategies import sokoban_rooms


def reference_take_out(prob: Problem, others: set[int], box: int, area: set[int]) -> int:
    """Fewest pulls that take ``box`` out of ``area`` among ``others`` (the player anywhere
    free at first), -1 if none: a breadth-first search over (box cell, player's region)."""
    floor, off = prob.floor, [int(d) for d in prob.off]

    def region(occupied: set[int], start: int) -> frozenset[int]:
        seen, todo = {start}, [start]
        while todo:
            x = todo.pop()
            for d in off:
                y = x + d
                if floor[y] and y not in occupied and y not in seen:
                    seen.add(y)
                    todo.append(y)
        return frozenset(seen)

    starts = {region(others | {box}, box + d) for d in off if floor[box + d] and box + d not in others}
    seen = {(box, r) for r in starts}
    todo = deque((box, r, 0) for r in starts)
    while todo:
        b, here, n = todo.popleft()
        for d in off:
            to, pl = b + d, b + 2 * d
            if to in here and pl in here:
                if to not in area:
                    return n + 1
                key = (to, region(others | {to}, pl))
                if key not in seen:
                    seen.add(key)
                    todo.append((to, key[1], n + 1))
    return -1


@settings(max_examples=60, deadline=None)
@given(sokoban_rooms, st.data())
def test_take_out_matches_a_plain_search(level, data):
    prob = as_problem(level)
    cells = [int(x) for x in np.flatnonzero(prob.floor)]
    area = set(data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=8)))
    box = data.draw(st.sampled_from(sorted(area)))
    others = set(data.draw(st.lists(st.sampled_from(sorted(area)), max_size=6))) - {box}
    want = reference_take_out(prob, others, box, area)
    n = prob.floor.shape[0]
    amask, occ = np.zeros(n, np.uint8), np.zeros(n, np.uint8)
    amask[sorted(area)] = 1
    occ[sorted(others)] = 1
    compiled = take_out_kernel.compiled()(prob.floor, prob.off, occ, box, amask, *take_out_scratch(n))
    plain = take_out_kernel.py_func(prob.floor, prob.off, occ, box, amask, *take_out_scratch(n))
    assert compiled == plain == want
