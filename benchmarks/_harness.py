"""What the benchmark scripts share: timing, the machine's load, the C build, RESULTS.md.

Every ``bench_NAME.py`` next to this file exposes ``main(argv) -> int`` and is run by
``python benchmarks/run.py NAME [options]``. A script writes its figures into its
own section of ``benchmarks/RESULTS.md`` with :func:`write_section`, which rewrites
only the text between that section's two marker comments.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BUILD = HERE / "_build"
RESULTS = HERE / "RESULTS.md"

HEADER_BEGIN = "<!-- BEGIN header -->"
HEADER_END = "<!-- END header -->"
HEADER = """\
# mazekit benchmarks

What mazekit does, how fast and how well, beside its peers: one section per capability, each
written by one command between its `BEGIN`/`END` marker comments (a new run replaces the section),
with the command, the commit, the machine and the date. mazekit and its peers run **in the same
run on the same inputs**, every answer checked before it is timed; the machine is shared (its load
is noted), so compare ratios, not absolute times. *warm*: the median of repeated calls after a
first one; *cold*: the first call in a fresh process (numba's cache loaded, the call timed).
How each figure was reached, and what was tried on the way, is in the dated notes of
[`benchmarks/notes/`](notes/); the probe and tuning scripts behind them are in `benchmarks/probes/`.

```sh
pip install -r benchmarks/requirements.txt      # the peers (not mazekit dependencies)
python benchmarks/run.py --list                 # the benchmarks; NAME --help gives their options
python benchmarks/run.py search                 # grid search and flood/labels (--quick: a smoke run)
python benchmarks/run.py generate               # also: universal, universal_quality, mines, sokoban,
python benchmarks/startup.py                    #   optimise, web, batch; start-up; fuzz.py --report
```
"""


def now() -> float:
    return time.perf_counter()


def time_call(fn: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    """Call ``fn`` ``repeat`` times; return the durations (s) and the last result."""
    times = []
    out = None
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return times, out


def time_once(fn: Callable[[], Any]) -> tuple[float, float, float, Any]:
    """One call: ``(min(wall, cpu), wall, cpu, result)`` in seconds.

    ``cpu`` is the process CPU time (all threads). On a shared, loaded machine
    the wall time of a single-threaded call also counts the time the process
    waited for a CPU; the CPU time does not. ``min(wall, cpu)`` is the CPU time
    of a single-threaded call and the wall time of a multi-threaded one (whose
    CPU time adds up its threads), so neither kind is penalised.
    """
    c0 = time.process_time()
    t0 = time.perf_counter()
    out = fn()
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return min(wall, cpu), wall, cpu, out


def hide_scipy_dir() -> Path:
    """A directory whose ``scipy`` package fails to import, to put first on PYTHONPATH.

    numba's first compiled call probes for SciPy's BLAS (``numba.np.linalg.
    ensure_blas``) and imports SciPy when it is installed, as it is here for the
    benchmark peers but not in a plain mazekit install: hiding it from a fresh
    mazekit process shows the start-up a user without SciPy gets.
    """
    d = BUILD / "hide_scipy" / "scipy"
    d.mkdir(parents=True, exist_ok=True)
    init = d / "__init__.py"
    if not init.exists():
        init.write_text('raise ImportError("scipy hidden by the mazekit benchmarks")\n')
    return d.parent


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def load() -> str:
    """The 1/5/15-minute load averages and the CPU count, as text."""
    try:
        a, b, c = os.getloadavg()
        return f"load {a:.2f} {b:.2f} {c:.2f} on {os.cpu_count()} CPUs"
    except OSError:  # pragma: no cover
        return "load unknown"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numpy

    return f"{cpu}; Python {platform.python_version()}; NumPy {numpy.__version__}"


def command_line(script: str, argv: list[str]) -> str:
    """``python SCRIPT ARGS`` as typed (``script`` may hold a subcommand: it is not quoted)."""
    return " ".join(["python", script, *(shlex.quote(a) for a in argv)])


def build_c(name: str) -> Path:
    """Compile ``benchmarks/NAME.c`` into ``benchmarks/_build/NAME.so`` (gcc -O3) when stale."""
    src = HERE / f"{name}.c"
    out = BUILD / f"{name}.so"
    BUILD.mkdir(exist_ok=True)
    if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
        cc = os.environ.get("CC", "gcc")
        tmp = out.with_suffix(".so.tmp")
        subprocess.run([cc, "-O3", "-shared", "-fPIC", "-o", str(tmp), str(src)], check=True)
        os.replace(tmp, out)
    return out


def refreshed_header(text: str) -> str:
    """``text`` with its top section (how to run) set to the current :data:`HEADER`."""
    block = f"{HEADER_BEGIN}\n{HEADER.rstrip()}\n{HEADER_END}"
    if HEADER_BEGIN in text and HEADER_END in text:
        head, rest = text.split(HEADER_BEGIN, 1)
        return head + block + rest.split(HEADER_END, 1)[1]
    return block + "\n\n" + text.lstrip("\n")


#: The sections' keys in the order they stand on the page; a section written for the first time
#: goes to its place (a key not listed goes to the end).
ORDER = (
    "search",
    "flood",
    "generate",
    "universal",
    "universal_quality",
    "mines",
    "mines_peer",
    "sokoban",
    "optimise",
    "web",
    "batch",
    "startup",
    "first_run",
    "fuzz",
)


def recorded() -> str:
    """``Recorded YYYY-MM-DD at commit abc1234`` (UTC; ``+ changes`` when the tree is not clean)."""
    root = HERE.parent
    date = time.strftime("%Y-%m-%d", time.gmtime())
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "src"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"Recorded {date} (commit unknown)."
    return f"Recorded {date} at commit `{commit}`{' + changes in src/' if dirty else ''}."


def section_block(key: str, title: str, body: str, stamp: str) -> str:
    """One section as the page holds it: markers, title, the ``Recorded`` line, the body."""
    return f"<!-- BEGIN {key} -->\n## {title}\n\n{stamp}\n\n{body.strip()}\n<!-- END {key} -->\n"


def write_section(key: str, title: str, body: str, path: Path | None = None) -> None:
    """Replace the section ``key`` of RESULTS.md (or ``path``) with ``body`` (everything between its
    markers), or add it at its place in :data:`ORDER`; the date and commit are added here."""
    path = RESULTS if path is None else path
    begin = f"<!-- BEGIN {key} -->"
    end = f"<!-- END {key} -->"
    text = refreshed_header(path.read_text() if path.exists() else "")
    if (begin in text) != (end in text):
        raise ValueError(f"RESULTS.md has one marker of section {key!r} without the other")
    block = section_block(key, title, body, recorded()).rstrip("\n")
    if begin in text:
        head, rest = text.split(begin, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        later = ORDER[ORDER.index(key) + 1 :] if key in ORDER else ()
        at = min((text.index(f"<!-- BEGIN {k} -->") for k in later if f"<!-- BEGIN {k} -->" in text), default=None)
        if at is None:
            text = text.rstrip("\n") + "\n\n" + block + "\n"
        else:
            text = text[:at] + block + "\n\n" + text[at:]
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def fmt_ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    ms = seconds * 1000
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    return f"{ms:.2f} ms"


def python() -> str:
    return sys.executable


def chosen_sets(ap: argparse.ArgumentParser, spec: str, known: Iterable[str]) -> list[str]:
    """The comma-separated set names of ``spec``; an unknown one is the parser's error."""
    known = list(known)
    names = [s.strip() for s in spec.split(",") if s.strip()]
    for n in names:
        if n not in known:
            ap.error(f"unknown set {n!r}; choose from {', '.join(known)}")
    return names
