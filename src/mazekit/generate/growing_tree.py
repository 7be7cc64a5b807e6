"""The growing-tree family: newest (backtracker-like), random (Prim-like), mixed."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, check_fraction, new_canvas, order_buffer
from ._kernels import growing_tree_kernel

__all__ = ["growing_tree"]

_MODES = {"newest": 1.0, "random": 0.0, "mixed": 0.5}


def growing_tree(
    rows: int,
    cols: int,
    *,
    rng: RNG = None,
    mode: Literal["newest", "random", "mixed"] | float = "mixed",
    order: NDArray[Any] | None = None,
) -> NDArray[np.bool_]:
    """A perfect maze by the growing-tree algorithm.

    Keep a list of active cells, starting with a random one. Take a cell from
    the list: if it has unvisited neighbours, open the wall to a random one and
    add that one to the list; otherwise drop the cell.

    Parameters
    ----------
    rows, cols : int
        The maze's size in cells; the grid returned is ``(2*rows+1, 2*cols+1)``.
    rng : numpy Generator, int or None
        Randomness (a seed gives the same maze every time).
    mode : {"newest", "random", "mixed"} or float
        Which cell to take: the newest (this is the recursive backtracker), a
        random one (like Prim), or the newest with probability 1/2 ("mixed");
        a number in [0, 1] gives that probability of taking the newest.
    order : int32 array of the grid's shape, optional
        Receives the step at which each pixel was carved (-1: never).

    Returns
    -------
    ndarray of bool, shape (2*rows+1, 2*cols+1)

    Notes
    -----
    Perfect. The texture moves from long corridors (newest) to short branches
    (random). O(N) time for "newest" and "random"; mixed modes keep the list in
    order with a Fenwick tree over the live cells: O(N log N).

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> is_perfect(growing_tree(4, 7, rng=1, mode="random"))
    True
    """
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(f"mode must be 'newest', 'random', 'mixed' or a number in [0, 1], got {mode!r}")
        newest = _MODES[mode]
    else:
        newest = check_fraction("mode", mode)
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    start = int(gen.integers(h * w))
    rand = gen.random(6 * h * w + 4)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    growing_tree_kernel.pick(h * w)(h, w, start, newest, rand, out.reshape(-1), rec)
    return out.view(np.bool_)
