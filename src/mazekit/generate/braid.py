"""Post-processing of mazes: braiding (removing dead ends) and rooms."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import as_passable
from ._common import RNG, check_fraction
from ._region_kernels import braid_kernel

__all__ = ["braid", "rooms"]


def _maze_cells(maze: ArrayLike) -> tuple[NDArray[np.bool_], int, int]:
    arr = as_passable(maze, name="maze")
    H, W = arr.shape
    if H % 2 == 0 or W % 2 == 0 or H < 3 or W < 3:
        raise ValueError(f"maze must have the (2*rows+1, 2*cols+1) layout, got shape {arr.shape}")
    return arr, (H - 1) // 2, (W - 1) // 2


def braid(maze: ArrayLike, fraction: float = 1.0, *, rng: RNG = None) -> NDArray[np.bool_]:
    """Remove a share of the dead ends of a maze by opening walls (adding loops).

    Parameters
    ----------
    maze : array_like of bool, shape (2*rows+1, 2*cols+1)
        A maze in the generators' layout (not modified).
    fraction : float
        The share of dead ends to remove, 0 to 1 (1: a fully braided maze,
        no dead ends at all).
    rng : numpy Generator, int or None
        Randomness: which dead ends, and which wall each one opens.

    Returns
    -------
    ndarray of bool
        A new maze. Dead ends are visited in random order; one still a dead
        end opens a wall to a neighbouring cell, preferring a neighbour that is
        a dead end too (removing two at once).

    Notes
    -----
    Braided mazes have loops: no longer perfect, several routes, and DFS or
    wall-following solvers behave differently. O(N).

    Examples
    --------
    >>> from mazekit.generate import backtracker
    >>> from mazekit.generate.properties import dead_ends
    >>> maze = backtracker(10, 10, rng=1)
    >>> dead_ends(braid(maze, 1.0, rng=1))
    0
    """
    arr, h, w = _maze_cells(maze)
    frac = check_fraction("fraction", fraction)
    gen = np.random.default_rng(rng)
    out = arr.astype(np.uint8)
    cells = out[1::2, 1::2]
    deg = out[:-2:2, 1::2] + out[2::2, 1::2] + out[1::2, :-2:2] + out[1::2, 2::2]
    dead = np.flatnonzero(((cells == 1) & (deg == 1)).ravel()).astype(np.int64)
    k = int(round(frac * dead.size))
    if k == 0:
        return out.view(np.bool_)
    dead = gen.permutation(dead)
    rand = gen.random(dead.size + 1)
    braid_kernel.pick(h * w)(h, w, dead, k, rand, out.reshape(-1))
    return out.view(np.bool_)


def rooms(
    maze: ArrayLike,
    count: int,
    *,
    rng: RNG = None,
    min_size: int = 2,
    max_size: int = 5,
) -> NDArray[np.bool_]:
    """Open rectangular rooms in a maze.

    Parameters
    ----------
    maze : array_like of bool, shape (2*rows+1, 2*cols+1)
        A maze in the generators' layout (not modified).
    count : int
        How many rooms.
    rng : numpy Generator, int or None
        Randomness: sizes and places.
    min_size, max_size : int
        Room sides in cells (clipped to the maze).

    Returns
    -------
    ndarray of bool
        A new grid: every room is a fully open block of cells, so the maze
        stays connected and gains open areas (it is no longer perfect).

    Examples
    --------
    >>> from mazekit.generate import backtracker
    >>> maze = rooms(backtracker(6, 6, rng=0), 1, rng=0, min_size=3, max_size=3)
    >>> from mazekit.search import label
    >>> label(maze)[1]
    1
    """
    arr, h, w = _maze_cells(maze)
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count!r}")
    if not 1 <= min_size <= max_size:
        raise ValueError(f"need 1 <= min_size <= max_size, got {min_size}, {max_size}")
    gen = np.random.default_rng(rng)
    out = arr.copy()
    for _ in range(count):
        rh = min(h, int(gen.integers(min_size, max_size + 1)))
        rw = min(w, int(gen.integers(min_size, max_size + 1)))
        r0 = int(gen.integers(0, h - rh + 1))
        c0 = int(gen.integers(0, w - rw + 1))
        out[2 * r0 + 1 : 2 * (r0 + rh), 2 * c0 + 1 : 2 * (c0 + rw)] = True
    return out
