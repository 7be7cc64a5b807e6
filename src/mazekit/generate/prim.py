"""Randomized Prim: the article's version, simplified Prim and true Prim."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, new_canvas, order_buffer
from ._kernels import prim_kernel, true_prim_kernel

__all__ = ["prim", "simplified_prim", "true_prim"]


def _prim(rows: int, cols: int, rng: RNG, order: NDArray[Any] | None, mode: int) -> NDArray[np.bool_]:
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    start = int(gen.integers(h * w))
    rand = gen.random(4 * h * w + 4)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    prim_kernel.pick(h * w)(h, w, start, rand, out.reshape(-1), rec, mode)
    return out.view(np.bool_)


def prim(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by randomized Prim, the article's version: a list of walls.

    Start from a random cell and put its walls in a list. Take a random wall
    from the list: if the cell behind it is not in the maze yet, open the wall,
    add the cell and put its walls in the list. Stop when the list is empty.

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
    Perfect. Grows outward from the start like a crystal: many short dead ends,
    short branches, a solution close to the straight-line distance. O(N) time
    and memory.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> maze = prim(3, 4, rng=1)
    >>> maze.shape, is_perfect(maze)
    ((7, 9), True)
    """
    return _prim(rows, cols, rng, order, 0)


def simplified_prim(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by simplified Prim: a random frontier cell joins the maze.

    The frontier is the set of cells next to the maze; each step takes one of
    them at random and opens the wall to a random neighbour already in the maze.

    Parameters
    ----------
    rows, cols : int
        The maze's size in cells.
    rng : numpy Generator, int or None
        Randomness.
    order : int32 array of the grid's shape, optional
        Receives the step at which each pixel was carved (-1: never).

    Returns
    -------
    ndarray of bool, shape (2*rows+1, 2*cols+1)

    Notes
    -----
    Perfect. Even more radial than :func:`prim`: lots of very short dead ends.
    O(N) time and memory.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> is_perfect(simplified_prim(4, 4, rng=3))
    True
    """
    return _prim(rows, cols, rng, order, 1)


def true_prim(rows: int, cols: int, *, rng: RNG = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
    """A perfect maze by true Prim: the minimum spanning tree of random edge weights.

    Every wall between two cells gets a random weight; the maze grows from a
    random cell by always opening the lightest wall to a cell outside it.

    Parameters
    ----------
    rows, cols : int
        The maze's size in cells.
    rng : numpy Generator, int or None
        Randomness.
    order : int32 array of the grid's shape, optional
        Receives the step at which each pixel was carved (-1: never).

    Returns
    -------
    ndarray of bool, shape (2*rows+1, 2*cols+1)

    Notes
    -----
    Perfect. The same tree as Kruskal on the same weights (the minimum spanning
    tree is unique), grown from one point instead of everywhere at once.
    O(N log N) time (a binary heap), O(N) memory.

    Examples
    --------
    >>> from mazekit.generate.properties import is_perfect
    >>> is_perfect(true_prim(5, 2, rng=0))
    True
    """
    h, w = cells_shape(rows, cols)
    gen = np.random.default_rng(rng)
    start = int(gen.integers(h * w))
    weights = gen.random(2 * h * w)
    out = new_canvas(h, w)
    rec = order_buffer(order, out.shape)
    true_prim_kernel.pick(h * w)(h, w, start, weights, out.reshape(-1), rec)
    return out.view(np.bool_)
