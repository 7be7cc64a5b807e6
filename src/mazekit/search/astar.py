"""A* and greedy best-first search on a grid."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point, as_passable, check_point
from . import _kernels as K
from ._best import Heuristic, cost_grid, run
from ._common import Connectivity, SearchResult, flat_grid, flat_points

__all__ = ["astar", "greedy"]


def astar(
    passable: ArrayLike,
    start: Point,
    goal: Point,
    *,
    cost: ArrayLike | None = None,
    connectivity: Connectivity = 4,
    heuristic: Heuristic | None = None,
    diagonal: float = math.sqrt(2),
) -> SearchResult:
    """A* search: a shortest route, guided towards the goal (F = G + H).

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell may be entered.
    start, goal : (r, c)
        The two ends.
    cost : array_like of float, shape (R, C), optional
        The cost of entering each cell (>= 0; inf = wall). Default: 1 everywhere.
    connectivity : {4, 8}
        4: up, down, left, right. 8: also diagonals.
    heuristic : {"manhattan", "octile", "euclidean", "chebyshev", "zero"}, optional
        H, scaled by the cheapest cell cost. Default: the tightest admissible
        one: Manhattan for 4-connectivity, octile for 8 (Chebyshev when
        ``diagonal=1``). Only admissible heuristics guarantee a shortest route
        (Manhattan with 8-connectivity is not).
    diagonal : float
        A diagonal step costs ``diagonal`` times the cost of the cell entered.

    Returns
    -------
    SearchResult
        ``path``, ``length``, ``cost``; trace: ``order`` (closing order),
        ``parent``, ``distance`` (G of every cell reached).

    Raises
    ------
    ValueError
        A start or goal outside the grid, or a start on a wall (a goal on a wall is
        an answer: no route).

    Notes
    -----
    Ties between equal F go to the larger G (the cell further along), then to
    the cell opened first. On unit-cost 4-connected grids with the Manhattan
    heuristic F grows by 0 or 2 along a step, so the open list is two stacks
    instead of a heap (O(1) per cell); ties there go to the cell opened last,
    and a cell opens its vertical neighbours last when more rows than columns
    remain to the goal (horizontal ones otherwise), so the search dives along
    the diagonal, where open grids have the most shortest routes. That search
    also skips the padded copy and the O(R*C) set-up: its cost follows the
    cells it closes. With a consistent heuristic every cell is closed at most
    once: O(N log N) time with the heap, O(N) with the stacks, O(N) memory.

    Examples
    --------
    >>> grid = [[1, 1, 1, 1],
    ...         [0, 0, 1, 0],
    ...         [1, 1, 1, 1]]
    >>> res = astar(grid, (0, 0), (2, 0))
    >>> res.length, res.found
    (6, True)
    >>> round(astar(grid, (0, 0), (2, 3), connectivity=8).cost, 3)
    3.828
    """
    if cost is None and connectivity == 4 and heuristic in (None, "manhattan"):
        return _astar_unit4(passable, start, goal)
    costs = None if cost is None else cost_grid(cost)
    return run(
        "astar",
        as_passable(passable),
        costs,
        start,
        goal,
        targets=None,
        connectivity=connectivity,
        heuristic=heuristic,
        diagonal=diagonal,
    )


def _astar_unit4(passable: ArrayLike, start: Point, goal: Point) -> SearchResult:
    # No padded copy and no O(R*C) initialisation: the kernel checks bounds itself
    # and keeps its state in one zeroed array (pages untouched by the search stay
    # free); the trace arrays are built only when asked for.
    grid = flat_grid(passable)
    rows, cols = grid.shape
    cells = rows * cols
    s = check_point(start, (rows, cols), name="start")
    if not grid[s]:
        raise ValueError(f"start {s} is a wall")
    g = check_point(goal, (rows, cols), name="goal")
    si, gi = s[0] * cols + s[1], g[0] * cols + g[1]
    state = np.zeros(cells, dtype=np.int32 if cells < 2**27 else np.int64)
    closed_cells = np.empty(cells, dtype=np.int32 if cells < 2**31 else np.int64)
    closed, found = K.astar_unit4_kernel.pick(cells)(grid.reshape(-1), rows, cols, si, gi, state, closed_cells)
    closed = int(closed)
    if found:
        out = np.empty(cells, dtype=np.int64)
        n = K.walk_back4_kernel.pick(cells)(state, cols, si, gi, out)
        path = flat_points(out[n - 1 :: -1], cols)
    else:
        path = np.empty((0, 2), dtype=np.intp)

    def order() -> NDArray[np.int32]:
        flat = np.full(cells, -1, dtype=np.int32)
        flat[closed_cells[:closed]] = np.arange(closed, dtype=np.int32)
        return flat.reshape(rows, cols)

    def distance() -> NDArray[np.int32]:
        return ((state >> 3) - 1).astype(np.int32).reshape(rows, cols)

    def parent() -> NDArray[np.int64]:
        steps = np.array([-cols, cols, -1, 1], dtype=np.int64)
        idx = np.arange(cells, dtype=np.int64)
        par = np.where(state != 0, idx - steps[state & 3], -1)
        par[si] = -1
        return par.reshape(rows, cols)

    return SearchResult(
        path=path,
        found=bool(found),
        cost=float(path.shape[0] - 1),
        visited=closed,
        algorithm="astar",
        lazy={"order": order, "parent": parent, "distance": distance, "passable": lambda: grid.astype(bool)},
    )


def greedy(
    passable: ArrayLike,
    start: Point,
    goal: Point,
    *,
    cost: ArrayLike | None = None,
    connectivity: Connectivity = 4,
    heuristic: Heuristic | None = None,
    diagonal: float = math.sqrt(2),
) -> SearchResult:
    """Greedy best-first search: always expand the cell that looks closest (H alone).

    This is the maze article's first "A*": fast when the way is open, but its
    route is not always a shortest one. Parameters and errors as :func:`astar`.

    Notes
    -----
    A cell is opened once (the first time it is seen) and closed once; ties
    between equal H go to the cell opened first. O(N log N).

    Examples
    --------
    >>> grid = [[1, 1, 1, 1, 1],
    ...         [1, 0, 0, 0, 1],
    ...         [1, 1, 1, 0, 1]]
    >>> res = greedy(grid, (2, 2), (2, 4))
    >>> res.found, res.length
    (True, 10)
    """
    costs = None if cost is None else cost_grid(cost)
    return run(
        "greedy",
        as_passable(passable),
        costs,
        start,
        goal,
        targets=None,
        connectivity=connectivity,
        heuristic=heuristic,
        diagonal=diagonal,
    )
