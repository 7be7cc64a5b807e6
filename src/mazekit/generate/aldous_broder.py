"""Aldous-Broder: a random walk over the whole grid."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer, seed32
from ._kernels import aldous_broder_kernel

__all__ = ["aldous_broder"]


def aldous_broder(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A uniform spanning tree maze by the Aldous-Broder random walk.

    Walk at random from a random cell; every time the walk enters a cell for the
    first time, open the wall it came through. Stop when every cell is visited.

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
    Perfect and unbiased (every spanning tree equally likely). Slow: it takes
    the walk's cover time, about N log^2 N steps on a grid; the last cells take
    longest. The walk's random numbers come from xorshift32 seeded by ``rng``.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> is_perfect(aldous_broder(3, 3, rng=0))
    True
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    start = int(gen.integers(h * w))
    seed = seed32(gen)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    aldous_broder_kernel.pick(h * w)(h, w, start, seed, out.reshape(-1), rec)
    return out.view(np.bool_)
