"""Minesweeper solver benchmark: win rates on the classic boards beside the best published.

    python benchmarks/bench_mines.py --games 100000 --workers 2 --results benchmarks/RESULTS.md

Game i of a board uses the seed (seed, i): the same command gives the same games.
The "safe" rule clicks first in the top-left corner (the literature's corner
start); "zero" clicks first in the centre. With --results, the "## Minesweeper"
section of that file is replaced (or appended).
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
import time
from pathlib import Path

from mazekit.minesweeper.bench import bench, format_table
from mazekit.minesweeper.noguess import generate_no_guess


def noguess_timing(n: int) -> str:
    import numpy as np

    generate_no_guess(16, 30, 99, click=(8, 15), rng=0)  # compile / load
    lines = []
    for rule in ("zero", "safe"):
        ts = []
        for s in range(n):
            t = time.perf_counter()
            generate_no_guess(16, 30, 99, click=(8, 15), first_click=rule, rng=s)  # type: ignore[arg-type]
            ts.append(1000 * (time.perf_counter() - t))
        a = np.array(ts)
        lines.append(f"| 30x16/99, first click {rule} (centre) | {n} | {np.median(a):.1f} | {a.mean():.1f} | "
                     f"{np.percentile(a, 95):.1f} | {a.max():.1f} |")
    head = "| no-guess board | boards | median ms | mean ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|---:|\n"
    return head + "\n".join(lines) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--noguess", type=int, default=200, help="no-guess boards to time (0: skip)")
    p.add_argument("--results", type=Path, help="replace the '## Minesweeper' section of this file")
    args = p.parse_args()
    t0 = time.perf_counter()
    rows = bench(args.games, seed=args.seed, workers=args.workers)
    table = format_table(rows)
    print(table)
    ng = noguess_timing(args.noguess) if args.noguess else ""
    print(ng)
    if args.results:
        cmd = f"python benchmarks/bench_mines.py --games {args.games} --workers {args.workers} --seed {args.seed}"
        section = (
            "## Minesweeper\n\n"
            f"`{cmd}` (also `mazekit mines bench --games N`); {platform.machine()}, Python "
            f"{platform.python_version()}, {args.workers} worker processes on a shared 2-core machine, "
            f"{time.perf_counter() - t0:.0f} s in all.\n\n"
            "The solver plays every game to the end: local rules, then exact probabilities over the frontier "
            "with the global mine count, then the safest guess (ties: the best chance of a zero). "
            "Safe rule: first click in the top-left corner (the literature's corner start); zero rule: first "
            "click in the centre. Game i uses the board seeded by (seed, i). The interval is Wilson's 95%.\n\n"
            + table + "\n" + ng
        )
        text = args.results.read_text() if args.results.exists() else ""
        pat = re.compile(r"^## Minesweeper\n.*?(?=^## |\Z)", re.S | re.M)
        text = pat.sub(lambda m: section + "\n", text) if pat.search(text) else text.rstrip("\n") + "\n\n" + section
        args.results.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
