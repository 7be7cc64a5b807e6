"""Counterfactual guesses: at each look-ahead guess of an expert game, what each candidate would win.

    python benchmarks/probes/mines_rollouts.py collect --rule zero --games 10000 --seed 555 --out R.pkl
    python benchmarks/probes/mines_rollouts.py rules R.pkl [R2.pkl ...]

``collect`` plays games 0..N-1 of expert (seed (S, i), the boards of
`benchmarks/mines_paired.py`) with the solver's default options. Wherever the look-ahead chooses
a guess, it lists the candidates (the closed cells within ``--margin`` of the lowest mine
probability, best by probability then chance of a zero, at most ``--inner`` of them off the
frontier, up to ``--candidates`` cells, and the solver's own pick), describes each one (its
probability, chance of a zero, the look-ahead's one-ply score, the chance that the view after it
proves a move, the chance it shows a zero, the expected count of cells it proves safe) and plays
each one out: the candidate is opened on the real board and the solver plays the rest of the game.
The real board is a draw from the layouts the view allows, so over many decisions the mean outcome
of a candidate is its chance to win when the solver goes on from it. The game itself goes on with
the solver's pick.

``rules`` scores rules that choose among the same candidates, each as the paired difference of its
picks' outcomes against the solver's picks (95% interval): a rule that beats the solver here would
win more games if it chose the one guess; a rule that cannot is no better than the look-ahead at
the decisions it makes. ``--fit`` also fits a linear value of the features on half the games
(decisions' means removed) and scores its picks on the other half.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np

from mazekit.minesweeper import _guess_kernels as G
from mazekit.minesweeper import _kernels as K
from mazekit.minesweeper import _play_kernels as P
from mazekit.minesweeper.bench import first_click_cell, warm_up
from mazekit.minesweeper.board import LEVELS, _padded, generate
from mazekit.minesweeper.solver import CLOSED, DEFAULT, _buffers

#: A candidate's columns in a decision's array.
COLUMNS = ("prob", "zero_chance", "off_frontier", "score", "p_free", "p_zero", "proved", "values", "pick", "won")
PROB, ZERO, OFF, SCORE, FREE, SHOWS0, PROVED, VALUES, PICK, WON = range(len(COLUMNS))


class Board:
    """The compiled kernels and the scratch of one expert game's view."""

    def __init__(self, rule: str) -> None:
        self.rows, self.cols, self.mines = LEVELS["expert"]
        self.width = self.cols + 2
        self.n = (self.rows + 2) * self.width
        self.work = _buffers(self.n)
        self.solve = P.solve_kernel.compiled()
        self.probs = K.probability_kernel.compiled()
        self.policy = DEFAULT.policy()
        self.proofs = P.proofs_only(DEFAULT.max_nodes)
        self.click = first_click_cell("expert", rule)  # type: ignore[arg-type]
        self.first = (self.click[0] + 1) * self.width + self.click[1] + 1

    def play(self, dens: np.ndarray, know: np.ndarray, offsets: np.ndarray, cell: int, policy: P.Policy) -> int:
        """Open ``cell`` (>= 0) and play on with ``policy``: 1 won, -1 lost, 0 stuck."""
        if cell >= 0 and dens[cell] == K.MINE:
            return -1
        field = P.Field(dens, know, offsets, self.width, self.rows, self.mines)
        return int(self.solve(field, cell, policy, self.work)[0])


def candidates(
    know: np.ndarray, prob: np.ndarray, offsets: np.ndarray, margin: float, most: int, inner: int
) -> list[int]:
    """The closed cells within ``margin`` of the safest, best by (probability, chance of a zero)."""
    zero = G.zero_chance.compiled()
    closed = np.flatnonzero(know == K.UNKNOWN)
    low = prob[closed].min()
    pool = [int(c) for c in closed if prob[c] <= low + margin]
    pool.sort(key=lambda c: (round(float(prob[c]), 12), -zero(know, prob, offsets, c)))
    out: list[int] = []
    off = 0
    for c in pool:
        if not (know[c + offsets] >= 0).any():
            if off >= inner:
                continue
            off += 1
        out.append(c)
        if len(out) >= most:
            break
    return out


def describe(b: Board, know: np.ndarray, prob: np.ndarray, offsets: np.ndarray, logz: float, c: int) -> list[float]:
    """A candidate's features (the columns before ``pick``)."""
    scratch = np.empty((2, b.n))
    score = G._score.compiled()(know, prob, offsets, b.mines, DEFAULT.max_nodes, logz, c, -1.0, 0, 0.05, scratch)[0]
    after = G._after.compiled()
    prob2 = np.empty(b.n)
    info = np.zeros(2)
    flagged = int((know[c + offsets] == K.KNOWN_MINE).sum())
    closed = int((know[c + offsets] == K.UNKNOWN).sum())
    p_free = p_zero = proved = 0.0
    values = 0
    for v in range(flagged, flagged + closed + 1):
        know[c] = v
        if b.probs(know, offsets, b.mines, prob2, DEFAULT.max_nodes, info) != 2:
            pv = math.exp(info[0] - logz)
            if pv > 0.0:
                values += 1
                p_free += pv * after(know, prob2)[0]
                p_zero += pv * (v == flagged and closed > 0)
                proved += pv * float(((prob2 == 0.0) & (know == K.UNKNOWN)).sum())
        know[c] = K.UNKNOWN
    off = not (know[c + offsets] >= 0).any()
    zero = G.zero_chance.compiled()(know, prob, offsets, c)
    return [prob[c], zero, float(off), score, p_free, p_zero, proved, float(values)]


class Decision(NamedTuple):
    """A look-ahead guess of a game, before it is played: the live view (copy it to keep it)."""

    game: int
    dens: np.ndarray
    offsets: np.ndarray
    know: np.ndarray
    prob: np.ndarray
    logz: float
    pick: int


def decisions(b: Board, rule: str, games: int, seed: int, won: dict[int, bool] | None = None) -> Iterator[Decision]:
    """Every look-ahead guess of games 0..games-1 as the solver plays them; each game's result
    goes to ``won`` when it ends."""
    guess = P.guess_kernel.compiled()
    for i in range(games):
        board = generate(b.rows, b.cols, b.mines, click=b.click, first_click=rule, rng=np.random.default_rng([seed, i]))  # type: ignore[arg-type]
        dens, offsets, _ = _padded(board)
        know = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(CLOSED)).astype(np.int8)
        prob = np.empty(b.n)
        info = np.zeros(2)
        chosen = np.zeros(3)
        st = b.play(dens, know, offsets, b.first, b.proofs)
        while st == 0:
            b.probs(know, offsets, b.mines, prob, DEFAULT.max_nodes, info)
            g = int(guess(know, prob, offsets, b.width, b.rows, b.mines, b.policy, info, chosen))
            if int(chosen[1]) == P.BY_LOOKAHEAD:
                yield Decision(i, dens, offsets, know, prob, float(info[0]), g)
            st = b.play(dens, know, offsets, g, b.proofs)
        if won is not None:
            won[i] = st == 1


def collect(
    rule: str, games: int, seed: int, margin: float, most: int, inner: int
) -> list[tuple[int, float, np.ndarray]]:
    """Every look-ahead decision of games 0..games-1: (game, share of the safe cells open, candidates)."""
    b = Board(rule)
    out: list[tuple[int, float, np.ndarray]] = []
    for d in decisions(b, rule, games, seed):
        safe_cells = int(((d.dens >= 0) & (d.dens != K.MINE)).sum())
        cells = candidates(d.know, d.prob, d.offsets, margin, most, inner)
        if d.pick not in cells:
            cells.append(d.pick)
        rows = []
        for c in cells:
            won = b.play(d.dens, d.know.copy(), d.offsets, c, b.policy) == 1
            rows.append([*describe(b, d.know, d.prob, d.offsets, d.logz, c), float(c == d.pick), float(won)])
        out.append((d.game, float((d.know >= 0).sum()) / safe_cells, np.array(rows)))
    return out


Rule = Callable[[np.ndarray, float], np.ndarray]


def by(*keys: np.ndarray) -> np.ndarray:
    """The candidates' keys, most important first, each higher-is-better (for :func:`pick`)."""
    return np.column_stack(keys)


def pick(keys: np.ndarray, a: np.ndarray) -> int:
    """The candidate a rule chooses: its keys in order (equal to 9 digits count as a tie), then
    the solver's own order: the safer, the better chance of a zero, the first listed."""
    cols = [np.round(keys[:, k], 9) for k in range(keys.shape[1])]
    cols += [-np.round(a[:, PROB], 12), np.round(a[:, ZERO], 12)]
    return int(np.lexsort([-np.arange(len(a)), *cols[::-1]])[-1])


def _in_first(a: np.ndarray, most: int, off: int) -> np.ndarray:
    """1 for the first ``most`` candidates with at most ``off`` off the frontier, else 0."""
    keep = np.zeros(len(a))
    n = k = 0
    for j in range(len(a)):
        if a[j, OFF] and k >= off:
            continue
        k += int(a[j, OFF])
        keep[j] = 1
        n += 1
        if n >= most:
            break
    return keep


#: Rules to score: the keys each gives the candidates (see :func:`pick`).
RULES: dict[str, Rule] = {
    "safest": lambda a, ph: by(-a[:, PROB]),
    "one-ply score (dead cells not passed over)": lambda a, ph: by(a[:, SCORE]),
    "score over 8, at most 4 off the frontier": lambda a, ph: by(_in_first(a, 8, 4), a[:, SCORE]),
    "score over the frontier and the safest": lambda a, ph: by(
        1 - a[:, OFF] * (a[:, PROB] > a[:, PROB].min()), a[:, SCORE]
    ),
    "score + 0.05 x shows a zero": lambda a, ph: by(a[:, SCORE] + 0.05 * a[:, SHOWS0]),
    "score - 0.05 x proves a move without a zero": lambda a, ph: by(a[:, SCORE] - 0.05 * (a[:, FREE] - a[:, SHOWS0])),
    "score + 0.02 x cells proved (at most 5)": lambda a, ph: by(a[:, SCORE] + 0.02 * np.minimum(a[:, PROVED], 5)),
    "score, ties by more values": lambda a, ph: by(a[:, SCORE], -a[:, PROB], a[:, VALUES]),
    "score, ties by the chance of a proof": lambda a, ph: by(a[:, SCORE], -a[:, PROB], a[:, FREE]),
}


def features(a: np.ndarray, phase: float) -> np.ndarray:
    """The linear fit's features of each candidate (some also times the share open)."""
    safe = 1 - a[:, PROB]
    cols = [a[:, SCORE], safe, a[:, SHOWS0], a[:, FREE], np.minimum(a[:, PROVED], 8) / 8, a[:, OFF], a[:, ZERO]]
    return np.column_stack(
        [*cols, a[:, VALUES] / 9, a[:, SCORE] * phase, safe * phase, a[:, FREE] * phase, a[:, OFF] * phase]
    )


def paired(decisions: list[tuple[int, float, np.ndarray]], rule: Rule) -> tuple[float, float, int]:
    """The rule's picks against the solver's: mean difference of outcomes, 95% half-width, decisions that differ."""
    d = np.array([a[pick(rule(a, ph), a), WON] - a[a[:, PICK] == 1][0, WON] for _, ph, a in decisions])
    return float(d.mean()), float(1.96 * d.std(ddof=1) / math.sqrt(len(d))), int((d != 0).sum())


def fit(decisions: list[tuple[int, float, np.ndarray]]) -> np.ndarray:
    """Least squares of the outcome on the features, each decision's means removed."""
    xs, ys = [], []
    for _, ph, a in decisions:
        f = features(a, ph)
        xs.append(f - f.mean(0))
        ys.append(a[:, WON] - a[:, WON].mean())
    x, y = np.vstack(xs), np.concatenate(ys)
    return np.linalg.solve(x.T @ x + 1e-3 * np.eye(x.shape[1]), x.T @ y)


def report(decisions: list[tuple[int, float, np.ndarray]], with_fit: bool) -> None:
    picks = np.array([a[a[:, PICK] == 1][0, WON] for _, _, a in decisions])
    print(f"{len(decisions)} look-ahead decisions; the solver's picks go on to win {100 * picks.mean():.2f}%")
    for name, rule in RULES.items():
        m, h, k = paired(decisions, rule)
        print(f"  {name:46s} {100 * m:+.3f} +- {100 * h:.3f} points a decision ({k} differ)")
    if with_fit:
        for part in (0, 1):
            train = [d for d in decisions if d[0] % 2 == part]
            test = [d for d in decisions if d[0] % 2 != part]
            w = fit(train)
            m, h, k = paired(test, lambda a, ph, w=w: by(features(a, ph) @ w))
            half = "even odd".split()[part]
            print(f"  linear fit on {half} games, held out  {100 * m:+.3f} +- {100 * h:.3f} ({k} differ)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play games and record every look-ahead decision's candidates")
    c.add_argument("--rule", default="safe", choices=["safe", "zero"])
    c.add_argument("--games", type=int, default=1000)
    c.add_argument("--seed", type=int, default=555)
    c.add_argument("--margin", type=float, default=0.05)
    c.add_argument("--candidates", type=int, default=12)
    c.add_argument("--inner", type=int, default=4, help="at most this many candidates off the frontier")
    c.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("rules", help="score the rules on recorded decisions")
    r.add_argument("files", type=Path, nargs="+")
    r.add_argument("--fit", action="store_true")
    args = p.parse_args(argv)
    if args.cmd == "collect":
        warm_up()
        got = collect(args.rule, args.games, args.seed, args.margin, args.candidates, args.inner)
        args.out.write_bytes(pickle.dumps(got))
        print(f"{len(got)} decisions in {args.games} games -> {args.out}")
    else:
        decisions = [d for f in args.files for d in pickle.loads(f.read_bytes())]
        report(decisions, args.fit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
