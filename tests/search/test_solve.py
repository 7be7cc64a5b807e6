"""search.solve: every solver returns a valid route and its trace."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.generate import GENERATORS, PERFECT
from mazekit.search import SOLVERS, bfs, solve
from mazekit.search import _solve_kernels as SK
from tests.conftest import jit_mode
from tests.strategies import grids, points, seeds

SHORTEST = ("bfs", "astar", "dijkstra")


def _valid(path: np.ndarray, passable: np.ndarray, start: tuple[int, int], goal: tuple[int, int], conn: int) -> None:
    assert tuple(path[0]) == start and tuple(path[-1]) == goal
    assert passable[tuple(path[1:].T)].all()
    steps = np.abs(np.diff(path, axis=0))
    if conn == 4:
        assert (steps.sum(axis=1) == 1).all()
    else:
        assert (steps.max(axis=1) == 1).all()


@pytest.mark.parametrize("name", sorted(SOLVERS))
@settings(max_examples=60)
@given(grid=grids(9, opened=False), data=st.data(), conn=st.sampled_from([4, 8]))
def test_routes(name: str, grid: np.ndarray, data: st.DataObject, conn: int) -> None:
    start, goal = data.draw(points(grid.shape)), data.draw(points(grid.shape))
    grid = grid.copy()
    grid[start] = grid[goal] = True
    ref = bfs(grid, start, goal, connectivity=conn)  # type: ignore[arg-type]
    res = solve(grid, start, goal, algorithm=name, rng=data.draw(st.integers(0, 99)), connectivity=conn)  # type: ignore[arg-type]
    assert res.found == ref.found
    if not res.found:
        assert res.path.shape == (0, 2) and res.length == -1
        return
    _valid(res.path, grid, start, goal, conn)
    if name in SHORTEST:
        if conn == 4 or name == "bfs":
            assert res.length == ref.length
    else:
        assert res.length >= ref.length
    order = res.order
    assert order[start] == 0
    assert (order[tuple(res.path.T)] >= 0).all()
    assert res.visited == int((order >= 0).sum())


@pytest.mark.parametrize("gen", sorted(PERFECT))
def test_perfect_maze_route_is_unique(gen: str) -> None:
    maze = GENERATORS[gen](9, 11, rng=5)
    goal = (maze.shape[0] - 2, maze.shape[1] - 2)
    lengths = {name: solve(maze, (1, 1), goal, algorithm=name, rng=1).length for name in SOLVERS}
    assert len(set(lengths.values())) == 1


@settings(max_examples=30)
@given(grid=grids(9, opened=False), seed=seeds)
def test_random_dfs_compiled_equals_python(grid: np.ndarray, seed: int) -> None:
    grid = grid.copy()
    goal = (grid.shape[0] - 1, grid.shape[1] - 1)
    grid[0, 0] = grid[goal] = True
    with jit_mode("never"):
        a = solve(grid, (0, 0), goal, algorithm="dfs-random", rng=seed)
        ao, ad = a.order.copy(), a.distance.copy()
    with jit_mode("always"):
        b = solve(grid, (0, 0), goal, algorithm="dfs-random", rng=seed)
    assert np.array_equal(a.path, b.path) and np.array_equal(ao, b.order) and np.array_equal(ad, b.distance)


def test_random_dfs_depth_matches_path() -> None:
    maze = GENERATORS["prim"](10, 10, rng=2)
    res = solve(maze, (1, 1), (19, 19), algorithm="dfs-random", rng=3)
    assert res.distance[19, 19] == res.length


def test_big_input_runs_compiled() -> None:
    maze = GENERATORS["backtracker"](150, 150, rng=0)
    before = SK.random_dfs_kernel.calls_compiled
    with jit_mode("auto"):
        res = solve(maze, (1, 1), (299, 299), algorithm="dfs-random", rng=0)
    assert res.found and SK.random_dfs_kernel.calls_compiled == before + 1


def test_errors() -> None:
    with pytest.raises(ValueError, match="unknown algorithm"):
        solve([[1]], (0, 0), (0, 0), algorithm="teleport")
    with pytest.raises(ValueError, match="goal"):
        solve([[1]], (0, 0), (3, 0))
    with pytest.raises(ValueError, match="connectivity"):
        solve([[1]], (0, 0), (0, 0), connectivity=6)  # type: ignore[arg-type]
