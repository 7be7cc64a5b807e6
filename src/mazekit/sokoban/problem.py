"""A level as compiled kernels see it: padded flat arrays, dead squares, push distances.

:meth:`Problem.from_level` turns a :class:`mazekit.sokoban.Level` into a :class:`Problem` of
plain arrays, the input of the pair tables (:mod:`.pairs`) and of the solver's compiled search;
:func:`as_problem` is what the solver calls on its argument. Text is read by the engine's
parser (:func:`mazekit.sokoban.parse_level`) first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ._padded_kernels import pull_distances_kernel
from .level import Level

__all__ = ["Problem", "as_problem", "dead_cells"]


@dataclass(frozen=True, slots=True, eq=False)
class Problem:
    """A level as the kernels see it (flat indices on a grid padded by one wall).

    Build one with :meth:`from_level`.

    Attributes
    ----------
    height, width : int
        The padded grid's shape (the level's plus 2 each way).
    floor : ndarray of uint8
        1 where the player can ever stand (reachable from the start, boxes
        ignored: the level's :attr:`~mazekit.sokoban.Level.floor`), and under
        every box, even one the player can never reach.
    goalm : ndarray of uint8
        1 on goals.
    dead : ndarray of uint8
        1 on floor cells from which a lone box can never reach any goal.
    dist : ndarray of int32, shape (goals, cells)
        Pushes from a cell to each goal for a lone box, -1 when impossible.
    goals, boxes : ndarray of int64
        Goal cells and box cells, both sorted.
    player : int
        The player's cell.
    off : ndarray of int64
        Flat steps up, down, left, right.
    level : Level
        The engine level the problem was built from (its flat indices are
        unpadded; :meth:`level_cell` converts).

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> p = Problem.from_level(parse_level("#####\\n#@$.#\\n#####"))
    >>> p.boxes.tolist(), p.goals.tolist(), p.player, (p.height, p.width)
    ([17], [18], 16, (5, 7))
    >>> p.level_cell(17), p.level.start.boxes
    (7, (7,))
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
    level: Level

    @classmethod
    def from_level(cls, level: Level, *, extra_boxes: bool = False) -> Problem:
        """The problem of an engine level: its arrays padded by one wall, its dead squares and distances.

        ``extra_boxes``: a level with more boxes than goals is taken too (the engine's deadlock
        rules read its dead squares, distances and board; the solver and the pair tables do not
        take such a level).

        Raises
        ------
        ValueError
            When the level has more boxes than goals (unless ``extra_boxes``).
        """
        rows, cols = level.shape
        h, w = rows + 2, cols + 2
        n = h * w
        floor2 = np.zeros((h, w), dtype=np.uint8)
        floor2[1:-1, 1:-1] = level.floor
        floor = floor2.ravel()
        off = np.array([-w, w, -1, 1], dtype=np.int64)
        # padding keeps the row-major order, so sorted level cells stay sorted
        goal_cells = _padded(level.goal_cells, cols, w)
        box_cells = _padded(level.start.boxes, cols, w)
        start = int(_padded((level.start.player,), cols, w)[0])
        if len(goal_cells) < len(box_cells) and not extra_boxes:
            raise ValueError(f"{len(box_cells)} boxes but only {len(goal_cells)} goals")
        floor[box_cells] = 1  # a box the player can never reach stands on floor too; it never moves
        goalm = np.zeros(n, dtype=np.uint8)
        goalm[goal_cells] = 1
        dist = np.full((len(goal_cells), n), -1, dtype=np.int32)
        queue = np.empty(n, dtype=np.int64)
        pull_distances_kernel.pick(n * max(1, len(goal_cells)))(floor, off, goal_cells, dist, queue)
        dead = dead_cells(dist, floor)
        return cls(h, w, floor, goalm, dead, dist, goal_cells, box_cells, start, off, level)

    def cell(self, r: int, c: int) -> int:
        """Flat index of the level's cell ``(r, c)`` (unpadded coordinates)."""
        return (r + 1) * self.width + (c + 1)

    def padded_cells(self) -> NDArray[np.int64]:
        """The padded cell of each of the level's cells, in the level's flat order."""
        rows, cols = self.height - 2, self.width - 2
        return _padded(tuple(range(rows * cols)), cols, self.width)

    def level_cell(self, x: int) -> int:
        """The level's flat index of padded cell ``x`` (the inverse of the padding).

        Raises
        ------
        ValueError
            When ``x`` is on the padding (or off the padded grid): it has no cell in the level.
        """
        r, c = divmod(int(x), self.width)
        if not (1 <= r <= self.height - 2 and 1 <= c <= self.width - 2):
            raise ValueError(f"padded cell {x} is outside the {self.height - 2}x{self.width - 2} level")
        return (r - 1) * (self.width - 2) + (c - 1)

    def region(self, occupied: set[int], start: int) -> set[int]:
        """The floor cells the player reaches from ``start`` with boxes on ``occupied``."""
        seen = {start}
        todo = [start]
        while todo:
            x = todo.pop()
            for d in range(4):
                y = x + int(self.off[d])
                if self.floor[y] and y not in occupied and y not in seen:
                    seen.add(y)
                    todo.append(y)
        return seen

    def regions(self, boxes: NDArray[np.int64]) -> list[int]:
        """One cell of each region of free floor around ``boxes``, the least, in cell order."""
        occupied = {int(b) for b in boxes}
        seen: set[int] = set()
        out = []
        for x0 in (int(x) for x in np.flatnonzero(self.floor)):
            if x0 in occupied or x0 in seen:
                continue
            out.append(x0)
            seen |= self.region(occupied, x0)
        return out


def dead_cells(dist: NDArray[np.int32], floor: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The dead squares of lone-box distances ``dist`` (a row a target: the goals' push distances,
    or, for the backward search, the pull distances to the start's boxes): 1 on the floor cells
    from which a lone box reaches no target (every floor cell when there is none).

    >>> import numpy as np
    >>> dead_cells(np.array([[2, 1, 0, -1]], dtype=np.int32), np.array([1, 1, 1, 1], dtype=np.uint8)).tolist()
    [0, 0, 0, 1]
    """
    dead: NDArray[np.uint8] = ((dist < 0).all(axis=0) & (floor != 0)).astype(np.uint8)
    return dead


def _padded(cells: tuple[int, ...], cols: int, w: int) -> NDArray[np.int64]:
    """Flat cells of a level ``cols`` wide as flat cells of the padded grid ``w`` wide."""
    a = np.asarray(cells, dtype=np.int64).reshape(-1)
    padded: NDArray[np.int64] = (a // cols + 1) * w + (a % cols + 1)
    return padded


def as_problem(level: Level | Problem) -> Problem:
    """The :class:`Problem` of an engine level; a :class:`Problem` is returned unchanged.

    Raises
    ------
    TypeError
        For anything else (XSB rows or text included: read them with
        :func:`mazekit.sokoban.parse_level` first).

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> p = as_problem(parse_level("#####\\n#@$.#\\n#####"))
    >>> as_problem(p) is p
    True
    >>> as_problem(["#####", "#@$.#", "#####"])
    Traceback (most recent call last):
    ...
    TypeError: cannot read a Sokoban level from list
    """
    if isinstance(level, Problem):
        return level
    if isinstance(level, Level):
        return Problem.from_level(level)
    raise TypeError(f"cannot read a Sokoban level from {type(level).__name__}")
