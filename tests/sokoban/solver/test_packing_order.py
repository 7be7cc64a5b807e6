"""The goal areas' packing orders: the compiled take-out search against a plain breadth-first
search over sets, on generated levels, compiled and not; the cells boxes come in from."""

from __future__ import annotations

from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban import parse_level
from mazekit.sokoban.problem import Problem
from mazekit.sokoban.solver import as_problem
from mazekit.sokoban.solver.kernels.packing import take_out_kernel, take_out_scratch
from mazekit.sokoban.solver.prepare import goal_areas, ways_in
from tests.strategies import sokoban_rooms


def reference_take_out(prob: Problem, others: set[int], box: int, area: set[int], way_in: set[int]) -> int:
    """Fewest pulls that take ``box`` out of ``area`` to a cell of ``way_in`` among ``others``
    (the player anywhere free at first), -1 if none: a breadth-first search over (box cell,
    player's region)."""
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
                if to not in area and to in way_in:
                    return n + 1
                key = (to, region(others | {to}, pl))
                if key not in seen:
                    seen.add(key)
                    todo.append((to, key[1], n + 1))
    return -1


def with_area(level, data) -> tuple[Problem, list[int], set[int]]:
    """The level's problem, its floor cells and an area of up to 8 of them, drawn."""
    prob = as_problem(level)
    cells = [int(x) for x in np.flatnonzero(prob.floor)]
    return prob, cells, set(data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=8)))


@settings(max_examples=60, deadline=None)
@given(sokoban_rooms, st.data())
def test_take_out_matches_a_plain_search(level, data):
    prob, cells, area = with_area(level, data)
    box = data.draw(st.sampled_from(sorted(area)))
    others = set(data.draw(st.lists(st.sampled_from(sorted(area)), max_size=6))) - {box}
    way_in = set(cells)
    if data.draw(st.booleans()):
        way_in = set(data.draw(st.lists(st.sampled_from(cells), max_size=len(cells))))
    want = reference_take_out(prob, others, box, area, way_in)
    n = prob.floor.shape[0]
    amask, occ, wmask = np.zeros(n, np.uint8), np.zeros(n, np.uint8), np.zeros(n, np.uint8)
    amask[sorted(area)] = 1
    occ[sorted(others)] = 1
    wmask[sorted(way_in)] = 1
    compiled = take_out_kernel.compiled()(prob.floor, prob.off, occ, box, amask, wmask, *take_out_scratch(n))
    plain = take_out_kernel.py_func(prob.floor, prob.off, occ, box, amask, wmask, *take_out_scratch(n))
    assert compiled == plain == want


def referenceways_in(prob: Problem, area: set[int]) -> set[int]:
    """The cells outside ``area`` that a lone box of the start reaches by pushes (each push needs
    floor behind the box; the player's access is not checked) without entering ``area`` or a
    dead cell; every floor cell outside when no box starts outside."""
    floor, off = prob.floor, [int(d) for d in prob.off]
    outside = {int(x) for x in np.flatnonzero(floor)} - area
    seen = {int(b) for b in prob.boxes if int(b) in outside}
    if not seen:
        return outside
    todo = list(seen)
    while todo:
        x = todo.pop()
        for d in off:
            if x + d in outside and floor[x - d] and not prob.dead[x + d] and x + d not in seen:
                seen.add(x + d)
                todo.append(x + d)
    return seen


@settings(max_examples=60, deadline=None)
@given(sokoban_rooms, st.data())
def test_ways_in_match_a_plain_search(level, data):
    prob, _, area = with_area(level, data)
    amask = np.zeros(prob.floor.shape[0], np.uint8)
    amask[sorted(area)] = 1
    assert {int(x) for x in np.flatnonzero(ways_in(prob, amask))} == referenceways_in(prob, area)


# The goals' lower door leads only to the player's pocket: no box can come in by it, so the
# goals fill from the upper door, the lowest first (taking boxes out by the lower door too, the
# lowest goal would come out second and be filled next to last).
TWO_DOORS = """\
#########
#       #
#   $ $ #
#   $ $ #
##.######
##.#
##.#
##.#
## #
##@#
####
"""


def test_goals_fill_from_the_door_the_boxes_come_by():
    prob = as_problem(parse_level(TWO_DOORS))
    areas = goal_areas(prob)
    order = [int(g) for g in areas.forder[areas.fstart[0] : areas.fstart[1]]]
    rows = [g // prob.width for g in order]
    assert rows == sorted(rows, reverse=True)  # the lowest goal first, the door's last
