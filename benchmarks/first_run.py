"""The first run after installing: how long the Sokoban solver's first compile keeps a user waiting.

Each figure starts from an empty numba cache (a new temporary ``NUMBA_CACHE_DIR``):

* ``cli``: ``mazekit sokoban solve tests/data/sokoban/slow.xsb --time-limit 3`` (a
  38-box level the search does not finish in 3 s, so it compiles and searches 3 s;
  exit status 1, not solved), whole process wall time; and the same with ``--jobs 2`` (the batch path: a warm-up, then
  the workers);
* ``playground``: ``mazekit playground --no-browser --port 0`` starts; ``--at`` seconds
  later the script opens ``/sokoban`` and posts a solve of the bundled level 3 (19
  moves), and times the answer from the server's start.

``--busy N [N ...]`` runs the figures once for each N, with N busy processes at normal priority
beside them (a machine shared like a class's server: the compiles then compete for the CPU);
the playground's lines also say how long the ``/sokoban`` page took to serve while the warm-up
was compiling.

``--src DIR`` runs another checkout's ``src``; ``--before DIR`` runs a second one (for example a
worktree of an older commit) before it, so that both columns come from the same
machine in the same session. Prints the figures and writes the "First run after installing"
section of ``benchmarks/RESULTS.md`` (``--no-write``: print only).

Run: ``python benchmarks/first_run.py [--src DIR] [--before DIR] [--at 10 40] [--skip-cli]
[--busy N [N ...]] [--no-write]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from _harness import command_line, load, machine, write_section

ROOT = Path(__file__).resolve().parent.parent
SLOW = ROOT / "tests" / "data" / "sokoban" / "slow.xsb"


def _env(src: Path, cache: str) -> dict[str, str]:
    return {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(src)}


def cli(src: Path, jobs: int) -> float:
    """Wall seconds of one cold ``sokoban solve`` on the 38-box level."""
    with tempfile.TemporaryDirectory(prefix="mazekit-numba-") as cache:
        cmd = [sys.executable, "-m", "mazekit", "sokoban", "solve", str(SLOW), "--time-limit", "3", "--quiet"]
        if jobs > 1:
            cmd += ["--jobs", str(jobs)]
        t0 = time.perf_counter()
        res = subprocess.run(cmd, env=_env(src, cache), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if res.returncode not in (0, 1):  # 1: not solved, as expected
            raise SystemExit(f"sokoban solve failed: {res.stderr.strip()[-500:]}")
        return time.perf_counter() - t0


@contextlib.contextmanager
def busy(n: int) -> Iterator[None]:
    """``n`` processes spinning at normal priority for the duration of the block."""
    spin = [sys.executable, "-c", "while True: pass"]
    procs = [subprocess.Popen(spin) for _ in range(n)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def playground(src: Path, at: float) -> tuple[float, float, float]:
    """(asked, answered, page): seconds from the server's start to the solve's request and its
    answer, and the seconds the ``/sokoban`` page took to serve."""
    with tempfile.TemporaryDirectory(prefix="mazekit-numba-") as cache:
        t0 = time.perf_counter()
        server = subprocess.Popen(
            [sys.executable, "-m", "mazekit", "playground", "--no-browser", "--port", "0"],
            env=_env(src, cache),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert server.stdout is not None
            url = re.search(r"(http://\S+)", server.stdout.readline())
            if url is None:
                raise SystemExit("the playground did not say its address")
            time.sleep(max(0.0, at - (time.perf_counter() - t0)))
            t1 = time.perf_counter()
            urllib.request.urlopen(url[1] + "sokoban", timeout=60).read()
            asked = time.perf_counter() - t0
            page = asked - (t1 - t0)
            body = json.dumps({"level": {"collection": "mazekit", "index": 2}, "time_limit": 5}).encode()
            req = urllib.request.Request(url[1] + "api/sokoban/solve", body, {"Content-Type": "application/json"})
            answer = json.loads(urllib.request.urlopen(req, timeout=900).read())
            if not answer.get("solved"):
                raise SystemExit(f"the solve failed: {answer}")
            return asked, time.perf_counter() - t0, page
        finally:
            server.terminate()
            server.wait(timeout=30)


def figures(src: Path, ats: list[float], skip_cli: bool, spinning: int = 0) -> dict[str, float]:
    """The row label -> seconds of one checkout, printed as they come."""
    beside = f", {spinning} busy processes beside it" if spinning else ""
    print(f"src: {src}  (each figure from an empty numba cache{beside})", flush=True)
    with busy(spinning):
        return _figures(src, ats, skip_cli)


def _figures(src: Path, ats: list[float], skip_cli: bool) -> dict[str, float]:
    rows: dict[str, float] = {}
    if not skip_cli:
        for jobs in (1, 2):
            label = "`mazekit sokoban solve slow.xsb --time-limit 3` (38 boxes), wall"
            rows[label if jobs == 1 else "the same with `--jobs 2`"] = wall = cli(src, jobs)
            print(f"cli sokoban solve, 38 boxes, 3 s limit, --jobs {jobs}: {wall:.1f} s wall", flush=True)
    for at in ats:
        asked, answered, page = playground(src, at)
        rows[f"playground: a Solve asked {at:g} s after the start, answered at"] = answered
        print(
            f"playground: solve asked at {asked:.1f} s, answered at {answered:.1f} s"
            f" (the page served in {page * 1000:.0f} ms)",
            flush=True,
        )
    return rows


def checkout_name(src: Path) -> str:
    """A checkout's name for a column: its commit (short), or its folder's name."""
    res = subprocess.run(["git", "-C", str(src), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return f"`{res.stdout.strip()}`" if res.returncode == 0 else f"`{src.parent.name}`"


def section(argv: list[str], columns: list[tuple[str, dict[str, float]]]) -> str:
    """The RESULTS.md section: the command, the machine, a table with a column a measured run."""
    lines = [
        f"Command: `{command_line('benchmarks/first_run.py', argv)}`; each figure from an empty numba cache"
        + (", the runs one after the other" if len(columns) > 1 else "")
        + f". Machine: {machine()}; {load()}.",
        "",
        "| first run, empty cache | " + " | ".join(name for name, _ in columns) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for label in columns[0][1]:
        lines.append(f"| {label} | " + " | ".join(f"{rows[label]:.1f} s" for _, rows in columns) + " |")
    lines += [
        "",
        "The Sokoban solver's first compile is the longest wait a newcomer meets: the search's helpers "
        "compile in shares in two child processes, and the playground's warm-up compiles the solver's "
        "shares first. *Busy*: that many processes spinning at normal priority beside the run, as on a "
        "shared machine.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the checkout's src to run (default: this one)")
    ap.add_argument("--before", type=Path, help="another checkout's src, measured beside it (a 'before' column)")
    ap.add_argument("--at", type=float, nargs="+", default=[10.0, 40.0], help="when the playground's solve is asked")
    ap.add_argument("--skip-cli", action="store_true", help="only the playground")
    ap.add_argument(
        "--busy", type=int, nargs="+", default=[0], metavar="N", help="busy processes beside the runs (one set a value)"
    )
    ap.add_argument("--no-write", action="store_true", help="print only, do not touch RESULTS.md")
    args = ap.parse_args(argv)
    columns: list[tuple[str, dict[str, float]]] = []
    for spinning in args.busy:
        load_name = f"{spinning} busy" if spinning else "idle"
        if args.before is not None:
            rows = figures(args.before, args.at, args.skip_cli, spinning)
            columns.append((f"before ({checkout_name(args.before)}), {load_name}", rows))
        name = load_name if args.before is None else f"after, {load_name}"
        columns.append((name, figures(args.src, args.at, args.skip_cli, spinning)))
    shown = list(argv)  # the command as written in RESULTS: no machine's paths
    for i, arg in enumerate(shown[:-1]):
        if arg in ("--before", "--src"):
            shown[i + 1] = f"<a worktree of {checkout_name(Path(shown[i + 1])).strip('`')}>/src"
    body = section(shown, columns)
    print(body)
    if not args.no_write:
        write_section("first_run", "First run after installing", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
