"""What a level's searches compute once: goal areas and their packing orders, the tunnels
between rooms, the influence table, the dead pairs, the Zobrist keys.

:class:`Prepared` holds them for one level, each computed on first use, so that the searches of
a portfolio share them; :func:`goal_areas`, :func:`tunnels` and :func:`influence_table` are the
pieces, each a function of the level alone.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..pairs import PairTable, dead_pairs
from ..problem import Problem
from .kernels.packing import take_out_kernel, take_out_scratch
from .kernels.relevance import influence_kernel

__all__ = ["INFLUENCE_CELLS", "GoalAreas", "Prepared", "goal_areas", "influence_table", "tunnels", "ways_in"]


class GoalAreas(NamedTuple):
    """Goal areas and their packing orders: ``garea[x]`` the area of cell ``x`` (-1 outside any
    area with an order), ``forder[fstart[a]:fstart[a + 1]]`` area ``a``'s goals in filling order."""

    garea: NDArray[np.int32]
    forder: NDArray[np.int64]
    fstart: NDArray[np.int64]


#: The areas of a level that has none.
NO_AREAS = GoalAreas(np.full(1, -1, dtype=np.int32), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))


class Prepared:
    """A level and what its searches compute once, each part on first use.

    >>> from mazekit.sokoban import parse_level
    >>> from mazekit.sokoban.problem import as_problem
    >>> p = Prepared(as_problem(parse_level("########\\n#@$$ ..#\\n#      #\\n########")))
    >>> p.areas().forder.size, p.goal_regions()  # two goals side by side: one area; one region
    (2, [22])
    """

    def __init__(self, problem: Problem, *, areas: GoalAreas | None = None) -> None:
        """``areas``: goal areas and orders to search with instead of :func:`goal_areas`' (a
        probe's, say)."""
        self.problem = problem
        ncells = problem.height * problem.width
        rng = np.random.default_rng(0x5EED)
        #: Zobrist keys of a box and of the normalised player on each cell.
        self.zbox = rng.integers(0, 1 << 62, size=ncells, dtype=np.int64)
        self.zpl = rng.integers(0, 1 << 62, size=ncells, dtype=np.int64)
        self._areas: GoalAreas | None = areas
        self._tunnels: NDArray[np.int32] | None = None
        self._influence: tuple[NDArray[np.uint8] | None] | None = None
        self._goal_regions: list[int] | None = None

    def areas(self, deadline: float = math.inf) -> GoalAreas:
        """:func:`goal_areas`, within ``deadline`` the first time (later calls get the same)."""
        if self._areas is None:
            self._areas = goal_areas(self.problem, deadline=deadline)
        return self._areas

    def tunnels(self) -> NDArray[np.int32]:
        """:func:`tunnels`."""
        if self._tunnels is None:
            self._tunnels = tunnels(self.problem)
        return self._tunnels

    def influence(self) -> NDArray[np.uint8] | None:
        """:func:`influence_table` (None for a level too large)."""
        if self._influence is None:
            self._influence = (influence_table(self.problem),)
        return self._influence[0]

    def goal_regions(self) -> list[int]:
        """One cell of each player region around the filled goals: the backward roots."""
        if self._goal_regions is None:
            self._goal_regions = self.problem.regions(self.problem.goals)
        return self._goal_regions

    def dead_pairs(self, deadline: float = math.inf) -> PairTable | None:
        """The level's dead pairs (:func:`mazekit.sokoban.pairs.dead_pairs`; None when given up)."""
        return dead_pairs(self.problem, deadline)

    def reach_pairs(self, deadline: float = math.inf) -> PairTable | None:
        """The pairs the start can lead to (None when given up)."""
        return dead_pairs(self.problem, deadline, reach=True)


def goal_areas(prob: Problem, max_goals: int = 64, deadline: float = math.inf) -> GoalAreas:
    """Goal areas and their packing orders (:class:`GoalAreas`).

    A goal area is a 4-connected group of goal cells (at least two, at most
    ``max_goals``). Its packing order comes from the finished area backwards:
    over and over, the box with the fewest pulls out of the area (the player
    anywhere free, the other boxes outside ignored) is taken out, to a cell
    boxes come in from (see :func:`_packing_order`); the reversed sequence is an
    order in which the goals can be filled. ``garea`` is the
    area of each cell (-1 outside any area with an order), ``forder[fstart[a]:
    fstart[a + 1]]`` area ``a``'s goals in filling order.

    The orders cost a compiled flood per pull tried (:mod:`.kernels.packing`); once
    ``time.perf_counter()`` passes ``deadline`` the areas not yet ordered are left without one
    (the search then runs without their packing advice), so that preparing never outlasts the
    search's time limit.
    """
    garea = np.full(prob.floor.shape[0], -1, dtype=np.int32)
    goals = {int(g) for g in prob.goals}
    seen: set[int] = set()
    orders: list[list[int]] = []
    for g0 in sorted(goals):
        if g0 in seen:
            continue
        comp = {g0}
        todo = [g0]
        while todo:
            x = todo.pop()
            for d in range(4):
                y = x + int(prob.off[d])
                if y in goals and y not in comp:
                    comp.add(y)
                    todo.append(y)
        seen |= comp
        if not 2 <= len(comp) <= max_goals:
            continue
        try:
            taken = _packing_order(prob, comp, deadline)
        except _OutOfTime:
            break
        if taken is None:
            continue
        for x in comp:
            garea[x] = len(orders)
        orders.append(taken)
    fstart = np.zeros(len(orders) + 1, dtype=np.int64)
    for a, o in enumerate(orders):
        fstart[a + 1] = fstart[a] + len(o)
    forder = np.array([x for o in orders for x in o], dtype=np.int64)
    return GoalAreas(garea, forder, fstart)


def _packing_order(prob: Problem, comp: set[int], deadline: float) -> list[int] | None:
    """The filling order of the goal area ``comp`` (see :func:`goal_areas`); None if it has none.

    Over and over, the box that comes out of the area in the fewest pulls (the other boxes of
    the area in place, the player anywhere free: :func:`~.kernels.packing.take_out_kernel`) is
    taken out; the reversed sequence is the order. A box is taken out to a cell that boxes of
    the start can reach without crossing the area (:func:`ways_in`): an entrance that only the
    area itself leads to is not a way in, so the goals are filled from those the boxes come in
    by. When no order takes every box out that way, any cell outside the area will do.

    Raises :class:`_OutOfTime` once ``time.perf_counter()`` passes ``deadline``.
    """
    ncells = prob.floor.shape[0]
    area = np.zeros(ncells, dtype=np.uint8)
    area[sorted(comp)] = 1
    outside = _outside(prob, area)
    way_in = ways_in(prob, area, outside)
    taken = _take_out_order(prob, comp, area, way_in, deadline)
    if taken is None and not np.array_equal(way_in, outside):
        taken = _take_out_order(prob, comp, area, outside, deadline)
    return taken


def _outside(prob: Problem, area: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The floor cells outside the goal area ``area``, as a mask."""
    outside: NDArray[np.uint8] = ((prob.floor != 0) & (area == 0)).astype(np.uint8)
    return outside


def ways_in(prob: Problem, area: NDArray[np.uint8], outside: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """The cells outside the goal area ``area`` that a box of the start can be pushed to without
    crossing the area (the player's access and the other boxes ignored): where boxes come in
    from. When no box starts outside the area, ``outside`` itself (every floor cell outside the
    area; computed when not given)."""
    if outside is None:
        outside = _outside(prob, area)
    starts = [int(b) for b in prob.boxes if outside[b]]
    if not starts:
        return outside
    seen: NDArray[np.uint8] = np.zeros(prob.floor.shape[0], dtype=np.uint8)
    seen[starts] = 1
    todo = starts
    off = [int(d) for d in prob.off]
    while todo:
        x = todo.pop()
        for d in off:
            y = x + d
            if outside[y] and prob.floor[x - d] != 0 and not prob.dead[y] and not seen[y]:
                seen[y] = 1
                todo.append(y)
    return seen


def _take_out_order(
    prob: Problem, comp: set[int], area: NDArray[np.uint8], way_in: NDArray[np.uint8], deadline: float
) -> list[int] | None:
    """The packing order of :func:`_packing_order`, every box taken out to a cell of ``way_in``."""
    ncells = prob.floor.shape[0]
    occ = area.copy()  # the boxes still in the area
    work = take_out_scratch(ncells)
    kernel = take_out_kernel.pick(ncells * len(comp))
    boxes = set(comp)
    taken: list[int] = []
    while boxes:
        best: tuple[int, int] | None = None
        for b in sorted(boxes):
            if time.perf_counter() > deadline:
                raise _OutOfTime
            occ[b] = 0  # the others stay where they are
            n = int(kernel(prob.floor, prob.off, occ, b, area, way_in, *work))
            occ[b] = 1
            if n >= 0 and (best is None or n < best[0]):
                best = (n, b)
                if n == 1:  # no box comes out in fewer: the first found is the one taken
                    break
        if best is None:
            return None
        taken.append(best[1])
        boxes.remove(best[1])
        occ[best[1]] = 0
    return taken[::-1]


class _OutOfTime(Exception):
    """The deadline of a preparation step passed."""


def tunnels(prob: Problem) -> NDArray[np.int32]:
    """Each cell's tunnel between rooms, -1 outside one (Festival's room connectivity).

    A passage cell is a floor cell with walls on both sides along one axis (a doorway or a
    corridor one cell wide); a room, a group of floor cells 4-connected without passage
    cells; a tunnel, a group of passage cells 4-connected that touches two rooms or more.
    Passages that lead into one room only (dead ends, loops back) are not tunnels: a box
    there cuts no room off another.
    """
    floor, off = prob.floor, [int(d) for d in prob.off]
    ncells = floor.shape[0]
    cells = np.flatnonzero(floor)
    passage = np.zeros(ncells, dtype=bool)
    for x in (int(c) for c in cells):
        walls = [floor[x + d] == 0 for d in off]  # off: the four directions, opposites paired
        passage[x] = (walls[0] and walls[1]) or (walls[2] and walls[3])

    def groups(inside: NDArray[np.bool_]) -> NDArray[np.int32]:
        label = np.full(ncells, -1, dtype=np.int32)
        n = 0
        for x0 in (int(c) for c in cells):
            if not inside[x0] or label[x0] >= 0:
                continue
            label[x0] = n
            todo = [x0]
            while todo:
                x = todo.pop()
                for d in off:
                    y = x + d
                    if floor[y] != 0 and inside[y] and label[y] < 0:
                        label[y] = n
                        todo.append(y)
            n += 1
        return label

    room = groups((floor != 0) & ~passage)
    group = groups(passage)
    touches: dict[int, set[int]] = {}
    for x in (int(c) for c in np.flatnonzero(passage)):
        for d in off:
            if room[x + d] >= 0:
                touches.setdefault(int(group[x]), set()).add(int(room[x + d]))
    out = np.full(ncells, -1, dtype=np.int32)
    for t, g in enumerate(sorted(g for g, rooms in touches.items() if len(rooms) >= 2)):
        out[group == g] = t
    return out


#: The most cells (padded) a level may have for the relevance cuts' influence table (a byte a pair).
INFLUENCE_CELLS = 4096


def influence_table(prob: Problem) -> NDArray[np.uint8] | None:
    """The influence distance between every two floor cells of a level (after Rolling Stone's
    influence; see :class:`Relevance`): ``table[x, y]`` the cheapest walk over the floor from
    ``x`` to ``y`` where entering a corridor cell (floor on two opposite sides only) costs 0, a
    cell with three or four floor neighbours 2 (room to go round) and any other 1; at most 255,
    255 off the floor. None for a level of more than :data:`INFLUENCE_CELLS` cells (padded).

    >>> from mazekit.sokoban import parse_level
    >>> from mazekit.sokoban.problem import as_problem
    >>> prob = as_problem(parse_level("#######\\n#@ $ .#\\n#######"))
    >>> t = influence_table(prob)
    >>> a, b = np.flatnonzero(prob.floor)[[0, -1]]  # the corridor's ends: dead ends, costing 1
    >>> int(t[a, b]), int(t[b, a]), int(t[a, a])    # the corridor between them costs nothing
    (1, 1, 0)
    """
    ncells = prob.height * prob.width
    if ncells > INFLUENCE_CELLS:
        return None
    floor, off = prob.floor, prob.off
    cells = np.flatnonzero(floor)
    near = [floor[cells + d] != 0 for d in off]  # off: the four directions, opposites paired
    count = sum(n.astype(np.int64) for n in near)
    corridor = (count == 2) & ((near[0] & near[1]) | (near[2] & near[3]))
    cost = np.zeros(ncells, dtype=np.int64)
    cost[cells] = np.where(corridor, 0, np.where(count >= 3, 2, 1))
    table = np.full((ncells, ncells), 255, dtype=np.uint8)
    work = [np.empty(ncells, dtype=np.int64) for _ in range(3)]
    influence_kernel.pick(ncells * ncells)(floor, off, cost, table, *work)
    return table
