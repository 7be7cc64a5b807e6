"""Dijkstra's algorithm on weighted cost grids."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ..grid import Point
from ._best import cost_grid, run
from ._common import Connectivity, SearchResult

__all__ = ["dijkstra"]


def dijkstra(
    cost: ArrayLike,
    start: Point,
    goal: Point | None = None,
    *,
    targets: ArrayLike | str | None = None,
    connectivity: Connectivity = 4,
    diagonal: float = math.sqrt(2),
) -> SearchResult:
    """Cheapest routes on a grid of non-negative cell costs.

    Parameters
    ----------
    cost : array_like of float, shape (R, C)
        The cost of entering each cell: >= 0, ``inf`` (or nan) for a wall.
    start : (r, c)
        The source (its own cost is not paid).
    goal : (r, c), optional
        Stop when this cell is settled. Without a goal or targets, every
        reachable cell is settled: ``result.distance`` is the cost field.
    targets : bool array of shape (R, C) or "border", optional
        Stop at the cheapest target cell.
    connectivity : {4, 8}
        Neighbourhood.
    diagonal : float
        A diagonal step costs ``diagonal`` times the cost of the cell entered.

    Returns
    -------
    SearchResult
        ``cost`` is the route's total cost; ``distance`` holds the cost of every
        settled cell (inf elsewhere).

    Notes
    -----
    Binary heap, ties by insertion order. O(N log N) time, O(N) memory. With
    every cost 1 it gives the same lengths as :func:`~mazekit.search.bfs`.

    Examples
    --------
    >>> cost = [[1, 9, 1],
    ...         [1, 1, 1]]
    >>> res = dijkstra(cost, (0, 0), (0, 2))
    >>> res.cost, res.path.tolist()
    (4.0, [[0, 0], [1, 0], [1, 1], [1, 2], [0, 2]])
    """
    costs = cost_grid(cost)
    passable = np.isfinite(costs)
    return run(
        "dijkstra",
        passable,
        costs,
        start,
        goal,
        targets=targets,
        connectivity=connectivity,
        heuristic="zero",
        diagonal=diagonal,
    )
