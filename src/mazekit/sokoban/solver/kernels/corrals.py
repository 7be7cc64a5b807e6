"""Corrals: PI-corral pruning (only the pushes into the smallest corral whose fence can only
be pushed inwards) and the corral-deadlock test (a small search of a corral's boxes alone).

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import step
from ..._deadlock_kernels import blocked_kernel, frozen_kernel
from ..._padded_kernels import flood_min_kernel
from .state import QUICK_KEY


@step
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


@step
def corral_deadlock_kernel(  # type: ignore[no-untyped-def]
    floor, goalm, dead, off, zbox, zpl, boxat, cells, mark, stamp, pushed, player, player_low, limit, maxb, grow, cs
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
    ``player`` is any cell of the player's region, ``player_low`` its least cell. The steps,
    for each corral: its boxes (:func:`corral_boxes`, :func:`grow_boxes`), the cache
    (:func:`box_key`, :func:`lone_player_low`), the search (:func:`corral_search`); each is
    called a few times a test, with the arrays it reads, unpacked from ``cs`` once a test.
    """
    (clab, cgen, bst, blist, sboxat, smark, qb, qp, vb, vp, vtab, vgen, scells, fz2, ckey, cval, cstat, cq) = cs
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
        lc, nbb, low_c = corral_boxes(x0, maxb, floor, off, boxat, cells, cgen, clab, bst, blist, cq)
        if nbb > maxb or on_goals(blist, nbb, goalm):
            continue
        nbb = grow_boxes(lc, nbb, grow, maxb, off, boxat, cells, bst, blist)
        cstat[0] += 1
        bkey = box_key(zbox, zpl, blist, nbb, low_c)
        # first by the least cell of the player's region in the whole position: with B it tells
        # the region with B alone (the one holding it), so that a position seen before with the
        # same B, corral and least cell needs no flood (the verdict is stored under both keys)
        fkey = bkey ^ (zpl[player_low] << 2) ^ QUICK_KEY
        fslot = fkey & cmask
        if ckey[fslot] == fkey:
            cstat[1] += 1
            verdict = cval[fslot]
        else:
            key = bkey ^ zpl[lone_player_low(player, blist, nbb, floor, off, cgen, sboxat, smark, cq)]
            slot = key & cmask
            hit = ckey[slot] == key
            if hit:
                cstat[1] += 1
                verdict = cval[slot]
            else:
                verdict = corral_search(
                    player, lc, blist, nbb, limit, floor, goalm, dead, off, zbox, zpl, clab, cgen, sboxat, smark,
                    qb, qp, vb, vp, vtab, vgen, scells, fz2, cq,
                )  # fmt: skip
            ckey[fslot] = fkey
            cval[fslot] = verdict
            if not hit:
                ckey[slot] = key
                cval[slot] = verdict
        if verdict != 0:
            cstat[2] += 1
            return True
    return False


@step
def corral_boxes(x0, maxb, floor, off, boxat, cells, cgen, clab, bst, blist, cq):  # type: ignore[no-untyped-def]
    """The corral around ``x0``, labelled with a new label in ``clab``, and its boxes (B, marked
    with that label in ``bst``, their cells in ``blist`` up to ``maxb``): ``(label, boxes, least
    cell of the corral)``."""
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
        low_c = min(low_c, x)
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


@step
def on_goals(cells, n, goalm):  # type: ignore[no-untyped-def]
    """Whether the first ``n`` boxes of ``cells`` all stand on goals."""
    for t in range(n):
        if goalm[cells[t]] == 0:
            return False
    return True


@step
def grow_boxes(lc, nbb, grow, maxb, off, boxat, cells, bst, blist):  # type: ignore[no-untyped-def]
    """B grown by ``grow`` layers of the boxes next to it, as long as it keeps at most ``maxb``
    boxes (a box that holds a fence box in place makes the test stronger, and any set of boxes
    gives a sound test), then sorted; its size."""
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
    for t in range(1, nbb):  # sorted
        x = blist[t]
        s = t
        while s > 0 and blist[s - 1] > x:
            blist[s] = blist[s - 1]
            s -= 1
        blist[s] = x
    return nbb


@step
def box_key(zbox, zpl, blist, nbb, low_c):  # type: ignore[no-untyped-def]
    """The cache's key of B (sorted, ``nbb`` boxes) and its corral (least cell ``low_c``)."""
    bkey = zpl[low_c] << 1
    for t in range(nbb):
        bkey ^= zbox[blist[t]]
    return bkey


@step
def lone_player_low(player, blist, nbb, floor, off, cgen, sboxat, smark, cq):  # type: ignore[no-untyped-def]
    """The least cell of the player's region (from ``player``) with the boxes of B alone."""
    for t in range(nbb):
        sboxat[blist[t]] = t
    cgen[0] += 1
    low_p = flood_min_kernel(floor, sboxat, off, player, cgen[0], smark, cq)
    for t in range(nbb):
        sboxat[blist[t]] = -1
    return low_p


@step
def corral_search(  # type: ignore[no-untyped-def]
    player, lc, blist, nbb, limit, floor, goalm, dead, off, zbox, zpl, clab, cgen, sboxat, smark, qb, qp, vb, vp,
    vtab, vgen, scells, fz2, cq,
):  # fmt: skip
    """The breadth-first search of the pushes of B alone (from ``blist``, the player on
    ``player``): 1 when no position with all of B on goals can be reached (a deadlock); 0 when
    one is, when the player steps into the corral (label ``lc``), or at the limit.

    Each position taken: its player's region (a flood that stops at the corral), seen before or
    not (:func:`visit`), then its children: the pushes of a box of B onto free floor that is not
    dead, unless they freeze boxes off goals. One loop, not more steps: a step handed its arrays
    costs about 2 ns an array a call (the reference counts of the copies numba makes when it
    inlines a call, or the arrays' fields passed one by one when it does not), which per
    position of this search would cost more than the position's own work."""
    qcap = qp.shape[0]
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
        if dead_end:  # seen before, new (then counted), or new past the limit (the search gives up)
            new = visit(scells, nbb, low, gen, nexp, limit, zbox, zpl, vb, vp, vtab, vgen)
            seen = new == 0
            nexp += max(new, 0)
            dead_end = new >= 0
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
    return 1 if dead_end else 0


@step
def visit(scells, nbb, low, gen, nexp, limit, zbox, zpl, vb, vp, vtab, vgen):  # type: ignore[no-untyped-def]
    """Look the position (B on ``scells``, the player's least cell ``low``) up in the table of
    the positions the search visited (generation ``gen``) and add it as the ``nexp``-th when new:
    1 new, 0 seen before, -1 new but past the ``limit`` (the search gives up)."""
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
                return 0
        pos = (pos + 1) & tmask
    if nexp >= limit or nexp >= vp.shape[0]:
        return -1
    for t in range(nbb):
        vb[nexp, t] = scells[t]
    vp[nexp] = low
    vtab[pos] = nexp
    vgen[pos] = gen
    return 1
