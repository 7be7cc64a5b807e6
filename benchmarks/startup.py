"""Process start-up figures of issue 2: whole-process wall time of the CLI.

* ``python -m mazekit robot`` on the robot article's example (target < 0.15 s):
  a tiny input must not pay for numba;
* ``python -m mazekit forest`` on a 2000 x 2000 forest from a new process with a
  warm numba cache (target < 1.5 s): two forests, a random one (25 % traps,
  the explorer in the middle) and a maze (a backtracker maze with one gap in
  its outer wall, the explorer in the middle cell: the search wanders far).

Each figure is the median of ``--repeat`` fresh processes after one warm-up
process (which fills the numba cache). ``python -S -c pass`` and
``python -c "import numpy"`` are timed beside them as the floor. The answers
are checked (the robot's against the article's output; the forest's route
starts at E, ends on the border and only steps onto free cells).

Run: ``python benchmarks/startup.py [--repeat N] [--no-write]``; writes the
"Start-up" section of ``benchmarks/RESULTS.md``. With ``--importtime``, or when the robot
misses its target, it also prints the slowest imports of the robot run (``python -X
importtime``), a diagnosis that is not written to the results page.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import _harness as H
import numpy as np

ROOT = H.HERE.parent
ROBOT_IN = ROOT / "tests" / "data" / "articles" / "robot_example.in"
ROBOT_OUT = ROOT / "tests" / "data" / "articles" / "robot_example.out"
ROBOT_EXAMPLE = "4 7 1 3 2 6\n1001000\n0010100\n0000000\n1101000\n"
CPU: dict[int, list[float]] = {}  # id(cmd) -> CPU seconds (user + sys) of each process run

ROBOT_ANSWER = "1 3\n1 2\n2 2\n3 2\n3 3\n3 4\n3 5\n3 6\n2 6\n"


def wall(cmd: list[str], stdin: Path | None = None, hide_scipy: bool = False) -> tuple[float, str]:
    """Wall time of one whole process, and its stdout."""
    env = {**os.environ, "MAZEKIT_JIT": "auto"}
    if hide_scipy:
        env["PYTHONPATH"] = os.pathsep.join([str(H.hide_scipy_dir()), env.get("PYTHONPATH", "")])
    f = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdin=f, capture_output=True, env=env)
        t = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        if stdin:
            f.close()  # type: ignore[union-attr]
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd} failed: {proc.stderr.decode(errors='replace').strip()}")
    CPU[id(cmd)] = CPU.get(id(cmd), []) + [(r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)]
    return t, proc.stdout.decode()


def timed(cmd: list[str], repeat: int, stdin: Path | None = None, hide_scipy: bool = False) -> tuple[float, float, str]:
    """Median wall and median CPU time of ``repeat`` fresh processes, and the last output."""
    wall(cmd, stdin, hide_scipy)  # warm-up: OS file cache, numba cache
    CPU.pop(id(cmd), None)
    runs = [wall(cmd, stdin, hide_scipy) for _ in range(repeat)]
    ts = [t for t, _ in runs]
    return statistics.median(ts), statistics.median(CPU[id(cmd)]), runs[-1][1]


def forest_files(n: int) -> dict[str, Path]:
    from mazekit.generate import backtracker

    H.BUILD.mkdir(exist_ok=True)
    out = {}
    rng = np.random.default_rng(2000)
    open_ = rng.random((n, n)) >= 0.25
    h = (n - 1) // 2
    maze = np.zeros((n, n), dtype=bool)
    maze[: 2 * h + 1, : 2 * h + 1] = backtracker(h, h, rng=11)
    maze[0, 2 * (h // 3) + 1] = True  # one gap in the outer wall, a third of the way along the top
    for name, p in (("random", open_), ("maze", maze)):
        e = (n // 2) | 1 if name == "maze" else n // 2
        rows = np.where(p, "O", "X")
        rows[e, e] = "E"
        path = H.BUILD / f"forest_{name}_{n}.in"
        with open(path, "w") as f:
            f.write(f"{n} {n}\n")
            f.write("\n".join("".join(r) for r in rows.tolist()))
            f.write("\n")
        out[name] = path
    return out


def check_forest(path: Path, answer: str) -> int:
    lines = path.read_text().split("\n")
    n = int(lines[0].split()[0])
    cells = [tuple(map(int, line.split())) for line in answer.split("\n") if line.strip()]
    assert cells and cells[0] != (-1,), "no route out"
    r, c = cells[0]
    assert lines[1 + r][c] == "E"
    for (r0, c0), (r1, c1) in zip(cells, cells[1:], strict=False):
        assert abs(r1 - r0) + abs(c1 - c0) == 1 and lines[1 + r1][c1] == "O"
    r, c = cells[-1]
    assert r in (0, n - 1) or c in (0, n - 1)
    return len(cells) - 1


def importtime(cmd: list[str], stdin: Path) -> list[str]:
    with open(stdin, "rb") as f:
        proc = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], stdin=f, capture_output=True)
    rows = []
    for line in proc.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            parts = line.split("|")
            try:
                rows.append((int(parts[1]), parts[2].rstrip()))
            except ValueError:
                continue
    rows.sort(reverse=True)
    return [f"{us / 1000:7.1f} ms  {name}" for us, name in rows[:15]]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7, help="fresh processes per figure (median; default 7)")
    ap.add_argument("--size", type=int, default=2000, help="forest side (default 2000)")
    ap.add_argument("--importtime", action="store_true", help="print the robot run's slowest imports")
    ap.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = ap.parse_args(argv)
    py = H.python()
    load_before = H.load()
    robot_in = ROBOT_IN if ROBOT_IN.exists() else H.BUILD / "robot_example.in"
    if not robot_in.exists():
        H.BUILD.mkdir(exist_ok=True)
        robot_in.write_text(ROBOT_EXAMPLE)
    rows = []
    floor, floor_cpu, _ = timed([py, "-S", "-c", "pass"], args.repeat)
    rows.append(("`python -S -c pass` (interpreter floor)", floor, floor_cpu, None, ""))
    npy, npy_cpu, _ = timed([py, "-c", "import numpy"], args.repeat)
    rows.append(("`python -c 'import numpy'`", npy, npy_cpu, None, ""))
    robot, robot_cpu, out = timed([py, "-m", "mazekit", "robot"], args.repeat, robot_in)
    assert out == ROBOT_ANSWER, f"robot printed {out!r}"
    rows.append(("`python -m mazekit robot < robot_example.in`", robot, robot_cpu, 0.15, "output = the article's"))
    forests = forest_files(args.size)
    for name, path in forests.items():
        for hide in (False, True):
            t, c, out = timed([py, "-m", "mazekit", "forest", str(path)], args.repeat, hide_scipy=hide)
            steps = check_forest(path, out)
            how = "SciPy hidden (a plain install)" if hide else "SciPy installed (benchmark peer)"
            rows.append(
                (
                    f"`python -m mazekit forest` {args.size}x{args.size} {name}, {how}",
                    t,
                    c,
                    1.5,
                    f"route of {steps} steps to the border, checked",
                )
            )
    load_after = H.load()
    lines = [
        f"Command: `{H.command_line('benchmarks/startup.py', argv)}`",
        "",
        f"Machine: {H.machine()}; {load_before} before, {load_after} after.",
        f"Whole-process wall time, median of {args.repeat} fresh processes after a warm-up process",
        "(numba cache warm, `MAZEKIT_JIT=auto`). Forest inputs: `benchmarks/_build/forest_*.in`",
        "(random: 25 % traps, E in the middle; maze: a backtracker maze with one gap in its outer wall).",
        "numba's first compiled call imports SciPy when it is installed (a BLAS probe, about 0.1-0.3 s",
        "here); SciPy is a benchmark peer, not a mazekit dependency, so the forest is timed both ways.",
        "",
        "CPU = user + system time of the process (median): what it costs without waiting for a CPU",
        "on this shared machine. The verdict is on the wall time.",
        "",
        "| process | wall (median) | CPU (median) | target | |",
        "|---|---:|---:|---:|---|",
    ]
    for label, t, c, target, note in rows:
        verdict = "" if target is None else ("PASS" if t < target else "MISS")
        tgt = "" if target is None else f"< {target:g} s"
        lines.append(f"| {label} | {t:.3f} s | {c:.3f} s | {tgt} {verdict} | {note} |")
    lines += [
        "",
        f"The robot process spends {robot - npy:.3f} s wall, {robot_cpu - npy_cpu:.3f} s CPU beyond "
        "`import numpy` (same run).",
    ]
    text = "\n".join(lines)
    print(text)
    if args.importtime or robot >= 0.15:
        # a diagnosis for whoever works on the start-up, printed only: the results page keeps the figures
        print("\nSlowest imports of the robot process (`python -X importtime`, cumulative, one run):\n")
        print("\n".join(importtime([py, "-m", "mazekit", "robot"], robot_in)))
    if not args.no_write:
        H.write_section("startup", "Start-up", text)
        print(f"\nwritten to {H.RESULTS}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(H.HERE))
    sys.exit(main(sys.argv[1:]))
