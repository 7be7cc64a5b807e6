"""Corrals: PI-corral pruning (only the pushes into the smallest corral whose fence can only
be pushed inwards) and the corral-deadlock test (a small search of a corral's boxes alone).

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import njit
from ..._deadlock_kernels import blocked_kernel, frozen_kernel
from ..._padded_kernels import flood_min_kernel
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
    floor,
    goalm,
    dead,
    off,
    zbox,
    zpl,
    boxat,
    cells,
    mark,
    stamp,
    pushed,
    player,
    player_low,
    limit,
    maxb,
    grow,
    cs,
):
    """True when a corral next to the box on ``pushed`` is a deadlock.

    A *corral* is a region of free floor the player cannot reach (``mark !=
    stamp``), fenced by walls and boxes. Its boxes ``B`` are those next to its
    cells, and with ``grow`` > 0 the boxes next to those, layer by layer (while
    ``B`` keeps at most ``maxb`` boxes); the corrals next to the boxes beside
    ``pushed`` are then checked as well. Every solution, looked at through the
    pushes of ``B`` alone with all other boxes taken away (for any set ``B``),
    is a way to put ``B`` on goals: so when no sequence
    of pushes of ``B`` alone (other boxes removed) reaches a position with all
    of ``B`` on goals, the state is dead. A small breadth-first search of at
    most ``limit`` positions looks for such a sequence; it gives up (no
    deadlock claimed) as soon as the player can step into the corral, when
    all of ``B`` stand on goals, at the limit, or when ``B`` has more than
    ``maxb`` boxes. Children are pruned by dead squares and freeze deadlocks
    among ``B``. Results are cached by the positions of ``B``, the corral and
    the player's region with ``B`` alone, and looked up first by the least
    cell of the player's region in the whole position (which tells that
    region without a flood).

    ``cs`` is a :class:`~.state.CorralScratch` (see :func:`~..directions.corral_scratch`);
    ``player`` is any cell of the player's region, ``player_low`` its least cell.
    """
    (clab, cgen, bst, blist, sboxat, smark, qb, qp, vb, vp, vtab, vgen, scells, fz2, ckey, cval, cstat, cq) = cs
    qcap = qp.shape[0]
    tmask = vtab.shape[0] - 1
    cmask = ckey.shape[0] - 1
    base = cgen[0]
    # the corrals next to the pushed box and, when B grows, next to the boxes beside it
    # (a push that pins a fence box in place can close a corral it does not touch)
    for e0 in range(20 if grow > 0 else 4):
        src = pushed
        if e0 >= 4:
            src = pushed + off[(e0 >> 2) - 1]
            if boxat[src] < 0:
                continue
        x0 = src + off[e0 & 3]
        if floor[x0] == 0 or boxat[x0] >= 0 or mark[x0] == stamp or clab[x0] > base:
            continue
        # the corral around x0 and its boxes
        cgen[0] += 1
        lc = cgen[0]
        clab[x0] = lc
        cq[0] = x0
        head = 0
        tail = 1
        nbb = 0
        low_c = x0
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
        if nbb > maxb:
            continue
        all_on_goals = True
        for t in range(nbb):
            if goalm[blist[t]] == 0:
                all_on_goals = False
        if all_on_goals:
            continue
        # ``grow`` layers of the boxes next to B join it (as long as B stays within ``maxb``):
        # a box that holds a fence box in place makes the test stronger, and any set of
        # boxes gives a sound test
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
                nbb = hi
                break
            lo = hi
        # sort B
        for t in range(1, nbb):
            x = blist[t]
            s = t
            while s > 0 and blist[s - 1] > x:
                blist[s] = blist[s - 1]
                s -= 1
            blist[s] = x
        cstat[0] += 1
        bkey = zpl[low_c] << 1
        for t in range(nbb):
            bkey ^= zbox[blist[t]]
        # first by the least cell of the player's region in the whole position: with B it tells
        # the region with B alone (the one holding it), so that a position seen before with the
        # same B, corral and least cell needs no flood (the verdict is stored under both keys)
        fkey = bkey ^ (zpl[player_low] << 2) ^ QUICK_KEY
        fslot = fkey & cmask
        if ckey[fslot] == fkey:
            cstat[1] += 1
            if cval[fslot] != 0:
                cstat[2] += 1
                return True
            continue
        # the player's region with B alone, for the cache key
        for t in range(nbb):
            sboxat[blist[t]] = t
        cgen[0] += 1
        low_p = flood_min_kernel(floor, sboxat, off, player, cgen[0], smark, cq)
        for t in range(nbb):
            sboxat[blist[t]] = -1
        key = bkey ^ zpl[low_p]
        slot = key & cmask
        if ckey[slot] == key:
            cstat[1] += 1
            ckey[fslot] = fkey
            cval[fslot] = cval[slot]
            if cval[slot] != 0:
                cstat[2] += 1
                return True
            continue
        # breadth-first search of the pushes of B alone
        cgen[0] += 1
        gen = cgen[0]
        for t in range(nbb):
            qb[0, t] = blist[t]
        qp[0] = player
        qhead = 0
        qtail = 1
        nexp = 0
        dead_end = True
        while qhead < qtail and dead_end:
            for t in range(nbb):
                scells[t] = qb[qhead, t]
                sboxat[scells[t]] = t
            pl = qp[qhead]
            qhead += 1
            # the player's region; reaching a corral cell opens the corral
            cgen[0] += 1
            ms = cgen[0]
            smark[pl] = ms
            cq[0] = pl
            head = 0
            tail = 1
            low = pl
            while head < tail and dead_end:
                u = cq[head]
                head += 1
                for d in range(4):
                    w = u + off[d]
                    if floor[w] != 0 and sboxat[w] < 0 and smark[w] != ms:
                        if clab[w] == lc:
                            dead_end = False
                            break
                        smark[w] = ms
                        cq[tail] = w
                        tail += 1
                        if w < low:
                            low = w
            seen = False
            if dead_end:
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
                            seen = True
                            break
                    pos = (pos + 1) & tmask
                if not seen:
                    if nexp >= limit or nexp >= vp.shape[0]:
                        dead_end = False
                    else:
                        for t in range(nbb):
                            vb[nexp, t] = scells[t]
                        vp[nexp] = low
                        vtab[pos] = nexp
                        vgen[pos] = gen
                        nexp += 1
            if dead_end and not seen:
                for t in range(nbb):
                    c = scells[t]
                    for d in range(4):
                        behind = c - off[d]
                        to = c + off[d]
                        if smark[behind] != ms or floor[to] == 0 or sboxat[to] >= 0 or dead[to] != 0:
                            continue
                        sboxat[c] = -1
                        sboxat[to] = t
                        scells[t] = to
                        done = True
                        for s in range(nbb):
                            if goalm[scells[s]] == 0:
                                done = False
                                break
                        alive = True
                        if done:
                            dead_end = False
                        else:
                            if blocked_kernel(floor, sboxat, dead, off, to) and frozen_kernel(
                                scells[:nbb], sboxat, floor, dead, goalm, off, fz2
                            ):
                                alive = False
                        if alive and dead_end:
                            if qtail >= qcap:
                                dead_end = False
                            else:
                                # the child, sorted
                                s = 0
                                for r in range(nbb):
                                    if r != t:
                                        qb[qtail, s] = scells[r]
                                        s += 1
                                # insert ``to`` into the sorted others
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
                            break
                    if not dead_end:
                        break
            for t in range(nbb):
                sboxat[scells[t]] = -1
        ckey[fslot] = fkey
        cval[fslot] = 1 if dead_end else 0
        ckey[slot] = key
        cval[slot] = 1 if dead_end else 0
        if dead_end:
            cstat[2] += 1
            return True
    return False
