"""Where a compiled search spends its time, by numba function: a sampling profile of a running
Sokoban search, with the compiled functions named.

    python benchmarks/probes/kernel_profile.py LEVELS.xsb --levels 3,5 --expansions 200000
    python benchmarks/probes/kernel_profile.py LEVELS.xsb --levels 3 --refcounts 20000

numba's code has no symbols that ``perf`` can read, but LLVM registers every compiled object with
``gdb``'s JIT interface, so ``gdb`` can name an address. The probe starts a search in a child
process (the first search of the portfolio on the chosen levels of an XSB file, in fixed slices,
forward and backward as the solver runs it), waits ``--warmup`` seconds (compiling, preparing),
samples it with ``perf record`` for ``--seconds``, then attaches ``gdb`` to the same process and
names the sampled addresses: the share of the samples in each function (steps inlined into
their caller count as the caller). ``--refcounts N`` instead counts which functions make
numba's next ``N`` reference counts (``NRT_incref``): a kernel that a hot loop calls and
that counts references should be a step (see ``mazekit._jit``).

Needs ``perf`` and ``gdb`` (Debian: ``apt-get install linux-perf gdb``), and the right to
attach to a process (root, or ``kernel.yama.ptrace_scope`` 0 and ``perf_event_paranoid`` 1).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import sys
from mazekit.sokoban import parse_levels
from mazekit.sokoban.solver import PORTFOLIO, as_problem, run_search
levels = parse_levels(open(sys.argv[1], 'rb').read())
for _ in range(1000):
    for n in sys.argv[2].split(','):
        prob = as_problem(levels[int(n) - 1])
        run_search(prob, PORTFOLIO[0], time_limit=None, fixed_slice=512, max_expansions=int(sys.argv[3]))
"""


def _name(line: str) -> str:
    """A readable function name from ``gdb``'s ``info symbol`` answer."""
    name = line.split(" in section")[0]
    name = re.sub(r" \+ \d+$", "", name)
    if name.startswith("_ZN"):  # numba's mangled names: _ZN7mazekit7sokoban...13expand_kernelB2v2...
        parts, i = [], 3
        while i < len(name) and name[i].isdigit():
            j = i
            while name[j].isdigit():
                j += 1
            parts.append(name[j : j + int(name[i:j])])
            i = j + int(name[i:j])
        name = "::".join(parts)
    name = name.split("[abi:")[0]
    return name.replace("mazekit::", "").replace("::", ".")


def _gdb(pid: int, script: str, timeout: float) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
        f.write(script)
    try:
        r = subprocess.run(
            ["gdb", "-p", str(pid), "-batch", "-x", f.name],
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)),  # no core file if cut short
        )
        return r.stdout
    except subprocess.TimeoutExpired as e:  # its output comes as bytes even in text mode
        out = e.stdout or b""
        return out.decode() if isinstance(out, bytes) else out
    finally:
        os.unlink(f.name)


def profile(pid: int, seconds: float, top: int) -> list[tuple[float, str]]:
    """(share of the samples in %, function) for the functions sampled most, best first."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        subprocess.run(
            ["perf", "record", "-F", "2000", "-p", str(pid), "-o", str(data), "--", "sleep", str(seconds)],
            capture_output=True,
            check=True,
        )
        report = subprocess.run(
            ["perf", "report", "-i", str(data), "--no-children", "--sort", "sym", "--stdio"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    rows = []
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if m:
            rows.append((float(m.group(1)), m.group(2)))
    addresses = [sym for _pct, sym in rows[:top] if sym.startswith("0x")]
    script = "".join(f"echo @@{sym}\\n\ninfo symbol {sym}\n" for sym in addresses)
    names: dict[str, str] = {}
    current = None
    for line in _gdb(pid, script, 120).splitlines():
        if line.startswith("@@"):
            current = line[2:]
        elif current is not None and line.strip():
            names[current] = "(no symbol)" if line.startswith("No symbol") else _name(line.strip())
            current = None
    total: collections.Counter[str] = collections.Counter()
    for pct, sym in rows[:top]:
        total[names.get(sym, "(no symbol)") if sym.startswith("0x") else sym] += pct
    return [(pct, name) for name, pct in total.most_common()]


def refcounts(pid: int, calls: int) -> list[tuple[int, str]]:
    """(calls, function) of the callers of ``NRT_incref`` over its next ``calls`` calls (``gdb``
    stops the process at each one: some 2,000 a second)."""
    script = (
        "set pagination off\nset print frame-arguments none\nset $n = 0\nbreak NRT_incref\n"
        f"commands\nsilent\nbt 2\nset $n = $n + 1\nif $n >= {calls}\ndetach\nquit\nend\ncontinue\nend\n"
        "continue\n"
    )
    out = _gdb(pid, script, 60 + calls / 200)
    seen: collections.Counter[str] = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"#1\s+(?:0x[0-9a-f]+ in )?(.*)", line)
        if m:
            seen[_name(m.group(1))] += 1
    return [(n, name) for name, n in seen.most_common()]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="an XSB file of levels")
    ap.add_argument("--levels", default="1", help="level numbers in the file, e.g. 3,5 (default 1)")
    ap.add_argument("--expansions", type=int, default=200_000, help="expansions a search (default 200000)")
    ap.add_argument("--warmup", type=float, default=12.0, help="seconds before sampling (default 12)")
    ap.add_argument("--seconds", type=float, default=6.0, help="seconds sampled (default 6)")
    ap.add_argument("--top", type=int, default=300, help="sampled addresses named (default 300)")
    ap.add_argument(
        "--refcounts",
        type=int,
        default=0,
        metavar="CALLS",
        help="count the callers of NRT_incref over its next CALLS calls instead (e.g. 20000)",
    )
    args = ap.parse_args(argv)
    for tool in ("perf", "gdb"):
        if shutil.which(tool) is None:
            print(
                f"kernel_profile: no {tool} on this machine (Debian: apt-get install linux-perf gdb)", file=sys.stderr
            )
            return 2
    if not Path(args.file).is_file():
        print(f"kernel_profile: no file {args.file}", file=sys.stderr)
        return 2
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, args.file, args.levels, str(args.expansions)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(args.warmup)
        if child.poll() is not None:
            print(f"kernel_profile: the search ended early: {child.stderr.read()[-500:]}", file=sys.stderr)
            return 2
        if args.refcounts:
            for n, name in refcounts(child.pid, args.refcounts)[:25]:
                print(f"{n:8d}  {name}")
        else:
            for pct, name in profile(child.pid, args.seconds, args.top)[:25]:
                print(f"{pct:6.2f}%  {name}")
    finally:
        child.kill()
        child.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
