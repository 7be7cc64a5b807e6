"""Reading an engine level (:class:`mazekit.sokoban.Level`) into plain facts for the solver."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["level_facts"]


def level_facts(
    level: Any,
) -> tuple[NDArray[np.bool_], list[tuple[int, int]], list[tuple[int, int]], tuple[int, int]]:
    """``(walls, goals, boxes, player)`` of a level's start, cells as ``(r, c)``.

    Reads the engine's ``Level`` attributes ``walls``, ``goals`` (bool arrays)
    and ``start`` (a state with flat ``player`` and ``boxes``).
    """
    try:
        walls = np.asarray(level.walls, dtype=bool)
        goals = np.asarray(level.goals, dtype=bool)
        start = level.start
        width = walls.shape[1]
        boxes = [divmod(int(b), width) for b in start.boxes]
        player = divmod(int(start.player), width)
    except AttributeError:
        raise TypeError(f"cannot read a Sokoban level from {type(level).__name__}") from None
    goal_rc = [(int(r), int(c)) for r, c in zip(*np.nonzero(goals), strict=False)]
    return walls, goal_rc, [(int(r), int(c)) for r, c in boxes], (int(player[0]), int(player[1]))
