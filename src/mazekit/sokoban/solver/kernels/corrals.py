"""Corrals: PI-corral pruning (only the pushes into the smallest corral whose fence can only
be pushed inwards) and the corral-deadlock test (a small search of a corral's boxes alone).

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

import numpy as np

from ...._jit import njit
from ..._padded_kernels import flood_min_kernel
from .freeze import blocked_kernel, frozen_kernel
from .state import QUICK_KEY


@njit
def pi_corral_kernel(floor, goalm, dead, boxat, off, mark, stamp, cells, lab, base, queue, bseen, allow, spare):  # type: ignore[no-untyped-def]
    """Find the PI-corral with the fewest pushes into it; mark those pushes in ``allow``.

    A corral is a region of floor the player cannot reach, fenced by boxes. It
    is a *PI-corral* when every push of a fence box that the player can make
    goes into the corral (I) and every push into the corral can be made now
    (P). Unless the corral is finished (fence boxes on goals, no empty goal in
    it; with ``spare`` 1, more goals than boxes, an empty goal may stay empty, so
    only the fence counts), some push into it must come in every solution, and it
    may as well come now: only those pushes need to be tried. ``lab`` holds component labels
    (values from ``base`` on are this call's). Returns ``2 * components + found``.
    """
    nb = cells.shape[0]
    ncomp = 0
    best_k = -1
    best_n = 1 << 30
    for i in range(nb):
        for d0 in range(4):
            x0 = cells[i] + off[d0]
            if floor[x0] == 0 or boxat[x0] >= 0 or mark[x0] == stamp or lab[x0] >= base:
                continue
            k = base + ncomp
            ncomp += 1
            lab[x0] = k
            queue[0] = x0
            head = 0
            tail = 1
            done = True
            while head < tail:
                x = queue[head]
                head += 1
                if goalm[x] != 0 and spare == 0:
                    done = False
                for d in range(4):
                    y = x + off[d]
                    if floor[y] == 0:
                        continue
                    j = boxat[y]
                    if j >= 0:
                        bseen[j] = k
                    elif lab[y] != k:
                        lab[y] = k
                        queue[tail] = y
                        tail += 1
            ok = True
            n_in = 0
            for j in range(nb):
                if bseen[j] != k:
                    continue
                b = cells[j]
                if goalm[b] == 0:
                    done = False
                for d in range(4):
                    to = b + off[d]
                    behind = b - off[d]
                    if floor[to] == 0 or floor[behind] == 0:
                        continue
                    bb = boxat[behind]
                    if lab[to] == k:
                        # into the corral: must be possible now (a fence box behind moves in first)
                        if bb >= 0:
                            if bseen[bb] != k:
                                ok = False
                        elif mark[behind] != stamp:
                            ok = False
                        else:
                            n_in += 1
                    elif dead[to] == 0:
                        # out of the corral: must never become possible before a push into it
                        tb = boxat[to]
                        if tb >= 0 and bseen[tb] != k:
                            ok = False
                        elif tb < 0 and (bb < 0 and lab[behind] != k or bb >= 0 and bseen[bb] != k):
                            ok = False
                    if not ok:
                        break
                if not ok:
                    break
            if ok and not done and 0 < n_in < best_n:
                best_n = n_in
                best_k = k
    if best_k < 0:
        return 2 * ncomp
    for i in range(nb):
        for d in range(4):
            to = cells[i] + off[d]
            behind = cells[i] - off[d]
            allow[i * 4 + d] = (
                1 if (lab[to] == best_k and floor[to] != 0 and boxat[to] < 0 and floor[behind] != 0) else 0
            )
    return 2 * ncomp + 1


@njit
def corral_deadlock_kernel(  # type: ignore[no-untyped-def]
    floor, goalm, dead, off, zbox, zpl, boxat, cells, mark, stamp, pushed, player, player_low, limit, maxb, grow, cs
):
    """True when a corral next to the box on ``pushed`` is a deadlock.

    A *corral* is a region of free floor the player cannot reach (``mark != stamp``), fenced by
    walls and boxes. Its boxes ``B`` are those next to its cells, and with ``grow`` > 0 the boxes
    next to those, layer by layer (while ``B`` keeps at most ``maxb`` boxes); the corrals next to
    the boxes beside ``pushed`` are then checked as well. Every solution, looked at through the
    pushes of ``B`` alone with all other boxes taken away (for any set ``B``), is a way to put
    ``B`` on goals: so when no sequence of pushes of ``B`` alone reaches a position with all of
    ``B`` on goals, or lets the player into the corral, the state is dead. A small breadth-first
    search of at most ``limit`` positions looks for such a sequence (:func:`corral_search`); it
    gives up (no deadlock claimed) at the limit. Verdicts are cached by the positions of ``B``,
    the corral and the player's region with ``B`` alone, and looked up first by the least cell
    of the player's region in the whole position (which tells that region without a flood).

    ``cs`` is a :class:`~.state.CorralScratch`; ``player`` is any cell of the player's region,
    ``player_low`` its least cell.
    """
    base = cs.cgen[0]
    # the corrals next to the pushed box and, when B grows, next to the boxes beside it
    # (a push that pins a fence box in place can close a corral it does not touch)
    for e0 in range(20 if grow > 0 else 4):
        src = pushed
        if e0 >= 4:
            src = pushed + off[(e0 >> 2) - 1]
            if boxat[src] < 0:
                continue
        x0 = src + off[e0 & 3]
        if floor[x0] == 0 or boxat[x0] >= 0 or mark[x0] == stamp or cs.clab[x0] > base:
            continue
        lc, nbb, low_c = corral_boxes(floor, off, boxat, cells, x0, maxb, cs)
        if nbb > maxb or all_on_goals(goalm, cs.blist, nbb):
            continue
        nbb = grow_fence(off, boxat, cells, lc, nbb, grow, maxb, cs)
        sort_cells(cs.blist, nbb)
        cs.cstat[0] += 1
        bkey = zpl[low_c] << 1
        for t in range(nbb):
            bkey ^= zbox[cs.blist[t]]
        # first by the least cell of the player's region in the whole position: with B it tells
        # the region with B alone (the one holding it), so that a position seen before with the
        # same B, corral and least cell needs no flood (the verdict is stored under both keys)
        fkey = bkey ^ (zpl[player_low] << 2) ^ QUICK_KEY
        verdict = cached(fkey, cs)
        if verdict >= 0:
            cs.cstat[1] += 1
        else:
            key = bkey ^ zpl[region_alone(floor, off, player, nbb, cs)]
            verdict = cached(key, cs)
            if verdict >= 0:
                cs.cstat[1] += 1
                remember(fkey, verdict, cs)
            else:
                verdict = corral_search(floor, goalm, dead, off, zbox, zpl, player, lc, nbb, limit, cs)
                remember(fkey, verdict, cs)
                remember(key, verdict, cs)
        if verdict == 1:
            cs.cstat[2] += 1
            return True
    return False


@njit(inline="always")
def corral_boxes(floor, off, boxat, cells, x0, maxb, cs):  # type: ignore[no-untyped-def]
    """Label the corral around ``x0`` and list its boxes in ``cs.blist`` (at most ``maxb``):
    ``(label, boxes, least cell)``, boxes counted past ``maxb`` when there are more."""
    clab, bst, blist, cq = cs.clab, cs.bst, cs.blist, cs.cq
    cs.cgen[0] += 1
    lc = cs.cgen[0]
    clab[x0] = lc
    cq[0] = x0
    head, tail, nbb, low_c = 0, 1, 0, x0
    while head < tail:
        x = cq[head]
        head += 1
        if x < low_c:
            low_c = x
        for d in range(4):
            y = x + off[d]
            if floor[y] == 0:
                continue
            j = boxat[y]
            if j >= 0:
                if bst[j] != lc:
                    bst[j] = lc
                    if nbb < maxb:
                        blist[nbb] = cells[j]
                    nbb += 1
            elif clab[y] != lc:
                clab[y] = lc
                cq[tail] = y
                tail += 1
    return lc, nbb, low_c


@njit(inline="always")
def all_on_goals(goalm, cells, n):  # type: ignore[no-untyped-def]
    """True when the first ``n`` of ``cells`` all stand on goals."""
    for t in range(n):
        if goalm[cells[t]] == 0:
            return False
    return True


@njit(inline="always")
def grow_fence(off, boxat, cells, lc, nbb, grow, maxb, cs):  # type: ignore[no-untyped-def]
    """``grow`` layers of the boxes next to B join it, as long as B stays within ``maxb`` (a box
    that holds a fence box in place makes the test stronger; any set of boxes gives a sound
    test); B's new size."""
    bst, blist = cs.bst, cs.blist
    lo = 0
    for _ in range(grow):
        hi = nbb
        for t in range(lo, hi):
            for d in range(4):
                j = boxat[blist[t] + off[d]]
                if j >= 0 and bst[j] != lc:
                    bst[j] = lc
                    if nbb < maxb:
                        blist[nbb] = cells[j]
                    nbb += 1
        if nbb > maxb:
            return hi
        lo = hi
    return nbb


@njit(inline="always")
def sort_cells(cells, n):  # type: ignore[no-untyped-def]
    """Sort the first ``n`` of ``cells`` in place (insertion: a few boxes)."""
    for t in range(1, n):
        x = cells[t]
        s = t
        while s > 0 and cells[s - 1] > x:
            cells[s] = cells[s - 1]
            s -= 1
        cells[s] = x


@njit(inline="always")
def cached(key, cs):  # type: ignore[no-untyped-def]
    """The verdict cached under ``key``: 1 dead, 0 not, -1 not cached."""
    slot = key & (cs.ckey.shape[0] - 1)
    if cs.ckey[slot] != key:
        return -1
    return np.int64(cs.cval[slot])


@njit(inline="always")
def remember(key, verdict, cs):  # type: ignore[no-untyped-def]
    """Cache ``verdict`` (1 dead, 0 not) under ``key``."""
    slot = key & (cs.ckey.shape[0] - 1)
    cs.ckey[slot] = key
    cs.cval[slot] = verdict


@njit(inline="always")
def region_alone(floor, off, player, nbb, cs):  # type: ignore[no-untyped-def]
    """The least cell of the player's region with the boxes of B alone on the floor."""
    for t in range(nbb):
        cs.sboxat[cs.blist[t]] = t
    cs.cgen[0] += 1
    low = flood_min_kernel(floor, cs.sboxat, off, player, cs.cgen[0], cs.smark, cs.cq)
    for t in range(nbb):
        cs.sboxat[cs.blist[t]] = -1
    return low


@njit(inline="always")
def corral_search(floor, goalm, dead, off, zbox, zpl, player, lc, nbb, limit, cs):  # type: ignore[no-untyped-def]
    """The breadth-first search of the pushes of B alone (``cs.blist``, the player on
    ``player``): 1 when it neither lets the player into the corral labelled ``lc`` nor puts B
    on goals within ``limit`` positions (a deadlock), else 0."""
    qb, qp, scells, sboxat = cs.qb, cs.qp, cs.scells, cs.sboxat
    cs.cgen[0] += 1
    gen = cs.cgen[0]
    for t in range(nbb):
        qb[0, t] = cs.blist[t]
    qp[0] = player
    qhead, qtail, nexp = 0, 1, 0
    dead_end = True
    while qhead < qtail and dead_end:
        for t in range(nbb):
            scells[t] = qb[qhead, t]
            sboxat[scells[t]] = t
        ms, low, opened = player_region(floor, off, qp[qhead], lc, cs)
        qhead += 1
        if opened:
            dead_end = False
        else:
            pos = visited_slot(zbox, zpl, low, nbb, gen, cs)
            if pos >= 0:
                if nexp >= limit or nexp >= cs.vp.shape[0]:
                    dead_end = False  # the limit: no verdict
                else:
                    record_visit(pos, low, nbb, gen, nexp, cs)
                    nexp += 1
                    qtail, dead_end = push_children(floor, goalm, dead, off, ms, nbb, qtail, cs)
        for t in range(nbb):
            sboxat[scells[t]] = -1
    return 1 if dead_end else 0


@njit(inline="always")
def player_region(floor, off, pl, lc, cs):  # type: ignore[no-untyped-def]
    """Flood the player's region from ``pl`` among B's boxes (``cs.sboxat``): ``(its stamp in
    cs.smark, its least cell, opened)``, opened True (and the flood cut short) when it reaches
    a cell of the corral labelled ``lc``."""
    smark, cq, sboxat, clab = cs.smark, cs.cq, cs.sboxat, cs.clab
    cs.cgen[0] += 1
    ms = cs.cgen[0]
    smark[pl] = ms
    cq[0] = pl
    head, tail, low = 0, 1, pl
    while head < tail:
        u = cq[head]
        head += 1
        for d in range(4):
            w = u + off[d]
            if floor[w] != 0 and sboxat[w] < 0 and smark[w] != ms:
                if clab[w] == lc:
                    return ms, low, True
                smark[w] = ms
                cq[tail] = w
                tail += 1
                if w < low:
                    low = w
    return ms, low, False


@njit(inline="always")
def visited_slot(zbox, zpl, low, nbb, gen, cs):  # type: ignore[no-untyped-def]
    """The free slot of the visited table for B on ``cs.scells`` with the player's least cell
    ``low`` (this search's entries are those of generation ``gen``); -1 when visited already."""
    vb, vp, vtab, vgen, scells = cs.vb, cs.vp, cs.vtab, cs.vgen, cs.scells
    tmask = vtab.shape[0] - 1
    vk = zpl[low]
    for t in range(nbb):
        vk ^= zbox[scells[t]]
    pos = vk & tmask
    while vgen[pos] == gen:
        e = vtab[pos]
        if vp[e] == low:
            same = True
            for t in range(nbb):
                if vb[e, t] != scells[t]:
                    same = False
                    break
            if same:
                return -1
        pos = (pos + 1) & tmask
    return pos


@njit(inline="always")
def record_visit(pos, low, nbb, gen, nexp, cs):  # type: ignore[no-untyped-def]
    """Enter B on ``cs.scells`` with the player's least cell ``low`` as visited entry ``nexp``."""
    for t in range(nbb):
        cs.vb[nexp, t] = cs.scells[t]
    cs.vp[nexp] = low
    cs.vtab[pos] = nexp
    cs.vgen[pos] = gen


@njit(inline="always")
def push_children(floor, goalm, dead, off, ms, nbb, qtail, cs):  # type: ignore[no-untyped-def]
    """Queue the positions one push of B's boxes away (the player's region marked ``ms``), not
    dead by a dead square or a freeze: ``(queue's tail, dead end)``, dead end False when a push
    puts all of B on goals or the queue is full (no verdict then)."""
    qb, qp, scells, sboxat = cs.qb, cs.qp, cs.scells, cs.sboxat
    for t in range(nbb):
        c = scells[t]
        for d in range(4):
            to = c + off[d]
            if cs.smark[c - off[d]] != ms or floor[to] == 0 or sboxat[to] >= 0 or dead[to] != 0:
                continue
            sboxat[c] = -1
            sboxat[to] = t
            scells[t] = to
            dead_end = True
            if all_on_goals(goalm, scells, nbb):
                dead_end = False
            elif not (
                blocked_kernel(floor, sboxat, dead, off, to)
                and frozen_kernel(scells[:nbb], sboxat, floor, dead, goalm, off, cs.fz2)
            ):
                if qtail >= qp.shape[0]:
                    dead_end = False
                else:
                    # the child, sorted: the others in order, ``to`` inserted among them
                    s = 0
                    for r in range(nbb):
                        if r != t:
                            qb[qtail, s] = scells[r]
                            s += 1
                    s = nbb - 1
                    while s > 0 and qb[qtail, s - 1] > to:
                        qb[qtail, s] = qb[qtail, s - 1]
                        s -= 1
                    qb[qtail, s] = to
                    qp[qtail] = c
                    qtail += 1
            sboxat[to] = -1
            sboxat[c] = t
            scells[t] = c
            if not dead_end:
                return qtail, False
    return qtail, True
