"""One search: its directions run in alternating slices until a verdict (:class:`Search`), and
:func:`run_search`, which prepares, runs and rebuilds the solution.

The forward direction pushes from the start; with ``bidirectional`` a backward direction pulls
from every player region around the filled goals, and each looks up its new states in the
other's table. A slice is one call of the compiled :func:`~.kernels.expand.search_kernel` of at
most ``budget`` expansions; the budgets adapt so that each direction gets its share of the time
(``fixed_slice``: that many expansions each, whatever the clock says, so that a run does not
depend on the machine's speed). Between slices the driver reads the clock, the memory cap,
Ctrl-C, the progress callback, the stall rule and the relays' schedule.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ..._jit import THRESHOLD, compile_seconds
from .._padded_kernels import push_distances_kernel
from ..problem import Problem, dead_cells
from .compiling import compile_in_parts
from .directions import Direction, cap_for
from .kernels.expand import search_kernel
from .kernels.state import C_BEST_H, C_CUTS, C_EXPANDED, C_INIT, C_NODES, EXHAUSTED, MEMORY, SOLVED, Board
from .options import DEFAULT_MEMORY, SearchOptions, Signs, Stall
from .plan import backward_settings, forward_settings
from .prepare import Prepared
from .rebuild import lurd_of, solution_pushes
from .relays import first_relay, relay_target
from .results import Progress, SearchResult, SearchStats, Solution, Stop

__all__ = ["PYTHON_SLICE_CELLS", "Search", "run_search"]

#: Cells times expansions of the first slice when it runs as plain Python (about 0.1 s).
PYTHON_SLICE_CELLS = 1000


class Search:
    """One search of a level with one set of options.

    Preparing keeps to ``deadline`` (a ``time.perf_counter()`` time): the goal areas' packing
    orders are cut short there, and a pair table not built by half the time left is given up.

    Attributes
    ----------
    forward, backward : Direction
        The directions (``backward`` None when the search is forward only).
    directions, active : list of Direction
        All of them, and those still running.
    bound_history : list of (seconds, direction, bound)
        Each fall of a direction's lowest stored bound, as seen between slices.
    cell_history : list of (seconds, direction, cells)
        Each time a direction first held a position in new feature cells, and how many it has.
    relays : int
        The backward directions restarted so far (see :mod:`.relays`).
    """

    def __init__(
        self, level: Problem | Prepared, opts: SearchOptions, optimal: bool, memory: int, deadline: float = math.inf
    ) -> None:
        prep = level if isinstance(level, Prepared) else Prepared(level)
        prob = prep.problem
        nb, ncells = len(prob.boxes), prob.height * prob.width
        if ncells >= 1 << 18:
            raise ValueError(f"a {prob.height - 2}x{prob.width - 2} level is too large for the solver (< 262144 cells)")
        if optimal:
            opts = opts.for_optimal()
        self.prep, self.prob, self.opts, self.optimal = prep, prob, opts, optimal
        bidirectional = opts.bidirectional and nb == len(prob.goals) and nb > 0
        self.max_cap = cap_for(int(memory) // (2 if bidirectional else 1), nb, 2 if ncells < 32767 else 4)
        areas = prep.areas(deadline) if (opts.macros and nb) or opts.fess else None
        settings = forward_settings(opts, optimal, nb, ncells)
        roots = (prob.boxes, [prob.player])
        self.forward = Direction(prep, settings, self.max_cap, roots, prob.dead, prob.dist, areas)
        if settings.room_feature:
            self.forward.board = self.forward.board._replace(tunnel=prep.tunnels())
        self.forward.cut(prep, opts.relevance)
        # a table that would take more than half the time left is given up: the search runs without
        self.tables_by = time.perf_counter() + (deadline - time.perf_counter()) / 2
        pairs = prep.dead_pairs(self.tables_by) if opts.dead_pairs else None
        if pairs is not None:
            self.forward.board = self.forward.board._replace(pairs=pairs[0], lidx=pairs[1], fidx=pairs[2])
        # no backward direction when the filled goals leave the player no room
        self.goal_regions = prep.goal_regions() if bidirectional else []
        self.backward = self._backward(prob.boxes, prob.player) if self.goal_regions else None
        self.directions = [self.forward] if self.backward is None else [self.forward, self.backward]
        self.active = list(self.directions)
        self.best = [math.inf] * len(self.directions)
        self.bound_history: list[tuple[float, int, int]] = []
        self.cells_seen = [np.zeros(d.croot.shape[0], dtype=bool) for d in self.directions]
        self.cell_history: list[tuple[float, int, int]] = []
        self.compile_seconds = 0.0
        self.relays = 0
        self.retired = (0, 0)  # states stored and expanded by the backward directions relays replaced
        self.next_relay = math.inf

    def _backward(self, target: NDArray[np.int64], player: int) -> Direction:
        """A backward direction: pulls from every player region around the filled goals towards
        the boxes on ``target`` (sorted padded cells) and the player's region of ``player``: the
        start, or a relay's forward position."""
        prep, prob, opts = self.prep, self.prob, self.opts
        nb, ncells = len(prob.boxes), prob.height * prob.width
        bdist = np.full((nb, ncells), -1, dtype=np.int32)
        push_distances_kernel.pick(ncells * nb)(prob.floor, prob.off, target, bdist, np.empty(ncells, dtype=np.int64))
        bdead = dead_cells(bdist, prob.floor)
        goal_player = min(prob.region({int(b) for b in target}, player))
        back = backward_settings(self.forward.settings, opts, goal_player)
        bwd = Direction(prep, back, self.max_cap, (prob.goals, self.goal_regions), bdead, bdist)
        bwd.cut(prep, opts.backward_relevance)
        if opts.backward_fess:
            bwd.board = _target_as_goals(bwd.board, prob, target)
        if back.room_feature:  # tunnels are the floor's: the same both ways
            bwd.board = bwd.board._replace(tunnel=prep.tunnels())
        seen = prep.reach_pairs(self.tables_by) if opts.reach_pairs else None
        if seen is not None:
            bwd.board = bwd.board._replace(pairs=seen[0], lidx=seen[1], fidx=seen[2])
        return bwd

    def stats(self, elapsed: float, stopped: Stop) -> SearchStats:
        """The statistics so far (both directions)."""
        nodes = sum(int(d.ctr[C_NODES]) for d in self.directions) + self.retired[0]
        return SearchStats(nodes, self.expanded(), elapsed + self.compile_seconds, stopped, self.compile_seconds)

    def expanded(self) -> int:
        """States expanded so far (both directions, the relays' earlier backward ones too)."""
        return sum(int(d.ctr[C_EXPANDED]) for d in self.directions) + self.retired[1]

    def relay_when_due(self, elapsed: float) -> None:
        """A relay (:meth:`relay`) when ``elapsed`` seconds of the run have reached the next one's time."""
        if elapsed >= self.next_relay and self.opts.relays is not None and self.backward is not None:
            self.relay()
            self.next_relay = elapsed + self.opts.relays.each

    def relay(self) -> None:
        """Restart the backward direction aimed at a forward position (see :mod:`.relays`)."""
        rel, old = self.opts.relays, self.backward
        if rel is None or old is None:
            raise ValueError("a relay needs the relays option and a backward direction")
        target, player = relay_target(self.forward, rel, self.relays)
        self.relays += 1
        bwd = self._backward(target, player)
        self.retired = (self.retired[0] + int(old.ctr[C_NODES]), self.retired[1] + int(old.ctr[C_EXPANDED]))
        self.directions[self.directions.index(old)] = self.backward = bwd
        self.active = [d for d in self.active if d is not old] + [bwd]
        # the lowest bounds and the cells seen so far stay: a new direction's first bounds and
        # cells (towards another position) are no sign of progress

    def verdict(self, cur: Direction, status: int) -> Stop | None:
        """What one slice's status means for the search (None: go on)."""
        if status == SOLVED:
            return "solved"
        if status == EXHAUSTED and (cur.ctr[C_CUTS] > 0 or (cur is self.backward and self.relays > 0)):
            # relevance cuts cut every way on, or a relay's backward direction ran out: no proof;
            # the other direction goes on alone (still meeting this one's states)
            self.active.remove(cur)
            return None
        if status == EXHAUSTED:
            return "unsolvable"
        if status == MEMORY and not cur.grow():
            # this direction is full: the other goes on alone (still meeting its states)
            self.active.remove(cur)
            return None if self.active else "memory"
        return None

    def last_sign(self, signs: Signs) -> float:
        """The seconds at which the search last showed a sign of progress of ``signs`` (0: none yet)."""
        last = 0.0
        if signs in ("bound", "either") and self.bound_history:
            last = self.bound_history[-1][0]
        if signs in ("cells", "either") and self.cell_history:
            last = max(last, self.cell_history[-1][0])
        return last

    def note_progress(self, elapsed: float) -> None:
        """Record a fall of either direction's lowest stored bound, and new feature cells."""
        for i, d in enumerate(self.directions):
            if d.ctr[C_INIT] == 0:
                continue  # no roots yet: its bound is not known (the counter still reads 0)
            b = int(d.ctr[C_BEST_H])
            if b < self.best[i]:
                self.best[i] = b
                self.bound_history.append((elapsed, i, b))
            fresh = (d.croot >= 0) & ~self.cells_seen[i]
            if fresh.any():
                self.cells_seen[i] |= fresh
                self.cell_history.append((elapsed, i, int(np.count_nonzero(self.cells_seen[i]))))

    def adapt(self, cur: Direction, spent: float, slice_seconds: float, fixed_slice: int) -> None:
        """Set the direction's next budget so that its slices take its share of the time."""
        if fixed_slice:
            cur.budget = fixed_slice
            return
        rel = self.opts.relays
        back = self.opts.backward_share if self.relays == 0 or rel is None else rel.share
        share = back if cur.settings.backward else 1 - back
        want = slice_seconds if len(self.active) == 1 else 2 * slice_seconds * share
        if spent < want / 2:
            cur.budget = min(cur.budget * 2, 1 << 22)
        elif spent > want * 2 and cur.budget > 16:
            cur.budget //= 2

    def run(
        self,
        t0: float,
        time_limit: float | None,
        progress: Progress | None,
        slice_seconds: float,
        fixed_slice: int,
        max_expansions: int | None,
        stall: Stall | None = None,
    ) -> tuple[Stop, Direction | None]:
        """Slices until a verdict, the time limit, the expansion cap, a ``stall`` (then
        ``"time"``: the search yields its time) or Ctrl-C: ``(why it stopped, the direction that
        found the solution)``."""
        # a first small slice runs uncompiled (tiny levels need no compiler); the rest compiled
        ncells = self.prob.height * self.prob.width
        kernel = search_kernel.pick(ncells)
        if kernel is search_kernel.py_func and not fixed_slice:
            # plain Python expands a state in about 0.1 ms a cell: a few states only, so that
            # the time limit is looked at soon
            for d in self.directions:
                d.budget = max(1, min(d.budget, PYTHON_SLICE_CELLS // ncells))
        self.next_relay = first_relay(self.opts.relays, self.backward is not None, time_limit)
        try:
            while self.active:
                for cur in list(self.active):
                    # the first compiled call in a process compiles the kernel (or loads it from
                    # numba's cache): that one-off cost is not charged to the time limit
                    first = kernel is not search_kernel.py_func and not getattr(kernel, "signatures", True)
                    if first and progress is not None and progress(self._so_far(t0), "compiling"):
                        return "interrupted", None
                    ts = time.perf_counter()
                    if first:
                        compile_in_parts()  # once per installation: the helpers on two cores first
                    status = cur.run(kernel, self.backward if cur is self.forward else self.forward)
                    now = time.perf_counter()
                    if first:
                        t0 += now - ts
                        self.compile_seconds += now - ts
                    stop = self.verdict(cur, status)
                    if stop is not None:
                        return stop, (cur if stop == "solved" else None)
                    if cur not in self.active:
                        continue
                    if progress is not None and progress(self._so_far(t0), "searching"):
                        return "interrupted", None
                    self.adapt(cur, now - ts, slice_seconds, fixed_slice)
                    self.note_progress(now - t0)
                if self._should_stop(t0, time_limit, stall, max_expansions):
                    break
                kernel = search_kernel.pick(THRESHOLD)
        except KeyboardInterrupt:
            return "interrupted", None
        return "time", None

    def pushes(self, winner: Direction) -> tuple[list[tuple[int, int]], int]:
        """The solution's pushes ``(box cell, direction)`` when ``winner`` stopped on a solution,
        and how many of them the backward direction found (see :func:`~.rebuild.solution_pushes`)."""
        return solution_pushes(self.prob, self.forward, self.backward, winner)

    def _so_far(self, t0: float) -> SearchStats:
        return self.stats(time.perf_counter() - t0, "time")

    def _should_stop(self, t0: float, time_limit: float | None, stall: Stall | None, most: int | None) -> bool:
        """After a round of slices: the time is up, the search stalled or reached its expansion
        cap (a relay that is due starts first, if the search goes on)."""
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            return True
        self.relay_when_due(time.perf_counter() - t0)
        if stall is not None and stall.stalled(time.perf_counter() - t0, self.last_sign(stall.signs)):
            return True
        return most is not None and self.expanded() >= most


def _target_as_goals(board: Board, prob: Problem, target: NDArray[np.int64]) -> Board:
    """The backward direction's board for its feature cells (``backward_fess``): the box cells of
    ``target`` (the start's, or a relay's forward position) are its goals, with no goal areas.
    The pulls themselves read only the board's distances to those cells, which are its own."""
    start = np.zeros_like(prob.goalm)
    start[target] = 1
    board = board._replace(goals=target.astype(prob.goals.dtype), goalm=start)
    return board._replace(garea=np.full(prob.height * prob.width, -1, dtype=np.int32))


def run_search(
    level: Problem | Prepared,
    opts: SearchOptions,
    *,
    optimal: bool = False,
    time_limit: float | None = 10.0,
    memory: int = DEFAULT_MEMORY,
    progress: Progress | None = None,
    slice_seconds: float = 0.05,
    fixed_slice: int = 0,
    max_expansions: int | None = None,
    stall: Stall | None = None,
    watch: Callable[[Search], None] | None = None,
) -> SearchResult:
    """One search with one set of options: prepare, search, rebuild the solution.

    See :func:`~.search.search_level` for the arguments it shares. It stops early when it stalls
    (``stall``); ``fixed_slice`` and ``max_expansions`` make a run independent of the clock (the
    tests and ``benchmarks/probes/solver_trace.py`` use them). ``watch`` is given the :class:`Search`
    before it runs, to read its histories and counters during or after the run.

    >>> from mazekit.sokoban import parse_level
    >>> from mazekit.sokoban.problem import as_problem
    >>> r = run_search(as_problem(parse_level("#######\\n#@ $ .#\\n#######")), SearchOptions(), fixed_slice=64)
    >>> r.stats.stopped, r.solution.lurd
    ('solved', 'rRR')
    """
    t0 = time.perf_counter()
    deadline = math.inf if time_limit is None else t0 + time_limit
    compiled0 = compile_seconds()
    search = Search(level, opts, optimal, memory, deadline)
    if watch is not None:
        watch(search)
    search.compile_seconds = compile_seconds() - compiled0  # preparing may compile kernels too
    start = t0 + search.compile_seconds
    stopped, winner = search.run(start, time_limit, progress, slice_seconds, fixed_slice, max_expansions, stall)
    stats = search.stats(time.perf_counter() - t0 - search.compile_seconds, stopped)
    if winner is None:
        return SearchResult(None, stats)
    pushes, backward = search.pushes(winner)
    lurd = lurd_of(search.prob, pushes)
    return SearchResult(Solution(lurd, len(lurd), len(pushes), optimal, stats, backward), stats)
