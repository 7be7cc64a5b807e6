"""The engine: states, steps, pushes, the player's region, replay, undo/redo, kernels."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban import (
    DIRECTIONS,
    Game,
    Level,
    State,
    canonical,
    legal_pushes,
    parse_level,
    push,
    pushes_to_lurd,
    reachable,
    replay,
    step,
    walk,
)
from mazekit.sokoban import _kernels as K
from tests.conftest import jit_mode
from tests.strategies import sokoban_levels

ROOM = parse_level(
    """\
#######
#     #
# $$. #
#@ .  #
#######
"""
)


def test_states_are_values():
    a = State.make(3, [9, 4])
    b = State(3, (4, 9))
    assert a == b and hash(a) == hash(b) and a.boxes == (4, 9)
    with pytest.raises(AttributeError):
        a.player = 5  # type: ignore[misc]
    assert len({a, b, State.make(3, (4, 10))}) == 2


def test_level_arrays_are_read_only():
    with pytest.raises(ValueError):
        ROOM.walls[0, 0] = False
    assert ROOM.nbr.shape == (ROOM.size, 4) and ROOM.nbr.dtype == np.int32


def test_neighbour_table():
    lv = ROOM
    p = lv.start.player  # (3, 1)
    assert lv.rc(p) == (3, 1)
    up, down, left, right = lv.nbr[p].tolist()
    assert lv.rc(up) == (2, 1) and down == -1 and left == -1 and lv.rc(right) == (3, 2)


def test_level_build_validates():
    with pytest.raises(ValueError, match="wall"):
        Level.build([[1, 1], [1, 0]], goals=[], player=(0, 0), boxes=[])
    with pytest.raises(ValueError, match="box cell"):
        Level.build([[0, 0], [0, 0]], goals=[(0, 1)], player=(0, 0), boxes=[(0, 0)])


def test_step_moves_pushes_and_blocks():
    lv = parse_level("########\n#@ $$ .#\n#     .#\n########")
    s = lv.start
    r = step(lv, s, "r")
    assert r.state is not None and not r.pushed and lv.rc(r.state.player) == (1, 2)
    r2 = step(lv, r.state, "r")
    assert r2.state is None and r2.reason == "box against a box"
    assert step(lv, s, "u").reason == "wall"
    assert step(lv, s, "l").reason == "wall"
    lv2 = parse_level("#####\n#@$#\n#.  #\n#####".replace("#@$#", "#@$##"))
    assert step(lv2, lv2.start, 3).reason == "box against a wall"


def test_step_at_the_map_edge():
    lv = Level.build(np.zeros((2, 3)), goals=[(1, 2)], player=(0, 0), boxes=[(0, 1)])
    assert step(lv, lv.start, "u").reason == "wall"  # off the map
    r = step(lv, lv.start, "r")
    assert r.pushed and lv.rc(r.state.boxes[0]) == (0, 2)
    assert step(lv, r.state, "r").reason == "box against a wall"


def test_reachable_and_canonical():
    reach = reachable(ROOM, ROOM.start).reshape(ROOM.shape)
    assert reach[1, 1] and reach[1, 5] and reach[3, 5] and not reach[2, 2]
    c = canonical(ROOM, ROOM.start)
    assert ROOM.rc(c.player) == (1, 1) and c.boxes == ROOM.start.boxes
    moved = step(ROOM, ROOM.start, "u").state
    assert canonical(ROOM, moved) == c


def test_legal_pushes_and_push():
    pushes = legal_pushes(ROOM, ROOM.start)
    assert all(b in ROOM.start.boxes for b, _ in pushes)
    b = ROOM.cell((2, 2))
    assert (b, 1) in pushes  # down, from (1, 2)
    assert (b, 3) not in pushes  # right: the other box is in front
    after = push(ROOM, ROOM.start, b, 1)
    assert ROOM.rc(after.player) == (2, 2) and ROOM.cell((3, 2)) in after.boxes


def test_walk_and_pushes_to_lurd():
    assert walk(ROOM, ROOM.start, ROOM.cell((1, 5))) is not None
    assert walk(ROOM, ROOM.start, ROOM.start.boxes[0]) is None
    assert walk(ROOM, ROOM.start, ROOM.start.player) == ""
    lurd = pushes_to_lurd(ROOM, ROOM.start, [(ROOM.cell((2, 3)), 1)])
    r = replay(ROOM, lurd)
    assert lurd.endswith("D") and r.error == "" and r.pushes == 1 and ROOM.cell((3, 3)) in r.state.boxes
    with pytest.raises(ValueError, match="not possible"):
        pushes_to_lurd(ROOM, ROOM.start, [(ROOM.cell((2, 3)), 3)])


def test_replay_errors_name_the_move():
    lv = parse_level("######\n#@ $.#\n######")
    assert replay(lv, "rR").solved
    assert replay(lv, "r rR".replace("rR", "R")).solved  # whitespace is skipped
    r = replay(lv, "rRR")
    assert r.error == "move 3 'R': box against a wall" and r.error_index == 2 and r.moves == 2 and r.solved
    assert replay(lv, "rr").error == "move 2 'r': is a push (write 'R')"
    assert replay(lv, "R").error == "move 1 'R': pushes nothing (write 'r')"
    assert replay(lv, "rr", strict=False).solved
    assert replay(lv, "x").error == "move 1 'x': not one of u d l r U D L R"
    assert replay(lv, "").moves == 0


def test_game_undo_redo_restart():
    g = Game(ROOM)
    assert all(g.move(ch) for ch in "uurD")  # the case of the argument does not matter
    assert g.lurd == "uurD" and g.moves == 4 and g.pushes == 1
    assert ROOM.cell((3, 2)) in g.state.boxes
    assert not g.move("d")  # the box is against the wall now
    assert g.undo() and g.undo() and g.lurd == "uu"
    assert g.redo() and g.lurd == "uur"
    g.restart()
    assert g.state == ROOM.start and g.moves == 0
    while g.redo():
        pass
    assert g.lurd == "uurD"
    # a different new move after undo drops the redo history; the same move keeps it
    g.undo()
    g.undo()
    g.move("r")
    assert g.redo() and g.lurd == "uurD"
    g.undo()
    g.move("l")
    assert not g.redo()


def test_game_solves():
    g = Game(parse_level("######\n#@ $.#\n######"))
    for ch in "rr":
        g.move(ch)
    assert g.solved and g.lurd == "rR"


# ------------------------------------------------------------ properties


@settings(max_examples=40)
@given(sokoban_levels(), st.text(alphabet="udlr", max_size=40))
def test_random_walks_replay_and_undo(level, moves):
    g = Game(level)
    history = [level.start]
    for ch in moves:
        if g.move(ch):
            history.append(g.state)
            # the box set is sorted and the player never stands on a box or a wall
            assert list(g.state.boxes) == sorted(set(g.state.boxes))
            assert g.state.player not in g.state.boxes and not level.walls.flat[g.state.player]
    r = replay(level, g.lurd)
    assert r.error == "" and r.state == g.state and r.moves == g.moves and r.pushes == g.pushes
    for expected in reversed(history[:-1]):
        assert g.undo() and g.state == expected
    assert not g.undo()
    for expected in history[1:]:
        assert g.redo() and g.state == expected


@settings(max_examples=30)
@given(sokoban_levels())
def test_kernels_compiled_equal_python(level):
    n = level.size
    blocked = np.zeros(n, dtype=np.uint8)
    blocked[list(level.start.boxes)] = 1
    results = []
    for mode in ("never", "always"):
        with jit_mode(mode):
            seen = np.zeros(n, dtype=np.uint8)
            k = K.reach_kernel.pick(n)(level.nbr, blocked, np.int32(level.start.player), seen, np.empty(n, np.int32))
            pdir = np.full(n, -1, np.int8)
            ok = K.walk_kernel.pick(n)(
                level.nbr,
                blocked,
                np.int32(level.start.player),
                np.int32(level.goal_cells[0]),
                pdir,
                np.empty(n, np.int32),
            )
            results.append((int(k), seen.tolist(), bool(ok), pdir.tolist()))
    assert results[0] == results[1]


def test_big_levels_run_compiled():
    rows, cols = 300, 300
    walls = np.zeros((rows, cols), dtype=bool)
    walls[0, :] = walls[-1, :] = walls[:, 0] = walls[:, -1] = True
    lv = Level.build(walls, goals=[(5, 5)], player=(1, 1), boxes=[(10, 10)])
    before = K.reach_kernel.calls_compiled
    reach = reachable(lv, lv.start)
    assert K.reach_kernel.calls_compiled == before + 1
    assert reach.sum() == (rows - 2) * (cols - 2) - 1
    assert len(walk(lv, lv.start, lv.cell((298, 298))) or "") == 2 * 297


def test_directions_constant():
    assert DIRECTIONS == "udlr"
