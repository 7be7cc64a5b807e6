"""Batches (#16): one Sokoban collection with --jobs 1, --jobs 2 and a local Dask cluster; Dask's cost per task.

``python benchmarks/run.py batch`` runs, in one run on this machine:

* ``mazekit sokoban solve FILE --level all --time-limit T --results R`` three
  ways: ``--jobs 1``, ``--jobs 2`` and ``--scheduler local --workers 2`` (a
  fresh results file each time, so every level runs); the wall time of each
  command (process start, level parsing, the cluster's start and shutdown
  included) and the levels solved, which must agree;
* the cost Dask adds to a task: 400 trivial tasks (``mazekit.batch._square``)
  through ``run_batch`` on a running LocalCluster of 2 workers, against the same
  tasks in 2 local processes, per task; and the LocalCluster's start-up alone.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _harness import command_line, load, machine, write_section

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "levels"


def run_cli(argv: list[str], results: Path) -> tuple[float, int, int, dict[int, float | None]]:
    """Wall seconds, levels solved, result lines, and each level's solve time (None: not solved)."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mazekit", *argv, "--results", str(results)], capture_output=True, text=True
    )
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"run.py batch: {' '.join(argv)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    solved = sum(1 for line in proc.stdout.splitlines() if line.strip() and line.strip() != "-")
    times: dict[int, float | None] = {}
    for line in results.read_text().splitlines():
        r = json.loads(line)["result"]
        times[r["level"]] = r["seconds"] if r["solved"] else None
    return wall, solved, len(times), times


def dask_overhead(n: int) -> tuple[float, float, float]:
    """(LocalCluster start s, per-task s on Dask, per-task s in local processes) for n trivial tasks."""
    from distributed import Client, LocalCluster

    from mazekit.batch import BatchOptions, Task, _square, run_batch

    tasks = [Task(f"t{i}", (i,)) for i in range(n)]
    t0 = time.perf_counter()
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=50
    )
    client = Client(cluster)
    client.wait_for_workers(2)
    start = time.perf_counter() - t0
    try:
        t0 = time.perf_counter()
        futures = client.map(_square, range(n), pure=False)
        client.gather(futures)
        dask_per = (time.perf_counter() - t0) / n
    finally:
        client.close()
        cluster.close()
    t0 = time.perf_counter()
    run_batch(tasks, _square, BatchOptions(jobs=2))
    local_per = (time.perf_counter() - t0) / n
    return start, dask_per, local_per


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py batch", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--file", default=str(SHARED / "xsokoban90.xsb"), help="the collection (default: XSokoban)")
    ap.add_argument("--levels", type=int, default=16, help="its first N levels (default 16)")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per level (default 10)")
    ap.add_argument("--tasks", type=int, default=400, help="trivial tasks for Dask's cost per task")
    ap.add_argument("--no-write", action="store_true", help="print only, do not touch RESULTS.md")
    args = ap.parse_args(argv)
    started = load()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        chunks = re.split(r"\n(?=;)", Path(args.file).read_text())
        levels_file = Path(d) / f"first{args.levels}.xsb"
        levels_file.write_text("\n".join(chunks[: args.levels]))
        base = ["sokoban", "solve", str(levels_file), "--level", "all", "--time-limit", f"{args.time_limit:g}"]
        for name, extra in (
            ("--jobs 1", ["--jobs", "1"]),
            ("--jobs 2", ["--jobs", "2"]),
            ("--scheduler local --workers 2", ["--scheduler", "local", "--workers", "2"]),
        ):
            results = Path(d) / f"r{len(rows)}.jsonl"
            wall, solved, lines, times = run_cli([*base, *extra], results)
            rows.append((name, wall, solved, lines, times))
            print(f"{name}: {wall:.1f} s, {solved} solved, {lines} result lines", flush=True)
    start, dask_per, local_per = dask_overhead(args.tasks)
    levels = rows[0][3]
    lines = [
        f"`{command_line('run.py batch', argv)}`; {machine()}, Python {platform.python_version()}; "
        f"{started} at the start, {load()} at the end.",
        "",
        f"`mazekit sokoban solve` on the first {levels} levels of {Path(args.file).name}, `--level all --time-limit "
        f"{args.time_limit:g} --results R`, the whole command timed:",
        "",
        "| how | wall | levels solved | result lines | speed-up |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, wall, solved, n, _ in rows:
        lines.append(f"| `{name}` | {wall:.1f} s | {solved} | {n} | {rows[0][1] / wall:.2f}x |")
    alone = rows[0][4]
    edge = sorted(k for k in alone if any((r[4].get(k) is None) != (alone[k] is None) for r in rows[1:]))
    if edge:
        said = ", ".join(
            f"{k} ({alone[k]:.1f} s alone)" if alone[k] is not None else f"{k} (unsolved alone)" for k in edge
        )
        lines += [
            "",
            f"Levels solved one way and not another: {said}. Two searches at once share the two "
            "cores (with whatever else the machine runs) and split the memory cap, so a level near the time "
            "limit alone can miss it in parallel; the results files hold each level's time.",
        ]
    lines += [
        "",
        f"Dask's own cost, measured apart: a LocalCluster of 2 worker processes starts in {start:.1f} s; "
        f"{args.tasks} trivial tasks cost {dask_per * 1000:.2f} ms each through Dask against "
        f"{local_per * 1000:.2f} ms each in 2 local processes (`--jobs 2`), both including the round trip "
        "of arguments and results. Against a Sokoban task of seconds, Dask's cost per task is noise; its "
        "start-up is paid once per command.",
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("batch", "Batches: local processes and Dask", body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
