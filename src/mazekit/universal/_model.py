"""The maze as the universal-string code sees it: numbered cells and a move table."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..errors import InputError
from ..grid import Point, as_passable, check_point, read_grid

__all__ = ["COMMANDS", "Model", "decode", "encode", "read_maze"]

#: The commands, in the order the kernels number them: up, down, left, right.
COMMANDS = "UDLR"
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_CODE = np.full(256, -1, dtype=np.int8)
for _k, _ch in enumerate(COMMANDS):
    _CODE[ord(_ch)] = _CODE[ord(_ch.lower())] = _k  # lower case reads as upper case

#: The characters of a maze file: 0 free, 1 obstacle, x the exit (free).
LEGEND = {"0": True, "1": False, "x": True}


def read_maze(data: bytes | str) -> tuple[NDArray[np.bool_], Point]:
    """Read a maze of ``0`` free / ``1`` obstacle / ``x`` exit rows.

    Returns ``(passable, exit)``. Raises :class:`~mazekit.errors.InputError`
    for ragged rows, other characters, no exit or more than one.

    Examples
    --------
    >>> passable, exit = read_maze("0x\\n10\\n")
    >>> passable.astype(int).tolist(), exit
    ([[1, 1], [0, 1]], (0, 1))
    >>> read_maze("00\\n10\\n")
    Traceback (most recent call last):
    ...
    mazekit.errors.InputError: no exit: expected exactly one cell marked 'x'
    """
    grid = read_grid(data, legend=LEGEND, marks="x")
    exits = grid.marks.get("x", [])
    if not exits:
        raise InputError(0, "no exit: expected exactly one cell marked 'x'")
    if len(exits) > 1:
        (r1, c1), (r2, c2) = exits[0], exits[1]
        raise InputError(
            r2 + 1,
            f"{len(exits)} exits: expected exactly one 'x' (found at row {r1 + 1} column {c1 + 1} "
            f"and row {r2 + 1} column {c2 + 1})",
        )
    return grid.passable, exits[0]


def encode(string: str) -> NDArray[np.int8]:
    """Commands ``U D L R`` (or ``u d l r``) -> codes 0..3; a ValueError names any other character.

    >>> encode("UDLR").tolist()
    [0, 1, 2, 3]
    >>> encode("uurr").tolist()
    [0, 0, 3, 3]
    """
    raw = string.encode("ascii", errors="replace")
    codes = _CODE[np.frombuffer(raw, dtype=np.uint8)]
    if codes.size and codes.min() < 0:
        k = int(np.argmin(codes))
        raise ValueError(f"string has {string[k]!r} at position {k + 1}: commands are U, D, L, R")
    return codes


def decode(codes: NDArray[np.integer]) -> str:
    """Codes 0..3 -> a string of ``U D L R``.

    >>> decode(np.array([3, 3, 0]))
    'RRU'
    """
    return np.frombuffer(b"UDLR", dtype=np.uint8)[np.asarray(codes, dtype=np.intp)].tobytes().decode("ascii")


class Model:
    """Free cells (exit excluded) numbered in reading order, and the move table.

    Attributes
    ----------
    shape : (int, int)
    exit : (r, c)
    cells : ndarray (n, 2)
        ``(r, c)`` of cell ``i``.
    index : ndarray (R, C) of int32
        Cell number of each grid cell, -1 for obstacles and the exit.
    nxt : ndarray (4, n + 1) of int32
        Where each command takes a robot; index ``n`` = gone through the exit.
    dist : ndarray (n + 1,) of int32
        Steps to the exit (0 for gone, -1 when the exit cannot be reached).
    """

    __slots__ = ("shape", "exit", "cells", "index", "nxt", "dist", "n")

    def __init__(self, passable: ArrayLike, exit: Point) -> None:
        grid = as_passable(passable).copy()
        rows, cols = grid.shape
        self.shape = (int(rows), int(cols))
        self.exit = check_point(exit, self.shape, name="exit")
        grid[self.exit] = True
        free = grid.copy()
        free[self.exit] = False
        self.cells = np.argwhere(free).astype(np.intp)
        n = len(self.cells)
        self.n = n
        index = np.full(self.shape, -1, dtype=np.int32)
        index[free] = np.arange(n, dtype=np.int32)
        self.index = index
        gone = n
        pad = np.full((rows + 2, cols + 2), -1, dtype=np.int32)
        pad[1:-1, 1:-1] = index
        pad[self.exit[0] + 1, self.exit[1] + 1] = gone
        nxt = np.empty((4, n + 1), dtype=np.int32)
        r, c = self.cells[:, 0] + 1, self.cells[:, 1] + 1
        own = np.arange(n, dtype=np.int32)
        for k, (dr, dc) in enumerate(_STEPS):
            target = pad[r + dr, c + dc]
            nxt[k, :n] = np.where(target >= 0, target, own)
        nxt[:, n] = gone
        self.nxt = nxt
        from ..search import bfs_distances

        field = bfs_distances(grid, self.exit)
        dist = np.zeros(n + 1, dtype=np.int32)
        dist[:n] = field[free]
        self.dist = dist

    @property
    def gone(self) -> int:
        return self.n

    def stuck(self) -> NDArray[np.intp]:
        """``(r, c)`` of the free cells from which the exit cannot be reached."""
        return self.cells[self.dist[: self.n] < 0]

    def points(self, idx: NDArray[np.integer]) -> NDArray[np.intp]:
        return self.cells[np.asarray(idx, dtype=np.intp)]
