"""The published solver's guess in mazekit's positions, played out by mazekit.

    python benchmarks/probes/mines_peer_moves.py --peer DIR --rule safe --games 2000 --seed 555

Plays expert games 0..N-1 (seed (S, i), the boards of `benchmarks/mines_paired.py`) with mazekit's
solver. At each guess the look-ahead chooses, the position (the board and the cells open) goes to
the published Java solver (``--peer``: a checkout of github.com/DavidNHill/Minesweeper, built
with the adapter of `benchmarks/peers/jsminesweeper/` as `run.py mines_peer` builds it), which
names its move. Where it names another cell, mazekit plays that cell on the real board and the
rest of the game; mazekit's own pick goes on as the game itself. The mean difference of the two
outcomes, decision by decision, says whether the published solver's guesses would win more if
mazekit took them, and the breakdown by the published solver's method (probability engine, its
brute force of isolated regions or of the game, its unavoidable 50/50s) and by risk (its cell
riskier, as safe, safer than mazekit's) says which of its rules carry the difference.
"""

from __future__ import annotations

import argparse
import collections
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_mines_peer import PeerError, build  # noqa: E402
from mines_rollouts import Board, Decision, decisions  # noqa: E402

from mazekit.minesweeper import _kernels as K  # noqa: E402
from mazekit.minesweeper.bench import warm_up  # noqa: E402


def ask(classes: Path, b: Board, found: list[Decision]) -> list[str]:
    """The published solver's move in each position (the adapter's line after ``@@ ``)."""
    lines = []
    for d in found:
        inner = (slice(1, -1), slice(1, -1))
        mines = "".join("1" if v == K.MINE else "0" for v in d.dens.reshape(b.rows + 2, b.width)[inner].reshape(-1))
        opened = "".join("1" if v >= 0 else "0" for v in d.know.reshape(b.rows + 2, b.width)[inner].reshape(-1))
        lines.append(f"{b.cols} {b.rows} {b.mines} {b.click[1]} {b.click[0]} {mines} {opened}\n")
    cmd = ["java", "-cp", str(classes), "mzk.Advise"]
    text = subprocess.run(cmd, input="".join(lines), capture_output=True, text=True, check=True).stdout
    got = [line[3:] for line in text.splitlines() if line.startswith("@@ ")]
    if len(got) != len(found):
        raise PeerError(f"the peer answered {len(got)} of {len(found)} positions")
    return got


def method_of(text: str) -> str:
    """``Clear_at_(3,4)_by_Brute_Force_Deep_Analysis__(solve_...)`` -> ``Brute Force Deep Analysis``."""
    if "_by_" not in text:
        return text
    return text.split("_by_", 1)[1].split("_with")[0].split("__(")[0].replace("_", " ").strip()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--peer", type=Path, required=True)
    p.add_argument("--rule", default="safe", choices=["safe", "zero"])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=555)
    args = p.parse_args(argv)
    try:
        classes = build(args.peer)
    except PeerError as e:
        print(f"mines_peer_moves: {e}", file=sys.stderr)
        return 2
    warm_up()
    b = Board(args.rule)
    won: dict[int, bool] = {}
    found = [
        d._replace(know=d.know.copy(), prob=d.prob.copy()) for d in decisions(b, args.rule, args.games, args.seed, won)
    ]
    answers = ask(classes, b, found)
    diffs: list[float] = []
    by: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    same = 0
    for d, answer in zip(found, answers, strict=True):
        f = answer.split()
        c = -1 if f[0] == "none" else (int(f[1]) + 1) * b.width + int(f[0]) + 1
        if c < 0 or c == d.pick:
            same += c == d.pick
            diffs.append(0.0)
            continue
        theirs = b.play(d.dens, d.know.copy(), d.offsets, c, b.policy) == 1
        diff = float(theirs) - float(won[d.game])
        diffs.append(diff)
        theirs_p, ours_p = d.prob[c], d.prob[d.pick]
        risk = "riskier" if theirs_p > ours_p + 0.005 else ("safer" if theirs_p < ours_p - 0.005 else "as safe")
        by[(method_of(f[4] if len(f) > 4 else ""), risk)].append(diff)
    gains = np.array(diffs)
    print(
        f"expert {args.rule}, seed {args.seed}, {args.games} games: {len(gains)} look-ahead guesses; the published "
        f"solver names the same cell at {same}"
    )
    print(
        f"its cell played out by mazekit, minus mazekit's: {100 * gains.mean():+.3f} +- "
        f"{196 * gains.std(ddof=1) / math.sqrt(len(gains)):.3f} points a decision ({int((gains != 0).sum())} differ)"
    )
    print("| its method | its cell against mazekit's | decisions | difference (points) | outcomes that differ |")
    print("|---|---|---:|---:|---:|")
    for (method, risk), v in sorted(by.items(), key=lambda kv: -len(kv[1])):
        a = np.array(v)
        half = 196 * a.std(ddof=1) / math.sqrt(len(a)) if len(a) > 1 else float("nan")
        print(f"| {method} | {risk} | {len(a)} | {100 * a.mean():+.2f} +- {half:.2f} | {int((a != 0).sum())} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
