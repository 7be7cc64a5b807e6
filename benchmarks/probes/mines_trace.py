"""Record what the Minesweeper solver does, game by game, and check that a change meant to
change nothing did not; or time its games.

    python benchmarks/probes/mines_trace.py record before.npz --games 3000
    python benchmarks/probes/mines_trace.py check before.npz          # the same games, now
    python benchmarks/probes/mines_trace.py speed --games 300         # CPU seconds a game

``record`` plays expert games ``0..games-1`` of seed ``(seed, i)`` under both first-click
rules ('safe' and 'zero') with the default options, through a Python copy of the playing
loop that calls the compiled kernels one step at a time, and keeps for every game: its
outcome, guesses and open cells (also checked against the compiled loop,
``solve_kernel``), a digest of every move in order (each proved cell opened or flagged,
each guess and the rule that chose it), and a digest of every probability array, count
and end-game answer the solver computed on the way (bit for bit). ``check`` replays the
same games (their number and seed read from the record) and lists those that differ.
``speed`` times ``play_games`` with ``time.process_time`` (run it alone on the machine, e.g.
inside ``flock LOCKFILE``; ``--src`` runs another checkout's ``src`` in a subprocess,
alternately with this one).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

RULES = ("safe", "zero")


def trace_game(level: str, rule: str, seed: int, i: int) -> tuple[int, int, int, bytes, bytes]:
    """One game by the Python copy of ``solve_kernel``: ``(status, guesses, opened, moves
    digest, numbers digest)``; the compiled loop must give the same first three."""
    from mazekit.minesweeper import _kernels as K
    from mazekit.minesweeper import _play_kernels as P
    from mazekit.minesweeper.bench import first_click_cell
    from mazekit.minesweeper.board import LEVELS, _padded, generate
    from mazekit.minesweeper.solver import CLOSED, DEFAULT

    rows, cols, mines = LEVELS[level]
    click = first_click_cell(level, rule)  # type: ignore[arg-type]
    board = generate(rows, cols, mines, click=click, first_click=rule, rng=np.random.default_rng([seed, i]))  # type: ignore[arg-type]
    dens, offsets, width = _padded(board)
    know = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(CLOSED)).astype(np.int8)
    first = (click[0] + 1) * (cols + 2) + click[1] + 1
    policy = DEFAULT.policy()
    n = know.shape[0]
    queue = np.empty(n, np.int64)
    safe = np.empty(n, np.int64)
    mark = np.zeros(n, np.int8)
    prob = np.empty(n, np.float64)
    info = np.zeros(2, np.float64)
    egout = np.zeros(3, np.float64)
    reveal = K.reveal_kernel.compiled()
    simple = K.simple_kernel.compiled()
    probability = K.probability_kernel.compiled()
    guess_at = P.guess_kernel.compiled()
    moves = hashlib.sha1()
    numbers = hashlib.sha1()
    safe_cells = int(np.count_nonzero((dens >= 0) & (dens != K.MINE)))
    opened = reveal(dens, know, offsets, first, queue)
    moves.update(np.int64(first).tobytes())
    guesses = 0
    status = 1
    while opened < safe_cells:
        ns, nm = simple(know, offsets, width, safe, mark)
        if ns > 0:
            moves.update(b"s" + safe[:ns].tobytes())
            for j in range(ns):
                opened += reveal(dens, know, offsets, safe[j], queue)
            continue
        if nm > 0:
            moves.update(b"m" + know.tobytes())
            continue
        st = probability(know, offsets, mines, prob, policy.max_nodes, info)
        numbers.update(np.int64(st).tobytes() + prob.tobytes() + info.tobytes())
        closed = know == K.UNKNOWN
        zero = np.flatnonzero(closed & (prob == 0.0))
        one = np.flatnonzero(closed & (prob == 1.0))
        if zero.size or one.size:
            moves.update(b"p" + zero.tobytes() + one.tobytes())
            for j in range(n):  # the compiled loop's order: a flood may open later cells
                if know[j] == K.UNKNOWN:
                    if prob[j] == 0.0:
                        opened += reveal(dens, know, offsets, j, queue)
                    elif prob[j] == 1.0:
                        know[j] = K.KNOWN_MINE
            continue
        g = guess_at(know, prob, offsets, width, rows, mines, policy, info, egout)
        numbers.update(egout.tobytes())
        moves.update(b"g" + np.int64(g).tobytes() + egout[1:2].tobytes())
        guesses += 1
        if dens[g] == K.MINE:
            status = -1
            break
        opened += reveal(dens, know, offsets, g, queue)
    know2 = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(CLOSED)).astype(np.int8)
    work = P.Work(np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(n, np.int8), np.empty(n, np.float64))
    field = P.Field(dens, know2, offsets, width, rows, mines)
    st2, g2, o2 = P.solve_kernel.compiled()(field, first, policy, work)
    if (st2, g2, o2) != (status, guesses, opened):
        raise SystemExit(
            f"game {rule} {i}: the Python loop gives {(status, guesses, opened)}, solve_kernel {(st2, g2, o2)}"
        )
    return status, guesses, opened, moves.digest(), numbers.digest()


def trace(games: int, seed: int) -> dict[str, np.ndarray]:
    """Every game's record, as arrays by rule."""
    out: dict[str, np.ndarray] = {}
    for rule in RULES:
        rows = [trace_game("expert", rule, seed, i) for i in range(games)]
        out[f"{rule}_result"] = np.array([r[:3] for r in rows], dtype=np.int64)
        out[f"{rule}_moves"] = np.array([r[3] for r in rows], dtype="S20")
        out[f"{rule}_numbers"] = np.array([r[4] for r in rows], dtype="S20")
    return out


def speed(games: int, seed: int, rule: str) -> float:
    """CPU seconds per expert game of ``play_games`` (compiled; warmed up first)."""
    from mazekit.minesweeper.bench import play_games, warm_up

    warm_up()
    play_games("expert", rule, 0, 5, seed)  # type: ignore[arg-type]
    t0 = time.process_time()
    play_games("expert", rule, 0, games, seed)  # type: ignore[arg-type]
    return (time.process_time() - t0) / games


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=("record", "check", "speed"))
    p.add_argument("file", nargs="?")
    p.add_argument("--games", type=int, default=3000, help="record, speed (check reads it from the record)")
    p.add_argument("--seed", type=int, default=100, help="record, speed (check reads it from the record)")
    p.add_argument("--rule", default="safe", help="speed: the first-click rule")
    p.add_argument("--src", action="append", default=[], help="speed: another checkout's src (repeatable)")
    p.add_argument("--rounds", type=int, default=3, help="speed: alternations")
    a = p.parse_args()
    if a.what == "speed":
        if not a.src:
            print(f"{speed(a.games, a.seed, a.rule) * 1e3:.3f}")
            return 0
        here = str(Path(__file__).resolve())
        times: dict[str, list[float]] = {s: [] for s in a.src}
        for _ in range(a.rounds):
            for src in a.src:
                env = dict(os.environ, PYTHONPATH=src)
                cmd = [sys.executable, here, "speed", "--games", str(a.games), "--seed", str(a.seed), "--rule", a.rule]
                ms = float(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout)
                times[src].append(ms)
                print(f"{src}: {ms:.3f} ms a game", flush=True)
        for src, ts in times.items():
            print(f"{src}: median {np.median(ts):.3f} ms a game over {len(ts)} runs of {a.games} ({a.rule})")
        return 0
    if a.file is None:
        p.error("record and check need a file")
    before = None
    if a.what == "check":
        before = np.load(a.file)
        a.games, a.seed = int(before["games"]), int(before["seed"])
    t0 = time.perf_counter()
    now = trace(a.games, a.seed)
    print(f"traced {a.games} games of each rule (seed {a.seed}) in {time.perf_counter() - t0:.0f} s")
    if before is None:
        np.savez(a.file, games=a.games, seed=a.seed, **now)
        return 0
    bad = 0
    for rule in RULES:
        for part in ("result", "moves", "numbers"):
            key = f"{rule}_{part}"
            old, new = before[key], now[key]
            differ = np.flatnonzero(old != new) if old.ndim == 1 else np.flatnonzero((old != new).any(axis=1))
            bad += differ.size
            print(f"{rule} {part}: {differ.size} of {len(new)} games differ {differ[:10].tolist()}")
        res = now[f"{rule}_result"]
        print(f"{rule}: {int((res[:, 0] == 1).sum())} won, {int(res[:, 1].sum())} guesses")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
