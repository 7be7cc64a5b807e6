"""mazekit.search against simple reference implementations, compiled and not."""

from __future__ import annotations

import heapq
import math
from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mazekit import _jit
from mazekit.search import _kernels as K
from mazekit.search import (
    astar,
    bfs,
    bfs_distances,
    dfs,
    dijkstra,
    flood,
    flood_order,
    greedy,
    label,
)
from tests.conftest import jit_mode
from tests.strategies import cost_grids, grid_and_points, grids, points

STEPS = [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]


# ------------------------------------------------------------------ references


def ref_bfs(p, sources, goal=None, targets=None, conn=4):
    """Textbook BFS: FIFO, UDLR, first parent wins. Returns dist, parent dict, end."""
    rows, cols = p.shape
    dist = -np.ones(p.shape, dtype=np.int64)
    parent = {}
    q = deque()
    for s in sources:
        if dist[s] < 0:
            dist[s] = 0
            q.append(s)
            if s == goal or (targets is not None and targets[s]):
                return dist, parent, s
    while q:
        u = q.popleft()
        for dr, dc in STEPS[:conn]:
            v = (u[0] + dr, u[1] + dc)
            if 0 <= v[0] < rows and 0 <= v[1] < cols and p[v] and dist[v] < 0:
                dist[v] = dist[u] + 1
                parent[v] = u
                q.append(v)
                if v == goal or (targets is not None and targets[v]):
                    return dist, parent, v
    return dist, parent, None


def ref_path(parent, end):
    path = [end]
    while path[-1] in parent:
        path.append(parent[path[-1]])
    return path[::-1]


def ref_dfs(p, start, targets, conn=4):
    """The recursive DFS of the forest article (recursion is fine on tiny grids)."""
    rows, cols = p.shape
    seen = {start: 0}
    parent = {}
    found = []

    def visit(u):
        if targets[u]:
            found.append(u)
            return True
        for dr, dc in STEPS[:conn]:
            v = (u[0] + dr, u[1] + dc)
            if 0 <= v[0] < rows and 0 <= v[1] < cols and p[v] and v not in seen:
                seen[v] = len(seen)
                parent[v] = u
                if visit(v):
                    return True
        return False

    visit(start)
    return seen, parent, (found[0] if found else None)


def ref_dijkstra(cost, start, conn=4, diagonal=math.sqrt(2)):  # noqa: B008 - a constant, computed once
    rows, cols = cost.shape
    d = np.full(cost.shape, np.inf)
    d[start] = 0.0
    h = [(0.0, start)]
    done = set()
    while h:
        du, u = heapq.heappop(h)
        if u in done:
            continue
        done.add(u)
        for k, (dr, dc) in enumerate(STEPS[:conn]):
            v = (u[0] + dr, u[1] + dc)
            if 0 <= v[0] < rows and 0 <= v[1] < cols and np.isfinite(cost[v]):
                nd = du + cost[v] * (1.0 if k < 4 else diagonal)
                if nd < d[v]:
                    d[v] = nd
                    heapq.heappush(h, (nd, v))
    return d


def ref_components(p, conn=4):
    """Labels numbered in reading order of each component's first cell."""
    labels = np.zeros(p.shape, dtype=np.int64)
    n = 0
    for r in range(p.shape[0]):
        for c in range(p.shape[1]):
            if p[r, c] and labels[r, c] == 0:
                n += 1
                dist, _, _ = ref_bfs(p, [(r, c)], conn=conn)
                labels[(dist >= 0) & p] = n
                labels[r, c] = n
    return labels, n


def assert_valid_path(p, path, start, end, conn=4, start_free=False):
    path = [tuple(x) for x in np.asarray(path).tolist()]
    assert path[0] == tuple(start) and path[-1] == tuple(end)
    for a, b in zip(path, path[1:], strict=False):
        assert (b[0] - a[0], b[1] - a[1]) in STEPS[:conn]
        assert p[b]
    assert len(set(path)) == len(path)


MODES = ["never", "always"]


# ------------------------------------------------------------------------ BFS


@pytest.mark.parametrize("mode", MODES)
@given(case=grid_and_points(), conn=st.sampled_from([4, 8]))
def test_bfs_matches_textbook_bfs(mode, case, conn):
    p, s, g = case
    with jit_mode(mode):
        res = bfs(p, s, g, connectivity=conn)
    dist, parent, end = ref_bfs(p, [s], goal=g, conn=conn)
    assert res.found == (end is not None)
    if end is None:
        assert res.path.shape == (0, 2) and res.length == -1 and math.isinf(res.cost)
    else:
        assert res.path.tolist() == [list(x) for x in ref_path(parent, end)]
        assert res.length == dist[g]


@pytest.mark.parametrize("mode", MODES)
@given(p=grids(), conn=st.sampled_from([4, 8]), data=st.data())
def test_bfs_full_field_and_multi_source(mode, p, conn, data):
    rows, cols = p.shape
    sources = data.draw(st.lists(points(p.shape), min_size=1, max_size=4))
    with jit_mode(mode):
        res = bfs(p, sources, connectivity=conn)
        fast = bfs_distances(p, sources, connectivity=conn)
    dist, parent, _ = ref_bfs(p, sources, conn=conn)
    assert np.array_equal(res.distance, dist)
    assert np.array_equal(fast, dist)
    # trace: order is a permutation of the reached cells, parents are neighbours
    reached = dist >= 0
    assert sorted(res.order[reached].tolist()) == list(range(int(reached.sum())))
    assert (res.order[~reached] == -1).all()
    for (r, c), (pr, pc) in parent.items():
        assert res.parent[r, c] == pr * cols + pc


@pytest.mark.parametrize("mode", MODES)
@given(p=grids(), conn=st.sampled_from([4, 8]), data=st.data())
def test_bfs_to_targets_reaches_a_nearest_target(mode, p, conn, data):
    s = data.draw(points(p.shape))
    targets = data.draw(arrays(np.bool_, p.shape, elements=st.booleans()))
    with jit_mode(mode):
        res = bfs(p, s, targets=targets, connectivity=conn)
    dist, parent, end = ref_bfs(p, [s], targets=targets, conn=conn)
    assert res.found == (end is not None)
    if end is not None:
        assert res.goal == end
        assert res.path.tolist() == [list(x) for x in ref_path(parent, end)]


def test_bfs_article_example():
    maze = ["1001000", "0010100", "0000000", "1101000"]
    p = np.array([[ch == "0" for ch in row] for row in maze])
    res = bfs(p, (0, 2), (1, 5))
    want = [(1, 3), (1, 2), (2, 2), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (2, 6)]
    assert [(r + 1, c + 1) for r, c in res.path.tolist()] == want


def test_bfs_edge_cases():
    p = np.array([[True, False, True]])
    assert bfs(p, (0, 0), (0, 0)).path.tolist() == [[0, 0]]
    assert not bfs(p, (0, 0), (0, 2)).found
    assert bfs(p, (0, 0), (0, 2)).visited == 1
    with pytest.raises(ValueError, match=r"goal \(0, 3\) is outside a 1x3 grid"):
        bfs(p, (0, 0), (0, 3))
    with pytest.raises(ValueError, match="connectivity must be 4 or 8"):
        bfs(p, (0, 0), (0, 2), connectivity=6)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2-D"):
        bfs([1, 1], (0, 0))
    with pytest.raises(ValueError, match="targets must have the grid's shape"):
        bfs(p, (0, 0), targets=np.ones((2, 2), bool))


# ------------------------------------------------------------------------ DFS


@pytest.mark.parametrize("mode", MODES)
@given(case=grid_and_points(max_side=10), conn=st.sampled_from([4, 8]), border=st.booleans())
def test_dfs_matches_recursive_dfs(mode, case, conn, border):
    p, s, g = case
    if border:
        targets = np.zeros(p.shape, bool)
        targets[0, :] = targets[-1, :] = targets[:, 0] = targets[:, -1] = True
    else:
        targets = np.zeros(p.shape, bool)
        targets[g] = True
    with jit_mode(mode):
        res = dfs(p, s, targets="border" if border else None, goal=None if border else g, connectivity=conn)
    seen, parent, end = ref_dfs(p, s, targets, conn)
    assert res.found == (end is not None)
    assert res.visited == len(seen)
    for cell, k in seen.items():
        assert res.order[cell] == k
    if end is not None:
        assert res.path.tolist() == [list(x) for x in ref_path(parent, end)]
        assert res.distance[end] == len(res.path) - 1


def test_dfs_forest_article_and_deep_grid():
    forest = ["XXXXX", "XEOOX", "XXXOX", "XOOOX", "XOXXX"]
    p = np.array([[ch == "O" for ch in row] for row in forest])
    res = dfs(p, (1, 1), targets="border")
    assert res.path.tolist() == [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3], [3, 2], [3, 1], [4, 1]]
    # a serpentine corridor far deeper than Python's recursion limit
    n = 301
    q = np.zeros((n, n), bool)
    q[1:-1:2, 1:-1] = True
    q[2:-1:4, -2] = True
    q[4:-1:4, 1] = True
    res = dfs(q, (1, 1), goal=(n - 2, n - 2))
    assert res.found and res.length > 40000


# ------------------------------------------------------ A*, greedy, Dijkstra


@pytest.mark.parametrize("mode", MODES)
@given(case=grid_and_points(), conn=st.sampled_from([4, 8]))
def test_astar_length_equals_bfs_and_greedy_is_valid(mode, case, conn):
    p, s, g = case
    p = p.copy()
    p[s] = True
    with jit_mode(mode):
        a = astar(p, s, g, connectivity=conn, diagonal=1.0)
        b = bfs(p, s, g, connectivity=conn)
        gr = greedy(p, s, g, connectivity=conn)
    assert a.found == b.found == gr.found
    if b.found:
        assert a.length == b.length
        assert_valid_path(p, a.path, s, g, conn)
        assert_valid_path(p, gr.path, s, g, conn)
        assert gr.length >= b.length
        assert (a.distance[p & (a.order >= 0)] >= 0).all()


@pytest.mark.parametrize("mode", MODES)
@given(case=cost_grids(), conn=st.sampled_from([4, 8]), diagonal=st.sampled_from([1.0, math.sqrt(2), 2.5]))
def test_dijkstra_and_astar_costs_match_reference(mode, case, conn, diagonal):
    cost, s, g = case
    ref = ref_dijkstra(cost, s, conn, diagonal)
    with jit_mode(mode):
        full = dijkstra(cost, s, connectivity=conn, diagonal=diagonal)
        pair = dijkstra(cost, s, g, connectivity=conn, diagonal=diagonal)
        passable = np.isfinite(cost)
        passable[s] = True
        a = astar(passable, s, g, cost=np.where(np.isfinite(cost), cost, 1.0), connectivity=conn, diagonal=diagonal)
    assert np.allclose(full.distance, ref)  # inf where unreachable on both sides
    assert pair.found == np.isfinite(ref[g])
    if pair.found:
        assert pair.cost == pytest.approx(ref[g])
        assert a.found and a.cost == pytest.approx(ref[g])
        # the path's own cost adds up to the reported cost
        steps = pair.path.tolist()
        total = sum(
            cost[tuple(b)] * (1.0 if abs(b[0] - a_[0]) + abs(b[1] - a_[1]) == 1 else diagonal)
            for a_, b in zip(steps, steps[1:], strict=False)
        )
        assert total == pytest.approx(pair.cost)


def test_astar_heuristics_and_errors():
    p = np.ones((20, 20), bool)
    p[5:15, 10] = False
    for h in ["manhattan", "octile", "euclidean", "chebyshev", "zero"]:
        res = astar(p, (10, 0), (10, 19), connectivity=4, heuristic=h)  # type: ignore[arg-type]
        assert res.length == bfs(p, (10, 0), (10, 19)).length
    assert astar(p, (10, 0), (10, 19), connectivity=8).cost == pytest.approx(
        dijkstra(np.where(p, 1.0, np.inf), (10, 0), (10, 19), connectivity=8).cost
    )
    with pytest.raises(ValueError, match="heuristic must be one of"):
        astar(p, (0, 0), (1, 1), heuristic="nope", connectivity=8)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=">= 0"):
        dijkstra([[1.0, -1.0]], (0, 0))
    # a start on a wall is bad input, as a start outside the grid is; a wall goal is unreachable
    q = np.array([[False, True, True]])
    for guided in (astar, greedy):
        with pytest.raises(ValueError, match=r"start \(0, 0\) is a wall"):
            guided(q, (0, 0), (0, 2))
        with pytest.raises(ValueError, match=r"start \(0, 0\) is a wall"):
            guided(q, (0, 0), (0, 2), connectivity=8)
    assert not astar(q, (0, 2), (0, 0)).found


# ------------------------------------------------------- flood and labels


@pytest.mark.parametrize("mode", MODES)
@given(case=grid_and_points(), conn=st.sampled_from([4, 8]))
def test_flood_matches_bfs_region(mode, case, conn):
    p, s, _ = case
    with jit_mode(mode):
        region = flood(p, s, connectivity=conn)
        order = flood_order(p, s, connectivity=conn)
    if not p[s]:
        assert not region.any() and (order == -1).all()
        return
    dist, _, _ = ref_bfs(p, [s], conn=conn)
    assert np.array_equal(region, dist >= 0)
    assert np.array_equal(order >= 0, region)


def ref_open(p, stop, seed, conn):
    """Minesweeper's opening, written recursively as the article does."""
    opened = np.zeros(p.shape, bool)
    rows, cols = p.shape

    def go(u):
        opened[u] = True
        if stop[u]:
            return
        for dr, dc in STEPS[:conn]:
            v = (u[0] + dr, u[1] + dc)
            if 0 <= v[0] < rows and 0 <= v[1] < cols and p[v] and not opened[v]:
                go(v)

    if p[seed]:
        go(seed)
    return opened


@pytest.mark.parametrize("mode", MODES)
@given(case=grid_and_points(max_side=9), conn=st.sampled_from([4, 8]), data=st.data())
def test_flood_with_stop_cells(mode, case, conn, data):
    p, s, _ = case
    stop = data.draw(arrays(np.bool_, p.shape, elements=st.booleans()))
    with jit_mode(mode):
        region = flood(p, s, connectivity=conn, stop=stop)
        order = flood_order(p, s, connectivity=conn, stop=stop)
    want = ref_open(p, stop, s, conn)
    assert np.array_equal(region, want)
    assert np.array_equal(order >= 0, want)


@pytest.mark.parametrize("mode", MODES)
@given(p=grids(max_side=14), conn=st.sampled_from([4, 8]))
def test_label_matches_reference(mode, p, conn):
    with jit_mode(mode):
        labels, n = label(p, connectivity=conn)
    want, m = ref_components(p, conn)
    assert n == m
    assert np.array_equal(labels, want)


def test_minesweeper_style_opening_of_a_big_board():
    rng = np.random.default_rng(5)
    mines = rng.random((1000, 1000)) < 0.01
    mines[500, 500] = False
    from mazekit.search import label as _label  # noqa: F401  (import check)

    padded = np.pad(mines, 1).astype(np.int8)
    density = sum(padded[1 + dr : 1001 + dr, 1 + dc : 1001 + dc] for dr, dc in STEPS)
    region = flood(~mines, (500, 500), connectivity=8, stop=density > 0)
    assert not (region & mines).any()
    assert region[500, 500]


# ------------------------------------------------- the compiled path runs


def test_large_inputs_run_compiled():
    """In auto mode a big grid must go through numba, not the Python fallback."""
    with jit_mode("auto"):
        p = np.ones((400, 400), bool)
        before = K.bfs_kernel.calls_compiled
        res = bfs(p, (0, 0), (399, 399))
        assert K.bfs_kernel.calls_compiled == before + 1
        assert K.bfs_kernel.is_compiled
        assert res.length == 798
        compiled = K.bfs_kernel.compiled()
        assert type(compiled).__name__ == "CPUDispatcher"
        for kern, call in [
            (K.astar_unit4_kernel, lambda: astar(p, (0, 0), (399, 399))),
            (K.best_first_kernel, lambda: dijkstra(np.ones((400, 400)), (0, 0), (399, 399))),
            (K.dfs_kernel, lambda: dfs(p, (0, 0), (399, 399))),
            (K.fill_kernel, lambda: flood(p, (0, 0))),
            (K.bfs_distances_kernel, lambda: bfs_distances(p, [(0, 0), (5, 5)])),
            (K.flood_kernel, lambda: flood(p, (0, 0), stop=np.zeros_like(p))),
            (K.label_kernel, lambda: label(p)),
            (K.bfs4_distances_kernel, lambda: bfs_distances(p, (0, 0))),
        ]:
            before = kern.calls_compiled
            call()
            assert kern.calls_compiled == before + 1, kern


def test_small_inputs_stay_interpreted_in_a_fresh_process():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from mazekit.search import bfs\n"
        "r = bfs([[1, 1], [0, 1]], (0, 0), (1, 1))\n"
        "print(r.length, 'numba' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**__import__("os").environ, "MAZEKIT_JIT": "auto"},
    )
    assert out.stdout.split() == ["2", "False"]


@settings(max_examples=20)
@given(case=grid_and_points(max_side=6))
def test_kernel_mode_switch_is_reversible(case):
    p, s, g = case
    assert _jit.get_mode() in ("auto", "always", "never")
    with jit_mode("never"):
        a = bfs(p, s, g).path.tolist()
    with jit_mode("always"):
        b = bfs(p, s, g).path.tolist()
    assert a == b
