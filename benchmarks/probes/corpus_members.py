"""Each search of the first core's run alone on the corpus sample, and one-core runs replayed from
those records: data for the shares at a short time limit.

``python benchmarks/probes/corpus_members.py record [--levels 1,5-9] [--members 0-3] [--limit 10]``
runs each search of :data:`mazekit.sokoban.solver.PORTFOLIO` (``--members``) alone on each
level of the sample of ``run.py sokoban_corpus`` (its levels numbered from 1 in sample order),
two at once, and appends to ``benchmarks/_build/corpus-members.jsonl`` when it solved the level,
the positions stored, its seconds spent preparing, and each fall of each direction's lowest
bound (a record already there is kept).

``python benchmarks/probes/corpus_members.py replay --runs 0,1,2,3:1,1,1,0.6 0,2,3:1,0.5,2 ...``
replays one-core runs from those records at ``--limit`` seconds: each search of a run its share
of the time left, one after the other, as :func:`mazekit.sokoban.solver.search_level` runs
them (no stall at these lengths); a level counts as solved when the search solved it alone within
its slot less ``--overhead`` seconds. It prints each run's levels solved, gained and lost against
the first run given.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_sokoban_corpus import collections, sample  # noqa: E402
from portfolio_members import _pick  # noqa: E402

OUT = HERE.parent / "_build" / "corpus-members.jsonl"


def _run_one(task: tuple[int, str, int, float]) -> dict[str, Any]:
    from mazekit.sokoban import parse_level, replay
    from mazekit.sokoban.solver import PORTFOLIO, Search, as_problem, run_search

    number, text, member, limit = task
    level = parse_level(text)
    t0 = time.perf_counter()
    seen: list[tuple[Search, float]] = []
    res = run_search(
        as_problem(level), PORTFOLIO[member], time_limit=limit, memory=2 << 30,
        watch=lambda s: seen.append((s, time.perf_counter())),
    )  # fmt: skip
    search, ready = seen[0]
    ok = res.solution is not None and replay(level, res.solution.lurd).solved
    return {
        "level": number,
        "member": member,
        "limit": limit,
        "solved": ok,
        "time": res.stats.time - res.stats.compile_time,
        "prepare": ready - t0,
        "nodes": res.stats.nodes,
        "bounds": [(round(t, 2), d, b) for t, d, b in search.bound_history],
    }


def record(args: argparse.Namespace) -> int:
    from mazekit.sokoban import parse_level
    from mazekit.sokoban.solver import PORTFOLIO, solve

    solve(parse_level("#######\n#@$  .#\n#######"), time_limit=5)  # compile before forking
    chosen = sample(collections(), 300, 20, 2026)
    have = set()
    if OUT.exists():
        have = {(r["level"], r["member"]) for r in map(json.loads, OUT.read_text().splitlines())}
    members = _pick(args.members, len(PORTFOLIO) - 1) if args.members else range(len(PORTFOLIO))
    tasks = [
        (n, chosen[n - 1][2], m, args.limit)
        for n in _pick(args.levels, len(chosen))
        for m in members
        if (n, m) not in have
    ]
    OUT.parent.mkdir(exist_ok=True)
    with multiprocessing.get_context("fork").Pool(2) as pool, OUT.open("a") as out:
        for row in pool.imap_unordered(_run_one, tasks):
            out.write(json.dumps(row) + "\n")
            out.flush()
    return 0


def replay_runs(args: argparse.Namespace) -> int:
    rows = [json.loads(line) for line in OUT.read_text().splitlines()]
    by: dict[int, dict[int, float | None]] = {}
    for r in rows:
        by.setdefault(r["level"], {})[r["member"]] = r["time"] if r["solved"] else None
    runs = []
    for spec in args.runs:
        order, _, shares = spec.partition(":")
        runs.append(([int(m) for m in order.split(",")], [float(s) for s in shares.split(",")]))
    need = {m for order, _ in runs for m in order}
    levels = {n: ms for n, ms in by.items() if need <= set(ms)}

    def solved(order: list[int], shares: list[float]) -> set[int]:
        won = set()
        for n, ms in levels.items():
            used = 0.0
            for k, m in enumerate(order):
                slot = (args.limit - used) * shares[k] / sum(shares[k:])
                t = ms[m]
                if t is not None and t + args.overhead <= slot:
                    won.add(n)
                    break
                used += slot
        return won

    first = solved(*runs[0])
    for spec, run in zip(args.runs, runs, strict=True):
        got = solved(*run)
        print(f"{spec}: {len(got)}/{len(levels)}, gained {sorted(got - first)}, lost {sorted(first - got)}")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--levels", help="sample levels, from 1, e.g. 1,5-9 (default all 300)")
    r.add_argument("--members", help="PORTFOLIO's searches, 0 first, e.g. 0-3 (default all)")
    r.add_argument("--limit", type=float, default=10.0)
    p = sub.add_parser("replay")
    p.add_argument("--runs", nargs="+", required=True, help="ORDER:SHARES, e.g. 0,1,2,3:1,1,1,0.6")
    p.add_argument("--limit", type=float, default=10.0)
    p.add_argument("--overhead", type=float, default=0.3)
    args = ap.parse_args(argv)
    return record(args) if args.cmd == "record" else replay_runs(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
