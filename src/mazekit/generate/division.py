"""Recursive division: a wall-adder."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer
from ._region_kernels import division_kernel

__all__ = ["division"]


def division(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by recursive division.

    Start from an empty room; split it by a wall with one gap (across its
    longer side, at a random place), then split each half the same way until
    the chambers are one cell wide. An explicit stack replaces the recursion.

    Parameters
    ----------
    rows, cols : int
        The maze's size in cells; the grid returned is ``(2*rows+1, 2*cols+1)``.
    rng : numpy Generator, int or None
        Randomness (a seed gives the same maze every time).
    order : int32 array of the grid's shape, optional
        Receives the step at which each *wall* pixel was placed (-1: a wall
        from the start, or a passage): this generator adds walls.

    Returns
    -------
    ndarray of bool, shape (2*rows+1, 2*cols+1)

    Notes
    -----
    Perfect. Long straight walls and a boxy, nested texture; easy to see the
    first divisions. O(N log N) time (each level of division draws walls
    across its chambers), O(N) memory.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> is_perfect(division(5, 8, rng=0))
    True
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    rand = gen.random(3 * h * w + 4)
    out = new_canvas(h, w)
    out[1:-1, 1:-1] = 1
    rec = order_buffer(order, out.shape)
    division_kernel.pick(h * w)(h, w, rand, out.reshape(-1), rec)
    return out.view(np.bool_)
