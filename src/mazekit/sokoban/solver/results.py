"""What a search answers: its statistics, its solution, and the progress callback's shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Progress", "SearchResult", "SearchStats", "Solution", "Stop"]

#: Why a search stopped.
Stop = Literal["solved", "unsolvable", "time", "memory", "interrupted"]


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What a search did.

    Attributes
    ----------
    nodes : int
        States stored (the transposition table's size).
    expanded : int
        States expanded.
    time : float
        Wall-clock seconds, compilation included.
    stopped : str
        Why it stopped: ``"solved"``, ``"unsolvable"`` (every reachable state
        was tried), ``"time"``, ``"memory"`` or ``"interrupted"``.
    compile_time : float
        Of ``time``, the seconds spent compiling the search kernel and the kernels
        that prepare the level (or loading them from numba's cache), which the time
        limit does not count.
    """

    nodes: int
    expanded: int
    time: float
    stopped: Stop
    compile_time: float = 0.0


#: A progress callback for :func:`search_level`: ``progress(stats, phase)``, called from the
#: searching thread between slices (``phase`` ``"searching"``, ``stats`` so far, ``stopped``
#: ``"time"``) and just before a slice that compiles the kernel (``"compiling"``). Returning
#: True stops the search as Ctrl-C does (``stopped == "interrupted"``).
Progress = Callable[[SearchStats, Literal["searching", "compiling"]], bool | None]


@dataclass(frozen=True, slots=True)
class Solution:
    """A solution: the LURD string (lower case walks, upper case pushes) and its counts.

    ``optimal`` is True when the search proved that no solution has fewer pushes.
    ``backward_pushes`` says which direction found it: of ``pushes``, the last ones that the
    backward search found (its pulls, reversed); the others are the forward search's.
    """

    lurd: str
    moves: int
    pushes: int
    optimal: bool
    stats: SearchStats = field(compare=False)
    backward_pushes: int = field(default=0, compare=False)


@dataclass(slots=True)
class SearchResult:
    """The outcome of :func:`search_level`: the solution (or None) and the stats either way."""

    solution: Solution | None
    stats: SearchStats
