"""The compiled loops of the Sokoban solver.

Every kernel works on a *padded, flattened* level: the wrapper adds a wall
border, ravels the grid, and passes ``off`` (int64, the four steps up, down,
left, right as flat offsets), so a neighbour of cell ``u`` is ``u + off[d]`` and
no loop checks bounds.

Conventions:

* ``floor``: uint8, 1 for a cell the player can ever stand on (walls and the
  outside are 0); ``goalm``: uint8, 1 on goals; ``dead``: uint8, 1 on floor cells
  from which no box can ever reach a goal (dead squares);
* ``dist``: int32 ``(goals, cells)``, the number of pushes that bring a lone box
  from a cell to a goal, -1 when it never can;
* a search state is the sorted array of box cells plus the *normalised* player:
  the smallest cell index of the region the player can walk to;
* the node pool holds states by index (``pboxes``, ``pplayer``, ``pparent``,
  ``pg`` pushes so far, ``ppush`` = ``cell * 4 + direction`` of the push that made
  the node, ``phash`` its Zobrist key); ``table`` is an open-addressing hash
  table of ``node + 1`` (0 empty); the open list is a binary heap of
  ``(key, node)`` in ``hkey``/``hnode``.

The search kernel is resumable: it runs at most ``budget`` expansions, keeps
all its state in the arrays and in ``ctr``, and returns a status, so the Python
wrapper can check the clock and Ctrl-C between calls.
"""

from __future__ import annotations

import numpy as np

from ..._jit import njit

#: Cost of an impossible box-to-goal pair in the assignment.
BIG = 1 << 20
#: Larger than any assignment cost.
INF = 1 << 50

# ctr slots
C_NODES = 0
C_HEAP = 1
C_EXPANDED = 2
C_GENERATED = 3
C_STAMP = 4
C_SOLUTION = 5
C_CAP = 6
C_BEST_H = 7
C_LAB = 8
C_PRUNED = 9
C_INIT = 10
C_ROOTS = 11
C_MEET = 12
C_MACROS = 13
C_CURSOR = 14
C_OPEN = 15
C_CORRAL = 16
#: Number of ctr slots.
NCTR = 17
#: Connectivity buckets of the feature-space search (1, 2, 3, 4 or more player regions).
NCONN = 4
#: Out-of-plan buckets of the feature-space search (none, some).
NOOP = 2

# statuses
RUNNING = 0
SOLVED = 1
EXHAUSTED = 2
MEMORY = 3


@njit
def pull_distances_kernel(floor, off, goals, dist, queue):  # type: ignore[no-untyped-def]
    """Fill ``dist[k]`` with push counts from every cell to goal ``goals[k]``.

    A breadth-first search of *pulls* from the goal: a box on ``x`` can have
    come from ``y = x - off[d]`` when ``y`` and ``y - off[d]`` (the player's
    cell) are floor. Other boxes are ignored, so the count is a lower bound.
    """
    for k in range(goals.shape[0]):
        g = goals[k]
        dist[k, g] = 0
        queue[0] = g
        head = 0
        tail = 1
        while head < tail:
            x = queue[head]
            head += 1
            for d in range(4):
                y = x - off[d]
                if floor[y] != 0 and floor[y - off[d]] != 0 and dist[k, y] < 0:
                    dist[k, y] = dist[k, x] + 1
                    queue[tail] = y
                    tail += 1
    return 0


@njit
def push_distances_kernel(floor, off, sources, dist, queue):  # type: ignore[no-untyped-def]
    """Fill ``dist[k]`` with push counts from source ``sources[k]`` to every cell.

    The backward search's distances: a box on ``x`` can be *pulled* back to
    ``sources[k]`` in ``dist[k, x]`` pulls. A breadth-first search of pushes:
    from ``y`` to ``y + off[d]`` when ``y - off[d]`` and ``y + off[d]`` are floor.
    """
    for k in range(sources.shape[0]):
        s0 = sources[k]
        dist[k, s0] = 0
        queue[0] = s0
        head = 0
        tail = 1
        while head < tail:
            y = queue[head]
            head += 1
            for d in range(4):
                x = y + off[d]
                if floor[x] != 0 and floor[y - off[d]] != 0 and dist[k, x] < 0:
                    dist[k, x] = dist[k, y] + 1
                    queue[tail] = x
                    tail += 1
    return 0


@njit
def flood_min_kernel(floor, boxat, off, start, stamp, mark, queue):  # type: ignore[no-untyped-def]
    """Flood the player's region from ``start``; mark it with ``stamp``; return its minimum cell."""
    mark[start] = stamp
    queue[0] = start
    head = 0
    tail = 1
    low = start
    while head < tail:
        u = queue[head]
        head += 1
        for d in range(4):
            w = u + off[d]
            if floor[w] != 0 and boxat[w] < 0 and mark[w] != stamp:
                mark[w] = stamp
                queue[tail] = w
                tail += 1
                if w < low:
                    low = w
    return low


@njit
def augment_kernel(i, cells, dist, u, v, p, way, minv, used):  # type: ignore[no-untyped-def]
    """Add row ``i`` (1-based; box ``cells[i - 1]``) to a partial assignment.

    One shortest augmenting path of the Hungarian method (potentials ``u`` for
    boxes, ``v`` for goals, ``p[j]`` the box assigned to goal ``j``, 1-based, 0
    none). Other rows' potentials must be feasible; row ``i`` may be anything.
    """
    m = v.shape[0] - 1
    for j in range(m + 1):
        minv[j] = INF
        used[j] = 0
    p[0] = i
    u[i] = 0
    j0 = 0
    while True:
        used[j0] = 1
        i0 = p[j0]
        c0 = cells[i0 - 1]
        delta = INF
        j1 = 0
        for j in range(1, m + 1):
            if used[j] == 0:
                dd = dist[j - 1, c0]
                cost = BIG if dd < 0 else dd
                cur = cost - u[i0] - v[j]
                if cur < minv[j]:
                    minv[j] = cur
                    way[j] = j0
                if minv[j] < delta:
                    delta = minv[j]
                    j1 = j
        for j in range(m + 1):
            if used[j] != 0:
                u[p[j]] += delta
                v[j] -= delta
            else:
                minv[j] -= delta
        j0 = j1
        if p[j0] == 0:
            break
    while True:
        j1 = way[j0]
        p[j0] = p[j1]
        j0 = j1
        if j0 == 0:
            break
    return 0


@njit
def assignment_cost_kernel(cells, dist, p):  # type: ignore[no-untyped-def]
    """The cost of the assignment ``p`` (goal -> 1-based box), capped at ``BIG``."""
    total = 0
    for j in range(1, p.shape[0]):
        if p[j] != 0:
            dd = dist[j - 1, cells[p[j] - 1]]
            if dd < 0:
                return BIG
            total += dd
    return total


@njit
def hungarian_kernel(cells, dist, u, v, p, way, minv, used):  # type: ignore[no-untyped-def]
    """Minimum-cost matching of boxes ``cells`` to goals; returns its cost (>= BIG: none)."""
    for j in range(p.shape[0]):
        p[j] = 0
        v[j] = 0
    for i in range(u.shape[0]):
        u[i] = 0
    for i in range(1, cells.shape[0] + 1):
        augment_kernel(i, cells, dist, u, v, p, way, minv, used)
    return assignment_cost_kernel(cells, dist, p)


@njit
def child_bound_kernel(i, cells, dist, u, v, p, u2, v2, p2, way, minv, used):  # type: ignore[no-untyped-def]
    """The matching cost after box ``i`` (1-based) moved, from the parent's solution ``u, v, p``.

    Copies the parent's potentials and assignment, frees row ``i`` and runs one
    augmenting path: O(boxes * goals) instead of a full O(boxes^2 * goals) solve.
    """
    for j in range(u.shape[0]):
        u2[j] = u[j]
    for j in range(v.shape[0]):
        v2[j] = v[j]
        p2[j] = p[j]
        if p2[j] == i:
            p2[j] = 0
    augment_kernel(i, cells, dist, u2, v2, p2, way, minv, used)
    return assignment_cost_kernel(cells, dist, p2)


@njit
def blocked_kernel(floor, boxat, dead, off, c):  # type: ignore[no-untyped-def]
    """True when the box on ``c`` is blocked on both axes (a wall, a box, or two dead squares on each):
    only then can a push have frozen it, so only then is the freeze test worth running."""
    for a in range(0, 4, 2):
        x = c + off[a]
        y = c + off[a + 1]
        if floor[x] != 0 and floor[y] != 0 and boxat[x] < 0 and boxat[y] < 0 and (dead[x] == 0 or dead[y] == 0):
            return False
    return True


@njit
def frozen_kernel(cells, boxat, floor, dead, goalm, off, fz):  # type: ignore[no-untyped-def]
    """True when some box that can never move again stands off a goal (freeze deadlock).

    The greatest fixed point: every box starts frozen; a box thaws when on one
    axis neither neighbour is a wall or a frozen box and the two are not both
    dead squares. The boxes still frozen at the end can never move.
    """
    nb = cells.shape[0]
    for j in range(nb):
        fz[j] = 1
    changed = True
    while changed:
        changed = False
        for j in range(nb):
            if fz[j] == 0:
                continue
            c = cells[j]
            free_axis = False
            for a in range(0, 4, 2):
                x = c + off[a]
                y = c + off[a + 1]
                if floor[x] == 0 or floor[y] == 0:
                    continue
                if dead[x] != 0 and dead[y] != 0:
                    continue
                if boxat[x] >= 0 and fz[boxat[x]] != 0:
                    continue
                if boxat[y] >= 0 and fz[boxat[y]] != 0:
                    continue
                free_axis = True
                break
            if free_axis:
                fz[j] = 0
                changed = True
    for j in range(nb):
        if fz[j] != 0 and goalm[cells[j]] == 0:
            return True
    return False


@njit
def frozen_goals_kernel(cells, fz, floor, goals, off, queue):  # type: ignore[no-untyped-def]
    """True when the boxes frozen on goals (``fz``) leave no matching for the others.

    Boxes frozen on goals never move again: they are walls. The free boxes
    must still be matched to the free goals on push distances computed with
    those walls (a goal walled in behind a frozen box, as in a dead-end goal
    corridor filled in the wrong order, is lost).
    """
    nb = cells.shape[0]
    nfz = 0
    for j in range(nb):
        if fz[j] != 0:
            nfz += 1
    if nfz == 0 or nfz == nb:
        return False
    fl = floor.copy()
    for j in range(nb):
        if fz[j] != 0:
            fl[cells[j]] = 0
    free_goals = np.empty(goals.shape[0], dtype=np.int64)
    m = 0
    for k in range(goals.shape[0]):
        if fl[goals[k]] != 0:
            free_goals[m] = goals[k]
            m += 1
    dist2 = np.full((m, floor.shape[0]), -1, dtype=np.int32)
    pull_distances_kernel(fl, off, free_goals[:m], dist2, queue)
    free_cells = np.empty(nb - nfz, dtype=np.int64)
    n = 0
    for j in range(nb):
        if fz[j] == 0:
            free_cells[n] = cells[j]
            n += 1
    u = np.zeros(n + 1, dtype=np.int64)
    v = np.zeros(m + 1, dtype=np.int64)
    p = np.zeros(m + 1, dtype=np.int64)
    way = np.zeros(m + 1, dtype=np.int64)
    minv = np.zeros(m + 1, dtype=np.int64)
    used = np.zeros(m + 1, dtype=np.uint8)
    return hungarian_kernel(free_cells, dist2, u, v, p, way, minv, used) >= BIG


@njit
def pi_corral_kernel(floor, goalm, dead, boxat, off, mark, stamp, cells, lab, base, queue, bseen, allow):  # type: ignore[no-untyped-def]
    """Find the PI-corral with the fewest pushes into it; mark those pushes in ``allow``.

    A corral is a region of floor the player cannot reach, fenced by boxes. It
    is a *PI-corral* when every push of a fence box that the player can make
    goes into the corral (I) and every push into the corral can be made now
    (P). Unless the corral is finished (fence boxes on goals, no empty goal in
    it), some push into it must come in every solution, and it may as well come
    now: only those pushes need to be tried. ``lab`` holds component labels
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
                if goalm[x] != 0:
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
    among ``B``. Results are cached by the positions of ``B``, the player's
    region and the corral.

    ``cs`` is the scratch tuple built by the wrapper (see ``_corral_scratch``);
    ``player`` is any cell of the player's region.
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
        # the player's region with B alone, for the cache key
        for t in range(nbb):
            sboxat[blist[t]] = t
        cgen[0] += 1
        low_p = flood_min_kernel(floor, sboxat, off, player, cgen[0], smark, cq)
        key = zpl[low_p] ^ (zpl[low_c] << 1)
        for t in range(nbb):
            key ^= zbox[blist[t]]
            sboxat[blist[t]] = -1
        slot = key & cmask
        if ckey[slot] == key:
            cstat[1] += 1
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
        ckey[slot] = key
        cval[slot] = 1 if dead_end else 0
        if dead_end:
            cstat[2] += 1
            return True
    return False


@njit
def goal_macro_kernel(  # type: ignore[no-untyped-def]
    floor,
    dead,
    boxat,
    off,
    garea,
    area,
    start,
    start_pl,
    target,
    vis,
    vstamp,
    qbox,
    qpl,
    qg,
    mark,
    queue,
    out,
    limit,
):
    """Fewest pushes that bring the box on ``start`` to ``target`` inside goal area ``area``
    (anywhere when ``area`` < 0); -1 if none, or if none within ``limit`` states (when > 0).

    A breadth-first search of the lone box's pushes, the other boxes fixed
    (``boxat``; the moving box's own entry is ignored), the box kept on the
    area's cells (``garea == area``), the player starting on ``start_pl``. A
    state is (box cell, side the player pushed from); each needs a flood of the
    player's region. ``vstamp`` is a one-slot stamp counter for ``vis`` and
    ``mark``; ``out[0]`` receives the player's cell after the last push.
    """
    if start == target:
        out[0] = start_pl
        return 0
    saved = boxat[start]
    boxat[start] = -1
    vstamp[0] += 1
    vs = vstamp[0]
    qbox[0] = start
    qpl[0] = start_pl
    qg[0] = 0
    head = 0
    tail = 1
    res = -1
    while head < tail and res < 0 and (limit <= 0 or head < limit):
        b = qbox[head]
        pl = qpl[head]
        gg = qg[head]
        head += 1
        # flood the player's region around the box on b
        vstamp[0] += 1
        ms = vstamp[0]
        boxat[b] = saved
        flood_min_kernel(floor, boxat, off, pl, ms, mark, queue)
        boxat[b] = -1
        for d in range(4):
            behind = b - off[d]
            to = b + off[d]
            if mark[behind] != ms or floor[to] == 0 or boxat[to] >= 0 or dead[to] != 0:
                continue
            if (area >= 0 and garea[to] != area) or vis[to * 4 + d] == vs:
                continue
            vis[to * 4 + d] = vs
            if to == target:
                out[0] = b
                res = gg + 1
                break
            qbox[tail] = to
            qpl[tail] = b
            qg[tail] = gg + 1
            tail += 1
    boxat[start] = saved
    return res


@njit
def prefix_end_kernel(boxat, forder, lo, hi):  # type: ignore[no-untyped-def]
    """The first position in ``forder[lo:hi]`` (a packing order) whose goal holds no box; ``hi`` if all do."""
    t = lo
    while t < hi and boxat[forder[t]] >= 0:
        t += 1
    return t


@njit
def packed_kernel(boxat, goals, garea, forder, fstart):  # type: ignore[no-untyped-def]
    """The packing feature: boxes on goals outside goal areas plus, in each goal
    area, the length of the filled prefix of its packing order."""
    n = 0
    for q in range(goals.shape[0]):
        if garea[goals[q]] < 0 and boxat[goals[q]] >= 0:
            n += 1
    for a in range(fstart.shape[0] - 1):
        n += prefix_end_kernel(boxat, forder, fstart[a], fstart[a + 1]) - fstart[a]
    return n


@njit
def out_of_plan_kernel(boxat, forder, fstart):  # type: ignore[no-untyped-def]
    """The out-of-plan feature: boxes on goal-area goals past the filled prefix of the
    area's packing order (each must leave again before the area can be finished)."""
    n = 0
    for a in range(fstart.shape[0] - 1):
        for q in range(prefix_end_kernel(boxat, forder, fstart[a], fstart[a + 1]) + 1, fstart[a + 1]):
            if boxat[forder[q]] >= 0:
                n += 1
    return n


@njit
def regions_kernel(floor, boxat, off, mark, stamp, queue):  # type: ignore[no-untyped-def]
    """Number of 4-connected regions of free floor (floor without boxes).

    ``stamp`` is a one-slot stamp counter for ``mark``.
    """
    stamp[0] += 1
    s = stamp[0]
    n = 0
    for x0 in range(floor.shape[0]):
        if floor[x0] != 0 and boxat[x0] < 0 and mark[x0] != s:
            n += 1
            flood_min_kernel(floor, boxat, off, x0, s, mark, queue)
    return n


@njit
def improves_kernel(before, after):  # type: ignore[no-untyped-def]
    """Whether feature cell ``after`` (see :func:`feature_cell_kernel`) improves on ``before`` in
    some feature: more packed, fewer out of plan, or fewer regions."""
    return (
        after // (NOOP * NCONN) > before // (NOOP * NCONN)
        or (after // NCONN) % NOOP < (before // NCONN) % NOOP
        or after % NCONN < before % NCONN
    )


@njit
def pack_advice_kernel(  # type: ignore[no-untyped-def]
    boxat,
    cells,
    goals,
    garea,
    forder,
    fstart,
    dist,
    pend,
    pa_box,
    pa_tgt,
):
    """The packing advisor's choices: for each goal area ``a`` whose packing order is unfinished,
    ``pa_tgt[a]`` its next goal and ``pa_box[a]`` the box (index into ``cells``) nearest to that
    goal by ``dist``, boxes on a filled prefix left out (-1 when none can reach it, or when the
    area is finished; ``pend`` is scratch, one slot per area). Returns how many areas got a box."""
    nareas = fstart.shape[0] - 1
    for a in range(nareas):
        pend[a] = prefix_end_kernel(boxat, forder, fstart[a], fstart[a + 1])
    n = 0
    for a in range(nareas):
        pa_box[a] = -1
        if pend[a] == fstart[a + 1]:
            continue
        tgt = forder[pend[a]]
        q = 0
        while goals[q] != tgt:
            q += 1
        bestd = BIG
        for j in range(cells.shape[0]):
            cj = cells[j]
            ga = garea[cj]
            on_prefix = False
            if ga >= 0:
                for t in range(fstart[ga], pend[ga]):
                    if forder[t] == cj:
                        on_prefix = True
            dd = dist[q, cj]
            if not on_prefix and 0 < dd < bestd:
                bestd = dd
                pa_box[a] = j
                pa_tgt[a] = tgt
        if pa_box[a] >= 0:
            n += 1
    return n


@njit
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


@njit
def cell_push_kernel(croot, cell, node, key, mch, mkey):  # type: ignore[no-untyped-def]
    """Put ``node`` with ``key`` in feature cell ``cell``'s open list."""
    mkey[node] = key
    mch[2 * node] = -1
    mch[2 * node + 1] = -1
    croot[cell] = meld_kernel(croot[cell], node, mch, mkey)


@njit
def feature_cell_kernel(floor, boxat, off, goals, garea, forder, fstart, mark, stamp, queue):  # type: ignore[no-untyped-def]
    """The feature-space cell of the position in ``boxat``: packing, out of plan (0 or 1 and more)
    and connectivity (1, 2, 3, 4 and more regions), as ``(packing * NOOP + out) * NCONN + conn``."""
    r = regions_kernel(floor, boxat, off, mark, stamp, queue)
    ooo = out_of_plan_kernel(boxat, forder, fstart)
    return (packed_kernel(boxat, goals, garea, forder, fstart) * NOOP + min(ooo, NOOP - 1)) * NCONN + min(r, NCONN) - 1


@njit
def heap_push_kernel(hkey, hnode, size, key, node):  # type: ignore[no-untyped-def]
    """Push ``(key, node)`` on the heap of ``size`` entries; return the new size."""
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if hkey[parent] <= key:
            break
        hkey[i] = hkey[parent]
        hnode[i] = hnode[parent]
        i = parent
    hkey[i] = key
    hnode[i] = node
    return size + 1


@njit
def heap_pop_kernel(hkey, hnode, size):  # type: ignore[no-untyped-def]
    """Remove the smallest entry of a heap of ``size >= 1``; return ``(key, node)``."""
    top_key = hkey[0]
    top_node = hnode[0]
    size -= 1
    key = hkey[size]
    node = hnode[size]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and hkey[c + 1] < hkey[c]:
            c += 1
        if hkey[c] >= key:
            break
        hkey[i] = hkey[c]
        hnode[i] = hnode[c]
        i = c
    if size > 0:
        hkey[i] = key
        hnode[i] = node
    return top_key, top_node


@njit
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


@njit
def search_kernel(  # type: ignore[no-untyped-def]
    floor,
    goalm,
    goals,
    dead,
    dist,
    off,
    zbox,
    zpl,
    pboxes,
    pplayer,
    pparent,
    pg,
    ppush,
    phash,
    table,
    hkey,
    hnode,
    ctr,
    optimal,
    weight,
    budget,
    boxat,
    mark,
    mark2,
    queue,
    cells,
    sorted_cells,
    u,
    v,
    p,
    way,
    minv,
    used,
    u2,
    v2,
    p2,
    fz,
    lab,
    bseen,
    allow,
    use_corrals,
    backward,
    goal_player,
    otable,
    ophash,
    opplayer,
    opboxes,
    macros,
    fess,
    mch,
    mkey,
    croot,
    garea,
    forder,
    fstart,
    gvis,
    gstamp,
    gqbox,
    gqpl,
    gqg,
    gmark,
    gout,
    climit,
    cmaxb,
    cgrow,
    cs,
    ppen,
    pacc,
    cacc,
    pam,
):
    """Best-first search of pushes (or pulls); see the module notes. Returns a status code.

    ``optimal`` != 0: A* on ``g + h`` (h the minimum-cost matching, admissible
    and consistent), the goal tested when a node is taken from the heap, so the
    solution has the fewest pushes. Otherwise the key is ``weight * h + g`` and
    the goal is tested when a node is generated.

    ``backward`` != 0: the search *pulls* boxes from the goals towards the
    start (``dead`` and ``dist`` then refer to the start's box cells), and a
    goal also needs the player's region to be ``goal_player``'s; a state whose
    player cannot reach ``goal_player``'s cell gets ``ppen`` added to its bound
    in the key (fast mode). With ``fess`` and ``cacc`` > 0, ``pacc`` counts the pushes on the
    way to each state that improved no feature (packing, out of plan, connectivity; as in
    FESS, a push that improves one costs nothing, like an advisor's move), and ``cacc`` times
    that count is added to the key, so a cell's shallow states come first. With ``fess`` and
    ``pam`` > 0 (the packing advisor), each expansion also pushes, for each goal area whose
    packing order is unfinished, the box nearest to the area's next goal all the way there
    when a lone-box search of at most ``pam`` (box cell, side) states finds the way (a goal
    macro move). The roots are the first ``ctr[C_ROOTS]`` entries of the pool (sorted boxes,
    raw player).
    Every new state is looked up in the other direction's table (``otable``
    ...; a table of size 1 holding 0 is empty): a hit ends the search with
    ``ctr[C_MEET]`` the other search's node.
    """
    nb = cells.shape[0]
    nareas = fstart.shape[0] - 1
    pa_box = np.full(max(nareas, 1), -1, dtype=np.int64)
    pa_tgt = np.full(max(nareas, 1), -1, dtype=np.int64)
    pa_end = np.empty(max(nareas, 1), dtype=np.int64)
    cap = ctr[C_CAP]
    hcap = hkey.shape[0]
    shift = 20
    hmask = (1 << shift) - 1
    if ctr[C_INIT] == 0:
        ctr[C_INIT] = 1
        nroots = ctr[C_ROOTS]
        n = 0
        for r in range(nroots):
            for j in range(nb):
                cells[j] = pboxes[r, j]
                boxat[cells[j]] = j
            ctr[C_STAMP] += 1
            pl = flood_min_kernel(floor, boxat, off, pplayer[r], ctr[C_STAMP], mark, queue)
            for j in range(nb):
                boxat[cells[j]] = -1
            h = hungarian_kernel(cells, dist, u, v, p, way, minv, used)
            if h >= BIG:
                continue
            key = zpl[pl]
            for j in range(nb):
                key ^= zbox[cells[j]]
            found = lookup_kernel(table, phash, pplayer, pboxes, key, cells, pl)
            if found >= 0 and found < n:
                continue
            # move root r to slot n (n <= r)
            for j in range(nb):
                pboxes[n, j] = cells[j]
            pplayer[n] = pl
            pparent[n] = -1
            pg[n] = 0
            pacc[n] = 0
            ppush[n] = -1
            phash[n] = key
            table[-1 - found] = n + 1
            ctr[C_NODES] = n + 1
            if h < ctr[C_BEST_H] or n == 0:
                ctr[C_BEST_H] = h
            if h == 0 and (backward == 0 or pl == goal_player):
                ctr[C_SOLUTION] = n
                ctr[C_MEET] = -1
                return SOLVED
            met = lookup_kernel(otable, ophash, opplayer, opboxes, key, cells, pl)
            if met >= 0:
                ctr[C_SOLUTION] = n
                ctr[C_MEET] = met
                return SOLVED
            if optimal != 0:
                hk = (np.int64(h) << shift) | h
            else:
                hk = (np.int64(weight * h) << shift) | h
            if fess != 0:
                for j in range(nb):
                    boxat[cells[j]] = j
                cell = feature_cell_kernel(floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue)
                for j in range(nb):
                    boxat[cells[j]] = -1
                cell_push_kernel(croot, cell, n, hk, mch, mkey)
                ctr[C_OPEN] += 1
            else:
                ctr[C_HEAP] = heap_push_kernel(hkey, hnode, ctr[C_HEAP], hk, n)
            n += 1
    for _ in range(budget):
        if fess != 0:
            # feature-space search: the feature cells take turns, each giving its best state
            if ctr[C_OPEN] == 0:
                return EXHAUSTED
            cur = ctr[C_CURSOR]
            while croot[cur] < 0:
                cur = (cur + 1) % croot.shape[0]
            k = croot[cur]
            top = mkey[k]
            croot[cur] = meld_kernel(mch[2 * k], mch[2 * k + 1], mch, mkey)
            ctr[C_OPEN] -= 1
            ctr[C_CURSOR] = (cur + 1) % croot.shape[0]
        else:
            if ctr[C_HEAP] == 0:
                return EXHAUSTED
            top, k = heap_pop_kernel(hkey, hnode, ctr[C_HEAP])
            ctr[C_HEAP] -= 1
        hk_h = top & hmask
        g = pg[k]
        if optimal != 0:
            if (top >> shift) - hk_h != g:
                continue  # stale entry: a shorter way to this node was found
            if hk_h == 0 and (backward == 0 or pplayer[k] == goal_player):
                ctr[C_SOLUTION] = k
                ctr[C_MEET] = -1
                return SOLVED
        ctr[C_EXPANDED] += 1
        for j in range(nb):
            cells[j] = pboxes[k, j]
            boxat[cells[j]] = j
        ctr[C_STAMP] += 1
        stamp = ctr[C_STAMP]
        flood_min_kernel(floor, boxat, off, pplayer[k], stamp, mark, queue)
        hungarian_kernel(cells, dist, u, v, p, way, minv, used)
        parent_key = phash[k] ^ zpl[pplayer[k]]
        pcell = 0
        if fess != 0 and cacc > 0:
            pcell = feature_cell_kernel(floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue)
        restricted = False
        if use_corrals != 0 and backward == 0:
            res = pi_corral_kernel(
                floor, goalm, dead, boxat, off, mark, stamp, cells, lab, ctr[C_LAB], queue, bseen, allow
            )
            ctr[C_LAB] += (res >> 1) + 1
            restricted = (res & 1) != 0
            if restricted:
                ctr[C_PRUNED] += 1
        npa = 0
        if pam > 0 and fess != 0 and backward == 0 and not restricted:
            npa = pack_advice_kernel(boxat, cells, goals, garea, forder, fstart, dist, pa_end, pa_box, pa_tgt)
        status = RUNNING
        for i in range(nb):
            c = cells[i]
            for d in range(5 if npa > 0 else 4):
                pa_steps = 0
                pa_pl = 0
                to = c
                newpl = c
                if d == 4:
                    # the packing advisor's move of box i, if it is one's choice
                    tgt = -1
                    for a in range(nareas):
                        if pa_box[a] == i:
                            tgt = pa_tgt[a]
                    if tgt < 0:
                        continue
                    pa_steps = goal_macro_kernel(
                        floor,
                        dead,
                        boxat,
                        off,
                        garea,
                        -1,
                        c,
                        pplayer[k],
                        tgt,
                        gvis,
                        gstamp,
                        gqbox,
                        gqpl,
                        gqg,
                        gmark,
                        queue,
                        gout,
                        pam,
                    )
                    if pa_steps <= 0 or pa_steps >= 512:
                        continue
                    pa_pl = gout[0]
                    to = tgt
                elif backward != 0:
                    # pull: the player on c + off[d] steps back to c + 2 off[d]
                    to = c + off[d]
                    newpl = to + off[d]
                    if mark[to] != stamp or floor[newpl] == 0 or boxat[newpl] >= 0 or dead[to] != 0:
                        continue
                else:
                    behind = c - off[d]
                    to = c + off[d]
                    newpl = c
                    if mark[behind] != stamp or floor[to] == 0 or boxat[to] >= 0 or dead[to] != 0:
                        continue
                    if restricted and allow[i * 4 + d] == 0:
                        continue
                # with goal macros (not strict) a push into a goal area gives two children:
                # the plain push, then the push carried on to the area's next goal
                for variant in range(2 if macros == 1 and backward == 0 and d < 4 else 1):
                    if variant == 1:
                        to = c + off[d]
                        newpl = c
                    # make the move
                    boxat[c] = -1
                    boxat[to] = i
                    cells[i] = to
                    steps = 1
                    if d == 4:
                        newpl = pa_pl
                        steps = pa_steps
                        ctr[C_MACROS] += 1
                    elif macros != 0 and backward == 0:
                        # tunnel macro: a box pushed along a one-wide corridor, the player
                        # following in it, goes on to the corridor's end in one move
                        a = 2 if d < 2 else 0
                        while (
                            goalm[to] == 0
                            and floor[to + off[a]] == 0
                            and floor[to + off[a + 1]] == 0
                            and floor[newpl + off[a]] == 0
                            and floor[newpl + off[a + 1]] == 0
                        ):
                            nxt = to + off[d]
                            if floor[nxt] == 0 or boxat[nxt] >= 0 or dead[nxt] != 0:
                                break
                            boxat[to] = -1
                            boxat[nxt] = i
                            cells[i] = nxt
                            newpl = to
                            to = nxt
                            steps += 1
                    gm = 1 if d == 4 else 0
                    if d < 4 and (variant == 1 or macros == 2) and garea[to] >= 0:
                        # goal macro: a box entering a goal area whose goals are filled in
                        # its packing order so far goes straight on to the next goal
                        ga = garea[to]
                        m = 0
                        for t in range(fstart[ga], fstart[ga + 1]):
                            bt = boxat[forder[t]]
                            if bt >= 0 and bt != i:
                                m += 1
                        prefix = fstart[ga] + m < fstart[ga + 1]
                        for t in range(fstart[ga], fstart[ga] + m):
                            bt = boxat[forder[t]]
                            if bt < 0 or bt == i:
                                prefix = False
                                break
                        if prefix and forder[fstart[ga] + m] != to and steps < 512:
                            target = forder[fstart[ga] + m]
                            r = goal_macro_kernel(
                                floor,
                                dead,
                                boxat,
                                off,
                                garea,
                                ga,
                                to,
                                newpl,
                                target,
                                gvis,
                                gstamp,
                                gqbox,
                                gqpl,
                                gqg,
                                gmark,
                                queue,
                                gout,
                                0,
                            )
                            if 0 < r < 512:
                                boxat[to] = -1
                                boxat[target] = i
                                cells[i] = target
                                to = target
                                newpl = gout[0]
                                steps += r
                                gm = 1
                                ctr[C_MACROS] += 1
                            elif macros == 2 and garea[c] != ga:
                                gm = -1  # strict: a box entering out of the packing order is not tried
                    if variant == 1 and gm != 1:
                        gm = -1  # no goal macro here: the plain push was the only child
                    alive = gm >= 0
                    if backward == 0:
                        # freeze test only when the pushed box is blocked on both axes
                        if alive and blocked_kernel(floor, boxat, dead, off, to):
                            if frozen_kernel(cells, boxat, floor, dead, goalm, off, fz):
                                alive = False
                            elif frozen_goals_kernel(cells, fz, floor, goals, off, queue):
                                alive = False
                    if alive:
                        ctr[C_STAMP] += 1
                        pl = flood_min_kernel(floor, boxat, off, newpl, ctr[C_STAMP], mark2, queue)
                        key = parent_key ^ zbox[c] ^ zbox[to] ^ zpl[pl]
                        # the sorted child state
                        for j in range(nb):
                            sorted_cells[j] = cells[j]
                        j = i
                        while j > 0 and sorted_cells[j - 1] > to:
                            sorted_cells[j] = sorted_cells[j - 1]
                            j -= 1
                        while j < nb - 1 and sorted_cells[j + 1] < to:
                            sorted_cells[j] = sorted_cells[j + 1]
                            j += 1
                        sorted_cells[j] = to
                        found = lookup_kernel(table, phash, pplayer, pboxes, key, sorted_cells, pl)
                        g2 = g + steps
                        if found >= 0:
                            if optimal != 0 and g2 < pg[found]:
                                if ctr[C_HEAP] >= hcap - 1:
                                    status = MEMORY
                                else:
                                    h2 = child_bound_kernel(i + 1, cells, dist, u, v, p, u2, v2, p2, way, minv, used)
                                    pg[found] = g2
                                    pparent[found] = k
                                    ppush[found] = (gm << 30) | (steps << 20) | (c * 4 + (d & 3))
                                    hk = (np.int64(g2 + h2) << shift) | h2
                                    ctr[C_HEAP] = heap_push_kernel(hkey, hnode, ctr[C_HEAP], hk, found)
                        else:
                            h2 = child_bound_kernel(i + 1, cells, dist, u, v, p, u2, v2, p2, way, minv, used)
                            if (
                                h2 < BIG
                                and climit > 0
                                and backward == 0
                                and corral_deadlock_kernel(
                                    floor,
                                    goalm,
                                    dead,
                                    off,
                                    zbox,
                                    zpl,
                                    boxat,
                                    cells,
                                    mark2,
                                    ctr[C_STAMP],
                                    to,
                                    newpl,
                                    climit,
                                    cmaxb,
                                    cgrow,
                                    cs,
                                )
                            ):
                                ctr[C_CORRAL] += 1
                                h2 = BIG
                            if h2 < BIG:
                                n = ctr[C_NODES]
                                if n >= cap or ctr[C_HEAP] >= hcap - 1:
                                    status = MEMORY
                                else:
                                    for jj in range(nb):
                                        pboxes[n, jj] = sorted_cells[jj]
                                    pplayer[n] = pl
                                    pparent[n] = k
                                    pg[n] = g2
                                    pacc[n] = 0
                                    ppush[n] = (gm << 30) | (steps << 20) | (c * 4 + (d & 3))
                                    phash[n] = key
                                    table[-1 - found] = n + 1
                                    ctr[C_NODES] = n + 1
                                    ctr[C_GENERATED] += 1
                                    if h2 < ctr[C_BEST_H]:
                                        ctr[C_BEST_H] = h2
                                    met = lookup_kernel(otable, ophash, opplayer, opboxes, key, sorted_cells, pl)
                                    if met >= 0:
                                        ctr[C_SOLUTION] = n
                                        ctr[C_MEET] = met
                                        status = SOLVED
                                    elif optimal != 0:
                                        hk = (np.int64(g2 + h2) << shift) | h2
                                        ctr[C_HEAP] = heap_push_kernel(hkey, hnode, ctr[C_HEAP], hk, n)
                                    elif h2 == 0 and (backward == 0 or pl == goal_player):
                                        ctr[C_SOLUTION] = n
                                        ctr[C_MEET] = -1
                                        status = SOLVED
                                    else:
                                        pen = 0
                                        if backward != 0 and mark2[goal_player] != ctr[C_STAMP]:
                                            # the goal's player region is out of reach: the last pulls
                                            # (pushes) would need the player elsewhere
                                            pen = ppen
                                        hk = (np.int64(weight * (h2 + pen) + g2) << shift) | h2
                                        if fess != 0:
                                            cell = feature_cell_kernel(
                                                floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue
                                            )
                                            if cacc > 0:
                                                # a push that improves a feature is free, as an advisor's
                                                free = improves_kernel(pcell, cell)
                                                pacc[n] = pacc[k] + (0 if free else 1)
                                                hk += np.int64(cacc * pacc[n]) << shift
                                            cell_push_kernel(croot, cell, n, hk, mch, mkey)
                                            ctr[C_OPEN] += 1
                                        else:
                                            ctr[C_HEAP] = heap_push_kernel(hkey, hnode, ctr[C_HEAP], hk, n)
                    # undo the move
                    boxat[to] = -1
                    boxat[c] = i
                    cells[i] = c
                    if status != RUNNING:
                        break
                if status != RUNNING:
                    break
            if status != RUNNING:
                break
        for j in range(nb):
            boxat[cells[j]] = -1
        if status == MEMORY:
            # put the node back: its expansion is redone once there is room
            if fess != 0:
                back = (ctr[C_CURSOR] + croot.shape[0] - 1) % croot.shape[0]
                cell_push_kernel(croot, back, k, top, mch, mkey)
                ctr[C_OPEN] += 1
                ctr[C_CURSOR] = back
            else:
                ctr[C_HEAP] = heap_push_kernel(hkey, hnode, ctr[C_HEAP], top, k)
            return MEMORY
        if status == SOLVED:
            return SOLVED
    return RUNNING


@njit
def rehash_kernel(table, phash, n):  # type: ignore[no-untyped-def]
    """Insert nodes ``0 .. n-1`` (all distinct states) in an empty ``table``."""
    mask = table.shape[0] - 1
    for k in range(n):
        pos = phash[k] & mask
        while table[pos] != 0:
            pos = (pos + 1) & mask
        table[pos] = k + 1
    return 0
