"""Minesweeper solver benchmark: win rates on the classic boards beside the best published.

    python benchmarks/bench_mines.py --games 100000 --small-games 20000 --seeds 61 1206 --workers 2 \\
        --results benchmarks/RESULTS.md

Game i of a board uses the seed (seed, i): the same command gives the same games. The
"safe" rule clicks first in the top-left corner (the literature's corner start); "zero"
clicks first at (2, 2), two cells in from the corner (see
mazekit.minesweeper.bench.first_click_cell). Each seed's rows are kept in
benchmarks/_build/mines-SEED-GAMES-LEVELS.json (a seed played before is not played
again); with --results, the Minesweeper section of that file (between its BEGIN/END
markers) is replaced, and nothing else in it. With --from-results, the section is written
from the results files of `mazekit mines bench --results FILE` runs (which resume task by
task, so the games can be grown in steps on a busy machine): how RESULTS.md's figures
were made.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import sys
import time
from pathlib import Path

from _harness import write_section

from mazekit.minesweeper.bench import BenchRow, bench, format_table
from mazekit.minesweeper.noguess import generate_no_guess

HERE = Path(__file__).resolve().parent
BUILD = HERE / "_build"

#: What the solver does, for the results page (one paragraph, one line).
METHOD = " ".join(
    """
The solver plays every game to the end: local rules, then exact probabilities over the frontier with
the global mine count (the cells off the frontier counted exactly, as one pool); when nothing is
proved, a forced coin flip (two cells, one mine, that nothing can tell apart) is taken first; else
an exhaustive end-game search when at most 2,000 layouts remain; else, when an isolated region
(closed cells that touch only each other and numbers, their layouts all of one mine count) has at
most 16 cells, the same search over that region alone; else a one-ply look-ahead (the 8 safest cells
within 0.05 of the safest and up to 8 cells of possible coin flips near them, scored by the chance
of surviving this guess and the next, times the chance of not losing a possible coin flip near them
that the guess leaves to be taken later, dead cells passed over). Safe rule: first click in the
top-left corner (the literature's corner start); zero rule: first click at (2, 2). Game i uses the
board seeded by (seed, i); the seeds below were not used while the solver was developed (seed 100
was). The interval is Wilson's 95%. JSMinesweeper's Java solver, the strongest published, reports
41% (classic expert, safe corner start) and 54.3% (modern expert, open start at (3, 3)). How each
figure was reached, with paired differences: benchmarks/notes/2026-12-06-minesweeper.md and
2026-12-07-minesweeper.md.""".split()
)


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
        lines.append(
            f"| 30x16/99, first click {rule} (centre) | {n} | {np.median(a):.1f} | {a.mean():.1f} | "
            f"{np.percentile(a, 95):.1f} | {a.max():.1f} |"
        )
    head = "| no-guess board | boards | median ms | mean ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|---:|\n"
    return head + "\n".join(lines) + "\n"


def seed_rows(games: int, seed: int, workers: int, levels: tuple[str, ...]) -> tuple[list[BenchRow], dict[str, object]]:
    """The rows of one seed: from its file when done before, else played now (and kept)."""
    path = BUILD / f"mines-{seed}-{games}-{'-'.join(levels)}.json"
    if path.exists():
        saved = json.loads(path.read_text())
        return [BenchRow(**r) for r in saved["rows"]], saved["run"]
    t0 = time.perf_counter()
    load0 = os.getloadavg()
    rows = bench(games, levels=levels, seed=seed, workers=workers)
    run = {
        "seconds": round(time.perf_counter() - t0),
        "load": [round(x, 1) for x in (*load0, *os.getloadavg())],
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    BUILD.mkdir(exist_ok=True)
    path.write_text(json.dumps({"rows": [dataclasses.asdict(r) for r in rows], "run": run}, indent=1))
    return rows, run


def batch_rows(paths: list[Path]) -> dict[int, list[BenchRow]]:
    """Rows by seed from ``mazekit mines bench --results FILE`` files (one JSON line per task of
    games, its id ``LEVEL-RULE-seedS-gamesA-B``): the games of each (level, rule) from 0 on,
    as far as they are done without a gap. ``seconds`` is the tasks' time summed."""
    done: dict[tuple[int, str, str], dict[int, dict[str, int | float]]] = {}
    for path in paths:
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("status") != "done":
                continue
            level, rule, seed_part, games_part = rec["id"].split("-")[:4]
            start = int(games_part.removeprefix("games"))
            done.setdefault((int(seed_part.removeprefix("seed")), level, rule), {})[start] = rec["result"]
    out: dict[int, list[BenchRow]] = {}
    order = {name: i for i, name in enumerate(("beginner", "intermediate", "expert"))}
    for (seed, level, rule), parts in sorted(done.items(), key=lambda kv: (kv[0][0], order[kv[0][1]], kv[0][2])):
        games = wins = guesses = 0
        seconds = 0.0
        while games in parts:  # contiguous from game 0
            r = parts[games]
            wins, guesses, seconds = wins + int(r["wins"]), guesses + int(r["guesses"]), seconds + float(r["seconds"])
            games += int(r["games"])
        out.setdefault(seed, []).append(BenchRow(level, rule, games, wins, guesses, seconds))
    return out


def pooled(by_seed: dict[int, list[BenchRow]]) -> list[BenchRow]:
    """The rows of all seeds added up, board by board."""
    total: dict[tuple[str, str], BenchRow] = {}
    for rows in by_seed.values():
        for r in rows:
            t = total.get((r.level, r.rule))
            total[(r.level, r.rule)] = (
                r
                if t is None
                else BenchRow(
                    r.level, r.rule, t.games + r.games, t.wins + r.wins, t.guesses + r.guesses, t.seconds + r.seconds
                )
            )
    return list(total.values())


def replace_section(results: Path, section: str) -> None:
    """Put ``section`` (its first line the title) in place of the Minesweeper section of ``results``
    (between its markers, through the one section writer of the benchmarks); the rest stays."""
    title, body = section.split("\n", 1)
    write_section("mines", title.removeprefix("## ").strip(), body, results)


def cpu_ms(games: int, seed: int = 7) -> str:
    """A table of the CPU time (process time, one core) per expert game, both rules: the
    benchmark's ms/game is wall time on a shared machine."""
    from mazekit.minesweeper.bench import play_games, warm_up

    warm_up()
    lines = ["| board | first click | games | CPU ms/game (one core) |", "|---|---|---:|---:|"]
    for rule in ("safe", "zero"):
        t = time.process_time()
        play_games("expert", rule, 0, games, seed)  # type: ignore[arg-type]
        lines.append(f"| expert 30x16/99 | {rule} | {games:,} | {1000 * (time.process_time() - t) / games:.2f} |")
    return "\n".join(lines) + "\n"


def tables(by_seed: dict[int, list[BenchRow]]) -> list[str]:
    """The section's tables: all seeds together (with more than one), then every seed's rows."""
    parts = [f"By seed:\n\n{seed_table(by_seed)}"]
    if len(by_seed) > 1:
        parts.insert(0, f"All seeds together ({', '.join(map(str, by_seed))}):\n\n{format_table(pooled(by_seed))}")
    return parts


def seed_table(by_seed: dict[int, list[BenchRow]]) -> str:
    """One table of every seed's rows, the seed in its first column."""
    lines: list[str] = []
    for seed, rows in by_seed.items():
        table = format_table(rows).splitlines()
        if not lines:
            lines = ["| seed " + table[0], "|---" + table[1]]
        lines += [f"| {seed} " + row for row in table[2:]]
    return "\n".join(lines) + "\n"


def from_results(paths: list[Path], cpu_games: int, noguess: int) -> str:
    """The section from ``mazekit mines bench --results`` files: each seed, and all together."""
    by_seed = batch_rows(paths)
    parts = tables(by_seed)
    seeds = " and ".join(map(str, by_seed))
    expert = {row.games for rows in by_seed.values() for row in rows if row.level == "expert"}
    games = str(expert.pop()) if len(expert) == 1 else "N"
    cmds = (
        f"For each seed S ({seeds}): `mazekit mines bench --board expert --seed S --games {games} --jobs 2 "
        "--results mines-expert-S.jsonl` (a run resumes from its results file, so the games can be grown in steps) "
        "and `... --board beginner --board intermediate --games 10000 ...`; then `python benchmarks/bench_mines.py "
        f"--from-results {' '.join(p.name for p in paths)} --results benchmarks/RESULTS.md`"
    )
    load = os.getloadavg()
    return (
        "## Minesweeper\n\n"
        f"{cmds}; "
        f"{platform.machine()}, Python {platform.python_version()}, 2 worker processes on a 2-core machine "
        f"(load average {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f} "
        f"when this was written, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}). ms/game is the tasks' "
        "wall time (two at once); the CPU time of a game on one core is in the table after.\n\n"
        + METHOD
        + "\n\n"
        + "\n".join(parts)
        + "\n"
        + (cpu_ms(cpu_games) + "\n" if cpu_games else "")
        + (noguess_timing(noguess) if noguess else "")
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument(
        "--seeds", nargs="+", default=["61", "1206"], help="seeds, each as SEED or SEED:EXPERT_GAMES (default --games)"
    )
    p.add_argument("--small-games", type=int, help="games for beginner and intermediate (default: --games)")
    p.add_argument("--noguess", type=int, default=100, help="no-guess boards to time (0: skip)")
    p.add_argument("--results", type=Path, help="replace the Minesweeper section of this file")
    p.add_argument(
        "--from-results", type=Path, nargs="+", help="write the section from these `mines bench --results` files"
    )
    p.add_argument("--cpu-games", type=int, default=1000, help="expert games timed on one core (0: skip)")
    args = p.parse_args()
    if args.from_results:
        section = from_results(args.from_results, args.cpu_games, args.noguess)
        print(section)
        if args.results:
            replace_section(args.results, section)
        return 0
    by_seed: dict[int, list[BenchRow]] = {}
    runs = []
    small = args.small_games or args.games
    seeds = {int(x.split(":")[0]): int(x.split(":")[1]) if ":" in x else args.games for x in args.seeds}
    expert = {seed: seed_rows(n, seed, args.workers, ("expert",)) for seed, n in seeds.items()}  # first
    for seed in seeds:
        rows, _ = seed_rows(small, seed, args.workers, ("beginner", "intermediate"))
        big, run = expert[seed]
        rows += big
        runs.append((seed, run))
        by_seed[seed] = rows
        print(f"seed {seed}\n{format_table(rows)}", flush=True)
    ng = noguess_timing(args.noguess) if args.noguess else ""
    print(ng)
    if args.results:
        cmd = (
            f"python benchmarks/bench_mines.py --games {args.games} --small-games {small} --workers {args.workers} "
            f"--seeds {' '.join(args.seeds)} --noguess {args.noguess}"
        )
        when = "; ".join(
            f"seed {s} expert: {r['date']}, {r['seconds']} s, load average "
            f"{'/'.join(map(str, r['load'][:3]))} at the start, {'/'.join(map(str, r['load'][3:]))} at the end"
            for s, r in runs
        )
        section = (
            "## Minesweeper\n\n"
            f"`{cmd}` (also `mazekit mines bench --games N --seed S`); {platform.machine()}, Python "
            f"{platform.python_version()}, {args.workers} worker processes on a 2-core machine shared with "
            f"other engineers' jobs ({when}), so ms/game is wall time under contention.\n\n"
            + METHOD
            + "\n\n"
            + "\n".join(tables(by_seed))
            + "\n"
            + ng
        )
        replace_section(args.results, section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
