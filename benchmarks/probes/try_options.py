"""One search's settings on some levels: the tool behind the solver's option choices.

``python benchmarks/try_options.py --set xsokoban --levels 16,18-21 --limit 20 \\
    --member 0 --with conn_advisor=200``

runs one search of :data:`mazekit.sokoban.solver.PORTFOLIO` (``--member``, its settings
changed by ``--with name=value ...``; the relevance cuts as ``relevance=6,1,5`` (the backward
direction's as ``backward_relevance=6,1,9``), the window,
distant pushes and reach of :class:`mazekit.sokoban.solver.Relevance`, or ``none``; the relays as
``relays=0.3,0.6`` or ``relays=0.3,0.6,0.9,1``, the lead, seconds each, share and seed of
:class:`mazekit.sokoban.solver.Relays`), or the
whole portfolio (``--member all``, each search changed alike), on each level with ``--limit``
seconds, ``--jobs`` levels at once, replays every solution with the engine, and prints a line a
level (with the pushes the forward and the backward direction found: a solution is nearly always
one direction's work) and the levels solved.
``--json FILE`` keeps the rows, ``--against FILE`` prints the levels gained and lost
against such a file.

``--file XSB`` takes the levels of a file in place of a set (the corpus sample that
``run.py sokoban_corpus`` writes to ``benchmarks/_build/``, say). ``--expansions N`` stops each
search after ``N`` expansions in fixed slices (the budget is checked after each slice of
:data:`SLICE`) instead of at ``--limit`` seconds (one search, not ``all``): a run that does not
depend on the clock or the load, so that two settings compared on the same levels differ only by
what they do; the line gives the expansions a solution took.

``--start-at F`` (XSokoban only) starts each search from the position its shared reference
solution (``xsokoban90_solutions.toml``) reaches after the fraction ``F`` of its pushes: a probe
of where on a level the searches lose their way (the start is the level's when ``F`` is 0).
``--reference-order`` (XSokoban only) gives each goal area the packing order the reference
solution fills it in (its goals by the push that fills each for the last time, see
``reference_trace.py``) in place of the solver's: a probe of whether the order is what a search
misses.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_sokoban import SETS, _ignore_interrupts, set_levels, xsokoban_references  # noqa: E402
from portfolio_members import _pick  # noqa: E402

#: Bytes a level may use (two levels at once, as in ``run.py sokoban``).
MEMORY = 2 << 30


def _fail(message: str) -> NoReturn:
    """One line on stderr and exit status 2: a bad argument."""
    print(f"try_options: {message}", file=sys.stderr)
    raise SystemExit(2)


def _value(name: str, kind: str, text: str) -> Any:
    """The value of ``--with name=text`` for an option of type ``kind``."""
    if kind == "Relevance | None":  # window,distant,reach (see mazekit.sokoban.solver.Relevance), or none
        from mazekit.sokoban.solver import Relevance

        if text == "none":
            return None
        try:
            return Relevance(*(int(x) for x in text.split(",")))
        except (TypeError, ValueError) as e:
            _fail(f"{name} takes window,distant,reach or none ({e})")
    if kind == "Relays | None":  # lead,each[,share[,seed]] (see mazekit.sokoban.solver.Relays), or none
        from mazekit.sokoban.solver import Relays

        if text == "none":
            return None
        try:
            parts = text.split(",")
            return Relays(*(float(x) for x in parts[:3]), *(int(x) for x in parts[3:4]))
        except (TypeError, ValueError) as e:
            _fail(f"{name} takes lead,each[,share[,seed]] or none ({e})")
    if kind == "bool":
        if text not in ("0", "1", "true", "false", "True", "False"):
            _fail(f"{name} takes 0 or 1, got {text!r}")
        return text in ("1", "true", "True")
    try:
        return float(text) if kind == "float" else int(text)
    except ValueError:
        _fail(f"{name} takes a number, got {text!r}")


def _options(member: str, changes: list[str]) -> tuple[Any, ...]:
    from mazekit.sokoban.solver import EXTRA, PORTFOLIO, SearchOptions

    fields = {f.name: f.type for f in dataclasses.fields(SearchOptions)}
    values: dict[str, Any] = {}
    for change in changes:
        name, _, text = change.partition("=")
        if name not in fields:
            _fail(f"no option {name!r} (one of {', '.join(fields)})")
        values[name] = _value(name, fields[name], text)
    every = PORTFOLIO + EXTRA  # the members past PORTFOLIO's run on more cores (portfolio_for)
    if member != "all" and member not in [str(k) for k in range(len(every))]:
        _fail(f"--member takes 0 to {len(every) - 1} or 'all', got {member!r}")
    chosen = PORTFOLIO if member == "all" else (every[int(member)],)
    try:
        return tuple(dataclasses.replace(o, **values) for o in chosen)
    except (TypeError, ValueError) as e:
        _fail(str(e))


def _midway(level: Any, number: int, fraction: float) -> Any:
    """``level`` started where its reference solution is after ``fraction`` of its pushes (the
    walk to the next push made too)."""
    from mazekit.sokoban import replay

    lurd = xsokoban_references()[number - 1]
    pushes = [i for i, ch in enumerate(lurd) if ch.isupper()]
    keep = round(fraction * len(pushes))
    return level.with_start(replay(level, lurd[: pushes[keep]] if keep < len(pushes) else lurd).state)


def _reference_areas(level: Any, number: int) -> Any:
    """The solver's goal areas of ``level`` (:func:`goal_areas`), each area's order replaced by the
    one XSokoban ``number``'s reference solution fills it in."""
    from reference_trace import last_fills

    from mazekit.sokoban.solver import as_problem
    from mazekit.sokoban.solver.prepare import GoalAreas, goal_areas

    prob = as_problem(level)
    garea, forder, fstart = goal_areas(prob)
    fills = last_fills(set_levels("xsokoban")[number - 1], xsokoban_references()[number - 1])
    order = forder.copy()
    for a in range(len(fstart) - 1):
        area = forder[fstart[a] : fstart[a + 1]].tolist()
        order[fstart[a] : fstart[a + 1]] = sorted(area, key=lambda x: fills.get(prob.level_cell(x), 0))
    return GoalAreas(garea, order, fstart)


#: Expansions a direction takes in turn with ``--expansions`` (as ``solver_trace.py``'s fixed slices).
SLICE = 512


@functools.cache
def _file_levels(path: str) -> tuple[Any, ...]:
    """The levels of an XSB file, read once a process."""
    from mazekit.sokoban import parse_levels

    return tuple(parse_levels(Path(path).read_bytes()))


def _run(job: tuple[str, int, float, str, list[str], float, bool, int]) -> dict[str, Any]:
    from mazekit.sokoban import replay
    from mazekit.sokoban.solver import Prepared, as_problem, run_search, search_level

    name, number, limit, member, changes, start_at, reference_order, expansions = job
    level = _file_levels(name[5:])[number - 1] if name.startswith("file:") else set_levels(name)[number - 1]
    if start_at > 0:
        level = _midway(level, number, start_at)
    portfolio = _options(member, changes)
    # with --reference-order the searches take the reference's orders for the goal areas
    areas = _reference_areas(level, number) if reference_order else None
    t0 = time.perf_counter()
    prep = Prepared(as_problem(level), areas=areas)
    if expansions > 0:
        result = run_search(
            prep, portfolio[0], time_limit=None, memory=MEMORY, fixed_slice=SLICE, max_expansions=expansions
        )
    else:
        result = search_level(prep, time_limit=limit, portfolio=portfolio, memory=MEMORY)
    took = time.perf_counter() - t0 - result.stats.compile_time
    row: dict[str, Any] = {"level": number, "solved": result.solution is not None, "time": round(took, 2)}
    row["nodes"] = result.stats.nodes
    row["expanded"] = result.stats.expanded
    if result.solution is not None:
        if not replay(level, result.solution.lurd).solved:
            raise SystemExit(f"try_options: level {number}: the solution does not win")
        row["pushes"] = result.solution.pushes
        row["backward_pushes"] = result.solution.backward_pushes
    return row


def _count_levels(args: argparse.Namespace) -> int:
    """The levels of ``--file`` (``args.set`` becomes ``file:PATH``) or of ``--set``; a bad file or
    set name fails with one line."""
    if args.file is None:
        if args.set not in SETS:
            _fail(f"no level set {args.set!r} (one of {', '.join(SETS)})")
        return len(set_levels(args.set))
    if not Path(args.file).is_file():
        _fail(f"no file {args.file}")
    if args.start_at > 0 or args.reference_order:
        _fail("--start-at and --reference-order need --set xsokoban, not --file")
    args.set = "file:" + args.file
    try:
        return len(_file_levels(args.file))
    except (ValueError, UnicodeDecodeError) as e:  # the parser's errors name the line
        _fail(f"{args.file}: {e}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="xsokoban")
    ap.add_argument("--file", help="the levels of this XSB file in place of --set")
    ap.add_argument("--expansions", type=int, default=0, help="a fixed budget of expansions in place of --limit")
    ap.add_argument("--levels", help="level numbers, e.g. 1,5-9 (default all)")
    ap.add_argument("--limit", type=float, default=20.0)
    ap.add_argument(
        "--member",
        default="0",
        help="a search of the portfolio (0 to 3: PORTFOLIO's; 4 and on: EXTRA's, for more cores) or 'all' "
        "(PORTFOLIO's four)",
    )
    ap.add_argument("--with", dest="changes", nargs="*", default=[], metavar="NAME=VALUE")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--against", help="compare with rows written by --json")
    ap.add_argument("--start-at", type=float, default=0.0, help="start this far along the reference solution")
    ap.add_argument(
        "--reference-order", action="store_true", help="packing orders as the reference solution fills the goals"
    )
    args = ap.parse_args(argv)
    _options(args.member, args.changes)  # a misspelt option fails before any work
    count = _count_levels(args)
    if args.expansions < 0 or (args.expansions > 0 and args.member == "all"):
        _fail("--expansions takes a positive number of expansions, with one --member")
    try:
        numbers = _pick(args.levels, count)
    except ValueError:
        _fail(f"--levels takes numbers and ranges such as 1,5-9, got {args.levels!r}")
    if not numbers or min(numbers) < 1 or max(numbers) > count:
        _fail(f"--levels: {args.set} has levels 1 to {count}")
    if not 0.0 <= args.start_at < 1.0 or (args.start_at > 0 and args.set != "xsokoban"):
        _fail("--start-at takes a fraction from 0 to below 1, with --set xsokoban only")
    if args.reference_order and args.set != "xsokoban":
        _fail("--reference-order needs --set xsokoban (the reference solutions are XSokoban's)")
    jobs = [
        (args.set, n, args.limit, args.member, args.changes, args.start_at, args.reference_order, args.expansions)
        for n in numbers
    ]
    rows: list[dict[str, Any]] = []
    with multiprocessing.get_context("spawn").Pool(args.jobs, initializer=_ignore_interrupts) as pool:
        for row in pool.imap_unordered(_run, jobs):
            rows.append(row)
            mark = f"{row['time']:6.2f} s" if row["solved"] else "   -    "
            if args.expansions and row["solved"]:
                mark += f" {row['expanded']:>9,} expanded"
            found = ""
            if row["solved"]:  # which direction did the work: pushes found forward + backward
                back = row["backward_pushes"]
                found = f"  {row['pushes'] - back} forward + {back} backward pushes"
            print(f"{args.set} {row['level']:4d} {mark} {row['nodes']:>12,} nodes{found}", flush=True)
    rows.sort(key=lambda r: r["level"])
    solved = [r["level"] for r in rows if r["solved"]]
    print(f"solved {len(solved)}/{len(rows)}: {', '.join(map(str, solved))}")
    if args.against:
        before = {r["level"] for r in json.loads(Path(args.against).read_text()) if r["solved"]}
        print("gained:", sorted(set(solved) - before), "lost:", sorted(before - set(solved) & set(numbers)))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
