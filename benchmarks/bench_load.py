"""The playground under a class: ``python benchmarks/run.py load [--users 30] [--seconds 300]``.

Starts ``mazekit playground`` on 127.0.0.1 (a free port, loopback only) as a teacher would,
opens each room once (the rooms' kernels loaded before the lesson), then runs Locust
(``benchmarks/locust_lesson.py``) headless: ``--users`` simulated students for
``--seconds``, each doing what a lesson does (pages, grid searches on 50x50 to 300x300 grids,
maze generation with traces, a Minesweeper game with hints, Sokoban moves, and 5 solver
runs over the WebSocket). Meanwhile it reads the server process's resident memory every
2 s. It ends the server (Ctrl-C, as a teacher does) and writes the section ``load`` of
RESULTS.md: per kind of request the count, failures and the 50th/95th/99th percentiles,
5xx answers and dropped sockets, the solver runs' time in the queue, and the memory: the
server idle after the teacher's visit against idle after the lesson, each read once the server
has returned the memory it freed (it does every minute), and the readings during the lesson.

Goals: no 5xx and no dropped WebSocket; p95 under 100 ms for everything but solving; memory
flat after the warm-up (no growth over 10,000 requests). Locust shares the machine with the
server: its own CPU is part of the load (noted beside the figures). Needs ``locust``
(``pip install -r benchmarks/requirements.txt``), not a mazekit dependency.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from _harness import command_line, load, machine, write_section

from mazekit.web.app import TRIM_SECONDS

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
#: Requests whose time is a solver run (not held to the 100 ms goal).
SOLVING = ("sokoban solve",)
#: The lesson's search algorithms and maze generators (read by ``locust_lesson.py``).
ALGORITHMS = ("bfs", "dfs", "astar", "greedy", "dijkstra")
GENERATORS = ("backtracker", "prim", "kruskal", "wilson", "eller", "hunt-and-kill", "growing-tree", "sidewinder")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    env = dict(os.environ)
    if (SRC / "mazekit").is_dir():  # this checkout's mazekit, not another installed one
        env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [env.get("PYTHONPATH", "")])])
    return env


def _post(base: str, path: str, body: dict[str, Any], timeout: float = 300.0) -> Any:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def _warm(base: str) -> float:
    """Open each room once, as a teacher trying them before the lesson (each search algorithm and
    maze generator the lesson uses once: their kernels loaded); seconds it took."""
    t0 = time.perf_counter()
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(base + "/api", timeout=5).read()
            break
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError("the playground did not start") from None
            time.sleep(0.3)
    for algorithm in ALGORITHMS:
        for connectivity in (4, 8):
            grid = {"grid": ["000", "010", "000"], "start": [0, 0], "goal": [2, 2]}
            _post(base, "/api/search", grid | {"algorithm": algorithm, "connectivity": connectivity})
    for generator in GENERATORS:
        _post(base, "/api/maze/generate", {"algorithm": generator, "rows": 5, "cols": 5, "seed": 1})
    game = _post(base, "/api/mines/new", {"level": "beginner", "seed": 1})
    _post(base, "/api/mines/act", {"id": game["id"], "action": "open", "cell": [4, 4]})
    _post(base, "/api/mines/hint", {"id": game["id"]})
    _post(base, "/api/sokoban/solve", {"level": {"collection": "mazekit", "index": 2}, "time_limit": 30})
    return time.perf_counter() - t0


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and of its living descendants (the solver's workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(d.name)] = int(fields[1])
            times[int(d.name)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += times.get(p, 0.0)
        todo += [c for c, parent in parents.items() if parent == p]
    return total


def _rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


class Sampler:
    """The server's resident memory every ``every`` seconds, in a thread: ``(t, KiB, runs)`` triples,
    ``runs`` the solver runs going or waiting then (``GET /api/jobs``; -1 when it did not answer)."""

    def __init__(self, pid: int, base: str, every: float = 2.0) -> None:
        self.pid, self.base, self.every = pid, base, every
        self.samples: list[tuple[float, int, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _runs(self) -> int:
        try:
            with urllib.request.urlopen(self.base + "/api/jobs", timeout=5) as r:
                queue = json.loads(r.read())
            return int(queue["running"]) + int(queue["waiting"])
        except (OSError, ValueError, KeyError):
            return -1

    def _run(self) -> None:
        while not self._stop.is_set():
            runs = self._runs()
            rss = _rss_kib(self.pid)
            if rss is not None:
                self.samples.append((time.time(), rss, runs))
            self._stop.wait(self.every)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join(5)


def quiet_readings(samples: list[tuple[float, int, int]], lo: float, hi: float) -> list[int]:
    """The readings between ``lo`` and ``hi`` taken with no solver run going, then or at the reading
    before: a run's tables are working memory that is freed when it ends, not growth."""
    out = []
    for (_, _, before), (t, kib, runs) in zip(samples, samples[1:], strict=False):
        if lo <= t < hi and runs == 0 and before == 0:
            out.append(kib)
    return out


def settle(server_pid: int, base: str, most: float) -> tuple[int | None, float]:
    """After the lesson: wait for the solver runs to end and for the server's next return of freed
    memory to the system (every :data:`mazekit.web.app.TRIM_SECONDS`), then read the resident memory."""
    t0 = time.time()
    probe = Sampler(server_pid, base)
    while probe._runs() != 0 and time.time() - t0 < most:
        time.sleep(1)
    time.sleep(max(0.0, min(TRIM_SECONDS + 2, most - (time.time() - t0))))
    return _rss_kib(server_pid), time.time() - t0


def _rss_at(samples: list[tuple[float, int]], t: float) -> int:
    """The sample nearest ``t``."""
    return min(samples, key=lambda s: abs(s[0] - t))[1]


def _requests_at(history: list[dict[str, str]], t: float) -> int:
    """Requests done by time ``t`` (Locust's history of the aggregated row)."""
    done = 0
    for row in history:
        if float(row["Timestamp"]) <= t:
            done = int(row["Total Request Count"])
    return done


def _mib(kib: int | None) -> str:
    return "-" if kib is None else f"{kib / 1024:.0f} MiB"


def _growth(before: int | None, after: int | None) -> str:
    return "-" if before is None or after is None else f"{(after - before) / 1024:+.1f} MiB"


def _ms(v: str | float) -> str:
    x = float(v)
    return f"{x / 1000:.2f} s" if x >= 1000 else f"{x:.0f} ms"


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server_env = _env() | dict(kv.split("=", 1) for kv in args.server_env)
    server = subprocess.Popen(
        [sys.executable, "-m", "mazekit", "playground", "--no-browser", "--host", "127.0.0.1", "--port", str(port)],
        env=server_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        warm_s = _warm(base)
        # the baseline: the server idle after the teacher's visit, once it has returned freed memory
        rss_idle, _ = settle(server.pid, base, most=TRIM_SECONDS + 30)
        env = _env() | {
            "MAZEKIT_LOAD_SECONDS": str(args.seconds),
            "MAZEKIT_LOAD_SUMMARY": str(work / "summary.json"),
            "MAZEKIT_LOAD_HARD_SECONDS": str(args.hard_seconds),
        }
        locust = shutil.which("locust") or "locust"
        cmd = [
            locust,
            "-f",
            str(HERE / "locust_lesson.py"),
            "--headless",
            "--users",
            str(args.users),
            "--spawn-rate",
            str(max(1, args.users // 10)),
            "--run-time",
            f"{args.seconds}s",
            "--stop-timeout",
            "60",
            "--host",
            base,
            "--csv",
            str(work / "load"),
            "--csv-full-history",
            "--only-summary",
            "--loglevel",
            "WARNING",
        ]
        load_start = load()
        t_start = time.time()
        cpu_start = _cpu_s(server.pid)
        own_start = os.times()
        with Sampler(server.pid, base) as sampler:
            res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.seconds + 300)
        t_end = time.time()
        cpu_server = _cpu_s(server.pid) - cpu_start  # the solver's workers that ended meanwhile are not counted
        own_end = os.times()
        cpu_locust = (own_end.children_user + own_end.children_system) - (
            own_start.children_user + own_start.children_system
        )
        load_end = load()
        rss_end = _rss_kib(server.pid)
        rss_settled, settle_s = settle(server.pid, base, most=args.hard_seconds + TRIM_SECONDS + 30)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            _, err = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
    if not (work / "load_stats.csv").exists():
        raise RuntimeError(f"locust wrote no figures (exit {res.returncode}): {res.stderr[-2000:]}")
    with open(work / "load_stats.csv") as f:
        stats = list(csv.DictReader(f))
    with open(work / "load_stats_history.csv") as f:
        history = [r for r in csv.DictReader(f) if r["Name"] == "Aggregated"]
    failures: list[dict[str, str]] = []
    if (work / "load_failures.csv").exists():
        with open(work / "load_failures.csv") as f:
            failures = list(csv.DictReader(f))
    summary = json.loads((work / "summary.json").read_text()) if (work / "summary.json").exists() else {}
    return {
        "stats": stats,
        "history": history,
        "failures": failures,
        "summary": summary,
        "samples": sampler.samples,
        "t_start": t_start,
        "t_end": t_end,
        "nice": os.nice(0),  # the server's too: it inherits this process's
        "cpu_server": cpu_server,
        "cpu_locust": cpu_locust,
        "rss_end": rss_end,
        "rss_settled": rss_settled,
        "rss_idle": rss_idle,
        "settle_s": settle_s,
        "warm_s": warm_s,
        "load_start": load_start,
        "load_end": load_end,
        "locust_rc": res.returncode,
        "server_err": (err or "").strip().splitlines()[-3:],
    }


def report(args: argparse.Namespace, argv: list[str], r: dict[str, Any]) -> str:
    rows = [s for s in r["stats"] if s["Name"] != "Aggregated"]
    total = next(s for s in r["stats"] if s["Name"] == "Aggregated")
    seen = r["summary"].get("seen", {})
    five = sum(n for code, n in seen.items() if code.isdigit() and code.startswith("5"))
    dropped = seen.get("ws-dropped", 0)
    # p95 of everything but solving, from Locust's per-name percentiles weighted by their counts
    quick = [s for s in rows if not any(name in s["Name"] for name in SOLVING)]
    worst = max(quick, key=lambda s: float(s["95%"]))
    samples = r["samples"]
    t_warm = r["t_start"] + args.warmup
    after = [s for s in samples if s[0] >= t_warm]
    # a moment's figure swings with the solver runs going (a run's tables are freed when it ends):
    # the readings with no run going, in the first and the last minute after the warm-up
    first = quiet_readings(samples, t_warm, t_warm + 60) or [_rss_at(samples, t_warm)]
    last = quiet_readings(samples, r["t_end"] - 60, r["t_end"]) or [samples[-1][1]]
    rss_warm, rss_last = statistics.median(first), statistics.median(last)
    rss_max = max((kib for _, kib, _ in after), default=rss_warm)
    minutes = []
    for k in range(int((r["t_end"] - r["t_start"]) // 60) + 1):
        inside = [kib for t, kib, _ in samples if r["t_start"] + 60 * k <= t < r["t_start"] + 60 * (k + 1)]
        if inside:
            n = _requests_at(r["history"], r["t_start"] + 60 * (k + 1))
            minutes.append(f"{max(inside) / 1024:.0f} MiB ({n:,})")
    n_warm = _requests_at(r["history"], t_warm)
    n_total = int(total["Request Count"])
    waits = r["summary"].get("queue_waits", [])
    solves = r["summary"].get("solve_times", [])

    def spread(xs: list[float]) -> str:
        return f"median {_ms(1000 * statistics.median(xs))}, max {_ms(1000 * max(xs))}" if xs else "-"

    lines = [
        f"`{command_line('run.py load', argv)}` (the server and Locust at nice {r['nice']}); {machine()}; "
        f"{args.users} simulated students (Locust, headless, on the same machine) for {args.seconds} s against "
        f"`mazekit playground` on 127.0.0.1 (default limits: 2 solver runs at once, fair queue); "
        f"{r['load_start']} at the start, {r['load_end']} at the end (the machine is shared with other work: "
        "the load is the other work's plus this run's).",
        "",
        f"**{n_total:,} requests** ({n_total / args.seconds:.0f}/s), **{five} answered 5xx**, "
        f"**{dropped} WebSocket dropped** of {seen.get('ws-ok', 0) + dropped} solver runs; "
        f"{int(total['Failure Count'])} failures in all"
        + (
            " (" + "; ".join(f"{f['Name']}: {f['Error']} x{f['Occurrences']}" for f in r["failures"][:4]) + ")"
            if r["failures"]
            else ""
        )
        + ". Goals: no 5xx, no dropped WebSocket.",
        "",
        "| request | count | failures | median | p95 | p99 | max |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sorted(rows, key=lambda s: (any(n in s["Name"] for n in SOLVING), s["Name"])):
        lines.append(
            f"| {s['Type']} {s['Name']} | {int(s['Request Count']):,} | {int(s['Failure Count'])} | "
            f"{_ms(s['50%'])} | {_ms(s['95%'])} | {_ms(s['99%'])} | {_ms(s['Max Response Time'])} |"
        )
    lines += [
        "",
        f"**p95 under 100 ms for everything but solving** (goal): the slowest kind's p95 is {_ms(worst['95%'])} "
        f"({worst['Type']} {worst['Name']}); every request together, solving included: p95 {_ms(total['95%'])}, "
        f"p99 {_ms(total['99%'])}.",
        "",
        f"**Solver runs**: {len(solves)} over the WebSocket (each student's five: bundled levels, solved in "
        "milliseconds"
        + (
            f", and one on a level too hard for the solver, which holds its slot to its {args.hard_seconds:g} s "
            "time limit"
            if args.hard_seconds > 0
            else ""
        )
        + f"), start to result {spread(solves)}; time waiting in the fair queue {spread(waits)}.",
        "",
        f"**Server memory** (resident, the server process): idle, once it had returned freed memory (every "
        f"{TRIM_SECONDS:g} s), {_mib(r['rss_idle'])} after the teacher's visit to each room and "
        f"{_mib(r['rss_settled'])} after the lesson ({n_total:,} requests: "
        f"{'at least' if n_total >= 10_000 else 'fewer than'} the goal's 10,000; growth "
        f"{_growth(r['rss_idle'], r['rss_settled'])}; {r['settle_s']:.0f} s after the last request). During the "
        f"lesson, read every 2 s with no solver run going (a run's tables come and go): {rss_warm / 1024:.0f} MiB "
        f"in the minute after the {args.warmup} s warm-up ({n_warm:,} requests), {rss_last / 1024:.0f} MiB in "
        f"the last minute; highest {rss_max / 1024:.0f} MiB (a run on the too-hard level going). "
        + "Before the lesson the teacher's visit to each room (one request of each kind) "
        f"took {r['warm_s']:.1f} s (kernels loaded from numba's cache). The highest reading in each minute "
        f"(requests done by its end): {', '.join(minutes)}.",
        "",
        f"**CPU**: the server (with the solver's worker processes) used {r['cpu_server']:.0f} s of CPU and Locust "
        f"{r['cpu_locust']:.0f} s, of the {(os.cpu_count() or 1) * (r['t_end'] - r['t_start']):.0f} s the machine's "
        f"{os.cpu_count()} CPUs offer in the run (the other work on the machine had the rest, or waited for it).",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py load", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--users", type=int, default=30, help="simulated students (default 30)")
    ap.add_argument("--seconds", type=int, default=300, help="how long the lesson lasts (default 300)")
    ap.add_argument("--warmup", type=int, default=60, help="seconds before memory counts as warm (default 60)")
    ap.add_argument(
        "--hard-seconds",
        type=float,
        default=5.0,
        help="time limit of each student's run on a level too hard for the solver (default 5; 0: no such run)",
    )
    ap.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an environment variable for the server (repeatable; e.g. MALLOC_ARENA_MAX=2)",
    )
    ap.add_argument("--no-write", action="store_true", help="print only, do not touch RESULTS.md")
    args = ap.parse_args(argv)
    if any("=" not in kv for kv in args.server_env):
        print("run.py load: --server-env takes KEY=VALUE", file=sys.stderr)
        return 2
    if shutil.which("locust") is None:
        print("run.py load: locust is not installed: pip install -r benchmarks/requirements.txt", file=sys.stderr)
        return 2
    if not 1 <= args.users <= 500 or not 10 <= args.seconds <= 3600 or not 0 <= args.warmup < args.seconds:
        print("run.py load: --users 1..500, --seconds 10..3600, --warmup 0..seconds", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="mazekit-load-") as tmp:
        r = run(args, Path(tmp))
    body = report(args, argv, r)
    print(body)
    if not args.no_write:
        write_section("load", "Playground under a class", body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
