"""The search's progress callback: it sees the stats grow, can stop the search, and changes nothing else."""

from __future__ import annotations

import time

from mazekit._jit import compile_seconds
from mazekit.sokoban import parse_level, replay
from mazekit.sokoban.solver import search_level
from tests.conftest import DATA

MEDIUM = "  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########"
#: A long run: unsolvable, but only a search to the time limit shows it (see the file).
HARD = (DATA / "sokoban" / "slow.xsb").read_text()


def test_progress_changes_nothing():
    level = parse_level(MEDIUM)
    calls = []
    plain = search_level(level, time_limit=10)
    seen = search_level(level, time_limit=10, progress=lambda st, phase: calls.append((st, phase)) and False)
    assert plain.solution is not None and seen.solution is not None
    assert seen.solution.lurd == plain.solution.lurd
    assert (seen.stats.nodes, seen.stats.expanded, seen.stats.stopped) == (
        plain.stats.nodes,
        plain.stats.expanded,
        plain.stats.stopped,
    )
    assert replay(level, seen.solution.lurd).solved
    assert all(phase in ("searching", "compiling") for _, phase in calls)
    assert all(st.stopped == "time" for st, _ in calls)


def test_progress_reports_and_stops():
    level = parse_level(HARD)
    calls = []

    def progress(st, phase):
        calls.append((st.nodes, st.expanded, st.time, phase))
        return sum(p == "searching" for *_, p in calls) >= 3

    t0, c0 = time.perf_counter(), compile_seconds()
    res = search_level(level, time_limit=60, progress=progress)
    assert time.perf_counter() - t0 - (compile_seconds() - c0) < 30  # stopped long before the limit (compiling apart)
    assert res.solution is None and res.stats.stopped == "interrupted"
    searching = [c for c in calls if c[3] == "searching"]
    assert len(searching) == 3
    nodes = [c[0] for c in searching]
    assert nodes == sorted(nodes) and nodes[-1] > 0
    assert res.stats.nodes >= nodes[-1]


def test_optimal_search_stops_too():
    res = search_level(parse_level(HARD), time_limit=60, optimal=True, progress=lambda st, phase: True)
    assert res.stats.stopped == "interrupted" and res.solution is None


def test_the_compile_time_reported_is_never_more_than_the_time():
    # the compile clock is the process's: a search that waits while the playground's warm-up
    # compiles in another thread counts that compiling too (the page once said 47.3 s of 47.17 s)
    from mazekit.sokoban.solver import SearchStats
    from mazekit.sokoban.solver.sequence import Totals

    seen = []
    total = Totals(time.perf_counter(), lambda st, phase: seen.append(st) and None)
    total.add(SearchStats(10, 5, 0.5, "time", 3.0))
    report = total.report()
    assert report is not None
    report(SearchStats(1, 1, 0.1, "time", 2.0), "searching")
    for st in (total.stats(), *seen):
        assert 0 <= st.compile_time <= st.time
