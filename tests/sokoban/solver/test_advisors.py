"""FESS-style guidance of the forward search: move weights inside a feature cell and the
packing advisor, whose move pushes one box, the others fixed, all the way to a goal."""

from __future__ import annotations

import time
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban import parse_level, replay
from mazekit.sokoban.problem import Problem
from mazekit.sokoban.solver import Search, SearchOptions, as_problem, search_level
from mazekit.sokoban.solver.kernels.advisors import advisor_step_kernel, pack_advice_kernel, pack_retry_kernel
from mazekit.sokoban.solver.kernels.features import novelty_kernel
from mazekit.sokoban.solver.kernels.macros import goal_macro_kernel
from mazekit.sokoban.solver.kernels.state import C_NODES, C_OPEN, NCONN, NHOT, NOOP
from tests.sokoban.conftest import rows_level
from tests.sokoban.solver.test_solver import GOAL_CORRIDOR, SMALL, jit_mode
from tests.strategies import tiny_sokoban_levels


def lone_region(prob: Problem, others: set[int], b: int, pl: int) -> set[int]:
    """The player's region from ``pl`` with a box on ``b`` and the ``others``."""
    seen, todo = {pl}, [pl]
    while todo:
        x = todo.pop()
        for o in prob.off:
            y = x + int(o)
            if prob.floor[y] and y != b and y not in others and y not in seen:
                seen.add(y)
                todo.append(y)
    return seen


def lone_box_pushes(prob: Problem, others: set[int], box: int, player: int, target: int) -> int | None:
    """Fewest pushes that bring ``box`` to ``target``, the other boxes fixed, by breadth-first
    search over (box cell, player cell) with the player walking freely between moves."""
    off = [int(x) for x in prob.off]
    if box == target:
        return 0
    start = (box, player)
    seen = {start}
    todo = deque([(start, 0)])
    while todo:
        (b, pl), n = todo.popleft()
        reach = lone_region(prob, others, b, pl)
        for o in off:
            to, after = b + o, b  # the box's cell and the player's after it
            if b - o in reach and prob.floor[to] and to not in others and not prob.dead[to]:
                if to == target:
                    return n + 1
                if (to, after) not in seen:
                    seen.add((to, after))
                    todo.append(((to, after), n + 1))
    return None


def macro_kernel(
    prob: Problem, mode: str, box: int, player: int, target: int, others: list[int], limit: int = 0
) -> tuple[int, int]:
    """:func:`~goal_macro_kernel` anywhere in the level (area -1): (pushes, player cell after)."""
    n = prob.height * prob.width
    boxat = np.full(n, -1, dtype=np.int32)
    for j, c in enumerate([box, *others]):
        boxat[c] = j
    garea = np.full(n, -1, dtype=np.int32)
    out = np.zeros(1, dtype=np.int64)
    scratch = [np.zeros(4 * n, np.int64), np.zeros(1, np.int64)] + [np.empty(4 * n + 1, np.int64) for _ in range(3)]
    r = goal_macro_kernel.pick(10**9 if mode == "always" else 0)(
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
    """Anywhere in the level, the kernel's push count is the reference's; the player ends
    behind the box. With a state limit it finds the same count or gives up (-1), never a wrong one."""
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
            assert abs(last - target) in {abs(int(o)) for o in prob.off}
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
    for bidi in (False, True):
        solves_and_replays(
            parse_level(text), SearchOptions(move_weight=move_weight, pack_advisor=advisor, bidirectional=bidi)
        )


def solves_and_replays(level, opts: SearchOptions) -> None:
    """The search with ``opts`` solves ``level``, and its solution replays to a win with its counts."""
    res = search_level(level, time_limit=20, options=opts)
    assert res.solution is not None
    r = replay(level, res.solution.lurd)
    assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


# A box in a doorway between two rooms: one push leaves it in the way of the doorway's mouth,
# the second joins the rooms.
DOORWAY = [
    "#######",
    "#  #  #",
    "# @$ .#",
    "#  #  #",
    "#######",
]


# A box in the corridor that leads to the goals' room: the box behind it is cut off until it is
# pushed on into the room (two pushes: one more leaves it in the corridor's mouth).
CORRIDOR = [
    "#########",
    "#  @    #",
    "# $ $  .#",
    "#####  .#",
    "#########",
]


@st.composite
def goal_row_levels(draw: st.DrawFn) -> str:
    """A walled room with a few inner walls and a row of 2-4 goals (a goal area), some of its
    goals holding boxes already, the other boxes and the player on free floor."""
    rows, cols = draw(st.integers(3, 6)), draw(st.integers(4, 7))
    grid = [["#" if draw(st.integers(0, 99)) < 12 else " " for _ in range(cols)] for _ in range(rows)]
    n = draw(st.integers(2, min(4, cols)))
    r, c0 = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - n))
    goals = [(r, c0 + k) for k in range(n)]
    on = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    for (gr, gc), b in zip(goals, on, strict=True):
        grid[gr][gc] = "*" if b else "."
    free = [(i, j) for i in range(rows) for j in range(cols) if grid[i][j] == " "]
    need = n - sum(on) + 1  # the boxes off the goals and the player
    if len(free) < need:  # too many walls: none inside
        free = [(i, j) for i in range(rows) for j in range(cols) if grid[i][j] in " #"]
        for i, j in free:
            grid[i][j] = " "
    picks = draw(st.lists(st.sampled_from(free), min_size=need, max_size=need, unique=True))
    for i, j in picks[1:]:
        grid[i][j] = "$"
    grid[picks[0][0]][picks[0][1]] = "@"
    return "\n".join(["#" * (cols + 2)] + ["#" + "".join(row) + "#" for row in grid] + ["#" * (cols + 2)])


# The packing advisor's box (the lower one) cannot go down to the goals alone: the player's
# cell above it holds the other box. The opener pushes that box out of the way, to the side.
OPENER = [
    "#######",
    "#  @  #",
    "#     #",
    "#  $  #",
    "## $ ##",
    "### ###",
    "###.###",
    "###.###",
    "#######",
]


# FAR_ROOM with its three boxes side by side: a start area of three cells, whose order for pulls
# the backward search follows as the forward one follows a goal area's.
NEAR_ROOM = [
    "############",
    "#...    #  #",
    "######  #  #",
    "#          #",
    "#   $$$    #",
    "#         @#",
    "############",
]


def novelty_reference(seen: set[tuple[int, ...]], pack: int, cells: list[int], i: int, width: int) -> bool:
    """:func:`~novelty_kernel` in plain Python: the atoms of the moved box (its cell, or its
    cell with each other box's) not yet in ``seen`` at packing ``pack``; adds them."""
    if width == 1:
        atoms = {(pack, cells[i])}
    else:
        atoms = {(pack, *sorted((cells[i], c))) for j, c in enumerate(cells) if j != i}
    new = atoms - seen
    seen |= new
    return bool(new)


@settings(max_examples=60, deadline=None)
@given(
    width=st.sampled_from([1, 2]),
    nc=st.integers(2, 12),
    data=st.data(),
)
def test_the_novelty_matches_a_reference(width, nc, data):
    nb = data.draw(st.integers(1, nc), label="boxes")
    nov = np.zeros((nb + 1, nc, nc if width == 2 else 1), dtype=np.uint8)
    seen: set[tuple[int, ...]] = set()
    for _ in range(data.draw(st.integers(1, 30), label="positions")):
        cells = data.draw(st.lists(st.integers(0, nc - 1), min_size=nb, max_size=nb, unique=True), label="cells")
        i = data.draw(st.integers(0, nb - 1), label="moved")
        pack = data.draw(st.integers(0, nb), label="packing")
        want = novelty_reference(seen, pack, cells, i, width)
        got = novelty_kernel.py_func(nov, pack, np.array(cells, dtype=np.int64), i, width)
        assert got == want


@pytest.mark.parametrize("text", SMALL + ["\n".join(GOAL_CORRIDOR), "\n".join(FAR_ROOM), "\n".join(NEAR_ROOM)])
@pytest.mark.parametrize("width", [1, 2])
@pytest.mark.parametrize(("move_weight", "cells"), [(0, False), (1000, False), (1000, True)])
def test_novelty_keeps_solutions_valid(text, width, move_weight, cells):
    """Free pushes (with move weights) or cells of their own (without, or ``novelty_cells``) for
    the new positions."""
    for bidi in (False, True):
        opts = SearchOptions(
            move_weight=move_weight, pack_advisor=400, novelty=width, novelty_cells=cells, bidirectional=bidi
        )
        solves_and_replays(parse_level(text), opts)


#: Boxes to park in a room before the corridor to the goals can be used (a small level where
#: the free pushes of new positions change the order of the forward search).
PARKING = [
    "##########",
    "#@  #    #",
    "# $$  $  #",
    "#  # ##  #",
    "## #  #  #",
    " # ...   #",
    " #########",
]


@pytest.mark.parametrize("move_weight", [0, 1000])
def test_novelty_changes_the_order_and_not_the_verdict(move_weight):
    level = rows_level(PARKING)
    expanded = {}
    for width in (0, 1, 2):
        opts = SearchOptions(move_weight=move_weight, novelty=width, bidirectional=False)
        res = search_level(level, time_limit=20, options=opts)
        assert res.solution is not None and replay(level, res.solution.lurd).solved
        expanded[width] = res.stats.expanded
    assert len(set(expanded.values())) > 1  # the option reaches the search


@pytest.mark.parametrize("mode", ["never", "always"])
@pytest.mark.parametrize(("move_weight", "cells"), [(0, False), (1000, True), (1000, False)])
def test_the_new_positions_go_to_cells_of_their_own(mode, move_weight, cells):
    """PARKING's first expansion forward, without move weights or with ``novelty_cells``: with
    novelty every child is a new position (nothing was stored before), so each goes to the twin of
    its feature cell, in the frontier's second half; without novelty, or with move weights alone
    (a free push instead), the frontier has no second half."""

    prob = as_problem(rows_level(PARKING))
    with jit_mode(mode):
        for width in (0, 1, 2):
            opts = SearchOptions(move_weight=move_weight, novelty=width, novelty_cells=cells, bidirectional=False)
            search = Search(prob, opts, False, 1 << 26)
            search.forward.budget = 1
            search.run(time.perf_counter(), None, None, 0.05, 1, 1)
            croot = search.forward.croot
            half = croot.size // 2
            children = int(search.forward.ctr[C_NODES]) - 1
            assert search.expanded() == 1 and children > 1
            if width == 0 or (move_weight and not cells):
                assert croot.size == (len(prob.boxes) + 1) * NOOP * NHOT * NCONN
                continue
            assert croot.size == 2 * (len(prob.boxes) + 1) * NOOP * NHOT * NCONN
            assert (croot[:half] < 0).all() and (croot[half:] >= 0).any()
            assert int(search.forward.ctr[C_OPEN]) == children


def test_novelty_is_zero_one_or_two():
    with pytest.raises(ValueError, match="novelty must be 0, 1 or 2"):
        SearchOptions(novelty=3)


def pack_advice(prob: Problem, mode: str, boxes: list[int], player: int, bound: int, tries: int) -> list[int]:
    """The packing advisor's box (index into ``boxes``, -1: none) for each goal area, on the
    forward search's own arrays, its choices checked with ``tries`` boxes an area (1: unchecked)."""
    from mazekit.sokoban.solver import Search

    opts = SearchOptions(move_weight=1000, pack_advisor=bound, pack_tries=tries, bidirectional=False)
    fwd = Search(prob, opts, False, 1 << 24).forward
    board, sc, gs = fwd.board, fwd.scratch, fwd.goal_scratch
    sc.cells[:] = np.array(boxes, np.int64)
    for j, c in enumerate(boxes):
        sc.boxat[c] = j
    before = sc.boxat.copy()
    jit = 10**9 if mode == "always" else 0
    n = pack_advice_kernel.pick(jit)(
        sc.boxat, sc.cells, board.goals, board.garea, board.forder, board.fstart, board.dist, sc.pa_end, sc.pa_box,
        sc.pa_tgt,
    )  # fmt: skip
    if n > 0 and tries > 1:
        n = pack_retry_kernel.pick(jit)(board, sc, gs, bound, tries, player)
    assert (sc.boxat == before).all()  # the boxes are put back
    got = [int(b) for b in sc.pa_box[: len(board.fstart) - 1]]  # (one slot when there is no area)
    if tries > 1:  # the moves kept for the search's phase 3 are the ones it would find again
        for a, j in enumerate(got):
            if j >= 0:
                again = advisor_step_kernel.pick(jit)(board, sc, gs, bound, player, sc.cells[j], sc.pa_tgt[a])
                assert again == (sc.pa_tgt[a], sc.pa_move[a, 0], sc.pa_move[a, 1]) and again[2] > 0
    assert n == sum(b >= 0 for b in got)
    return got


def pack_reference(prob: Problem, boxes: list[int], player: int, tries: int) -> list[int]:
    """For each goal area with an unfinished order: of the boxes off its filled prefix, nearest
    to its next goal first (push distance alone, then index), the first of the first ``tries``
    that gets there with the other boxes fixed; -1 when none does. ``tries`` 1: the nearest,
    unchecked (the search checks it when it makes the move)."""
    from mazekit.sokoban.solver.prepare import goal_areas

    garea, forder, fstart = goal_areas(prob)
    goals = [int(g) for g in prob.goals]
    filled: set[int] = set()
    nexts: list[int | None] = []
    for a in range(len(fstart) - 1):
        order = [int(g) for g in forder[fstart[a] : fstart[a + 1]]]
        t = next((t for t, g in enumerate(order) if g not in boxes), len(order))
        filled |= set(order[:t])
        nexts.append(order[t] if t < len(order) else None)
    out = []
    for tgt in nexts:
        if tgt is None:
            out.append(-1)
            continue
        q = goals.index(tgt)
        near = sorted(
            (int(prob.dist[q, c]), j) for j, c in enumerate(boxes) if c not in filled and prob.dist[q, c] > 0
        )[:tries]
        if tries == 1:
            out.append(near[0][1] if near else -1)
            continue
        ok = [j for _, j in near if lone_box_pushes(prob, set(boxes) - {boxes[j]}, boxes[j], player, tgt) is not None]
        out.append(ok[0] if ok else -1)
    return out


# The two boxes nearest the corridor's next goal, at the right-hand wall, shut each other in (the
# level has no solution); the box on the left is further and has a way (up the opening beside theirs).
SHUT_IN = [
    "############",
    "#...       #",
    "#######   ##",
    "#        $##",
    "#        $##",
    "#  $       #",
    "#@         #",
    "############",
]


@pytest.mark.parametrize("mode", ["never", "always"])
def test_the_packing_advisor_tries_the_next_box_when_the_nearest_is_shut_in(mode):
    prob = as_problem(rows_level(SHUT_IN))
    boxes = sorted(int(c) for c in prob.boxes)
    player = int(prob.player)
    assert pack_reference(prob, boxes, player, 1) == pack_advice(prob, mode, boxes, player, 10**6, 1) == [0]
    assert pack_reference(prob, boxes, player, 3) == pack_advice(prob, mode, boxes, player, 10**6, 3) == [2]
    # with 2 tries the right-hand box is not reached: no advice
    assert pack_advice(prob, mode, boxes, player, 10**6, 2) == [-1]


@settings(max_examples=300, deadline=None)
@given(goal_row_levels(), st.integers(1, 4))
def test_the_packing_advisors_tries_match_a_reference(text, tries):
    prob = as_problem(parse_level(text))
    boxes = sorted(int(c) for c in prob.boxes)
    player = int(prob.player)
    want = pack_reference(prob, boxes, player, tries)
    for mode in ("never", "always"):
        assert pack_advice(prob, mode, boxes, player, 10**6, tries) == want


@pytest.mark.parametrize("text", SMALL + ["\n".join(GOAL_CORRIDOR), "\n".join(FAR_ROOM)])
@pytest.mark.parametrize("tries", [1, 4])
def test_the_packing_advisors_tries_keep_solutions_valid(text, tries):
    for bidi in (False, True):
        solves_and_replays(
            parse_level(text),
            SearchOptions(move_weight=1000, pack_advisor=400, pack_tries=tries, bidirectional=bidi),
        )


def test_the_packing_advisors_tries_are_checked_where_they_are_written():
    with pytest.raises(ValueError, match="pack_tries"):
        SearchOptions(pack_tries=0)
    with pytest.raises(TypeError, match="pack_tries"):
        SearchOptions(pack_tries=2.0)  # type: ignore[arg-type]
