"""``mazekit sokoban solve``: solve the levels of a Sokoban file.

Prints one line per level on stdout: the LURD solution (lower case a walk,
upper case a push), or ``-`` when the level was not solved. A summary table
(moves, pushes, states, time, and why a search stopped: ``time``, ``memory``,
``unsolvable``) goes to stderr, with a progress line per level for
collections. Every solution is replayed by the engine before it is printed.
A search that runs over a second shows a status line on stderr (the states so
far and the time), and the first search of an installation says that it
compiles the solver first (a one-off wait); ``--quiet`` silences stderr but
for errors.
Levels are solved one at a time, each on all this machine's cores (up to
two: the fast mode's four searches on one, seven more on the other, each
core's one after the other, a search that stops making progress giving the
rest of its share to the next; ``--cores 1`` for one); ``--jobs N`` or
``--scheduler`` solve many at once instead, one core each.
Ctrl-C stops cleanly: the levels solved so far are printed, the others as
``-``. Exit status 0 when every chosen level was solved, 1 otherwise, 130 when
interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ._batch import add_batch_options, batch_options, run_tasks
from ._io import UsageError, check_range, level_arg, read_input
from ._progress import Progress

__all__ = ["Outcome", "add_solve_parser", "run_solve"]


def add_solve_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add the ``solve`` sub-command to the ``sokoban`` command's sub-parsers."""
    p = sub.add_parser(
        "solve",
        help="solve the levels of an XSB file (LURD solutions, one per line)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="an XSB level or collection ('-' for stdin)")
    p.add_argument(
        "--level", "-l", default="all", metavar="N|all", help="level number (from 1) or title, or all (default: all)"
    )
    p.add_argument("--time-limit", type=float, default=10.0, metavar="S", help="seconds per level (default 10)")
    p.add_argument("--optimal", action="store_true", help="push-optimal solutions (A*), proved optimal")
    p.add_argument(
        "--memory",
        type=float,
        default=4.0,
        metavar="GiB",
        help="memory cap for all searches on this machine together, or for each search on a "
        "--scheduler address (default 4)",
    )
    p.add_argument(
        "--cores",
        type=int,
        default=None,
        metavar="N",
        help="cores for each level's searches, solved one level at a time (default: this machine's, "
        "up to 2: the fast mode's four searches on one, seven more on the other)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    add_batch_options(p)
    p.set_defaults(func=run_solve)
    parser: argparse.ArgumentParser = p
    return parser


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one level: its number (from 1), solution or None, stats."""

    number: int
    boxes: int
    lurd: str | None
    moves: int
    pushes: int
    nodes: int
    seconds: float
    stopped: str


COMPILING = "compiling the solver (once per installation)…"


def _solve_one(task: tuple[int, Any, float, bool, int], progress: Any = None, cores: int = 1) -> Outcome:
    number, level, time_limit, optimal, memory = task
    from ..sokoban import replay
    from ..sokoban.solver import search_level

    res = search_level(level, time_limit=time_limit, optimal=optimal, memory=memory, progress=progress, cores=cores)
    st = res.stats
    sol = res.solution
    if sol is not None and not replay(level, sol.lurd).solved:  # pragma: no cover - a solver bug
        return Outcome(number, len(level.start.boxes), None, 0, 0, st.nodes, st.time, "replay-failed")
    if sol is None:
        return Outcome(number, len(level.start.boxes), None, 0, 0, st.nodes, st.time, st.stopped)
    return Outcome(number, len(level.start.boxes), sol.lurd, sol.moves, sol.pushes, st.nodes, st.time, st.stopped)


def _choose(levels: list[Any], which: str) -> list[int]:
    """The level numbers (from 1) of ``--level``: ``all``, or one level's number or title."""
    if which == "all":
        return list(range(1, len(levels) + 1))
    return [level_arg(levels, which) + 1]


def _progress(o: Outcome, done: int, total: int) -> None:
    what = f"solved, {o.pushes} pushes" if o.lurd is not None else f"not solved ({o.stopped})"
    print(f"[{done}/{total}] level {o.number}: {what}, {o.seconds:.2f} s", file=sys.stderr, flush=True)


def _solve_shown(task: tuple[int, Any, float, bool, int], label: str, quiet: bool, cores: int = 1) -> Outcome:
    """Solve one level in this process with a status line on stderr (see :mod:`._progress`):
    the states and the time, and a word before the kernel's first compile."""
    from ..sokoban.solver.compiling import search_is_cached

    bar = Progress(label, unit="states", quiet=quiet)

    def hook(stats: Any, phase: str) -> None:
        if phase == "compiling":
            if not search_is_cached():
                bar.say(COMPILING)
                bar.update(note="compiling")
            return
        bar.update(stats.nodes, note="searching")

    with bar, bar.ticking():
        return _solve_one(task, hook, cores)


def summary(outcomes: dict[int, Outcome], chosen: list[int], wall: float, interrupted: bool, how: str = "") -> str:
    """The summary table (text for stderr); ``how`` says how the levels were solved (cores, jobs)."""
    lines = [f"{'level':>6} {'boxes':>5} {'result':<10} {'moves':>7} {'pushes':>7} {'states':>10} {'time s':>8}"]
    for n in chosen:
        o = outcomes.get(n)
        if o is None:
            lines.append(f"{n:>6} {'':>5} {'not run':<10}")
            continue
        res = "solved" if o.lurd is not None else o.stopped
        mv = str(o.moves) if o.lurd is not None else "-"
        pu = str(o.pushes) if o.lurd is not None else "-"
        lines.append(f"{n:>6} {o.boxes:>5} {res:<10} {mv:>7} {pu:>7} {o.nodes:>10} {o.seconds:>8.2f}")
    solved = sum(1 for o in outcomes.values() if o.lurd is not None)
    stops: dict[str, int] = {}
    for o in outcomes.values():
        if o.lurd is None:
            stops[o.stopped] = stops.get(o.stopped, 0) + 1
    why = ", ".join(f"{k} {v}" for k, v in sorted(stops.items()))
    tail = f"solved {solved}/{len(chosen)} in {wall:.1f} s" + (f" ({how})" if how else "")
    if why:
        tail += f"; not solved: {why}"
    if interrupted:
        tail += f"; interrupted ({len(chosen) - len(outcomes)} level(s) not run)"
    lines.append(tail)
    return "\n".join(lines) + "\n"


def level_task(
    number: int, level: Any, time_limit: float, optimal: bool, memory: int, cores: int = 1
) -> dict[str, Any]:
    """Solve one level of a batch (runs on a worker, or in this process with ``cores`` for its
    searches); the record its results-file line holds.

    The solver keeps to ``time_limit`` and ``memory`` itself (Dask has no task
    timeout), and every solution is replayed by the engine before it is kept.
    """
    o = _solve_one((number, level, time_limit, optimal, memory), cores=cores)
    if o.stopped == "interrupted":  # Ctrl-C inside the search: not a result to keep, the batch stops
        raise KeyboardInterrupt
    return {
        "level": number,
        "title": level.title or "",
        "boxes": o.boxes,
        "solved": o.lurd is not None,
        "lurd": o.lurd,
        "moves": o.moves,
        "pushes": o.pushes,
        "states": o.nodes,
        "seconds": round(o.seconds, 3),
        "stopped": o.stopped,
        "cores": cores,
    }


def _warm_solver() -> None:
    """Load the compiled search (or compile it, once per installation) before the workers start."""
    from ..sokoban.solver.warmup import load_search

    load_search()


def _level_id(number: int, level: Any) -> str:
    """A task id that changes when the level does (a results file kept for another file is not reused)."""
    import hashlib

    import numpy as np

    key = repr(level.shape).encode() + np.asarray(level.walls).tobytes() + np.asarray(level.goals).tobytes()
    key += repr(level.start).encode()
    return f"level-{number}-{hashlib.sha1(key).hexdigest()[:10]}"


def _outcome(record: dict[str, Any]) -> Outcome:
    r = record["result"]
    return Outcome(
        r["level"],
        r["boxes"],
        r["lurd"] if r["solved"] else None,
        r["moves"],
        r["pushes"],
        r["states"],
        r["seconds"],
        r["stopped"],
    )


def run_solve(args: argparse.Namespace) -> int:
    """Run ``mazekit sokoban solve``; return the exit status."""
    from ..sokoban import parse_levels

    check_range("--time-limit", args.time_limit, 0, above=True, unit="seconds")
    check_range("--memory", args.memory, 0, above=True, unit="GiB")
    levels = parse_levels(read_input(args.file))
    if not levels:
        raise InputError(1, "no level in the input")
    chosen = _choose(levels, args.level)
    batch = args.jobs > 1 or args.scheduler is not None or args.workers is not None or args.results is not None
    if args.cores is not None:
        check_range("--cores", args.cores, 1)
    from ..sokoban.solver.lanes import default_cores

    at_once = args.jobs > 1 or args.scheduler is not None or args.workers is not None
    if at_once and args.cores is not None and args.cores > 1:
        raise UsageError(
            "--cores is for levels solved one at a time: with --jobs or --scheduler each level has one core"
        )
    cores = 1 if at_once else (default_cores() if args.cores is None else args.cores)
    if batch:
        return _run_batch(args, levels, chosen, cores)
    memory = int(args.memory * (1 << 30))
    tasks = [(n, levels[n - 1], float(args.time_limit), bool(args.optimal), memory) for n in chosen]
    outcomes: dict[int, Outcome] = {}
    interrupted = False
    t0 = time.perf_counter()
    show = len(chosen) > 1 and not args.quiet
    try:
        for i, t in enumerate(tasks):
            label = f"level {t[0]}" + (f" ({i + 1}/{len(tasks)})" if len(tasks) > 1 else "")
            o = _solve_shown(t, label, args.quiet, cores)
            outcomes[o.number] = o
            if show:
                _progress(o, len(outcomes), len(chosen))
            if o.stopped == "interrupted":
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    return _finish(args, outcomes, chosen, time.perf_counter() - t0, interrupted, _how(1, None, cores))


def _run_batch(args: argparse.Namespace, levels: list[Any], chosen: list[int], cores: int) -> int:
    """Many levels through :mod:`mazekit.batch`: local processes or Dask, resumable with --results.
    With one job and no scheduler the levels run one at a time in this process, each on ``cores``
    cores, as without ``--results``: a results file changes where the answers go, not how a level
    is solved."""
    from ..batch import Task

    opts = batch_options(args, warm=_warm_solver, quiet=args.quiet)
    here = opts.jobs if opts.scheduler is None else (opts.workers or os.cpu_count() or 1)
    share = 1 if opts.scheduler not in (None, "local") else min(here, len(chosen))
    memory = int(args.memory * (1 << 30) / max(1, share))
    tasks = [
        Task(_level_id(n, levels[n - 1]), (n, levels[n - 1], float(args.time_limit), bool(args.optimal), memory, cores))
        for n in chosen
    ]
    if not args.quiet and opts.scheduler in (None, "local"):
        from ..sokoban.solver.compiling import search_is_cached

        if not search_is_cached():  # the warm-up compiles it before the workers start: say so once
            print(COMPILING, file=sys.stderr, flush=True)
    report = run_tasks(
        tasks,
        level_task,
        opts,
        label="sokoban solve",
        unit="levels",
        quiet=args.quiet,
        solved=lambda r: bool(r.get("solved")),
    )
    outcomes: dict[int, Outcome] = {}
    for n, task in zip(chosen, tasks, strict=False):
        rec = report.records.get(task.id)
        if rec is None:
            continue
        if rec["status"] == "done":
            outcomes[n] = _outcome(rec)
        else:
            outcomes[n] = Outcome(n, len(levels[n - 1].start.boxes), None, 0, 0, 0, 0.0, "failed")
    for task in tasks:
        rec = report.records.get(task.id)
        if rec is not None and rec["status"] == "failed" and not args.quiet:
            print(f"{task.id}: {rec.get('error', 'failed')}", file=sys.stderr)
    return _finish(args, outcomes, chosen, report.wall, report.interrupted, _how(opts.jobs, opts.scheduler, cores))


def _how(jobs: int, scheduler: str | None, cores: int) -> str:
    """How the levels were solved, for the summary.

    >>> _how(1, None, 2), _how(2, None, 1)
    ('one level at a time, each on 2 cores', '2 levels at a time, one core each')
    >>> _how(1, "tcp://host:8786", 1)
    'on the Dask cluster at tcp://host:8786, one core each'
    """
    if scheduler is not None:
        where = "a local Dask cluster" if scheduler == "local" else f"the Dask cluster at {scheduler}"
        return f"on {where}, one core each"
    if jobs > 1:
        return f"{jobs} levels at a time, one core each"
    return f"one level at a time, each on {cores} core{'s' if cores > 1 else ''}"


def _finish(
    args: argparse.Namespace,
    outcomes: dict[int, Outcome],
    chosen: list[int],
    wall: float,
    interrupted: bool,
    how: str,
) -> int:
    out = []
    for n in chosen:
        got = outcomes.get(n)
        out.append(got.lurd if got is not None and got.lurd is not None else "-")
    sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
    if not args.quiet:
        sys.stderr.write(summary(outcomes, chosen, wall, interrupted, how))
    if interrupted:
        return 130
    return 0 if all(o.lurd is not None for o in outcomes.values()) and len(outcomes) == len(chosen) else 1
