"""Minesweeper: mazekit's solver and the strongest published one, on the same boards.

    python benchmarks/run.py mines_peer --peer PATH --games 20000 --seeds 61 1206 --jobs 2 \\
        --results benchmarks/RESULTS.md

The published solver is David Hill's Java solver (https://github.com/DavidNHill/Minesweeper;
JSMinesweeper reports its win rates as "the Java solver"). ``--peer`` is a checkout of that
repository (``git clone https://github.com/DavidNHill/Minesweeper``; measured at commit
0806bb8). Its game-state, solver and Asynchronous sources are compiled with ``javac`` (Debian:
``apt-get install -y default-jdk-headless``) together with mazekit's adapter in
``benchmarks/peers/jsminesweeper/`` (a game on a board given cell by cell; it makes the first
click, then hands the game to the solver with the settings of the peer's own bulk runs:
``SMALL_ANALYSIS``, one thread, no flags) into ``benchmarks/_build/mines-peer/``.

Both solvers play game i of seed S on expert: the board that ``mazekit mines bench`` draws from
the seed (S, i), with its first click (the "safe" rule: the top-left corner, never a mine; the
"zero" rule: (2, 2), always an opening). The difference of the win rates is paired (game by game;
its 95% interval is much narrower than either rate's). The peer's outcomes are kept in
``benchmarks/_build/mines-peer/`` by peer commit, rule, seed and games, so a run grows in steps.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import math
import multiprocessing as mp
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from _harness import write_section

from mazekit.cli._progress import Progress
from mazekit.minesweeper.bench import BenchRow, first_click_cell, play_games
from mazekit.minesweeper.board import LEVELS, generate

HERE = Path(__file__).resolve().parent
ADAPTER = HERE / "peers" / "jsminesweeper"
BUILD = HERE / "_build" / "mines-peer"
#: The peer's source folders compiled with the adapter.
PEER_SOURCES = ("MinesweeperGameState/src", "MineSweeperSolver/src", "Asynchronous/src")
LEVEL = "expert"


class PeerError(RuntimeError):
    """The peer cannot be built or run (a missing checkout or JDK): one line for the user."""


def peer_commit(peer: Path) -> str:
    """The peer checkout's commit (short), or the hash of its sources when it is not a git tree."""
    try:
        out = subprocess.run(["git", "-C", str(peer), "rev-parse", "--short=7", "HEAD"], capture_output=True, text=True)
        if out.returncode == 0:
            return out.stdout.strip()
    except OSError:
        pass
    h = hashlib.sha1()
    for src in sorted(_sources(peer)):
        h.update(src.read_bytes())
    return "src-" + h.hexdigest()[:10]


def _sources(peer: Path) -> list[Path]:
    files = [p for folder in PEER_SOURCES for p in (peer / folder).rglob("*.java")]
    return files + sorted(ADAPTER.rglob("*.java"))


def build(peer: Path) -> Path:
    """Compile the peer and the adapter (unless the classes are newer than every source)."""
    for folder in PEER_SOURCES:
        if not (peer / folder).is_dir():
            raise PeerError(f"{peer} is not a checkout of DavidNHill/Minesweeper: {folder}/ is missing")
    javac = shutil.which("javac")
    if javac is None or shutil.which("java") is None:
        raise PeerError("javac and java are needed for the peer (Debian: apt-get install -y default-jdk-headless)")
    classes = BUILD / f"classes-{peer_commit(peer)}"
    stamp = classes / ".built"
    sources = _sources(peer)
    if stamp.exists() and stamp.stat().st_mtime >= max(p.stat().st_mtime for p in sources):
        return classes
    shutil.rmtree(classes, ignore_errors=True)
    classes.mkdir(parents=True)
    out = subprocess.run([javac, "-nowarn", "-d", str(classes), *map(str, sources)], capture_output=True, text=True)
    if out.returncode != 0:
        errors = [line for line in out.stderr.splitlines() if "error" in line]
        raise PeerError(f"javac failed: {errors[0] if errors else out.stderr.strip()[:200]}")
    stamp.touch()
    return classes


def board_lines(rule: str, seed: int, start: int, stop: int) -> str:
    """Games start..stop-1 as the adapter reads them: ``width height mines x y cells``."""
    rows, cols, mines = LEVELS[LEVEL]
    click = first_click_cell(LEVEL, rule)  # type: ignore[arg-type]
    lines = []
    for i in range(start, stop):
        board = generate(rows, cols, mines, click=click, first_click=rule, rng=np.random.default_rng([seed, i]))  # type: ignore[arg-type]
        cells = "".join("1" if v else "0" for v in np.asarray(board.mines, bool).reshape(-1))
        lines.append(f"{cols} {rows} {mines} {click[1]} {click[0]} {cells}\n")
    return "".join(lines)


def peer_outcomes(
    classes: Path, rule: str, seed: int, games: int, jobs: int, progress: Progress
) -> tuple[np.ndarray, float]:
    """The peer's result of each game (1 won) and its seconds a game (wall time of a process)."""
    bounds = np.linspace(0, games, jobs + 1).astype(int)
    done = [0] * jobs
    results: list[list[int]] = [[] for _ in range(jobs)]
    lock = threading.Lock()
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for j in range(jobs):
            path = Path(tmp) / f"boards-{j}.txt"
            path.write_text(board_lines(rule, seed, int(bounds[j]), int(bounds[j + 1])))
            with path.open() as stdin:
                procs.append(
                    subprocess.Popen(
                        ["java", "-cp", str(classes), "mzk.Play"],
                        stdin=stdin,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL,
                        text=True,
                    )
                )
        t0 = time.perf_counter()

        def read(j: int) -> None:
            assert procs[j].stdout is not None
            for line in procs[j].stdout:
                results[j].append(int(line))
                with lock:
                    done[j] += 1
                    progress.update(sum(done))

        threads = [threading.Thread(target=read, args=(j,), daemon=True) for j in range(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for p in procs:
            p.wait()
        secs = time.perf_counter() - t0
    got = np.array([r for part in results for r in part], np.int8)
    if len(got) != games:
        raise PeerError(f"the peer played {len(got)} of {games} games (java exited with {procs[0].returncode})")
    return got, secs * jobs / games


def _ours(args: tuple[str, int, int, int]) -> np.ndarray:
    rule, seed, start, stop = args
    out = np.zeros(stop - start, np.int8)
    play_games(LEVEL, rule, start, stop, seed, outcomes=out)  # type: ignore[arg-type]
    return out


def our_outcomes(rule: str, seed: int, games: int, jobs: int, progress: Progress) -> tuple[np.ndarray, float]:
    """mazekit's result of each game and its seconds a game (wall time of a process)."""
    chunk = 500
    tasks = [(rule, seed, a, min(a + chunk, games)) for a in range(0, games, chunk)]
    t0 = time.perf_counter()
    parts: list[np.ndarray] = []
    with cf.ProcessPoolExecutor(jobs, mp_context=mp.get_context("spawn")) as pool:
        for k, part in enumerate(pool.map(_ours, tasks)):
            parts.append(part)
            progress.update(min((k + 1) * chunk, games))
    return np.concatenate(parts), (time.perf_counter() - t0) * jobs / games


def cached(path: Path, make: Callable[[], tuple[np.ndarray, float]]) -> tuple[np.ndarray, float]:
    """``make()``'s outcomes and seconds a game, kept in ``path`` (``.npz``)."""
    if path.exists():
        with np.load(path) as f:
            return f["won"], float(f["secs"])
    won, secs = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, won=won, secs=secs)
    os.replace(tmp, path)
    return won, secs


def paired(ours: np.ndarray, peer: np.ndarray) -> tuple[float, float, int]:
    """mazekit minus the peer: the mean difference, its 95% half-width, the games that differ."""
    d = ours.astype(float) - peer
    return float(d.mean()), float(1.96 * d.std(ddof=1) / math.sqrt(len(d))), int((d != 0).sum())


def row(rule: str, seeds: list[int], ours: np.ndarray, peer: np.ndarray, secs: tuple[float, float]) -> str:
    n = len(ours)
    a = BenchRow(LEVEL, rule, n, int(ours.sum()), 0, 0.0)
    b = BenchRow(LEVEL, rule, n, int(peer.sum()), 0, 0.0)
    m, h, k = paired(ours, peer)
    rates = [f"{100 * r.rate:.2f}% ({100 * r.ci95[0]:.2f}-{100 * r.ci95[1]:.2f}%)" for r in (a, b)]
    return (
        f"| expert 30x16/99 | {rule} | {', '.join(map(str, seeds))} | {n:,} | {rates[0]} | {rates[1]} "
        f"| {100 * m:+.2f} +- {100 * h:.2f} | {k:,} | {1000 * secs[0]:.1f} | {1000 * secs[1]:.1f} |"
    )


HEADER = (
    "| board | first click | seeds | games | mazekit | published solver | mazekit - published (paired) "
    "| games that differ | mazekit ms/game | published ms/game |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--peer", type=Path, required=True, help="a checkout of github.com/DavidNHill/Minesweeper")
    p.add_argument("--games", type=int, default=2000, help="games a seed and rule")
    p.add_argument("--seeds", type=int, nargs="+", default=[61])
    p.add_argument("--rule", dest="rules", action="append", choices=["safe", "zero"])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--results", type=Path, help="write the section of this RESULTS.md")
    args = p.parse_args(argv)
    rules = args.rules or ["safe", "zero"]
    if args.games < 2 or args.jobs < 1:
        print("mines_peer: --games must be at least 2 and --jobs at least 1", file=sys.stderr)
        return 2
    try:
        classes = build(args.peer)
    except PeerError as e:
        print(f"mines_peer: {e}", file=sys.stderr)
        return 2
    commit = peer_commit(args.peer)
    lines, per_seed = [], []
    for rule in rules:
        both: list[tuple[np.ndarray, np.ndarray]] = []
        secs = [0.0, 0.0]
        for seed in args.seeds:
            key = f"{rule}-{seed}-{args.games}"
            with Progress(f"published solver, {rule}, seed {seed}", args.games, unit="games") as prog:
                peer, ps = cached(
                    BUILD / f"peer-{commit}-{key}.npz",
                    lambda: peer_outcomes(classes, rule, seed, args.games, args.jobs, prog),  # noqa: B023
                )
            with Progress(f"mazekit, {rule}, seed {seed}", args.games, unit="games") as prog:
                ours, os_ = our_outcomes(rule, seed, args.games, args.jobs, prog)
            both.append((ours, peer))
            secs = [secs[0] + os_ / len(args.seeds), secs[1] + ps / len(args.seeds)]
            per_seed.append(row(rule, [seed], ours, peer, (os_, ps)))
            print(per_seed[-1], flush=True)
        ours_all = np.concatenate([o for o, _ in both])
        peer_all = np.concatenate([q for _, q in both])
        lines.append(row(rule, args.seeds, ours_all, peer_all, (secs[0], secs[1])))
    print(HEADER)
    print("\n".join(lines))
    if args.results:
        cmd = (
            f"`python benchmarks/run.py mines_peer --peer Minesweeper --games {args.games} "
            f"--seeds {' '.join(map(str, args.seeds))} --jobs {args.jobs} --results benchmarks/RESULTS.md`"
        )
        body = (
            f"Command: {cmd}, with `Minesweeper` a checkout of https://github.com/DavidNHill/Minesweeper at "
            f"commit {commit}. Both solvers play the same boards: game i of seed S is the board "
            "`mazekit mines bench` draws from (S, i), with its first click (safe: the top-left corner; zero: "
            "(2, 2), an opening). The published solver runs with the settings of its own bulk runs (small "
            "analysis, one thread) through mazekit's adapter (`benchmarks/peers/jsminesweeper/`). The "
            "difference is paired, game by game, with its 95% interval; each rate has Wilson's 95% interval. "
            "ms/game is the wall time of one process a game, JVM start included for the published solver.\n\n"
            f"{HEADER}\n" + "\n".join(lines) + "\n\nBy seed:\n\n" + f"{HEADER}\n" + "\n".join(per_seed)
        )
        write_section("mines_peer", "Minesweeper beside the published solver, on the same boards", body, args.results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
