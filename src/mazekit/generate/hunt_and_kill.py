"""Hunt-and-kill."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer
from ._kernels import hunt_and_kill_kernel

__all__ = ["hunt_and_kill"]


def hunt_and_kill(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by hunt-and-kill.

    Walk at random into unvisited cells, opening walls; when the walk is stuck,
    hunt: scan the rows from the top for the first unvisited cell next to the
    maze, join it to a random visited neighbour and walk on from there.

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
    Perfect. Like the backtracker (long corridors, few dead ends) without a
    stack: O(1) extra memory besides the visited marks. The scan starts at the
    first unvisited cell, so it is usually short, but O(N^2) in the worst case.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> is_perfect(hunt_and_kill(5, 5, rng=9))
    True
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    start = int(gen.integers(h * w))
    rand = gen.random(2 * h * w)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    hunt_and_kill_kernel.pick(h * w)(h, w, start, rand, out.reshape(-1), rec)
    return out.view(np.bool_)
