"""Where the Minesweeper solver loses its games: the guess that lost each one, by phase and rule.

    python benchmarks/probes/mines_losses.py --rule safe --games 1500 --seed 100

Plays games 0..N-1 of expert (the boards of `benchmarks/mines_paired.py`: seed (S, i)) with the
solver's default options, one move at a time through the same compiled kernels as
`solve_kernel` (so the outcomes are the benchmark's), and records every guess: the rule that
chose it (coin flip, end game, look-ahead, safest), its mine probability, the share of the safe
cells open when it was made, and where the cell lies (off the frontier, in a frontier region
joined to cells off it, or in an isolated region: closed cells that only each other and open
cells touch). Prints the lost games grouped by phase (early: under 5% of the safe cells open,
end: 95% or more), rule, risk and place.
"""

from __future__ import annotations

import argparse
import collections
import sys

import numpy as np

from mazekit.minesweeper import _kernels as K
from mazekit.minesweeper import _play_kernels as P
from mazekit.minesweeper.bench import first_click_cell
from mazekit.minesweeper.board import LEVELS, _padded, generate
from mazekit.minesweeper.solver import DEFAULT, RULES, _buffers

PLACES = ("off the frontier", "joined region", "isolated region")


def place(know: np.ndarray, offsets: np.ndarray, g: int) -> int:
    """0: ``g`` touches no open cell; 1: its region (closed cells linked by touching or by a
    shared number) reaches a cell off the frontier; 2: it does not (an isolated region)."""

    def front(u: int) -> bool:
        return bool((know[u + offsets] >= 0).any())

    if not front(g):
        return 0
    seen, stack = {g}, [g]
    while stack:
        u = stack.pop()
        for w in u + offsets:
            near = [w] if know[w] == K.UNKNOWN else (list(w + offsets) if know[w] >= 0 else [])
            for x in near:
                if know[x] != K.UNKNOWN or x in seen:
                    continue
                if not front(x):
                    return 1
                seen.add(x)
                stack.append(x)
    return 2


def play(rule: str, i: int, seed: int) -> tuple[bool, list[tuple[str, float, float, int]]]:
    """Game ``i``: won or not, and each guess (rule, mine probability, share open, place)."""
    rows, cols, mines = LEVELS["expert"]
    click = first_click_cell("expert", rule)  # type: ignore[arg-type]
    board = generate(rows, cols, mines, click=click, first_click=rule, rng=np.random.default_rng([seed, i]))  # type: ignore[arg-type]
    dens, offsets, width = _padded(board)
    know = np.where(dens == K.BORDER, np.int8(K.BORDER), np.int8(-1)).astype(np.int8)
    queue, safe, mark, prob = _buffers(know.shape[0])
    policy = DEFAULT.policy()
    reveal = K.reveal_kernel.compiled()
    total_safe = int(((dens >= 0) & (dens != K.MINE)).sum())
    opened = reveal(dens, know, offsets, (click[0] + 1) * width + click[1] + 1, queue)
    info, out = np.zeros(2), np.zeros(3)
    guesses: list[tuple[str, float, float, int]] = []
    while opened < total_safe:
        ns, nm = K.simple_kernel.compiled()(know, offsets, width, safe, mark)
        for j in range(ns):
            opened += reveal(dens, know, offsets, safe[j], queue)
        if ns or nm:
            continue
        K.probability_kernel.compiled()(know, offsets, mines, prob, policy.max_nodes, info)
        closed = know == K.UNKNOWN
        proved = np.flatnonzero(closed & ((prob == 0.0) | (prob == 1.0)))
        if proved.size:
            for j in proved:
                if prob[j] == 0.0:
                    opened += reveal(dens, know, offsets, j, queue)
                else:
                    know[j] = K.KNOWN_MINE
            continue
        g = int(P.guess_kernel.compiled()(know, prob, offsets, width, rows, mines, policy, info, out))
        guesses.append((RULES[int(out[1])], float(prob[g]), opened / total_safe, place(know, offsets, g)))
        if dens[g] == K.MINE:
            return False, guesses
        opened += reveal(dens, know, offsets, g, queue)
    return True, guesses


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rule", default="safe", choices=["safe", "zero"])
    p.add_argument("--games", type=int, default=1500)
    p.add_argument("--seed", type=int, default=100)
    args = p.parse_args()
    wins = 0
    losses: collections.Counter[tuple[str, str, str, str]] = collections.Counter()
    for i in range(args.games):
        won, guesses = play(args.rule, i, args.seed)
        wins += won
        if not won:
            rule, p_mine, share, where = guesses[-1]
            phase = "early" if share < 0.05 else ("end" if share >= 0.95 else "mid")
            risk = "coin flip" if abs(p_mine - 0.5) < 1e-9 else ("p >= 0.4" if p_mine >= 0.4 else "p < 0.4")
            losses[(phase, rule, risk, PLACES[where])] += 1
    print(f"expert {args.rule}, seed {args.seed}: {wins} of {args.games} won; the losing guesses:")
    print("| phase | rule | risk | place | games |\n|---|---|---|---|---:|")
    for (phase, rule, risk, where), n in sorted(losses.items()):
        print(f"| {phase} | {rule} | {risk} | {where} | {n} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
