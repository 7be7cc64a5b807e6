"""The search's first step in each direction: its roots (the start, or the player's regions
around the filled goals) normalised, deduplicated, bounded and opened.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import step
from ..._padded_kernels import flood_min_kernel
from ..._pair_kernels import pair_dead_kernel
from .bound import hungarian_kernel
from .features import feature_cell_kernel, obstruction_kernel
from .freeze import frozen_after_kernel
from .state import BIG, C_BEST_H, C_HEAP, C_OPEN, C_ROOTS, C_STAMP, RUNNING
from .store import (
    cell_push_kernel,
    heap_push_kernel,
    initial_key_kernel,
    is_goal_kernel,
    lookup_kernel,
    solved_kernel,
    store_kernel,
)


@step
def roots_kernel(board, pool, fr, other, ctr, s, sc, asg, gs):  # type: ignore[no-untyped-def]
    """Normalise, deduplicate and open the roots (the pool's first ``ctr[C_ROOTS]``
    entries, sorted boxes and raw player); SOLVED when one is a goal or met. A root
    with no matching, a dead pair (backward: one the start cannot lead to), or (forward) a
    freeze deadlock already, is not opened: a start
    that is dead from the first push leaves the search nothing, and it stops at once
    as unsolvable instead of searching the other boxes' moves to its time limit."""
    nb = sc.cells.shape[0]
    n = 0
    for r in range(ctr[C_ROOTS]):
        for j in range(nb):
            sc.cells[j] = pool.boxes[r, j]
            sc.boxat[sc.cells[j]] = j
        ctr[C_STAMP] += 1
        pl = flood_min_kernel(board.floor, sc.boxat, board.off, pool.player[r], ctr[C_STAMP], sc.mark, sc.queue)
        frozen = s.backward == 0 and frozen_after_kernel(
            board.floor, board.dead, board.goalm, board.goals, board.off, sc.boxat, sc.cells, sc.fz, sc.queue, sc.fg
        )
        for j in range(nb):
            frozen = frozen or pair_dead_kernel(board.pairs, board.lidx, board.fidx, sc.cells, j, pool.player[r])
        for j in range(nb):
            sc.boxat[sc.cells[j]] = -1
        if frozen:
            continue
        h = hungarian_kernel(sc.cells, board.dist, asg.u, asg.v, asg.p, asg.way, asg.minv, asg.used)
        if h >= BIG:
            continue
        key = board.zpl[pl]
        for j in range(nb):
            key ^= board.zbox[sc.cells[j]]
        found = lookup_kernel(pool.table, pool.hash, pool.player, pool.boxes, key, sc.cells, pl)
        if found >= 0 and found < n:
            continue
        # move root r to slot n (n <= r)
        store_kernel(pool, ctr, n, -1, pl, 0, -1, key, found, sc.cells)
        if h < ctr[C_BEST_H] or n == 0:
            ctr[C_BEST_H] = h
        if is_goal_kernel(s, h, pl):
            return solved_kernel(ctr, n, -1)
        met = lookup_kernel(other.table, other.hash, other.player, other.boxes, key, sc.cells, pl)
        if met >= 0:
            return solved_kernel(ctr, n, met)
        hk = initial_key_kernel(s, h)
        if s.fess != 0:
            for j in range(nb):
                sc.boxat[sc.cells[j]] = j
            nhot = obstruction_kernel(s, board.tunnel, board.goalm, sc.cells)
            cell = feature_cell_kernel(
                board.floor, sc.boxat, board.off, board.goals, board.garea, board.forder, board.fstart, gs.mark,
                gs.stamp, sc.queue, nhot, sc.mark, ctr[C_STAMP], -1,
            )  # fmt: skip
            for j in range(nb):
                sc.boxat[sc.cells[j]] = -1
            cell_push_kernel(fr.croot, cell, n, hk, fr.mch, fr.mkey)
            ctr[C_OPEN] += 1
        else:
            ctr[C_HEAP] = heap_push_kernel(fr.heap, ctr[C_HEAP], hk, n)
        n += 1
    return RUNNING
