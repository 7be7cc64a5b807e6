"""Eller's algorithm: one row at a time."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer
from ._region_kernels import eller_kernel

__all__ = ["eller"]


def eller(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by Eller's algorithm, built row by row.

    Each cell of a row belongs to a set (cells connected so far). Neighbours in
    different sets are joined at random; then every set opens at least one wall
    down, and cells below without an opening start new sets. The last row joins
    every pair of neighbours still in different sets.

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
    Perfect. Needs only one row of state, so mazes of unbounded height can be
    streamed. The last row tends to be a long corridor. Joining two sets here
    relabels the row: O(cols) per join, O(rows * cols^2) in the worst case.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> is_perfect(eller(6, 4, rng=2))
    True
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    rand = gen.random(3 * h * w + 4)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    eller_kernel.pick(h * w)(h, w, rand, out.reshape(-1), rec)
    return out.view(np.bool_)
