"""Randomized Kruskal."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer
from ._kernels import kruskal_kernel

__all__ = ["kruskal"]


def kruskal(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by randomized Kruskal: open walls in random order unless
    that would close a loop.

    Parameters
    ----------
    rows, cols : int
        The maze's size in cells; the grid returned is ``(2*rows+1, 2*cols+1)``.
    rng : numpy Generator, int or None
        Randomness (a seed gives the same maze every time).
    order : int32 array of the grid's shape, optional
        Receives the step at which each pixel was carved (-1: never).

    Returns
    -------
    ndarray of bool, shape (2*rows+1, 2*cols+1)

    Notes
    -----
    Perfect: a minimum spanning tree of random weights. Grows everywhere at
    once (many small trees merging); short dead ends, like Prim. O(N alpha(N))
    with union-find (path compression, union by size), O(N) memory.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> maze = kruskal(3, 5, rng=2)
    >>> maze.shape, is_perfect(maze)
    ((7, 11), True)
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    n = h * w
    cells = np.arange(n, dtype=np.int64)
    right = cells[cells % w < w - 1]
    down = cells[: n - w] + n
    edges = gen.permutation(np.concatenate([right, down]))
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    kruskal_kernel.pick(n)(h, w, edges, out.reshape(-1), rec)
    return out.view(np.bool_)
