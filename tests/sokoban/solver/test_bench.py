"""The Sokoban benchmark runs (on two Microban levels): a benchmark that cannot start is found here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
    cmd = [sys.executable, "benchmarks/try_options.py", "--levels", "1", "--limit", "20", "--member", "all"]
    out = subprocess.run(
        [*cmd, "--start-at", "0.9", "--jobs", "1"], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "solved 1/1: 1" in out.stdout
    bad = subprocess.run([*cmd, "--start-at", "1.5"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "--start-at" in bad.stderr


def test_the_midway_start_is_the_reference_after_that_many_pushes(monkeypatch):
    import tomllib

    from mazekit.sokoban import parse_levels, push
    from mazekit.sokoban.rules import lurd_pushes

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
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
