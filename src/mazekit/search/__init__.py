"""Grid search: BFS, DFS, A*, greedy best-first, Dijkstra, flood fill, labelling.

Arrays in, results out. A grid is a 2-D bool array ``passable`` (True = a cell
that may be entered), cells are ``(r, c)`` with row 0 at the top, and every
search returns a :class:`SearchResult` with the route and the trace arrays that
pictures and animations are drawn from. The loops run compiled by numba for
large grids (see :mod:`mazekit._jit`).

>>> from mazekit.search import bfs
>>> bfs([[1, 1], [0, 1]], (0, 0), (1, 1)).path.tolist()
[[0, 0], [0, 1], [1, 1]]
"""

from ._common import STEPS, SearchResult
from .astar import astar, greedy
from .bfs import bfs, bfs_distances
from .dfs import dfs
from .dijkstra import dijkstra
from .flood import flood, flood_order, label
from .solve import SOLVERS, random_dfs, solve

__all__ = [
    "SOLVERS",
    "STEPS",
    "SearchResult",
    "astar",
    "bfs",
    "bfs_distances",
    "dfs",
    "dijkstra",
    "flood",
    "flood_order",
    "greedy",
    "label",
    "random_dfs",
    "solve",
]
