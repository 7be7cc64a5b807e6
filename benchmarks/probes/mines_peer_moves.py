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
from mines_rollouts import Board  # noqa: E402

from mazekit.minesweeper import _kernels as K  # noqa: E402
from mazekit.minesweeper import _play_kernels as P  # noqa: E402
from mazekit.minesweeper.bench import warm_up  # noqa: E402
from mazekit.minesweeper.board import _padded, generate  # noqa: E402
from mazekit.minesweeper.solver import CLOSED, DEFAULT  # noqa: E402


def positions(b: Board, rule: str, games: int, seed: int) -> tuple[list[tuple[int, np.ndarray, int, np.ndarray]], dict]:
    """Every look-ahead decision: (game, view, mazekit's pick, probabilities); and each game's outcome."""
    guess = P.guess_kernel.compiled()
    out: list[tuple[int, np.ndarray, int, np.ndarray]] = []
    won: dict[int, bool] = {}
    for i in range(games):
        board = generate(b.rows, b.cols, b.mines, click=b.click, first_click=rule, rng=np.random.default_rng([seed, i]))  # type: ignore[arg-type]
        dens, offsets, _ = _padded(board)
        know = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(CLOSED)).astype(np.int8)
        prob, info, chosen = np.empty(b.n), np.zeros(2), np.zeros(3)
        st = b.play(dens, know, offsets, b.first, b.proofs)
        while st == 0:
            b.probs(know, offsets, b.mines, prob, DEFAULT.max_nodes, info)
            g = int(guess(know, prob, offsets, b.width, b.rows, b.mines, b.policy, info, chosen))
            if int(chosen[1]) == P.BY_LOOKAHEAD:
                out.append((i, know.copy(), g, prob.copy()))
            st = b.play(dens, know, offsets, g, b.proofs)
        won[i] = st == 1
    return out, won


def ask(
    classes: Path, b: Board, rule: str, seed: int, found: list[tuple[int, np.ndarray, int, np.ndarray]]
) -> list[str]:
    """The published solver's move in each position (the adapter's line after ``@@ ``)."""
    lines = []
    for i, know, _, _ in found:
        board = generate(b.rows, b.cols, b.mines, click=b.click, first_click=rule, rng=np.random.default_rng([seed, i]))  # type: ignore[arg-type]
        mines = "".join("1" if v else "0" for v in np.asarray(board.mines, bool).reshape(-1))
        inner = know.reshape(b.rows + 2, b.width)[1:-1, 1:-1].reshape(-1)
        opened = "".join("1" if v >= 0 else "0" for v in inner)
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
    found, won = positions(b, args.rule, args.games, args.seed)
    answers = ask(classes, b, args.rule, args.seed, found)
    diffs: list[float] = []
    by: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    same = 0
    for (i, know, g, prob), answer in zip(found, answers, strict=True):
        f = answer.split()
        if f[0] == "none":
            diffs.append(0.0)
            continue
        c = (int(f[1]) + 1) * b.width + int(f[0]) + 1
        if c == g:
            same += 1
            diffs.append(0.0)
            continue
        board = generate(
            b.rows, b.cols, b.mines, click=b.click, first_click=args.rule, rng=np.random.default_rng([args.seed, i])
        )  # type: ignore[arg-type]
        dens, offsets, _ = _padded(board)
        theirs = b.play(dens, know.copy(), offsets, c, b.policy) == 1
        d = float(theirs) - float(won[i])
        diffs.append(d)
        risk = "riskier" if prob[c] > prob[g] + 0.005 else ("safer" if prob[c] < prob[g] - 0.005 else "as safe")
        by[(method_of(f[4] if len(f) > 4 else ""), risk)].append(d)
    d = np.array(diffs)
    print(
        f"expert {args.rule}, seed {args.seed}, {args.games} games: {len(d)} look-ahead guesses; the published "
        f"solver names the same cell at {same}"
    )
    print(
        f"its cell played out by mazekit, minus mazekit's: {100 * d.mean():+.3f} +- "
        f"{196 * d.std(ddof=1) / math.sqrt(len(d)):.3f} points a decision ({int((d != 0).sum())} differ)"
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
