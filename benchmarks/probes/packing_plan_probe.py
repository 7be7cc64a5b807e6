"""A packing-plan search, as a probe (not part of the solver): how far does filling the goals in
packing order, one small search per goal, get on a level?

``python benchmarks/packing_plan_probe.py --set xsokoban --levels 1-6,24 --limit 60 \\
    --nodes 20000 --blockers 4``

Each goal area is filled in the packing order of :func:`mazekit.sokoban.solver.prepare.goal_areas` (a
lone goal is an area of its own). For the next goal of each area a small best-first search of pushes
(any box not yet packed may move; dead squares, freeze deadlocks and dead pairs pruned) looks for a
position with a box on that goal (key: pushes so far plus ``--weight`` times the guide); the guide
is the nearest box's lone-box pushes to the goal plus ``--blockers`` pushes for each box on that
lone box's way (the cells it crosses and the player's behind it). A depth-first search backtracks
over the two cheapest end positions of each small search. Plain Python over the solver's compiled
kernels: slow, a way to see where the idea stops (``benchmarks/RESULTS.md``, session 17), not a
solver. Every plan found is replayed by the engine.
"""

from __future__ import annotations

import argparse
import heapq
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_sokoban import set_levels  # noqa: E402
from portfolio_members import _pick  # noqa: E402

from mazekit.sokoban import replay  # noqa: E402
from mazekit.sokoban._deadlock_kernels import blocked_kernel  # noqa: E402
from mazekit.sokoban._pair_kernels import pair_dead_kernel  # noqa: E402
from mazekit.sokoban.pairs import dead_pairs  # noqa: E402
from mazekit.sokoban.problem import Problem  # noqa: E402
from mazekit.sokoban.solver.kernels.freeze import frozen_after_kernel, frozen_goals_cache  # noqa: E402
from mazekit.sokoban.solver.prepare import goal_areas  # noqa: E402
from mazekit.sokoban.solver.rebuild import lurd_of  # noqa: E402

Push = tuple[int, int]  # (box cell, flat step)
End = tuple[list[Push], frozenset[int], int]  # (pushes, boxes, player)


class Probe:
    """One level's tables and the two searches."""

    def __init__(self, prob: Problem, nodes: int, blockers: int, weight: int) -> None:
        self.prob, self.nodes, self.blockers, self.weight = prob, nodes, blockers, weight
        self.off = [int(o) for o in prob.off]
        _, forder, fstart = goal_areas(prob)
        self.orders = [[int(x) for x in forder[fstart[a] : fstart[a + 1]]] for a in range(len(fstart) - 1)]
        covered = {g for o in self.orders for g in o}
        self.orders += [[int(g)] for g in prob.goals if int(g) not in covered]
        self.gidx = {int(g): k for k, g in enumerate(prob.goals)}
        self.pairs = dead_pairs(prob)
        self.boxat = np.full(prob.floor.shape[0], -1, dtype=np.int64)
        self.fz = np.zeros(len(prob.boxes), dtype=np.uint8)
        self.queue = np.empty(prob.floor.shape[0], dtype=np.int64)
        self.fg = frozen_goals_cache(len(prob.boxes), len(prob.goals), prob.floor.shape[0])
        self.searches = 0
        self.packed = 0

    def dead(self, boxes: frozenset[int], moved: int, player: int) -> bool:
        """A freeze deadlock or a dead pair after the push that put a box on ``moved``."""
        p = self.prob
        cells = np.array(sorted(boxes), dtype=np.int64)
        self.boxat[:] = -1
        self.boxat[cells] = np.arange(len(cells))
        if blocked_kernel(p.floor, self.boxat, p.dead, p.off, moved) and frozen_after_kernel(
            p.floor, p.dead, p.goalm, p.goals, p.off, self.boxat, cells, self.fz, self.queue, self.fg
        ):
            return True
        if self.pairs is None:
            return False
        alive, lidx, fidx = self.pairs
        return bool(pair_dead_kernel(alive, lidx, fidx, cells, int(self.boxat[moved]), player))

    def guide(self, boxes: frozenset[int], fixed: frozenset[int], dist: Any) -> int:
        """The nearest box's lone-box pushes to the goal, plus ``blockers`` for each box on its way."""
        best = 1 << 30
        for b in boxes:
            if b in fixed or dist[b] < 0:
                continue
            n, x = 0, b
            while dist[x] > 0:
                for o in self.off:
                    if self.prob.floor[x + o] and self.prob.floor[x - o] and dist[x + o] == dist[x] - 1:
                        break
                n += (x + o in boxes) + (x - o in boxes and x - o != b)
                x += o
            best = min(best, int(dist[b]) + self.blockers * n)
        return best

    def to_goal(self, boxes: frozenset[int], player: int, goal: int, fixed: frozenset[int]) -> list[End]:
        """Up to two end positions with a box on ``goal``, cheapest first."""
        self.searches += 1
        dist = self.prob.dist[self.gidx[goal]]
        seen = {(boxes, min(self.prob.region(boxes, player)))}
        heap: list[tuple[int, int, int, frozenset[int], int, list[Push]]] = [
            (self.weight * self.guide(boxes, fixed, dist), 0, 0, boxes, player, [])
        ]
        found: list[End] = []
        tie = expanded = 0
        while heap and expanded < self.nodes and len(found) < 2:
            _, g, _, bs, pl, path = heapq.heappop(heap)
            expanded += 1
            reg = self.prob.region(bs, pl)
            for b in bs - fixed:
                for o in self.off:
                    t = b + o
                    if b - o not in reg or not self.prob.floor[t] or t in bs or self.prob.dead[t]:
                        continue
                    nb = (bs - {b}) | {t}
                    key = (nb, min(self.prob.region(nb, b)))
                    if key in seen or self.dead(nb, t, b):
                        continue
                    seen.add(key)
                    if t == goal:
                        found.append((path + [(b, o)], nb, b))
                        continue
                    tie += 1
                    key2 = g + 1 + self.weight * self.guide(nb, fixed, dist)
                    heapq.heappush(heap, (key2, g + 1, tie, nb, b, path + [(b, o)]))
        return found

    def plan(self, boxes: frozenset[int], player: int, depth: int, deadline: float) -> list[Push] | None:
        """Pushes that fill every goal from here in packing order; None if none found by ``deadline``."""
        self.packed = max(self.packed, depth)
        nexts = []
        for order in self.orders:
            k = 0
            while k < len(order) and order[k] in boxes:
                k += 1
            if k < len(order):
                nexts.append((order[k], order[:k]))
        if not nexts:
            return []
        fixed = frozenset(x for _, prefix in nexts for x in prefix)
        ends: list[End] = []
        for goal, _ in nexts:
            if time.perf_counter() > deadline:
                return None
            ends += self.to_goal(boxes, player, goal, fixed)
        for path, nb, pl in sorted(ends, key=lambda e: len(e[0])):
            if time.perf_counter() > deadline:
                return None
            rest = self.plan(nb, pl, depth + 1, deadline)
            if rest is not None:
                return path + rest
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="xsokoban")
    ap.add_argument("--levels", default=None, help="1-based, like 1-6,24")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds a level")
    ap.add_argument("--nodes", type=int, default=20000, help="positions a small search may expand")
    ap.add_argument("--blockers", type=int, default=4, help="pushes the guide adds for a box in the way")
    ap.add_argument("--weight", type=int, default=3, help="the guide's weight against the pushes so far")
    args = ap.parse_args()
    levels = set_levels(args.set)
    for n in _pick(args.levels, len(levels)):
        level = levels[n - 1]
        prob = Problem.from_level(level)
        t0 = time.perf_counter()
        probe = Probe(prob, args.nodes, args.blockers, args.weight)
        sol = probe.plan(frozenset(int(b) for b in prob.boxes), int(prob.player), 0, t0 + args.limit)
        took = time.perf_counter() - t0
        ok = False
        if sol is not None:
            step = {int(o): d for d, o in enumerate(prob.off)}
            ok = replay(level, lurd_of(prob, [(b, step[o]) for b, o in sol])).solved
        verdict = "solved" if ok else ("WRONG" if sol is not None else "-")
        print(
            f"{args.set} {n:4d} {verdict:7s} {took:6.1f} s  packed {probe.packed}/{len(prob.goals)}"
            f"  small searches {probe.searches}",
            flush=True,
        )


if __name__ == "__main__":
    main()
