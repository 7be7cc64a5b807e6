"""Breadth-first search on a grid."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point, check_point
from . import _kernels as K
from ._common import (
    _NO_TARGETS,
    Connectivity,
    SearchResult,
    make_result,
    prepare,
    sources_of,
    target_mask,
)

__all__ = ["bfs", "bfs_distances"]


def bfs(
    passable: ArrayLike,
    start: Point | ArrayLike,
    goal: Point | None = None,
    *,
    targets: ArrayLike | str | None = None,
    connectivity: Connectivity = 4,
) -> SearchResult:
    """Breadth-first search: shortest routes counted in steps.

    One function covers the usual queries:

    * ``bfs(p, start, goal)``: one pair, stops as soon as the goal is reached;
    * ``bfs(p, start)``: from one source to every cell (see ``.distance``);
    * ``bfs(p, [s1, s2, ...])``: several sources at once (nearest source wins);
    * ``bfs(p, start, targets=mask)`` or ``targets="border"``: to the nearest
      cell of a target set.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell may be entered.
    start : (r, c) or sequence of (r, c)
        The source cell or cells. A source need not be passable itself.
    goal : (r, c), optional
        Stop when this cell is reached.
    targets : bool array of shape (R, C) or "border", optional
        Stop at the first target cell reached.
    connectivity : {4, 8}
        4: up, down, left, right. 8: also the diagonals (each step counts 1).

    Returns
    -------
    SearchResult
        ``path`` from a source to the goal (empty if unreachable), ``length``,
        and the trace: ``order`` (queue position), ``parent``, ``distance``.

    Notes
    -----
    FIFO queue, neighbours tried up, down, left, right (then up-left, up-right,
    down-left, down-right), each cell keeps the parent that discovered it first:
    the classic textbook BFS, so ties between equally short routes are broken
    exactly as the robot-in-the-maze article does. O(R*C) time and memory.

    Examples
    --------
    >>> maze = [[0, 1, 1, 0, 1, 1, 1],
    ...         [1, 1, 0, 1, 0, 1, 1],
    ...         [1, 1, 1, 1, 1, 1, 1],
    ...         [0, 0, 1, 0, 1, 1, 1]]
    >>> res = bfs(maze, (0, 2), (1, 5))
    >>> res.length, res.path[:3].tolist()
    (8, [[0, 2], [0, 1], [1, 1]])
    >>> bfs([[1, 0, 1]], (0, 0), (0, 2)).found
    False
    """
    pg = prepare(passable, connectivity)
    srcs = sources_of(start, pg.shape)
    goal_idx = -1 if goal is None else pg.index(check_point(goal, pg.shape, name="goal"))
    mask = target_mask(targets, pg.shape)
    tmask = _NO_TARGETS if mask is None else pg.pad_mask(mask)
    pdir = np.full(pg.size, -1, dtype=np.int8)
    queue = np.empty(pg.cells + len(srcs), dtype=np.int32)
    src_idx = np.array([pg.index(p) for p in srcs], dtype=np.int64)
    kern = K.bfs_kernel.pick(pg.cells)
    count, end = kern(pg.grid, pg.offsets, src_idx, goal_idx, tmask, pdir, queue)
    count, end = int(count), int(end)

    def order() -> NDArray[np.int32]:
        flat = np.full(pg.size, -1, dtype=np.int32)
        flat[queue[:count]] = np.arange(count, dtype=np.int32)
        return pg.unpad(flat)

    def distance() -> NDArray[np.int32]:
        # queue order lists parents before children
        dist = np.full(pg.size, -1, dtype=np.int32)
        K.tree_depth_kernel.pick(count)(queue[:count], pdir, pg.offsets, dist)
        return pg.unpad(dist)

    return make_result(
        pg,
        end=end,
        pdir=pdir,
        cost=None,
        visited=count,
        algorithm="bfs",
        order=order,
        distance=distance,
    )


def bfs_distances(
    passable: ArrayLike,
    sources: Point | ArrayLike,
    *,
    connectivity: Connectivity = 4,
) -> NDArray[np.int32]:
    """Steps from the nearest source to every cell (-1 where unreachable).

    The fastest way to a distance field: no parents, no trace.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell may be entered.
    sources : (r, c) or sequence of (r, c)
        Distance 0 cells.
    connectivity : {4, 8}
        Neighbourhood; each step counts 1.

    Returns
    -------
    ndarray of int32, shape (R, C)

    Examples
    --------
    >>> bfs_distances([[1, 1, 1], [0, 0, 1]], (0, 0)).tolist()
    [[0, 1, 2], [-1, -1, 3]]
    """
    pg = prepare(passable, connectivity)
    srcs = sources_of(sources, pg.shape, name="sources")
    dist = np.full(pg.size, -1, dtype=np.int32)
    queue = np.empty(pg.cells + len(srcs), dtype=np.int32)
    if len(srcs) == 1 and pg.connectivity == 4:
        K.bfs4_distances_kernel.pick(pg.cells)(pg.grid, pg.width, pg.index(srcs[0]), dist, queue)
    else:
        src_idx = np.array([pg.index(p) for p in srcs], dtype=np.int64)
        K.bfs_distances_kernel.pick(pg.cells)(pg.grid, pg.offsets, src_idx, dist, queue)
    return pg.unpad(dist)
