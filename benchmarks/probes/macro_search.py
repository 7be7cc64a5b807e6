"""A search over whole-box moves (after YASS's packing-order search), as a probe: does a best-first
search whose moves take one box all the way to a goal, or park it as far off as it goes, solve the
corpus's levels of many boxes that the solver misses?

``python benchmarks/probes/macro_search.py --file LEVELS.xsb --limit 10 [--levels 1-5] [--jobs 2]``

A move takes one box, the others standing still, along the fewest pushes a lone-box search finds
(the player walking between pushes): to the next goal of its goal area's packing order
(:func:`mazekit.sokoban.solver.prepare.goal_areas`) or to a goal outside any area (the ``--goal-moves``
nearest it reaches), or, to make
room, to the cell furthest from where it stands. A box on the filled prefix of its area's order
stays. Moves that end on a dead cell or in a freeze deadlock are not made. Positions are taken
fewest unpacked goals first, then fewest moves; each is stored once (its boxes and the player's
region). Plain Python over small compiled kernels: a way to see whether the idea carries, not a
solver. Every solution found is replayed by the engine.
"""

from __future__ import annotations

import argparse
import heapq
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from portfolio_members import _pick  # noqa: E402

from mazekit._jit import njit  # noqa: E402
from mazekit.sokoban import parse_levels, replay  # noqa: E402
from mazekit.sokoban.problem import Problem, as_problem  # noqa: E402
from mazekit.sokoban.solver.kernels.features import packed_kernel  # noqa: E402
from mazekit.sokoban.solver.kernels.freeze import frozen_after_kernel, frozen_goals_cache  # noqa: E402
from mazekit.sokoban.solver.kernels.packing import flood_kernel  # noqa: E402
from mazekit.sokoban.solver.prepare import goal_areas  # noqa: E402
from mazekit.sokoban.solver.rebuild import lurd_of  # noqa: E402


@njit
def _lone_box(floor, dead, off, occ, box, player, dist, parent, mark, stamps, stack, queue):  # type: ignore[no-untyped-def]
    """Breadth-first over (box cell, player side) for the box on ``box``, the other boxes (``occ``)
    still: ``dist[4 * cell + side]`` the fewest pushes (-1: not reached), ``parent`` the state
    before. The player stands on ``cell - off[side]``. Returns the states reached."""
    dist[:] = -1
    occ[box] = 1
    stamps[0] += 1
    flood_kernel(floor, off, occ, -1, player, mark, stamps[0], stack)
    head, tail = 0, 0
    for d in range(4):
        if mark[box - off[d]] == stamps[0]:
            s = 4 * box + d
            dist[s] = 0
            parent[s] = -1
            queue[tail] = s
            tail += 1
    occ[box] = 0
    while head < tail:
        s = queue[head]
        head += 1
        c, d = s // 4, s % 4
        n = c + off[d]
        if floor[n] == 0 or occ[n] != 0 or dead[n] != 0:
            continue
        occ[n] = 1
        stamps[0] += 1
        flood_kernel(floor, off, occ, -1, c, mark, stamps[0], stack)
        occ[n] = 0
        for d2 in range(4):
            t = 4 * n + d2
            if dist[t] < 0 and mark[n - off[d2]] == stamps[0]:
                dist[t] = dist[s] + 1
                parent[t] = s
                queue[tail] = t
                tail += 1
    return tail


class Probe:
    """One level's tables, scratch arrays and the search."""

    def __init__(self, prob: Problem, goal_moves: int = 2) -> None:
        self.prob, self.goal_moves = prob, goal_moves
        n = prob.floor.shape[0]
        self.off = prob.off.astype(np.int64)
        self.floor = prob.floor.astype(np.uint8)
        self.dead = prob.dead.astype(np.uint8)
        self.garea, self.forder, self.fstart = goal_areas(prob)
        self.goalset = {int(g) for g in prob.goals}
        self.occ = np.zeros(n, dtype=np.uint8)
        self.dist = np.empty(4 * n, dtype=np.int64)
        self.parent = np.empty(4 * n, dtype=np.int64)
        self.mark = np.zeros(n, dtype=np.int64)
        self.stamps = np.zeros(1, dtype=np.int64)
        self.stack = np.empty(n, dtype=np.int64)
        self.queue = np.empty(4 * n, dtype=np.int64)
        self.boxat = np.full(n, -1, dtype=np.int64)
        self.fz = np.zeros(len(prob.boxes), dtype=np.uint8)
        self.fq = np.empty(n, dtype=np.int64)
        self.fg = frozen_goals_cache(len(prob.boxes), len(prob.goals), n)
        self.expanded = 0

    def _set(self, boxes: frozenset[int]) -> np.ndarray:
        cells = np.array(sorted(boxes), dtype=np.int64)
        self.boxat[:] = -1
        self.boxat[cells] = np.arange(len(cells))
        return cells

    def packed(self, boxes: frozenset[int]) -> int:
        self._set(boxes)
        return int(packed_kernel(self.boxat, self.prob.goals, self.garea, self.forder, self.fstart))

    def frozen(self, boxes: frozenset[int]) -> bool:
        cells = self._set(boxes)
        p = self.prob
        return bool(
            frozen_after_kernel(p.floor, p.dead, p.goalm, p.goals, p.off, self.boxat, cells, self.fz, self.fq, self.fg)
        )

    def region_key(self, boxes: frozenset[int], player: int) -> int:
        self.occ[:] = 0
        self.occ[list(boxes)] = 1
        self.stamps[0] += 1
        return int(flood_kernel(self.floor, self.off, self.occ, -1, player, self.mark, self.stamps[0], self.stack))

    def targets(self, boxes: frozenset[int]) -> tuple[set[int], set[int]]:
        """The goals a box may go to now, and the boxes that stay (on a filled prefix)."""
        goals: set[int] = {g for g in self.goalset if self.garea[g] < 0 and g not in boxes}
        stay: set[int] = set()
        for a in range(len(self.fstart) - 1):
            order = self.forder[self.fstart[a] : self.fstart[a + 1]]
            k = 0
            while k < len(order) and int(order[k]) in boxes:
                stay.add(int(order[k]))
                k += 1
            if k < len(order):
                goals.add(int(order[k]))
        return goals, stay

    def pushes_to(self, state: int) -> list[tuple[int, int]]:
        """The pushes (box cell, side) that lead to ``state`` of the last lone-box search."""
        out = []
        s = state
        while self.parent[s] >= 0:
            q = int(self.parent[s])
            out.append((q // 4, q % 4))
            s = q
        return out[::-1]

    def moves(self, boxes: frozenset[int], player: int) -> list[tuple[frozenset[int], int, list[tuple[int, int]]]]:
        """Each whole-box move from here: (boxes after, player after, pushes)."""
        goals, stay = self.targets(boxes)
        out = []
        self.occ[:] = 0
        self.occ[list(boxes)] = 1
        for b in sorted(boxes - stay):
            self.occ[b] = 0
            reached = _lone_box(
                self.floor, self.dead, self.off, self.occ, b, player, self.dist, self.parent,
                self.mark, self.stamps, self.stack, self.queue,
            )  # fmt: skip
            best: dict[int, int] = {}  # cell -> the state reaching it in fewest pushes
            for s in self.queue[:reached]:
                c = int(s) // 4
                if c != b and c not in best:
                    best[c] = int(s)
            far = max((c for c in best if c not in self.goalset), key=lambda c: self.dist[best[c]], default=None)
            near = sorted((g for g in best if g in goals), key=lambda g: self.dist[best[g]])[: self.goal_moves]
            for c in near + ([far] if far is not None else []):
                path = self.pushes_to(best[c])
                nb = (boxes - {b}) | {c}
                out.append((nb, path[-1][0], path))
            self.occ[b] = 1
        return out

    def search(self, deadline: float) -> list[tuple[int, int]] | None:
        start = frozenset(int(b) for b in self.prob.boxes)
        pl = int(self.prob.player)
        ngoals = len(self.goalset)
        seen = {(start, self.region_key(start, pl))}
        heap: list[tuple[int, int, int, Any]] = [(ngoals - self.packed(start), 0, 0, (start, pl, None, None))]
        tie = 0
        while heap and time.perf_counter() < deadline:
            _, depth, _, node = heapq.heappop(heap)
            boxes, player = node[0], node[1]
            if all(b in self.goalset for b in boxes):
                pushes: list[tuple[int, int]] = []
                while node[2] is not None:
                    pushes = node[3] + pushes
                    node = node[2]
                return pushes
            self.expanded += 1
            for nb, npl, path in self.moves(boxes, player):
                key = (nb, self.region_key(nb, npl))
                if key in seen or self.frozen(nb):
                    continue
                seen.add(key)
                tie += 1
                heapq.heappush(heap, (ngoals - self.packed(nb), depth + 1, tie, (nb, npl, node, path)))
        return None


def solve_one(args: tuple[str, int, float, int]) -> tuple[bool, float, int]:
    path, n, limit, goal_moves = args
    level = parse_levels(Path(path).read_text())[n - 1]
    prob = as_problem(level)
    t0 = time.perf_counter()
    probe = Probe(prob, goal_moves)
    pushes = probe.search(t0 + limit)
    took = time.perf_counter() - t0
    ok = pushes is not None and replay(level, lurd_of(prob, pushes)).solved
    if pushes is not None and not ok:
        raise SystemExit("a solution that does not replay")
    return ok, took, probe.expanded


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", required=True)
    ap.add_argument("--levels", default=None, help="1-based, like 1-6,24")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds a level")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--goal-moves", type=int, default=2, help="goals outside areas a box may go to, nearest first")
    args = ap.parse_args()
    picks = _pick(args.levels, len(parse_levels(Path(args.file).read_text())))
    work = [(args.file, n, args.limit, args.goal_moves) for n in picks]
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        rows = pool.map(solve_one, work, chunksize=1)
    for n, (ok, took, expanded) in zip(picks, rows, strict=True):
        print(f"{n:4d} {'solved' if ok else '-':7s} {took:6.1f} s  {expanded} positions taken", flush=True)
    print(f"solved {sum(r[0] for r in rows)}/{len(rows)}")


if __name__ == "__main__":
    main()
