"""Relays: the backward direction started again, aimed at a forward position (``SearchOptions.relays``)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings

from mazekit.sokoban import parse_level, replay
from mazekit.sokoban.solver import (
    DEFAULT_MEMORY,
    PORTFOLIO,
    RELAYS,
    Relays,
    Search,
    SearchOptions,
    as_problem,
    search_level,
)
from mazekit.sokoban.solver.kernels.state import C_EXPANDED, C_NODES
from mazekit.sokoban.solver.rebuild import lurd_of
from tests.sokoban.solver.test_solver import SMALL
from tests.strategies import sokoban_rooms

#: Room enough for a few hundred positions each way, so that a relay has a pool to draw from.
ROOM = "\n".join(
    [
        "#########",
        "#.  #  .#",
        "# $   $ #",
        "#   @   #",
        "# $   $ #",
        "#.  #  .#",
        "#########",
    ]
)

#: A level that takes a few hundred expansions each way: a relay can come before the meet.
LONGER = "\n".join(
    [
        "  #####",
        "###   #",
        "#.@$  #",
        "### $.#",
        "#.##$ #",
        "# # . ##",
        "#$ *$$.#",
        "#   .  #",
        "########",
    ]
)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"lead": 1.0}, ValueError),
        ({"lead": -0.1}, ValueError),
        ({"lead": True}, ValueError),
        ({"each": 0}, ValueError),
        ({"each": math.inf}, ValueError),
        ({"seed": -1}, TypeError),
        ({"seed": 1.5}, TypeError),
    ],
)
def test_bad_relays_fail_where_written(kwargs, error):
    with pytest.raises(error, match="Relays"):
        Relays(**kwargs)


def test_relays_are_typed_and_off_for_a_star():
    with pytest.raises(TypeError, match="relays"):
        SearchOptions(relays=(0.3, 1.0))  # type: ignore[arg-type]
    assert SearchOptions(relays=Relays()).for_optimal().relays is None


@pytest.mark.parametrize("seed", range(3))
def test_relays_with_the_backward_feature_space_and_the_start_s_pairs(seed):
    """With ``backward_fess`` a relay's cells count the boxes on its position's cells; the start's
    pairs still prune (every position reached from the relay's is reached from the start).
    Solutions stay whole."""
    level = parse_level(LONGER)
    opts = replace(PORTFOLIO[0], backward_fess=True, reach_pairs=True, relays=Relays(seed=seed))
    search = Search(as_problem(level), opts, False, DEFAULT_MEMORY)
    first = search.backward
    assert first is not None
    search.active = [search.forward]  # forward positions to aim at, the backward direction not run
    assert search.run(0.0, None, None, 0.05, 16, 100)[0] == "time"
    search.relay()
    bwd = search.backward
    assert bwd is not None and bwd.board.garea.max() < 0
    assert bwd.board.pairs is first.board.pairs or np.array_equal(bwd.board.pairs, first.board.pairs)
    on = bwd.board.goals
    assert all(bwd.board.dist[j, int(c)] == 0 for j, c in enumerate(on))
    assert set(np.flatnonzero(bwd.board.goalm).tolist()) == set(on.tolist())
    stop, winner = search.run(0.0, None, None, 0.05, 16, 50_000)
    assert stop == "solved" and winner is not None
    assert replay(level, lurd_of(search.prob, search.pushes(winner)[0])).solved


def _searched(text: str, opts: SearchOptions, expansions: int) -> Search:
    prob = as_problem(parse_level(text))
    search = Search(prob, opts, False, DEFAULT_MEMORY)
    search.run(0.0, None, None, 0.05, 16, expansions)
    return search


def test_a_relay_aims_the_backward_direction_at_a_stored_forward_position():
    opts = replace(PORTFOLIO[0], relays=Relays(seed=3))
    search = _searched(ROOM, opts, 200)
    fwd, old = search.forward, search.backward
    assert old is not None
    before = (int(old.ctr[C_NODES]), int(old.ctr[C_EXPANDED]))
    total = search.stats(0.0, "time").nodes
    search.relay()
    bwd = search.backward
    assert bwd is not None and bwd is not old
    assert search.directions == [fwd, bwd] and bwd in search.active and old not in search.active
    assert search.retired == before and search.stats(0.0, "time").nodes >= total
    # its bound's targets (the zeros of its distances) are a stored forward position's boxes,
    # one at least as deep as the median stored one
    n = int(fwd.ctr[C_NODES])
    g = fwd.arr.pg[:n]
    hits = [
        k
        for k in range(n)
        if g[k] >= np.median(g) and all(bwd.board.dist[j, int(c)] == 0 for j, c in enumerate(fwd.arr.pboxes[k]))
    ]
    assert hits, "the backward bound aims at no stored forward position"
    k = hits[0]
    assert bwd.settings.goal_player == min(
        search.prob.region({int(b) for b in fwd.arr.pboxes[k]}, int(fwd.arr.pplayer[k]))
    )
    # the same seed draws the same position from the same pool
    again = _searched(ROOM, opts, 200)
    again.relay()
    assert np.array_equal(again.backward.board.dist, bwd.board.dist)


@pytest.mark.parametrize("seed", range(6))
def test_a_meet_after_relays_is_a_whole_solution(seed):
    """The relayed backward direction meets forward positions, each rooted at the start: the
    solution put together from the meet replays to a win from the level's start."""
    level = parse_level(LONGER)
    opts = replace(PORTFOLIO[0], relays=Relays(seed=seed))
    search = Search(as_problem(level), opts, False, DEFAULT_MEMORY)
    assert search.run(0.0, None, None, 0.05, 16, 100)[0] == "time"
    for _ in range(3):
        search.relay()
    stop, winner = search.run(0.0, None, None, 0.05, 16, 50_000)
    assert stop == "solved" and winner is not None
    pushes, _ = search.pushes(winner)
    assert replay(level, lurd_of(search.prob, pushes)).solved


@pytest.mark.parametrize("text", SMALL + [ROOM, LONGER])
def test_searches_with_relays_replay_to_a_win(text):
    level = parse_level(text)
    opts = replace(PORTFOLIO[0], relays=Relays(lead=0.0, each=0.001))
    res = search_level(level, time_limit=5.0, options=opts)
    assert res.solution is not None
    assert replay(level, res.solution.lurd).solved


@settings(max_examples=25, deadline=None)
@given(sokoban_rooms)
def test_relays_never_call_a_solvable_room_unsolvable(level):
    """A relay's backward direction aims at a forward position, not the start: its running out
    proves nothing. Against the same search without relays, on small rooms: relays never call a
    room it solves unsolvable, and their solutions replay to a win."""
    plain = search_level(level, time_limit=2.0, options=PORTFOLIO[0])
    opts = replace(PORTFOLIO[0], relays=Relays(lead=0.0, each=0.001))
    res = search_level(level, time_limit=2.0, options=opts)
    if plain.solution is not None:
        assert res.stats.stopped != "unsolvable"
    if res.solution is not None:
        assert replay(level, res.solution.lurd).solved


def test_the_portfolio_s_fourth_search_relays_from_a_deep_forward_search():
    relay = PORTFOLIO[3]
    assert relay.relays == RELAYS and relay.stall is None
    assert relay.backward_share < 0.5 < relay.relays.share
    assert replace(relay, relays=None, backward_share=0.5, stall=PORTFOLIO[0].stall, time_share=1.0) == PORTFOLIO[0]
    level = parse_level(LONGER)
    res = search_level(level, time_limit=5.0, options=relay)
    assert res.solution is not None and replay(level, res.solution.lurd).solved
