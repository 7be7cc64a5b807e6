"""mazekit.search.teach: the step-by-step copies visit what the compiled searches visit, in order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit import search
from mazekit.search.teach import ALGORITHMS, MAX_CELLS, PSEUDOCODE, teach
from tests.conftest import jit_mode
from tests.strategies import grids, points, seeds


def compiled(p, s, g, algorithm, conn, *, cost=None, heuristic=None, seed=0):
    """The search the playground runs for these options (mazekit.web.api.search.run_search)."""
    if algorithm == "dijkstra" and cost is not None:
        return search.dijkstra(np.where(p, cost, np.inf), s, g, connectivity=conn)
    if algorithm in ("astar", "greedy") and (cost is not None or heuristic is not None):
        guided = search.astar if algorithm == "astar" else search.greedy
        return guided(p, s, g, cost=cost, connectivity=conn, heuristic=heuristic)
    return search.solve(p, s, g, algorithm=algorithm, connectivity=conn, rng=seed)


def check_same(p, s, g, algorithm, conn, **kw):
    p = p.copy()
    p[s] = True
    with jit_mode("always"):
        res = compiled(p, s, g, algorithm, conn, **kw)
    walk = teach(
        p,
        s,
        g,
        algorithm=algorithm,
        connectivity=conn,
        rng=kw.get("seed", 0),
        **{k: v for k, v in kw.items() if k != "seed"},
    )
    assert walk.found == res.found
    np.testing.assert_array_equal(walk.order, res.order)
    visited = res.order >= 0
    np.testing.assert_array_equal(walk.parent[visited], res.parent[visited])
    np.testing.assert_array_equal(walk.path, res.path)
    # the steps list the cells in visiting order, each once
    ats = [step.at for step in walk.steps]
    assert all(walk.order[step.cell] == step.at for step in walk.steps)
    if algorithm == "bfs":  # a BFS numbers cells as they are added; the goal ends it when added
        assert ats[:-1] == list(range(len(ats) - 1)) and ats[-1] == res.visited - 1
    else:
        assert ats == list(range(res.visited))
    if algorithm in ("astar", "dijkstra"):
        np.testing.assert_allclose(walk.g[visited], res.distance[visited])
    return walk


@settings(max_examples=150, deadline=None)
@given(st.data(), grids(20), st.sampled_from(ALGORITHMS), st.sampled_from([4, 8]), seeds)
def test_teach_visits_as_the_compiled_search(data, p, algorithm, conn, seed):
    s, g = data.draw(points(p.shape)), data.draw(points(p.shape))
    check_same(p, s, g, algorithm, conn, seed=seed)


@settings(max_examples=20, deadline=None)
@given(st.data(), grids(60), st.sampled_from(ALGORITHMS), st.sampled_from([4, 8]), seeds)
def test_teach_up_to_the_largest_grids_it_takes(data, p, algorithm, conn, seed):
    """Up to 60 x 60 (MAX_CELLS): fewer examples, each as large as the panes go."""
    s, g = data.draw(points(p.shape)), data.draw(points(p.shape))
    check_same(p, s, g, algorithm, conn, seed=seed)


@settings(max_examples=100, deadline=None)
@given(
    st.data(),
    grids(16),
    st.sampled_from(["astar", "greedy", "dijkstra"]),
    st.sampled_from([4, 8]),
    st.sampled_from([None, "manhattan", "octile", "euclidean", "chebyshev", "zero"]),
)
def test_teach_with_weights_and_heuristics(data, p, algorithm, conn, heuristic):
    s, g = data.draw(points(p.shape)), data.draw(points(p.shape))
    weighted = data.draw(st.booleans())
    cost = None
    if weighted:
        cost = np.asarray(data.draw(st.lists(st.integers(1, 9), min_size=p.size, max_size=p.size)), float)
        cost = cost.reshape(p.shape)
    if algorithm == "dijkstra":
        heuristic = None
    check_same(p, s, g, algorithm, conn, cost=cost, heuristic=heuristic)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_teach_at_the_largest_size(algorithm):
    rng = np.random.default_rng(5)
    p = rng.random((60, 60)) > 0.3
    walk = check_same(p, (0, 0), (59, 59), algorithm, 4, seed=3)
    for step in walk.steps:
        assert 0 <= step.line < len(PSEUDOCODE[algorithm])
        assert step.line in step.lines
        assert len(step.first) <= 8


def test_the_steps_say_what_happened():
    walk = teach([[1, 1, 1], [0, 0, 1]], (0, 0), (1, 2), algorithm="astar")
    first = walk.steps[0]
    assert first.text == "take (0, 0), f = 3 = g 0 + h 3; add (0, 1); (1, 0) is a wall"
    assert first.added == ((0, 1),) and first.walls == ((1, 0),)
    assert [e.cell for e in first.first] == [(0, 1)] and first.first[0].f == 3
    assert walk.steps[-1].goal and "the route has 3 steps" in walk.steps[-1].text
    stuck = teach([[1, 0, 1]], (0, 0), (0, 2), algorithm="dfs")
    assert stuck.steps[-1].text.endswith("nothing is left to take, no route")
    assert not stuck.found and stuck.path.shape == (0, 2)


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="start \\(0, 1\\) is a wall"):
        teach([[1, 0]], (0, 1), (0, 0))
    with pytest.raises(ValueError, match="at most 3600 cells"):
        teach(np.ones((61, 60), bool), (0, 0), (1, 1))
    with pytest.raises(ValueError, match="unknown algorithm"):
        teach([[1, 1]], (0, 0), (0, 1), algorithm="bogo")
    assert MAX_CELLS == 3600
