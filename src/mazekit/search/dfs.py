"""Depth-first search on a grid, without recursion."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..grid import Point, check_point
from . import _kernels as K
from ._common import _NO_TARGETS, Connectivity, SearchResult, make_result, prepare, target_mask

__all__ = ["dfs"]


def dfs(
    passable: ArrayLike,
    start: Point,
    goal: Point | None = None,
    *,
    targets: ArrayLike | str | None = None,
    connectivity: Connectivity = 4,
) -> SearchResult:
    """Depth-first search that visits cells exactly as the recursive DFS does.

    From ``start``, neighbours are tried up, down, left, right (then the
    diagonals for 8-connectivity); a cell is entered when it is passable and not
    yet visited, and the search goes deeper at once. It stops at the first cell
    that is ``goal`` or belongs to ``targets``; that cell is not expanded. With
    neither, it visits the whole region of ``start``.

    An explicit stack replaces the recursion, so there is no recursion limit: a
    2000x2000 forest is an ordinary input.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell may be entered. The start need not be passable.
    start : (r, c)
        Where the search begins.
    goal : (r, c), optional
        Stop when this cell is entered.
    targets : bool array of shape (R, C) or "border", optional
        Stop at the first target cell entered ("border": the grid's outer ring).
    connectivity : {4, 8}
        Neighbourhood.

    Returns
    -------
    SearchResult
        ``path`` is the branch of the DFS tree from start to the cell reached
        (not a shortest route); ``order`` is the visiting order, ``distance`` the
        depth in the DFS tree.

    Notes
    -----
    O(R*C) time and memory. The route found depends on the neighbour order and
    is usually longer than a BFS route.

    Examples
    --------
    The escape-from-the-forest article: from E to the first border cell.

    >>> forest = ["XXXXX", "XEOOX", "XXXOX", "XOOOX", "XOXXX"]
    >>> passable = [[ch == "O" for ch in row] for row in forest]
    >>> dfs(passable, (1, 1), targets="border").path.tolist()
    [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3], [3, 2], [3, 1], [4, 1]]
    """
    pg = prepare(passable, connectivity)
    s = pg.index(check_point(start, pg.shape, name="start"))
    goal_idx = -1 if goal is None else pg.index(check_point(goal, pg.shape, name="goal"))
    mask = target_mask(targets, pg.shape)
    tmask = _NO_TARGETS if mask is None else pg.pad_mask(mask)
    order = np.full(pg.size, -1, dtype=np.int32)
    pdir = np.full(pg.size, -1, dtype=np.int8)
    stack_cell = np.empty(pg.cells + 1, dtype=np.int32)
    stack_k = np.empty(pg.cells + 1, dtype=np.int8)
    kern = K.dfs_kernel.pick(pg.cells)
    count, end = kern(pg.grid, pg.offsets, s, goal_idx, tmask, order, pdir, stack_cell, stack_k)

    return make_result(
        pg,
        end=int(end),
        pdir=pdir,
        cost=None,
        visited=int(count),
        algorithm="dfs",
        order=lambda: pg.unpad(order),
        distance=lambda: pg.tree_depth(order, pdir),
    )
