"""The solution optimiser: shorter or equal, always a solution, push-optimal where a whole A* fits."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mazekit.sokoban import (
    Level,
    State,
    generate_level,
    legal_pushes,
    parse_level,
    push,
    pushes_to_lurd,
    replay,
    step,
    walk,
)
from mazekit.sokoban.solver import optimise, solve
from mazekit.sokoban.solver.optimise import pushes_of
from tests.conftest import jit_mode
from tests.sokoban.conftest import brute_force_path

ROOM = "#######\n#@ $ .#\n#     #\n#######"


def detour_solution(level: Level, rng: random.Random, pushes: int) -> str | None:
    """A solution that first makes up to ``pushes`` random legal pushes (each leaving the level
    solvable), then solves from there in the fewest pushes; None when the level cannot be solved."""
    state, made = level.start, []
    rest = brute_force_path(level, state)
    for _ in range(pushes):
        moves = legal_pushes(level, state)
        rng.shuffle(moves)
        for b, d in moves:
            after = push(level, state, b, d)
            then = brute_force_path(level, after)
            if then is not None:
                made.append((b, d))
                state, rest = after, then
                break
        else:
            break
    if rest is None:
        return None
    return pushes_to_lurd(level, level.start, made + rest)


@st.composite
def generated_rooms(draw: st.DrawFn) -> Level:
    """Small rooms of the Boxoban-style generator (solvable by construction), 1 to 3 boxes."""
    size = draw(st.integers(6, 8))
    try:
        gen = generate_level(rows=size, cols=size, boxes=draw(st.integers(1, 3)), seed=draw(st.integers(0, 10**6)))
    except ValueError:  # a room too tight for its boxes
        assume(False)
    return gen.level


def test_the_rooms_detour_is_cut():
    level = parse_level(ROOM)
    r = optimise(level, "rRdrruLdlluRR", time_limit=None)
    assert r.lurd == "rRR" and (r.moves, r.pushes, r.before_moves, r.before_pushes) == (3, 2, 13, 4)
    assert r.stopped == "done" and r.improvements >= 1


def test_an_optimal_solution_comes_back_unchanged_with_its_spaces_dropped():
    level = parse_level(ROOM)
    r = optimise(level, "r R R", time_limit=None)
    assert r.lurd == "rRR" and r.improvements == 0 and r.stopped == "done"


@settings(max_examples=30, deadline=None)
@given(generated_rooms(), st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_counting_pushes_first_reaches_the_fewest_pushes(level, seed, detour):
    # the last window of the last sweep is the whole solution, an A* from the start:
    # with a cap that fits these levels, the result has the brute force's push count
    best = brute_force_path(level)
    assert best is not None
    lurd = detour_solution(level, random.Random(seed), detour)
    assert lurd is not None
    r = optimise(level, lurd, metric="pushes", time_limit=None, expansions=1_000_000)
    check = replay(level, r.lurd)
    assert check.solved and not check.error
    assert (r.moves, r.pushes) == (check.moves, check.pushes)
    assert r.pushes == len(best)
    before = replay(level, lurd)
    assert (r.pushes, r.moves) <= (before.pushes, before.moves)


@settings(max_examples=30, deadline=None)
@given(generated_rooms(), st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_counting_moves_first_never_lengthens(level, seed, detour):
    lurd = detour_solution(level, random.Random(seed), detour)
    assert lurd is not None
    r = optimise(level, lurd, time_limit=None, expansions=50_000)
    check = replay(level, r.lurd)
    assert check.solved and (r.moves, r.pushes) == (check.moves, check.pushes)
    before = replay(level, lurd)
    assert (r.moves, r.pushes) <= (before.moves, before.pushes)
    assert (r.before_moves, r.before_pushes) == (before.moves, before.pushes)


def test_a_solver_solution_gets_no_longer():
    level = parse_level("#######\n#.@ # #\n#$* $ #\n#   $ #\n# ..  #\n#  *  #\n#######")
    sol = solve(level, time_limit=20)
    assert sol is not None
    for metric in ("moves", "pushes"):
        r = optimise(level, sol.lurd, metric=metric, time_limit=None)
        assert replay(level, r.lurd).solved
        key = (r.moves, r.pushes) if metric == "moves" else (r.pushes, r.moves)
        was = (sol.moves, sol.pushes) if metric == "moves" else (sol.pushes, sol.moves)
        assert key <= was


def test_stopping_early_keeps_a_solution():
    level = parse_level(ROOM)
    r = optimise(level, "rRdrruLdlluRR", progress=lambda status: True)
    assert r.stopped == "interrupted" and r.searches == 0 and r.lurd == "rRdrruLdlluRR"
    r = optimise(level, "rRdrruLdlluRR", time_limit=0.0)
    assert r.stopped == "time" and replay(level, r.lurd).solved


def test_progress_sees_each_window():
    level = parse_level(ROOM)
    seen = []
    optimise(level, "rRdrruLdlluRR", time_limit=None, window=1, progress=seen.append)
    assert seen[0].pushes == 4 and seen[0].window == 1 and seen[0].at == 0 and seen[0].of == 4
    assert all(0 <= s.at < s.of for s in seen)


def test_progress_reports_the_best_so_far_and_the_sweep():
    level = parse_level(ROOM)
    seen = []
    r = optimise(level, "rRdrruLdlluRR", time_limit=None, window=1, progress=seen.append)
    assert seen[0] == (4, 1, 0, 4, 13, 1, 0, 0.0, False)  # the input: 13 moves, 4 pushes; sweep 1
    last = seen[-1]
    assert (last.moves, last.pushes, last.improvements) == (r.moves, r.pushes, r.improvements) == (3, 2, 1)
    assert last.sweep == 2  # the second sweep finds nothing more: the end (no time limit)
    assert [s.sweep for s in seen] == sorted(s.sweep for s in seen)


def test_progress_is_heard_inside_a_window_search():
    # a wandering solution of a 20x20 room of 10 boxes: some windows' A* take many slices
    g = generate_level(rows=20, cols=20, boxes=10, seed=1, pulls=1500)
    seen = []

    def stop_inside(status):
        seen.append(status)
        return len(seen) > 1 and seen[-2][:4] == status[:4]  # a second call in the same window

    r = optimise(g.level, g.solution, time_limit=60, progress=stop_inside)
    assert r.stopped == "interrupted" and replay(g.level, r.lurd).solved
    windows = {(s.sweep, s.window, s.at, s.pushes) for s in seen}
    assert r.searches <= len(windows) - 1  # the window it stopped in was not finished


@pytest.mark.parametrize(
    "lurd, message",
    [
        ("rRx", "move 3 'x': not one of u d l r U D L R"),
        ("rr", "move 2 'r': is a push (write 'R')"),
        ("rR", "the moves do not solve the level (0 of 1 boxes end on goals)"),
    ],
)
def test_a_non_solution_is_refused_in_one_line(lurd, message):
    with pytest.raises(ValueError, match=rf"^{message}$".replace("(", r"\(").replace(")", r"\)")):
        optimise(parse_level(ROOM), lurd)


@pytest.mark.parametrize("kwargs", [{"window": 0}, {"expansions": 0}, {"metric": "steps"}])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        optimise(parse_level(ROOM), "rRR", **kwargs)


def test_pushes_of_names_each_push():
    level = parse_level(ROOM)
    assert pushes_of(level, "rRdrruLdlluRR") == [(level.cell((1, 3)), 3), (level.cell((1, 4)), 2)] + [
        (level.cell((1, 3)), 3),
        (level.cell((1, 4)), 3),
    ]


def fewest_moves(level: Level, start: State, goal: State, stay: set[int], any_player: bool) -> int | None:
    """Breadth-first over moves with the engine's ``step``, the boxes in ``stay`` never pushed."""
    seen = {start}
    todo = deque([(start, 0)])
    while todo:
        s, n = todo.popleft()
        if s.boxes == goal.boxes and (any_player or s.player == goal.player):
            return n
        for d in range(4):
            res = step(level, s, d)
            if res.state is None or res.state in seen:
                continue
            if res.pushed and int(level.nbr[s.player, d]) in stay:
                continue
            seen.add(res.state)
            todo.append((res.state, n + 1))
    return None


@pytest.mark.parametrize("mode", ["never", "always"])
@settings(max_examples=25, deadline=None)
@given(generated_rooms(), st.integers(0, 2**32 - 1), st.integers(1, 10), st.data())
def test_the_vicinity_search_finds_the_fewest_moves(mode, level, seed, detour, data):
    from mazekit.sokoban.solver.optimise import floor_codes, states_along, vicinity_search

    lurd = detour_solution(level, random.Random(seed), detour)
    assert lurd is not None
    states = states_along(level, pushes_of(level, lurd))
    n = len(states) - 1
    i = data.draw(st.integers(0, n - 1))
    k = data.draw(st.integers(i + 1, n))
    final = data.draw(st.booleans()) if k == n else False
    stay = set(states[i].boxes).intersection(*(set(s.boxes) for s in states[i + 1 : k + 1]))
    with jit_mode(mode):
        pushes, capped, _ = vicinity_search(level, floor_codes(level), states, i, k, final, 200_000)
    assert not capped and pushes is not None  # the window's own moves are one way there
    walked = pushes_to_lurd(level, states[i], pushes)
    end = replay(level, walked, state=states[i]).state
    assert end.boxes == states[k].boxes
    walk_on = "" if final else walk(level, end, states[k].player)
    assert walk_on is not None
    expected = fewest_moves(level, states[i], states[k], stay, final)
    assert len(walked) + len(walk_on) == expected


def test_a_position_that_comes_back_is_searched_again_in_a_longer_window():
    # a box pushed up and down 13 times (Hypothesis found it): the start position comes back
    # at push 4 of the once-shortened solution, and that one-push window's search must not
    # stand for the five-push window from the start
    level = parse_level("######\n###  #\n###+ #\n###$ #\n###  #\n######")
    lurd = "rddlU" + "ruulDrddlU" * 6
    r = optimise(level, lurd, metric="pushes", time_limit=None, expansions=1_000_000)
    assert (r.lurd, r.pushes, r.before_pushes) == ("rddlU", 1, 13)
