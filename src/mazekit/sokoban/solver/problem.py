"""The solver's view of a level: padded flat arrays, dead squares, push distances.

The solver takes a level from the engine (:class:`mazekit.sokoban.Level`) or any
object with the same four facts; :func:`as_problem` turns it into a
:class:`Problem` of plain arrays, the one input of the compiled search.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._kernels import pull_distances_kernel

__all__ = ["Problem", "as_problem", "from_rows"]

#: Direction letters in the order of the offsets (up, down, left, right).
LETTERS = "udlr"


@dataclass(frozen=True, slots=True, eq=False)
class Problem:
    """A level as the solver sees it (flat indices on a grid padded by one wall).

    Attributes
    ----------
    height, width : int
        The padded grid's shape (the level's plus 2 each way).
    floor : ndarray of uint8
        1 where the player can ever stand (reachable from the start, boxes ignored).
    goalm : ndarray of uint8
        1 on goals.
    dead : ndarray of uint8
        1 on floor cells from which a lone box can never reach any goal.
    dist : ndarray of int32, shape (goals, cells)
        Pushes from a cell to each goal for a lone box, -1 when impossible.
    goals, boxes : ndarray of int64
        Goal cells and (sorted) box cells.
    player : int
        The player's cell.
    off : ndarray of int64
        Flat steps up, down, left, right.
    """

    height: int
    width: int
    floor: NDArray[np.uint8]
    goalm: NDArray[np.uint8]
    dead: NDArray[np.uint8]
    dist: NDArray[np.int32]
    goals: NDArray[np.int64]
    boxes: NDArray[np.int64]
    player: int
    off: NDArray[np.int64]

    def cell(self, r: int, c: int) -> int:
        """Flat index of the level's cell ``(r, c)`` (unpadded coordinates)."""
        return (r + 1) * self.width + (c + 1)


def _build(
    walls: NDArray[np.bool_], goals: list[tuple[int, int]], boxes: list[tuple[int, int]], player: tuple[int, int]
) -> Problem:
    h0, w0 = int(walls.shape[0]), int(walls.shape[1])
    h, w = h0 + 2, w0 + 2
    open_ = np.zeros((h, w), dtype=bool)
    open_[1:-1, 1:-1] = ~walls
    flat_open = open_.ravel()
    off = np.array([-w, w, -1, 1], dtype=np.int64)

    def idx(rc: tuple[int, int]) -> int:
        return (int(rc[0]) + 1) * w + (int(rc[1]) + 1)

    start = idx(player)
    if not flat_open[start]:
        raise ValueError(f"the player {player} stands on a wall")
    floor = np.zeros(h * w, dtype=np.uint8)
    floor[start] = 1
    todo = deque([start])
    while todo:
        x = todo.popleft()
        for d in off:
            y = int(x) + int(d)
            if flat_open[y] and not floor[y]:
                floor[y] = 1
                todo.append(y)
    goal_cells = np.array(sorted(idx(g) for g in goals), dtype=np.int64)
    box_cells = np.array(sorted(idx(b) for b in boxes), dtype=np.int64)
    if len(goal_cells) < len(box_cells):
        raise ValueError(f"{len(box_cells)} boxes but only {len(goal_cells)} goals")
    for b in box_cells:
        if not floor[b]:
            floor[b] = 1  # a box the player can never reach; it never moves
    goalm = np.zeros(h * w, dtype=np.uint8)
    goalm[goal_cells] = 1
    dist = np.full((len(goal_cells), h * w), -1, dtype=np.int32)
    queue = np.empty(h * w, dtype=np.int64)
    pull_distances_kernel.pick(h * w * max(1, len(goal_cells)))(floor, off, goal_cells, dist, queue)
    dead = ((dist < 0).all(axis=0) & (floor != 0)).astype(np.uint8) if len(goal_cells) else floor.copy()
    return Problem(h, w, floor, goalm, dead, dist, goal_cells, box_cells, start, off)


def from_rows(rows: list[str]) -> Problem:
    """A problem from XSB rows (``#`` wall, ``@ +`` player, ``$ *`` box, ``. + *`` goal).

    A convenience for tests and examples; files go through the engine's parser.

    >>> p = from_rows(["#####", "#@$.#", "#####"])
    >>> p.boxes.tolist(), p.goals.tolist(), p.player
    ([17], [18], 16)
    """
    width = max((len(r) for r in rows), default=0)
    walls = np.zeros((len(rows), width), dtype=bool)
    goals: list[tuple[int, int]] = []
    boxes: list[tuple[int, int]] = []
    player: tuple[int, int] | None = None
    for r, row in enumerate(rows):
        for c, ch in enumerate(row.ljust(width)):
            if ch == "#":
                walls[r, c] = True
            if ch in ".+*":
                goals.append((r, c))
            if ch in "$*":
                boxes.append((r, c))
            if ch in "@+":
                player = (r, c)
    if player is None:
        raise ValueError("the level has no player")
    # cells outside the walls are left open; the flood from the player keeps them out
    return _build(walls, goals, boxes, player)


def as_problem(level: Any) -> Problem:
    """A :class:`Problem` from an engine level, a :class:`Problem`, or a list of XSB rows.

    An engine level is read through the attributes ``walls`` (bool array),
    ``goals``, ``boxes`` (cells ``(r, c)``) and ``player`` (``(r, c)``) of its
    start state, as exposed by :mod:`mazekit.sokoban` (see :mod:`._adapter`).
    """
    if isinstance(level, Problem):
        return level
    if isinstance(level, (list, tuple)) and all(isinstance(r, str) for r in level):
        return from_rows(list(level))
    if isinstance(level, str):
        return from_rows(level.splitlines())
    from ._adapter import level_facts

    walls, goals, boxes, player = level_facts(level)
    return _build(walls, goals, boxes, player)
