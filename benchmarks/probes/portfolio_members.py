"""How each search of the solver's portfolio progresses alone: data for its time shares.

``python benchmarks/portfolio_members.py record [--set xsokoban] [--limit 50] [--jobs 2]
[--levels 1,5-9] [--members 0-6]`` runs each search of the fast mode's portfolio on two cores
(:func:`mazekit.sokoban.solver.portfolio_for`: ``PORTFOLIO`` then ``EXTRA``) alone on each level
for ``--limit`` seconds, and records when it solved the level, every fall of its lowest stored
bound and every growth of the feature cells it has reached (either direction) in
``benchmarks/_build/members-SET.json``. A record already in the file is kept (a long run can be
resumed, or widened level by level).

``python benchmarks/portfolio_members.py analyse FILE [--limits 60 30] [--stall 0.5 0.8 ...]``
replays the fast mode on two cores from those records: each lane (``lane_members``) runs its
searches one after the other, each its ``time_share`` of the time left, the level solved when
either lane solves it. With fixed shares, as :func:`~mazekit.sokoban.solver.search_level` runs
them; and with each stall rule: a search whose signs of progress (``bound``: falls of its lowest
bound; ``cells``: new feature cells; ``either``) stopped for the last ``stall`` of its time (after
``--after`` seconds) gives the rest of its slot to the searches after it in its lane. It prints,
for each limit and rule, the levels solved, gained and lost against the fixed shares.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_sokoban import SETS, _ignore_interrupts, set_levels  # noqa: E402

OUT = HERE / "_build"

#: Bytes a search may use (two at once).
MEMORY = 2 << 30

#: The signs of progress a stall rule can watch: the records' lists they read.
SIGNS = {"bound": ("history",), "cells": ("cells",), "either": ("history", "cells")}


def _pick(spec: str | None, count: int) -> list[int]:
    if not spec:
        return list(range(1, count + 1))
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def _members() -> tuple[Any, ...]:
    from mazekit.sokoban.solver import portfolio_for

    return portfolio_for(2)


def _run_one(task: tuple[int, Any, int, float]) -> dict[str, Any]:
    from mazekit.sokoban import replay
    from mazekit.sokoban.solver import Search, as_problem, run_search

    number, level, member, seconds = task
    seen: list[Search] = []
    res = run_search(as_problem(level), _members()[member], time_limit=seconds, memory=MEMORY, watch=seen.append)
    stopped = res.stats.stopped
    if res.solution is not None and not replay(level, res.solution.lurd).solved:
        stopped = "wrong"  # never counted as solved
    return {
        "level": number,
        "member": member,
        "limit": seconds,
        "stopped": stopped,
        "time": res.stats.time - res.stats.compile_time,
        "history": seen[0].bound_history if seen else [],
        "cells": seen[0].cell_history if seen else [],
    }


def record(args: argparse.Namespace) -> int:
    from mazekit.sokoban import parse_level
    from mazekit.sokoban.solver import solve

    solve(parse_level("#######\n#@$  .#\n#######"), time_limit=5)  # compile before forking
    levels = set_levels(args.set)
    out = OUT / f"members-{args.set}.json"
    OUT.mkdir(exist_ok=True)
    rows: list[dict[str, Any]] = []
    if out.exists():
        old = json.loads(out.read_text())
        rows = [r for r in old["runs"] if r["limit"] >= args.limit]  # a shorter record does not count
    have = {(r["level"], r["member"]) for r in rows}
    members = _pick(args.members, len(_members()) - 1) if args.members else range(len(_members()))
    tasks = [
        (n, levels[n - 1], m, args.limit)
        for n in _pick(args.levels, len(levels))
        for m in members
        if (n, m) not in have
    ]
    t0 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs, initializer=_ignore_interrupts) as pool:
        for k, row in enumerate(pool.imap_unordered(_run_one, tasks), 1):
            rows.append(row)
            print(
                f"  {k}/{len(tasks)}: level {row['level']} search {row['member']} {row['stopped']} "
                f"{row['time']:.2f} s ({time.perf_counter() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
            out.write_text(json.dumps({"set": args.set, "runs": rows}))
    print(f"wrote {out}")
    return 0


def _events(run: dict[str, Any], sign: str) -> list[float]:
    """The times of a record's signs of progress, in order."""
    return sorted(t for key in SIGNS[sign] for t, _, _ in run[key])


def _cut(run: dict[str, Any], slot: float, rule: tuple[str, float, float] | None) -> tuple[bool, float]:
    """``(solved, seconds used)`` of a recorded run given a ``slot`` of seconds and a stall rule
    ``(sign, stall, after)`` (None: the whole slot). A run recorded with less time than it is
    given counts as unsolved past its record, and as using the whole slot (no stall known there)
    unless its record ended for another reason than the time (memory)."""
    solved_at = run["time"] if run["stopped"] == "solved" else None
    end = min(slot, run["time"])
    unknown = run["stopped"] == "time" and run["time"] < slot  # the record stopped short of the slot
    if rule is not None:
        sign, stall, after = rule
        after = max(after, AFTER_PART * slot)
        last = 0.0
        for t in [*_events(run, sign), end]:
            cut = max(after, last / (1 - stall))
            if cut < min(t, end):
                return False, cut
            last = t
    if solved_at is not None and solved_at <= slot:
        return True, solved_at
    return False, slot if unknown else end


#: The searches a stall rule applies to (``--with``; None: all).
WITH: set[int] | None = None

#: The part of its slot a search runs before it may stall, besides ``--after`` (``--after-part``).
AFTER_PART = 0.0


def _lane(runs: dict[int, dict[str, Any]], members: list[int], shares: list[float], limit: float, rule: Any) -> bool:
    """Whether a lane of ``members`` (their ``shares``) solves the level in ``limit`` seconds."""
    used = 0.0
    for k, m in enumerate(members):
        slot = (limit - used) * shares[k] / sum(shares[k:])
        last = k == len(members) - 1  # the last search has no one to give its time to
        ok, spent = _cut(runs[m], slot, None if last or (WITH is not None and m not in WITH) else rule)
        if ok:
            return True
        used += spent
    return False


#: The step of the interleaved replay, seconds (about a slice).
QUANTUM = 0.05


def _stalled(events: list[float], spent: float, stall: float, after: float) -> bool:
    """Whether a search that has had ``spent`` seconds has stalled by the solver's rule
    (:class:`~mazekit.sokoban.solver.Stall`), its signs of progress at ``events`` (sorted)."""
    from mazekit.sokoban.solver import Stall

    k = bisect.bisect_right(events, spent)
    return Stall(fraction=stall, after=after).stalled(spent, events[k - 1] if k else 0.0)


def _interleaved(
    runs: dict[int, dict[str, Any]], members: list[int], shares: list[float], limit: float, rule: Any
) -> bool:
    """Whether a lane solves the level when its searches run side by side in steps of
    :data:`QUANTUM`, each step to the search furthest behind its share, a stalled search's share
    cut to ``decay`` of it (``rule``: ``(sign, stall, after, decay)``), until one solves it."""
    sign, stall, after, decay = rule
    spent = [0.0] * len(members)
    events = [_events(runs[m], sign) for m in members]
    ends = [math.inf if runs[m]["stopped"] == "time" else runs[m]["time"] for m in members]  # past a record: busy
    solved = [runs[m]["time"] if runs[m]["stopped"] == "solved" else None for m in members]
    wall = 0.0
    while wall < limit:
        live = [k for k in range(len(members)) if spent[k] < ends[k]]
        if not live:
            return False

        def weight(k: int) -> float:
            known = spent[k] <= runs[members[k]]["time"]  # past its record a search is not known to stall
            return shares[k] * (decay if known and _stalled(events[k], spent[k], stall, after) else 1.0)

        k = min(live, key=lambda k: spent[k] / weight(k))
        step = min(QUANTUM, limit - wall, ends[k] - spent[k])
        at = solved[k]
        if at is not None and spent[k] + step >= at:
            return wall + at - spent[k] <= limit
        spent[k] += step
        wall += step
    return False


def _portfolio(runs: dict[int, dict[str, Any]], limit: float, rule: Any) -> bool:
    """Whether the fast mode on two cores solves the level (either lane); a rule of four
    parts is the interleaved replay's."""
    from mazekit.sokoban.solver import PORTFOLIO
    from mazekit.sokoban.solver.lanes import HEAD_START, lane_members

    every = _members()
    for k, lane in enumerate(lane_members(len(every), 2, first=len(PORTFOLIO))):
        shares = [every[m].time_share for m in lane]
        time = limit - (HEAD_START if k else 0.0)
        run = _interleaved if rule is not None and len(rule) == 4 else _lane
        if run(runs, lane, shares, time, rule):
            return True
    return False


def analyse(args: argparse.Namespace) -> int:
    import _harness as H

    global WITH, AFTER_PART
    WITH = set(_pick(args.with_, len(_members()) - 1)) if args.with_ else None
    AFTER_PART = args.after_part
    data = json.loads(Path(args.file).read_text())
    by_level: dict[int, dict[int, dict[str, Any]]] = {}
    for r in data["runs"]:
        by_level.setdefault(r["level"], {})[r["member"]] = r
    n_members = len(_members())
    by_level = {n: rs for n, rs in by_level.items() if len(rs) == n_members}
    limits: dict[int, set[float]] = {}
    for rs in by_level.values():
        for m, r in rs.items():
            limits.setdefault(m, set()).add(r["limit"])
    each = ", ".join(f"{m}: {'/'.join(f'{x:g}' for x in sorted(v))} s" for m, v in sorted(limits.items()))
    lines = [
        f"Command: `python benchmarks/portfolio_members.py record --set {data['set']} --members M --limit L "
        f"--levels {_spans(sorted(by_level))}` for each search M and its limit L below, then "
        f"`{H.command_line('benchmarks/portfolio_members.py', ['analyse', *args.argv])}`; {H.machine()}.",
        "",
        f"Each of the {n_members} searches of the fast mode on two cores (0 first) ran alone on each of "
        f"{len(by_level)} levels, 2 at once, for the seconds given (search: seconds; a run counts as unsolved past "
        f"its record): {each}. The fast mode is then replayed from those runs, each lane its "
        "searches one after the other: with fixed shares (each search its `time_share` of the lane's time "
        "left, as `search_level` runs it), and with a stall rule: a search whose signs of progress (*bound*: "
        "falls of its lowest stored bound, either direction; *cells*: new feature cells reached; *either*) "
        f"stopped for the last *stall* of its time, after {args.after:g} s"
        + (f" and {args.after_part:g} of its slot" if args.after_part else "")
        + ", gives the rest of its slot to the "
        "searches after it in its lane"
        + (f" (only searches {', '.join(map(str, sorted(WITH)))})" if WITH is not None else "")
        + "; *side by side*: the lane's searches take turns of "
        f"{QUANTUM:g} s, each turn to the one furthest behind its share, a stalled one's share times *decay*.",
        "",
        "| limit | shares | solved | gained | lost |",
        "|---|---|---|---|---|",
    ]
    fixed = {limit: {n: _portfolio(rs, limit, None) for n, rs in by_level.items()} for limit in args.limits}
    for limit in args.limits:
        base = fixed[limit]
        lines.append(f"| {limit:g} s | fixed | {sum(base.values())}/{len(by_level)} | | |")
        for sign in args.signs:
            for stall in args.stall:
                got = {n: _portfolio(rs, limit, (sign, stall, args.after)) for n, rs in by_level.items()}
                lines.append(_row(f"{limit:g} s", f"{sign} {stall:g}", base, got))
    for limit in args.limits:
        base = fixed[limit]
        for sign in args.signs:
            for stall in args.stall:
                for decay in args.decay:
                    rule = (sign, stall, args.after, decay)
                    got = {n: _portfolio(rs, limit, rule) for n, rs in by_level.items()}
                    lines.append(_row(f"{limit:g} s", f"side by side, {sign} {stall:g}, decay {decay:g}", base, got))
    alone = sorted(
        n
        for n, rs in by_level.items()
        if not fixed[max(args.limits)][n] and any(r["stopped"] == "solved" for r in rs.values())
    )
    lines += [
        "",
        f"Levels the fixed shares leave unsolved at {max(args.limits):g} s that one search alone solves "
        "within its record: " + (", ".join(f"{n} ({_solvers(by_level[n])})" for n in alone) or "none") + ".",
    ]
    body = "\n".join(lines)
    print(body)
    if args.write:
        H.write_section(f"portfolio-{data['set']}", f"Sokoban portfolio shares ({data['set']})", body)
    return 0


def _spans(numbers: list[int]) -> str:
    """``1,3-5,9`` for ``[1, 3, 4, 5, 9]`` (sorted)."""
    parts: list[str] = []
    for n in numbers:
        if parts and int(parts[-1].split("-")[-1]) == n - 1:
            parts[-1] = f"{parts[-1].split('-')[0]}-{n}"
        else:
            parts.append(str(n))
    return ",".join(parts)


def _row(limit: str, what: str, base: dict[int, bool], got: dict[int, bool]) -> str:
    """A row of the table: the levels solved, and those gained and lost against ``base``."""
    gained = ", ".join(str(n) for n in sorted(n for n in got if got[n] and not base[n])) or "-"
    lost = ", ".join(str(n) for n in sorted(n for n in got if base[n] and not got[n])) or "-"
    return f"| {limit} | {what} | {sum(got.values())}/{len(got)} | {gained} | {lost} |"


def _solvers(runs: dict[int, dict[str, Any]]) -> str:
    """Which searches solved a level alone, and when: ``search 3 at 41.2 s``."""
    return ", ".join(f"search {m} at {r['time']:.1f} s" for m, r in sorted(runs.items()) if r["stopped"] == "solved")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--set", default="xsokoban", choices=sorted(SETS))
    r.add_argument("--limit", type=float, default=50.0, help="seconds each search alone (default 50)")
    r.add_argument("--levels", help="level numbers, e.g. 1,5-9 (default all)")
    r.add_argument("--members", help="the searches, 0 first, e.g. 0-2,5 (default all)")
    r.add_argument("--jobs", type=int, default=2)
    a = sub.add_parser("analyse")
    a.add_argument("file")
    a.add_argument("--limits", type=float, nargs="+", default=[60.0, 30.0])
    a.add_argument("--signs", nargs="+", default=["bound", "cells", "either"], choices=sorted(SIGNS))
    a.add_argument("--stall", type=float, nargs="+", default=[0.5, 0.7, 0.8, 0.9])
    a.add_argument("--after", type=float, default=2.0, help="seconds before a search may stall (default 2)")
    a.add_argument(
        "--decay", type=float, nargs="*", default=[1.0, 0.25, 0.05], help="side by side: a stalled search's share"
    )
    a.add_argument("--after-part", type=float, default=0.0, help="the part of its slot before a search may stall")
    a.add_argument("--with", dest="with_", help="the searches the stall rule applies to, e.g. 3 (default all)")
    a.add_argument("--write", action="store_true", help="write the section of benchmarks/RESULTS.md")
    args = ap.parse_args(argv)
    args.argv = argv[1:] if argv and argv[0] == "analyse" else argv
    return record(args) if args.cmd == "record" else analyse(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
