"""Measures of a maze: perfect or not, dead ends, junctions, straightness, solution length.

A maze in the generators' layout (odd shape, a cell at every odd/odd pixel, a
wall at every even/even pixel) is measured on its *cells*: two cells are
neighbours when the wall pixel between them is open. Any other grid (caves,
mazes with rooms) is measured on its pixels with 4-connectivity. Pass
``cells=True`` or ``cells=False`` to choose.

>>> from mazekit.generate import backtracker
>>> m = metrics(backtracker(20, 20, rng=1))
>>> m.cells, m.perfect
(400, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import as_passable

__all__ = [
    "MazeMetrics",
    "dead_ends",
    "is_cell_layout",
    "is_perfect",
    "junctions",
    "metrics",
    "solution_length",
    "straightness",
]


def is_cell_layout(passable: ArrayLike) -> bool:
    """True when the grid has the generators' cell/wall layout.

    >>> is_cell_layout([[0, 0, 0], [0, 1, 0], [0, 0, 0]])
    True
    """
    arr = as_passable(passable)
    H, W = arr.shape
    return H % 2 == 1 and W % 2 == 1 and H >= 3 and W >= 3 and not arr[::2, ::2].any()


class _Graph:
    """Nodes and the edges right and down of each, as bool arrays."""

    __slots__ = ("nodes", "right", "down", "cells", "grid")

    def __init__(self, passable: ArrayLike, cells: bool | None) -> None:
        arr = as_passable(passable)
        self.cells = is_cell_layout(arr) if cells is None else bool(cells)
        if self.cells:
            if not (arr.shape[0] % 2 == 1 and arr.shape[1] % 2 == 1 and min(arr.shape) >= 3):
                raise ValueError(f"cells=True needs an odd shape of at least 3x3, got {arr.shape}")
            n = arr[1::2, 1::2]
            self.nodes = n
            self.right = arr[1::2, 2:-1:2] & n[:, :-1] & n[:, 1:]
            self.down = arr[2:-1:2, 1::2] & n[:-1, :] & n[1:, :]
            g = np.zeros_like(arr)
            g[1::2, 1::2] = n
            g[1::2, 2:-1:2] = self.right
            g[2:-1:2, 1::2] = self.down
            self.grid = g
        else:
            self.nodes = arr
            self.right = arr[:, :-1] & arr[:, 1:]
            self.down = arr[:-1, :] & arr[1:, :]
            self.grid = arr

    def sides(self) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
        """Per node: an edge up, down, left, right."""
        z = np.zeros(self.nodes.shape, dtype=bool)
        up, dn, lf, rt = z.copy(), z.copy(), z.copy(), z.copy()
        up[1:, :] = self.down
        dn[:-1, :] = self.down
        lf[:, 1:] = self.right
        rt[:, :-1] = self.right
        return up, dn, lf, rt

    def degree(self) -> NDArray[np.intp]:
        up, dn, lf, rt = self.sides()
        return np.where(self.nodes, up.astype(np.intp) + dn + lf + rt, -1)


def is_perfect(passable: ArrayLike, *, cells: bool | None = None) -> bool:
    """True when the maze is perfect: connected and without loops (a tree).

    >>> is_perfect([[0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0]])
    True
    >>> is_perfect([[1, 1], [1, 1]])
    False
    """
    g = _Graph(passable, cells)
    v = int(g.nodes.sum())
    if v == 0:
        return False
    e = int(g.right.sum()) + int(g.down.sum())
    if e != v - 1:
        return False
    from ..search import label

    return label(g.grid)[1] == 1


def dead_ends(passable: ArrayLike, *, cells: bool | None = None) -> int:
    """The number of dead ends (cells with exactly one neighbour)."""
    return int((_Graph(passable, cells).degree() == 1).sum())


def junctions(passable: ArrayLike, *, cells: bool | None = None) -> int:
    """The number of junctions (cells with three or four neighbours)."""
    return int((_Graph(passable, cells).degree() >= 3).sum())


def straightness(passable: ArrayLike, *, cells: bool | None = None) -> float:
    """The share of corridor cells (two neighbours) that go straight on.

    1.0: every corridor is straight (binary-tree mazes come close along their
    edges); low values mean twisty corridors. NaN when there are no corridors.

    >>> straightness([[0, 0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1, 0], [0, 0, 0, 0, 0, 0, 0]])
    1.0
    """
    g = _Graph(passable, cells)
    up, dn, lf, rt = g.sides()
    deg = g.degree()
    corridor = deg == 2
    n = int(corridor.sum())
    if n == 0:
        return float("nan")
    straight = corridor & ((up & dn) | (lf & rt))
    return int(straight.sum()) / n


def solution_length(
    passable: ArrayLike,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
    *,
    cells: bool | None = None,
) -> int:
    """Steps of the shortest route between two cells (-1 when there is none).

    ``start`` and ``goal`` are node coordinates: cell ``(i, j)`` for mazes in
    the cell layout, pixel ``(r, c)`` otherwise. Default: the first and the
    last open node in reading order (top-left and bottom-right cells of a maze).

    >>> from mazekit.generate import binary_tree
    >>> solution_length(binary_tree(1, 5, rng=0))
    4
    """
    g = _Graph(passable, cells)
    flat = np.flatnonzero(g.nodes.ravel())
    if flat.size == 0:
        return -1
    w = g.nodes.shape[1]
    s = (int(flat[0] // w), int(flat[0] % w)) if start is None else start
    t = (int(flat[-1] // w), int(flat[-1] % w)) if goal is None else goal
    from ..search import bfs

    if g.cells:
        s = (2 * s[0] + 1, 2 * s[1] + 1)
        t = (2 * t[0] + 1, 2 * t[1] + 1)
    res = bfs(g.grid, s, t)
    if not res.found:
        return -1
    return res.length // 2 if g.cells else res.length


@dataclass(frozen=True, slots=True)
class MazeMetrics:
    """All the measures of one maze (see the module's functions).

    ``solution_length`` counts steps between cells when the maze was measured on
    its cells (``on_cells``): a step from cell to cell crosses two squares of the
    grid, so the route ``mazekit maze solve`` prints is twice as long.
    """

    cells: int
    perfect: bool
    dead_ends: int
    junctions: int
    straightness: float
    solution_length: int
    on_cells: bool = False

    def summary(self) -> str:
        """One line for humans; the solution in steps on the grid, as ``maze solve`` counts them.

        >>> MazeMetrics(4, True, 2, 0, 0.5, 3).summary()
        '4 cells, perfect, 2 dead ends (50.0%), 0 junctions, straightness 0.50, solution 3 steps'
        >>> MazeMetrics(4, True, 2, 0, 0.5, 3, on_cells=True).summary()
        '4 cells, perfect, 2 dead ends (50.0%), 0 junctions, straightness 0.50, solution 6 steps (3 cell to cell)'
        """
        kind = "perfect" if self.perfect else "not perfect"
        share = 100.0 * self.dead_ends / self.cells if self.cells else 0.0
        n = self.solution_length
        solution = f"{2 * n} steps ({n} cell to cell)" if self.on_cells and n > 0 else f"{n} steps"
        return (
            f"{self.cells} cells, {kind}, {self.dead_ends} dead ends ({share:.1f}%), "
            f"{self.junctions} junctions, straightness {self.straightness:.2f}, "
            f"solution {solution}"
        )


def metrics(passable: ArrayLike, *, cells: bool | None = None) -> MazeMetrics:
    """Every measure at once (the graph is built once)."""
    g = _Graph(passable, cells)
    c = g.cells
    return MazeMetrics(
        cells=int(g.nodes.sum()),
        perfect=is_perfect(passable, cells=c),
        dead_ends=int((g.degree() == 1).sum()),
        junctions=int((g.degree() >= 3).sum()),
        straightness=straightness(passable, cells=c),
        solution_length=solution_length(passable, cells=c),
        on_cells=c,
    )
