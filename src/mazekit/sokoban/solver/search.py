"""The solver's front door: :func:`solve` and :func:`search_level`.

A level goes through four stages: prepare (:mod:`.prepare`: the per-level tables, once), search
(:mod:`.driver`: one bidirectional search over the compiled kernels of :mod:`.kernels`; the fast
mode runs a portfolio of them, :mod:`.portfolio`, on one core by :mod:`.sequence` or on several by
:mod:`.lanes`), rebuild (:mod:`.rebuild`: pushes to LURD) and verify (the engine's replay). The
design is described in ``docs/sokoban-solver.md``.
"""

from __future__ import annotations

import time

from ..._jit import compile_seconds
from ..level import Level
from ..problem import Problem, as_problem
from . import portfolio as default
from .driver import run_search
from .kernels.expand import search_kernel
from .lanes import run_lanes
from .options import DEFAULT_MEMORY, SearchOptions
from .prepare import Prepared
from .results import Progress, SearchResult, Solution
from .sequence import run_sequence

__all__ = ["search_level", "solve"]


def search_level(
    level: Level | Problem | Prepared,
    *,
    time_limit: float | None = 10.0,
    optimal: bool = False,
    memory: int = DEFAULT_MEMORY,
    options: SearchOptions | None = None,
    portfolio: tuple[SearchOptions, ...] | None = None,
    progress: Progress | None = None,
    cores: int = 1,
) -> SearchResult:
    """Run the search; return the solution (or None) with the statistics: why it stopped, the
    states stored and expanded, the time (:class:`~.results.SearchResult`).

    See :func:`solve` for ``level`` (or a :class:`~.prepare.Prepared` one), ``time_limit``,
    ``optimal`` and ``memory``.
    ``options`` runs that one search alone (as does ``optimal``, with the default
    options unless given). Otherwise the fast mode shares the time among the
    searches of ``portfolio`` (default :func:`~.portfolio.first_core` of the time limit:
    :data:`~.portfolio.PORTFOLIO`, or the fewer searches of :data:`~.portfolio.SHORT` below
    :data:`~.portfolio.SHORT_LIMIT` seconds), run one after the other, each with its share of
    the time left (``SearchOptions.time_share``), a search that stops making progress yielding
    the rest of its share to the searches after it (``SearchOptions.stall``:
    :data:`~.portfolio.STALL` in the default portfolios, not for the last search); it stops at
    the first that solves the level, proves it unsolvable or is interrupted, and with no time
    limit only the first runs.

    ``cores`` above 1 runs the portfolio on that many cores, at most one a search
    (:mod:`.lanes`; :func:`~.lanes.default_cores` gives this machine's), the default
    portfolio widened to :func:`~.portfolio.portfolio_for` ``(cores, time_limit)``: the searches
    are cut into runs, one a core (:func:`~.lanes.lane_members`; the first core runs what one
    core does, the second :data:`~.portfolio.EXTRA`), each core runs its own one after the
    other with the whole time limit, and the first to solve the level stops the others;
    ``memory`` is divided between them. The other cores' searches run in worker processes
    (``spawn``), so a script that asks for them needs the ``if __name__ == "__main__":`` guard.
    It needs the compiled kernel in numba's cache: before the first compile the portfolio runs
    on one core.

    ``progress`` (a :data:`~.results.Progress` callable) is called from the searching
    thread between slices (every 50 ms or so, and before the kernel's first
    compile) with the stats so far, the portfolio's earlier searches included;
    when it returns True the search stops as Ctrl-C stops it
    (``stopped == "interrupted"``, no solution). It does not change what is
    searched.

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> r = search_level(parse_level("#####\\n#@$.#\\n#####"))
    >>> r.stats.stopped, r.solution.lurd
    ('solved', 'R')
    >>> search_level(parse_level("#####\\n#@ $#\\n# . #\\n#####")).stats.stopped
    'unsolvable'
    >>> search_level(parse_level("#####\\n#@$.#\\n#####"), options=SearchOptions(wieght=3))
    Traceback (most recent call last):
    ...
    TypeError: SearchOptions.__init__() got an unexpected keyword argument 'wieght'
    """
    t0 = time.perf_counter()
    compiled0 = compile_seconds()
    prep = level if isinstance(level, Prepared) else Prepared(as_problem(level))
    if optimal or options is not None:
        one = SearchOptions() if options is None else options
        return run_search(prep, one, optimal=optimal, time_limit=time_limit, memory=memory, progress=progress)
    if portfolio is not None and not portfolio:
        raise ValueError("the portfolio is empty")
    if not isinstance(cores, int) or isinstance(cores, bool) or cores < 1:
        raise ValueError(f"cores must be a whole number of 1 or more, got {cores!r}")
    if cores > 1 and search_kernel.is_cached():
        wide = default.portfolio_for(cores, time_limit) if portfolio is None else portfolio
        lanes = min(cores, len(wide) if portfolio is not None else default.MAX_CORES)  # a given one: a search a core
        if lanes > 1:
            # the first core runs what one core runs at this time limit
            head = len(default.first_core(time_limit)) if portfolio is None else None
            return run_lanes(
                prep.problem, wide, lanes, first_size=head, time_limit=time_limit, memory=memory, progress=progress
            )
    return run_sequence(
        prep,
        default.first_core(time_limit) if portfolio is None else portfolio,
        time_limit=time_limit,
        memory=memory,
        progress=progress,
        started=t0,
        compile_time=compile_seconds() - compiled0,  # the first run after installing compiles as_problem's kernels
    )


def solve(
    level: Level | Problem,
    *,
    time_limit: float | None = 10.0,
    optimal: bool = False,
    memory: int = DEFAULT_MEMORY,
    cores: int = 1,
) -> Solution | None:
    """Solve a Sokoban level; return a :class:`~.results.Solution` or None.

    Use this when only the solution matters; :func:`search_level` takes the same arguments and
    more, and answers with the statistics too (why it stopped: solved, unsolvable, time...).

    Parameters
    ----------
    level : Level or Problem
        An engine level (read text with :func:`~mazekit.sokoban.parse_level`) or a
        :class:`~mazekit.sokoban.problem.Problem`.
    time_limit : float or None
        Seconds before giving up (None: no limit). The first search in a process that needs
        the compiled kernel compiles it, or loads it from numba's cache: that is not charged.
    optimal : bool
        False (fast): a portfolio of weighted best-first and feature-space searches that returns
        any solution. True: A* with an admissible bound; the solution has the fewest pushes.
    memory : int
        Bytes the search may use for its states (default 4 GiB).
    cores : int
        Cores for the fast mode (see :func:`search_level`): with 2, one core runs what one
        core does (:func:`~.portfolio.first_core`) and the other :data:`~.portfolio.EXTRA`.

    Returns
    -------
    Solution or None
        None when no solution was found (unsolvable, or a limit was hit: use
        :func:`search_level` to know which).

    Notes
    -----
    A state is the set of box cells plus the player's region, named by its least cell. The
    search prunes dead squares, freeze, bipartite, PI-corral, corral and dead-pair deadlocks;
    its bound is a minimum-cost matching of boxes to goals (admissible and consistent, so A* is
    push-optimal). The fast mode's searches are bidirectional (pushes from the start, pulls from
    the goals, until they meet), and most are feature-space searches after Shoham and
    Schaeffer's FESS. The walks between pushes are shortest walks; the moves are not minimised
    overall (:func:`~.optimise.optimise` does that). The design: ``docs/sokoban-solver.md``.

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> sol = solve(parse_level("#######\\n#@ $ .#\\n#######"), optimal=True)
    >>> sol.lurd, sol.moves, sol.pushes, sol.optimal
    ('rRR', 3, 2, True)
    """
    return search_level(level, time_limit=time_limit, optimal=optimal, memory=memory, cores=cores).solution
