"""One core's run of searches, one after the other: :func:`run_sequence`.

Each search gets its share of the time left (``SearchOptions.time_share`` over the shares of it
and the searches after it); one that stalls yields the rest of its slot to the ones after it
(not the last, which has no one to yield to). The run stops at the first search that solves the
level, proves it unsolvable or is interrupted; with no time limit only the first runs.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Literal

from .driver import run_search
from .options import SearchOptions
from .prepare import Prepared
from .results import Progress, SearchResult, SearchStats, Stop

__all__ = ["Totals", "run_sequence", "time_slot"]


def run_sequence(
    prep: Prepared,
    searches: tuple[SearchOptions, ...],
    *,
    time_limit: float | None,
    memory: int,
    progress: Progress | None = None,
    started: float | None = None,
    compile_time: float = 0.0,
) -> SearchResult:
    """Run ``searches`` one after the other on ``prep``'s level within ``time_limit`` seconds
    from ``started`` (a ``time.perf_counter()`` time; default now), of which ``compile_time``
    seconds were spent compiling and are not charged; the last search's result with the
    statistics of them all."""
    t0 = time.perf_counter() if started is None else started
    total = Totals(t0, progress)
    total.compile_time = compile_time
    res: SearchResult | None = None
    for k, opts in enumerate(searches):
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0 - total.compile_time)
        share = None if left is None else time_slot(left, searches[k:])
        if share is not None and share <= 0:
            break
        stall = opts.stall if k < len(searches) - 1 and time_limit is not None else None  # the last keeps its slot
        res = run_search(prep, opts, time_limit=share, memory=memory, progress=total.report(), stall=stall)
        total.add(res.stats)
        if res.stats.stopped not in ("time", "memory") or time_limit is None:
            break
    stats = total.stats()
    if res is None:  # the time ran out while the level was being prepared: no run started
        return SearchResult(None, stats)
    sol = res.solution
    if sol is not None:
        sol = replace(sol, stats=stats)
    return SearchResult(sol, stats)


def time_slot(left: float, searches: tuple[SearchOptions, ...]) -> float:
    """The seconds the first of ``searches`` gets of the ``left`` seconds that it and the others
    after it share (in a portfolio, each when its turn comes): its ``time_share`` over theirs.

    >>> three = (SearchOptions(time_share=3), SearchOptions(), SearchOptions())
    >>> time_slot(60.0, three), time_slot(24.0, three[1:])
    (36.0, 12.0)
    """
    return left * searches[0].time_share / sum(o.time_share for o in searches)


class Totals:
    """The statistics of a portfolio's searches so far, and a progress callback for the next
    that reports them with its own."""

    def __init__(self, t0: float, progress: Progress | None) -> None:
        self.t0, self.progress = t0, progress
        self.nodes = self.expanded = 0
        self.compile_time = 0.0
        self.stopped: Stop = "time"

    def add(self, st: SearchStats) -> None:
        self.nodes += st.nodes
        self.expanded += st.expanded
        self.compile_time += st.compile_time
        self.stopped = "memory" if st.stopped == "time" and self.stopped == "memory" else st.stopped

    def stats(self) -> SearchStats:
        # the compile clock is the process's: while another thread (the playground's warm-up)
        # compiles, a search that waits for it counts that time too; never more than the wall time
        elapsed = time.perf_counter() - self.t0
        return SearchStats(self.nodes, self.expanded, elapsed, self.stopped, min(self.compile_time, elapsed))

    def report(self) -> Progress | None:
        if self.progress is None:
            return None
        progress, n, e, c = self.progress, self.nodes, self.expanded, self.compile_time

        def report(st: SearchStats, phase: Literal["searching", "compiling"]) -> bool | None:
            elapsed = time.perf_counter() - self.t0
            total = SearchStats(n + st.nodes, e + st.expanded, elapsed, "time", min(c + st.compile_time, elapsed))
            return progress(total, phase)

        return report
