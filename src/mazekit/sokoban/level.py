"""Sokoban levels and states: the value objects every Sokoban feature shares.

A :class:`Level` is the static part of a puzzle (walls, goals, the floor the
player can ever walk on) held as NumPy arrays in the house coordinates
``(r, c)``, row 0 at the top. A :class:`State` is the dynamic part: the player's
cell and the boxes' cells, as *flat indices* ``r * width + c``, the boxes sorted,
so states are small, immutable and hashable (ready for a solver's visited set).

The level also carries a neighbour table, :attr:`Level.nbr`, so that a loop
(plain or compiled) never checks bounds: ``nbr[u, d]`` is the cell one step
from ``u`` in direction ``d`` (0 up, 1 down, 2 left, 3 right) or -1 when the step
leaves the map or enters a wall.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._kernels import reach_kernel

__all__ = ["DIRECTIONS", "STEPS", "Level", "State"]

#: Direction letters in index order (LURD notation, lower case): up, down, left, right.
DIRECTIONS = "udlr"
#: ``(dr, dc)`` of each direction, in the order of :data:`DIRECTIONS`.
STEPS: tuple[tuple[int, int], ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True, slots=True, order=True)
class State:
    """A position: the player's cell and the sorted cells of the boxes (flat indices).

    Build states with :meth:`make` (which sorts the boxes) or from a level's
    :attr:`Level.start`. States compare and hash by value.

    Examples
    --------
    >>> s = State.make(5, [9, 2])
    >>> s
    State(player=5, boxes=(2, 9))
    >>> s == State(5, (2, 9)), len({s, State.make(5, (9, 2))})
    (True, 1)
    """

    player: int
    boxes: tuple[int, ...]

    @staticmethod
    def make(player: int, boxes: Iterable[int]) -> State:
        """A state with ``boxes`` sorted (the canonical form)."""
        return State(int(player), tuple(sorted(int(b) for b in boxes)))


def _readonly(a: NDArray[np.bool_]) -> NDArray[np.bool_]:
    a = np.ascontiguousarray(a, dtype=np.bool_).copy()
    a.flags.writeable = False
    return a


@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class Level:
    """A Sokoban level: walls, goals and the start position.

    Build one with :meth:`build` (from ``(r, c)`` points) or read one with
    :func:`mazekit.sokoban.parse_levels`. All arrays are read-only.

    Attributes
    ----------
    walls : ndarray of bool, shape (R, C)
        True on a wall. Cells outside the map count as walls.
    goals : ndarray of bool, shape (R, C)
        True on a goal (a real target).
    decoys : ndarray of bool, shape (R, C)
        Targets drawn on the map that do not count (the assignment's fake
        target); all False for standard levels.
    start : State
        The initial position.
    title : str
        The level's name in its collection ('' when it has none).
    floor : ndarray of bool, shape (R, C)
        The cells the player could reach from the start if no box were in the
        way (derived). A box only ever stands on the floor.
    nbr : ndarray of int32, shape (R * C, 4)
        The neighbour table (derived): ``nbr[u, d]`` is the flat cell one step
        from ``u`` in direction ``d`` (up, down, left, right), -1 for a wall or
        the map edge.
    goal_cells : tuple of int
        The goals as sorted flat indices (derived).

    Examples
    --------
    >>> lv = Level.build([[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]],
    ...                  goals=[(1, 3)], player=(1, 1), boxes=[(1, 2)])
    >>> lv.shape, lv.start, lv.goal_cells
    ((3, 5), State(player=6, boxes=(7,)), (8,))
    >>> lv.rc(7), lv.cell((1, 2)), lv.is_solved(State.make(7, [8]))
    ((1, 2), 7, True)
    """

    walls: NDArray[np.bool_]
    goals: NDArray[np.bool_]
    start: State
    decoys: NDArray[np.bool_]
    title: str = ""
    floor: NDArray[np.bool_] = field(init=False, repr=False)
    nbr: NDArray[np.int32] = field(init=False, repr=False)
    goal_cells: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        walls = _readonly(self.walls)
        if walls.ndim != 2 or walls.shape[0] < 1 or walls.shape[1] < 1:
            raise ValueError(f"walls must be a non-empty 2-D array, got shape {walls.shape}")
        goals = _readonly(self.goals)
        decoys = _readonly(self.decoys)
        for name, arr in (("goals", goals), ("decoys", decoys)):
            if arr.shape != walls.shape:
                raise ValueError(f"{name} has shape {arr.shape}, walls {walls.shape}")
        rows, cols = walls.shape
        n = rows * cols
        object.__setattr__(self, "walls", walls)
        object.__setattr__(self, "goals", goals)
        object.__setattr__(self, "decoys", decoys)
        nbr = _neighbours(walls)
        object.__setattr__(self, "nbr", nbr)
        object.__setattr__(self, "goal_cells", tuple(int(g) for g in np.flatnonzero(goals.ravel())))
        st = self.start
        if not (0 <= st.player < n) or walls.flat[st.player]:
            raise ValueError(f"the player's cell {st.player} is a wall or outside the map")
        if list(st.boxes) != sorted(set(st.boxes)):
            raise ValueError(f"boxes must be sorted and distinct, got {st.boxes}")
        for b in st.boxes:
            if not (0 <= b < n) or walls.flat[b] or b == st.player:
                raise ValueError(f"box cell {b} is a wall, the player or outside the map")
        seen = np.zeros(n, dtype=np.uint8)
        queue = np.empty(n, dtype=np.int32)
        free = np.zeros(n, dtype=np.uint8)
        reach_kernel.pick(n)(nbr, free, np.int32(st.player), seen, queue)
        floor = seen.reshape(rows, cols).astype(np.bool_)
        floor.flags.writeable = False
        object.__setattr__(self, "floor", floor)

    @classmethod
    def build(
        cls,
        walls: ArrayLike,
        *,
        goals: Iterable[tuple[int, int]],
        player: tuple[int, int],
        boxes: Iterable[tuple[int, int]],
        decoys: Iterable[tuple[int, int]] = (),
        title: str = "",
    ) -> Level:
        """A level from a wall array and ``(r, c)`` points (see the class example)."""
        w = np.asarray(walls).astype(np.bool_)
        if w.ndim != 2:
            raise ValueError(f"walls must be a 2-D array, got {w.ndim} dimension(s)")
        g = np.zeros(w.shape, dtype=np.bool_)
        dec = np.zeros(w.shape, dtype=np.bool_)
        for arr, pts in ((g, goals), (dec, decoys)):
            for r, c in pts:
                arr[r, c] = True
        cols = w.shape[1]
        start = State.make(player[0] * cols + player[1], (r * cols + c for r, c in boxes))
        return cls(w, g, start, dec, title)

    # ----------------------------------------------------------------- geometry
    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)``."""
        return (int(self.walls.shape[0]), int(self.walls.shape[1]))

    @property
    def width(self) -> int:
        """The number of columns (the stride of the flat indices)."""
        return int(self.walls.shape[1])

    @property
    def size(self) -> int:
        """The number of cells, ``rows * columns``."""
        return int(self.walls.size)

    def cell(self, rc: tuple[int, int]) -> int:
        """The flat index of ``(r, c)``."""
        r, c = rc
        rows, cols = self.shape
        if not (0 <= r < rows and 0 <= c < cols):
            raise ValueError(f"({r}, {c}) is outside a {rows}x{cols} level")
        return int(r) * cols + int(c)

    def rc(self, cell: int) -> tuple[int, int]:
        """The ``(r, c)`` of flat index ``cell``."""
        r, c = divmod(int(cell), self.width)
        return (r, c)

    def is_solved(self, state: State) -> bool:
        """True when every box stands on a goal."""
        g = self.goals.ravel()
        return all(g[b] for b in state.boxes)

    def with_start(self, state: State) -> Level:
        """The same level starting from ``state`` instead."""
        return Level(self.walls, self.goals, state, self.decoys, self.title)


def _neighbours(walls: NDArray[np.bool_]) -> NDArray[np.int32]:
    rows, cols = walls.shape
    idx = np.arange(rows * cols, dtype=np.int32).reshape(rows, cols)
    nbr = np.full((rows, cols, 4), -1, dtype=np.int32)
    nbr[1:, :, 0] = idx[:-1, :]
    nbr[:-1, :, 1] = idx[1:, :]
    nbr[:, 1:, 2] = idx[:, :-1]
    nbr[:, :-1, 3] = idx[:, 1:]
    flat = nbr.reshape(rows * cols, 4)
    wall_flat = walls.ravel()
    hit = flat >= 0
    hit[hit] = wall_flat[flat[hit]]
    flat[hit] = -1
    flat[wall_flat] = -1
    flat.flags.writeable = False
    return flat
