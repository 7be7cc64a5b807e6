"""The fast mode's portfolio on several cores: :func:`run_lanes`.

The portfolio's searches are cut into *lanes*, one a core, each lane a run of consecutive
searches (:func:`lane_members`). Each lane runs its searches one after the other, each its
share of the lane's time left (``SearchOptions.time_share``), as
:func:`~.sequence.run_sequence` does on one core. The fast mode's portfolio on two cores or more
(:func:`~.portfolio.portfolio_for`) is the first core's run (:func:`~.portfolio.first_core`:
:data:`~.portfolio.PORTFOLIO`, or :data:`~.portfolio.SHORT` at a short time limit) and
:data:`~.portfolio.EXTRA`: its first lane runs what one core does and the second adds ``EXTRA``'s
searches.

The first lane runs in the calling thread. For the first :data:`HEAD_START` seconds it runs
alone (most levels are solved sooner, and then no other process is woken); then the other
lanes start, each in a worker process of a pool kept for the life of this process (started
on first use with the ``spawn`` method, so that it is safe from a threaded server; a worker
loads the compiled kernels from numba's cache once). The first lane to solve the level or
prove it unsolvable stops the others between two of their slices; so do Ctrl-C and a
progress callback that returns True. Workers ignore Ctrl-C: the calling process tells them.

A small shared array carries each worker's counts (states, expansions) for the progress
callback and its stop flag: three 64-bit integers a slot, a slot for each running lane.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any, Literal

from ..._workers import end_with_parent
from ..problem import Problem
from .kernels.expand import search_kernel
from .options import DEFAULT_MEMORY, SearchOptions
from .portfolio import MAX_CORES, PORTFOLIO
from .prepare import Prepared
from .results import Progress, SearchResult, SearchStats, Stop
from .sequence import run_sequence

__all__ = ["HEAD_START", "default_cores", "lane_members", "pool_running", "run_lanes"]

#: Seconds the first lane runs alone before the others start: most Microban, Microban II and
#: Boxoban levels are solved sooner (the median, 0.01 s or less), and then no worker is woken;
#: a late start costs the other lanes' searches that much of their share.
HEAD_START = 0.2

#: Lanes that can run at once in this process (each worker's slot in the shared array).
SLOTS = 32

_STOP, _NODES, _EXPANDED = 0, 1, 2

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_pool_size = 0
_board: Any = None  # the shared array (multiprocessing.Array of int64, SLOTS * 3)
_free: list[int] = list(range(SLOTS))  # the slots not in use


def default_cores(lanes: int | None = None) -> int:
    """The cores this process may use, no more than ``lanes`` (default: the fast mode's
    most, :data:`~.portfolio.MAX_CORES`; 1 on a one-core machine)."""
    if lanes is None:
        lanes = MAX_CORES
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, lanes))


def lane_members(n: int, lanes: int, first: int | None = None) -> list[list[int]]:
    """Which of ``n`` searches each lane runs, in order: consecutive runs, the earlier lanes
    one longer when they do not divide evenly; with ``first`` the first lane runs that many and
    the others share the rest so. With :func:`~.portfolio.portfolio_for` and ``first`` the length
    of :data:`~.portfolio.PORTFOLIO`, the first lane runs ``PORTFOLIO`` exactly as one core does,
    and the second the extra searches.

    >>> lane_members(6, 2), lane_members(7, 2, first=3)
    ([[0, 1, 2], [3, 4, 5]], [[0, 1, 2], [3, 4, 5, 6]])
    >>> lane_members(3, 2), lane_members(3, 3), lane_members(3, 1)
    ([[0, 1], [2]], [[0], [1], [2]], [[0, 1, 2]])
    """
    if first is None or lanes == 1 or not 0 < first < n:
        out, start = [], 0
        for k in range(lanes):
            size = n // lanes + (1 if k < n % lanes else 0)
            out.append(list(range(start, start + size)))
            start += size
        return out
    rest = lane_members(n - first, lanes - 1)
    return [list(range(first))] + [[first + i for i in lane] for lane in rest]


def _worker_init(board: Any) -> None:
    """A worker's start: ignore Ctrl-C (the calling process stops it), end with the calling
    process however it ends, keep the shared array, and load the compiled kernels with a tiny
    level so that its first search does not wait."""
    global _board
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent()
    _board = board
    from ..formats import parse_level
    from ..problem import as_problem

    tiny = Prepared(as_problem(parse_level("#######\n#@$  .#\n#######")))
    run_sequence(tiny, PORTFOLIO, time_limit=5.0, memory=DEFAULT_MEMORY)  # the preparing kernels
    search_kernel.compiled()  # in numba's cache (lanes run only then): loaded, not compiled


def _cell(slot: int, what: int) -> int:
    """Where a slot's ``what`` (:data:`_STOP`, :data:`_NODES`, :data:`_EXPANDED`) is in the board."""
    return slot * 3 + what


def _workers(n: int) -> ProcessPoolExecutor:
    """A pool of ``n`` or more worker processes (started on first use; a bigger one replaces it
    when more lanes run at once, as when the playground runs two solvers: the old one's workers
    end with the lanes they run)."""
    global _pool, _pool_size, _board
    with _lock:
        if _pool is None or _pool_size < n:
            if _pool is not None:
                _pool.shutdown(wait=False)
            ctx = multiprocessing.get_context("spawn")
            if _board is None:
                _board = ctx.Array("q", SLOTS * 3, lock=False)
            _pool = ProcessPoolExecutor(n, mp_context=ctx, initializer=_worker_init, initargs=(_board,))
            _pool_size = n
        return _pool


def pool_running() -> bool:
    """True while this process keeps a pool of lane workers (started on first use; dropped when it
    breaks, so that the next call starts another)."""
    return _pool is not None


def _forget(pool: ProcessPoolExecutor) -> None:
    """Drop a broken pool: the next call starts another."""
    global _pool, _pool_size
    with _lock:
        if _pool is pool:
            _pool, _pool_size = None, 0


@atexit.register
def _shutdown() -> None:
    """Stop the workers when the process ends (their lanes are stopped already)."""
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)


def _lane(
    prob: Problem, members: tuple[SearchOptions, ...], time_limit: float | None, sent: float, memory: int, slot: int
) -> SearchResult:
    """A worker's lane: ``members`` one after the other within ``time_limit`` seconds from
    ``sent`` (the wall clock when the lane was sent), until one is final or the stop flag."""
    board = _board
    left = None if time_limit is None else time_limit - (time.time() - sent)
    if board[_cell(slot, _STOP)] or (left is not None and left <= 0):
        return SearchResult(None, SearchStats(0, 0, 0.0, "interrupted" if board[_cell(slot, _STOP)] else "time"))

    def progress(stats: SearchStats, phase: Literal["searching", "compiling"]) -> bool:
        board[_cell(slot, _NODES)] = stats.nodes
        board[_cell(slot, _EXPANDED)] = stats.expanded
        return bool(board[_cell(slot, _STOP)])

    return run_sequence(Prepared(prob), members, time_limit=left, memory=memory, progress=progress)


FINAL = ("solved", "unsolvable")


class _Lanes:
    """The other lanes of one :func:`run_lanes` call: started once, watched, stopped."""

    def __init__(self, prob: Problem, groups: list[tuple[SearchOptions, ...]], memory: int) -> None:
        self.prob, self.groups, self.memory = prob, groups, memory
        self.futures: list[Future[SearchResult]] = []
        self.slots: list[int] = []
        self.pool: ProcessPoolExecutor | None = None
        self.started = False

    def start(self, time_limit: float | None) -> None:
        """Send the other lanes to the workers (not when every slot is taken: then the first
        lane goes on alone)."""
        self.started = True
        with _lock:
            if len(_free) < len(self.groups):
                return
            self.slots = [_free.pop() for _ in self.groups]
            busy = SLOTS - len(_free)
        self.pool = pool = _workers(busy)
        for slot, group in zip(self.slots, self.groups, strict=True):
            for k in (_STOP, _NODES, _EXPANDED):
                _board[_cell(slot, k)] = 0
            args = (self.prob, group, time_limit, time.time(), self.memory, slot)
            try:
                fut = pool.submit(_lane, *args)
            except BrokenProcessPool as exc:  # a worker died (killed for its memory?): a new pool next time
                _forget(pool)
                fut = Future()
                fut.set_exception(exc)
            self.futures.append(fut)

    def counts(self) -> tuple[int, int]:
        """States and expansions of the other lanes so far (or at their end)."""
        nodes = expanded = 0
        for f, slot in zip(self.futures, self.slots, strict=True):
            if f.done() and f.exception() is None:
                st = f.result().stats
                nodes, expanded = nodes + st.nodes, expanded + st.expanded
            else:
                nodes += _board[_cell(slot, _NODES)]
                expanded += _board[_cell(slot, _EXPANDED)]
        return nodes, expanded

    def final(self) -> bool:
        """Whether another lane has solved the level or proved it unsolvable."""
        return any(f.done() and f.exception() is None and f.result().stats.stopped in FINAL for f in self.futures)

    def stop(self) -> None:
        for slot in self.slots:
            _board[_cell(slot, _STOP)] = 1

    def results(self) -> list[SearchResult]:
        """Every other lane's result, once all have ended (a lane whose worker failed counts as
        stopped by time, with nothing found)."""
        out = []
        try:
            for f in self.futures:
                try:
                    out.append(f.result())
                except BrokenProcessPool:  # a worker that died: its lane found nothing
                    if self.pool is not None:
                        _forget(self.pool)
                    out.append(SearchResult(None, SearchStats(0, 0, 0.0, "time")))
        finally:
            with _lock:
                _free.extend(self.slots)
            self.slots = []
        return out


def run_lanes(
    prob: Problem,
    portfolio: tuple[SearchOptions, ...],
    lanes: int,
    *,
    first_size: int | None = None,
    time_limit: float | None,
    memory: int,
    progress: Progress | None = None,
) -> SearchResult:
    """Run ``portfolio`` in ``lanes`` lanes (see the module; ``first_size`` the first lane's searches,
    see :func:`lane_members`); the :class:`~.results.SearchResult`
    of the lane that solved the level (or proved it unsolvable), else of all of them: the
    states and expansions summed, the wall time since the call."""
    t0 = time.perf_counter()
    groups = [tuple(portfolio[i] for i in g) for g in lane_members(len(portfolio), lanes, first_size)]
    others = _Lanes(prob, groups[1:], memory // lanes)
    user_stop = False

    def lane0_progress(stats: SearchStats, phase: Literal["searching", "compiling"]) -> bool:
        nonlocal user_stop
        if not others.started and phase == "searching" and time.perf_counter() - t0 >= HEAD_START:
            others.start(None if time_limit is None else time_limit - (time.perf_counter() - t0))
        nodes, expanded = others.counts() if others.futures else (0, 0)
        total = replace(stats, nodes=stats.nodes + nodes, expanded=stats.expanded + expanded)
        if progress is not None and progress(total, phase):
            user_stop = True
        return user_stop or (bool(others.futures) and others.final())

    try:
        first = run_sequence(
            Prepared(prob), groups[0], time_limit=time_limit, memory=memory // lanes, progress=lane0_progress
        )
    except BaseException:
        if others.futures:
            others.stop()
            others.results()
        raise
    if not others.futures:
        return first
    user_stop = user_stop or first.stats.stopped == "interrupted" and not others.final()  # Ctrl-C
    if first.stats.stopped in FINAL or user_stop:
        others.stop()
    try:
        while not user_stop and first.stats.stopped not in FINAL:  # lane 0 ran out of time or memory:
            # wait for the others, still reporting
            done, pending = wait_futures(others.futures, timeout=0.05)
            if not pending or others.final():
                break
            nodes, expanded = others.counts()
            now = SearchStats(
                nodes + first.stats.nodes, expanded + first.stats.expanded, time.perf_counter() - t0, "time"
            )
            if progress is not None and progress(now, "searching"):
                user_stop = True
    except KeyboardInterrupt:
        user_stop = True
    others.stop()
    rest = others.results()
    return _merge(first, rest, time.perf_counter() - t0, user_stop)


def _merge(first: SearchResult, rest: list[SearchResult], elapsed: float, user_stop: bool) -> SearchResult:
    """One result from the lanes': the first solution (lane order) or proof, the counts summed."""
    every = [first, *rest]
    nodes = sum(r.stats.nodes for r in every)
    expanded = sum(r.stats.expanded for r in every)
    compile_time = min(first.stats.compile_time, elapsed)
    for r in every:
        if r.stats.stopped in FINAL:
            stats = SearchStats(nodes, expanded, elapsed, r.stats.stopped, compile_time)
            sol = None if r.solution is None else replace(r.solution, stats=stats)
            return SearchResult(sol, stats)
    stopped: Stop = "interrupted" if user_stop else "time"
    if not user_stop and all(r.stats.stopped == "memory" for r in every):
        stopped = "memory"
    return SearchResult(None, SearchStats(nodes, expanded, elapsed, stopped, compile_time))
