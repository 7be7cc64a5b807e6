"""Universal escape strings: one command string that frees the robot from any start.

A maze of free cells, obstacles and one exit; the robot's start is unknown.
Commands ``U D L R`` move it one cell (row - 1, row + 1, column - 1, column + 1);
a move into an obstacle or off the grid leaves it in place; on the exit it leaves
and ignores the rest. :func:`find` builds a string that works from every free
cell, :func:`verify` checks one (the article's "k test completed from N"), and
:mod:`~mazekit.universal.bounds` gives lower bounds on the length.

>>> from mazekit import examples
>>> from mazekit.universal import find, read_maze, verify
>>> passable, exit = read_maze(examples.read_text("julia.txt"))
>>> res = find(passable, exit, method="exact")
>>> len(res.string), res.proven, res.pair_bound, res.distance_bound
(35, True, 31, 20)
>>> str(verify(passable, exit, res.string))
'70 test completed from 70'
"""

from __future__ import annotations

from ._find import UniversalResult, find
from ._model import COMMANDS, read_maze
from ._verify import Verdict, verify
from .bounds import PairBound, distance_bound, pair_bound, pair_distances, triple_bound

__all__ = [
    "COMMANDS",
    "PairBound",
    "UniversalResult",
    "Verdict",
    "distance_bound",
    "find",
    "pair_bound",
    "pair_distances",
    "read_maze",
    "triple_bound",
    "verify",
]
