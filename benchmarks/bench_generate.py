"""Maze generation: every mazekit generator beside mazelib's, on square mazes, in one run.

For each size N of ``--sizes`` (N x N cells, a (2N+1) x (2N+1) grid) every
generator of ``mazekit.generate.GENERATORS`` builds a maze with fixed seeds;
each maze is checked perfect (connected, no loops; caves excepted) before it is
timed. mazelib (pure Python, pip install mazelib) runs the same algorithm where
it has one, up to ``--peer-max`` cells per side, and its mazes are checked
perfect too. Once a mazelib generator has needed more than ``--budget``
seconds, its larger sizes are skipped.

Warm: median of ``--repeat`` calls after one compiled warm-up call (mazekit's
kernels compiled). Cold: the first call in a fresh process at the largest size
(numba's on-disk cache loaded, the call timed; imports not timed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from typing import Any

import _harness as H
import numpy as np

#: mazekit name -> (mazelib module/class, extra keyword arguments)
MAZELIB: dict[str, tuple[str, dict[str, Any]]] = {
    "backtracker": ("BacktrackingGenerator", {}),
    "prim": ("Prims", {}),
    "kruskal": ("Kruskal", {}),
    "wilson": ("Wilsons", {}),
    "aldous-broder": ("AldousBroder", {}),
    "hunt-and-kill": ("HuntAndKill", {}),
    "growing-tree": ("GrowingTree", {"backtrack_chance": 0.5}),
    "eller": ("Ellers", {}),
    "binary-tree": ("BinaryTree", {}),
    "sidewinder": ("Sidewinder", {}),
    "division": ("Division", {}),
}


def mazelib_maker(name: str, n: int) -> Any:
    import importlib

    from mazelib import Maze

    cls_name, kw = MAZELIB[name]
    cls = getattr(importlib.import_module(f"mazelib.generate.{cls_name}"), cls_name)

    def make() -> np.ndarray:
        m = Maze()
        m.generator = cls(n, n, **kw)
        m.generate()
        return np.asarray(m.grid) == 0

    return make


def table(
    sizes: list[int],
    rows: dict[int, list[tuple[str, float, float | None, str]]],
    cold: dict[str, float],
    big: int,
    peer_max: int,
) -> list[str]:
    """One row per generator: warm time and mazelib's at each size (up to ``peer_max``), the cold
    time at ``big``, and the first note (why mazelib has no figure)."""
    head = "| algorithm | " + " | ".join(f"{n}x{n} | mazelib" if n <= peer_max else f"{n}x{n}" for n in sizes)
    head += f" | cold {big}x{big} | note |" if cold else " | note |"
    sep = "".join("---:|---:|" if n <= peer_max else "---:|" for n in sizes)
    out = [head, "|---|" + sep + ("---:|" if cold else "") + "---|"]
    for i, (name, *_) in enumerate(rows[sizes[0]]):
        cells, notes = [], []
        for n in sizes:
            _, ours, theirs, note = rows[n][i]
            cells.append(H.fmt_ms(ours))
            if n <= peer_max:
                cells.append(f"{H.fmt_ms(theirs)} ({theirs / ours:,.0f}x)" if theirs else "-")
            if note and "not run" not in note:
                notes.append(note)
        if cold:
            cells.append(H.fmt_ms(cold.get(name)))
        out.append(f"| {name} | " + " | ".join(cells) + f" | {notes[0] if notes else ''} |")
    return out


def cold_time(name: str, n: int) -> float:
    code = (
        "import time\n"
        "from mazekit.generate import generate\n"
        f"t = time.perf_counter(); generate({name!r}, {n}, {n}, rng=1); print(time.perf_counter() - t)\n"
    )
    out = subprocess.run([H.python(), "-c", code], capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def main(argv: list[str]) -> int:  # noqa: C901 - a benchmark script: options, runs and the table in one place
    ap = argparse.ArgumentParser(
        prog="run.py generate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", default="100,300,1000", help="cells per side, comma-separated")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--peer-max", type=int, default=300, help="largest side given to mazelib")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds after which a mazelib generator stops growing")
    ap.add_argument("--quick", action="store_true", help="sizes 50,100, 2 repeats")
    ap.add_argument("--no-cold", action="store_true")
    ap.add_argument("--no-write", action="store_true", help="print only, do not touch RESULTS.md")
    args = ap.parse_args(argv)
    if args.quick:
        args.sizes, args.repeat = "50,100", 2
    sizes = [int(s) for s in args.sizes.split(",")]

    from mazekit import _jit
    from mazekit.generate import GENERATORS, PERFECT, generate, is_perfect

    try:
        import mazelib  # noqa: F401

        have_mazelib = True
        import importlib.metadata as md

        mazelib_version = md.version("mazelib")
    except ImportError:
        have_mazelib = False
        mazelib_version = "not installed"

    _jit.set_mode("always")
    rows: dict[int, list[tuple[str, float, float | None, str]]] = {}
    over_budget: set[str] = set()
    for n in sizes:
        rows[n] = []
        for name in GENERATORS:
            rep = args.repeat if n <= 300 else max(1, min(args.repeat, 3))
            maze = generate(name, n, n, rng=0)  # warm-up: compiles
            if name in PERFECT:
                assert is_perfect(maze), name
            times, _ = H.time_call(lambda name=name, n=n: generate(name, n, n, rng=1), rep)
            ours = H.median(times)
            theirs: float | None = None
            note = ""
            if name not in MAZELIB:
                note = "no mazelib equivalent"
            elif not have_mazelib:
                note = "mazelib not installed"
            elif n > args.peer_max:
                note = f"mazelib: side > {args.peer_max} not run"
            elif name in over_budget:
                note = f"mazelib: skipped (failed or over {args.budget:g} s at a smaller size)"
            else:
                make = mazelib_maker(name, n)
                try:
                    first = make()
                except Exception as exc:  # a peer's bug is a result, not a crash
                    note = f"mazelib fails: {type(exc).__name__}: {str(exc)[:60]}"
                    over_budget.add(name)
                else:
                    if is_perfect(first):
                        t_rep = 1 if n > 100 else args.repeat
                        ptimes, _ = H.time_call(make, t_rep)
                        theirs = H.median(ptimes)
                        if theirs > args.budget:
                            over_budget.add(name)
                    else:
                        note = "mazelib's maze is not perfect: not timed"
            rows[n].append((name, ours, theirs, note))
            print(f"{n}x{n} {name:20s} mazekit {H.fmt_ms(ours):>9s}  mazelib {H.fmt_ms(theirs):>9s} {note}", flush=True)

    cold: dict[str, float] = {}
    big = max(sizes)
    if not args.no_cold:
        for name in GENERATORS:
            cold[name] = cold_time(name, big)
            print(f"cold {big}x{big} {name:20s} {H.fmt_ms(cold[name])}", flush=True)

    lines = [
        f"Command: `{H.command_line('benchmarks/run.py', ['generate', *argv])}`  ",
        f"Machine: {H.machine()}; {H.load()}  ",
        f"Peer: mazelib {mazelib_version} (pure Python), up to {args.peer_max} cells a side.",
        "",
        "Time to generate one N x N-cell maze (a (2N+1) x (2N+1) grid), seeded; every maze checked perfect "
        "before timing (caves excepted). Warm: median of repeated calls, compiled; mazelib beside it with "
        "its time / mazekit's in brackets. Cold: the first call in a fresh process at the largest size.",
        "",
    ]
    lines += table(sizes, rows, cold, big, args.peer_max)
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        H.write_section("generate", "Maze generation", text)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(H.HERE))
    sys.exit(main(sys.argv[1:]))
