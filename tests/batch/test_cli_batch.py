"""The batch commands end to end (#16): a killed Dask worker loses nothing; Ctrl-C then resume runs the rest."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mazekit.batch import BatchOptions, Task, run_batch
from mazekit.cli.sokoban_solve import _level_id, level_task
from mazekit.sokoban import parse_levels, replay
from tests.conftest import SHARED

MICROBAN = SHARED / "levels" / "microban.xsb"
needs_microban = pytest.mark.skipif(not MICROBAN.exists(), reason="needs ../shared/levels/microban.xsb")


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@needs_microban
def test_a_dask_worker_killed_mid_run_loses_no_level(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    import psutil

    levels = parse_levels(MICROBAN.read_text())[:14]
    tasks = [Task(_level_id(n, lv), (n, lv, 10.0, False, 1 << 28)) for n, lv in enumerate(levels, 1)]
    killed: list[int] = []

    def kill_one(report: Any, record: dict[str, Any]) -> None:
        if report.ran == 4 and not killed:
            workers = [
                p
                for p in psutil.Process().children(recursive=True)
                if any("spawn_main" in part for part in p.cmdline())
            ]  # the workers, not the tracker
            assert workers, "no Dask worker process found"
            killed.append(workers[0].pid)
            workers[0].send_signal(signal.SIGKILL)

    path = tmp_path / "r.jsonl"
    report = run_batch(
        tasks, level_task, BatchOptions(scheduler="local", workers=2, results=str(path)), progress=kill_one
    )
    assert killed and not report.interrupted
    recs = records(path)
    assert sorted(r["id"] for r in recs) == sorted(t.id for t in tasks)  # exactly one line a level
    for r in recs:
        assert r["status"] == "done", r
        level = levels[r["result"]["level"] - 1]
        assert r["result"]["solved"] and replay(level, r["result"]["lurd"]).solved


def _solve(args: list[str], **kw: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "mazekit", "sokoban", "solve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


@needs_microban
@pytest.mark.parametrize("how", [["--jobs", "2"], ["--jobs", "1"]])
def test_ctrl_c_keeps_what_is_done_and_the_rerun_runs_only_the_rest(tmp_path: Path, how: list[str]) -> None:
    xsb = tmp_path / "some.xsb"
    xsb.write_text(MICROBAN.read_text())  # 155 levels: seconds of work, so Ctrl-C comes before the end
    results = tmp_path / "r.jsonl"
    argv = [str(xsb), "--level", "all", "--time-limit", "5", "--results", str(results), *how]
    proc = _solve(argv)
    deadline = time.monotonic() + 120
    while not results.exists() or len(results.read_text().splitlines()) < 3:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    first = records(results)
    total = len(parse_levels(xsb.read_text()))
    if proc.returncode == 0:  # it finished before the signal arrived: nothing to resume
        pytest.skip("the run ended before Ctrl-C")
    assert proc.returncode == 130, err
    assert "run the same command again to resume" in err and "Traceback" not in err
    assert 3 <= len(first) < total and len({r["id"] for r in first}) == len(first)
    proc = _solve(argv)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert f"{len(first)} of {total} levels were already in" in err
    final = records(results)
    assert len(final) == total and len({r["id"] for r in final}) == total  # nothing ran twice
    assert len([line for line in out.splitlines() if line.strip() != "-"]) == total


@pytest.mark.parametrize(
    ("how", "cores", "said"),
    [([], None, "one level at a time, each on"), (["--jobs", "2"], 1, "2 levels at a time, one core each")],
)
def test_a_results_file_does_not_change_how_a_level_is_solved(tmp_path: Path, how, cores, said) -> None:
    """With ``--results`` alone the levels run one at a time on all the cores, as without it; with
    ``--jobs`` two at a time on one core each; the summary says which."""
    from mazekit import examples
    from mazekit.sokoban.solver.lanes import default_cores

    xsb = tmp_path / "small.xsb"
    xsb.write_text(examples.read_text("sokoban/mazekit.xsb"))
    results = tmp_path / "r.jsonl"
    proc = _solve([str(xsb), "--level", "all", "--time-limit", "10", "--results", str(results), *how])
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert said in err, err
    want = default_cores() if cores is None else cores
    assert {r["result"]["cores"] for r in records(results)} == {want}
    assert f"each on {want} core" in err or cores == 1
