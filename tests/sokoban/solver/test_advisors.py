"""FESS-style guidance of the forward search: move weights inside a feature cell and the
packing advisor, whose move pushes one box, the others fixed, all the way to a goal."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban import parse_level, replay
from mazekit.sokoban.solver import SearchOptions, as_problem, search_level
from mazekit.sokoban.solver import _kernels as K
from mazekit.sokoban.solver.problem import Problem
from tests.sokoban.conftest import rows_level
from tests.sokoban.solver.test_solver import GOAL_CORRIDOR, SMALL, jit_mode
from tests.strategies import sokoban_levels, tiny_sokoban_levels


def lone_box_pushes(prob: Problem, others: set[int], box: int, player: int, target: int) -> int | None:
    """Fewest pushes that bring ``box`` to ``target``, the other boxes fixed, by breadth-first
    search over (box cell, player cell) with the player walking freely between pushes."""
    off = [int(x) for x in prob.off]

    def region(b: int, pl: int) -> set[int]:
        seen, todo = {pl}, [pl]
        while todo:
            x = todo.pop()
            for o in off:
                y = x + o
                if prob.floor[y] and y != b and y not in others and y not in seen:
                    seen.add(y)
                    todo.append(y)
        return seen

    if box == target:
        return 0
    start = (box, player)
    seen = {start}
    todo = deque([(start, 0)])
    while todo:
        (b, pl), n = todo.popleft()
        reach = region(b, pl)
        for o in off:
            to = b + o
            if b - o in reach and prob.floor[to] and to not in others and not prob.dead[to]:
                if to == target:
                    return n + 1
                if (to, b) not in seen:
                    seen.add((to, b))
                    todo.append(((to, b), n + 1))
    return None


def macro_kernel(
    prob: Problem, mode: str, box: int, player: int, target: int, others: list[int], limit: int = 0
) -> tuple[int, int]:
    """:func:`~K.goal_macro_kernel` anywhere in the level (area -1): (pushes, player cell after)."""
    n = prob.height * prob.width
    boxat = np.full(n, -1, dtype=np.int32)
    for j, c in enumerate([box, *others]):
        boxat[c] = j
    garea = np.full(n, -1, dtype=np.int32)
    out = np.zeros(1, dtype=np.int64)
    scratch = [np.zeros(4 * n, np.int64), np.zeros(1, np.int64)] + [np.empty(4 * n + 1, np.int64) for _ in range(3)]
    r = K.goal_macro_kernel.pick(10**9 if mode == "always" else 0)(
        prob.floor,
        prob.dead,
        boxat,
        prob.off,
        garea,
        -1,
        box,
        player,
        target,
        *scratch,
        np.zeros(n, np.int64),
        np.empty(n, np.int64),
        out,
        limit,
    )
    assert boxat[box] == 0  # the box is put back
    return int(r), int(out[0])


@settings(max_examples=200, deadline=None)
@given(tiny_sokoban_levels, st.data())
def test_the_lone_box_search_matches_a_reference(level, data):
    """Anywhere in the level, the kernel's push count is the reference's; the player ends behind the box.
    With a state limit it finds the same count or gives up (-1), never a wrong one."""
    prob = as_problem(level)
    boxes = [int(c) for c in prob.boxes]
    box = boxes[0]
    floor = [int(c) for c in np.flatnonzero(prob.floor) if int(c) not in boxes]
    target = data.draw(st.sampled_from(floor))
    want = lone_box_pushes(prob, set(boxes[1:]), box, int(prob.player), target)
    for mode in ("never", "always"):
        got, last = macro_kernel(prob, mode, box, int(prob.player), target, boxes[1:])
        assert got == (-1 if want is None else want)
        if got > 0:
            assert abs(last - target) in {abs(int(o)) for o in prob.off}  # the player pushed from beside it
        limited, _ = macro_kernel(prob, mode, box, int(prob.player), target, boxes[1:], limit=2)
        assert limited in (-1, got)


# Three boxes far from a goal corridor that must be filled from its dead end: each of the
# packing advisor's moves brings the nearest box to the next goal of the packing order.
FAR_ROOM = [
    "############",
    "#...    #  #",
    "######  #  #",
    "#          #",
    "#  $ $ $   #",
    "#         @#",
    "############",
]


@pytest.mark.parametrize("mode", ["never", "always"])
def test_the_packing_advisor_fills_a_goal_corridor_in_a_few_expansions(mode):
    level = rows_level(FAR_ROOM)
    runs = {}
    with jit_mode(mode):
        for advisor in (0, 400):
            opts = SearchOptions(move_weight=1000, pack_advisor=advisor, bidirectional=False)
            res = search_level(level, time_limit=20, options=opts)
            assert res.solution is not None
            r = replay(level, res.solution.lurd)
            assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)
            runs[advisor] = res.stats.expanded
    # one expansion a box when each advisor's move is taken at once (the last is found on generation)
    assert runs[400] <= 3 < runs[0]


@pytest.mark.parametrize("text", SMALL + ["\n".join(GOAL_CORRIDOR), "\n".join(FAR_ROOM)])
@pytest.mark.parametrize("move_weight", [0, 1, 1000])
@pytest.mark.parametrize("advisor", [0, 1, 400])
def test_move_weights_and_the_packing_advisor_keep_solutions_valid(text, move_weight, advisor):
    level = parse_level(text)
    for bidi in (False, True):
        opts = SearchOptions(move_weight=move_weight, pack_advisor=advisor, bidirectional=bidi)
        res = search_level(level, time_limit=20, options=opts)
        assert res.solution is not None
        r = replay(level, res.solution.lurd)
        assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


def free_regions(prob: Problem, boxes: set[int]) -> int:
    """Regions of free floor (floor without boxes), by flood fill."""
    off = [int(x) for x in prob.off]
    seen: set[int] = set()
    n = 0
    for x0 in np.flatnonzero(prob.floor):
        x0 = int(x0)
        if x0 in boxes or x0 in seen:
            continue
        n += 1
        seen.add(x0)
        todo = [x0]
        while todo:
            x = todo.pop()
            for o in off:
                y = x + o
                if prob.floor[y] and y not in boxes and y not in seen:
                    seen.add(y)
                    todo.append(y)
    return n


def joining_cells(prob: Problem, boxes: list[int], box: int, player: int) -> set[int]:
    """The reference connectivity advisor: the cells, fewest pushes first (all of that count), to
    which the player can push ``box`` alone with the free floor in fewer regions; empty if none."""
    others = set(boxes) - {box}
    nreg = free_regions(prob, set(boxes))
    depth = {}
    for target in np.flatnonzero(prob.floor):
        target = int(target)
        if target != box and target not in others:
            n = lone_box_pushes(prob, others, box, player, target)
            if n is not None:
                depth[target] = n
    better = [c for c in depth if free_regions(prob, others | {c}) < nreg]
    if not better:
        return set()
    least = min(depth[c] for c in better)
    return {c for c in better if depth[c] == least}


# A box in a doorway between two rooms: one push leaves it in the way of the doorway's mouth,
# the second joins the rooms.
DOORWAY = [
    "#######",
    "#  #  #",
    "# @$ .#",
    "#  #  #",
    "#######",
]


def conn_advice(prob: Problem, mode: str, boxes: list[int], player: int, bound: int) -> list[int]:
    n = prob.height * prob.width
    boxat = np.full(n, -1, dtype=np.int32)
    for j, c in enumerate(boxes):
        boxat[c] = j
    before = boxat.copy()
    scratch = [np.zeros(4 * n, np.int64), np.zeros(1, np.int64)] + [np.empty(4 * n + 1, np.int64) for _ in range(3)]
    out = np.full(len(boxes), -7, dtype=np.int64)
    got = K.conn_advice_kernel.pick(10**9 if mode == "always" else 0)(
        prob.floor, prob.dead, boxat, prob.off, np.array(boxes, np.int64), player, bound, *scratch,
        np.zeros(n, np.int64), np.empty(n, np.int64), out,
    )  # fmt: skip
    assert (boxat == before).all()  # the boxes are put back
    assert got == int((out >= 0).sum())
    return [int(x) for x in out]


@pytest.mark.parametrize("mode", ["never", "always"])
def test_the_connectivity_advisor_pushes_a_box_out_of_a_doorway(mode):
    prob = as_problem(rows_level(DOORWAY))
    box = int(prob.boxes[0])
    assert conn_advice(prob, mode, [box], int(prob.player), 100) == [box + 2]
    assert conn_advice(prob, mode, [box], int(prob.player), 1) == [-1]


@settings(max_examples=300, deadline=None)
@given(sokoban_levels(sides=(3, 6), border=True, wall_percent=25, max_boxes=4))
def test_the_connectivity_advisor_matches_a_reference(level):
    """Each box gets a cell among the reference's (the fewest pushes that join regions), or -1
    when the reference has none; with a small bound, the same cell or -1."""
    prob = as_problem(level)
    boxes = sorted(int(c) for c in prob.boxes)
    player = int(prob.player)
    want = [joining_cells(prob, boxes, b, player) for b in boxes]
    for mode in ("never", "always"):
        got = conn_advice(prob, mode, boxes, player, 10**6)
        for cell, cells in zip(got, want, strict=True):
            assert (cell in cells) if cells else cell == -1
        small = conn_advice(prob, mode, boxes, player, 3)
        assert all(s in (-1, g) for s, g in zip(small, got, strict=True))
