"""The node store: the pool and its open-addressing table, the open list's binary heap
(:mod:`mazekit._heap`) and the feature cells' skew heaps, and the kernels that put a node in and take one out.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

import numpy as np

from ...._heap import heap_pop, heap_push
from ...._jit import step
from .features import improves_kernel
from .state import (
    C_BEST_H,
    C_CAP,
    C_CURSOR,
    C_GENERATED,
    C_HEAP,
    C_MEET,
    C_NODES,
    C_OPEN,
    C_SOLUTION,
    KEY_SHIFT,
    MEMORY,
    RUNNING,
    SOLVED,
)


@step
def is_goal_kernel(s, h, player):  # type: ignore[no-untyped-def]
    """True for a solved position: bound 0 and, backward, the player in the goal region."""
    return h == 0 and (s.backward == 0 or player == s.goal_player)


@step
def initial_key_kernel(s, h):  # type: ignore[no-untyped-def]
    """The key of a root of bound ``h``."""
    if s.optimal != 0:
        return (np.int64(h) << KEY_SHIFT) | h
    return (np.int64(s.weight * h) << KEY_SHIFT) | h


@step
def solved_kernel(ctr, node, meet):  # type: ignore[no-untyped-def]
    """Record the solution's node (and the other direction's node it met, -1 none)."""
    ctr[C_SOLUTION] = node
    ctr[C_MEET] = meet
    return SOLVED


@step
def heap_push_kernel(heap, size, key, node):  # type: ignore[no-untyped-def]
    """Push ``(key, node)`` on the open list's heap (an int64 :mod:`mazekit._heap` heap without
    ties) of ``size`` entries; return the new size."""
    heap_push(heap, size, key, 0, 0, node)
    return size + 1


@step
def heap_pop_kernel(heap, size):  # type: ignore[no-untyped-def]
    """Remove the smallest entry of a heap of ``size >= 1``; return ``(key, node)``."""
    top_key = heap[0, 0]
    return top_key, heap_pop(heap, size)


# The feature cells' open lists are skew heaps threaded through the node pool, not mazekit._heap:
# hundreds of cells each need a heap of its own size, which the pool's two child links give for 16
# bytes a node; array heaps in segments of one arena were no faster, needed up to four entries of
# 16 bytes a node, and broke ties in another order (benchmarks/notes/2026-12-06-one-heap.md).
@step
def meld_kernel(a, b, mch, mkey):  # type: ignore[no-untyped-def]
    """Meld two skew heaps of nodes (roots ``a``, ``b``, -1 empty; children in
    ``mch[2 * node]`` and ``mch[2 * node + 1]``, keys in ``mkey``); return the root."""
    if a < 0:
        return b
    if b < 0:
        return a
    if mkey[b] < mkey[a]:
        a, b = b, a
    root = a
    while True:
        # mkey[a] <= mkey[b]: meld b into a's right subtree, then swap a's children
        r = mch[2 * a + 1]
        mch[2 * a + 1] = mch[2 * a]
        if r < 0:
            mch[2 * a] = b
            return root
        if mkey[b] < mkey[r]:
            mch[2 * a] = b
            a = b
            b = r
        else:
            mch[2 * a] = r
            a = r


@step
def cell_push_kernel(croot, cell, node, key, mch, mkey):  # type: ignore[no-untyped-def]
    """Put ``node`` with ``key`` in feature cell ``cell``'s open list."""
    mkey[node] = key
    mch[2 * node] = -1
    mch[2 * node + 1] = -1
    croot[cell] = meld_kernel(croot[cell], node, mch, mkey)


@step
def lookup_kernel(table, phash, pplayer, pboxes, key, cells, player):  # type: ignore[no-untyped-def]
    """Find a state in the table: its node (>= 0), or ``-1 - slot`` of the empty slot to use."""
    mask = table.shape[0] - 1
    pos = key & mask
    nb = cells.shape[0]
    while True:
        e = table[pos]
        if e == 0:
            return -1 - pos
        k = e - 1
        if phash[k] == key and pplayer[k] == player:
            same = True
            for j in range(nb):
                if pboxes[k, j] != cells[j]:
                    same = False
                    break
            if same:
                return k
        pos = (pos + 1) & mask


@step
def store_kernel(pool, ctr, n, parent, player, g, code, key, slot, boxes):  # type: ignore[no-untyped-def]
    """Write node ``n`` (the pool's next) and enter it in the table at ``-1 - slot``."""
    for j in range(boxes.shape[0]):
        pool.boxes[n, j] = boxes[j]
    pool.player[n] = player
    pool.parent[n] = parent
    pool.g[n] = g
    pool.acc[n] = 0
    pool.push[n] = code
    pool.hash[n] = key
    pool.table[-1 - slot] = n + 1
    ctr[C_NODES] = n + 1


@step
def rehash_kernel(table, phash, n):  # type: ignore[no-untyped-def]
    """Insert nodes ``0 .. n-1`` (all distinct states) in an empty ``table``."""
    mask = table.shape[0] - 1
    for k in range(n):
        pos = phash[k] & mask
        while table[pos] != 0:
            pos = (pos + 1) & mask
        table[pos] = k + 1
    return 0


@step
def sort_child_kernel(cells, out, i, to):  # type: ignore[no-untyped-def]
    """``out``: ``cells`` (sorted but for box ``i``, now on ``to``) sorted; box ``i``'s place in it."""
    nb = cells.shape[0]
    for j in range(nb):
        out[j] = cells[j]
    j = i
    while j > 0 and out[j - 1] > to:
        out[j] = out[j - 1]
        j -= 1
    while j < nb - 1 and out[j + 1] < to:
        out[j] = out[j + 1]
        j += 1
    out[j] = to
    return j


@step
def moved_box_kernel(boxes, k, parent):  # type: ignore[no-untyped-def]
    """The cell of node ``k``'s box that is not one of its ``parent``'s (the box the last move
    moved; -1 if none is): both rows of ``boxes`` are sorted, so one merge finds it."""
    j = 0
    nb = boxes.shape[1]
    for i in range(nb):
        c = boxes[k, i]
        while j < nb and boxes[parent, j] < c:
            j += 1
        if j == nb or boxes[parent, j] != c:
            return c
    return -1


@step
def take_kernel(fr, ctr, fess):  # type: ignore[no-untyped-def]
    """Phase 1: remove the next node from the open list; ``(key, node)``, node -1 when empty.

    The feature-space search's cells take turns, each giving its own best state, so a
    plateau of look-alike states in one cell cannot starve the others.
    """
    if fess != 0:
        if ctr[C_OPEN] == 0:
            return np.int64(0), -1
        ncell = fr.croot.shape[0]
        cur = ctr[C_CURSOR]
        while fr.croot[cur] < 0:
            cur = (cur + 1) % ncell
        k = fr.croot[cur]
        top = fr.mkey[k]
        fr.croot[cur] = meld_kernel(fr.mch[2 * k], fr.mch[2 * k + 1], fr.mch, fr.mkey)
        ctr[C_OPEN] -= 1
        ctr[C_CURSOR] = (cur + 1) % ncell
        return top, k
    if ctr[C_HEAP] == 0:
        return np.int64(0), -1
    top, k = heap_pop_kernel(fr.heap, ctr[C_HEAP])
    ctr[C_HEAP] -= 1
    return top, k


@step
def put_back_kernel(fr, ctr, fess, top, k):  # type: ignore[no-untyped-def]
    """Undo :func:`take_kernel` (the node's expansion is redone once there is room)."""
    if fess != 0:
        ncell = fr.croot.shape[0]
        back = (ctr[C_CURSOR] + ncell - 1) % ncell
        cell_push_kernel(fr.croot, back, k, top, fr.mch, fr.mkey)
        ctr[C_OPEN] += 1
        ctr[C_CURSOR] = back
    else:
        ctr[C_HEAP] = heap_push_kernel(fr.heap, ctr[C_HEAP], top, k)


@step
def reopen_kernel(pool, fr, ctr, node, parent, g, h, code):  # type: ignore[no-untyped-def]
    """A*: ``node`` reached by a shorter way (``g`` pushes, from ``parent``) goes back on the heap."""
    if ctr[C_HEAP] >= fr.heap.shape[1] - 1:
        return MEMORY
    pool.g[node] = g
    pool.parent[node] = parent
    pool.push[node] = code
    ctr[C_HEAP] = heap_push_kernel(fr.heap, ctr[C_HEAP], (np.int64(g + h) << KEY_SHIFT) | h, node)
    return RUNNING


@step
def insert_kernel(pool, fr, ctr, s, k, slot, pl, g, h, code, key, boxes, met, away, pcell, cell):  # type: ignore[no-untyped-def]
    """Phase 5: store the child of ``k`` (sorted ``boxes``, player ``pl``, bound ``h``) in the
    table at ``-1 - slot``, stop when it is the other direction's node ``met`` (>= 0) or
    (fast mode) a goal, else score it and open it; a status code.

    The key is ``weight * (h + penalty) + g``, the penalty ``player_penalty`` when a
    backward position's player cannot reach the goal region (``away``: the last pulls
    would need the player elsewhere); A*'s is ``g + h``. In the feature-space search
    the node goes to its feature cell's heap (``cell``), and with ``move_weight`` its key
    grows by that weight times the pushes on its way that improved no feature (one that
    improves a feature over the parent's cell ``pcell`` is free, as an advisor's move is, and
    with ``box_runs`` a push of the box the parent's move moved on in the same direction:
    ``pcell`` -1), so a cell's shallow states come first.
    """
    n = ctr[C_NODES]
    if n >= ctr[C_CAP] or ctr[C_HEAP] >= fr.heap.shape[1] - 1:
        return MEMORY
    store_kernel(pool, ctr, n, k, pl, g, code, key, slot, boxes)
    ctr[C_GENERATED] += 1
    if h < ctr[C_BEST_H]:
        ctr[C_BEST_H] = h
    if met >= 0:
        return solved_kernel(ctr, n, met)
    if s.optimal != 0:
        ctr[C_HEAP] = heap_push_kernel(fr.heap, ctr[C_HEAP], (np.int64(g + h) << KEY_SHIFT) | h, n)
        return RUNNING
    if is_goal_kernel(s, h, pl):
        return solved_kernel(ctr, n, -1)
    pen = s.player_penalty if away else 0
    hk = (np.int64(s.weight * (h + pen) + g) << KEY_SHIFT) | h
    if s.fess == 0:
        ctr[C_HEAP] = heap_push_kernel(fr.heap, ctr[C_HEAP], hk, n)
        return RUNNING
    if s.move_weight > 0:
        free = pcell < 0 or improves_kernel(pcell, cell)
        pool.acc[n] = pool.acc[k] + (0 if free else 1)
        hk += np.int64(s.move_weight * pool.acc[n]) << KEY_SHIFT
    cell_push_kernel(fr.croot, cell, n, hk, fr.mch, fr.mkey)
    ctr[C_OPEN] += 1
    return RUNNING
