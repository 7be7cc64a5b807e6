"""Sidewinder."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer
from ._region_kernels import sidewinder_kernel

__all__ = ["sidewinder"]


def sidewinder(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by the sidewinder algorithm.

    Row by row, cells are joined eastward into runs; each run is closed at
    random and opens north from one of its cells. The top row is one corridor.

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
    Perfect. Biased: the top row is a straight corridor and every route upward
    is easy (never goes down). O(N), one row of state.

    Examples
    --------
    >>> maze = sidewinder(3, 3, rng=4)
    >>> maze[1].astype(int).tolist()
    [0, 1, 1, 1, 1, 1, 0]
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    rand = gen.random(2 * h * w)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    sidewinder_kernel.pick(h * w)(h, w, rand, out.reshape(-1), rec)
    return out.view(np.bool_)
