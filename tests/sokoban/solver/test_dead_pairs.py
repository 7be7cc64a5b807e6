"""The dead pairs' table (``SearchOptions.dead_pairs``) and the start's pairs (``reach_pairs``): each
entry against the engine's brute force, and the searches that use them."""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from importlib.resources import files

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban import State, legal_pushes, pairs, parse_level, parse_levels, push, replay
from mazekit.sokoban.pairs import dead_pairs, pair_table
from mazekit.sokoban.rules import canonical
from mazekit.sokoban.solver import Search, SearchOptions, as_problem, search_level
from mazekit.sokoban.solver.kernels.state import C_NODES, C_PAIRS
from mazekit.sokoban.solver.rebuild import lurd_of
from tests.conftest import jit_mode
from tests.sokoban.conftest import brute_force_path, portfolio_with
from tests.strategies import sokoban_levels

#: Two boxes close the top-left corner; the player, outside, can never get in behind them.
POCKET = """\
#######
#.$  .#
#$ #  #
#  @  #
#######
"""

#: Walled levels 3-6 a side with 2-3 goals, a few inner walls: room for pockets and corridors.
pair_levels = sokoban_levels(sides=(3, 6), border=True, wall_percent=20, max_boxes=3, goals_apart=True)


def player_floor(prob, level):
    """The solver's cells of the level's floor (the cells the player can reach)."""
    cols = level.shape[1]
    return [prob.cell(*divmod(int(c), cols)) for c in np.flatnonzero(level.floor)]


def draw_position(data, cells, floor):
    """Two box cells drawn from ``cells`` and a player cell from ``floor``; None when they meet."""
    a, b = data.draw(st.lists(st.sampled_from(cells), min_size=2, max_size=2, unique=True))
    x = data.draw(st.sampled_from(floor))
    return None if x in (a, b) else (a, b, x)


@settings(max_examples=60, deadline=None)
@given(pair_levels, st.data())
def test_each_entry_matches_the_engines_brute_force(level, data):
    prob = as_problem(level)
    table = pair_table(prob)
    if len(prob.goals) < 2 or table is None:
        return
    alive, lidx, fidx = table
    floor = player_floor(prob, level)
    live = [x for x in floor if lidx[x] >= 0]
    if len(live) < 2:
        return
    for _ in range(8):
        if (drawn := draw_position(data, live, floor)) is None:
            continue
        a, b, x = drawn
        cell, boxes = prob.level_cell(x), (prob.level_cell(a), prob.level_cell(b))
        two = level.with_start(State.make(cell, boxes))
        path = brute_force_path(two)
        count = int(alive[lidx[a], lidx[b], fidx[x]])
        assert (count != 0) == (path is not None), (boxes, cell)
        if path is not None:  # 1 plus the fewest pushes
            assert count == 1 + min(len(path), 254), (boxes, cell)
        assert alive[lidx[a], lidx[b], fidx[x]] == alive[lidx[b], lidx[a], fidx[x]]


@pytest.mark.parametrize("reach", [False, True])
def test_the_compiled_table_is_the_plain_one(reach):
    prob = as_problem(parse_level(POCKET))
    with jit_mode("never"):
        plain = pair_table(prob, reach=reach)
    with jit_mode("always"):
        compiled = pair_table(prob, reach=reach)
    assert plain is not None and compiled is not None
    for p, c in zip(plain, compiled, strict=True):
        assert np.array_equal(p, c)


def test_a_dead_pair_at_the_start_stops_at_once():
    level = parse_level(POCKET)
    for optimal in (False, True):
        opts = SearchOptions(dead_pairs=True)
        res = search_level(level, time_limit=30, optimal=optimal, options=opts)
        assert res.solution is None and res.stats.stopped == "unsolvable"
        assert res.stats.expanded == 0
    # without the table the search finds it out too, by trying every push
    res = search_level(level, time_limit=30, options=SearchOptions())
    assert res.stats.stopped == "unsolvable" and res.stats.expanded > 0


def test_the_player_inside_the_pocket_is_no_deadlock():
    inside = parse_level(POCKET.replace("#.$", "#+$").replace("#  @  #", "#     #"))
    res = search_level(inside, time_limit=30, portfolio=portfolio_with(dead_pairs=True))
    assert res.solution is not None and replay(inside, res.solution.lurd).solved


def test_dead_pairs_are_pruned_during_a_search_and_the_solution_stands():
    # the shipped level 2 ("Around the pillar"): the plain best-first search stores 17 positions
    # before it finds the way; with the table, two pushes are pruned and 11 stored
    level = parse_levels(files("mazekit.examples").joinpath("sokoban/mazekit.xsb").read_bytes())[1]
    prob = as_problem(level)
    counts = []
    for on in (False, True):
        search = Search(prob, SearchOptions(fess=False, bidirectional=False, dead_pairs=on), False, 1 << 26)
        stopped, winner = search.run(time.perf_counter(), None, None, 0.05, 1000, 100_000)
        assert stopped == "solved" and winner is not None
        assert replay(level, lurd_of(prob, search.pushes(winner)[0])).solved
        counts.append((int(search.forward.ctr[C_NODES]), int(search.forward.ctr[C_PAIRS])))
    (plain, none), (pruned, fired) = counts
    assert none == 0 and fired > 0 and pruned < plain


def test_a_level_too_large_for_the_table_searches_without_it(monkeypatch):
    monkeypatch.setattr(pairs, "_PAIR_TABLES", OrderedDict())  # none kept from the other tests
    monkeypatch.setattr(pairs, "PAIR_TABLE_BYTES", 10)
    assert pair_table(as_problem(parse_level(POCKET))) is None
    res = search_level(parse_level(POCKET), time_limit=30, options=SearchOptions(dead_pairs=True))
    assert res.stats.stopped == "unsolvable" and res.stats.expanded > 0


@pytest.mark.parametrize("text", ["#####\n#@$.#\n#####", "######\n#@$$.#\n#  . #\n######"])
def test_one_live_cell_or_a_few_give_a_table_or_none(text):
    prob = as_problem(parse_level(text))
    table = pair_table(prob)
    live = int(((prob.floor != 0) & (prob.dead == 0)).sum())
    assert (table is None) == (live < 2)


# ------------------------------------------------------------------ the start's pairs (reach_pairs)


def brute_force_reach(level, start):
    """Every canonical position the engine's pushes lead to from ``start`` (breadth first)."""
    first = canonical(level, start)
    seen, todo = {first}, [first]
    while todo:
        s = todo.pop()
        for b, d in legal_pushes(level, s):
            t = canonical(level, push(level, s, b, d))
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


@settings(max_examples=60, deadline=None)
@given(pair_levels, st.data())
def test_each_start_pair_entry_matches_the_engines_brute_force(level, data):
    prob = as_problem(level)
    table = pair_table(prob, reach=True)
    if len(prob.boxes) < 2 or table is None:
        return
    seen, lidx, fidx = table
    cols = level.shape[1]
    floor = player_floor(prob, level)
    start = level.start
    # what two of the start's boxes alone lead to, the player on the start
    reach = set()
    for s, t in itertools.combinations(sorted(start.boxes), 2):
        reach |= brute_force_reach(level, State.make(start.player, (s, t)))
    live = [x for x in floor if lidx[x] >= 0]
    assert all(lidx[prob.cell(*divmod(b, cols))] >= 0 for b in start.boxes)
    if len(floor) < 2:  # the player walled in alone
        return
    for _ in range(8):
        if (drawn := draw_position(data, floor, floor)) is None:
            continue
        a, b, x = drawn
        boxes = (prob.level_cell(a), prob.level_cell(b))
        expected = canonical(level, State.make(prob.level_cell(x), boxes)) in reach
        if lidx[a] < 0 or lidx[b] < 0:  # off the cells a start box can be pushed to
            assert not expected, boxes
            continue
        assert a in live and b in live
        assert bool(seen[lidx[a], lidx[b], fidx[x]]) == expected, (boxes, prob.level_cell(x))
        assert seen[lidx[a], lidx[b], fidx[x]] == seen[lidx[b], lidx[a], fidx[x]]


def test_the_start_pairs_prune_pulls_and_the_solution_stands():
    # the shipped level 5, searched backward alone (the pulls from the goals to the start): with
    # the start's table, pulls are pruned, fewer positions stored, and the solution replays
    level = parse_levels(files("mazekit.examples").joinpath("sokoban/mazekit.xsb").read_bytes())[4]
    prob = as_problem(level)
    counts = []
    for on in (False, True):
        search = Search(prob, SearchOptions(fess=False, reach_pairs=on), False, 1 << 26)
        assert search.backward is not None
        search.active = [search.backward]
        stopped, winner = search.run(time.perf_counter(), None, None, 0.05, 1000, 100_000)
        assert stopped == "solved" and winner is search.backward
        assert replay(level, lurd_of(prob, search.pushes(winner)[0])).solved
        counts.append((int(search.backward.ctr[C_NODES]), int(search.backward.ctr[C_PAIRS])))
    (plain, none), (pruned, fired) = counts
    assert none == 0 and fired > 0 and pruned < plain


# ------------------------------------------------------------------------ in slices, in time


@pytest.mark.parametrize("reach", [False, True])
def test_the_table_built_in_small_slices_is_the_same(monkeypatch, reach):
    level = parse_levels(files("mazekit.examples").joinpath("sokoban/mazekit.xsb").read_bytes())[4]
    prob = as_problem(level)
    whole = pair_table(prob, reach=reach)
    monkeypatch.setattr(pairs, "PAIR_SLICE", 1)  # one state, or one row of pairs, a call
    sliced = pair_table(prob, reach=reach)
    assert whole is not None and sliced is not None
    for a, b in zip(whole, sliced, strict=True):
        assert np.array_equal(a, b)


def test_a_table_not_built_by_its_deadline_is_given_up(monkeypatch):
    monkeypatch.setattr(pairs, "_PAIR_TABLES", OrderedDict())  # none kept from the other tests
    prob = as_problem(parse_level(POCKET))
    assert pair_table(prob, deadline=time.perf_counter() - 1) is None
    assert pair_table(prob, reach=True, deadline=time.perf_counter() - 1) is None
    # the search then runs without it: the dead start is found by trying every push
    search = Search(prob, SearchOptions(dead_pairs=True), False, 1 << 26, deadline=time.perf_counter())
    assert search.forward.board.pairs.shape == (1, 1, 1)


def test_the_table_is_kept_for_the_level_and_shared():
    # a second search of the same level (a new problem, the same floor and goals) and the
    # playground's board use the table the first built
    level = parse_level(POCKET)
    first = dead_pairs(as_problem(level))
    again = dead_pairs(as_problem(level), deadline=time.perf_counter() - 1)  # kept: no build, no deadline
    assert first is not None and again is first


# ------------------------------------------------------------------------ the pairs' penalties


def test_the_kept_tables_are_held_to_a_size(monkeypatch):
    # a server fed large levels keeps at most _PAIR_TABLES_BYTES of tables, the newest always
    monkeypatch.setattr(pairs, "_PAIR_TABLES", OrderedDict())
    texts = [POCKET, "######\n#@$$.#\n#  . #\n######", "#######\n#@ $ .#\n#######"]
    levels = [parse_level(text) for text in texts]
    tables = [dead_pairs(as_problem(level)) for level in levels]
    assert all(t is not None for t in tables) and len(pairs._PAIR_TABLES) == 3
    sizes = [sum(a.nbytes for a in t) for t in tables if t is not None]
    monkeypatch.setattr(pairs, "_PAIR_TABLES", OrderedDict())
    monkeypatch.setattr(pairs, "_PAIR_TABLES_BYTES", sizes[1] + sizes[2])
    for level in levels:
        dead_pairs(as_problem(level))
    kept = list(pairs._PAIR_TABLES.values())
    assert len(kept) == 2 and sum(a.nbytes for t in kept for a in t) <= sizes[1] + sizes[2]
    monkeypatch.setattr(pairs, "_PAIR_TABLES_BYTES", 1)
    again = dead_pairs(as_problem(levels[0]))
    assert list(pairs._PAIR_TABLES.values()) == [again]  # too large for the cap, still the newest is kept
