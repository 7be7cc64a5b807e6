"""The grid searches step by step, for teaching: what each step takes out, adds and skips.

:func:`teach` runs a plain-Python copy of one of the searches of :func:`mazekit.search.solve`
(BFS, DFS, random DFS, greedy, A*, Dijkstra) and records, for every cell it takes out of its
open list, the cells it adds, the neighbours it skips (walls, cells already seen) and the open
list as it is then (its size and first entries, in the order they will be taken). Each copy
makes the same choices as the compiled search it mirrors, so it visits the same cells in the
same order and builds the same routes (the tests check this on generated grids); the
playground animates its steps beside the pseudocode in :data:`PSEUDOCODE`.

The record grows with the grid (a step per visited cell), so :func:`teach` accepts grids of at
most :data:`MAX_CELLS` cells: beyond that the panes that show it are no longer readable.

>>> from mazekit.search.teach import teach
>>> walk = teach([[1, 1, 1], [0, 0, 1]], (0, 0), (1, 2), algorithm="bfs")
>>> for step in walk.steps:
...     print(step.text)
take (0, 0), distance 0; add (0, 1); (1, 0) is a wall
take (0, 1), distance 1; add (0, 2); (1, 1) is a wall; (0, 0) is seen already
take (0, 2), distance 2; add (1, 2)
(1, 2) is the goal, found when it was added: stop; the route has 3 steps
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ..grid import Point, as_passable, check_point
from ._best import HEURISTICS, cost_grid, default_heuristic
from ._common import check_connectivity
from ._teach_model import ALGORITHMS, MAX_CELLS, PSEUDOCODE, STRUCTURES, Entry, Step, Walkthrough
from ._teach_runs import _astar_unit4, _best_first, _bfs, _dfs, _random_dfs, _Recorder

__all__ = ["ALGORITHMS", "MAX_CELLS", "PSEUDOCODE", "STRUCTURES", "Entry", "Step", "Walkthrough", "teach"]


def teach(
    passable: ArrayLike,
    start: Point,
    goal: Point,
    *,
    algorithm: str = "astar",
    connectivity: int = 4,
    cost: ArrayLike | None = None,
    heuristic: str | None = None,
    rng: np.random.Generator | int | None = None,
    first: int = 8,
    max_cells: int = MAX_CELLS,
) -> Walkthrough:
    """Record a search step by step, as :func:`mazekit.search.solve` runs it.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell may be entered; at most ``max_cells`` cells.
    start, goal : (r, c)
        The two ends; the start must not be a wall.
    algorithm : str
        One of :data:`ALGORITHMS`.
    connectivity : {4, 8}
        Neighbourhood.
    cost : array_like of float, shape (R, C), optional
        The cost of entering each cell (greedy, A*, Dijkstra), as
        :func:`~mazekit.search.astar` takes it.
    heuristic : str, optional
        A* and greedy: as :func:`~mazekit.search.astar` (default: the tightest admissible one).
    rng : numpy Generator, int or None
        The random DFS's randomness, as :func:`~mazekit.search.random_dfs` takes it.
    first : int
        How many entries of the open list each step keeps.
    max_cells : int
        The largest grid accepted.

    Returns
    -------
    Walkthrough
        The steps, and the route and trace arrays the compiled search returns.

    Raises
    ------
    ValueError
        An unknown algorithm, a start on a wall or outside the grid, or a grid larger than
        ``max_cells``.

    Notes
    -----
    Each algorithm is the textbook one in :data:`PSEUDOCODE`, with the compiled search's
    tie-breaks: neighbours in the order up, down, left, right (then up-left, up-right,
    down-left, down-right); Dijkstra and greedy take the oldest of equal entries, A* the one
    with the larger g, then the oldest. A* on a 4-connected grid of unit costs with the
    Manhattan heuristic takes, of equal f, the newest entry, and adds a cell's vertical
    neighbours last when more rows than columns remain to the goal (the compiled search's
    two-stack open list). O(N log N) time and O(N * first) memory for N visited cells.

    Examples
    --------
    >>> walk = teach([[1, 1], [1, 1]], (0, 0), (1, 1), algorithm="astar")
    >>> walk.steps[0].text
    'take (0, 0), f = 2 = g 0 + h 2; add (1, 0) and (0, 1)'
    >>> walk.path.tolist()
    [[0, 0], [0, 1], [1, 1]]
    """
    if algorithm not in PSEUDOCODE:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    conn = check_connectivity(connectivity)
    grid = as_passable(passable)
    rows, cols = grid.shape
    if rows * cols > max_cells:
        raise ValueError(f"teach records grids of at most {max_cells} cells; this one has {rows}x{cols}")
    s = check_point(start, grid.shape, name="start")
    g = check_point(goal, grid.shape, name="goal")
    if not grid[s]:
        raise ValueError(f"start {s} is a wall")
    rec = _Recorder(algorithm, grid, s, g, conn, max(0, int(first)))
    if algorithm == "bfs":
        _bfs(rec)
    elif algorithm == "dfs":
        _dfs(rec)
    elif algorithm == "dfs-random":
        _random_dfs(rec, np.random.default_rng(rng))
    elif algorithm == "astar" and cost is None and conn == 4 and heuristic in (None, "manhattan"):
        _astar_unit4(rec)
    else:
        costs = np.where(grid, 1.0, np.inf) if cost is None else np.where(grid, cost_grid(cost), np.inf)
        if algorithm == "dijkstra":
            heuristic = "zero"
        elif heuristic is None:
            heuristic = default_heuristic(conn, math.sqrt(2))
        if heuristic not in HEURISTICS:
            raise ValueError(f"heuristic must be one of {sorted(HEURISTICS)}, got {heuristic!r}")
        _best_first(rec, costs, heuristic)
    return rec.walkthrough()


# ------------------------------------------------------------------ recording
