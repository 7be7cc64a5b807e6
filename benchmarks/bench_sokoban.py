"""Sokoban solver benchmark: solved levels per collection under a per-level time limit.

``python benchmarks/run.py sokoban [--sets microban,microban_ii,boxoban,xsokoban]
[--cores 2 | --cores 1 --jobs 2] [--time-limit S] [--first N] [--optimal] [--no-write]``

By default as ``mazekit sokoban solve`` does: one level at a time in this process, the
fast mode's searches on this machine's cores (``search_level(cores=N)``, up to 2:
``PORTFOLIO`` on one, ``EXTRA`` on the other). With ``--cores 1``, ``--jobs`` levels at
once (default 2), each in its own worker process on one core, the memory cap divided
between the jobs (the one-core figure).
Every solution is replayed to a win by the engine (:func:`mazekit.sokoban.replay`) before it counts. Writes the
"Sokoban solver" section of ``benchmarks/RESULTS.md`` (with the levels solved in over half the limit: those at
the edge) and each set's per-level outcomes to ``benchmarks/_build/sokoban-SET.json``.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import signal
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _harness as H  # noqa: E402

# the shared level collections beside the checkout; MAZEKIT_LEVELS overrides
LEVELS = Path(os.environ.get("MAZEKIT_LEVELS", HERE.parents[1] / "shared" / "levels"))

#: name -> (file, default seconds per level, target text)
SETS: dict[str, tuple[str, float, str]] = {
    "microban": ("microban.xsb", 10.0, "155/155 at 10 s"),
    "microban_ii": ("microban_ii.xsb", 10.0, ">= 125/135 at 10 s"),
    "boxoban": ("boxoban_hard_000.txt", 10.0, "1000/1000"),
    "xsokoban": ("xsokoban90.xsb", 60.0, ">= 30/90 at 60 s (first milestone)"),
    # levels the solver was never tuned on: mazekit.sokoban.generate (see GENERATED)
    "generated": ("", 10.0, "200/200 (solvable by construction)"),
    "generated_large": ("", 10.0, "100/100 (solvable by construction)"),
}

#: The generated sets: name -> (levels, rows, cols, boxes, reverse moves), seeds 0, 1, ...
#: ``generated`` is Boxoban's size; ``generated_large`` has larger rooms and many boxes,
#: whose searches take seconds, so that a change that slows or misleads the solver on
#: levels it was never tuned on shows there too.
GENERATED: dict[str, tuple[int, int, int, int, int]] = {
    "generated": (200, 10, 10, 4, 300),
    "generated_large": (100, 20, 20, 30, 6000),
}


@functools.cache
def set_levels(name: str) -> tuple[Any, ...]:
    """The levels of a set of :data:`SETS`: read from the shared collections, or generated
    (once a process: forked workers share the parent's)."""
    from mazekit.sokoban import generate_levels, parse_levels

    fname = SETS[name][0]
    if fname:
        return tuple(parse_levels((LEVELS / fname).read_bytes()))
    count, rows, cols, boxes, pulls = GENERATED[name]
    return tuple(g.level for g in generate_levels(count, seed=0, rows=rows, cols=cols, boxes=boxes, pulls=pulls))


@functools.cache
def xsokoban_references() -> list[str]:
    """The shared reference solutions of the 90 XSokoban levels (LURD, not optimal), in level order;
    read once a process (``try_options --start-at`` asks for them once a level)."""
    import tomllib

    with open(LEVELS / "xsokoban90_solutions.toml", "rb") as fh:
        sols = tomllib.load(fh)
    return [sols[f"Level{n:04d}"] for n in range(1, 91)]


def _ignore_interrupts() -> None:
    """A pool worker leaves Ctrl-C to the parent (which stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _outcomes(tasks: list[Any], jobs: int, cores: int) -> Iterator[Any]:
    """Each task's outcome: ``jobs`` levels at once in forked workers, or with ``cores`` above 1
    one at a time here, the portfolio on that many cores (a pool's workers may not start the
    portfolio's own workers)."""
    from mazekit.cli.sokoban_solve import _solve_one

    if cores > 1:
        for t in tasks:
            yield _solve_one(t, None, cores)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs, initializer=_ignore_interrupts) as pool:
        yield from pool.imap_unordered(_solve_one, tasks)


def run_set(
    name: str, jobs: int, time_limit: float | None, first: int | None, optimal: bool, memory_gib: float, cores: int = 1
) -> dict[str, object]:
    _, default_tl, target = SETS[name]
    levels = set_levels(name)
    if first:
        levels = levels[:first]
    tl = time_limit if time_limit is not None else default_tl
    memory = int(memory_gib * (1 << 30) / jobs)
    tasks = [(i + 1, lv, tl, optimal, memory) for i, lv in enumerate(levels)]
    t0 = time.perf_counter()
    outs = []
    for k, o in enumerate(_outcomes(tasks, jobs, cores), 1):
        outs.append(o)
        if k % 10 == 0 or k == len(tasks):
            done = sum(1 for x in outs if x.lurd is not None)
            print(
                f"  {name}: {k}/{len(tasks)} run, {done} solved, {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    wall = time.perf_counter() - t0
    solved = [o for o in outs if o.lurd is not None]
    stops: dict[str, int] = {}
    for o in outs:
        if o.lurd is None:
            stops[o.stopped] = stops.get(o.stopped, 0) + 1
    unsolved = sorted(o.number for o in outs if o.lurd is None)
    return {
        "name": name,
        "levels": len(levels),
        "solved": len(solved),
        "tl": tl,
        "target": target,
        "wall": wall,
        "cpu": sum(o.seconds for o in outs),
        "median": statistics.median([o.seconds for o in solved]) if solved else 0.0,
        "pushes": sum(o.pushes for o in solved),
        "moves": sum(o.moves for o in solved),
        "stops": stops,
        "unsolved": unsolved,
        "per_level": [
            {"level": o.number, "solved": o.lurd is not None, "seconds": round(o.seconds, 2), "stopped": o.stopped}
            for o in sorted(outs, key=lambda x: x.number)
        ],
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py sokoban", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sets", default="microban,microban_ii,boxoban,xsokoban,generated,generated_large")
    ap.add_argument("--jobs", type=int, default=2, help="levels at once, one core each (default 2)")
    ap.add_argument(
        "--cores",
        type=int,
        default=None,
        help="above 1: one level at a time, its searches on this many cores (default: as `mazekit sokoban "
        "solve`, this machine's up to 2; 1 runs --jobs levels at once, one core each)",
    )
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per level (default: per set)")
    ap.add_argument("--first", type=int, default=None, help="only the first N levels of each set")
    ap.add_argument("--optimal", action="store_true")
    ap.add_argument("--memory", type=float, default=4.0, help="GiB for all jobs together")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    names = H.chosen_sets(ap, args.sets, SETS)
    if args.cores is None:
        from mazekit.sokoban.solver.lanes import default_cores

        args.cores = 1 if args.optimal else default_cores()  # A* is one search: one core a level
    if args.cores < 1 or args.jobs < 1:
        ap.error("--jobs and --cores must be at least 1")
    if args.cores > 1:
        args.jobs = 1
    # compile (or load) the kernels once before the workers fork
    from mazekit.sokoban import parse_level
    from mazekit.sokoban.solver import solve

    solve(parse_level("#######\n#@$  .#\n#######"), time_limit=5)
    from mazekit.sokoban.solver.kernels.expand import search_kernel

    search_kernel.compiled()
    load_before = H.load()
    rows: list[dict[str, object]] = []
    for n in names:
        rows.append(run_set(n, args.jobs, args.time_limit, args.first, args.optimal, args.memory, args.cores))
        _keep_levels(rows[-1])
        body = report(rows, args, argv, load_before)
        if not args.no_write:  # after each set, so a long run keeps what it measured
            H.write_section("sokoban", "Sokoban solver", body)
    print(body)
    return 0


def _keep_levels(row: dict[str, object]) -> None:
    """Write a set's per-level outcomes (solved, seconds, why stopped) to
    ``benchmarks/_build/sokoban-SET.json``: the levels at the edge of the limit, for the next change."""
    out = HERE / "_build" / f"sokoban-{row['name']}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"limit": row["tl"], "levels": row["per_level"]}, indent=1) + "\n")


def _shares(searches: Any) -> str:
    """Each search's part of the time when each uses its whole slot (its ``time_share`` over the sum)."""
    total = sum(o.time_share for o in searches)
    parts = [f"{o.time_share / total:.0%}" for o in searches]
    return f"{', '.join(parts[:-1])} and {parts[-1]}" if len(parts) > 1 else parts[0]


def _first_core() -> str:
    """The report's words for the first core's runs (``PORTFOLIO``, and ``SHORT`` at a short
    time limit): their searches and their parts of the time."""
    from mazekit.sokoban.solver import PORTFOLIO, SHORT, SHORT_LIMIT

    def words(run: tuple[Any, ...]) -> str:
        relayed = [_ORDINALS[k] for k, o in enumerate(run) if o.relays is not None]
        which = f", the {' and '.join(relayed)} with relays" if relayed else ""
        return f"{len(run)} searches, {_shares(run)} of the time{which}"

    return f"{words(PORTFOLIO)}; below {SHORT_LIMIT:g} s a level, {words(SHORT)}"


def _second_core() -> str:
    """The report's words for the second core's searches, their parts of its time read from
    ``EXTRA`` (each its ``time_share`` over the shares' sum, when each uses its whole slot)."""
    from mazekit.sokoban.solver import EXTRA

    turned = next((k for k, o in enumerate(EXTRA) if o.backward_fess and o.bidirectional), None)
    which = "" if turned is None else f", the {_ORDINALS[turned]} with a feature-space backward search"
    return f"{len(EXTRA)} more searches on the second beside them, {_shares(EXTRA)} of its time{which}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def report(rows: list[dict[str, object]], args: argparse.Namespace, argv: list[str], load_before: str) -> str:
    mode = (
        "push-optimal (A*)"
        if args.optimal
        else (
            f"fast (a portfolio of {_first_core()}, a stalled search's rest to the next: "
            "feature-space forward search, best-first backward search, the relays' backward search aimed at "
            "forward positions" + (f"; on {args.cores} cores, {_second_core()})" if args.cores > 1 else ")")
        )
    )
    at_once = (
        f"one level at a time, its searches on {args.cores} cores"
        if args.cores > 1
        else f"{args.jobs} levels at once (one per core)"
    )
    lines = [
        f"Command: `{H.command_line('benchmarks/run.py', ['sokoban', *argv])}`; mode {mode}; "
        f"{at_once}; every solution replayed to a win by the engine.",
        f"Machine: {H.machine()}; {load_before} at the start, {H.load()} now (the machine is shared: "
        "with a load above 2 a search gets less than a core, and limits are wall-clock seconds).",
        "",
        "| collection | solved | limit per level | target | wall time | search time (sum) "
        "| median time (solved) | pushes (sum) | moves (sum) | not solved because |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        stops = ", ".join(f"{k} {v}" for k, v in sorted(r["stops"].items())) or "-"  # type: ignore[attr-defined]
        lines.append(
            f"| {r['name']} | {r['solved']}/{r['levels']} | {r['tl']:g} s | {r['target']} | {r['wall']:.0f} s "
            f"| {r['cpu']:.0f} s | {r['median']:.2f} s | {r['pushes']} | {r['moves']} | {stops} |"
        )
    lines.append("")
    for r in rows:
        uns = list(r["unsolved"])  # type: ignore[call-overload]
        if uns:
            shown = ", ".join(str(x) for x in uns[:60]) + (" ..." if len(uns) > 60 else "")
            lines.append(f"- {r['name']} not solved: {shown}")
        edge = [x for x in r["per_level"] if x["solved"] and x["seconds"] > r["tl"] / 2]  # type: ignore[attr-defined,operator]
        if edge:
            shown = ", ".join(f"{x['level']} ({x['seconds']:.1f} s)" for x in edge[:30])
            lines.append(f"- {r['name']} solved in over half the limit: {shown}")
    lines.append("")
    lines.append(
        "Peers: no other Sokoban solver is installed on this machine, so none ran beside it; published "
        "reference points (other machines): Festival, Sokolution and Takaken solve all 90 XSokoban levels "
        "at 10 minutes each, YASS 89, Rolling Stone 57; a hobby Rust solver 144/155 Microban at 10 s."
    )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
