"""FESS-style guidance of the forward search: move weights inside a feature cell and the
packing advisor, whose move pushes one box, the others fixed, all the way to a goal."""

from __future__ import annotations

import math
import time
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


def lone_box_pushes(
    prob: Problem, others: set[int], box: int, player: int, target: int, pull: bool = False
) -> int | None:
    """Fewest pushes (``pull``: pulls, anywhere) that bring ``box`` to ``target``, the other boxes
    fixed, by breadth-first search over (box cell, player cell) with the player walking freely
    between moves; a pull needs the player beside the box and a free cell behind him."""
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
            to, after = b + o, (b + 2 * o if pull else b)  # the box's cell and the player's after it
            if pull:
                ok = to in reach and prob.floor[after] and after not in others
            else:
                ok = b - o in reach and prob.floor[to] and to not in others and not prob.dead[to]
            if ok:
                if to == target:
                    return n + 1
                if (to, after) not in seen:
                    seen.add((to, after))
                    todo.append(((to, after), n + 1))
    return None


def macro_kernel(
    prob: Problem, mode: str, box: int, player: int, target: int, others: list[int], limit: int = 0, pull: int = 0
) -> tuple[int, int]:
    """:func:`~K.goal_macro_kernel` anywhere in the level (area -1): (pushes, player cell after);
    ``pull`` 1: pulls, with no dead cells."""
    n = prob.height * prob.width
    boxat = np.full(n, -1, dtype=np.int32)
    for j, c in enumerate([box, *others]):
        boxat[c] = j
    garea = np.full(n, -1, dtype=np.int32)
    out = np.zeros(1, dtype=np.int64)
    scratch = [np.zeros(4 * n, np.int64), np.zeros(1, np.int64)] + [np.empty(4 * n + 1, np.int64) for _ in range(3)]
    r = K.goal_macro_kernel.pick(10**9 if mode == "always" else 0)(
        prob.floor,
        np.zeros_like(prob.dead) if pull else prob.dead,
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
        pull,
    )
    assert boxat[box] == 0  # the box is put back
    return int(r), int(out[0])


@pytest.mark.parametrize("pull", [0, 1])
@settings(max_examples=200, deadline=None)
@given(tiny_sokoban_levels, st.data())
def test_the_lone_box_search_matches_a_reference(pull, level, data):
    """Anywhere in the level, the kernel's push (pull) count is the reference's; the player ends
    beside the box (behind it, or a step beyond after pulling it). With a state limit it finds
    the same count or gives up (-1), never a wrong one."""
    prob = as_problem(level)
    boxes = [int(c) for c in prob.boxes]
    box = boxes[0]
    floor = [int(c) for c in np.flatnonzero(prob.floor) if int(c) not in boxes]
    target = data.draw(st.sampled_from(floor))
    want = lone_box_pushes(prob, set(boxes[1:]), box, int(prob.player), target, pull=bool(pull))
    for mode in ("never", "always"):
        got, last = macro_kernel(prob, mode, box, int(prob.player), target, boxes[1:], pull=pull)
        assert got == (-1 if want is None else want)
        if got > 0:
            assert abs(last - target) in {abs(int(o)) for o in prob.off}
        limited, _ = macro_kernel(prob, mode, box, int(prob.player), target, boxes[1:], limit=2, pull=pull)
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


def reaches_a_goal(prob: Problem, start: int, wall: int) -> bool:
    """Whether a lone box on ``start`` can be pushed to some goal (the player anywhere, as in
    the solver's distances) with a wall on ``wall``: a breadth-first search of pushes."""
    off = [int(x) for x in prob.off]
    goals = {int(g) for g in prob.goals} - {wall}
    seen, todo = {start}, [start]
    while todo:
        b = todo.pop()
        if b in goals:
            return True
        for o in off:
            to, pl = b + o, b - o
            if prob.floor[to] and prob.floor[pl] and wall not in (to, pl) and to not in seen:
                seen.add(to)
                todo.append(to)
    return False


def hot_reference(prob: Problem) -> np.ndarray:
    """``hot[x, y]``: a box on ``x`` cuts a lone box on ``y`` off every goal."""
    n = prob.height * prob.width
    hot = np.zeros((n, n), dtype=np.uint8)
    floor = [int(c) for c in np.flatnonzero(prob.floor)]
    for y in floor:
        if reaches_a_goal(prob, y, -1):
            for x in floor:
                if x != y and not reaches_a_goal(prob, y, x):
                    hot[x, y] = 1
    return hot


def hot_kernels(
    prob: Problem, mode: str, boxes: list[int], player: int, bound: int
) -> tuple[np.ndarray, int, int, int]:
    """The hotspot table, then for ``boxes``: (table, hotspot boxes, the advisor's box, its cell)."""
    n = prob.height * prob.width
    pick = 10**9 if mode == "always" else 0
    hot = np.zeros((n, n), dtype=np.uint8)
    K.hot_table_kernel.pick(pick)(prob.floor, prob.off, prob.goals, hot, np.zeros(n, np.int64), np.empty(n, np.int64))
    cells = np.array(boxes, np.int64)
    nhot, best = K.hotspots_kernel.pick(pick)(hot, prob.goalm, cells)
    boxat = np.full(n, -1, dtype=np.int32)
    for j, c in enumerate(boxes):
        boxat[c] = j
    before = boxat.copy()
    want = np.zeros(n, np.uint8)
    cell = -1
    if best >= 0:
        K.cool_cells_kernel.pick(pick)(hot, prob.goalm, cells, best, want)
        scratch = [np.zeros(4 * n, np.int64), np.zeros(1, np.int64)] + [np.empty(4 * n + 1, np.int64) for _ in range(3)]
        cell = K.nearest_push_kernel.pick(pick)(
            prob.floor, prob.dead, boxat, prob.off, boxes[best], player, bound, 0, want, *scratch,
            np.zeros(n, np.int64), np.empty(n, np.int64),
        )  # fmt: skip
    assert (boxat == before).all()  # the boxes are put back
    return hot, int(nhot), int(best), int(cell)


# A box in the corridor that leads to the goals' room: the box behind it is cut off until it is
# pushed on into the room (two pushes: one more leaves it in the corridor's mouth).
CORRIDOR = [
    "#########",
    "#  @    #",
    "# $ $  .#",
    "#####  .#",
    "#########",
]


@pytest.mark.parametrize("mode", ["never", "always"])
def test_the_hotspot_advisor_pushes_a_box_out_of_a_corridor(mode):
    """The box in front of the corridor to the goals cuts the other off them."""
    level = rows_level([
        "##########",
        "#    #####",
        "# $@$  ..#",
        "#    #####",
        "##########",
    ])  # fmt: skip
    prob = as_problem(level)
    left, right = sorted(int(c) for c in prob.boxes)
    hot, nhot, best, cell = hot_kernels(prob, mode, [left, right], int(prob.player), 100)
    assert hot[right, left] == 1 and hot[left, right] == 0
    assert (nhot, best) == (1, 1)
    # anywhere in the corridor it still blocks the way, and on the first goal the second is cut
    # off: the nearest cool cell is the far goal, four pushes on
    assert cell == right + 4
    assert hot_kernels(prob, mode, [left, right], int(prob.player), 3)[3] == -1


@settings(max_examples=200, deadline=None)
@given(sokoban_levels(sides=(3, 6), border=True, wall_percent=25, max_boxes=4))
def test_the_hotspot_table_and_advisor_match_a_reference(level):
    """The table is the reference's; the hotspot count and the advisor's box follow from it; the
    advisor's cell is one of the nearest (by the reference lone-box search) where that box cuts
    no other off-goal box off every goal."""
    prob = as_problem(level)
    boxes = sorted(int(c) for c in prob.boxes)
    player = int(prob.player)
    ref = hot_reference(prob)
    counts = [sum(ref[x, y] for y in boxes if y != x and not prob.goalm[y]) for x in boxes]
    for mode in ("never", "always"):
        hot, nhot, best, cell = hot_kernels(prob, mode, boxes, player, 10**6)
        assert (hot == ref).all()
        assert nhot == sum(c > 0 for c in counts)
        assert best == (-1 if nhot == 0 else counts.index(max(counts)))
        if best < 0:
            continue
        others = set(boxes) - {boxes[best]}
        cool = {
            int(z)
            for z in np.flatnonzero(prob.floor)
            if int(z) not in others and all(ref[z, y] == 0 for y in others if not prob.goalm[y])
        } - {boxes[best]}
        depth = {z: lone_box_pushes(prob, others, boxes[best], player, z) for z in cool}
        reach = {z: d for z, d in depth.items() if d is not None}
        if not reach:
            assert cell == -1
        else:
            assert cell in reach and reach[cell] == min(reach.values())


@pytest.mark.parametrize("text", SMALL + ["\n".join(GOAL_CORRIDOR), "\n".join(CORRIDOR)])
@pytest.mark.parametrize("feature", [False, True])
@pytest.mark.parametrize("advisor", [0, 1, 400])
def test_the_hotspot_and_out_of_plan_advisors_keep_solutions_valid(text, feature, advisor):
    level = parse_level(text)
    for move_weight in (0, 1000):
        opts = SearchOptions(
            move_weight=move_weight, hot_feature=feature, hot_advisor=advisor, oop_advisor=advisor, pack_advisor=400
        )
        res = search_level(level, time_limit=20, options=opts)
        assert res.solution is not None
        r = replay(level, res.solution.lurd)
        assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


def oop_advice(prob: Problem, mode: str, boxes: list[int], player: int, bound: int) -> tuple[int, int]:
    """The out-of-plan advisor on the forward search's own arrays: (box index, cell); (-1, -1)
    when it has no advice."""
    from mazekit.sokoban.solver.search import _Search

    fwd = _Search(prob, SearchOptions(oop_advisor=bound, bidirectional=False), False, 1 << 24).fwd
    sc, gs = fwd.scratch, fwd.goal_scratch
    cells = np.array(boxes, np.int64)
    sc.cells[:] = cells
    for j, c in enumerate(boxes):
        sc.boxat[c] = j
    before = sc.boxat.copy()
    K.oop_advice_kernel.pick(10**9 if mode == "always" else 0)(fwd.board, sc, gs, bound, player)
    assert (sc.boxat == before).all()  # the boxes are put back
    return (int(sc.one[2]), int(sc.one[3])) if sc.one[2] >= 0 else (-1, -1)


def oop_reference(prob: Problem, boxes: list[int], player: int) -> tuple[int, set[int]]:
    """The first box out of plan (areas in order, each area's goals after the first empty one)
    and the nearest cells where it is out of plan no more; (-1, empty) when no box is."""
    from mazekit.sokoban.solver.search import goal_areas

    garea, forder, fstart = goal_areas(prob)
    for a in range(len(fstart) - 1):
        order = [int(g) for g in forder[fstart[a] : fstart[a + 1]]]
        nxt = next((t for t, g in enumerate(order) if g not in boxes), len(order))
        late = [g for g in order[nxt + 1 :] if g in boxes]
        if not late:
            continue
        box = late[0]
        others = set(boxes) - {box}
        fine = {int(z) for z in np.flatnonzero(prob.floor) if garea[z] < 0} | {order[nxt]}
        depth = {z: lone_box_pushes(prob, others, box, player, z) for z in fine - others - {box}}
        reach = {z: d for z, d in depth.items() if d is not None}
        least = min(reach.values(), default=None)
        return boxes.index(box), {z for z, d in reach.items() if d == least}
    return -1, set()


@pytest.mark.parametrize("mode", ["never", "always"])
def test_the_out_of_plan_advisor_packs_a_box_filled_too_early(mode):
    """In the goal corridor filled from its dead end, a box on the middle goal with the end's
    goal empty is out of plan: one push on packs it."""
    prob = as_problem(rows_level(GOAL_CORRIDOR))
    end, middle = prob.cell(1, 1), prob.cell(1, 2)
    boxes = sorted([middle, prob.cell(3, 3), prob.cell(3, 5)])
    player = prob.cell(1, 3)
    assert oop_reference(prob, boxes, player) == (boxes.index(middle), {end})
    assert oop_advice(prob, mode, boxes, player, 100) == (boxes.index(middle), end)


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


@settings(max_examples=300, deadline=None)
@given(goal_row_levels())
def test_the_out_of_plan_advisor_matches_a_reference(text):
    """The advisor's box is the reference's first box out of plan and its cell one of the
    nearest where that box is out of plan no more (none when the reference finds none)."""
    prob = as_problem(parse_level(text))
    boxes = sorted(int(c) for c in prob.boxes)
    player = int(prob.player)
    want_box, want_cells = oop_reference(prob, boxes, player)
    for mode in ("never", "always"):
        box, cell = oop_advice(prob, mode, boxes, player, 10**6)
        if want_box < 0 or not want_cells:
            assert (box, cell) == (-1, -1)
        else:
            assert box == want_box and cell in want_cells


def ghost_path(prob: Problem, mode: str, box: int, player: int, target: int, limit: int = 10**6) -> list[int]:
    """:func:`~K.ghost_path_kernel`'s cells: the box's way to ``target`` alone on the board."""
    n = prob.height * prob.width
    gs = K.GoalScratch(
        vis=np.zeros(4 * n, np.int64),
        stamp=np.zeros(1, np.int64),
        qbox=np.empty(4 * n + 1, np.int64),
        qpl=np.empty(4 * n + 1, np.int64),
        qg=np.empty(4 * n + 1, np.int64),
        mark=np.zeros(n, np.int64),
        out=np.zeros(1, np.int64),
        want=np.zeros(n, np.uint8),
        qpar=np.empty(4 * n + 1, np.int64),
        empty=np.full(n, -1, np.int32),
        path=np.empty(8 * n + 2, np.int64),
        nov=np.zeros((1, 1, 1), np.uint8),
    )
    k = K.ghost_path_kernel.pick(10**9 if mode == "always" else 0)(
        prob.floor, prob.dead, prob.off, box, player, target, limit, gs, np.empty(n, np.int64)
    )
    assert (gs.empty == -1).all()  # the box is taken off again
    return [int(c) for c in gs.path[:k]]


@settings(max_examples=200, deadline=None)
@given(sokoban_levels(sides=(3, 6), border=True, wall_percent=25, max_boxes=3), st.data())
def test_the_ghost_path_matches_a_reference(level, data):
    """The way of a box alone on the board: as many pushes as the reference's lone-box search
    with no other box, each push from the cell behind the box, from ``box`` to ``target``."""
    prob = as_problem(level)
    box = int(prob.boxes[0])
    floor = [int(c) for c in np.flatnonzero(prob.floor) if int(c) != box]
    target = data.draw(st.sampled_from(floor))
    want = lone_box_pushes(prob, set(), box, int(prob.player), target)
    for mode in ("never", "always"):
        path = ghost_path(prob, mode, box, int(prob.player), target)
        if want is None:
            assert path == []
            continue
        assert len(path) == 2 * want and path[0] == target
        cells = path[0::2]  # the box after each push, the last push first
        behind = path[1::2]
        before = [*cells[1:], box]  # where each push started
        for new, pl, old in zip(cells, behind, before, strict=True):
            assert new - old in {int(o) for o in prob.off} and pl == 2 * old - new and prob.floor[pl]


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


@pytest.mark.parametrize("mode", ["never", "always"])
def test_the_opener_moves_the_box_in_the_way(mode):
    level = rows_level(OPENER)
    prob = as_problem(level)
    w = prob.width
    upper, lower = (3 + 1) * w + 3 + 1, (4 + 1) * w + 3 + 1  # padded by one cell
    opts = SearchOptions(move_weight=1000, pack_advisor=400, open_advisor=400, bidirectional=False)
    with jit_mode(mode):
        res = search_level(level, time_limit=30, options=opts)
    assert res.solution is not None and replay(level, res.solution.lurd).solved
    # alone, the lower box's way is blocked at the cell above it: the ghost way goes through the upper box
    assert lone_box_pushes(prob, {upper}, lower, int(prob.player), (7 + 1) * w + 3 + 1) is None
    path = ghost_path(prob, mode, lower, int(prob.player), (7 + 1) * w + 3 + 1)
    assert upper in path


# ------------------------------------------------ the backward packing advisor (pulls)


def backward_alone(level, options: SearchOptions) -> tuple[str, int, int, int]:
    """The backward direction's solution alone (the forward one never runs): its LURD, its pulls,
    the backward advisor's moves made and the states it expanded."""
    from mazekit.sokoban.solver import search as S

    prob = as_problem(level)
    search = S._Search(prob, options, False, 1 << 26)
    assert search.bwd is not None
    search.active = [search.bwd]
    stop, winner = search.run(time.perf_counter(), 20.0, None, 0.05, 0, None)
    assert stop == "solved" and winner is search.bwd
    pushes, back = search.pushes(winner)
    ctr = search.bwd.ctr
    return S.lurd_of(prob, pushes), back, int(ctr[K.C_MACROS]), int(ctr[K.C_EXPANDED])


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


def test_the_start_areas_are_the_start_box_cells_in_groups_with_an_order_for_pulls():
    from mazekit.sokoban.solver import search as S

    prob = as_problem(rows_level(NEAR_ROOM))
    garea, forder, fstart = S.start_areas(prob)
    assert fstart.tolist() == [0, 3] and sorted(forder.tolist()) == sorted(prob.boxes.tolist())
    assert {int(garea[x]) for x in prob.boxes} == {0} and (garea >= 0).sum() == 3
    # the order is the pushes out of the full area reversed: the last filled goes out first
    boxes = set(forder.tolist())
    for x in reversed(forder.tolist()):
        assert S._take_out(prob, boxes - {x}, x, set(forder.tolist()), math.inf, push=True) is not None
        boxes.remove(x)
    assert S.start_areas(as_problem(rows_level(FAR_ROOM)))[1].size == 0  # boxes apart: no area


@pytest.mark.parametrize("mode", ["never", "always"])
def test_the_backward_packing_advisor_pulls_a_box_into_the_areas_next_cell_at_once(mode):
    """NEAR_ROOM turned round: the backward search starts with the boxes on the goal corridor's
    cells; with the advisor the first expansion already stores a position with a box on the start
    area's first cell, many pulls away (one macro), and the rebuilt solution (its macros' pulls
    found again) wins; without it, none."""
    from mazekit.sokoban.solver import search as S

    level = rows_level(NEAR_ROOM)
    prob = as_problem(level)
    first = int(S.start_areas(prob)[1][0])
    with jit_mode(mode):
        for advisor in (0, 400):
            opts = SearchOptions(backward_fess=True, backward_areas=True, pull_advisor=advisor, backward_share=0.5)
            search = S._Search(prob, opts, False, 1 << 26)
            search.active = [search.bwd]
            search.bwd.budget = 1  # one expansion (the slices after the first have fixed_slice's)
            search.run(time.perf_counter(), None, None, 0.05, 1, 1)
            assert search.expanded() == 1
            arr, stored = search.bwd.arr, int(search.bwd.ctr[K.C_NODES])
            home = [n for n in range(stored) if first in arr.pboxes[n].tolist()]
            assert (len(home) > 0) == (advisor > 0), home
            assert all(int(arr.pg[n]) > 1 for n in home)  # the box came a long way in one move
            lurd, pulls, macros, _ = backward_alone(level, opts)
            r = replay(level, lurd)
            assert r.solved and r.pushes == pulls and (macros > 0) == (advisor > 0)


@pytest.mark.parametrize("text", SMALL + ["\n".join(GOAL_CORRIDOR), "\n".join(FAR_ROOM), "\n".join(NEAR_ROOM)])
@pytest.mark.parametrize("advisor", [0, 1, 400])
def test_the_backward_areas_and_packing_advisor_keep_solutions_valid(text, advisor):
    level = parse_level(text)
    opts = SearchOptions(backward_fess=True, backward_areas=True, pull_advisor=advisor, backward_share=0.5)
    lurd, pulls, _, _ = backward_alone(level, opts)
    r = replay(level, lurd)
    assert r.solved and r.pushes == pulls
    res = search_level(level, time_limit=20, options=opts)
    assert res.solution is not None and replay(level, res.solution.lurd).solved


def novelty_reference(seen: set[tuple[int, ...]], pack: int, cells: list[int], i: int, width: int) -> bool:
    """:func:`~K.novelty_kernel` in plain Python: the atoms of the moved box (its cell, or its
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
        got = K.novelty_kernel.py_func(nov, pack, np.array(cells, dtype=np.int64), i, width)
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
    from mazekit.sokoban.solver import search as S

    prob = as_problem(rows_level(PARKING))
    with jit_mode(mode):
        for width in (0, 1, 2):
            opts = SearchOptions(move_weight=move_weight, novelty=width, novelty_cells=cells, bidirectional=False)
            search = S._Search(prob, opts, False, 1 << 26)
            search.fwd.budget = 1
            search.run(time.perf_counter(), None, None, 0.05, 1, 1)
            croot = search.fwd.croot
            half = croot.size // 2
            children = int(search.fwd.ctr[K.C_NODES]) - 1
            assert search.expanded() == 1 and children > 1
            if width == 0 or (move_weight and not cells):
                assert croot.size == (len(prob.boxes) + 1) * K.NOOP * K.NHOT * K.NCONN
                continue
            assert croot.size == 2 * (len(prob.boxes) + 1) * K.NOOP * K.NHOT * K.NCONN
            assert (croot[:half] < 0).all() and (croot[half:] >= 0).any()
            assert int(search.fwd.ctr[K.C_OPEN]) == children


def test_novelty_is_zero_one_or_two():
    with pytest.raises(ValueError, match="novelty must be 0, 1 or 2"):
        SearchOptions(novelty=3)


def pack_advice(prob: Problem, mode: str, boxes: list[int], player: int, bound: int, tries: int) -> list[int]:
    """The packing advisor's box (index into ``boxes``, -1: none) for each goal area, on the
    forward search's own arrays, its choices checked with ``tries`` boxes an area (1: unchecked)."""
    from mazekit.sokoban.solver.search import _Search

    opts = SearchOptions(move_weight=1000, pack_advisor=bound, pack_tries=tries, bidirectional=False)
    fwd = _Search(prob, opts, False, 1 << 24).fwd
    board, sc, gs = fwd.board, fwd.scratch, fwd.goal_scratch
    sc.cells[:] = np.array(boxes, np.int64)
    for j, c in enumerate(boxes):
        sc.boxat[c] = j
    before = sc.boxat.copy()
    jit = 10**9 if mode == "always" else 0
    n = K.pack_advice_kernel.pick(jit)(
        sc.boxat, sc.cells, board.goals, board.garea, board.forder, board.fstart, board.dist, sc.pa_end, sc.pa_box,
        sc.pa_tgt,
    )  # fmt: skip
    if n > 0 and tries > 1:
        n = K.pack_retry_kernel.pick(jit)(board, sc, gs, bound, tries, player)
    assert (sc.boxat == before).all()  # the boxes are put back
    got = [int(b) for b in sc.pa_box[: len(board.fstart) - 1]]  # (one slot when there is no area)
    if tries > 1:  # the moves kept for the search's phase 3 are the ones it would find again
        for a, j in enumerate(got):
            if j >= 0:
                again = K.advisor_step_kernel.pick(jit)(board, sc, gs, bound, player, sc.cells[j], sc.pa_tgt[a], 0)
                assert again == (sc.pa_tgt[a], sc.pa_move[a, 0], sc.pa_move[a, 1]) and again[2] > 0
    assert n == sum(b >= 0 for b in got)
    return got


def pack_reference(prob: Problem, boxes: list[int], player: int, tries: int) -> list[int]:
    """For each goal area with an unfinished order: of the boxes off its filled prefix, nearest
    to its next goal first (push distance alone, then index), the first of the first ``tries``
    that gets there with the other boxes fixed; -1 when none does. ``tries`` 1: the nearest,
    unchecked (the search checks it when it makes the move)."""
    from mazekit.sokoban.solver.search import goal_areas

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
