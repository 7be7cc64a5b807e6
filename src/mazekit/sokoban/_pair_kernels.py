"""Dead pairs: every position of two boxes alone, the player's region included, that can no
longer be solved (forward) or reached from the start (backward), built once per level.

Every kernel works on a padded, flattened level (see :mod:`._padded_kernels`); the table is
built by :func:`mazekit.sokoban.pairs.pair_table`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .._jit import njit, step
from ._padded_kernels import flood_min_kernel

#: ``PairWork.cur``'s entries.
PW_PHASE, PW_HEAD, PW_TAIL, PW_STAMP, PW_ROW = 0, 1, 2, 3, 4


@step
def pair_flood_kernel(floor, boxat, off, a, b, start, stamp, mark, queue):  # type: ignore[no-untyped-def]
    """:func:`flood_min_kernel` with the only boxes on ``a`` and ``b`` (``boxat`` all -1 before and after)."""
    boxat[a] = 0
    boxat[b] = 1
    low = flood_min_kernel(floor, boxat, off, start, stamp, mark, queue)
    boxat[a] = -1
    boxat[b] = -1
    return low


class PairWork(NamedTuple):
    """A pair table in the making (see :func:`pair_table_kernel`).

    The level: ``floor``, ``off``, the live cells ``live`` (``lidx`` their inverse, -1
    elsewhere), the floor cells ``cellof`` (``fidx`` the inverse). The seeds: the cells of
    ``seedm``, the player anywhere (``player`` -1) or on ``player``; ``forward`` 0 pulls, 1
    pushes. The table ``alive[ia, ib, f]``. Scratch: ``boxat`` all -1, ``mark``/``mark2``
    zeroed, ``queue`` a cell each, ``states`` and ``low`` (see the kernel), and ``cur``
    (phase, head, tail, stamp, row), zeroed: where a slice stopped.
    """

    floor: Any
    off: Any
    live: Any
    lidx: Any
    fidx: Any
    cellof: Any
    seedm: Any
    player: Any
    forward: Any
    alive: Any
    boxat: Any
    mark: Any
    mark2: Any
    queue: Any
    states: Any
    low: Any
    cur: Any


@step
def pair_seed_kernel(w):  # type: ignore[no-untyped-def]
    """Phase 1 of :func:`pair_table_kernel`: two boxes on two seed cells, the player in each
    region (or on ``w.player``), as the first states (``alive`` set, ``states`` filled)."""
    m, nf = w.live.shape[0], w.alive.shape[2]
    stamp, tail = 0, 0
    for ia in range(m):
        for ib in range(ia + 1, m):
            a, b = w.live[ia], w.live[ib]
            if w.seedm[a] == 0 or w.seedm[b] == 0:
                continue
            stamp += 1
            for x in range(w.floor.shape[0]):
                if w.player >= 0 and x != w.player:
                    continue
                if w.floor[x] != 0 and x != a and x != b and w.mark[x] != stamp:
                    r = w.fidx[pair_flood_kernel(w.floor, w.boxat, w.off, a, b, x, stamp, w.mark, w.queue)]
                    w.alive[ia, ib, r] = 1
                    w.states[tail] = (ia * m + ib) * nf + r
                    tail += 1
    w.cur[PW_HEAD] = 0
    w.cur[PW_TAIL] = tail
    w.cur[PW_STAMP] = 0


@step
def pair_moves_kernel(w, budget):  # type: ignore[no-untyped-def]
    """Phase 2 of :func:`pair_table_kernel`, ``budget`` states at most: every state a pull
    (``forward`` 0) or a push (``forward`` 1) leads to from one found is found too, breadth
    first. True when no state is left to follow."""
    floor, off, lidx, live, mark, mark2 = w.floor, w.off, w.lidx, w.live, w.mark, w.mark2
    m, nf = live.shape[0], w.alive.shape[2]
    head, tail, stamp = w.cur[PW_HEAD], w.cur[PW_TAIL], w.cur[PW_STAMP]
    end = head + budget
    while head < tail and head < end:
        code = w.states[head]
        head += 1
        ia, ib, r = code // nf // m, code // nf % m, code % nf
        a, b = live[ia], live[ib]
        depth = min(w.alive[ia, ib, r] + 1, 255)  # breadth first: the first visit is the fewest moves
        stamp += 1
        here = stamp
        pair_flood_kernel(floor, w.boxat, off, a, b, w.cellof[r], here, mark, w.queue)
        for side in range(2):
            x, o = (a, b) if side == 0 else (b, a)
            for d in range(4):
                to = x + off[d]  # the box comes to ``to``; the player stands on ``at``, steps to ``pl``
                if w.forward == 0:
                    at, pl, free = to, x + 2 * off[d], x + 2 * off[d]
                else:
                    at, pl, free = x - off[d], x, to
                if mark[at] != here or floor[free] == 0 or free == o or lidx[to] < 0:
                    continue
                na, nb = min(lidx[to], lidx[o]), max(lidx[to], lidx[o])
                stamp += 1
                nr = w.fidx[pair_flood_kernel(floor, w.boxat, off, to, o, pl, stamp, mark2, w.queue)]
                if w.alive[na, nb, nr] == 0:
                    w.alive[na, nb, nr] = depth
                    w.states[tail] = (na * m + nb) * nf + nr
                    tail += 1
    w.cur[PW_HEAD], w.cur[PW_TAIL], w.cur[PW_STAMP] = head, tail, stamp
    return head == tail


@njit
def pair_fill_kernel(w, budget):  # type: ignore[no-untyped-def]
    """Phase 3 of :func:`pair_table_kernel`, rows ``ia`` from ``cur[PW_ROW]`` while fewer than
    ``budget`` pairs are done: each region's answer (at its smallest cell) to its every cell,
    for ``ia < ib`` and then for ``ib, ia``. A region's flood gets its own stamp, whose
    smallest cell ``low`` keeps; the cells are then read in increasing order, so a region's
    smallest cell, whose answer the others copy, comes first and keeps its own. True when
    every row is done."""
    floor, mark, alive, fidx, low = w.floor, w.mark, w.alive, w.fidx, w.low
    m = w.live.shape[0]
    stamp, done = w.cur[PW_STAMP], 0
    ia = w.cur[PW_ROW]
    while ia < m and done < budget:
        for ib in range(ia + 1, m):
            a, b = w.live[ia], w.live[ib]
            first = stamp + 1
            for x in range(floor.shape[0]):
                if floor[x] != 0 and x != a and x != b and mark[x] < first:
                    stamp += 1
                    low[stamp - first] = pair_flood_kernel(floor, w.boxat, w.off, a, b, x, stamp, mark, w.queue)
            for x in range(floor.shape[0]):
                if floor[x] != 0 and x != a and x != b:
                    alive[ia, ib, fidx[x]] = alive[ia, ib, fidx[low[mark[x] - first]]]
            alive[ib, ia, :] = alive[ia, ib, :]
        done += m - ia
        ia += 1
    w.cur[PW_STAMP], w.cur[PW_ROW] = stamp, ia
    return ia == m


@njit
def pair_table_kernel(w, budget):  # type: ignore[no-untyped-def]
    """Build the pair table of ``w`` (a :class:`PairWork`), about ``budget`` states or pairs
    a call; True when it is done (call again with the same ``w`` until then).

    ``alive[ia, ib, f]`` becomes non-zero for the positions of two boxes alone (on ``live[ia]``
    and ``live[ib]``, the player on ``cellof[f]``) that can be pushed onto two goals
    (``forward`` 0, the seeds the goals, the player anywhere) or that two start boxes can be
    pushed to (``forward`` 1, the seeds the start's boxes, the player on the start): 1 plus
    the fewest pushes that takes (at most 255; 1 on the seeds themselves). With
    the floor in ``c`` parts, two boxes leave at most ``c + 6`` regions (a box takes a cell
    of at most four neighbours), so ``low`` holds ``c + 6`` cells and ``states``
    ``(c + 6) * m * m / 2``.

    Every pair of seeds is pulled back (or pushed on), breadth first, to every position it
    can lead to (phase 1 :func:`pair_seed_kernel`, phase 2 :func:`pair_moves_kernel`, a state
    being the two boxes and the player's region by its smallest cell); phase 3
    (:func:`pair_fill_kernel`) copies each region's answer to its every cell. A solution of
    a whole position takes any two of its boxes to goals too (the other boxes' pushes
    become walks once they are gone), so a position with a pair that is not alive is a
    deadlock, and not only a frozen pattern: two boxes that close a pocket the player
    needs are one. Likewise a position the start leads to has each pair of boxes where two
    start boxes alone can be pushed: a pulled position with a pair not alive in the start's
    table is one no solution passes through.
    """
    phase = w.cur[PW_PHASE]
    if phase == 0:
        pair_seed_kernel(w)
        w.mark[:] = 0
        phase = 1
    elif phase == 1 and pair_moves_kernel(w, budget):
        w.mark[:] = 0
        w.cur[PW_STAMP] = 0
        phase = 2
    elif phase == 2 and pair_fill_kernel(w, budget):
        phase = 3
    w.cur[PW_PHASE] = phase
    return phase == 3


@step
def pair_dead_kernel(pairs, lidx, fidx, cells, i, player):  # type: ignore[no-untyped-def]
    """True when box ``i`` and another, with the player on ``player``, are a dead pair
    (see :func:`pair_table_kernel`; ``pairs`` 1 x 1 x 1: no table, never)."""
    if pairs.shape[0] == 1:
        return False
    a = lidx[cells[i]]
    f = fidx[player]
    if a < 0 or f < 0:
        return False
    for j in range(cells.shape[0]):
        b = lidx[cells[j]]
        if j != i and b >= 0 and pairs[a, b, f] == 0:
            return True
    return False
