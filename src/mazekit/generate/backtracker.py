"""The recursive backtracker: randomized depth-first search."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer
from ._kernels import backtracker_kernel

__all__ = ["backtracker"]


def backtracker(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by randomized depth-first search (the recursive backtracker).

    Parameters
    ----------
    rows, cols : int
        The maze's size in cells; the returned grid is ``(2*rows+1, 2*cols+1)``.
    rng : numpy Generator, int or None
        Randomness (a seed gives the same maze every time).
    order : int32 array of the grid's shape, optional
        Receives the step at which each pixel was carved (-1: never); the
        generation animation is drawn from it.

    Returns
    -------
    ndarray of bool, shape (2*rows+1, 2*cols+1)
        True = passage. Cell ``(i, j)`` is at ``(2i+1, 2j+1)``.

    Notes
    -----
    Perfect (connected, no loops). Long winding corridors, few dead ends and a
    long solution: its river factor is high. Starts at a random cell. O(N)
    time and memory, iterative (no recursion limit). This is the article's
    depth-first generator.

    Examples
    --------
    >>> maze = backtracker(2, 3, rng=1)
    >>> maze.shape, int(maze.sum())
    ((5, 7), 11)
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    start = int(gen.integers(h * w))
    rand = gen.random(2 * h * w)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    backtracker_kernel.pick(h * w)(h, w, start, rand, out.reshape(-1), rec)
    return out.view(np.bool_)
