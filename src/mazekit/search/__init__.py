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

import importlib
from typing import TYPE_CHECKING, Any

from ._common import STEPS, SearchResult
from .astar import astar, greedy
from .bfs import bfs, bfs_distances
from .dfs import dfs
from .dijkstra import dijkstra
from .flood import flood, flood_order, label

if TYPE_CHECKING:
    from .solve import SOLVERS, random_dfs, solve

_LAZY = {"SOLVERS", "random_dfs", "solve"}  # loaded on first use: keeps tiny commands quick


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = importlib.import_module(".solve", __name__)
        # importing the submodule binds the *module* to the name "solve": rebind the names
        for lazy in _LAZY:
            globals()[lazy] = getattr(module, lazy)
        return globals()[name]
    raise AttributeError(f"module 'mazekit.search' has no attribute {name!r}")


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
