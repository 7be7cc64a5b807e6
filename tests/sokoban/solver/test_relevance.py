"""Relevance cuts: the influence table, the kernel's reading of a node's recent pushes, the cut rule
in the search, and the verdicts and solutions with the cuts on."""

from __future__ import annotations

import heapq

import numpy as np
import pytest
from hypothesis import given, settings

from mazekit.sokoban import parse_level, replay
from mazekit.sokoban.problem import Problem
from mazekit.sokoban.solver import Relevance, Search, SearchOptions, as_problem, search_level
from mazekit.sokoban.solver.kernels.relevance import relevance_kernel
from mazekit.sokoban.solver.kernels.state import C_CUTS, C_NODES, PUSH_MACRO_SHIFT, PUSH_MOVE_MASK
from mazekit.sokoban.solver.prepare import influence_table
from tests.sokoban.solver.test_solver import GOAL_CORRIDOR, SMALL, jit_mode
from tests.strategies import sokoban_rooms

#: A level whose boxes stand far apart: a search with tight cuts switches between them rarely.
APART = "\n".join(
    [
        "###########",
        "#.   #   .#",
        "# $  #  $ #",
        "#    @    #",
        "# $  #  $ #",
        "#.   #   .#",
        "###########",
    ]
)


def influence_reference(prob: Problem) -> np.ndarray:
    """The influence table by Dijkstra over the floor, each cell's cost from its floor
    neighbours written out: 0 on a corridor, 2 with three or four, else 1."""
    n = prob.height * prob.width
    floor, off = prob.floor, [int(d) for d in prob.off]

    def cost(y: int) -> int:
        near = [floor[y + d] != 0 for d in off]
        if sum(near) == 2 and ((near[0] and near[1]) or (near[2] and near[3])):
            return 0
        return 2 if sum(near) >= 3 else 1

    table = np.full((n, n), 255, dtype=np.int64)
    for x in np.flatnonzero(floor):
        dist = {int(x): 0}
        todo = [(0, int(x))]
        while todo:
            dx, u = heapq.heappop(todo)
            if dx > dist[u]:
                continue
            for d in off:
                y = u + d
                if floor[y] and dx + cost(y) < dist.get(y, 1 << 30):
                    dist[y] = dx + cost(y)
                    heapq.heappush(todo, (dist[y], y))
        for y, dy in dist.items():
            table[x, y] = min(dy, 255)
    return table


@settings(max_examples=60, deadline=None)
@given(sokoban_rooms)
def test_the_influence_table_matches_dijkstra(level):
    prob = as_problem(level)
    want = influence_reference(prob)
    assert np.array_equal(influence_table(prob), want)
    with jit_mode("never"):
        assert np.array_equal(influence_table(prob), want)


def test_the_influence_table_is_symmetric_on_a_level_of_corridors_and_rooms():
    prob = as_problem(parse_level(APART))
    table = influence_table(prob).astype(np.int64)
    cells = np.flatnonzero(prob.floor)
    sub = table[np.ix_(cells, cells)]
    # entering costs of the two ends differ, so a walk and its reverse differ by at most 2
    assert np.abs(sub - sub.T).max() <= 2
    assert (np.diag(sub) == 0).all()


def cut_search(
    level, rel: Relevance | None, *, bidirectional: bool = False, expansions: int = 3000, back: Relevance | None = None
):
    """A search in fixed slices (a run independent of the clock): the search, why it stopped and the
    direction that solved it (``back``: the backward direction's cuts)."""
    opts = SearchOptions(
        move_weight=1000, pack_advisor=400, bidirectional=bidirectional, relevance=rel, backward_relevance=back
    )
    search = Search(as_problem(level), opts, False, 1 << 26)
    stopped, winner = search.run(0.0, None, None, 0.05, 64, expansions)
    return search, stopped, winner


def recent_pushes(arr, k: int, rel: Relevance, influence: np.ndarray) -> tuple[int, int]:
    """What :func:`~relevance_kernel` reads of node ``k``, from sets of box cells: the cell the
    last push left its box on, and the distant pushes among the ``window - 1`` that led to ``k``."""
    dests: list[int] = []
    origins: list[int] = []
    j = k
    while len(dests) < rel.window and arr.pparent[j] >= 0:
        up = int(arr.pparent[j])
        (dest,) = set(arr.pboxes[j].tolist()) - set(arr.pboxes[up].tolist())
        dests.append(dest)
        origins.append((int(arr.ppush[j]) & PUSH_MOVE_MASK) >> 2)
        j = up
    distant = sum(influence[dests[t + 1], origins[t]] > rel.reach for t in range(len(dests) - 1))
    return (dests[0] if dests else -1), int(distant)


def test_the_kernel_reads_a_nodes_recent_pushes_as_a_reference_does():
    rel = Relevance(window=4, distant=1, reach=3)
    search, _, _ = cut_search(parse_level(APART), rel)
    arr, n = search.forward.arr, int(search.forward.ctr[C_NODES])
    influence = search.forward.board.influence
    assert n > 100
    for k in range(n):
        want = recent_pushes(arr, k, rel, influence)
        for kernel in (relevance_kernel, relevance_kernel.py_func):
            got = kernel(arr.pboxes, arr.pparent, arr.ppush, influence, k, rel.window, rel.reach)
            assert tuple(int(x) for x in got) == want


def rule_checked(direction, rel: Relevance) -> int:
    """How many nodes of ``direction`` stored by a distant plain push (a pull backward) were
    checked against the rule: their parent had fewer distant pushes than allowed."""
    arr, n = direction.arr, int(direction.ctr[C_NODES])
    influence = direction.board.influence
    checked = 0
    for node in range(n):
        k = int(arr.pparent[node])
        if k < 0 or (int(arr.ppush[node]) >> PUSH_MACRO_SHIFT) & 1:
            continue  # a root, or an advisor's or a goal macro's move (never cut)
        last, distant = recent_pushes(arr, k, rel, influence)
        source = (int(arr.ppush[node]) & PUSH_MOVE_MASK) >> 2
        if last >= 0 and influence[last, source] > rel.reach:
            assert distant < rel.distant
            checked += 1
    return checked


def test_no_stored_node_breaks_the_rule_and_pushes_are_cut():
    """Every node stored by a plain push respects the rule: were its push distant, its parent had
    fewer distant pushes than allowed; and the rule cut pushes (none without it)."""
    rel = Relevance(window=4, distant=1, reach=3)
    search, _, _ = cut_search(parse_level(APART), rel)
    assert rule_checked(search.forward, rel) > 0
    assert search.forward.ctr[C_CUTS] > 0
    plain, _, _ = cut_search(parse_level(APART), None)
    assert plain.forward.ctr[C_CUTS] == 0 and plain.forward.board.influence.shape == (1, 1)


def test_a_forward_search_that_cuts_every_way_is_no_proof():
    """Cut so tightly that the forward search runs out of positions: that is not "unsolvable"
    (the level is solvable); without the cuts the same search solves it."""
    level = parse_level(APART)
    search, stopped, winner = cut_search(level, Relevance(window=8, distant=0, reach=0), expansions=10**6)
    assert search.forward.ctr[C_CUTS] > 0
    assert winner is None and stopped == "time"
    _, stopped, winner = cut_search(level, None, expansions=10**6)
    assert stopped == "solved"


def test_backward_cuts_follow_the_rule_on_pulls_alone():
    """With ``backward_relevance`` the backward direction's pulls keep the rule, and cut some. The
    forward direction is cut out at once (no switch allowed at all), so that the backward one,
    going on alone, does the work; it solves the level."""
    rel = Relevance(window=4, distant=1, reach=3)
    level = parse_level(APART)
    search, stopped, winner = cut_search(level, Relevance(8, 0, 0), bidirectional=True, expansions=4000, back=rel)
    assert search.backward is not None and stopped == "solved" and winner is search.backward
    assert search.backward.ctr[C_CUTS] > 0
    assert rule_checked(search.backward, rel) > 0
    plain, _, _ = cut_search(level, None, bidirectional=True, expansions=4000)
    assert plain.backward is not None and plain.backward.board.influence.shape == (1, 1)


def test_both_directions_cut_out_is_no_proof():
    """Cut so tightly that both directions run out of positions: not "unsolvable", the search
    stops as on time; the backward cuts alone leave the forward search to solve it."""
    level = parse_level(APART)
    tight = Relevance(window=8, distant=0, reach=0)
    search, stopped, winner = cut_search(level, tight, bidirectional=True, expansions=10**6, back=tight)
    assert search.backward is not None and search.backward.ctr[C_CUTS] > 0
    assert winner is None and stopped == "time"
    _, stopped, _ = cut_search(level, None, bidirectional=True, expansions=10**6, back=tight)
    assert stopped == "solved"


@pytest.mark.parametrize("text", [*SMALL, "\n".join(GOAL_CORRIDOR), APART])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_relevance_cuts_keep_solutions_valid(text, bidirectional):
    """A solution found with the cuts replays to a win; with the backward search beside the
    forward one a solution is always found (the backward search has no cuts)."""
    level = parse_level(text)
    opts = SearchOptions(move_weight=1000, pack_advisor=400, bidirectional=bidirectional, relevance=Relevance(4, 1, 3))
    res = search_level(level, options=opts, time_limit=20)
    if res.solution is None:  # the cuts may leave the forward search no way on; the backward one is whole
        assert not bidirectional and res.stats.stopped == "time"
        return
    r = replay(level, res.solution.lurd)
    assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


@pytest.mark.parametrize("text", [*SMALL, "\n".join(GOAL_CORRIDOR), APART])
def test_backward_cuts_keep_solutions_valid(text):
    """A solution found with cuts both ways (the pulls reversed) replays to a win."""
    level = parse_level(text)
    rel = Relevance(4, 1, 3)
    opts = SearchOptions(move_weight=1000, pack_advisor=400, relevance=rel, backward_relevance=rel)
    res = search_level(level, options=opts, time_limit=20)
    if res.solution is None:
        assert res.stats.stopped == "time"  # both cut out: no proof either way
        return
    r = replay(level, res.solution.lurd)
    assert r.solved and (r.moves, r.pushes) == (res.solution.moves, res.solution.pushes)


def test_compiled_and_python_searches_with_cuts_agree():
    from mazekit.sokoban.solver import run_search

    prob = as_problem(parse_level(SMALL[4]))
    opts = SearchOptions(move_weight=1000, relevance=Relevance(4, 1, 2))
    runs = []
    for mode in ("never", "always"):
        with jit_mode(mode):
            runs.append(run_search(prob, opts, time_limit=None, fixed_slice=64))
    a, b = runs
    assert a.solution is not None and b.solution is not None and a.solution.lurd == b.solution.lurd
    assert (a.stats.nodes, a.stats.expanded) == (b.stats.nodes, b.stats.expanded)


def test_optimal_search_has_no_cuts():
    opts = SearchOptions(relevance=Relevance(), backward_relevance=Relevance()).for_optimal()
    assert opts.relevance is None and opts.backward_relevance is None


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"window": 1}, ValueError, "window must be 2 or more"),
        ({"window": 4, "distant": 4}, ValueError, "distant must be less than the window"),
        ({"reach": 255}, ValueError, "reach must be at most 254"),
        ({"reach": -1}, TypeError, "reach must be an int >= 0"),
        ({"window": 4.0}, TypeError, "window must be an int"),
        ({"distant": True}, TypeError, "distant must be an int"),
    ],
)
def test_bad_relevance_settings_fail_where_they_are_written(kwargs, error, match):
    with pytest.raises(error, match=match):
        Relevance(**kwargs)


def test_relevance_must_be_a_relevance():
    with pytest.raises(TypeError, match="must be a Relevance or None"):
        SearchOptions(relevance=(4, 1, 3))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="backward_relevance must be a Relevance or None"):
        SearchOptions(backward_relevance="6,1,5")  # type: ignore[arg-type]
