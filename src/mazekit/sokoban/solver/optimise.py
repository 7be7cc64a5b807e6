"""Shortening a solution: push-optimal searches over windows of it.

A solution found in fast mode, or played by hand, is seldom the shortest. The
optimiser cuts it into windows of consecutive pushes and searches each window for
a shorter way from the position where it starts to the one where it ends:

* the solver's A* (fewest pushes) to the window's last box layout, capped in
  expansions; its pushes count when the player can then walk to where the window
  left it;
* counting moves, also a breadth-first search over moves (YASS calls it a vicinity
  search) in which only the boxes that move in the window may move (at most
  four), the others standing as walls: the fewest moves between the two positions
  under that restriction, the player ending exactly where the window left it.

A window's way is taken when the whole solution is then shorter: fewer moves,
then pushes (``metric="moves"``, what players compare most) or fewer pushes,
then moves (``metric="pushes"``). The walks between pushes are always the
player's shortest, so the result is never longer than the input. The windows
overlap by half and double in size up to the whole solution (whose last window
may end in any solved position); when a sweep changes nothing, the caps are
raised fourfold, until the time is up or every window's searches have ended
below their caps.

>>> from mazekit.sokoban import parse_level
>>> lv = parse_level("#######\\n#@ $ .#\\n#     #\\n#######")
>>> r = optimise(lv, "rRdrruLdlluRR")  # a push right, round, back left, round again
>>> r.lurd, (r.before_moves, r.before_pushes), (r.moves, r.pushes)
('rRR', (13, 4), (3, 2))
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import NDArray

from .._kernels import VICINITY_BITS, VICINITY_MASK, vicinity_kernel
from ..level import Level, State
from ..problem import Problem
from ..rules import lurd_pushes, push, pushes_to_lurd, replay, walk
from .driver import run_search
from .options import SearchOptions

__all__ = [
    "FloorCodes",
    "Metric",
    "OptimiseProgress",
    "OptimiseStatus",
    "Optimised",
    "floor_codes",
    "optimise",
    "pushes_of",
    "states_along",
    "vicinity_search",
]

#: The A*'s options for a window (see :meth:`SearchOptions.for_optimal`).
_WINDOW_OPTIONS = SearchOptions()
#: Memory of one window's search: windows are small searches.
_WINDOW_MEMORY = 256 << 20
#: Expansions per kernel call (fixed, so that a run does not depend on the clock).
_SLICE = 4096
#: Positions a vicinity search may store per expansion of the A*'s cap (its nodes are far cheaper),
#: and at most (20 bytes a position: 80 MB).
_VICINITY_PER_EXPANSION = 10
_VICINITY_MAX_NODES = 4 << 20


class OptimiseStatus(NamedTuple):
    """Where the optimiser is: the solution's pushes now, the window size, the window's
    first push of how many, the solution's moves now, the sweep (from 1: a pass of windows
    of every size over the whole solution; after one that changes nothing the searches'
    caps are raised fourfold), the windows shortened so far,
    the seconds spent compiling kernels so far (not charged to the time limit), and
    whether a kernel is about to compile (the first run of an installation: seconds
    that cannot be interrupted)."""

    pushes: int
    window: int
    at: int
    of: int
    moves: int
    sweep: int
    improvements: int
    compile_time: float
    compiling: bool


class _Found(NamedTuple):
    """A window search's answer: its pushes (None: nothing short enough), whether it ended at
    its cap (a larger one might find more), and the seconds spent compiling its kernel."""

    pushes: list[tuple[int, int]] | None
    capped: bool
    compile_time: float = 0.0


#: Called before each window and between slices of its searches (and just before a kernel's
#: first compile); True stops the optimiser (``stopped == "interrupted"``).
OptimiseProgress = Callable[[OptimiseStatus], bool | None]
#: How a window's search reports: ``tell(compiling, compile_seconds)``; True stops it.
_Tell = Callable[[bool, float], bool]


@dataclass(frozen=True, slots=True)
class Optimised:
    """What :func:`optimise` made of a solution.

    Attributes
    ----------
    lurd : str
        The shortened solution (the input when nothing shorter was found).
    moves, pushes : int
        Its moves (pushes included) and pushes.
    before_moves, before_pushes : int
        The input's.
    searches : int
        Window searches run.
    improvements : int
        Windows replaced by a shorter sequence.
    time : float
        Seconds spent, compiling included.
    stopped : str
        ``"done"`` (every window's searches ended below their caps), ``"time"`` or
        ``"interrupted"``.
    compile_time : float
        Seconds of ``time`` spent compiling the searches' kernels (the first run of an
        installation); not charged to the time limit.
    """

    lurd: str
    moves: int
    pushes: int
    before_moves: int
    before_pushes: int
    searches: int
    improvements: int
    time: float
    stopped: Literal["done", "time", "interrupted"]
    compile_time: float = 0.0


def pushes_of(level: Level, lurd: str) -> list[tuple[int, int]]:
    """The pushes ``(box cell, direction)`` of a LURD string that solves ``level``.

    Raises ValueError naming the first illegal move, or when the moves do not solve the level.
    """
    pushes = lurd_pushes(level, lurd)
    end = states_along(level, pushes)[-1]
    if not level.is_solved(end):
        on = sum(level.goals.flat[b] for b in end.boxes)
        raise ValueError(f"the moves do not solve the level ({on} of {len(end.boxes)} boxes end on goals)")
    return pushes


def states_along(level: Level, pushes: list[tuple[int, int]]) -> list[State]:
    """The positions before each push and after the last."""
    out = [level.start]
    for box, d in pushes:
        out.append(push(level, out[-1], box, d))
    return out


def _candidate(
    level: Level,
    a: State,
    b: State,
    most: int,
    final: bool,
    expansions: int,
    seconds: float | None,
    tell: _Tell | None = None,
) -> _Found:
    """At most ``most`` pushes from ``a`` to ``b``'s box layout (any solved position when
    ``final``), the player then able to walk to ``b.player``: the A*'s, capped at
    ``expansions`` and ``seconds`` (its compile not counted). ``tell`` hears from the
    A* between slices and may stop it (KeyboardInterrupt)."""
    if not final and a.boxes == b.boxes:
        return _Found([] if a.player == b.player or walk(level, a, b.player) is not None else None, False)
    goals = level.goals
    if not final:
        goals = np.zeros(level.shape, dtype=np.bool_)
        goals.flat[list(b.boxes)] = True
    sub = Level(level.walls, goals, a, level.decoys)
    res = run_search(
        Problem.from_level(sub),
        _WINDOW_OPTIONS,
        optimal=True,
        time_limit=seconds,
        memory=_WINDOW_MEMORY,
        fixed_slice=_SLICE,
        max_expansions=expansions,
        progress=None if tell is None else lambda st, phase: tell(phase == "compiling", st.compile_time),
    )
    if res.stats.stopped == "interrupted":
        raise KeyboardInterrupt
    capped = res.stats.stopped == "time"  # (at the memory cap, a larger expansion cap does not help)
    compiling = res.stats.compile_time
    if res.solution is None or res.solution.pushes > most:
        return _Found(None, capped, compiling)
    new = pushes_of(sub, res.solution.lurd)
    end = states_along(sub, new)[-1]
    if not final and end.player != b.player and walk(level, end, b.player) is None:
        return _Found(None, False, compiling)  # the layout, but the player shut out of the window's end
    return _Found(new, False, compiling)


#: The most boxes a vicinity search moves, and the most floor cells it can code.
VICINITY_BOXES = 4
_VICINITY_CELLS = 1 << VICINITY_BITS


class FloorCodes(NamedTuple):
    """The floor cells numbered for vicinity keys: ``cells[code]`` and ``code[cell]``."""

    cells: NDArray[np.int32]
    code: NDArray[np.int64]


def floor_codes(level: Level) -> FloorCodes:
    """Number the level's floor cells (once per optimisation)."""
    cells = np.flatnonzero(level.floor.ravel()).astype(np.int32)
    code = np.zeros(level.size, dtype=np.int64)
    code[cells] = np.arange(len(cells))
    return FloorCodes(cells, code)


def vicinity_search(
    level: Level,
    codes: FloorCodes,
    states: list[State],
    i: int,
    k: int,
    final: bool,
    cap: int,
    tell: _Tell | None = None,
) -> _Found:
    """The fewest moves from ``states[i]`` to ``states[k]`` (its boxes; its player too unless
    ``final``) moving only the boxes that move in between (at most :data:`VICINITY_BOXES`),
    the others standing still: a breadth-first search over moves of at most ``cap``
    positions. ``tell`` hears before the kernel's first compile and may stop it
    (KeyboardInterrupt)."""
    stay = set(states[i].boxes).intersection(*(set(s.boxes) for s in states[i + 1 : k + 1]))
    moving = [b for b in states[i].boxes if b not in stay]
    target = [b for b in states[k].boxes if b not in stay]
    cells, code = codes
    if not 1 <= len(moving) <= VICINITY_BOXES or len(cells) >= _VICINITY_CELLS:
        return _Found(None, False)
    bits = VICINITY_BITS

    def key(player: int, boxes: list[int]) -> int:
        out = 0
        for b in sorted(boxes, reverse=True):  # codes grow with cells: the last box highest
            out = (out << bits) | int(code[b])
        return (out << bits) | int(code[player])

    blocked = np.zeros(level.size, dtype=np.uint8)
    blocked[list(stay)] = 1
    cap = min(cap, _VICINITY_MAX_NODES)
    keys = np.empty(cap, dtype=np.int64)
    parent = np.empty(cap, dtype=np.int32)
    table = np.full(1 << (2 * cap - 1).bit_length(), -1, dtype=np.int32)
    kernel = vicinity_kernel.pick(cap)
    compiling = kernel is not vicinity_kernel.py_func and not kernel.signatures  # its first call compiles it
    if compiling and tell is not None and tell(True, 0.0):
        raise KeyboardInterrupt
    t0 = time.perf_counter()
    node = kernel(
        level.nbr,
        blocked,
        code,
        cells,
        len(moving),
        key(states[i].player, moving),
        key(states[k].player, target),
        final,
        keys,
        parent,
        table,
    )
    compile_time = time.perf_counter() - t0 if compiling else 0.0
    if node < 0:  # -2: out of room; a larger cap helps only below the largest
        return _Found(None, node == -2 and cap < _VICINITY_MAX_NODES, compile_time)
    players = []
    while node >= 0:
        players.append(int(cells[int(keys[node]) & VICINITY_MASK]))
        node = int(parent[node])
    players.reverse()
    pushes: list[tuple[int, int]] = []
    state = states[i]
    for a, b in zip(players, players[1:], strict=False):
        d = next(d for d in range(4) if int(level.nbr[a, d]) == b)
        if b in state.boxes:
            pushes.append((b, d))
            state = push(level, state, b, d)
        else:
            state = State(b, state.boxes)
    return _Found(pushes, False, compile_time)


Metric = Literal["moves", "pushes"]


def optimise(
    level: Level,
    lurd: str,
    *,
    metric: Metric = "moves",
    time_limit: float | None = 10.0,
    window: int = 8,
    expansions: int = 20_000,
    progress: OptimiseProgress | None = None,
) -> Optimised:
    """Shorten a solution of ``level``; see the module notes.

    ``metric`` is what counts first: ``"moves"`` (then pushes) or ``"pushes"``
    (then moves). ``window`` is the first window's size in pushes, ``expansions``
    the first cap of each window's A*; when a whole sweep finds nothing the cap is
    raised fourfold, while time is left. With ``time_limit`` None it stops after
    the first sweep that finds nothing. ``progress`` (an :data:`OptimiseProgress`) is
    called from the optimising thread with an :class:`OptimiseStatus` before each
    window and between slices of its searches (about every 4,096 expansions); Ctrl-C
    (or ``progress`` returning True) stops it with the best so far. Raises ValueError
    when ``lurd`` does not solve the level.
    """
    if window < 1 or expansions < 1:
        raise ValueError(f"window and expansions must be at least 1, got {window} and {expansions}")
    if metric not in ("moves", "pushes"):
        raise ValueError(f"metric must be 'moves' or 'pushes', got {metric!r}")
    t0 = time.perf_counter()
    given = "".join(ch for ch in lurd if not ch.isspace())
    run = _Run(level, pushes_of(level, given), metric, None if time_limit is None else t0 + time_limit, progress)
    before = (len(given), len(run.pushes))
    stopped: Literal["done", "time", "interrupted"] = "done"
    try:
        cap = expansions
        while True:
            changed, capped = run.sweep(window, cap)
            if not changed:
                if time_limit is None or not capped:
                    break  # (with no window at its cap, a larger cap finds nothing more)
                cap *= 4
    except _TimeUp:
        stopped = "time"
    except KeyboardInterrupt:
        stopped = "interrupted"
    out = pushes_to_lurd(level, level.start, run.pushes)
    if run.key(len(out), len(run.pushes)) >= run.key(*before):
        out = given
    r = replay(level, out)  # the engine checks the result: its counts are the ones reported
    if not r.solved:  # pragma: no cover - an optimiser bug
        raise RuntimeError(f"the shortened solution does not solve the level: {r.error or 'boxes off goals'}")
    elapsed = time.perf_counter() - t0
    compiling = min(run.compile_time, elapsed)  # the process's compile clock: never more than the run's time
    return Optimised(
        out, r.moves, r.pushes, before[0], before[1], run.searches, run.improvements, elapsed, stopped, compiling
    )


class _TimeUp(Exception):
    """The optimiser's time limit passed."""


class _Run:
    """One optimisation: the solution's pushes as they are now, shortened in place."""

    def __init__(
        self,
        level: Level,
        pushes: list[tuple[int, int]],
        metric: Metric,
        deadline: float | None,
        progress: OptimiseProgress | None,
    ) -> None:
        self.level, self.pushes, self.metric = level, pushes, metric
        self.deadline, self.progress = deadline, progress
        self.searches = self.improvements = self.sweeps = 0
        self.compile_time = 0.0
        self.window = self.at = 0  # the window being searched: its size and first push
        self.codes = floor_codes(level)
        #: windows (first position, last position, whether it is the end, pushes between) whose
        #: searches ended below their caps: a position that comes back makes another window
        self.settled: set[tuple[State, State, bool, int]] = set()
        self.moves = len(pushes_to_lurd(level, level.start, pushes))
        self.cost = self.key(self.moves, len(pushes))
        self.tell: _Tell | None = None if progress is None else self.report

    def report(self, compiling: bool = False, compile_seconds: float = 0.0) -> bool:
        """Tell ``progress`` where the run is (``compile_seconds``: the current search's, not yet
        counted); True when it says stop."""
        if self.progress is None:
            return False
        n = len(self.pushes)
        status = OptimiseStatus(
            n,
            self.window,
            self.at,
            n,
            self.moves,
            self.sweeps,
            self.improvements,
            self.compile_time + compile_seconds,
            compiling,
        )
        return bool(self.progress(status))

    def key(self, moves: int, pushes: int) -> tuple[int, int]:
        """What is compared: (moves, pushes) or (pushes, moves)."""
        return (moves, pushes) if self.metric == "moves" else (pushes, moves)

    def sweep(self, window: int, cap: int) -> tuple[bool, bool]:
        """Rounds of windows of ``window``, twice that, ... up to the whole solution: whether
        one was shortened, and whether a search stopped at its cap."""
        changed = capped = False
        size = window
        self.sweeps += 1
        while True:
            c, cut = self.round(size, cap)
            changed, capped = changed or c, capped or cut
            if size >= len(self.pushes):
                return changed, capped
            size *= 2

    def round(self, size: int, cap: int) -> tuple[bool, bool]:
        """One pass of windows of ``size`` pushes, overlapping by half: whether one was shortened,
        and whether a search stopped at its cap. A window whose search ended below its
        cap is not searched again."""
        changed = capped = False
        states = states_along(self.level, self.pushes)
        i = 0
        while i < len(self.pushes):
            left = None if self.deadline is None else self.deadline - time.perf_counter()
            if left is not None and left <= 0:
                raise _TimeUp
            n = len(self.pushes)
            self.window, self.at = size, i
            if self.report():
                raise KeyboardInterrupt
            k = min(i + size, n)
            window = (states[i], states[k], k == n, k - i)  # the same positions, as many pushes apart
            if window not in self.settled:
                # fewer pushes, or (counting moves first) as many in another order
                most = k - i - (self.metric == "pushes")
                found = [_candidate(self.level, states[i], states[k], most, k == n, cap, left, self.tell)]
                if self.metric == "moves":  # and the fewest moves of the boxes that move here
                    nodes = cap * _VICINITY_PER_EXPANSION
                    found.append(vicinity_search(self.level, self.codes, states, i, k, k == n, nodes, self.tell))
                self.searches += 1
                self.compiled(sum(f.compile_time for f in found))
                cut = any(f.capped for f in found)
                capped |= cut
                if not cut:
                    self.settled.add(window)
                for new in (f.pushes for f in found):
                    if new is not None and self.replace(i, k, new):
                        states = states_along(self.level, self.pushes)
                        changed = True
                        break
            i += max(1, size // 2)
        return changed, capped

    def compiled(self, seconds: float) -> None:
        """Compiling a kernel (once per installation) is not charged to the time limit."""
        self.compile_time += seconds
        if self.deadline is not None:
            self.deadline += seconds

    def replace(self, i: int, k: int, new: list[tuple[int, int]]) -> bool:
        """Put ``new`` in place of pushes ``i:k`` if the whole solution is then shorter."""
        pushes = self.pushes[:i] + new + self.pushes[k:]
        moves = len(pushes_to_lurd(self.level, self.level.start, pushes))
        cost = self.key(moves, len(pushes))
        if cost >= self.cost:
            return False
        self.pushes[:], self.cost, self.moves = pushes, cost, moves
        self.improvements += 1
        return True
