"""Record, or check, what the Sokoban solver does on a fixed set of levels, exactly.

    python benchmarks/probes/solver_trace.py record benchmarks/_build/trace.json
    python benchmarks/probes/solver_trace.py check benchmarks/_build/trace.json

The proof that a change to the solver changed nothing: each level of the chosen
collections is searched with each option set of the portfolio, with the plain
best-first forward search and with the optimal A*, each stopped after a fixed
number of expansions and run in *fixed slices* (the two directions take turns
of the same number of expansions whatever the clock says), so the run does not
depend on the machine's speed or load. For every search it records why it
stopped, the nodes stored, the states expanded, and the solution (its length in
moves and pushes, a digest of its LURD string and one of its pushes alone).
``check`` runs the same searches and lists every difference (exit status 1 when
there is one); ``--ignore-walks`` lets the walks between pushes differ (the same
pushes and the same number of moves: a change of walker).

The default sets take about 15 minutes on one core (XSokoban's 100,000
expansions a search are most of it); ``--jobs 2`` halves that.

``--sets`` picks the collections, each ``name:first:expansions`` (the first
levels of ``../shared/levels/<file>``, and the expansion cap of each search).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LEVELS = Path(os.environ.get("MAZEKIT_LEVELS", HERE.parents[2] / "shared" / "levels"))
FILES = {
    "microban": "microban.xsb",
    "microban_ii": "microban_ii.xsb",
    "xsokoban": "xsokoban90.xsb",
    "boxoban": "boxoban_hard_000.txt",
}
DEFAULT_SETS = "microban:155:20000,microban_ii:135:20000,xsokoban:90:100000,boxoban:100:20000"
#: What must be the same.
FIELDS = ("stopped", "nodes", "expanded", "solution")
#: Expansions of one slice of one direction.
SLICE = 512


def configs() -> dict[str, dict[str, Any]]:
    """The searches run on each level: name -> the arguments of one search."""
    from mazekit.sokoban.solver import PORTFOLIO

    out: dict[str, dict[str, Any]] = {}
    for k in range(len(PORTFOLIO)):
        out[f"portfolio{k}"] = {"member": k}
    out["plain"] = {"fess": False}
    out["optimal"] = {"optimal": True}
    # keep the names of the option sets in the record: a check compares like with like
    return {name: {**c, "_desc": repr(c)} for name, c in out.items()}


def run_one(task: tuple[str, int, str, dict[str, Any], int]) -> tuple[str, dict[str, Any]]:
    """One search; its record under the key ``set/level/config``."""
    set_name, number, text, config, cap = task
    from mazekit.sokoban import parse_level
    from mazekit.sokoban.solver import PORTFOLIO, SearchOptions, as_problem, run_search

    level = parse_level(text)
    c = {k: v for k, v in config.items() if k != "_desc"}
    t0 = time.perf_counter()
    opts = PORTFOLIO[c["member"]] if "member" in c else SearchOptions(fess=c.get("fess", True))
    optimal = bool(c.get("optimal", False))
    res = run_search(as_problem(level), opts, optimal=optimal, time_limit=None, fixed_slice=SLICE, max_expansions=cap)
    sol = res.solution
    rec: dict[str, Any] = {
        "stopped": res.stats.stopped,
        "nodes": res.stats.nodes,
        "expanded": res.stats.expanded,
        "solution": None
        if sol is None
        else [sol.moves, sol.pushes, _digest(sol.lurd), _digest(_pushes(level, sol.lurd))],
        "seconds": round(time.perf_counter() - t0, 3),
    }
    return f"{set_name}/{number}/{config['_desc']}", rec


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _pushes(level: Any, lurd: str) -> str:
    """The pushes of a LURD string, each as the pushed box's cell and the direction: the
    solution without the walks between pushes (a change of walker keeps this)."""
    w = level.walls.shape[1]
    pos = level.start.player
    out = []
    for ch in lurd:
        d = "udlr".index(ch.lower())
        pos += (-w, w, -1, 1)[d]
        if ch.isupper():
            out.append(f"{pos}{ch}")
    return " ".join(out)


def _same(was: dict[str, Any], now: dict[str, Any], ignore_walks: bool) -> bool:
    """Whether a search did the same as recorded (``ignore_walks``: the same pushes and lengths)."""
    if any(now[f] != was[f] for f in FIELDS if f != "solution"):
        return False
    if ignore_walks and now["solution"] and was["solution"]:
        return [now["solution"][i] for i in (0, 1, 3)] == [was["solution"][i] for i in (0, 1, 3)]
    return bool(now["solution"] == was["solution"])


def tasks(sets: str) -> list[tuple[str, int, str, dict[str, Any], int]]:
    from mazekit.sokoban import format_level, parse_levels

    out = []
    cfgs = configs()
    for spec in sets.split(","):
        name, first, cap = spec.split(":")
        levels = parse_levels((LEVELS / FILES[name]).read_bytes())[: int(first)]
        for i, lv in enumerate(levels, 1):
            text = format_level(lv)
            for cname, c in cfgs.items():
                # A* with a weak bound drowns on big levels: a smaller cap keeps the run short
                ccap = int(cap) // 4 if cname == "optimal" else int(cap)
                out.append((name, i, text, c, ccap))
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("mode", choices=["record", "check"])
    p.add_argument("file", type=Path)
    p.add_argument("--sets", default=DEFAULT_SETS)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument(
        "--ignore-walks",
        action="store_true",
        help="compare the solutions' pushes and lengths, not the walks between pushes (a change of walker)",
    )
    args = p.parse_args(argv)
    work = tasks(args.sets)
    want: dict[str, Any] = {}
    if args.mode == "check":
        recorded = json.loads(args.file.read_text())
        want = recorded["runs"]
        if args.sets != recorded["sets"]:  # a part of the recorded searches: compare those
            ran = {f"{name}/{number}/{c['_desc']}" for name, number, _, c, _ in work}
            want = {k: v for k, v in want.items() if k in ran}
            print(f"checking {len(want)} of the {len(recorded['runs'])} recorded searches", file=sys.stderr)
    t0 = time.perf_counter()
    got: dict[str, Any] = {}
    diffs = 0
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.jobs) as pool:
        for k, (key, rec) in enumerate(pool.imap(run_one, work, chunksize=4), 1):
            got[key] = rec
            if key in want and not _same(want[key], rec, args.ignore_walks):
                diffs += 1  # said at once: a long check need not run to the end to show a difference
                print(f"differs: {key}\n  was {want[key]}\n  now {rec}", flush=True)
            if k % 200 == 0:
                print(f"{k}/{len(work)} searches, {time.perf_counter() - t0:.0f} s, {diffs} differ", file=sys.stderr)
    seconds = sum(r["seconds"] for r in got.values())
    print(f"{len(got)} searches in {time.perf_counter() - t0:.0f} s (searching {seconds:.0f} s)")
    if args.mode == "record":
        args.file.parent.mkdir(parents=True, exist_ok=True)
        args.file.write_text(json.dumps({"sets": args.sets, "slice": SLICE, "runs": got}, indent=0))
        solved = sum(1 for r in got.values() if r["solution"])
        print(f"recorded {args.file}: {solved} solved")
        return 0
    diffs += sum(1 for key in want if key not in got)
    old_s = sum(r["seconds"] for r in want.values())
    print(f"{len(want) - diffs}/{len(want)} identical; searching {old_s:.0f} s recorded, {seconds:.0f} s now")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
