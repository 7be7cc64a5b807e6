"""mazekit.batch: results that resume, local pools that survive a dead worker, Dask clusters."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from mazekit.batch import BatchOptions, Task, read_results, run_batch
from tests.batch import tasks as T
from tests.procs import HAS_PROC, assert_all_end, wait_for_children

ROOT = Path(__file__).resolve().parents[2]


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_resume_runs_only_what_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    tasks = [Task(f"t{i}", (i,)) for i in range(6)]
    first = run_batch(tasks[:4], T.square, BatchOptions(results=str(path)))
    assert (first.ran, first.skipped) == (4, 0)
    # a crash while writing leaves a torn last line: that task runs again
    with open(path, "a") as fh:
        fh.write('{"id": "t4", "status": "do')
    again = run_batch(tasks, T.square, BatchOptions(results=str(path)))
    assert (again.ran, again.skipped) == (2, 4)
    recs = read_results(str(path))
    assert sorted(recs) == [t.id for t in tasks]
    assert all(r["status"] == "done" and r["result"]["square"] == int(r["id"][1:]) ** 2 for r in recs.values())
    assert run_batch(tasks, T.square, BatchOptions(results=str(path))).ran == 0


def test_a_task_error_is_a_failed_record_not_the_end(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    report = run_batch([Task("bad", (1,)), Task("good", (2,))], T.fail, BatchOptions(results=str(path)))
    assert report.failed == 2
    assert "does not like its input" in read_results(str(path))["bad"]["error"]
    # failed tasks run again on the next run
    assert run_batch([Task("bad", (3,))], T.square, BatchOptions(results=str(path))).ran == 1


def test_ids_must_be_unique() -> None:
    with pytest.raises(ValueError, match="unique"):
        run_batch([Task("a", (1,)), Task("a", (2,))], T.square)


def test_local_pool_survives_a_killed_worker(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    marks = tmp_path / "marks"
    marks.mkdir()
    tasks = [Task(f"k{i}", (i, str(marks))) for i in range(6)]
    report = run_batch(tasks, T.die_once, BatchOptions(jobs=2, results=str(path), retries=2))
    recs = lines(path)
    assert sorted(r["id"] for r in recs) == sorted(t.id for t in tasks)  # exactly one line a task
    assert all(r["status"] == "done" for r in recs)
    assert report.failed == 0 and max(r["attempts"] for r in recs) >= 2


def test_a_task_running_beside_a_dying_one_is_not_charged_for_it(tmp_path: Path) -> None:
    # the pool stops every task when one worker dies; only the task that died alone is charged
    path = tmp_path / "r.jsonl"
    report = run_batch(
        [Task("killer", (0,)), Task("bystander", (3,))],
        T.die_if_zero,
        BatchOptions(jobs=2, results=str(path), retries=0),
    )
    recs = read_results(str(path))
    assert recs["bystander"]["status"] == "done" and recs["bystander"]["result"]["square"] == 9
    assert recs["killer"]["status"] == "failed" and "died 1 time " in recs["killer"]["error"]
    assert report.failed == 1


def test_local_pool_gives_up_after_the_retries(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    report = run_batch(
        [Task("doomed", (0,)), Task("fine", (3,))], T.always_die, BatchOptions(jobs=2, results=str(path), retries=1)
    )
    recs = read_results(str(path))
    assert recs["doomed"]["status"] == "failed" and "died" in recs["doomed"]["error"]
    assert report.failed == 2  # always_die kills every worker it runs in


pytest.importorskip("distributed")


def test_dask_local_cluster_with_a_worker_killed_mid_run(tmp_path: Path) -> None:

    path = tmp_path / "r.jsonl"
    tasks = [Task(f"d{i}", (i, 0.3)) for i in range(16)]
    killed: list[int] = []

    def kill_a_worker(report: Any, record: dict[str, Any]) -> None:
        if report.ran == 3 and not killed:
            pid = record["result"]["pid"]
            killed.append(pid)
            os.kill(pid, signal.SIGKILL)

    report = run_batch(
        tasks, T.square, BatchOptions(scheduler="local", workers=2, results=str(path)), progress=kill_a_worker
    )
    recs = lines(path)
    assert killed
    assert sorted(r["id"] for r in recs) == sorted(t.id for t in tasks)
    assert all(r["status"] == "done" for r in recs), [r for r in recs if r["status"] != "done"]
    assert report.dashboard and report.dashboard.startswith("http://127.0.0.1:")
    assert len({r["result"]["pid"] for r in recs}) >= 3  # the restarted worker took over


def _start(cmd: list[str]) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)


def test_dask_scheduler_and_workers_as_separate_processes(tmp_path: Path) -> None:
    sched_file = tmp_path / "scheduler.json"
    scheduler = _start(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(sched_file),
        ]
    )
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists():
            assert time.monotonic() < deadline and scheduler.poll() is None, "the scheduler did not start"
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        worker = _start(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                address,
                "--nworkers",
                "2",
                "--nthreads",
                "1",
                "--no-dashboard",
            ]
        )
        from distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        path = tmp_path / "r.jsonl"
        tasks = [Task(f"s{i}", (i,)) for i in range(8)]
        report = run_batch(tasks, T.square, BatchOptions(scheduler=address, results=str(path)))
        assert report.ran == 8 and report.failed == 0
        assert sorted(r["id"] for r in lines(path)) == sorted(t.id for t in tasks)
    finally:
        for proc in (worker, scheduler):
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()


@pytest.mark.skipif(not HAS_PROC, reason="reads Linux's /proc")
def test_a_caller_killed_mid_batch_takes_its_workers_with_it(tmp_path: Path) -> None:
    """SIGKILL (no exit handler runs) of the process running a local batch: its worker processes,
    each in a task of a minute, end at once instead of finishing as orphans and then waiting."""
    script = (
        "import sys\n"
        "from mazekit.batch import BatchOptions, Task, run_batch\n"
        "from tests.batch import tasks as T\n"
        "if __name__ == '__main__':\n"
        "    tasks = [Task(f's{i}', (i, 60.0)) for i in range(4)]\n"
        "    run_batch(tasks, T.square, BatchOptions(jobs=2, results=sys.argv[1]))\n"
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "r.jsonl")], cwd=root)
    try:
        started = wait_for_children(proc.pid, at_least=2)
        time.sleep(1.0)  # the workers are in their tasks
        proc.kill()
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()

    assert len(started) >= 2, started
    assert_all_end(started)
