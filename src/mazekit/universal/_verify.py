"""Check a command string against every start: the article's "k test completed from N"."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point
from . import _kernels as K
from ._model import Model, encode

__all__ = ["Verdict", "verify"]


@dataclass(frozen=True, slots=True, eq=False)
class Verdict:
    """How many starts a string brings to the exit.

    Attributes
    ----------
    reached : int
        Free cells (the exit excluded) from which the robot leaves the maze.
    total : int
        Free cells, the exit excluded: the possible starts.
    failed : ndarray (k, 2)
        ``(r, c)`` of the starts that are still inside at the end, reading order.
    steps : ndarray (R, C) of int32
        For each start, the number of commands after which it left; -1 for the
        starts that did not leave, obstacles and the exit.
    """

    reached: int
    total: int
    failed: NDArray[np.intp]
    steps: NDArray[np.int32]

    @property
    def ok(self) -> bool:
        """True when every start reaches the exit."""
        return self.reached == self.total

    def __str__(self) -> str:
        return f"{self.reached} test completed from {self.total}"


def verify(passable: ArrayLike, exit: Point, string: str) -> Verdict:
    """Run the robot from every free cell through ``string``.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell is free (the exit may be marked either way).
    exit : (r, c)
        The exit: a robot that steps on it leaves and ignores further commands.
    string : str
        Commands ``U`` (row - 1), ``D``, ``L`` (column - 1), ``R``; a move into an
        obstacle or off the grid leaves the robot in place.

    Returns
    -------
    Verdict
        ``str(verdict)`` is the article's line ``"k test completed from N"``.

    Notes
    -----
    One pass over the string per start, O(starts * len(string)), compiled for
    big inputs. A string with another character raises ValueError.

    Examples
    --------
    >>> v = verify([[1, 1, 1], [1, 0, 1]], (0, 1), "UL")
    >>> str(v), v.ok, v.failed.tolist()
    ('2 test completed from 4', False, [[0, 0], [1, 0]])
    """
    model = Model(passable, exit)
    return _verify(model, string)


def _verify(model: Model, string: str) -> Verdict:
    moves = encode(string)
    starts = np.arange(model.n, dtype=np.int32)
    out = np.empty(model.n, dtype=np.int32)
    K.walk_kernel.pick(model.n * max(len(moves), 1) // 8)(model.nxt, moves, starts, out)
    steps = np.full(model.shape, -1, dtype=np.int32)
    steps[model.cells[:, 0], model.cells[:, 1]] = out
    failed = model.cells[out < 0]
    return Verdict(int((out >= 0).sum()), model.n, failed, steps)
