"""The Sokoban solver: solutions replay to wins, optimal mode matches brute force, pruning is sound."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from mazekit import _jit
from mazekit.sokoban import Level, State, parse_level, parse_levels, replay, step
from mazekit.sokoban._deadlock_kernels import frozen_kernel, unmatched_kernel
from mazekit.sokoban._padded_kernels import (
    child_min_kernel,
    flood_min_kernel,
    lone_box_region_kernel,
    pull_distances_kernel,
)
from mazekit.sokoban._pair_kernels import pair_dead_kernel
from mazekit.sokoban.pairs import pair_table
from mazekit.sokoban.solver import (
    PORTFOLIO,
    Problem,
    SearchOptions,
    SearchResult,
    SearchStats,
    Stall,
    as_problem,
    run_search,
    search_level,
    solve,
)
from mazekit.sokoban.solver.kernels.bound import hungarian_kernel
from mazekit.sokoban.solver.kernels.expand import search_kernel
from mazekit.sokoban.solver.kernels.freeze import frozen_goals_cache, frozen_goals_kernel, reach_bits_kernel
from mazekit.sokoban.solver.kernels.macros import goal_macro_kernel
from mazekit.sokoban.solver.kernels.state import BIG, RUNNING
from tests.conftest import jit_mode
from tests.sokoban.conftest import brute_force_pushes, free_regions, portfolio_with, rows_level
from tests.strategies import sokoban_levels, tiny_sokoban_levels

SHARED = Path(__file__).resolve().parents[4] / "shared"
#: Unsolvable, but only a long search shows it: the search runs to its limit.
SLOW = (Path(__file__).resolve().parents[2] / "data" / "sokoban" / "slow.xsb").read_text()


SMALL = [
    "#######\n#@ $ .#\n#######",
    "#####\n#   #\n#@$.#\n#   #\n#####",
    "  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########",
    "######\n#    #\n# #@ #\n# $* #\n# .* #\n#    #\n######",
    "#######\n#.@ # #\n#$* $ #\n#   $ #\n# ..  #\n#  *  #\n#######",
]


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("optimal", [False, True])
def test_small_levels_replay_to_a_win(text, optimal):
    level = parse_level(text)
    sol = solve(level, time_limit=20, optimal=optimal)
    assert sol is not None
    r = replay(level, sol.lurd)
    assert r.solved and not r.error
    assert (sol.moves, sol.pushes) == (r.moves, r.pushes)
    assert sol.optimal is optimal


@pytest.mark.parametrize("text", SMALL)
def test_optimal_matches_brute_force(text):
    level = parse_level(text)
    sol = solve(level, optimal=True, time_limit=20)
    assert sol is not None and sol.pushes == brute_force_pushes(level)


@pytest.mark.parametrize("text", SMALL)
@pytest.mark.parametrize("corrals", [False, True])
def test_backward_and_forward_alone(text, corrals):
    level = parse_level(text)
    for bidi in (False, True):
        res = search_level(level, portfolio=portfolio_with(bidirectional=bidi, corrals=corrals), time_limit=20)
        assert res.solution is not None and replay(level, res.solution.lurd).solved
        assert 0 <= res.solution.backward_pushes <= res.solution.pushes
        assert bidi or res.solution.backward_pushes == 0


def test_backward_search_meets_the_forward_one():
    # a level the backward search unpacks quickly: the solution is stitched from both halves
    from mazekit.sokoban.solver import PORTFOLIO, run_search

    level = _microban()[92]  # Microban 93
    res = search_level(level, time_limit=60)
    assert res.solution is not None and replay(level, res.solution.lurd).solved
    for opts in PORTFOLIO:  # in fixed slices each search's solution is stitched from both halves
        sol = run_search(as_problem(level), opts, time_limit=None, fixed_slice=64).solution
        assert sol is not None and replay(level, sol.lurd).solved
        assert 0 < sol.backward_pushes < sol.pushes


def test_the_portfolio_keeps_which_direction_found_the_solution(monkeypatch):
    from mazekit.sokoban.solver import sequence

    level = _microban()[92]
    one = run_search
    calls = []

    def stitched(prob, opts, **kw):
        calls.append(opts)
        res = one(prob, opts, time_limit=None, fixed_slice=64)
        return res if len(calls) == 2 else SearchResult(None, replace(res.stats, stopped="time"))

    monkeypatch.setattr(sequence, "run_search", stitched)
    res = search_level(level, time_limit=60)  # the first search "runs out of time", the second solves
    assert len(calls) == 2 and res.solution is not None and 0 < res.solution.backward_pushes < res.solution.pushes


@settings(max_examples=40, deadline=None)
@given(tiny_sokoban_levels)
def test_optimal_push_count_on_tiny_levels(level):
    expected = brute_force_pushes(level)
    res = search_level(level, optimal=True, time_limit=30)
    if expected is None:
        assert res.solution is None and res.stats.stopped == "unsolvable"
    else:
        assert res.solution is not None and res.solution.pushes == expected
        assert replay(level, res.solution.lurd).solved
    # fast mode (the feature-space forward search meeting the backward one) is complete too
    fast_res = search_level(level, time_limit=30)
    fast = fast_res.solution
    assert (fast is None) == (expected is None)
    if fast is None:
        assert fast_res.stats.stopped == "unsolvable"
    else:
        assert replay(level, fast.lurd).solved and fast.pushes >= expected


@settings(max_examples=40, deadline=None)
@given(sokoban_levels(sides=(3, 5), border=True, wall_percent=10, max_boxes=3, goals_apart=True, extra_goals=2))
def test_optimal_push_count_with_more_goals_than_boxes(level):
    """A level may have more goals than boxes (any of them may stay empty): the optimal search
    still finds the fewest pushes, and the fast one a solution."""
    expected = brute_force_pushes(level)
    res = search_level(level, optimal=True, time_limit=30)
    assert (None if res.solution is None else res.solution.pushes) == expected
    fast = search_level(level, time_limit=30).solution
    assert (fast is None) == (expected is None)
    assert fast is None or replay(level, fast.lurd).solved


def test_compiled_and_python_kernels_agree():
    """In fixed slices (a run independent of the clock) both kernels make the same search."""
    from mazekit.sokoban.solver import PORTFOLIO, run_search

    prob = as_problem(parse_level(SMALL[4]))
    with jit_mode("never"):
        a = run_search(prob, PORTFOLIO[0], time_limit=None, fixed_slice=64)
    with jit_mode("always"):
        before = search_kernel.calls_compiled
        b = run_search(prob, PORTFOLIO[0], time_limit=None, fixed_slice=64)
        assert search_kernel.calls_compiled > before
    assert a.solution is not None and b.solution is not None
    assert a.solution.lurd == b.solution.lurd
    assert (a.stats.nodes, a.stats.expanded) == (b.stats.nodes, b.stats.expanded)


def test_unsolvable_and_limits():
    dead = parse_level("#####\n#@$ #\n#  .#\n#####")  # box in a corner-line: pushes never reach the goal
    res = search_level(dead, time_limit=5)
    assert res.solution is None and res.stats.stopped == "unsolvable"
    tiny_memory = search_level(parse_level(SMALL[4]), memory=2000, time_limit=5)
    assert tiny_memory.solution is None and tiny_memory.stats.stopped == "memory"


BLOCKED = """\
##########################
#@                       #
#  $ $ $ $ $ $ $ $ $ $   #
#           $$           #
#           $$           #
#  ..........    ....    #
#                        #
##########################
"""


#: Walled rooms up to 20 a side of floor, walls and goals (up to about 80 goals: two words of bits).
goal_rooms = st.tuples(st.integers(1, 20), st.integers(1, 20)).flatmap(
    lambda hw: st.tuples(
        st.just(hw), st.lists(st.sampled_from("   #."), min_size=hw[0] * hw[1], max_size=hw[0] * hw[1])
    )
)


@settings(max_examples=80, deadline=None)
@given(goal_rooms, st.sampled_from(["never", "always"]))
@example(((9, 10), list(" ." * 45)), "always")  # 45 goals among floor: one word of bits
@example(((12, 12), list("." * 70 + " #" * 37)), "always")  # 70 goals: two words of bits
def test_the_goals_each_cell_reaches_are_those_a_search_of_pulls_finds(room, mode):
    """The freeze test's bits of the goals a box on each cell can be pushed to, all goals at
    once, against a breadth-first search of pulls from each goal."""
    (h, w), cells = room
    width = w + 2
    floor = np.zeros((h + 2) * width, dtype=np.uint8)
    goals = []
    for k, ch in enumerate(cells):
        x = (k // w + 1) * width + k % w + 1
        floor[x] = ch != "#"
        if ch == ".":
            goals.append(x)
    assume(goals)
    off = np.array([-width, width, -1, 1], dtype=np.int64)
    g = np.array(goals, dtype=np.int64)
    dist = np.full((len(g), len(floor)), -1, dtype=np.int32)
    queue = np.empty(len(floor), dtype=np.int64)
    pull_distances_kernel(floor, off, g, dist, queue)
    reach = np.zeros((len(floor), (len(g) + 63) // 64), dtype=np.uint64)
    inq = np.zeros(len(floor), dtype=np.uint8)
    with jit_mode(mode):
        reach_bits_kernel.pick(10**9 if mode == "always" else 0)(floor, off, g, reach, queue, inq)
    for k in range(len(g)):
        bits = (reach[:, k >> 6] >> np.uint64(k & 63)) & np.uint64(1)
        assert (bits == 1).tolist() == (dist[k] >= 0).tolist(), k
    assert not inq.any()


def test_a_start_frozen_off_the_goals_stops_at_once():
    # a 2x2 block of boxes off the goals can never move: no search, whatever the other boxes do
    for optimal in (False, True):
        res = search_level(parse_level(BLOCKED), time_limit=60, optimal=optimal)
        assert res.solution is None and res.stats.stopped == "unsolvable"
        assert res.stats.expanded == 0 and res.stats.time - res.stats.compile_time < 1
    # the same block on goals is no deadlock: the box beside it still goes home
    on_goals = parse_level("#######\n#@ $ .#\n# **  #\n# **  #\n#######")
    res = search_level(on_goals, time_limit=10)
    assert res.solution is not None and res.solution.lurd == "rRR"


def test_the_solver_reads_engine_levels_and_problems_only():
    level = parse_level("#######\n#@ $ .#\n#######")
    p = as_problem(level)
    assert isinstance(p, Problem) and p.level is level and as_problem(p) is p
    assert solve(p).lurd == solve(level).lurd == "rRR"
    for other in (["#######", "#@ $ .#", "#######"], "#######\n#@ $ .#\n#######", 42):
        with pytest.raises(TypeError, match=f"cannot read a Sokoban level from {type(other).__name__}$"):
            as_problem(other)
        with pytest.raises(TypeError):
            solve(other)


@settings(max_examples=60, deadline=None)
@given(sokoban_levels())
def test_a_problem_maps_back_to_its_level(level):
    """The padded boxes, goals and player are the level's cells; the padding is no cell of the level."""
    prob = Problem.from_level(level)
    assert prob.level is level and (prob.height, prob.width) == (level.shape[0] + 2, level.shape[1] + 2)
    assert [prob.level_cell(b) for b in prob.boxes] == list(level.start.boxes)
    assert [prob.level_cell(g) for g in prob.goals] == list(level.goal_cells)
    assert prob.level_cell(prob.player) == level.start.player
    for r, c in np.ndindex(level.shape):
        assert prob.level_cell(prob.cell(r, c)) == level.cell((r, c))
    for x in (0, prob.width - 1, prob.width, prob.height * prob.width - 1, prob.height * prob.width):
        with pytest.raises(ValueError, match="outside"):
            prob.level_cell(x)


def test_too_few_goals_is_refused():
    level = Level.build(np.zeros((1, 4)), goals=[(0, 3)], player=(0, 0), boxes=[(0, 1), (0, 2)])
    with pytest.raises(ValueError, match="2 boxes but only 1 goals"):
        Problem.from_level(level)


def _microban():
    path = SHARED / "levels" / "microban.xsb"
    if not path.exists():
        pytest.skip(f"{path} is not available")
    return parse_levels(path.read_bytes())


@pytest.mark.parametrize("number", [1, 7, 20, 45, 78, 100, 133])
def test_microban_levels(number):
    level = _microban()[number - 1]
    sol = solve(level, time_limit=30)
    assert sol is not None and replay(level, sol.lurd).solved


def _padded(prob: Problem, level: Level, cell: int) -> int:
    r, c = level.rc(cell)
    return prob.cell(r, c)


def pushed_positions(prob: Problem, level: Level, lurd: str):
    """Walk a reference solution with the engine; after each push yield its index, the sorted
    padded box cells and the padded player cell."""
    state = level.start
    for i, ch in enumerate(lurd):
        state = step(level, state, ch.lower()).state
        assert state is not None
        if ch.isupper():
            cells = np.array(sorted(_padded(prob, level, b) for b in state.boxes), dtype=np.int64)
            yield i, cells, _padded(prob, level, state.player)
    assert isinstance(state, State)


def test_pruning_never_fires_on_the_reference_solutions(xsokoban):
    """Every position along the 90 reference solutions passes every test the search prunes with
    (the dead pairs' table included), and, the solutions coming from the start, the start's
    pairs' table (the backward search's) holds each of their pairs."""
    levels, solutions = xsokoban
    frozen = frozen_kernel.pick(_jit.THRESHOLD)
    hungarian = hungarian_kernel.pick(_jit.THRESHOLD)
    frozen_goals = frozen_goals_kernel.pick(_jit.THRESHOLD)
    dead_pair = pair_dead_kernel.pick(_jit.THRESHOLD)
    for level, lurd in zip(levels, solutions, strict=False):
        prob = as_problem(level)
        nb, ng = len(prob.boxes), len(prob.goals)
        boxat = np.full(prob.height * prob.width, -1, dtype=np.int32)
        u = np.zeros(nb + 1, dtype=np.int64)
        v, p, way, minv = (np.zeros(ng + 1, dtype=np.int64) for _ in range(4))
        used = np.zeros(ng + 1, dtype=np.uint8)
        fz = np.zeros(nb, dtype=np.uint8)
        queue = np.empty(prob.height * prob.width, dtype=np.int64)
        fg = frozen_goals_cache(nb, ng, prob.height * prob.width)
        pairs, seen = pair_table(prob), pair_table(prob, reach=True)
        for i, cells, player in pushed_positions(prob, level, lurd):
            assert not prob.dead[cells].any(), (level.title, i)
            for j, c in enumerate(cells):
                boxat[c] = j
            assert not frozen(cells, boxat, prob.floor, prob.dead, prob.goalm, prob.off, fz), i
            assert not frozen_goals(cells, fz, prob.floor, prob.goals, prob.off, queue, fg), i
            boxat[cells] = -1
            assert hungarian(cells, prob.dist, u, v, p, way, minv, used) < BIG, i
            if pairs is not None:
                assert not any(dead_pair(*pairs, cells, j, player) for j in range(nb)), (level.title, i)
            if seen is not None:
                assert not any(dead_pair(*seen, cells, j, player) for j in range(nb)), (level.title, i)


def test_a_goal_corridor_filled_in_the_wrong_order_is_dead():
    # two boxes stacked in a dead-end goal corridor below an empty goal: frozen on
    # goals, and the goal above them is lost
    prob = as_problem(
        rows_level(
            [
                "#####",
                "#.###",
                "#*###",
                "#*###",
                "#   #",
                "#@$ #",
                "#   #",
                "#####",
            ]
        )
    )
    cells = np.sort(prob.boxes)
    boxat = np.full(prob.height * prob.width, -1, dtype=np.int32)
    boxat[cells] = np.arange(len(cells))
    fz = np.zeros(len(cells), dtype=np.uint8)
    queue = np.empty(prob.height * prob.width, dtype=np.int64)
    assert not frozen_kernel(cells, boxat, prob.floor, prob.dead, prob.goalm, prob.off, fz)
    assert fz.tolist() == [1, 1, 0]
    fg = frozen_goals_cache(len(cells), len(prob.goals), prob.height * prob.width)
    assert frozen_goals_kernel(cells, fz, prob.floor, prob.goals, prob.off, queue, fg)
    assert search_level(prob, time_limit=10).stats.stopped == "unsolvable"


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2), st.data())
def test_the_freeze_tests_matching_agrees_with_brute_force(n, extra, data):
    """Whether every box gets a goal of its own that it can reach: the greedy-then-augmenting
    matching of :func:`unmatched_kernel` against trying every assignment."""
    import itertools

    m = n + extra
    reach = np.array(data.draw(st.lists(st.booleans(), min_size=m * n, max_size=m * n))).reshape(m, n)
    rows = np.arange(n, dtype=np.int64)  # box b on cell b
    bits = np.zeros((n, 1), dtype=np.uint64)
    for g, b in zip(*np.nonzero(reach), strict=True):
        bits[b, 0] |= np.uint64(1) << np.uint64(g)
    brute = any(all(reach[g[b], b] for b in range(n)) for g in itertools.permutations(range(m), n))
    work = [np.zeros(m, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(m, dtype=np.int64)]
    seen, todo = np.zeros(m, dtype=np.uint8), np.zeros(n, dtype=np.int64)
    assert (unmatched_kernel(rows, bits, m, *work, seen, todo) == 0) == brute


def test_the_freeze_tests_matching_reads_goals_past_the_first_64():
    """Goal bits live 64 to a word: goals 65, 100 and 127 are found in the second word."""
    m = 130
    work = [np.zeros(m, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(m, dtype=np.int64)]
    seen, todo = np.zeros(m, dtype=np.uint8), np.zeros(2, dtype=np.int64)

    def bits(*goals: int) -> np.ndarray:
        row = np.zeros(3, dtype=np.uint64)
        for g in goals:
            row[g // 64] |= np.uint64(1) << np.uint64(g % 64)
        return row

    rows = np.array([0, 1], dtype=np.int64)
    assert unmatched_kernel(rows, np.array([bits(127), bits(65)]), m, *work, seen, todo) == 0
    assert unmatched_kernel(rows, np.array([bits(100), bits(100)]), m, *work, seen, todo) == 2
    assert unmatched_kernel(rows, np.array([bits(100), bits(100, 3)]), m, *work, seen, todo) == 0


def _frozen_goals_reference(prob: Problem, cells: np.ndarray, fz: np.ndarray) -> bool:
    """The freeze test's second half as first written: fresh push distances with the frozen
    boxes as walls, then a whole Hungarian matching of the free boxes (>= BIG: none)."""
    if not 0 < int(fz.sum()) < len(cells):
        return False
    fl = prob.floor.copy()
    fl[cells[fz != 0]] = 0
    free_goals = np.array([g for g in prob.goals if fl[g] != 0], dtype=np.int64)
    dist = np.full((len(free_goals), len(fl)), -1, dtype=np.int32)
    pull_distances_kernel(fl, prob.off, free_goals, dist, np.empty(len(fl), dtype=np.int64))
    free = cells[fz == 0]
    m = len(free_goals)
    u = np.zeros(len(free) + 1, dtype=np.int64)
    v, p, way, minv = (np.zeros(m + 1, dtype=np.int64) for _ in range(4))
    used = np.zeros(m + 1, dtype=np.uint8)
    return bool(hungarian_kernel(free, dist, u, v, p, way, minv, used) >= BIG)


@settings(max_examples=60, deadline=None)
@given(sokoban_levels(sides=(3, 6), border=True, wall_percent=25, max_boxes=6, extra_goals=1), st.data())
def test_the_freeze_tests_cache_gives_the_verdicts_of_a_fresh_computation(level, data):
    """Many positions of one level through one cache (a single slot: every new frozen set
    replaces the last, and sets collide) and through a roomy one: each verdict is the one a
    fresh computation gives (:func:`_frozen_goals_reference`). The frozen boxes are drawn among
    those on goals (the kernel takes them as walls, whatever froze them)."""
    prob = as_problem(level)
    assume(prob.floor[prob.goals].all())  # a goal off the player's floor: unsolvable from the start
    nb, ng, ncells = len(prob.boxes), len(prob.goals), len(prob.floor)
    others = [int(x) for x in np.flatnonzero(prob.floor) if not prob.goalm[x]]
    caches = [frozen_goals_cache(nb, ng, ncells, most=1), frozen_goals_cache(nb, ng, ncells)]
    queue = np.empty(ncells, dtype=np.int64)
    for _ in range(12):
        on = data.draw(st.integers(max(1, nb - len(others)), min(nb, ng)))
        cells = np.array(
            data.draw(st.permutations([int(g) for g in prob.goals]))[:on]
            + data.draw(st.permutations(others))[: nb - on],
            dtype=np.int64,
        )
        fz = np.array([j < on and data.draw(st.booleans()) for j in range(nb)], dtype=np.uint8)
        want = _frozen_goals_reference(prob, cells, fz)
        for fg in caches:
            assert frozen_goals_kernel(cells, fz, prob.floor, prob.goals, prob.off, queue, fg) == want


def test_a_cache_slot_holds_the_set_it_was_filled_with():
    """The goal corridor of the test above, two frozen sets through a one-slot cache and back:
    a set that replaced another is not taken for it."""
    prob = as_problem(rows_level(["#####", "#.###", "#.###", "#*###", "#   #", "#@$ #", "#   #", "#####"]))
    fg = frozen_goals_cache(len(prob.boxes), len(prob.goals), len(prob.floor), most=1)
    assert fg.key.shape == (1,)
    queue = np.empty(len(prob.floor), dtype=np.int64)
    low, high = prob.cell(3, 1), prob.cell(1, 1)  # the corridor's lowest goal, its end
    free = prob.cell(5, 2)
    for frozen_cell, dead in ((low, True), (high, False), (low, True)):
        cells = np.array(sorted([frozen_cell, free]), dtype=np.int64)
        fz = (cells == frozen_cell).astype(np.uint8)
        assert frozen_goals_kernel(cells, fz, prob.floor, prob.goals, prob.off, queue, fg) == dead
        assert _frozen_goals_reference(prob, cells, fz) == dead


GOAL_CORRIDOR = [
    "#########",
    "#...    #",
    "######  #",
    "#  $ $$ #",
    "#      @#",
    "#########",
]


def test_packing_order_fills_a_dead_end_corridor_from_its_end():
    from mazekit.sokoban.solver.prepare import goal_areas

    prob = as_problem(rows_level(GOAL_CORRIDOR))
    garea, forder, fstart = goal_areas(prob)
    assert fstart.tolist() == [0, 3]
    assert forder.tolist() == [prob.cell(1, 1), prob.cell(1, 2), prob.cell(1, 3)]
    assert garea[prob.cell(1, 2)] == 0 and garea[prob.cell(3, 3)] == -1


def test_packing_orders_stop_at_their_deadline():
    from mazekit.sokoban.solver.prepare import goal_areas

    prob = as_problem(rows_level(GOAL_CORRIDOR))
    garea, forder, fstart = goal_areas(prob, deadline=0.0)  # long past: no area gets an order
    assert fstart.tolist() == [0] and forder.size == 0 and (garea == -1).all()


def test_a_search_with_many_goals_keeps_to_its_time_limit():
    # 47 boxes on goals in one area: ordering them took half a second before
    # the preparation kept to the deadline (the playground's fuzzing found it)
    level = rows_level(["#" * 14, "#@$ .   " + "*" * 5 + "#", *["#     " + "*" * 7 + "#"] * 6, "#" * 14])
    res = search_level(level, time_limit=0.01)
    assert res.stats.stopped in ("time", "solved")
    assert res.stats.time < 0.3  # generous: the first slice may overrun, the 0.6 s of ordering may not


@pytest.mark.parametrize("both", [False, True])
@pytest.mark.parametrize("mode", ["never", "always"])
def test_goal_macros_give_replayable_solutions(mode, both):
    # with both directions, the backward one (which has no goal areas) must not take goal steps
    level = rows_level(GOAL_CORRIDOR)
    with jit_mode(mode):
        res = search_level(level, time_limit=20, options=SearchOptions(weight=3, bidirectional=both))
    assert res.solution is not None
    r = replay(level, res.solution.lurd)
    assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


@pytest.mark.parametrize("mode", ["never", "always"])
def test_goal_macro_kernel_pushes_a_box_to_the_end_of_a_goal_corridor(mode):
    prob = as_problem(rows_level(GOAL_CORRIDOR))
    from mazekit.sokoban.solver.prepare import goal_areas

    garea, forder, _ = goal_areas(prob)
    n = prob.height * prob.width
    boxat = np.full(n, -1, dtype=np.int32)
    start = prob.cell(1, 3)
    boxat[start] = 0
    out = np.zeros(1, dtype=np.int64)
    scratch = [np.zeros(4 * n, np.int64), np.zeros(1, np.int64)] + [np.empty(4 * n + 1, np.int64) for _ in range(3)]
    with jit_mode(mode):
        r = goal_macro_kernel.pick(10**9 if mode == "always" else 0)(
            prob.floor,
            prob.dead,
            boxat,
            prob.off,
            garea,
            0,
            start,
            prob.cell(1, 4),
            int(forder[0]),
            *scratch,
            np.zeros(n, np.int64),
            np.empty(n, np.int64),
            out,
            0,
        )
    assert r == 2 and int(out[0]) == prob.cell(1, 2) and boxat[start] == 0


def test_compiling_the_kernel_is_not_charged_to_the_time_limit(monkeypatch):
    """The first compiled call (numba compiles, once per installation) does not count against the limit."""
    import time as _time

    class FirstCallCompiles:
        signatures: list[str] = []

        def __call__(self, *args):
            if not self.signatures:
                self.signatures = ["compiled"]
                _time.sleep(0.5)  # the compiler at work; no expansion done
                return RUNNING
            return search_kernel.py_func(*args)

    fake = FirstCallCompiles()
    monkeypatch.setattr(search_kernel, "pick", lambda work: fake)
    res = search_level(parse_level(SMALL[4]), time_limit=0.3, portfolio=portfolio_with(bidirectional=False))
    assert res.stats.stopped == "solved" and res.stats.time >= 0.5


def test_the_portfolio_shares_the_time_left_and_stops_at_a_verdict(monkeypatch):
    """Each search of the fast mode's portfolio gets its share of the time left (equal unless
    ``time_share`` says otherwise), its compile time not counted; a verdict ends the portfolio;
    a memory stop is reported over a later timeout."""
    import time as _time

    from mazekit.sokoban.solver import sequence

    calls: list[tuple[float | None, SearchOptions]] = []
    outcomes: list[str] = []

    def fake(prob, opts, *, time_limit, memory, progress, stall):
        assert stall is None  # no search here has a stall rule
        calls.append((time_limit, opts))
        stopped = outcomes[len(calls) - 1]
        compile_time = 0.3 if len(calls) == 1 else 0.0  # charged to no share
        _time.sleep(0.05 + compile_time)
        return SearchResult(None, SearchStats(10, 5, 0.05 + compile_time, stopped, compile_time))

    monkeypatch.setattr(sequence, "run_search", fake)
    level = parse_level(SMALL[4])
    portfolio = (SearchOptions(), SearchOptions(corral_grow=1), SearchOptions(player_penalty=2))
    outcomes[:] = ["time", "memory", "time"]
    res = search_level(level, time_limit=3.0, portfolio=portfolio)
    assert [opts for _, opts in calls] == list(portfolio)  # in order, each as written
    shares = [t for t, _ in calls]
    assert shares[0] == pytest.approx(1.0, abs=0.05)
    assert shares[1] == pytest.approx(2.95 / 2, abs=0.05) and shares[2] == pytest.approx(2.9, abs=0.05)
    assert res.stats.stopped == "memory" and res.stats.nodes == 30 and res.stats.compile_time == 0.3
    calls.clear()
    outcomes[:] = ["unsolvable", "time"]
    assert search_level(level, time_limit=3.0, portfolio=portfolio).stats.stopped == "unsolvable"
    assert len(calls) == 1
    calls.clear()
    outcomes[:] = ["time", "time"]
    assert search_level(level, time_limit=None, portfolio=portfolio).stats.stopped == "time"
    assert len(calls) == 1  # no limit: the first search runs until it is done
    calls.clear()
    outcomes[:] = ["time", "time", "time"]
    heavy = (SearchOptions(time_share=3), SearchOptions(), SearchOptions(time_share=0.5))
    search_level(level, time_limit=4.5, portfolio=heavy)
    shares = [t for t, _ in calls]  # each its time_share over the shares left, of the time left
    assert shares[0] == pytest.approx(4.5 * 3 / 4.5, abs=0.05)
    assert shares[1] == pytest.approx(4.45 / 1.5, abs=0.05) and shares[2] == pytest.approx(4.4, abs=0.05)


def test_a_search_that_stalls_yields_its_slot_to_the_searches_after_it(monkeypatch):
    """A search with a stall rule gets the rule in a portfolio, except the last one of a run
    (no one to yield to) and with no time limit; what it leaves of its slot the searches after it
    share as they share the rest."""
    import time as _time

    from mazekit.sokoban.solver import sequence

    calls: list[tuple[float | None, Stall | None]] = []

    def fake(prob, opts, *, time_limit, memory, progress, stall):
        calls.append((time_limit, stall))
        _time.sleep(0.2 if stall is not None else 0.05)  # a stalled search stops early
        return SearchResult(None, SearchStats(10, 5, 0.2, "time"))

    monkeypatch.setattr(sequence, "run_search", fake)
    rule = Stall(fraction=0.5, after=0.1)
    portfolio = (SearchOptions(stall=rule, time_share=4), SearchOptions(stall=rule), SearchOptions(stall=rule))
    search_level(parse_level(SMALL[4]), time_limit=6.0, portfolio=portfolio)
    assert [st for _, st in calls] == [rule, rule, None]
    shares = [t for t, _ in calls]
    assert shares[0] == pytest.approx(4.0, abs=0.05)  # its share of the whole
    assert shares[1] == pytest.approx(5.8 / 2, abs=0.05)  # half of what the first left
    assert shares[2] == pytest.approx(5.6, abs=0.05)
    calls.clear()
    search_level(parse_level(SMALL[4]), time_limit=None, portfolio=portfolio)
    assert calls == [(None, None)]


def test_a_stalled_search_stops_before_its_limit():
    """On a level whose search runs to its limit (unsolvable, but only a long search shows it),
    a stall rule that a round without a new sign of progress meets stops the search early, as a
    timeout; without the rule it runs to the limit."""
    from mazekit.sokoban.solver import run_search

    prob = as_problem(parse_level(SLOW))
    t0 = time.perf_counter()
    res = run_search(prob, PORTFOLIO[0], time_limit=20.0, stall=Stall(signs="bound", fraction=0.01, after=0.5))
    assert res.stats.stopped == "time" and res.solution is None
    assert time.perf_counter() - t0 < 10.0
    res = run_search(prob, PORTFOLIO[0], time_limit=1.5)
    assert res.stats.stopped == "time" and res.stats.time - res.stats.compile_time >= 1.5


def test_stall_rules_fail_where_they_are_written():
    with pytest.raises(ValueError, match="Stall.fraction"):
        Stall(fraction=1.5)
    with pytest.raises(ValueError, match="Stall.signs"):
        Stall(signs="bounds")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Stall.after"):
        Stall(after=-1)
    with pytest.raises(TypeError, match="SearchOptions.stall"):
        SearchOptions(stall=0.5)  # type: ignore[arg-type]


def test_search_options_fail_where_they_are_written():
    """A misspelt option, a wrong type or a value out of range fails when the options are made."""
    from mazekit.sokoban.solver import PORTFOLIO

    with pytest.raises(TypeError, match="wieght"):
        SearchOptions(wieght=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="corrals must be True or False"):
        SearchOptions(corrals=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="weight must be an int"):
        SearchOptions(weight=2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="corral_grow must be an int >= 0"):
        SearchOptions(corral_grow=-1)
    with pytest.raises(ValueError, match="weight must be 1 or more"):
        SearchOptions(weight=0)
    with pytest.raises(ValueError, match="backward_share"):
        SearchOptions(backward_share=1.0)
    with pytest.raises(ValueError, match="corral_nodes must be at most"):
        SearchOptions(corral_nodes=10**6)
    for share in (0, -1.0, float("nan"), float("inf"), True, "2"):
        with pytest.raises(ValueError, match="time_share must be a number above 0"):
            SearchOptions(time_share=share)  # type: ignore[arg-type]
    assert all(isinstance(o, SearchOptions) for o in PORTFOLIO) and len(set(PORTFOLIO)) == len(PORTFOLIO)
    a = SearchOptions(corral_grow=1).for_optimal()
    assert (a.bidirectional, a.macros, a.fess, a.corral_grow) == (False, False, False, 1)


def test_the_backward_weight_is_the_backward_searchs_own():
    from mazekit.sokoban.solver import Search

    prob = as_problem(parse_level("#######\n#@$ . #\n# $ . #\n#######"))
    plain = Search(prob, SearchOptions(weight=7), False, 1 << 26)
    own = Search(prob, SearchOptions(weight=7, backward_weight=1), False, 1 << 26)
    assert plain.backward is not None and own.backward is not None
    assert (plain.forward.settings.weight, plain.backward.settings.weight) == (7, 7)
    assert (own.forward.settings.weight, own.backward.settings.weight) == (7, 1)
    with pytest.raises(TypeError, match="backward_weight must be an int >= 0"):
        SearchOptions(backward_weight=-1)


def test_fixed_slices_make_a_run_independent_of_the_clock():
    """With fixed slices and an expansion cap a search is a function of the level and the options:
    the same nodes, expansions and solution on every run, compiled or not."""
    from mazekit.sokoban.solver import PORTFOLIO, run_search

    level = rows_level(GOAL_CORRIDOR)
    prob = as_problem(level)
    seen = set()
    for mode in ("never", "always", "always"):
        with jit_mode(mode):
            for opts in PORTFOLIO:
                res = run_search(prob, opts, time_limit=None, fixed_slice=4, max_expansions=10**6)
                assert res.solution is not None and replay(level, res.solution.lurd).solved
                seen.add((opts, res.stats.nodes, res.stats.expanded, res.solution.lurd))
    assert len(seen) == len(PORTFOLIO)


def test_a_first_slice_in_plain_python_is_short_on_a_big_level():
    """Uncompiled, a state's expansion costs about 0.1 ms a cell: on a 1,440-cell level the first
    slice (plain Python when the kernel is not loaded yet) expands one state per direction, not 64,
    so that a short time limit is looked at soon (it took 10 s against a 0.05 s limit)."""
    level = parse_level("#####\n|@$ ||||||||||||||||||||||||||.#\n#40###")
    with jit_mode("never"):
        res = search_level(level, time_limit=1e-3)
    assert res.stats.stopped == "time" and res.stats.expanded <= 2


def test_the_bounds_history_only_falls():
    from mazekit.sokoban import generate_level
    from mazekit.sokoban.solver import Search

    level = generate_level(rows=14, cols=14, boxes=7, seed=2).level  # 174 expansions in slices of 16
    search = Search(as_problem(level), SearchOptions(), False, 1 << 26)
    assert search.run(time.perf_counter(), None, None, 0.05, 16, 20_000)[0] == "solved"
    assert len(search.bound_history) >= 2
    for direction in range(len(search.directions)):
        bounds = [b for _, d, b in search.bound_history if d == direction]
        assert bounds == sorted(bounds, reverse=True) and len(set(bounds)) == len(bounds)
        # the first is its roots' bound (the backward's was read as 0 before its first slice)
        assert bounds[0] > 0


@pytest.mark.parametrize("where", ["as_problem", "Search"])
def test_compiling_while_preparing_is_not_charged_to_the_time_limit(monkeypatch, where):
    """The first solve after installing compiles the kernels that prepare the level; that time
    (numba's compile events, :func:`mazekit._jit.compile_seconds`) is not the search's. Here
    preparing "compiles" for 0.6 s against a limit of 0.3 s, and the level is still solved."""
    from mazekit.sokoban.solver import driver, search

    module = search if where == "as_problem" else driver  # where each is called
    clock = [0.0]
    for m in (search, driver):
        monkeypatch.setattr(m, "compile_seconds", lambda: clock[0])
    real = getattr(module, where)

    def slow(*args, **kwargs):
        time.sleep(0.6)
        clock[0] += 0.6
        return real(*args, **kwargs)

    monkeypatch.setattr(module, where, slow)
    res = search_level(parse_level("#######\n#@$  .#\n#######"), time_limit=0.3)
    assert res.solution is not None and res.solution.lurd == "RRR"
    assert res.stats.compile_time >= 0.6


def test_the_compile_clock_counts_numba_compiles():
    """A kernel numba has not seen in this process (a fresh function object, so nothing in the
    cache either) moves :func:`mazekit._jit.compile_seconds` forward when it compiles."""
    pytest.importorskip("numba")
    source = "def twice(a):\n    return a * 2\n"
    space: dict[str, object] = {}
    exec(compile(source, "<twice>", "exec"), space)  # noqa: S102  # a function numba cannot have cached
    kernel = _jit.Kernel(space["twice"], {"cache": False})
    before = _jit.compile_seconds()
    assert kernel.compiled()(21) == 42
    assert _jit.compile_seconds() > before


#: Any settings of one search (the advisor's and corral test's bounds kept small).
any_options = st.builds(
    SearchOptions,
    weight=st.integers(1, 12),
    corrals=st.booleans(),
    bidirectional=st.booleans(),
    macros=st.booleans(),
    fess=st.booleans(),
    backward_share=st.sampled_from([0.25, 0.5, 0.75]),
    backward_weight=st.sampled_from([0, 1, 5]),
    corral_nodes=st.sampled_from([0, 8, 64]),
    corral_boxes=st.integers(1, 10),
    corral_grow=st.integers(0, 2),
    player_penalty=st.integers(0, 3),
    move_weight=st.sampled_from([0, 1, 1000]),
    pack_advisor=st.sampled_from([0, 50]),
    room_feature=st.booleans(),
    dead_pairs=st.booleans(),
    reach_pairs=st.booleans(),
    box_runs=st.booleans(),
    backward_fess=st.booleans(),
    backward_rooms=st.booleans(),
    novelty=st.sampled_from([0, 1, 2]),
    novelty_cells=st.booleans(),
    pack_tries=st.integers(1, 4),
)


@settings(max_examples=200, deadline=None)
@given(tiny_sokoban_levels, any_options)
def test_every_combination_of_options_is_sound_and_complete(level, options):
    # uncompiled, so that an index past an array's end raises (compiled kernels do not check), and
    # in fixed slices, so that the run does not depend on the clock
    from mazekit.sokoban.solver import run_search

    expected = brute_force_pushes(level)
    with jit_mode("never"):
        res = run_search(as_problem(level), options, time_limit=None, fixed_slice=1)
    if res.solution is not None:
        assert expected is not None and replay(level, res.solution.lurd).solved
    elif res.stats.stopped == "unsolvable":
        assert expected is None, (options, expected)
    else:
        raise AssertionError(f"no verdict: {res.stats}")


@settings(max_examples=150, deadline=None)
@given(sokoban_levels(sides=(3, 7), border=True, wall_percent=20, max_boxes=8), st.data())
def test_a_childs_region_told_from_its_parents_is_the_flooded_one(level, data):
    """Whenever :func:`child_min_kernel` tells the player's region after a box steps from ``c``
    to a free cell ``to`` (a pull's, in the region, or a push's, in any), it is the region before
    less ``to`` and with ``c``, its least cell is the one returned, and the free floor has as many
    regions as before."""
    prob = as_problem(level)
    floor, off = prob.floor, prob.off
    free = [int(x) for x in np.flatnonzero(floor)]
    nb = data.draw(st.integers(1, max(1, len(free) - 1)))
    cells = data.draw(st.permutations(free))[: nb + 1]
    player, boxes = cells[0], cells[1:]
    boxat = np.full(len(floor), -1, dtype=np.int64)
    for j, x in enumerate(boxes):
        boxat[x] = j
    mark = np.zeros(len(floor), dtype=np.int64)
    queue = np.empty(len(floor), dtype=np.int64)
    low = flood_min_kernel.py_func(floor, boxat, off, player, 1, mark, queue)
    region = {x for x in free if mark[x] == 1}
    before = len(free_regions(floor, set(boxes), off))
    moves = [(c, int(c + o)) for c in boxes for o in off if floor[c + o] and boxat[c + o] < 0]
    assume(moves)
    c, to = data.draw(st.sampled_from(moves))
    boxat[to], boxat[c] = boxat[c], -1
    told = child_min_kernel.py_func(floor, boxat, off, mark, 1, low, c, to)
    if told >= 0:
        regions = free_regions(floor, (set(boxes) - {c}) | {to}, off)
        after = next(r for r in regions if c in r)
        assert after == (region - {to}) | {c}
        assert told == min(after)
        assert len(regions) == before


@settings(max_examples=200, deadline=None)
@given(sokoban_levels(sides=(3, 7), border=True, wall_percent=20, max_boxes=8), st.data())
def test_the_lone_box_search_reaches_the_cells_beside_its_box_as_a_flood_does(level, data):
    """:func:`lone_box_region_kernel` stamps a free cell beside the box exactly when a flood of
    the player's region (the box on its cell, the other boxes fixed) reaches it, with the player
    beside the box (after a push: the ring and the floods from the other sides) or anywhere."""
    prob = as_problem(level)
    floor, off = prob.floor, prob.off
    free = [int(x) for x in np.flatnonzero(floor)]
    assume(len(free) >= 3)
    cells = data.draw(st.permutations(free))
    nb = data.draw(st.integers(0, len(free) - 3))
    b, others = cells[0], cells[1 : nb + 1]
    beside = [int(b + o) for o in off if floor[b + o] and int(b + o) not in others]
    anywhere = [x for x in free if x != b and x not in others]
    player = data.draw(st.sampled_from(beside if beside and data.draw(st.booleans()) else anywhere))
    boxat = np.full(len(floor), -1, dtype=np.int64)
    for j, x in enumerate(others):
        boxat[x] = j + 1
    mark = np.zeros(len(floor), dtype=np.int64)
    queue = np.empty(len(floor), dtype=np.int64)
    vstamp = np.zeros(1, dtype=np.int64)
    ms = lone_box_region_kernel.py_func(floor, boxat, off, b, 0, player, vstamp, mark, queue)
    assert boxat[b] == -1
    region = next(r for r in free_regions(floor, set(others) | {b}, off) if player in r)
    for o in off:
        y = int(b + o)
        if floor[y] and boxat[y] < 0:
            assert (mark[y] == ms) == (y in region), (y, player)


def test_a_corral_s_spare_empty_goals_do_not_force_a_push_into_it():
    """With more goals than boxes an empty goal may stay empty: a corral whose fence boxes are all
    on goals is finished, whatever goals it holds, and the PI-corral rule must not force a push into
    it (it did, and A* answered 5 pushes where 4 do; a case Hypothesis found)."""
    level = parse_level("######\n# $..#\n#.$..#\n#@  ##\n#$  ##\n#   ##\n######")
    assert brute_force_pushes(level) == 4
    for mode in ("never", "always"):
        with jit_mode(mode):
            res = search_level(level, optimal=True, time_limit=30)
            assert res.solution is not None and res.solution.pushes == 4
            assert replay(level, res.solution.lurd).solved
