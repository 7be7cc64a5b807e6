"""Freeze deadlocks: boxes blocked on both axes by walls or frozen boxes, off a goal, or
leaving the other boxes too few goals they can still reach.

The frozen boxes and the matching are the engine's (:mod:`mazekit.sokoban._deadlock_kernels`);
what is the solver's own is the second half, the frozen boxes on goals as walls, with its cache.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...._jit import step
from ..._deadlock_kernels import frozen_kernel, unmatched_kernel

#: Bytes a search direction's frozen sets may take, their cells and reachable goals (see :class:`FrozenGoals`).
FROZEN_CACHE_BYTES = 16 << 20


#: Frozen sets kept at most.
FROZEN_CACHE_SLOTS = 4096


class FrozenGoals(NamedTuple):
    """The freeze test's cache of the goals each cell can reach with the boxes frozen on goals
    as walls (:func:`frozen_goals_kernel`), by frozen set, and its matching's work arrays.

    Slot ``s`` (of a power of two) holds the set hashed to ``key[s]`` (-1: none): its
    ``count[s]`` cells ``cells[s, :count]`` and, for its ``free[s]`` free goals (in the goals'
    order), ``reach[s, cell]``: a bit a goal, set when a box on ``cell`` can be pushed there.
    ``floor`` is the floor with the set walled in, ``goals`` its free goals and ``inq`` the
    flags of :func:`reach_bits_kernel` while a slot is filled; ``rows`` the free boxes' cells; ``by_goal``,
    ``by_box``, ``via``, ``seen``, ``todo`` the matching's.
    """

    key: Any
    count: Any
    cells: Any
    goals: Any
    free: Any
    reach: Any
    inq: Any
    floor: Any
    rows: Any
    by_goal: Any
    by_box: Any
    via: Any
    seen: Any
    todo: Any


def frozen_goals_cache(nb: int, ng: int, ncells: int, most: int = FROZEN_CACHE_SLOTS) -> FrozenGoals:
    """An empty :class:`FrozenGoals` for ``nb`` boxes, ``ng`` goals and ``ncells`` cells: as
    many slots as :data:`FROZEN_CACHE_BYTES` holds, a power of two, at least one and at most
    ``most``."""
    nbm, ngm, nc = max(nb, 1), max(ng, 1), max(ncells, 1)
    words = (ngm + 63) // 64
    slots = 1
    while 2 * slots <= most and 2 * slots * (nc * words + nbm) * 8 <= FROZEN_CACHE_BYTES:
        slots *= 2
    return FrozenGoals(
        key=np.full(slots, -1, dtype=np.int64),
        count=np.zeros(slots, dtype=np.int64),
        cells=np.zeros((slots, nbm), dtype=np.int64),
        goals=np.zeros(ngm, dtype=np.int64),
        free=np.zeros(slots, dtype=np.int64),
        reach=np.zeros((slots, nc, words), dtype=np.uint64),
        inq=np.zeros(nc, dtype=np.uint8),
        floor=np.zeros(nc, dtype=np.uint8),
        rows=np.zeros(nbm, dtype=np.int64),
        by_goal=np.zeros(ngm, dtype=np.int64),
        by_box=np.zeros(nbm, dtype=np.int64),
        via=np.zeros(ngm, dtype=np.int64),
        seen=np.zeros(ngm, dtype=np.uint8),
        todo=np.zeros(nbm, dtype=np.int64),
    )


@step
def reach_bits_kernel(floor, off, goals, reach, queue, inq):  # type: ignore[no-untyped-def]
    """Set in ``reach[x]`` (all 0 before) the bit of each goal ``goals[g]`` that a box on ``x`` can
    be pushed to (the cells a breadth-first search of pulls from the goal reaches, as in
    :func:`~..._padded_kernels.pull_distances_kernel`, other boxes ignored), for all goals at once:
    a cell's bits pass to every cell a pull leads to, again whenever they grow. ``queue`` (a cell
    each) is a ring of the cells to pass on, ``inq`` their flags (all 0 before and after)."""
    n = floor.shape[0]
    words = reach.shape[1]
    tail = 0
    for g in range(goals.shape[0]):
        x = goals[g]
        reach[x, g >> 6] |= np.uint64(1) << np.uint64(g & 63)
        if inq[x] == 0:
            inq[x] = 1
            queue[tail] = x
            tail += 1
    head = 0
    size = tail
    tail = tail if tail < n else 0
    while size > 0:
        x = queue[head]
        head = head + 1 if head + 1 < n else 0
        size -= 1
        inq[x] = 0
        for d in range(4):
            y = x - off[d]
            if floor[y] == 0 or floor[y - off[d]] == 0:
                continue
            grew = False
            for w in range(words):
                more = reach[x, w] & ~reach[y, w]
                if more != 0:
                    reach[y, w] |= more
                    grew = True
            if grew and inq[y] == 0:
                inq[y] = 1
                queue[tail] = y
                tail = tail + 1 if tail + 1 < n else 0
                size += 1
    return 0


@step
def frozen_goals_kernel(cells, fz, floor, goals, off, queue, fg):  # type: ignore[no-untyped-def]
    """True when the boxes frozen on goals (``fz``) leave no matching for the others.

    Boxes frozen on goals never move again: they are walls. The free boxes
    must still be matched to the free goals on push distances computed with
    those walls (a goal walled in behind a frozen box, as in a dead-end goal
    corridor filled in the wrong order, is lost). Only whether every free box
    can be matched matters, not the matching's cost: :func:`~..._deadlock_kernels.unmatched_kernel`.
    Which goals each cell can reach with a frozen set's walls is kept in ``fg``'s cache
    (:class:`FrozenGoals`, a bit a goal), since a search meets the same sets over and over.
    """
    nb = cells.shape[0]
    nfz = 0
    for j in range(nb):
        if fz[j] != 0:
            nfz += 1
    if nfz == 0 or nfz == nb:
        return False
    fl = fg.floor
    for x in range(floor.shape[0]):  # a copy by slice would need reference counting
        fl[x] = floor[x]
    key = np.int64(nfz)
    for j in range(nb):
        if fz[j] != 0:
            fl[cells[j]] = 0
            key ^= (np.int64(cells[j]) + 1) * np.int64(2654435761)  # Knuth's multiplier: no overflow below 2**32 cells
    slot = key & (fg.key.shape[0] - 1)
    hit = fg.key[slot] == key and fg.count[slot] == nfz
    for t in range(nfz if hit else 0):
        if fl[fg.cells[slot, t]] != 0:  # the same hash, another set
            hit = False
            break
    if not hit:
        t = 0
        for j in range(nb):
            if fz[j] != 0:
                fg.cells[slot, t] = cells[j]
                t += 1
        m = 0
        for k in range(goals.shape[0]):
            if fl[goals[k]] != 0:
                fg.goals[m] = goals[k]
                m += 1
        reach = fg.reach[slot]
        reach[:] = 0
        reach_bits_kernel(fl, off, fg.goals[:m], reach, queue, fg.inq)
        fg.key[slot] = key
        fg.count[slot] = nfz
        fg.free[slot] = m
    n = 0
    for j in range(nb):
        if fz[j] == 0:
            fg.rows[n] = cells[j]
            n += 1
    rows, m = fg.rows[:n], fg.free[slot]
    return unmatched_kernel(rows, fg.reach[slot], m, fg.by_goal, fg.by_box, fg.via, fg.seen, fg.todo) > 0


@step
def frozen_after_kernel(floor, dead, goalm, goals, off, boxat, cells, fz, queue, fg):  # type: ignore[no-untyped-def]
    """Phase 4: True when the position is a freeze deadlock: frozen boxes off goals, or
    frozen boxes that leave the others too few reachable goals (tested when the box just
    pushed is blocked on both axes)."""
    if frozen_kernel(cells, boxat, floor, dead, goalm, off, fz):
        return True
    return frozen_goals_kernel(cells, fz, floor, goals, off, queue, fg)
