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
