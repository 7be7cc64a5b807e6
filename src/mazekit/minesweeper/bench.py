"""The solver benchmark: win rates on the classic boards beside the published best."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import _kernels as K
from . import _play_kernels as P
from .board import LEVELS, FirstClick, _padded, generate
from .solver import CLOSED, DEFAULT, SolverOptions, _buffers

__all__ = [
    "CHUNK",
    "COST",
    "PUBLISHED",
    "BenchProgress",
    "BenchRow",
    "bench",
    "first_click_cell",
    "format_table",
    "play_games",
    "solver_is_cached",
    "warm_up",
    "worker_count",
]

#: Games per task handed to a worker (and between two progress reports).
CHUNK = 250

#: ``progress(games_done, games_total, share_done)``, called by :func:`bench` after each
#: task; ``share_done`` weighs each game by :data:`COST`, for an estimate of the time left.
BenchProgress = Callable[[int, int, float], None]

#: The relative time of a game by level, for :data:`BenchProgress`'s share (3,000 games
#: per board and rule, 2 workers: 0.19, 0.95 and 5.9 ms a game).
COST: dict[str, float] = {"beginner": 1.0, "intermediate": 5.0, "expert": 30.0}

#: The best published win rates, by (level, rule); expert: JSMinesweeper's Java solver
#: (safe: corner start; zero: open start at (3, 3)).
PUBLISHED: dict[tuple[str, str], str] = {
    ("beginner", "safe"): "91.7%",
    ("intermediate", "safe"): "78.1%",
    ("expert", "safe"): "41% (JSMinesweeper)",
    ("beginner", "zero"): "97.1%",
    ("intermediate", "zero"): "88.9%",
    ("expert", "zero"): "54.3% (JSMinesweeper)",
}


@dataclass(frozen=True, slots=True)
class BenchRow:
    """Games played on one board under one first-click rule."""

    level: str
    rule: str
    games: int
    wins: int
    guesses: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win rate."""
        n, p, z = self.games, self.rate, 1.96
        if n == 0:
            return (0.0, 1.0)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (centre - half, centre + half)


def first_click_cell(level: str, rule: FirstClick) -> tuple[int, int]:
    """Where the benchmark clicks first: the top-left corner under the "safe"
    rule (the literature's corner start); under "zero", the cell (2, 2), two
    rows and columns in from the corner.

    With the zero rule the click shows a 0, and its opening is larger near a
    corner, where the cells around it have fewer closed neighbours; in the
    corner itself only 4 cells are kept free. Measured on 20,000 games each
    (seeds (100, i), look-ahead solver), the win rates were, by first click:
    beginner (0,0) 95.9%, (1,1) 96.8%, (2,2) 97.2%, (3,3) 96.9%, (0,4) 96.6%,
    centre 96.3%; intermediate (0,0) 85.3%, (1,1) 87.1%, (2,2) 88.7%, (3,3)
    88.4%, (0,7) 87.5%, centre 86.7%; expert (2,2) 52.3%, (3,3) 52.4%, centre 50.6%.
    """
    rows, cols, _ = LEVELS[level]
    return (0, 0) if rule == "safe" else (min(2, rows - 1), min(2, cols - 1))


def play_games(
    level: str,
    rule: FirstClick,
    start: int,
    stop: int,
    seed: int = 0,
    *,
    click: tuple[int, int] | None = None,
    options: SolverOptions = DEFAULT,
    outcomes: np.ndarray | None = None,
) -> tuple[int, int]:
    """Play games ``start..stop-1`` of a level (first click: :func:`first_click_cell`).

    Game ``i`` uses the board drawn from the seed ``(seed, i)`` and the level's
    size, so any split of the games over processes gives the same results.
    ``click`` replaces the first click, ``options`` the solver's guessing
    options; ``outcomes[i - start]`` receives 1 for each win (for paired
    comparisons). Returns ``(wins, guesses)``.
    """
    rows, cols, mines = LEVELS[level]
    kernel = P.solve_kernel.compiled()
    wins = guesses = 0
    n = (rows + 2) * (cols + 2)
    work = _buffers(n)
    policy = options.policy()
    if click is None:
        click = first_click_cell(level, rule)
    first = (click[0] + 1) * (cols + 2) + click[1] + 1
    for i in range(start, stop):
        board = generate(rows, cols, mines, click=click, first_click=rule, rng=np.random.default_rng([seed, i]))
        dens, offsets, width = _padded(board)
        know = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(CLOSED)).astype(np.int8)
        st, g, _ = kernel(P.Field(dens, know, offsets, width, rows, mines), first, policy, work)
        wins += st == 1
        if outcomes is not None:
            outcomes[i - start] = st == 1
        guesses += g
    return wins, guesses


def warm_up(_: int = 0) -> None:
    """Compile the solver's kernel, or load it from numba's cache, in this process
    (one game of beginner): :func:`bench` does it in each process before timing."""
    play_games("beginner", "safe", 0, 1)


def solver_is_cached() -> bool:
    """False when :func:`warm_up` will compile the kernel (tens of seconds, once per installation)."""
    return bool(P.solve_kernel.is_cached())


def _task(args: tuple[str, FirstClick, int, int, int]) -> tuple[str, str, int, int, int]:
    level, rule, start, stop, seed = args
    wins, guesses = play_games(level, rule, start, stop, seed)
    return level, rule, stop - start, wins, guesses


def worker_count(workers: int, games: int, *, chunk: int = CHUNK) -> int:
    """The processes :func:`bench` starts for ``workers`` asked: no more than the
    cores, nor than the tasks of ``chunk`` games a board has (each process costs
    about a second to start and load the solver, and more processes than cores
    only share them). 1 means no process at all (the games run in the caller).

    >>> worker_count(1000, 5)
    1
    >>> worker_count(3, 100_000) == min(3, os.cpu_count() or 1)
    True
    """
    tasks = -(-max(games, 1) // max(chunk, 1))
    return max(1, min(workers, os.cpu_count() or 1, tasks))


def bench(
    games: int,
    *,
    levels: tuple[str, ...] = ("beginner", "intermediate", "expert"),
    rules: tuple[FirstClick, ...] = ("safe", "zero"),
    seed: int = 0,
    workers: int = 2,
    chunk: int = CHUNK,
    progress: BenchProgress | None = None,
) -> list[BenchRow]:
    """Play ``games`` games per (level, rule) with up to ``workers`` processes
    (capped by :func:`worker_count`).

    ``progress`` (a :data:`BenchProgress`) is called after each task of
    ``chunk`` games. The results do not depend on ``workers`` or ``chunk``.

    >>> [r.games for r in bench(3, levels=("beginner",), rules=("safe",), workers=1)]
    [3]
    """
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}")
    workers = worker_count(workers, games, chunk=chunk)
    weight = {level: COST.get(level, LEVELS[level][0] * LEVELS[level][1] / 81) for level in levels}
    total_games = games * len(levels) * len(rules)
    total_work = games * len(rules) * sum(weight.values())
    done_games = 0
    done_work = 0.0
    rows: list[BenchRow] = []
    pool = None
    if workers > 1:
        import multiprocessing as mp

        pool = mp.get_context("spawn").Pool(workers)
    try:
        if pool is not None:
            pool.map(warm_up, range(workers))  # compile (or load from the cache) before timing
        else:
            warm_up()
        for level in levels:
            for rule in rules:
                tasks = [(level, rule, a, min(a + chunk, games), seed) for a in range(0, games, chunk)]
                t0 = time.perf_counter()
                results = []
                for res in map(_task, tasks) if pool is None else pool.imap_unordered(_task, tasks):
                    results.append(res)
                    done_games += res[2]
                    done_work += res[2] * weight[level]
                    if progress is not None:
                        progress(done_games, total_games, done_work / max(total_work, 1))
                dt = time.perf_counter() - t0
                played = sum(r[2] for r in results)
                rows.append(BenchRow(level, rule, played, sum(r[3] for r in results), sum(r[4] for r in results), dt))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return rows


def format_table(rows: list[BenchRow]) -> str:
    """A markdown table of the results beside the published best."""
    out = [
        "| board | first click | games | solver wins | 95% interval | published best | guesses/game | ms/game |",
        "|---|---|---:|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        R, C, M = LEVELS[r.level]
        lo, hi = r.ci95
        out.append(
            f"| {r.level} {C}x{R}/{M} | {r.rule} | {r.games:,} | {100 * r.rate:.2f}% | "
            f"{100 * lo:.2f}-{100 * hi:.2f}% | {PUBLISHED.get((r.level, r.rule), '?')} | "
            f"{r.guesses / max(r.games, 1):.2f} | {1000 * r.seconds / max(r.games, 1):.3f} |"
        )
    return "\n".join(out) + "\n"
