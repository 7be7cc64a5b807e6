"""The feature-space search: its open lists (skew heaps per cell), its features, its solutions."""

from __future__ import annotations

import heapq
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban import parse_level, parse_levels, replay
from mazekit.sokoban._padded_kernels import flood_min_kernel, more_regions_kernel
from mazekit.sokoban.solver import Search, as_problem, search_level
from mazekit.sokoban.solver.kernels.features import blocked_tunnels_kernel, out_of_plan_kernel, packed_kernel
from mazekit.sokoban.solver.kernels.state import C_NODES, NCONN, NHOT, NOOP, PUSH_MOVE_MASK
from mazekit.sokoban.solver.kernels.store import cell_push_kernel, meld_kernel, moved_box_kernel
from mazekit.sokoban.solver.prepare import goal_areas, tunnels
from tests.sokoban.conftest import free_regions, portfolio_with, rows_level
from tests.sokoban.solver.test_solver import GOAL_CORRIDOR, SMALL, jit_mode
from tests.strategies import sokoban_rooms, tiny_sokoban_levels

SHARED = Path(__file__).resolve().parents[4] / "shared"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(-50, 50) | st.none()), max_size=120),
    st.sampled_from(["never", "always"]),
)
def test_cell_open_lists_pop_in_key_order(ops, mode):
    """Skew heaps per cell against heapq: every pop gives the cell's smallest key."""
    n = len(ops) + 1
    mch = np.full(2 * n, -1, dtype=np.int32)
    mkey = np.zeros(n, dtype=np.int64)
    croot = np.full(4, -1, dtype=np.int32)
    ref: list[list[tuple[int, int]]] = [[] for _ in range(4)]
    push = cell_push_kernel.pick(10**9 if mode == "always" else 0)
    meld = meld_kernel.pick(10**9 if mode == "always" else 0)
    node = 0
    with jit_mode(mode):
        for cell, key in ops:
            if key is not None:
                push(croot, cell, node, key, mch, mkey)
                heapq.heappush(ref[cell], (key, node))
                node += 1
            elif ref[cell]:
                k = int(croot[cell])
                assert k >= 0
                croot[cell] = meld(mch[2 * k], mch[2 * k + 1], mch, mkey)
                want_key, _ = heapq.heappop(ref[cell])
                assert mkey[k] == want_key
            else:
                assert croot[cell] == -1
        for cell in range(4):
            got = []
            while croot[cell] >= 0:
                k = int(croot[cell])
                got.append(int(mkey[k]))
                croot[cell] = meld(mch[2 * k], mch[2 * k + 1], mch, mkey)
            assert got == sorted(key for key, _ in ref[cell])


@settings(max_examples=40, deadline=None)
@given(tiny_sokoban_levels)
def test_regions_match_a_plain_flood(level):
    prob = as_problem(level)
    n = prob.height * prob.width
    boxat = np.full(n, -1, dtype=np.int32)
    boxat[prob.boxes] = np.arange(len(prob.boxes))
    m0 = np.zeros(n, np.int64)  # every region counted: none is flooded yet
    got = more_regions_kernel(prob.floor, boxat, prob.off, m0, 1, np.empty(n, np.int64), m0, 1, n)
    assert got == len(free_regions(prob.floor, {int(b) for b in prob.boxes}, prob.off))
    # the feature cell's count: the player's region flooded already (as the search has it), the others
    mark, pmark, queue = np.zeros(n, np.int64), np.zeros(n, np.int64), np.empty(n, np.int64)
    flood_min_kernel(prob.floor, boxat, prob.off, prob.player, 7, pmark, queue)
    assert 1 + more_regions_kernel(prob.floor, boxat, prob.off, mark, 1, queue, pmark, 7, n) == got
    # counted up to a most
    for most in range(4):
        mark[:] = 0
        assert more_regions_kernel(prob.floor, boxat, prob.off, mark, 1, queue, pmark, 7, most) == min(most, got - 1)


def test_packing_and_out_of_plan_features_of_a_goal_area():
    prob = as_problem(rows_level(GOAL_CORRIDOR))
    garea, forder, fstart = goal_areas(prob)
    boxat = np.full(prob.height * prob.width, -1, dtype=np.int32)

    def packed(*cells: tuple[int, int]) -> int:
        boxat[:] = -1
        for j, rc in enumerate(cells):
            boxat[prob.cell(*rc)] = j
        return int(packed_kernel(boxat, prob.goals, garea, forder, fstart))

    def out(*cells: tuple[int, int]) -> int:
        packed(*cells)
        return int(out_of_plan_kernel(boxat, forder, fstart))

    assert packed() == 0 and out() == 0
    assert packed((1, 1)) == 1 and out((1, 1)) == 0  # the corridor's end is first in the packing order
    assert packed((1, 3)) == 0 and out((1, 3)) == 1  # a box at the corridor's mouth is out of plan
    assert packed((1, 1), (1, 2), (3, 3)) == 2 and out((1, 1), (1, 2), (3, 3)) == 0
    assert packed((1, 2), (1, 3)) == 0 and out((1, 2), (1, 3)) == 2
    assert packed((1, 1), (1, 3)) == 1 and out((1, 1), (1, 3)) == 1


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("bidirectional", [False, True])
def test_feature_space_solutions_replay_to_a_win(text, bidirectional):
    level = parse_level(text)
    res = search_level(level, portfolio=portfolio_with(fess=True, bidirectional=bidirectional), time_limit=20)
    assert res.solution is not None
    r = replay(level, res.solution.lurd)
    assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


def test_compiled_and_python_feature_space_agree():
    """In fixed slices (a run independent of the clock) both kernels make the same search."""
    from mazekit.sokoban.solver import run_search

    prob = as_problem(parse_level(SMALL[4]))
    runs = []
    for mode in ("never", "always"):
        with jit_mode(mode):
            runs.append([run_search(prob, opts, time_limit=None, fixed_slice=64) for opts in portfolio_with(fess=True)])
    for a, b in zip(*runs, strict=True):
        assert a.solution is not None and b.solution is not None
        assert a.solution.lurd == b.solution.lurd
        assert (a.stats.nodes, a.stats.expanded) == (b.stats.nodes, b.stats.expanded)


def test_feature_space_search_under_a_tiny_memory_cap():
    res = search_level(parse_level(SMALL[4]), portfolio=portfolio_with(fess=True), memory=2000, time_limit=5)
    assert res.solution is None and res.stats.stopped == "memory"


def test_microban_153_the_level_the_best_first_search_misses():
    path = SHARED / "levels" / "microban.xsb"
    if not path.exists():
        pytest.skip(f"{path} is not available")
    level = parse_levels(path.read_bytes())[152]
    res = search_level(level, portfolio=portfolio_with(fess=True), time_limit=120)
    assert res.solution is not None and replay(level, res.solution.lurd).solved


#: Three rooms: the top two joined by a doorway (d), each joined to the bottom one by a
#: corridor (t, and d again), and a dead-end corridor (e) off the top right one.
ROOMS = [
    "###########",
    "#$  #   ###",
    "# @ d   ee#",
    "#   #   ###",
    "##t###d####",
    "##t###d####",
    "#.       ##",
    "#        ##",
    "###########",
]


def test_tunnels_are_passages_between_two_rooms():
    from mazekit.sokoban.solver.prepare import tunnels

    prob = as_problem(rows_level([row.replace("t", " ").replace("d", " ").replace("e", " ") for row in ROOMS]))
    t = tunnels(prob)
    label: dict[str, set[int]] = {}
    for r, row in enumerate(ROOMS):
        for c, ch in enumerate(row):
            label.setdefault(ch, set()).add(int(t[(r + 1) * prob.width + (c + 1)]))  # padded by one cell
    assert label["e"] == label[" "] == label["#"] == label["$"] == label["."] == {-1}
    assert len(label["t"]) == 1 and -1 not in label["t"]
    assert len(label["d"]) == 2 and -1 not in label["d"] and not label["d"] & label["t"]


@settings(max_examples=200, deadline=None)
@given(tiny_sokoban_levels | sokoban_rooms)
def test_blocked_tunnels_match_a_reference(level):
    from mazekit.sokoban.solver.prepare import tunnels

    prob = as_problem(level)
    t = tunnels(prob)
    cells = np.array(sorted(int(b) for b in prob.boxes), dtype=np.int64)
    want = len({int(t[c]) for c in cells if t[c] >= 0 and not prob.goalm[c]})
    for mode in ("never", "always"):
        kernel = blocked_tunnels_kernel.pick(10**9 if mode == "always" else 0)
        with jit_mode(mode):
            assert kernel(t, prob.goalm, cells) == want
    # a passage cell has walls on both sides along one axis
    for x in np.flatnonzero(t >= 0):
        up, down, left, right = (prob.floor[x + d] == 0 for d in prob.off)
        assert (up and down) or (left and right)


@pytest.mark.parametrize("text", SMALL + ["\n".join(GOAL_CORRIDOR)])
def test_the_room_feature_keeps_solutions_valid(text):
    level = parse_level(text)
    res = search_level(level, time_limit=20, portfolio=portfolio_with(room_feature=True))
    assert res.solution is not None and replay(level, res.solution.lurd).solved


@settings(max_examples=100, deadline=None)
@given(st.sets(st.integers(0, 60), min_size=1, max_size=12), st.data())
def test_the_moved_box_is_the_one_cell_not_in_the_parents_row(parent, data):
    """:func:`moved_box_kernel` against a set difference, on sorted rows of box cells."""
    gone = data.draw(st.sampled_from(sorted(parent)))
    came = data.draw(st.integers(0, 60).filter(lambda c: c not in parent))
    child = (parent - {gone}) | {came}
    rows = np.array([sorted(child), sorted(parent), sorted(parent)], dtype=np.int32)
    for mode in ("never", "always"):
        kernel = moved_box_kernel.pick(10**9 if mode == "always" else 0)
        with jit_mode(mode):
            assert kernel(rows, 0, 1) == came
            assert kernel(rows, 2, 1) == -1  # nothing moved


def move_weights(level, box_runs: bool) -> tuple[int, int, int, int]:
    """Stored forward nodes whose move pushed on the box its parent's move had moved, in the same
    direction (a run) and in another (a turn), and how many of each weigh one more than their parent."""
    from mazekit.sokoban.solver import SearchOptions

    prob = as_problem(level)
    opts = SearchOptions(move_weight=1, bidirectional=False, macros=False, box_runs=box_runs)
    search = Search(prob, opts, False, 1 << 26)
    search.run(0.0, None, None, 0.05, 64, 2000)
    arr, n = search.forward.arr, int(search.forward.ctr[C_NODES])
    runs = run_heavier = turns = turn_heavier = 0
    for node in range(n):
        k = int(arr.pparent[node])
        if k < 0 or arr.pparent[k] < 0:
            continue
        moved = int(moved_box_kernel.py_func(arr.pboxes, k, int(arr.pparent[k])))
        source = (int(arr.ppush[node]) & PUSH_MOVE_MASK) >> 2
        if source != moved:
            continue
        heavier = int(arr.pacc[node] == arr.pacc[k] + 1)
        if int(arr.ppush[node]) & 3 == int(arr.ppush[k]) & 3:
            runs, run_heavier = runs + 1, run_heavier + heavier
        else:
            turns, turn_heavier = turns + 1, turn_heavier + heavier
    return runs, run_heavier, turns, turn_heavier


def test_box_runs_weigh_a_straight_run_once_not_each_push():
    """With ``box_runs`` a push of the box the last push moved, on in the same direction, adds
    nothing to the move weight, while a turn still weighs one; without it both weigh one each
    (unless they improve a feature)."""
    level = parse_level(SMALL[4])
    runs, run_heavier, turns, turn_heavier = move_weights(level, True)
    assert runs > 0 and run_heavier == 0
    assert turns > 0 and turn_heavier > 0
    runs, run_heavier, turns, turn_heavier = move_weights(level, False)
    assert runs > 0 and run_heavier > 0 and turn_heavier > 0


@pytest.mark.parametrize("text", SMALL + ["\n".join(GOAL_CORRIDOR)])
def test_box_runs_keep_solutions_valid(text):
    level = parse_level(text)
    for bidirectional in (False, True):
        res = search_level(
            level, portfolio=portfolio_with(move_weight=1000, box_runs=True, bidirectional=bidirectional), time_limit=20
        )
        assert res.solution is not None
        r = replay(level, res.solution.lurd)
        assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


def test_the_backward_feature_space_counts_boxes_back_on_the_start():
    """With ``backward_fess`` every open backward state waits in the feature cell whose packing
    digit is the number of its boxes on the start's box cells, and whose connectivity digit is its
    regions of free floor (1-4); the forward search's cells are untouched (goals and areas)."""
    from mazekit.sokoban.solver import SearchOptions

    # a level no search finishes (tests/data/sokoban/slow.xsb), so that the backward one runs
    level = parse_levels((Path(__file__).resolve().parents[2] / "data" / "sokoban" / "slow.xsb").read_text())[0]
    prob = as_problem(level)
    search = Search(prob, SearchOptions(backward_fess=True, backward_share=0.5), False, 1 << 26)
    bwd = search.backward
    assert bwd is not None and bwd.settings.fess == 1 and bwd.settings.move_weight == 0
    assert sorted(bwd.board.goals.tolist()) == sorted(prob.boxes.tolist())
    assert np.array_equal(search.forward.board.goals, prob.goals)
    search.run(0.0, None, None, 0.05, 16, 60)
    start = set(prob.boxes.tolist())
    per_packing = NOOP * NHOT * NCONN
    seen = 0
    for cell, boxes in _open_positions(bwd):
        assert cell // per_packing == sum(x in start for x in boxes)
        assert cell % NCONN + 1 == min(NCONN, len(free_regions(prob.floor, set(boxes), prob.off)))
        seen += 1
    assert seen > 10


def _open_positions(direction):
    """Each open position of a feature-space direction: its cell and its box cells (the cells'
    heaps walked from their roots)."""
    arr, mch = direction.arr, direction.arr.frontier(direction.croot).mch
    for cell, root in enumerate(direction.croot.tolist()):
        stack = [root] if root >= 0 else []
        while stack:
            node = stack.pop()
            stack += [c for c in (int(mch[2 * node]), int(mch[2 * node + 1])) if c >= 0]
            yield cell, [int(x) for x in arr.pboxes[node]]


@pytest.mark.parametrize("text", SMALL + ["\n".join(GOAL_CORRIDOR)])
def test_the_backward_feature_space_keeps_solutions_valid(text):
    level = parse_level(text)
    res = search_level(level, portfolio=portfolio_with(backward_fess=True, backward_share=0.9), time_limit=20)
    assert res.solution is not None
    r = replay(level, res.solution.lurd)
    assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


def test_the_backward_tunnels_count_boxes_off_the_start_in_them():
    """With ``backward_rooms`` the backward cells' fourth digit is the number of tunnels between
    rooms holding a box off the start's box cells (2 or more counted as 2); the forward search's
    fourth digit stays off, and without ``backward_fess`` the option does nothing."""
    from mazekit.sokoban.solver import SearchOptions

    rooms = ["###########", "#    #    #", "# $$ #  . #", "#  @    . #", "# $$ #  . #", "#    #  . #", "###########"]
    prob = as_problem(parse_level("\n".join(rooms)))  # two rooms and a passage of one cell
    plain = Search(prob, SearchOptions(backward_rooms=True, backward_share=0.5), False, 1 << 26)
    assert plain.backward is not None and plain.backward.settings.room_feature == 0
    search = Search(prob, SearchOptions(backward_fess=True, backward_rooms=True, backward_share=0.5), False, 1 << 26)
    bwd = search.backward
    assert bwd is not None and bwd.settings.room_feature == 1 and search.forward.settings.room_feature == 0
    tunnel = tunnels(prob)
    assert np.array_equal(bwd.board.tunnel, tunnel) and (tunnel >= 0).any()
    search.run(0.0, None, None, 0.05, 16, 60)
    start = set(prob.boxes.tolist())
    digits = []
    for cell, boxes in _open_positions(bwd):
        blocked = {int(tunnel[x]) for x in boxes if tunnel[x] >= 0 and x not in start}
        assert (cell // NCONN) % NHOT == min(NHOT - 1, len(blocked))
        digits.append(len(blocked))
    assert len(digits) > 10 and max(digits) > 0
