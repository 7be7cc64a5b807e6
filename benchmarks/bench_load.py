"""The playground under a class: ``python benchmarks/run.py load [--users 30] [--seconds 210] [--lessons 2]``.

Starts ``mazekit playground`` on 127.0.0.1 (a free port, loopback only) as a teacher would,
opens each room once (the teacher's visit), then runs lessons one after the other, a new class
each time: Locust (``benchmarks/locust_lesson.py``) headless, ``--users`` simulated students,
each doing what a lesson does (pages, grid searches on 50x50 to 300x300 grids, maze generation
with traces, a Minesweeper game with hints, Sokoban moves, and 5 solver runs over the
WebSocket). First a warm-up lesson (``--warmup-seconds``: every kind of request, so every
kernel a lesson uses is loaded), after which the stores that fill up to a cap are filled (the
Minesweeper games, the finished solver jobs kept); then ``--lessons`` measured lessons of
``--seconds`` each. The server's resident memory is read idle, once it has returned the memory
it freed (it does every minute): after the teacher's visit, after the warm-up, and after each
measured lesson; the goal is judged on the measured lessons' growth. The server is ended as a
teacher does (Ctrl-C), and the section ``load`` of RESULTS.md written: per kind of request,
over every lesson, the count, failures and the 50th/95th/99th percentiles; 5xx answers and
dropped sockets; the solver runs' time in the queue; the idle memory at each point.

Goals: no 5xx and no dropped WebSocket; p95 under 100 ms for everything but solving; memory
flat after the warm-up (no growth over 10,000 requests). Locust shares the machine with the
server: its own CPU is part of the load (noted beside the figures). Needs ``locust``
(``pip install -r benchmarks/requirements.txt``), not a mazekit dependency. About 13 minutes
with the defaults.
"""

from __future__ import annotations

import argparse
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
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from _harness import command_line, load, machine, write_section

from mazekit.web import Limits
from mazekit.web.api.mines import MAX_GAMES
from mazekit.web.app import TRIM_SECONDS

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
#: Requests whose time is a solver run (not held to the 100 ms goal).
SOLVING = ("sokoban solve",)
#: The lesson's search algorithms and maze generators (read by ``locust_lesson.py``).
ALGORITHMS = ("bfs", "dfs", "astar", "greedy", "dijkstra")
#: Growth of the idle memory still called flat (MiB), over each measured lesson and over them all:
#: the noise of one idle reading against the next (after the trim, nothing held meanwhile). In the
#: first two runs of this benchmark consecutive idle readings after the warm-up moved by -2.1,
#: +0.8, +5.4 and -7.1 MiB, with no trend; 8 MiB is about 3.5% of the idle server.
FLAT_MIB = 8.0
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


def settle(server_pid: int, base: str, most: float) -> tuple[int | None, float]:
    """After the lesson: wait for the solver runs to end and for the server's next return of freed
    memory to the system (every :data:`mazekit.web.app.TRIM_SECONDS`), then read the resident memory."""
    t0 = time.time()
    probe = Sampler(server_pid, base)
    while probe._runs() != 0 and time.time() - t0 < most:
        time.sleep(1)
    time.sleep(max(0.0, min(TRIM_SECONDS + 2, most - (time.time() - t0))))
    return _rss_kib(server_pid), time.time() - t0


def lesson(base: str, work: Path, users: int, seconds: int, hard_seconds: float) -> dict[str, Any]:
    """One lesson: Locust (``locust_lesson.py``) headless against the server at ``base``, ``users``
    students for ``seconds``; its figures are written under ``work``. Returns ``requests`` (done),
    ``summary`` (``locust_lesson.py``'s: status codes, sockets, every response time by kind),
    ``t_start``, ``t_end``, ``cpu_locust``."""
    work.mkdir(parents=True, exist_ok=True)
    env = _env() | {
        "MAZEKIT_LOAD_SECONDS": str(seconds),
        "MAZEKIT_LOAD_SUMMARY": str(work / "summary.json"),
        "MAZEKIT_LOAD_HARD_SECONDS": str(hard_seconds),
    }
    cmd = [
        shutil.which("locust") or "locust",
        *("-f", str(HERE / "locust_lesson.py"), "--headless", "--users", str(users)),
        *("--spawn-rate", str(max(1, users // 10)), "--run-time", f"{seconds}s", "--stop-timeout", "60"),
        *("--host", base, "--only-summary"),
        *("--loglevel", "WARNING"),
    ]
    own_start = os.times()
    t_start = time.time()
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=seconds + 300)
    t_end = time.time()
    own_end = os.times()
    summary_file = work / "summary.json"
    if not summary_file.exists():
        raise RuntimeError(f"locust wrote no figures (exit {res.returncode}): {res.stderr[-2000:]}")
    summary = json.loads(summary_file.read_text())
    return {
        "requests": sum(len(v) for v in summary.get("times", {}).values()),
        "summary": summary,
        "t_start": t_start,
        "t_end": t_end,
        "cpu_locust": (own_end.children_user + own_end.children_system)
        - (own_start.children_user + own_start.children_system),
        "locust_rc": res.returncode,
    }


def _fill_stores(base: str, games: int, jobs: int) -> None:
    """Fill the stores that a day's classes fill to their caps: ``games`` Minesweeper games started
    and opened, and ``jobs`` solver runs over the WebSocket (each kept a while when finished)."""
    import websocket

    for seed in range(games):
        game = _post(base, "/api/mines/new", {"level": "beginner", "seed": seed})
        _post(base, "/api/mines/act", {"id": game["id"], "action": "open", "cell": [4, 4]})
    url = base.replace("http://", "ws://") + "/api/sokoban/solve"
    for k in range(jobs):
        ws = websocket.create_connection(url, timeout=60)
        try:
            ws.send(json.dumps({"level": {"collection": "mazekit", "index": k % 5}, "time_limit": 10}))
            while json.loads(ws.recv())["type"] not in ("result", "error"):
                pass
        finally:
            ws.close()


def _kept_jobs(base: str) -> int:
    with urllib.request.urlopen(base + "/api/jobs", timeout=10) as r:
        return int(json.loads(r.read())["kept"])


def _mib(kib: float | None) -> str:
    return "-" if kib is None else f"{kib / 1024:.0f} MiB"


def _growth(before: float | None, after: float | None) -> str:
    return "-" if before is None or after is None else f"{(after - before) / 1024:+.1f} MiB"


def _ms(v: str | float) -> str:
    x = float(v)
    return f"{x / 1000:.2f} s" if x >= 1000 else f"{x:.0f} ms"


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """The server started, the teacher's visit, the warm-up lesson and the stores filled, then the
    measured lessons; the idle memory (after the server's trim) read after each step."""
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
    idle: list[dict[str, Any]] = []  # each idle point: what came before it, its reading, jobs kept
    lessons: list[dict[str, Any]] = []

    def idle_point(name: str, most: float) -> None:
        rss, waited = settle(server.pid, base, most)
        idle.append({"name": name, "rss": rss, "settle_s": waited, "kept": _kept_jobs(base)})

    def one_lesson(name: str, seconds: int) -> None:
        load_start = load()
        cpu_start = _cpu_s(server.pid)
        with Sampler(server.pid, base) as sampler:
            got = lesson(base, work / name, args.users, seconds, args.hard_seconds)
        got |= {
            "name": name,
            "seconds": seconds,
            "cpu_server": _cpu_s(server.pid) - cpu_start,  # the solver's workers that ended meanwhile are not counted
            "rss_max": max((kib for _, kib, _ in sampler.samples), default=None),
            "load_start": load_start,
            "load_end": load(),
        }
        lessons.append(got)
        idle_point(f"after {name}", args.hard_seconds + TRIM_SECONDS + 60)

    try:
        warm_s = _warm(base)
        # the server idle after the teacher's visit, once it has returned freed memory
        idle_point("after the teacher's visit", TRIM_SECONDS + 30)
        fill_s = 0.0
        if args.warmup_seconds:
            one_lesson("the warm-up lesson", args.warmup_seconds)
            t0 = time.perf_counter()
            _fill_stores(base, MAX_GAMES, Limits().jobs_kept)
            fill_s = time.perf_counter() - t0
            idle_point("the stores filled", TRIM_SECONDS + 30)
        for k in range(1, args.lessons + 1):
            one_lesson(f"lesson {k}", args.seconds)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            _, err = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
    return {
        "idle": idle,
        "lessons": lessons,
        "warm_s": warm_s,
        "fill_s": fill_s,
        "nice": os.nice(0),  # the server's too: it inherits this process's
        "server_err": (err or "").strip().splitlines()[-3:],
    }


def _merged(lessons: list[dict[str, Any]]) -> tuple[dict[str, list[float]], Counter[str], Counter[str], Counter[str]]:
    """Every response time by kind of request over ``lessons``; failures by kind; failures by error;
    status codes (and ``ws-ok``, ``ws-dropped``)."""
    times: dict[str, list[float]] = {}
    failed: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for got in lessons:
        summary = got["summary"]
        for key, xs in summary.get("times", {}).items():
            times.setdefault(key, []).extend(xs)
        failed.update(summary.get("failed", {}))
        errors.update(summary.get("errors", {}))
        seen.update(summary.get("seen", {}))
    return times, failed, errors, seen


def _percentiles(xs: list[float]) -> list[float]:
    """The median, 95th and 99th percentiles (nearest rank) and the largest."""
    return [float(v) for v in np.percentile(xs, [50, 95, 99], method="inverted_cdf")] + [max(xs)]


def report(args: argparse.Namespace, argv: list[str], r: dict[str, Any]) -> str:
    lessons, idle = r["lessons"], r["idle"]
    times, failed, errors, seen = _merged(lessons)
    five = sum(n for code, n in seen.items() if code.isdigit() and code.startswith("5"))
    dropped = seen.get("ws-dropped", 0)
    n_total = sum(got["requests"] for got in lessons)
    seconds = sum(got["seconds"] for got in lessons)
    quick = {k: _percentiles(xs) for k, xs in times.items() if not any(name in k for name in SOLVING)}
    worst = max(quick, key=lambda k: quick[k][1])
    every = _percentiles([x for xs in times.values() for x in xs])
    solves = [x for got in lessons for x in got["summary"].get("solve_times", [])]
    waits = [x for got in lessons for x in got["summary"].get("queue_waits", [])]
    measured = [got for got in lessons if got["name"].startswith("lesson ")]
    first_measured = len(idle) - len(measured) - 1  # the idle point just before the first measured lesson

    def spread(xs: list[float]) -> str:
        return f"median {_ms(1000 * statistics.median(xs))}, max {_ms(1000 * max(xs))}" if xs else "-"

    lines = [
        f"`{command_line('run.py load', argv)}` (the server and Locust at nice {r['nice']}); {machine()}; "
        f"{args.users} simulated students (Locust, headless, on the same machine) against `mazekit playground` on "
        "127.0.0.1 (default limits: 2 solver runs at once, fair queue), in lessons one after the other, a new class "
        "each time: "
        + ", ".join(f"{got['name']} {got['seconds']} s" for got in lessons)
        + f"; {lessons[0]['load_start']} at the start, {lessons[-1]['load_end']} at the end (the machine is shared "
        "with other work: the load is the other work's plus this run's).",
        "",
        f"**{n_total:,} requests** ({n_total / seconds:.0f}/s), **{five} answered 5xx**, "
        f"**{dropped} WebSocket dropped** of {seen.get('ws-ok', 0) + dropped} solver runs; "
        f"{sum(failed.values())} failures in all"
        + (" (" + "; ".join(f"{e} x{n}" for e, n in errors.most_common(4)) + ")" if errors else "")
        + ". Goals: no 5xx, no dropped WebSocket. Every lesson's requests together:",
        "",
        "| request | count | failures | median | p95 | p99 | max |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for key in sorted(times, key=lambda k: (any(n in k for n in SOLVING), k.split(" ", 1)[1], k)):
        p50, p95, p99, most = _percentiles(times[key])
        lines.append(
            f"| {key} | {len(times[key]):,} | {failed.get(key, 0)} | "
            f"{_ms(p50)} | {_ms(p95)} | {_ms(p99)} | {_ms(most)} |"
        )
    lines += [
        "",
        f"**p95 under 100 ms for everything but solving** (goal): the slowest kind's p95 is {_ms(quick[worst][1])} "
        f"({worst}); every request together, solving included: p95 {_ms(every[1])}, p99 {_ms(every[2])}.",
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
        f"**Server memory** (resident, the server process), read idle, once the server had returned the memory it "
        f"freed (it does every {TRIM_SECONDS:g} s):",
        "",
        "| idle | requests before it | resident | change | finished solver jobs kept |",
        "|---|---:|---:|---:|---:|",
    ]
    done = 0
    for k, point in enumerate(idle):
        got = next((g for g in lessons if point["name"] == f"after {g['name']}"), None)
        done += got["requests"] if got else 0
        change = _growth(idle[k - 1]["rss"], point["rss"]) if k else ""
        lines.append(f"| {point['name']} | {done:,} | {_mib(point['rss'])} | {change} | {point['kept']} |")
    if measured and first_measured >= 0:
        base_rss = idle[first_measured]["rss"]
        growths = [
            (got["requests"], (idle[first_measured + i + 1]["rss"] - idle[first_measured + i]["rss"]) / 1024)
            for i, got in enumerate(measured)
        ]
        net = (idle[-1]["rss"] - base_rss) / 1024
        flat = all(g <= FLAT_MIB for _, g in growths) and net <= FLAT_MIB  # a fall is not growth
        step = (base_rss - idle[0]["rss"]) / 1024
        lines += [
            "",
            f"**Memory flat after the warm-up** (goal: no growth over 10,000 requests): the warm-up (the "
            f"{args.warmup_seconds} s lesson, then the stores filled to their caps: {MAX_GAMES} Minesweeper games, "
            f"{Limits().jobs_kept} finished solver jobs, in {r['fill_s']:.0f} s) is a one-time step of "
            f"{step:+.1f} MiB from the teacher's visit; after it, "
            + "; ".join(
                f"{got['name']} ({n:,} requests) {g:+.1f} MiB" for got, (n, g) in zip(measured, growths, strict=True)
            )
            + f"; {net:+.1f} MiB over the {sum(n for n, _ in growths):,} requests since the warm-up: "
            + f"{'flat' if flat else 'NOT flat'} (growth at most {FLAT_MIB:g} MiB, the noise of an idle "
            + "reading, in each lesson and in all"
            + (
                ", each of at least 10,000 requests)."
                if all(n >= 10_000 for n, _ in growths)
                else "; a lesson had fewer than the goal's 10,000 requests)."
            ),
        ]
    lines += [
        "",
        "During each lesson (read every 2 s, solver runs going: a run's tables come and go, and malloc keeps "
        "what is freed until the next trim), the highest reading: "
        + ", ".join(f"{got['name']} {_mib(got['rss_max'])}" for got in lessons)
        + f". The teacher's visit to each room (one request of each kind) took {r['warm_s']:.1f} s (kernels "
        "loaded from numba's cache).",
        "",
        "**CPU**: the server (with the solver's worker processes) used "
        + ", ".join(f"{got['cpu_server']:.0f} s" for got in lessons)
        + " of CPU in the lessons and Locust "
        + ", ".join(f"{got['cpu_locust']:.0f} s" for got in lessons)
        + f", of the {(os.cpu_count() or 1)} CPUs' {(os.cpu_count() or 1) * seconds:.0f} s in the lessons (the "
        "other work on the machine had the rest, or waited for it).",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py load", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--users", type=int, default=30, help="simulated students (default 30)")
    ap.add_argument("--seconds", type=int, default=210, help="how long each measured lesson lasts (default 210)")
    ap.add_argument("--lessons", type=int, default=2, help="measured lessons, one after the other (default 2)")
    ap.add_argument(
        "--warmup-seconds", type=int, default=120, help="how long the warm-up lesson lasts (default 120; 0: none)"
    )
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
    if not (
        1 <= args.users <= 500
        and 10 <= args.seconds <= 3600
        and 1 <= args.lessons <= 10
        and (args.warmup_seconds == 0 or 10 <= args.warmup_seconds <= 3600)
    ):
        print(
            "run.py load: --users 1..500, --seconds 10..3600, --lessons 1..10, --warmup-seconds 0 or 10..3600",
            file=sys.stderr,
        )
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
