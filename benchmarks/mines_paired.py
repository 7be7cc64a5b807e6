"""Paired comparisons of Minesweeper solver options on the same boards.

    python benchmarks/mines_paired.py --level expert --rule safe --games 10000 --seed 100 \\
        --try "skip_dead=False" --try "endgame=2000,endgame_work=400000"

Each configuration (``field=value`` pairs of :class:`mazekit.minesweeper.SolverOptions`;
the empty string is the default) plays games ``0..games-1`` drawn from the seeds
``(seed, i)``; the win/loss of every game is kept in ``--cache`` so that a configuration
is played once. Every configuration is compared with the first one game by game: the
difference of the win rates with its 95% interval (normal approximation on the
per-game differences), which is much narrower than the intervals of the two rates.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from mazekit.minesweeper import SolverOptions
from mazekit.minesweeper.bench import play_games, warm_up

#: Options whose value here means "off" (the cache keys of runs without them stay valid).
NEUTRAL = {"deep": 0, "flips": 0.0, "flip_extra": 0}
NEUTRAL_WITH = {"deep": ("deep_nodes",)}


def parse_options(text: str) -> SolverOptions:
    """``"look=4,margin=0.02"`` -> SolverOptions(look=4, margin=0.02)."""
    kw: dict[str, object] = {}
    types = {f.name: f.type for f in dataclasses.fields(SolverOptions)}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        if key not in types:
            raise SystemExit(f"unknown option {key!r}; choose from {', '.join(types)}")
        kind = types[key]
        kw[key] = (
            value.lower() in ("1", "true", "yes")
            if kind in (bool, "bool")
            else (float(value) if kind in (float, "float") else int(value))
        )
    return SolverOptions(**kw)  # type: ignore[arg-type]


def outcomes(
    level: str, rule: str, games: int, seed: int, opts: SolverOptions, cache: Path
) -> tuple[np.ndarray, float]:
    """Each game's result (1 won) and the seconds a game took (0 when cached)."""
    fields = dataclasses.asdict(opts)
    for name, off in NEUTRAL.items():  # features added later: off, they leave the key as it was
        if fields.get(name) == off:
            fields.pop(name)
            for dep in NEUTRAL_WITH.get(name, ()):
                fields.pop(dep, None)
    text = "SolverOptions(" + ", ".join(f"{k}={v!r}" for k, v in fields.items()) + ")"
    for done in sorted(cache.glob(f"{level}-{rule}-{seed}-*.npy")) if cache.exists() else []:
        n = int(done.name.split("-")[3])
        key = hashlib.sha1(f"{level}|{rule}|{n}|{seed}|{text}".encode()).hexdigest()[:16]
        if n >= games and done.name.endswith(f"-{key}.npy"):
            return np.load(done)[:games], 0.0  # the first games of a longer run: the same boards
    key = hashlib.sha1(f"{level}|{rule}|{games}|{seed}|{text}".encode()).hexdigest()[:16]
    path = cache / f"{level}-{rule}-{seed}-{games}-{key}.npy"
    out = np.zeros(games, dtype=np.int8)
    t0 = time.perf_counter()
    play_games(level, rule, 0, games, seed, options=opts, outcomes=out)  # type: ignore[arg-type]
    secs = (time.perf_counter() - t0) / games
    cache.mkdir(parents=True, exist_ok=True)
    np.save(path, out)
    return out, secs


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--level", default="expert")
    p.add_argument("--rule", default="safe", choices=["safe", "zero"])
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--base", default="", help="the configuration the others are compared with")
    p.add_argument("--try", dest="tries", action="append", default=[], help="a configuration to compare")
    p.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "mines-paired")
    args = p.parse_args()
    warm_up()
    base, base_secs = outcomes(args.level, args.rule, args.games, args.seed, parse_options(args.base), args.cache)
    print(f"{args.level} {args.rule}, {args.games} games, seed {args.seed}")
    print(f"base {args.base or '(defaults)'}: {100 * base.mean():.2f}%  {1000 * base_secs:.2f} ms/game", flush=True)
    for text in args.tries:
        got, secs = outcomes(args.level, args.rule, args.games, args.seed, parse_options(text), args.cache)
        d = got.astype(float) - base
        half = 1.96 * d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        print(
            f"{text}: {100 * got.mean():.2f}%  diff {100 * d.mean():+.2f} +- {100 * half:.2f} points "
            f"({int((d != 0).sum())} games differ)  {1000 * secs:.2f} ms/game",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
