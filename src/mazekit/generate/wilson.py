"""Wilson's algorithm: loop-erased random walks."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer, seed32
from ._kernels import wilson_kernel

__all__ = ["wilson"]


def wilson(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A uniform spanning tree maze by Wilson's algorithm.

    One random cell starts the maze. From each cell not yet in it (in random
    order) a random walk runs until it hits the maze; the walk with its loops
    erased becomes a new corridor.

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
    Perfect and unbiased: every spanning tree of the grid is equally likely.
    The first walks are long (the maze is a single cell), later ones short;
    expected time is the mean hitting time, far less than Aldous-Broder's cover
    time. The walk's random numbers come from xorshift32 seeded by ``rng``.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> is_perfect(wilson(4, 6, rng=5))
    True
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    cells = gen.permutation(h * w).astype(np.int64)
    seed = seed32(gen)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    wilson_kernel.pick(h * w)(h, w, cells, seed, out.reshape(-1), rec)
    return out.view(np.bool_)
