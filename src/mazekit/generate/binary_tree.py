"""The binary-tree maze."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer
from ._region_kernels import binary_tree_kernel

__all__ = ["binary_tree"]


def binary_tree(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze in which every cell opens north or east at random.

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
    Perfect and strongly biased: the top row and the right column are straight
    corridors, and every route to the top-right corner only goes up and right
    (a diagonal texture). O(N), no state besides the output.

    Examples
    --------
    >>> maze = binary_tree(2, 3, rng=0)
    >>> maze[1].astype(int).tolist()
    [0, 1, 1, 1, 1, 1, 0]
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    rand = gen.random(h * w)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    binary_tree_kernel.pick(h * w)(h, w, rand, out.reshape(-1), rec)
    return out.view(np.bool_)
