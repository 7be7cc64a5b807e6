"""Deadlock rules: hand-made dead and alive positions per rule, and soundness.

Soundness is checked two ways: every position along the 90 XSokoban reference
solutions is alive for every rule, and on small random levels every position
a rule calls dead really has no way to a solution (exhaustive search).
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mazekit.sokoban import (
    Deadlocks,
    Level,
    State,
    bipartite_deadlock,
    block_deadlock,
    canonical,
    corner_squares,
    dead_squares,
    freeze_deadlock,
    goal_reach,
    is_deadlocked,
    legal_pushes,
    parse_level,
    push,
    step,
    wall_line_squares,
)
from mazekit.sokoban._padded_kernels import pull_distances_kernel
from mazekit.sokoban.deadlock import _hall_violator, _reach_bits
from tests.conftest import jit_mode
from tests.strategies import sokoban_levels, sokoban_rooms


def cells(mask):
    return [tuple(p) for p in np.argwhere(mask).tolist()]


# ------------------------------------------------------------- dead squares


def test_dead_squares_by_pulling():
    lv = parse_level(
        """\
#######
#@    #
#  $  #
#   . #
#######
"""
    )
    dead = dead_squares(lv)
    # the whole top row and left/right columns are dead, except where they lead to the goal
    assert dead[1].tolist() == [False, True, True, True, True, True, False]
    assert dead[:, 1].tolist() == [False, True, True, True, False]
    assert not dead[2, 2] and not dead[2, 3] and not dead[3, 4]
    assert dead[3, 1] and dead[3, 5]  # bottom corners
    assert not dead[3, 2] and not dead[3, 3]  # along the bottom wall towards the goal


def test_goal_in_a_corner_is_alive():
    lv = parse_level("#####\n#@  #\n#$ .#\n#####")
    assert not dead_squares(lv)[2, 3]
    assert dead_squares(lv)[2, 1]
    assert is_deadlocked(lv, lv.start)
    on_goal = parse_level("######\n#*@$.#\n######")
    # a box on a goal in a corner is not dead
    assert not is_deadlocked(on_goal, on_goal.start)


def test_corner_squares():
    lv = parse_level("######\n#@   #\n# $ .#\n######")
    assert cells(corner_squares(lv)) == [(1, 1), (1, 4), (2, 1)]
    # goals are never corner deadlocks
    assert not corner_squares(lv)[2, 4]
    assert (corner_squares(lv) <= dead_squares(lv)).all()


def test_wall_line_squares():
    closed = parse_level("########\n#@     #\n#  $  .#\n########")
    assert wall_line_squares(closed)[1, 1:7].all()
    assert wall_line_squares(closed)[1].sum() == 6
    # a goal on the line makes it alive
    with_goal = parse_level("########\n#@  .  #\n#  $   #\n########")
    assert not wall_line_squares(with_goal)[1, 2:6].any()  # the corners stay dead (side walls)
    # a gap in the wall lets a box leave the line
    gap = parse_level("#### ###\n#@     #\n#  $  .#\n########")
    assert not wall_line_squares(gap)[1, 2:6].any()
    for lv in (closed, with_goal, gap):
        assert (wall_line_squares(lv) <= dead_squares(lv)).all()


def test_map_edge_counts_as_a_wall():
    lv = Level.build(np.zeros((3, 4)), goals=[(2, 2)], player=(1, 0), boxes=[(1, 1)])
    assert wall_line_squares(lv)[0].all() and corner_squares(lv)[0, 0]
    assert dead_squares(lv)[0].all()


# --------------------------------------------------------------- 2x2 blocks

BLOCKS = [
    ("######\n#@   #\n# $$ #\n# $$ #\n#....#\n######", True),  # four boxes
    ("#####\n#@  #\n#  $#\n#  $#\n#..##\n#####", True),  # two boxes and two walls
    ("######\n#@   #\n# ** #\n# ** #\n#    #\n######", False),  # all on goals
    ("######\n#@   #\n# $$ #\n# .. #\n#    #\n######", False),  # a row of two
]


@pytest.mark.parametrize("text, dead", BLOCKS)
def test_block_deadlock(text, dead):
    lv = parse_level(text)
    assert block_deadlock(lv, lv.start) is dead


def test_block_at_the_map_edge():
    lv = Level.build(np.zeros((3, 3)), goals=[(2, 2), (2, 1)], player=(2, 0), boxes=[(0, 0), (0, 1)])
    assert block_deadlock(lv, lv.start)


# ------------------------------------------------------------------- freeze

FROZEN_PAIR = "#########\n#.  $$ .#\n#       #\n#@      #\n#########"
OPEN_PAIR = "#########\n#.  $ $.#\n#       #\n#@      #\n#########"
CHAIN = "#######\n#  #  #\n# @$$ #\n#   $##\n#.. . #\n#######"
CHAIN_OPEN = "#######\n#  #  #\n# @$$ #\n#   $ #\n#.. . #\n#######"


def test_freeze_pair_against_a_wall():
    lv = parse_level(FROZEN_PAIR)
    dl = Deadlocks(lv)
    assert not dl.dead[list(lv.start.boxes)].any()
    assert not bipartite_deadlock(lv, lv.start)
    assert freeze_deadlock(lv, lv.start)
    assert dl.check(lv.start) == "2x2 block"  # the cheaper rule sees it first (two walls, two boxes)
    lv2 = parse_level(OPEN_PAIR)
    assert not freeze_deadlock(lv2, lv2.start) and Deadlocks(lv2).check(lv2.start) == ""


def test_freeze_recursive_chain():
    lv = parse_level(CHAIN)
    assert not block_deadlock(lv, lv.start)
    assert not bipartite_deadlock(lv, lv.start)
    assert freeze_deadlock(lv, lv.start)
    assert Deadlocks(lv).check(lv.start) == "freeze"
    # with the wall beside the lowest box gone, the chain is free
    lv2 = parse_level(CHAIN_OPEN)
    assert not freeze_deadlock(lv2, lv2.start)


def test_freeze_ignores_boxes_on_goals():
    lv = parse_level("#########\n#.  ** .#\n#    $  #\n#@      #\n#########".replace("#.  ** .#", "#   ** .#"))
    assert not freeze_deadlock(lv, lv.start)


def test_freeze_with_dead_squares_both_sides():
    # A (2, 4) has a wall above; its neighbour B (2, 5) has dead squares above and
    # below, so B can only move into a dead square, and A can never move left.
    lv = parse_level(
        """\
#########
##### ###
#.  $$ .#
#  @  ###
#########
"""
    )
    dl = Deadlocks(lv)
    assert dl.dead[lv.cell((1, 5))] and dl.dead[lv.cell((3, 5))]
    assert not dl.dead[list(lv.start.boxes)].any()
    assert not block_deadlock(lv, lv.start) and not bipartite_deadlock(lv, lv.start)
    assert dl.check(lv.start) == "freeze"


# ---------------------------------------------------------------- bipartite


def test_bipartite_deadlock():
    dead = parse_level("########\n#.$  $ #\n#  @   #\n#     .#\n########")
    assert not Deadlocks(dead).dead[list(dead.start.boxes)].any()
    assert not freeze_deadlock(dead, dead.start)
    assert bipartite_deadlock(dead, dead.start)
    assert Deadlocks(dead).check(dead.start) == "bipartite"
    alive = parse_level("########\n#.$  $.#\n#  @   #\n#      #\n########")
    assert not bipartite_deadlock(alive, alive.start)


def test_goal_reach_shape():
    lv = parse_level("########\n#.$  $ #\n#  @   #\n#     .#\n########")
    reach = goal_reach(lv)
    assert reach.shape == (2, lv.size)
    assert reach.any(axis=0).reshape(lv.shape).tolist() == (~dead_squares(lv) & lv.floor).tolist()


# --------------------------------------------------------------- soundness


def test_no_rule_calls_a_reference_position_dead(xsokoban):
    levels_, solutions = xsokoban
    positions = 0
    for i, (lv, lurd) in enumerate(zip(levels_, solutions, strict=False), 1):
        dl = Deadlocks(lv, pairs=True)
        assert (corner_squares(lv).ravel() <= dl.dead).all() and (wall_line_squares(lv).ravel() <= dl.dead).all()
        state = lv.start
        for k, ch in enumerate(lurd):
            res = step(lv, state, ch.lower())
            state = res.state
            if res.pushed:
                positions += 1
                assert dl.check(state) == "", (i, k)
                assert dl.check(state, pushed=lv.nbr[state.player, "udlr".index(ch.lower())]) == "", (i, k)
    assert positions > 20000


def _solvable_states(level):
    """Every canonical push-reachable state and whether it can still be solved (exhaustive)."""
    start = canonical(level, level.start)
    seen = {start: []}
    order = deque([start])
    while order:
        s = order.popleft()
        for b, d in legal_pushes(level, s):
            t = canonical(level, push(level, s, b, d))
            if t not in seen:
                seen[t] = []
                order.append(t)
            seen[t].append(s)
            if len(seen) > 3000:
                return None
    good = {s for s in seen if level.is_solved(s)}
    todo = deque(good)
    while todo:
        t = todo.popleft()
        for s in seen[t]:
            if s not in good:
                good.add(s)
                todo.append(s)
    return {s: s in good for s in seen}


@settings(max_examples=40)
@given(st.one_of(sokoban_levels(), sokoban_rooms))
def test_rules_are_sound_on_small_levels(level):
    table = _solvable_states(level)
    assume(table is not None)  # more than 3000 positions: too many to search
    dl = Deadlocks(level, pairs=True)
    for s, solvable in table.items():
        if solvable:
            assert dl.check(s) == "", (s, dl.check(s))


POCKET = "#######\n#.$  .#\n#$ #  #\n#  @  #\n#######"


def test_dead_pairs_only_when_asked_and_only_with_the_player_outside():
    lv = parse_level(POCKET)
    assert Deadlocks(lv).check(lv.start) == ""  # the assignment's four rules do not see it
    dl = Deadlocks(lv, pairs=True)
    assert dl.check(lv.start) == "dead pair"
    box = lv.start.boxes[0]
    assert dl.check(lv.start, pushed=box) == "dead pair"
    cols = lv.shape[1]
    inside = State.make(1 * cols + 1, [1 * cols + 2, 2 * cols + 1])
    assert dl.check(inside) == ""  # the player inside the corner can push both out


def test_dead_pairs_on_a_level_with_one_box_never_fire():
    lv = parse_level("#####\n#@$.#\n#####")
    assert Deadlocks(lv, pairs=True).check(lv.start) == ""


def test_dead_squares_compiled_on_big_levels():
    walls = np.zeros((250, 250), dtype=bool)
    walls[0] = walls[-1] = walls[:, 0] = walls[:, -1] = True
    lv = Level.build(walls, goals=[(100, 100)], player=(1, 1), boxes=[(50, 50)])
    with jit_mode("auto"):
        before = pull_distances_kernel.calls_compiled
        dead = dead_squares(lv)
        assert pull_distances_kernel.calls_compiled == before + 1
    # in an open room the dead squares are exactly the cells along the walls
    inner = np.zeros_like(walls)
    inner[1:-1, 1:-1] = True
    border = inner.copy()
    border[2:-2, 2:-2] = False
    assert (dead == border).all()


@pytest.mark.parametrize(
    "text, rule, boxes",
    [
        ("#####\n#@  #\n#$ .#\n#####", "dead square", [(2, 1)]),
        ("######\n#@   #\n# $$ #\n# $$ #\n#....#\n######", "2x2 block", [(2, 2), (2, 3), (3, 2), (3, 3)]),
        (CHAIN, "freeze", [(2, 3)]),
        (POCKET, "dead pair", [(1, 2), (2, 1)]),
        ("######\n#@$ .#\n######", "", []),
    ],
)
def test_why_names_the_rule_and_its_boxes(text, rule, boxes):
    lv = parse_level(text)
    name, cells = Deadlocks(lv, pairs=True).why(lv.start)
    assert name == rule and [lv.rc(c) for c in cells] == boxes


def test_why_names_the_boxes_of_a_matching_that_fails():
    # two boxes that can each reach only the same goal (the other goal is behind a wall for a box);
    # the third box has a goal of its own, so it is not named
    lv = parse_level("#######\n#@$ $.#\n###.###\n# $ . #\n#######")
    assert not Deadlocks(lv).dead[list(lv.start.boxes)].any()  # each box alone could reach a goal
    name, cells = Deadlocks(lv).why(lv.start)
    assert name == "bipartite" and [lv.rc(c) for c in cells] == [(1, 2), (1, 4)]


def _boxes_and_goals() -> st.SearchStrategy[tuple[int, list[list[int]]]]:
    """A number of goals (1-6) and, for 1-6 boxes, the goals each can reach (maybe none)."""
    return st.integers(1, 6).flatmap(
        lambda ng: st.tuples(st.just(ng), st.lists(st.sets(st.integers(0, ng - 1)).map(sorted), min_size=1, max_size=6))
    )


@settings(max_examples=300, deadline=None)
@given(_boxes_and_goals())
def test_a_hall_violator_has_fewer_goals_than_boxes(case):
    """The boxes named for a failed matching reach fewer goals between them than they are; none are
    named when every box can have its own goal (checked by trying every choice of goals)."""
    n_goals, adj = case
    perfect = any(len(set(pick)) == len(adj) for pick in itertools.product(*adj))
    reach = np.zeros((n_goals, len(adj)), dtype=bool)  # box i on cell i
    for i, goals in enumerate(adj):
        reach[goals, i] = True
    short = _hall_violator(_reach_bits(reach), n_goals, tuple(range(len(adj))))
    if perfect:
        assert short == ()
    else:
        reached = set().union(*(adj[i] for i in short))
        assert short and len(reached) < len(short)
