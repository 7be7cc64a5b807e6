"""One entry point for the maze solvers: :func:`solve` and the :data:`SOLVERS` registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point, as_passable, check_point
from . import _solve_kernels as SK
from ._common import Connectivity, SearchResult, check_connectivity, make_result, prepare
from .astar import astar, greedy
from .bfs import bfs
from .dfs import dfs
from .dijkstra import dijkstra

__all__ = ["SOLVERS", "random_dfs", "solve"]

RNG = np.random.Generator | int | None


def random_dfs(
    passable: ArrayLike,
    start: Point,
    goal: Point,
    *,
    rng: RNG = None,
    connectivity: Connectivity = 4,
) -> SearchResult:
    """Depth-first backtracking with a random neighbour order (the maze article's solver).

    Make the start current; while the goal is not reached: if the current cell
    has passable unvisited neighbours, push it and step to a random one;
    otherwise pop the stack. No recursion.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell may be entered.
    start, goal : (r, c)
        The two ends.
    rng : numpy Generator, int or None
        The neighbour order's randomness (a seed gives the same search).
    connectivity : {4, 8}
        Neighbourhood.

    Returns
    -------
    SearchResult
        ``path``: the stack when the goal was reached (a route, not a shortest
        one, except in perfect mazes where the route is unique); ``order`` the
        visiting order (cells on dead branches included); ``distance`` the
        depth in the search tree.

    Notes
    -----
    O(R*C) time and memory. In open areas it wanders: the article notes it is
    inefficient there but fine in perfect mazes.

    Examples
    --------
    >>> grid = [[1, 1, 1], [0, 0, 1], [1, 1, 1]]
    >>> random_dfs(grid, (0, 0), (2, 0), rng=1).path.tolist()
    [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 1], [2, 0]]
    """
    pg = prepare(passable, connectivity)
    s = pg.index(check_point(start, pg.shape, name="start"))
    g = pg.index(check_point(goal, pg.shape, name="goal"))
    gen = np.random.default_rng(rng)
    rand = gen.random(pg.cells + 1)
    order = np.full(pg.size, -1, dtype=np.int32)
    pdir = np.full(pg.size, -1, dtype=np.int8)
    stack = np.empty(pg.cells + 1, dtype=np.int64)
    count, end = SK.random_dfs_kernel.pick(pg.cells)(pg.grid, pg.offsets, s, g, rand, order, pdir, stack)

    return make_result(
        pg,
        end=int(end),
        pdir=pdir,
        cost=None,
        visited=int(count),
        algorithm="dfs-random",
        order=lambda: pg.unpad(order),
        distance=lambda: pg.tree_depth(order, pdir),
    )


def _bfs(p: NDArray[np.bool_], s: Point, g: Point, rng: RNG, conn: Any) -> SearchResult:
    return bfs(p, s, g, connectivity=conn)


def _dfs(p: NDArray[np.bool_], s: Point, g: Point, rng: RNG, conn: Any) -> SearchResult:
    return dfs(p, s, g, connectivity=conn)


def _random_dfs(p: NDArray[np.bool_], s: Point, g: Point, rng: RNG, conn: Any) -> SearchResult:
    return random_dfs(p, s, g, rng=rng, connectivity=conn)


def _greedy(p: NDArray[np.bool_], s: Point, g: Point, rng: RNG, conn: Any) -> SearchResult:
    return greedy(p, s, g, connectivity=conn)


def _astar(p: NDArray[np.bool_], s: Point, g: Point, rng: RNG, conn: Any) -> SearchResult:
    return astar(p, s, g, connectivity=conn)


def _dijkstra(p: NDArray[np.bool_], s: Point, g: Point, rng: RNG, conn: Any) -> SearchResult:
    return dijkstra(np.where(p, 1.0, np.inf), s, g, connectivity=conn)


#: Name -> solver ``f(passable, start, goal, rng, connectivity) -> SearchResult``;
#: read by :func:`solve`, the CLI and the tests.
SOLVERS: dict[str, Callable[[NDArray[np.bool_], Point, Point, RNG, Any], SearchResult]] = {
    "dfs-random": _random_dfs,
    "dfs": _dfs,
    "greedy": _greedy,
    "astar": _astar,
    "bfs": _bfs,
    "dijkstra": _dijkstra,
}


def solve(
    passable: ArrayLike,
    start: Point,
    goal: Point,
    *,
    algorithm: str = "astar",
    rng: RNG = None,
    connectivity: Connectivity = 4,
) -> SearchResult:
    """Find a route from ``start`` to ``goal`` with the solver called ``algorithm``.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell may be entered (a maze from :mod:`mazekit.generate`).
    start, goal : (r, c)
        The two ends.
    algorithm : str
        A key of :data:`SOLVERS`: ``"dfs-random"`` (the article's depth-first
        backtracking, random neighbour order), ``"dfs"`` (fixed order up, down,
        left, right), ``"greedy"`` (best-first on H alone: the article's first
        "A*"), ``"astar"`` (F = G + H), ``"bfs"``, ``"dijkstra"`` (unit costs).
    rng : numpy Generator, int or None
        Randomness for ``"dfs-random"`` (ignored by the others).
    connectivity : {4, 8}
        Neighbourhood.

    Returns
    -------
    SearchResult
        The route (``path``, ``length``) and the trace (``order``: the step
        at which each cell was visited, -1 never; ``parent``; ``distance``).
        No route is an answer: ``found=False`` and an empty path.

    Notes
    -----
    BFS, Dijkstra and A* return shortest routes; greedy and both DFS return
    some route (in a perfect maze there is only one, so every solver returns
    it and they differ only in how many cells they visit).

    Examples
    --------
    >>> from mazekit.generate import backtracker
    >>> maze = backtracker(8, 8, rng=1)
    >>> routes = {name: solve(maze, (1, 1), (15, 15), algorithm=name, rng=0).length for name in SOLVERS}
    >>> len(set(routes.values()))
    1
    """
    try:
        solver = SOLVERS[algorithm]
    except KeyError:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(SOLVERS)}") from None
    conn = check_connectivity(connectivity)
    arr = as_passable(passable)
    s = check_point(start, arr.shape, name="start")
    g = check_point(goal, arr.shape, name="goal")
    return solver(arr, s, g, rng, conn)
