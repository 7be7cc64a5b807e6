"""The Sokoban benchmark runs (on two Microban levels): a benchmark that cannot start is found here."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.sokoban.conftest import shared_file

ROOT = Path(__file__).resolve().parents[3]


def test_the_sokoban_benchmark_runs():
    shared_file("microban.xsb")
    cmd = [sys.executable, "benchmarks/run.py", "sokoban", "--sets", "microban", "--first", "2", "--jobs", "1"]
    out = subprocess.run([*cmd, "--no-write"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "| microban | 2/2 |" in out.stdout


def test_try_options_starts_part_of_the_way_along_a_reference_solution():
    shared_file("xsokoban90.xsb")
    shared_file("xsokoban90_solutions.toml")
    cmd = [sys.executable, "benchmarks/probes/try_options.py", "--levels", "1", "--limit", "20", "--member", "all"]
    out = subprocess.run(
        [*cmd, "--start-at", "0.9", "--jobs", "1"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "solved 1/1: 1" in out.stdout
    bad = subprocess.run([*cmd, "--start-at", "1.5"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "--start-at" in bad.stderr


SMALL_LEVEL = "  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########"


def test_try_options_on_a_file_with_a_fixed_budget_repeats_itself(tmp_path):
    """``--file`` and ``--expansions``: the same levels, the same expansions, run after run; one
    clear line for a bad budget or file."""
    xsb = tmp_path / "two.xsb"
    xsb.write_text("; 1\n#######\n#@ $ .#\n#######\n\n; 2\n" + SMALL_LEVEL + "\n")
    cmd = [sys.executable, "benchmarks/probes/try_options.py", "--file", str(xsb), "--member", "1", "--jobs", "1"]
    runs = []
    for k in range(2):
        out = tmp_path / f"rows{k}.json"
        done = subprocess.run(
            [*cmd, "--expansions", "500", "--json", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert "solved 2/2: 1, 2" in done.stdout
        runs.append([(r["level"], r["solved"], r["expanded"]) for r in json.loads(out.read_text())])
    assert runs[0] == runs[1] and runs[0][1][2] > 1
    broken = tmp_path / "broken.xsb"
    broken.write_text("#####\n#@$X#\n#####\n")
    for bad in (["--expansions", "-1"], ["--file", str(tmp_path / "none.xsb")], ["--file", str(broken)]):
        run = subprocess.run([*cmd, *bad], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert run.returncode == 2 and run.stderr.strip().count("\n") == 0, run.stderr


def test_the_midway_start_is_the_reference_after_that_many_pushes(monkeypatch):
    import tomllib

    from mazekit.sokoban import parse_levels, push
    from mazekit.sokoban.rules import lurd_pushes

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks" / "probes"))
    from try_options import _midway

    level = parse_levels(shared_file("xsokoban90.xsb").read_bytes())[2]
    lurd = tomllib.loads(shared_file("xsokoban90_solutions.toml").read_text())["Level0003"]
    pushes = lurd_pushes(level, lurd)
    for fraction in (0.25, 0.5):
        state = level.start
        for box, d in pushes[: round(fraction * len(pushes))]:
            state = push(level, state, box, d)
        got = _midway(level, 3, fraction).start
        assert got.boxes == state.boxes


def test_the_reference_trace_ends_with_every_box_home(monkeypatch):
    import tomllib

    from mazekit.sokoban import parse_levels

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks" / "probes"))
    from reference_trace import last_fills, trace

    level = parse_levels(shared_file("xsokoban90.xsb").read_bytes())[0]
    lurd = tomllib.loads(shared_file("xsokoban90_solutions.toml").read_text())["Level0001"]
    rows = trace(level, lurd)
    nb = len(level.start.boxes)
    assert rows[0][0] == 0 and rows[-1][0] == sum(ch.isupper() for ch in lurd)
    assert rows[-1][1:3] == (nb, nb)  # every goal packed in its area's order, every box on a goal
    assert all(a[1:] != b[1:] for a, b in zip(rows, rows[1:], strict=False))  # a row at each change only
    fills = last_fills(level, lurd)
    assert sorted(fills) == sorted(int(g) for g in level.goals.ravel().nonzero()[0])
    assert max(fills.values()) == rows[-1][0]
    half = trace(level, lurd, upto=0.5)
    assert half == rows[: len(half)] and half[-1][0] <= rows[-1][0] / 2


def test_the_reference_trace_runs_and_refuses_bad_levels():
    shared_file("xsokoban90.xsb")
    shared_file("xsokoban90_solutions.toml")
    cmd = [sys.executable, "benchmarks/probes/reference_trace.py", "--upto", "0.1", "--levels"]
    out = subprocess.run([*cmd, "1"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("xsokoban 1: 97 pushes") and "regions" in out.stdout
    for bad in ("91", "x"):
        run = subprocess.run([*cmd, bad], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert run.returncode == 2 and run.stderr.strip().count("\n") == 0 and "--levels" in run.stderr


def test_try_options_takes_the_reference_order(monkeypatch):
    import tomllib

    from mazekit.sokoban import parse_levels
    from mazekit.sokoban.solver import as_problem
    from mazekit.sokoban.solver.prepare import goal_areas

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks" / "probes"))
    from reference_trace import last_fills
    from try_options import _reference_areas

    level = parse_levels(shared_file("xsokoban90.xsb").read_bytes())[2]
    fills = last_fills(level, tomllib.loads(shared_file("xsokoban90_solutions.toml").read_text())["Level0003"])
    prob = as_problem(level)
    garea, forder, fstart = goal_areas(prob)
    rgarea, rorder, rfstart = _reference_areas(level, 3)
    assert (rgarea == garea).all() and (rfstart == fstart).all()
    for a in range(len(fstart) - 1):
        got = [prob.level_cell(int(x)) for x in rorder[fstart[a] : fstart[a + 1]]]
        assert sorted(got) == sorted(prob.level_cell(int(x)) for x in forder[fstart[a] : fstart[a + 1]])
        assert [fills[g] for g in got] == sorted(fills[g] for g in got)
    assert rorder.tolist() != forder.tolist()  # level 3's reference fills its goals in another order


def _run(stopped: str, time: float, falls: list[float]) -> dict[str, object]:
    """A synthetic record of one search alone (``portfolio_members.py record``)."""
    return {"stopped": stopped, "time": time, "history": [(t, 0, 100 - k) for k, t in enumerate(falls)], "cells": []}


def test_the_portfolio_replay_cuts_a_stalled_search_and_passes_its_time_on(monkeypatch):
    """The replay behind STALL: a search is cut when its bound has not fallen for the last
    ``stall`` of its time (after ``after`` s), a record shorter than its slot uses the whole
    slot, and a lane gives what a search left to the searches after it."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks" / "probes"))
    from portfolio_members import _cut, _lane

    rule = ("bound", 0.9, 5.0)
    slow = _run("solved", 30.0, [0.5, 1.0])  # the bound stops falling at 1 s, solved at 30 s
    assert _cut(slow, 40.0, None) == (True, 30.0)
    assert _cut(slow, 40.0, rule) == (False, pytest.approx(10.0))  # 1 s is the last 10% of 10 s
    assert _cut(slow, 20.0, None) == (False, 20.0)
    busy = _run("solved", 30.0, [1.0, 9.0, 25.0])  # falls late enough each time: never cut
    assert _cut(busy, 40.0, rule) == (True, 30.0)
    early = _run("time", 4.0, [0.1])  # no cut before 5 s; recorded for 4 s of a 10-s slot
    assert _cut(early, 10.0, rule) == (False, 10.0)
    runs = {0: slow, 1: _run("solved", 25.0, [24.0])}
    assert not _lane(runs, [0, 1], [1.0, 1.0], 40.0, None)  # 20 s each: neither in time
    assert _lane(runs, [0, 1], [1.0, 1.0], 40.0, rule)  # the first yields at 10 s: 30 s for the second
    assert _lane(runs, [0], [1.0], 40.0, rule)  # the last keeps its slot: no one after it


def test_try_options_reads_relays(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks" / "probes"))
    from try_options import _options

    from mazekit.sokoban.solver import PORTFOLIO, Relays

    (opts,) = _options("0", ["relays=0.3,0.6"])
    assert opts.relays == Relays(lead=0.3, each=0.6)
    (opts,) = _options("3", ["relays=0.2,1,0.8,4"])
    assert opts.relays == Relays(lead=0.2, each=1.0, share=0.8, seed=4)
    (opts,) = _options("3", ["relays=none"])
    assert opts.relays is None and opts.backward_share == PORTFOLIO[3].backward_share
    for bad in ("relays=1.5,0.6", "relays=x", "relays=0.3,0.6,0.9,1.5"):
        with pytest.raises(SystemExit) as e:
            _options("0", [bad])
        assert e.value.code == 2


def test_the_corpus_sample_is_stratified_and_fixed_by_its_seed(monkeypatch):
    """Every collection gets its floor (all of a smaller one), the rest goes in proportion to the
    sizes, and the same seed draws the same levels."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_sokoban_corpus as B

    sizes = {"big": 1623, "mid": 100, "small": 12}
    take = B.allocate(sizes, 300, 20)
    assert sum(take.values()) == 300 and take["small"] == 12 and take["mid"] >= 20
    assert (take["big"] - 20) / 1603 == pytest.approx((take["mid"] - 20) / 80, abs=0.02)  # the rest in proportion
    assert B.allocate(sizes, 5000, 20) == sizes  # more than there is: all of it
    levels = {name: [f"{name} {i}" for i in range(n)] for name, n in sizes.items()}
    one, again = B.sample(levels, 300, 20, seed=7), B.sample(levels, 300, 20, seed=7)
    assert one == again and len(one) == 300 and len({(n, k) for n, k, _ in one}) == 300
    assert one != B.sample(levels, 300, 20, seed=8)
    assert all(text == f"{name} {k - 1}" for name, k, text in one)  # numbers count from 1


@pytest.mark.parametrize(("jobs", "cores"), [(1, ["--cores", "1"]), (2, [])])
def test_the_corpus_run_gives_each_level_one_core(monkeypatch, tmp_path, jobs, cores):
    """One level at a time, the solve command would give a level all the cores: the run asks
    for one, as it does for each of several levels at a time (``--jobs``)."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_sokoban_corpus as B

    seen = []
    monkeypatch.setattr(B, "BUILD", tmp_path)
    monkeypatch.setattr(B.subprocess, "run", lambda cmd, **kw: seen.append(cmd))
    monkeypatch.setattr(B, "read_records", lambda chosen, results: {})
    args = argparse.Namespace(time_limit=10.0, jobs=jobs)
    B.solve([("c", 1, "#####\n#@$.#\n#####")], args, tmp_path / "r.jsonl")
    cmd = seen[0]
    assert cmd[cmd.index("--jobs") + 1] == str(jobs)
    if cores:
        assert cmd[-2:] == cores
    else:
        assert "--cores" not in cmd


def test_the_corpus_misses_measure_what_a_level_is(monkeypatch):
    """The misses probe's measures: boxes, the share on goals at the start, the largest goal area."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks" / "probes"))
    import corpus_misses as M

    level = "########\n#@*$ ..#\n#  .   #\n########"  # goals: one under a box, two side by side, one apart
    assert M.measures(level) == {"boxes": 2, "boxes on goals at the start": 0.5, "largest goal area": 2}
    goals = np.zeros(40, dtype=bool)
    goals[[1, 2, 3, 11, 13, 30, 32]] = True  # rows of 10: 11 and 13 hang under 1 and 3; 30, 32 apart
    assert M.largest_area(goals.reshape(4, 10)) == 5
    bands = M.BANDS["largest goal area"]
    labels = [M.band_of(v, bands) for v in (1, 2, 16, 17, 64, 65)]
    assert labels == ["1 (goals apart)", "2-8", "9-16", "17-32", "33-64", "65+"]
    assert M.band_of(0.0, M.BANDS["boxes on goals at the start"]) == "none"
    assert M.band_of(0.01, M.BANDS["boxes on goals at the start"]) == "under 50%"
    # the results page's bands of boxes are the probe's
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_sokoban_corpus as B

    assert [B.band_of(n) for n in (1, 6, 7, 15, 16, 40, 41, 90)] == [
        "1-6",
        "1-6",
        "7-10",
        "11-15",
        "16-25",
        "26-40",
        "41+",
        "41+",
    ]
    assert [M.band_of(n, M.BANDS["boxes"]) for n in (6, 16, 41)] == [B.band_of(n) for n in (6, 16, 41)]
