"""The portfolio on several cores (``search_level(..., cores=2)``): a worker's solution is
taken, the workers stop when the level is solved or the caller stops, their counts are
reported, and bad values are refused."""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import replace

import pytest

from mazekit.sokoban import parse_level, replay
from mazekit.sokoban.solver import PORTFOLIO, SearchOptions, lanes, portfolio_for, search_level
from mazekit.sokoban.solver.kernels.expand import search_kernel
from tests.conftest import DATA
from tests.procs import HAS_PROC, assert_all_end, wait_for_children

#: Generated (16x16, 14 boxes, seed 1002): the portfolio's second search solves it in a
#: hundredth of a second; a plain forward A* (``WEAK``) does not in a minute.
LEVEL = """\
################
#   #####* * ###
# $ #@## # #   #
#    *         #
###.  *  ###.  #
##       #     #
## # *#.*$  .###
##.# $ $. . ####
## #           #
##  $ $        #
##     . #$ ## #
###            #
### $   ###### #
###     #####  #
##### ##########
################"""

WEAK = SearchOptions(weight=1, fess=False, bidirectional=False, corrals=False, macros=False, corral_nodes=0)

#: Unsolvable, but only a long search shows it (see the file).
HARD = (DATA / "sokoban" / "slow.xsb").read_text()


@pytest.fixture
def warm(monkeypatch):
    """The kernel in numba's cache (lanes need it) and the workers started at once."""
    search_level(parse_level("#######\n#@$  .#\n#######"), time_limit=30)
    if not search_kernel.is_cached():  # pragma: no cover - numba's cache not writable here
        pytest.skip("the search kernel is not in numba's cache")
    monkeypatch.setattr(lanes, "HEAD_START", 0.0)


def test_a_workers_solution_is_taken(warm):
    level = parse_level(LEVEL)
    res = search_level(level, time_limit=60, portfolio=(WEAK, PORTFOLIO[1]), cores=2)
    assert res.solution is not None and res.stats.stopped == "solved"
    assert replay(level, res.solution.lurd).solved
    assert res.stats.time < 50  # the first lane alone would run to the limit
    assert res.solution.stats == res.stats


def test_the_first_lanes_solution_stops_the_worker(warm):
    level = parse_level(LEVEL)
    calls = []
    t0 = time.perf_counter()
    # a forward feature-space search at weight 1: a few slices (the worker starts after the first)
    first = SearchOptions(bidirectional=False, weight=1)
    res = search_level(level, time_limit=60, portfolio=(first, WEAK), cores=2, progress=lambda *a: calls.append(a))
    assert calls  # so the worker had started
    assert res.solution is not None and replay(level, res.solution.lurd).solved
    assert time.perf_counter() - t0 < 50  # the worker was told to stop, not waited for to its limit


def test_stopping_stops_every_lane_and_counts_them(warm):
    calls = []

    def progress(st, phase):
        calls.append((time.perf_counter(), st.nodes))
        return len(calls) >= 40

    t0 = time.perf_counter()
    res = search_level(parse_level(HARD), time_limit=120, portfolio=PORTFOLIO, cores=2, progress=progress)
    assert res.stats.stopped == "interrupted" and res.solution is None
    assert time.perf_counter() - t0 < 60
    nodes = [n for _, n in calls]
    assert nodes == sorted(nodes) and res.stats.nodes >= nodes[-1]
    # the pool is free again: the next call runs its lanes as usual
    again = search_level(parse_level(LEVEL), time_limit=60, portfolio=(WEAK, PORTFOLIO[1]), cores=2)
    assert again.stats.stopped == "solved"


def test_ctrl_c_stops_every_lane(warm):
    calls = []

    def progress(st, phase):  # Ctrl-C arrives while the first lane searches
        calls.append(st)
        if len(calls) == 30:
            raise KeyboardInterrupt

    t0 = time.perf_counter()
    res = search_level(parse_level(HARD), time_limit=120, portfolio=PORTFOLIO, cores=2, progress=progress)
    assert res.stats.stopped == "interrupted" and res.solution is None
    assert time.perf_counter() - t0 < 60


def test_a_worker_that_dies_costs_its_lane_only(warm):
    import multiprocessing
    import os
    import signal

    calls = []

    def progress(st, phase):  # the worker is killed (as for its memory) once its lane runs
        calls.append(st)
        if len(calls) == 20:
            for p in multiprocessing.active_children():
                os.kill(p.pid, signal.SIGKILL)

    res = search_level(parse_level(HARD), time_limit=4, portfolio=PORTFOLIO, cores=2, progress=progress)
    assert res.stats.stopped == "time" and len(calls) > 20
    assert not lanes.pool_running()  # the broken pool was dropped
    # a new pool for the next call
    again = search_level(parse_level(LEVEL), time_limit=60, portfolio=(WEAK, PORTFOLIO[1]), cores=2)
    assert again.stats.stopped == "solved"


def test_the_time_limit_holds_with_lanes(warm):
    t0 = time.perf_counter()
    res = search_level(parse_level(HARD), time_limit=4, portfolio=PORTFOLIO, cores=2)
    assert res.stats.stopped == "time" and res.solution is None
    assert time.perf_counter() - t0 < 12  # the limit, a worker's start and its last slice


def test_an_unsolvable_proof_from_either_lane_ends_the_search(warm):
    dead = parse_level("#####\n#@ $#\n# . #\n#####")
    res = search_level(dead, time_limit=30, portfolio=PORTFOLIO, cores=3)
    assert res.stats.stopped == "unsolvable"


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True])
def test_cores_must_be_a_whole_number(bad):
    with pytest.raises(ValueError, match="cores"):
        search_level(parse_level(LEVEL), time_limit=1, cores=bad)


def test_lanes_are_runs_of_the_portfolio():
    assert lanes.lane_members(5, 2) == [[0, 1, 2], [3, 4]]
    assert lanes.lane_members(7, 3) == [[0, 1, 2], [3, 4], [5, 6]]
    assert lanes.lane_members(7, 2, first=3) == [[0, 1, 2], [3, 4, 5, 6]]
    assert lanes.lane_members(8, 3, first=2) == [[0, 1], [2, 3, 4], [5, 6, 7]]
    assert lanes.lane_members(3, 1, first=2) == [[0, 1, 2]]
    assert 1 <= lanes.default_cores(3) <= 3
    assert lanes.default_cores(1) == 1


def test_more_cores_add_the_extra_searches(warm, monkeypatch):
    from mazekit.sokoban.solver import portfolio as P

    # the first core's searches cannot solve the level in a minute, the extra ones at once
    monkeypatch.setattr(P, "PORTFOLIO", (WEAK, WEAK, WEAK))
    monkeypatch.setattr(P, "EXTRA", (PORTFOLIO[1], PORTFOLIO[1], PORTFOLIO[1]))
    assert portfolio_for(1) == (WEAK, WEAK, WEAK) and len(portfolio_for(2)) == 6
    assert lanes.default_cores() <= 2
    level = parse_level(LEVEL)
    res = search_level(level, time_limit=60, cores=2)
    assert res.stats.stopped == "solved" and res.stats.time < 50
    assert replay(level, res.solution.lurd).solved


def test_the_portfolio_is_whole_on_the_first_core():
    from mazekit.sokoban.solver import EXTRA, SHORT, SHORT_LIMIT, first_core, portfolio_for
    from mazekit.sokoban.solver.portfolio import MAX_CORES

    for limit in (None, 5.0, SHORT_LIMIT, 60.0):
        for cores in (1, 2, 3):
            wide = portfolio_for(cores, limit)
            first = lanes.lane_members(len(wide), min(cores, MAX_CORES), first=len(first_core(limit)))[0]
            assert tuple(wide[i] for i in first) == first_core(limit)
    assert portfolio_for(2) == portfolio_for(3) == PORTFOLIO + EXTRA and MAX_CORES == 2
    # a short limit runs fewer, longer searches on the first core, each one of PORTFOLIO's
    # (the FESS ones with a backward player penalty)
    assert first_core(SHORT_LIMIT - 1) == SHORT and first_core(SHORT_LIMIT) == PORTFOLIO
    bare = {replace(o, time_share=1.0, player_penalty=0) for o in PORTFOLIO}
    assert 0 < len(SHORT) < len(PORTFOLIO)
    assert all(replace(o, time_share=1.0, player_penalty=0) in bare for o in SHORT)


@pytest.mark.skipif(not HAS_PROC or lanes.default_cores() < 2, reason="Linux, 2 cores")
def test_the_workers_end_with_a_caller_that_is_killed(warm):
    """A caller killed mid-search (SIGKILL: no exit handler runs) takes its worker processes with
    it: they do not finish their lanes as orphans and then wait for work forever."""
    script = (
        "import sys\n"
        "from mazekit.sokoban import parse_level\n"
        "from mazekit.sokoban.solver import search_level\n"
        "if __name__ == '__main__':\n"
        "    search_level(parse_level(sys.stdin.read()), time_limit=60, cores=2)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None
        proc.stdin.write(HARD)
        proc.stdin.close()
        started = wait_for_children(proc.pid)  # the second lane starts after HEAD_START
        assert started, "no worker started"
        time.sleep(0.5)  # well into the second lane's search
        proc.kill()
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()

    assert_all_end(started)
