"""Cellular-automaton caves."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, check_fraction
from ._region_kernels import cave_step_kernel

__all__ = ["caves"]


def caves(
    rows: int,
    cols: int,
    *,
    rng: RNG = None,
    fill: float = 0.45,
    steps: int = 4,
    birth: int = 5,
    survive: int = 4,
    connect: bool = True,
) -> NDArray[np.bool_]:
    """A cave by a cellular automaton: random rock smoothed into open caverns.

    Unlike the other generators this returns a plain grid of ``rows`` x
    ``cols`` pixels (no cell/wall layout) and the result is not a perfect maze:
    it has open areas and loops.

    Parameters
    ----------
    rows, cols : int
        The grid's size (pixels, not cells).
    rng : numpy Generator, int or None
        Randomness (a seed gives the same cave every time).
    fill : float
        The share of rock at the start.
    steps : int
        How many smoothing steps to run.
    birth, survive : int
        The rule (out of 8 neighbours, outside the grid counts as rock): open
        ground turns to rock with at least ``birth`` rock neighbours, rock stays
        rock with at least ``survive``. The default 5/4 is the classic
        "4-5 rule".
    connect : bool
        Keep only the largest open region (the rest is filled with rock), so
        every open cell can reach every other.

    Returns
    -------
    ndarray of bool, shape (rows, cols)
        True = open ground.

    Notes
    -----
    O(rows * cols * steps). Not perfect: caves have open areas and many loops.

    Examples
    --------
    >>> cave = caves(20, 30, rng=1)
    >>> cave.shape, cave.dtype
    ((20, 30), dtype('bool'))
    >>> from mazekit.search import label
    >>> label(cave)[1]
    1
    """
    for name, v in (("rows", rows), ("cols", cols)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps!r}")
    for name, v in (("birth", birth), ("survive", survive)):
        if not 0 <= v <= 9:
            raise ValueError(f"{name} must be between 0 and 9, got {v!r}")
    fill = check_fraction("fill", fill)
    gen = np.random.default_rng(rng)
    a = (gen.random(rows * cols) < fill).astype(np.uint8)
    b = np.empty_like(a)
    kern = cave_step_kernel.pick(rows * cols * max(steps, 1))
    for _ in range(steps):
        kern(a, b, int(rows), int(cols), int(birth), int(survive))
        a, b = b, a
    cave: NDArray[np.bool_] = (a == 0).reshape(rows, cols)
    if connect and cave.any():
        from ..search import label

        labels, n = label(cave)
        if n > 1:
            sizes = np.bincount(labels.ravel(), minlength=n + 1)
            sizes[0] = 0
            cave = np.asarray(labels == int(sizes.argmax()), dtype=bool)
    return cave
