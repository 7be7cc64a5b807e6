"""How each search of the solver's portfolio progresses alone: data for its time shares.

``python benchmarks/portfolio_members.py record [--set xsokoban] [--jobs 2] [--levels 1,5-9]``
runs each search of :data:`mazekit.sokoban.solver.PORTFOLIO` alone on each level, with
the longest time it could get in a portfolio run at ``--limit`` seconds a level (the
first a third; a later one its share when each before it stalled at two seconds), and records when it
solved the level and every fall of its lowest stored bound (either direction) in
``benchmarks/_build/members-SET.json``.

``python benchmarks/portfolio_members.py analyse FILE [--stall 0.5 0.6 ...]`` replays
the portfolio from those records: fixed shares (each search a third of the time left
... as :func:`~mazekit.sokoban.solver.search_level` runs it), and shares where a search
that has stored no lower bound in the last ``stall`` of its time (after two seconds)
gives the rest of its time to the next. It prints, for each rule, the levels solved,
gained and lost against the fixed shares.
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

from bench_sokoban import SETS, _ignore_interrupts, set_levels  # noqa: E402

OUT = HERE / "_build"


def _pick(spec: str | None, count: int) -> list[int]:
    if not spec:
        return list(range(1, count + 1))
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def _limits(limit: float, members: int) -> list[float]:
    """The longest time each search can get in a portfolio run at ``limit`` seconds: a third
    for the first; for a later one, its share when each before it stalled at two seconds."""
    return [(limit - 2 * k) / (members - k) if k < members - 1 else limit - 2 * k for k in range(members)]


def _run_one(task: tuple[int, Any, int, float]) -> dict[str, Any]:
    from mazekit.sokoban.solver import PORTFOLIO
    from mazekit.sokoban.solver import search as S

    number, level, member, seconds = task
    seen: list[S._Search] = []
    original = S._Search.run

    def run(self: S._Search, *args: Any, **kwargs: Any) -> Any:
        seen.append(self)
        return original(self, *args, **kwargs)

    S._Search.run = run  # type: ignore[method-assign]
    try:
        res = S._search_one(S.as_problem(level), PORTFOLIO[member], time_limit=seconds)
    finally:
        S._Search.run = original  # type: ignore[method-assign]
    return {
        "level": number,
        "member": member,
        "limit": seconds,
        "stopped": res.stats.stopped,
        "time": res.stats.time,
        "history": seen[0].history if seen else [],
    }


def record(args: argparse.Namespace) -> int:
    from mazekit.sokoban import parse_level
    from mazekit.sokoban.solver import PORTFOLIO, solve

    solve(parse_level("#######\n#@$  .#\n#######"), time_limit=5)  # compile before forking
    levels = set_levels(args.set)
    limits = _limits(args.limit, len(PORTFOLIO))
    tasks = [(n, levels[n - 1], m, limits[m]) for n in _pick(args.levels, len(levels)) for m in range(len(PORTFOLIO))]
    out = OUT / f"members-{args.set}.json"
    OUT.mkdir(exist_ok=True)
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs, initializer=_ignore_interrupts) as pool:
        for k, row in enumerate(pool.imap_unordered(_run_one, tasks), 1):
            rows.append(row)
            if k % 10 == 0 or k == len(tasks):
                print(f"  {k}/{len(tasks)} runs, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
                out.write_text(json.dumps({"set": args.set, "limit": args.limit, "runs": rows}))
    print(f"wrote {out}")
    return 0


def _cut(run: dict[str, Any], stall: float | None, share: float) -> tuple[bool, float]:
    """``(solved, seconds used)`` of a recorded run given ``share`` seconds and the stall rule."""
    solved_at = run["time"] if run["stopped"] == "solved" else None
    end = min(share, solved_at) if solved_at is not None else min(share, run["time"])
    if stall is not None:
        last = 0.0
        falls = [t for t, _, _ in run["history"]] + [end]
        for t in falls:
            cut = max(2.0, last / (1 - stall))
            if cut < min(t, end):
                return False, cut
            last = t
    if solved_at is not None and solved_at <= share:
        return True, solved_at
    return False, end


def _portfolio(runs: dict[int, dict[str, Any]], limit: float, stall: float | None) -> tuple[bool, int | None]:
    """Whether the level is solved in a portfolio run, and by which search."""
    used = 0.0
    members = len(runs)
    for m in range(members):
        share = (limit - used) / (members - m)
        ok, spent = _cut(runs[m], stall if m < members - 1 else None, share)
        if ok:
            return True, m
        used += spent
    return False, None


def analyse(args: argparse.Namespace) -> int:
    import _harness as H

    data = json.loads(Path(args.file).read_text())
    by_level: dict[int, dict[int, dict[str, Any]]] = {}
    for r in data["runs"]:
        by_level.setdefault(r["level"], {})[r["member"]] = r
    limit = data["limit"]
    base = {n: _portfolio(rs, limit, None)[0] for n, rs in by_level.items()}
    limits = _limits(limit, len(next(iter(by_level.values()))))
    alone = sorted(
        n
        for n, rs in by_level.items()
        if not base[n] and any(r["stopped"] == "solved" and r["time"] <= limits[m] for m, r in rs.items())
    )
    lines = [
        f"Command: `python benchmarks/portfolio_members.py record --set {data['set']} --limit {limit:g}`, then "
        f"`{H.command_line('benchmarks/portfolio_members.py', ['analyse', *args.argv])}`; {H.machine()}.",
        "",
        f"Each search of the portfolio ran alone on each of the {len(by_level)} levels for the longest time it "
        f"could get in a portfolio run at {limit:g} s a level ({', '.join(f'{x:g} s' for x in limits)}). "
        "The portfolio is then replayed from those runs: with fixed shares (each search an equal share of "
        "the time left, as `search_level` runs it), and with a stall rule: a search whose lowest stored "
        "bound (either direction) has not fallen in the last *stall* of its time (after 2 s) gives the "
        "rest to the next.",
        "",
        "| shares | solved | gained | lost |",
        "|---|---|---|---|",
        f"| fixed | {sum(base.values())}/{len(by_level)} | | |",
    ]
    for stall in args.stall:
        got = {n: _portfolio(rs, limit, stall)[0] for n, rs in by_level.items()}
        gained = ", ".join(str(n) for n in sorted(n for n in got if got[n] and not base[n])) or "-"
        lost = ", ".join(str(n) for n in sorted(n for n in got if base[n] and not got[n])) or "-"
        lines.append(f"| stall {stall:g} | {sum(got.values())}/{len(by_level)} | {gained} | {lost} |")
    lines += [
        "",
        "Levels the fixed shares leave unsolved that one search alone solves within its longest time: "
        + (", ".join(map(str, alone)) or "none")
        + ".",
    ]
    body = "\n".join(lines)
    print(body)
    if args.write:
        H.write_section(f"portfolio-{data['set']}", f"Sokoban portfolio shares ({data['set']})", body)
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--set", default="xsokoban", choices=sorted(SETS))
    r.add_argument("--limit", type=float, default=60.0, help="the portfolio's seconds a level (default 60)")
    r.add_argument("--levels", help="level numbers, e.g. 1,5-9 (default all)")
    r.add_argument("--jobs", type=int, default=2)
    a = sub.add_parser("analyse")
    a.add_argument("file")
    a.add_argument("--stall", type=float, nargs="+", default=[0.3, 0.5, 0.7, 0.8, 0.9, 0.95])
    a.add_argument("--write", action="store_true", help="write the section of benchmarks/RESULTS.md")
    args = ap.parse_args(argv)
    args.argv = argv[1:] if argv and argv[0] == "analyse" else argv
    return record(args) if args.cmd == "record" else analyse(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
