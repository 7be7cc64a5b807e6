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

from typing import Any, NamedTuple

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
#: Children pruned as a dead pair (see :func:`pair_table_kernel`).
C_PAIRS = 17
#: Expansions that took their node's matching from the duals' cache (see :class:`Assign`).
C_DUALS = 18
#: Pushes not tried because they were irrelevant (see :func:`relevance_kernel`).
C_CUTS = 19
#: Number of ctr slots.
NCTR = 20
#: Connectivity buckets of the feature-space search (1, 2, 3, 4 or more player regions).
NCONN = 4
#: Out-of-plan buckets of the feature-space search (none, some).
NOOP = 2
#: Hotspot buckets of the feature-space search (no hotspot box, one, two or more).
NHOT = 3
#: Levels of more cells (walls included) get no hotspot table (it takes cells squared bytes).
HOT_MAX_CELLS = 4096
#: Mixed into the corral cache's keys by the player's least cell (see
#: :func:`corral_deadlock_kernel`), to keep them apart from the keys by the region with B alone.
QUICK_KEY = 0x5BD1E9955BD1E995
#: The directions of ``off`` (up, down, left, right) in clockwise order: up, right, down, left.
RING = (0, 3, 1, 2)

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
def goal_reach_kernel(floor, off, goals, wall, stamp, reach, queue):  # type: ignore[no-untyped-def]
    """Stamp ``reach[y]`` for every cell ``y`` from which a lone box can be pushed to some goal,
    with the cell ``wall`` (-1: none) a wall for the box and the player: the pulls of
    :func:`pull_distances_kernel` from all goals at once (a goal off the floor, one no box
    can be pushed onto, left out). Returns how many cells."""
    tail = 0
    for k in range(goals.shape[0]):
        g = goals[k]
        if g != wall and floor[g] != 0 and reach[g] != stamp:
            reach[g] = stamp
            queue[tail] = g
            tail += 1
    head = 0
    while head < tail:
        x = queue[head]
        head += 1
        for d in range(4):
            y = x - off[d]
            pl = y - off[d]
            if floor[y] != 0 and floor[pl] != 0 and y != wall and pl != wall and reach[y] != stamp:
                reach[y] = stamp
                queue[tail] = y
                tail += 1
    return tail


@njit
def hot_table_kernel(floor, off, goals, hot, reach, queue):  # type: ignore[no-untyped-def]
    """Fill ``hot[x, y]`` (uint8, cells x cells) with 1 when a box on ``x`` would cut a lone box on
    ``y`` off every goal: one can reach a goal from ``y`` (see :func:`goal_reach_kernel`), but not
    with a wall on ``x``. ``reach`` is scratch (int64, zeros) and ``queue`` one slot a cell."""
    goal_reach_kernel(floor, off, goals, -1, 1, reach, queue)
    n = floor.shape[0]
    base = np.zeros(n, dtype=np.uint8)
    for y in range(n):
        if reach[y] == 1:
            base[y] = 1
    stamp = 1
    for x in range(n):
        if floor[x] == 0:
            continue
        stamp += 1
        goal_reach_kernel(floor, off, goals, x, stamp, reach, queue)
        for y in range(n):
            if base[y] != 0 and reach[y] != stamp and y != x:
                hot[x, y] = 1
    return 0


@njit
def cut_off_kernel(hot, goalm, cells, x, i):  # type: ignore[no-untyped-def]
    """How many boxes but box ``i``, each off a goal, a box on ``x`` cuts off every goal (by the
    table of :func:`hot_table_kernel`)."""
    m = 0
    for j in range(cells.shape[0]):
        y = cells[j]
        if j != i and goalm[y] == 0 and hot[x, y] != 0:
            m += 1
    return m


@njit
def hotspots_kernel(hot, goalm, cells):  # type: ignore[no-untyped-def]
    """The hotspot feature: ``(boxes that cut another box off a goal-less cell from every goal,
    the box among them that cuts off the most (index into cells; -1 when none))``, by the
    table of :func:`hot_table_kernel`; a box on a goal is never counted as cut off."""
    nhot = 0
    best = -1
    most = 0
    for i in range(cells.shape[0]):
        m = cut_off_kernel(hot, goalm, cells, cells[i], i)
        if m > 0:
            nhot += 1
            if m > most:
                most = m
                best = i
    return nhot, best


@njit
def cool_cells_kernel(hot, goalm, cells, i, want):  # type: ignore[no-untyped-def]
    """``want[z] = 1`` for each cell ``z`` where box ``i`` would cut no other box (off its
    goal) off every goal, by the hotspot table; 0 elsewhere."""
    for z in range(want.shape[0]):
        want[z] = 1 if cut_off_kernel(hot, goalm, cells, z, i) == 0 else 0
    return 0


@njit
def hot_count_kernel(on, hot, goalm, cells):  # type: ignore[no-untyped-def]
    """The hotspot feature of :func:`feature_cell_kernel`: :func:`hotspots_kernel`'s count, or 0
    when the feature is off (``on`` 0)."""
    return hotspots_kernel(hot, goalm, cells)[0] if on != 0 else 0


@njit
def blocked_tunnels_kernel(tunnel, goalm, cells):  # type: ignore[no-untyped-def]
    """Festival's room connectivity: how many tunnels between rooms (``tunnel[x]``, the label of
    a one-wide passage joining two rooms, -1 elsewhere; see ``search.tunnels``) hold a box off
    a goal."""
    n = 0
    for j in range(cells.shape[0]):
        t = tunnel[cells[j]]
        if t < 0 or goalm[cells[j]] != 0:
            continue
        first = True
        for i in range(j):  # counted at its first box (a few boxes stand in tunnels)
            if tunnel[cells[i]] == t and goalm[cells[i]] == 0:
                first = False
                break
        if first:
            n += 1
    return n


@njit
def obstruction_kernel(s, hot, tunnel, goalm, cells):  # type: ignore[no-untyped-def]
    """The fourth axis of the feature cells: hotspots (``s.hot_feature``), tunnels blocked
    (``s.room_feature``), or 0 when both are off (they are never both on)."""
    if s.room_feature != 0:
        return blocked_tunnels_kernel(tunnel, goalm, cells)
    return hot_count_kernel(s.hot_feature, hot, goalm, cells)


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
def child_min_kernel(floor, boxat, off, mark, stamp, low, c, to):  # type: ignore[no-untyped-def]
    """The least cell of the player's region after one box stepped from ``c`` to its neighbour
    ``to`` (``boxat`` already moved), found without a flood, or -1 when a look round ``c`` and
    ``to`` cannot tell.

    The region before is the cells with ``mark == stamp``, least cell ``low`` (``c`` was not in
    it). When ``to`` was in it, the free cells beside ``c`` are in it (``c`` joins no other
    region) and the free cells round ``to`` (the ring of eight) hold the free cells beside
    ``to``, ``c`` among them, in one unbroken run (no region splits off, and ``c`` is joined to
    the rest: the region had a free cell beside ``to`` besides ``c``, as ``low != to``), the
    region after is the one before less ``to`` and with ``c``, and there are as many regions as
    before. ``off`` is up, down, left, right.
    """
    if low == to or mark[to] != stamp:  # (a push can take a box into another region)
        return -1
    for d in range(4):
        y = c + off[d]
        if y != to and floor[y] != 0 and boxat[y] < 0 and mark[y] != stamp:
            return -1
    # the ring round to, clockwise from up: up, up-right, right, ..., left, up-left
    bits = 0
    for j in range(8):
        a = RING[j >> 1]
        y = to + off[a]
        if j & 1:
            y += off[RING[((j >> 1) + 1) & 3]]
        if floor[y] != 0 and boxat[y] < 0 and (mark[y] == stamp or y == c):
            bits |= 1 << j
    # runs of open cells round the ring that hold a side cell (an even place): at most one
    # (counted from a closed place; an all-open ring has no run that closes, so none)
    start = 0
    while start < 8 and bits >> start & 1:
        start += 1
    runs = 0
    side = False
    for t in range(1, 9):
        j = (start + t) & 7
        if bits >> j & 1:
            if j & 1 == 0:
                side = True
        else:
            if side:
                runs += 1
            side = False
    if runs > 1:
        return -1
    return low if low < c else c


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
                if minv[j] < delta or (minv[j] == delta and p[j] == 0 and p[j1] != 0):
                    # of the columns at the least reduced cost, a free one ends the path here
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
    With more goals than boxes it solves the child's matching afresh: the goal box ``i``
    leaves keeps its potential, and a path may then end there when another free goal is
    cheaper (the bound came out too high: 1 where 0 was the least).
    """
    if v.shape[0] > u.shape[0]:
        return hungarian_kernel(cells, dist, u2, v2, p2, way, minv, used)
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


#: ``PairWork.cur``'s entries.
PW_PHASE, PW_HEAD, PW_TAIL, PW_STAMP, PW_ROW = 0, 1, 2, 3, 4


@njit
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


@njit
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


@njit
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


@njit
def pair_penalty_kernel(pairs, lidx, fidx, pm2, cells, player, used):  # type: ignore[no-untyped-def]
    """The pairs' penalties of a position: for two boxes alone, the fewest pushes that put
    them on two goals (the pair table, ``pairs`` minus 1, see :func:`pair_table_kernel`) less
    their own bound (``pm2``: their lone-box distances to two different goals), when more. Each
    box, in order, is paired with the box after it of the largest penalty, each box at most
    once; the sum of the penalties taken. 0 without a table (``pm2`` 1 x 1)."""
    if pm2.shape[0] == 1:
        return 0
    f = fidx[player]
    if f < 0:
        return 0
    nb = cells.shape[0]
    for i in range(nb):
        used[i] = 0
    total = 0
    for i in range(nb):
        a = lidx[cells[i]]
        if used[i] != 0 or a < 0:
            continue
        best, bj = 0, -1
        for j in range(i + 1, nb):
            b = lidx[cells[j]]
            if used[j] != 0 or b < 0 or pairs[a, b, f] == 0:
                continue
            pen = np.int64(pairs[a, b, f]) - 1 - pm2[a, b]
            if pen > best:
                best, bj = pen, j
        if bj >= 0:
            used[i] = 1
            used[bj] = 1
            total += best
    return total


@njit
def frozen_goals_kernel(cells, fz, floor, goals, off, queue, fg):  # type: ignore[no-untyped-def]
    """True when the boxes frozen on goals (``fz``) leave no matching for the others.

    Boxes frozen on goals never move again: they are walls. The free boxes
    must still be matched to the free goals on push distances computed with
    those walls (a goal walled in behind a frozen box, as in a dead-end goal
    corridor filled in the wrong order, is lost). Only whether every free box
    can be matched matters, not the matching's cost: :func:`can_match_kernel`.
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
    fl[:] = floor
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
        dist = fg.dist
        dist[:m] = -1
        pull_distances_kernel(fl, off, fg.goals[:m], dist, queue)
        reach = fg.reach[slot]
        reach[:] = 0
        for g in range(m):
            bit = np.uint64(1) << np.uint64(g & 63)
            for x in range(fl.shape[0]):
                if dist[g, x] >= 0:
                    reach[x, g >> 6] |= bit
        fg.key[slot] = key
        fg.count[slot] = nfz
        fg.free[slot] = m
    n = 0
    for j in range(nb):
        if fz[j] == 0:
            fg.rows[n] = cells[j]
            n += 1
    rows, m = fg.rows[:n], fg.free[slot]
    return not can_match_kernel(rows, fg.reach[slot], m, fg.by_goal, fg.by_box, fg.via, fg.seen, fg.todo)


@njit
def reaches_kernel(reach, cell, g):  # type: ignore[no-untyped-def]
    """Whether goal ``g`` is reachable from ``cell``: its bit in ``reach[cell]`` (64 goals a word)."""
    return reach[cell, g >> 6] >> np.uint64(g & 63) & np.uint64(1) != 0


@njit
def can_match_kernel(rows, reach, m, by_goal, by_box, via, seen, todo):  # type: ignore[no-untyped-def]
    """Whether every box on ``rows`` can have a goal of its own among the first ``m`` goals
    (goal ``g`` reachable from the box's cell: bit ``g % 64`` of ``reach[cell, g // 64]``): a
    maximum bipartite matching, greedy first, then one breadth-first augmenting path per box
    left."""
    n = rows.shape[0]
    by_goal[:m] = -1
    for b in range(n):
        by_box[b] = -1
        for g in range(m):
            if by_goal[g] < 0 and reaches_kernel(reach, rows[b], g):
                by_goal[g] = b
                by_box[b] = g
                break
    for r in range(n):
        if by_box[r] >= 0:
            continue
        seen[:m] = 0
        todo[0] = r
        head = 0
        tail = 1
        end = -1
        while head < tail and end < 0:
            b = todo[head]
            head += 1
            for g in range(m):
                if seen[g] == 0 and reaches_kernel(reach, rows[b], g):
                    seen[g] = 1
                    via[g] = b
                    if by_goal[g] < 0:
                        end = g
                        break
                    todo[tail] = by_goal[g]
                    tail += 1
        if end < 0:
            return False
        g = end
        while True:  # flip the path: each box on it takes the goal it reached
            b = via[g]
            before = by_box[b]
            by_goal[g] = b
            by_box[b] = g
            if b == r:
                break
            g = before
    return True


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

    ``cs`` is the scratch tuple built by the wrapper (see ``_corral_scratch``);
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


@njit
def lone_box_start_kernel(boxat, start, player, vstamp, qbox, qpl, qg):  # type: ignore[no-untyped-def]
    """Begin a breadth-first search of one box's pushes (the other boxes fixed): take the box
    off ``start`` (its entry is returned, to put back), queue the first state (the box on
    ``start``, the player on ``player``, ``qg`` 0) and take a new stamp for the visited
    states; ``(saved entry, stamp)``."""
    saved = boxat[start]
    boxat[start] = -1
    vstamp[0] += 1
    qbox[0] = start
    qpl[0] = player
    qg[0] = 0
    return saved, vstamp[0]


@njit
def lone_box_region_kernel(floor, boxat, off, b, saved, player, vstamp, mark, queue):  # type: ignore[no-untyped-def]
    """Stamp in ``mark`` the player's region with the lone box (entry ``saved``) on ``b``;
    the box is off the board again afterwards. Returns the stamp."""
    vstamp[0] += 1
    boxat[b] = saved
    flood_min_kernel(floor, boxat, off, player, vstamp[0], mark, queue)
    boxat[b] = -1
    return vstamp[0]


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
    pull,
):
    """Fewest pushes (``pull`` 1: pulls) that bring the box on ``start`` to ``target`` inside goal
    area ``area`` (anywhere when ``area`` < 0); -1 if none, or if none within ``limit`` states
    (when > 0).

    A breadth-first search of the lone box's pushes, the other boxes fixed
    (``boxat``; the moving box's own entry is ignored), the box kept on the
    area's cells (``garea == area``) and off ``dead`` cells, the player starting on
    ``start_pl``. A state is (box cell, direction of the last move); each needs a flood of
    the player's region. A pull in direction ``d`` needs the player on the box's side ``d``
    and a free cell beyond, into which he steps as the box follows. ``vstamp`` is a one-slot
    stamp counter for ``vis`` and ``mark``; ``out[0]`` receives the player's cell after the
    last move.
    """
    if start == target:
        out[0] = start_pl
        return 0
    saved, vs = lone_box_start_kernel(boxat, start, start_pl, vstamp, qbox, qpl, qg)
    head = 0
    tail = 1
    res = -1
    while head < tail and res < 0 and (limit <= 0 or head < limit):
        b = qbox[head]
        pl = qpl[head]
        gg = qg[head]
        head += 1
        ms = lone_box_region_kernel(floor, boxat, off, b, saved, pl, vstamp, mark, queue)
        for d in range(4):
            to = b + off[d]
            if pull != 0:
                nxt = to + off[d]  # the player's cell after the pull
                if mark[to] != ms or floor[nxt] == 0 or boxat[nxt] >= 0 or dead[to] != 0:
                    continue
            else:
                nxt = b
                if mark[b - off[d]] != ms or floor[to] == 0 or boxat[to] >= 0 or dead[to] != 0:
                    continue
            if (area >= 0 and garea[to] != area) or vis[to * 4 + d] == vs:
                continue
            vis[to * 4 + d] = vs
            if to == target:
                out[0] = nxt
                res = gg + 1
                break
            qbox[tail] = to
            qpl[tail] = nxt
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
    return more_regions_kernel(floor, boxat, off, mark, stamp[0], queue, mark, stamp[0], floor.shape[0])


@njit
def more_regions_kernel(floor, boxat, off, mark, s, queue, pmark, pstamp, most):  # type: ignore[no-untyped-def]
    """The regions of free floor not flooded yet (neither ``mark == s`` nor ``pmark == pstamp``):
    each is flooded (``mark = s``) and counted, up to ``most`` (the count stops there)."""
    n = 0
    for x0 in range(floor.shape[0]):
        if n >= most:
            break
        if floor[x0] != 0 and boxat[x0] < 0 and mark[x0] != s and pmark[x0] != pstamp:
            n += 1
            flood_min_kernel(floor, boxat, off, x0, s, mark, queue)
    return n


@njit
def packing_of(cell):  # type: ignore[no-untyped-def]
    """The packing digit of feature cell ``cell`` (see :func:`feature_cell_kernel`)."""
    return cell // (NOOP * NHOT * NCONN)


@njit
def improves_kernel(before, after):  # type: ignore[no-untyped-def]
    """Whether feature cell ``after`` (see :func:`feature_cell_kernel`) improves on ``before`` in
    some feature: more packed, fewer out of plan, fewer hotspots or fewer regions."""
    return (
        packing_of(after) > packing_of(before)
        or (after // (NHOT * NCONN)) % NOOP < (before // (NHOT * NCONN)) % NOOP
        or (after // NCONN) % NHOT < (before // NCONN) % NHOT
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
        pa_box[a] = pack_next_kernel(cells, garea, forder, fstart, pend, dist, q, 0, -1)[0]
        pa_tgt[a] = tgt
        if pa_box[a] >= 0:
            n += 1
    return n


@njit
def pack_next_kernel(cells, garea, forder, fstart, pend, dist, q, after_d, after_j):  # type: ignore[no-untyped-def]
    """The box after box ``after_j`` at distance ``after_d`` from goal ``q`` in the packing
    advisor's order (by ``dist``, then index; boxes on a filled prefix, at distance 0 or with no
    way there left out): ``(box, distance)``, box -1 when there is none. With ``after_d`` 0 it is
    the nearest box."""
    best, bestd = -1, BIG
    for j in range(cells.shape[0]):
        cj = cells[j]
        dd = dist[q, cj]
        # (boxes come in index order, so a tie with the best so far keeps the best)
        if dd <= 0 or dd >= bestd or dd < after_d or (dd == after_d and j <= after_j):
            continue
        ga = garea[cj]
        on_prefix = False
        if ga >= 0:
            for t in range(fstart[ga], pend[ga]):
                if forder[t] == cj:
                    on_prefix = True
        if not on_prefix:
            best, bestd = j, dd
    return best, bestd


@njit
def pack_retry_kernel(board, sc, gs, bound, tries, player):  # type: ignore[no-untyped-def]
    """The packing advisor's choices checked: when an area's box cannot reach its goal alone (a
    lone-box search of at most ``bound`` states), the next nearest box is tried, up to ``tries``
    boxes an area; an area whose tries all fail gets no box. Returns how many areas have one.

    The move found for an area's box (the player's cell and the moves, ``sc.pa_move[a]``) is kept
    for phase 3, which then need not search again."""
    n = 0
    for a in range(sc.pa_box.shape[0]):
        j = sc.pa_box[a]
        if j < 0:
            continue
        tgt = sc.pa_tgt[a]
        q = 0
        while board.goals[q] != tgt:
            q += 1
        dd = board.dist[q, sc.cells[j]]
        for t in range(tries):
            _, pl, steps = advisor_step_kernel(board, sc, gs, bound, player, sc.cells[j], tgt, 0)
            if steps > 0:
                sc.pa_move[a, 0] = pl
                sc.pa_move[a, 1] = steps
                break
            j, dd = pack_next_kernel(sc.cells, board.garea, board.forder, board.fstart, sc.pa_end, board.dist, q, dd, j)
            if j < 0 or t == tries - 1:
                j = -1
                break
        sc.pa_box[a] = j
        if j >= 0:
            n += 1
    return n


@njit
def conn_advice_kernel(floor, dead, boxat, off, cells, player, bound, vis, vstamp, qbox, qpl, qg, mark, queue, ca_tgt):  # type: ignore[no-untyped-def]
    """The connectivity advisor's choices: for each box ``i``, ``ca_tgt[i]`` the cell, fewest
    pushes first, to which the player (on ``player``) can push that box alone so that the free
    floor falls into fewer regions (-1 when there is none within ``bound`` states of its
    lone-box search). Only a box that touches two regions or more can join them, so only
    those are searched. Returns how many boxes got a cell.

    ``mark`` is stamped from the one-slot counter ``vstamp``.
    """
    nb = cells.shape[0]
    base = vstamp[0] + 1
    nreg = 0
    for x0 in range(floor.shape[0]):
        if floor[x0] != 0 and boxat[x0] < 0 and mark[x0] < base:
            flood_min_kernel(floor, boxat, off, x0, base + nreg, mark, queue)
            nreg += 1
    vstamp[0] = base + nreg
    for i in range(nb):
        ca_tgt[i] = -1
    if nreg < 2:
        return 0
    for i in range(nb):  # first the boxes that touch two regions (-2), while ``mark`` holds them
        first = -1
        for d in range(4):
            w = cells[i] + off[d]
            if floor[w] != 0 and boxat[w] < 0:
                if first < 0:
                    first = mark[w]
                elif mark[w] != first:
                    ca_tgt[i] = -2
    n = 0
    for i in range(nb):
        if ca_tgt[i] == -2:
            ca_tgt[i] = nearest_push_kernel(
                floor, dead, boxat, off, cells[i], player, bound, nreg, ca_tgt, vis, vstamp, qbox, qpl, qg, mark, queue
            )
            if ca_tgt[i] >= 0:
                n += 1
    return n


@njit
def nearest_push_kernel(  # type: ignore[no-untyped-def]
    floor, dead, boxat, off, start, player, bound, nreg, want, vis, vstamp, qbox, qpl, qg, mark, queue
):
    """The first cell (breadth-first over at most ``bound`` states of the lone box, as in
    :func:`goal_macro_kernel`) to which the box on ``start`` can be pushed with the free floor
    in fewer than ``nreg`` regions (``nreg`` > 0), or, with ``nreg`` 0, a cell ``z`` with
    ``want[z]`` != 0; -1 if none. ``qg[k]`` is 1 for a state whose cell is new: a cell is
    scored once, when it is first taken from the queue."""
    saved, vs = lone_box_start_kernel(boxat, start, player, vstamp, qbox, qpl, qg)
    head = 0
    tail = 1
    res = -1
    while head < tail and head < bound and res < 0:
        b = qbox[head]
        pl = qpl[head]
        new = qg[head]
        head += 1
        joined = new == 1 and nreg == 0 and want[b] != 0
        if new == 1 and nreg > 0:
            boxat[b] = saved
            joined = regions_kernel(floor, boxat, off, mark, vstamp, queue) < nreg
            boxat[b] = -1
        if joined:
            res = b
        else:
            ms = lone_box_region_kernel(floor, boxat, off, b, saved, pl, vstamp, mark, queue)
            for d in range(4):
                behind = b - off[d]
                to = b + off[d]
                if mark[behind] != ms or floor[to] == 0 or boxat[to] >= 0 or dead[to] != 0 or vis[to * 4 + d] == vs:
                    continue
                fresh = 0 if to == start else 1
                for e in range(4):
                    if vis[to * 4 + e] == vs:
                        fresh = 0
                vis[to * 4 + d] = vs
                qbox[tail] = to
                qpl[tail] = b
                qg[tail] = fresh
                tail += 1
    boxat[start] = saved
    return res


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
def novelty_kernel(nov, pack, cells, i, width):  # type: ignore[no-untyped-def]
    """Whether the position (boxes on ``cells``, box ``i`` just moved) is new at its packing
    ``pack``: box ``i`` on a cell no position of that packing had a box on (``width`` 1), or
    with ``width`` 2 box ``i`` and another on two cells no such position had boxes on
    together; marks what it saw. ``nov[pack, x, 0]`` is the flag of cell ``x`` (width 1),
    ``nov[pack, x, y]`` that of cells ``x < y`` (width 2)."""
    novel = False
    if width >= 2:
        for j in range(cells.shape[0]):
            x, y = min(cells[i], cells[j]), max(cells[i], cells[j])
            if j != i and nov[pack, x, y] == 0:
                nov[pack, x, y] = 1
                novel = True
    elif nov[pack, cells[i], 0] == 0:
        nov[pack, cells[i], 0] = 1
        novel = True
    return novel


@njit
def influence_kernel(floor, off, cost, out, dist, queue, inq):  # type: ignore[no-untyped-def]
    """Fill ``out[x, y]`` with the influence distance from floor cell ``x`` to floor cell ``y``:
    the cheapest walk over the floor where entering a cell costs ``cost`` of it, at most 255
    (``out`` starts at 255). ``dist``, ``queue`` and ``inq`` are work arrays of a cell each
    (a first-in first-out relaxation: the costs are 0, 1 or 2 and the levels small)."""
    ncells = floor.shape[0]
    for x in range(ncells):
        if floor[x] == 0:
            continue
        for y in range(ncells):
            dist[y] = 255
            inq[y] = 0
        dist[x] = 0
        head, size = 0, 1
        queue[0] = x
        inq[x] = 1
        while size > 0:
            u = queue[head]
            head = (head + 1) % ncells
            size -= 1
            inq[u] = 0
            for d in range(4):
                y = u + off[d]
                nd = dist[u] + cost[y]
                if floor[y] != 0 and nd < dist[y]:
                    dist[y] = nd
                    if inq[y] == 0:
                        inq[y] = 1
                        queue[(head + size) % ncells] = y
                        size += 1
        for y in range(ncells):
            out[x, y] = dist[y]


@njit
def relevance_kernel(pboxes, parent, push, influence, k, window, reach):  # type: ignore[no-untyped-def]
    """Node ``k``'s recent pushes as the relevance cuts see them: the cell where its last push
    left its box (-1 at a root) and how many of the ``window - 1`` pushes on its way up to it
    were distant (the box pushed was further than ``reach`` in ``influence`` from the cell
    where the push before it left its box; a push with no push before it is not distant)."""
    last = -1
    distant = 0
    origin = -1  # where the push looked at one step before (nearer k) took its box from
    j = k
    for t in range(window):
        up = parent[j]
        if up < 0:
            break
        dest = moved_box_kernel(pboxes, j, up)
        if t == 0:
            last = dest
        elif dest >= 0 and origin >= 0 and influence[dest, origin] > reach:
            distant += 1
        origin = (push[j] & PUSH_MOVE_MASK) >> 2
        j = up
    return last, distant


@njit
def feature_cell_kernel(  # type: ignore[no-untyped-def]
    floor, boxat, off, goals, garea, forder, fstart, mark, stamp, queue, nhot, pmark, pstamp, conn
):
    """The feature-space cell of the position in ``boxat``: packing, out of plan (0 or 1 and more),
    hotspots or blocked tunnels (``nhot``, see :func:`obstruction_kernel`: 0, 1, 2 and more; 0
    when both features are off) and connectivity (1, 2, 3, 4 and more regions; the player's
    region is the free cells with ``pmark == pstamp``), as
    ``((packing * NOOP + out) * NHOT + hot) * NCONN + conn``. A ``conn`` of 0 or more is the
    connectivity digit, known (the regions are not counted again)."""
    stamp[0] += 1
    r = conn + 1
    if conn < 0:  # (regions past NCONN are not counted: the cell is the same)
        r = 1 + more_regions_kernel(floor, boxat, off, mark, stamp[0], queue, pmark, pstamp, NCONN - 1)
    ooo = out_of_plan_kernel(boxat, forder, fstart)
    packing = packed_kernel(boxat, goals, garea, forder, fstart)
    return ((packing * NOOP + min(ooo, NOOP - 1)) * NHOT + min(nhot, NHOT - 1)) * NCONN + min(r, NCONN) - 1


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


# ------------------------------------------------------------------ the search, in phases
#
# One call of :func:`search_kernel` takes nodes from the open list and expands them:
#
# 1. take the next node (:func:`take_kernel`: the heap's best, or in the feature-space
#    search the next feature cell's best; :func:`put_back_kernel` undoes it);
# 2. load it (in :func:`expand_kernel`, as the phases below): its position, the player's region, the
#    assignment, a PI-corral that restricts the pushes, the packing advisor's choices;
# 3. generate each box's moves: the first step (a push or pull, or the packing
#    advisor's move: :func:`advisor_step_kernel`), then the macros that carry it on
#    (:func:`tunnel_kernel`, :func:`goal_step_kernel`);
# 4. prune the child: freeze deadlocks (:func:`frozen_after_kernel`), the bound, the
#    corral-deadlock test; find it in the table (A* reopens it: :func:`reopen_kernel`);
# 5. store, score and open it (:func:`insert_kernel`), or stop when it meets the other
#    direction or is a goal.
#
# The arrays travel in a few named groups (:class:`Board`, :class:`Pool`,
# :class:`Frontier`, :class:`Scratch`, :class:`Assign`, :class:`GoalScratch`) and the
# options in one :class:`Settings`. A group goes to a helper that uses most of it;
# :func:`expand_kernel` unpacks them once a slice and hands each per-move helper the
# few arrays it reads, because numba increfs every array passed to a function, at
# each call: with whole groups passed per move the search ran six times slower, and
# with them passed to a function per expansion a third slower.


class Board(NamedTuple):
    """The level as one direction sees it; read, never written.

    ``dead`` and ``dist`` are the direction's own (the backward search's refer to
    the start's box cells); ``zbox``/``zpl`` are the Zobrist keys of a box and of
    the normalised player on each cell; ``garea``/``forder``/``fstart`` the goal
    areas and their packing orders (see ``search.goal_areas``; one empty area when
    unused); ``hot`` the hotspot table (:func:`hot_table_kernel`; 1 x 1 when unused);
    ``tunnel`` each cell's tunnel between rooms (see :func:`blocked_tunnels_kernel`; one
    entry when unused); ``pairs`` the dead pairs' table (forward; backward, the start's
    pairs) with its cell indices ``lidx`` and ``fidx`` (see :func:`pair_table_kernel`;
    1 x 1 x 1 when unused); ``pm2`` each pair of live cells' own bound (see
    :func:`pair_penalty_kernel`; 1 x 1 when unused); ``influence`` the influence distance
    between two cells (see :func:`influence_kernel`; 1 x 1 when unused).
    """

    floor: Any
    goalm: Any
    goals: Any
    dead: Any
    dist: Any
    off: Any
    zbox: Any
    zpl: Any
    garea: Any
    forder: Any
    fstart: Any
    hot: Any
    tunnel: Any
    pairs: Any
    lidx: Any
    fidx: Any
    pm2: Any
    influence: Any


class Pool(NamedTuple):
    """The states of one direction by node index, and the table that finds them.

    ``boxes[n]`` the sorted box cells, ``player[n]`` the normalised player,
    ``parent[n]``, ``g[n]`` (moves of boxes so far), ``push[n]`` (the move that
    made it, see :func:`encode_push`), ``hash[n]`` (its Zobrist key), ``acc[n]``
    (pushes on its way that improved no feature); ``table`` holds ``node + 1``
    by key (0 empty).
    """

    boxes: Any
    player: Any
    parent: Any
    g: Any
    push: Any
    hash: Any
    acc: Any
    table: Any


class Frontier(NamedTuple):
    """The open states: a binary heap of ``(key, node)`` (``hkey``, ``hnode``) for the
    best-first and A* searches, or one pairing heap per feature cell (roots ``croot``,
    children ``mch``, keys ``mkey``) for the feature-space search."""

    hkey: Any
    hnode: Any
    croot: Any
    mch: Any
    mkey: Any


class Scratch(NamedTuple):
    """Working arrays of one expansion.

    ``boxat`` (cell -> box, -1), ``cells`` (the boxes being moved) and
    ``sorted_cells`` (a child's sorted boxes); ``mark``/``mark2`` the player's
    region of the node and of a child (by stamp), ``queue`` for floods; ``fz``
    frozen boxes; ``lab``, ``bseen``, ``allow`` the PI-corral test's; ``pa_box``,
    ``pa_tgt``, ``pa_end`` the packing advisor's choice per goal area, ``pa_move`` its move
    (player's cell and moves, :func:`pack_retry_kernel`) when checked already; ``ca_tgt`` the
    connectivity advisor's cell per box; ``one`` the hotspot advisor's box and cell
    (``one[0]``, ``one[1]``, box -1: no advice) and the out-of-plan advisor's (``one[2]``,
    ``one[3]``); ``fg`` the freeze test's distances by frozen set (:class:`FrozenGoals`; a
    one-slot token in the backward direction, which has no freeze test).
    """

    boxat: Any
    mark: Any
    mark2: Any
    queue: Any
    cells: Any
    sorted_cells: Any
    fz: Any
    lab: Any
    bseen: Any
    allow: Any
    pa_box: Any
    pa_tgt: Any
    pa_end: Any
    pa_move: Any
    ca_tgt: Any
    one: Any
    fg: Any


class FrozenGoals(NamedTuple):
    """The freeze test's cache of the goals each cell can reach with the boxes frozen on goals
    as walls (:func:`frozen_goals_kernel`), by frozen set, and its matching's work arrays.

    Slot ``s`` (of a power of two) holds the set hashed to ``key[s]`` (-1: none): its
    ``count[s]`` cells ``cells[s, :count]`` and, for its ``free[s]`` free goals (in the goals'
    order), ``reach[s, cell]``: a bit a goal, set when a box on ``cell`` can be pushed there.
    ``floor`` is the floor with the set walled in, ``goals`` its free goals and ``dist`` their
    push distances while a slot is filled; ``rows`` the free boxes' cells; ``by_goal``,
    ``by_box``, ``via``, ``seen``, ``todo`` the matching's.
    """

    key: Any
    count: Any
    cells: Any
    goals: Any
    free: Any
    reach: Any
    dist: Any
    floor: Any
    rows: Any
    by_goal: Any
    by_box: Any
    via: Any
    seen: Any
    todo: Any


#: Bytes a search direction's frozen sets may take, their cells and reachable goals (see :class:`FrozenGoals`).
FROZEN_CACHE_BYTES = 16 << 20
#: Frozen sets kept at most.
FROZEN_CACHE_SLOTS = 4096


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
        dist=np.full((ngm, nc), -1, dtype=np.int32),
        floor=np.zeros(nc, dtype=np.uint8),
        rows=np.zeros(nbm, dtype=np.int64),
        by_goal=np.zeros(ngm, dtype=np.int64),
        by_box=np.zeros(nbm, dtype=np.int64),
        via=np.zeros(ngm, dtype=np.int64),
        seen=np.zeros(ngm, dtype=np.uint8),
        todo=np.zeros(nbm, dtype=np.int64),
    )


class Assign(NamedTuple):
    """The Hungarian method's arrays: the node's potentials and matching (``u``, ``v``,
    ``p``), a child's (``u2``, ``v2``, ``p2``) and the shared work arrays; and the
    duals' cache: a child's solution, kept when it is stored, so that its expansion
    need not solve the matching again (``cnode[s]`` the node in slot ``s = node &
    (slots - 1)``, -1 none; ``cu``, ``cv``, ``cp`` its ``u``, ``v``, ``p``, rows in the
    node's sorted order). Any optimal solution gives the same children's bounds, so a
    hit changes no search, only its speed."""

    u: Any
    v: Any
    p: Any
    way: Any
    minv: Any
    used: Any
    u2: Any
    v2: Any
    p2: Any
    cnode: Any
    cu: Any
    cv: Any
    cp: Any


class GoalScratch(NamedTuple):
    """Working arrays of the lone-box searches of the goal macros and the packing
    advisor (:func:`goal_macro_kernel`) and of the feature cells' flood; ``want`` the cells
    the hotspot and out-of-plan advisors look for (:func:`nearest_push_kernel`); ``qpar``,
    ``empty`` and ``path`` the opener's (:func:`ghost_path_kernel`); ``nov`` the novelty's
    flags (:func:`novelty_kernel`)."""

    vis: Any
    stamp: Any
    qbox: Any
    qpl: Any
    qg: Any
    mark: Any
    out: Any
    want: Any
    qpar: Any
    empty: Any
    path: Any
    nov: Any


class Settings(NamedTuple):
    """One direction's options, as integers (see ``search.SearchOptions``).

    ``optimal`` (A*), ``weight`` (the key is ``weight * h + g``), ``corrals``
    (PI-corral pruning), ``backward`` (this direction pulls), ``goal_player`` (the
    backward search's goal region, named by its smallest cell), ``macros`` (0 off,
    1 tunnel and goal macros, 2 strict packing order), ``fess`` (feature-space),
    ``corral_nodes``/``corral_boxes``/``corral_grow`` (the corral-deadlock test's
    bounds, 0 nodes: off), ``player_penalty`` (added to the backward bound when the
    player cannot reach the goal region), ``move_weight`` (the key's share of the
    pushes that improved no feature), ``pack_advisor``, ``conn_advisor`` and
    ``hot_advisor``, ``oop_advisor`` (the packing, connectivity, hotspot and out-of-plan
    advisors' search bounds, 0: off; backward the packing advisor pulls boxes into the start's
    areas, ``SearchOptions.pull_advisor``), ``hot_feature`` (the feature cell counts hotspots),
    ``room_feature`` (it counts blocked tunnels between rooms instead), ``open_advisor`` (the
    opener's search bound, 0: off), ``pair_penalty`` (the key's bound grows by the pairs'
    penalties, see :func:`pair_penalty_kernel`), ``box_runs`` (with ``move_weight``: a push
    of the box the last move moved, on in the same direction, is free, see :func:`moved_box_kernel`),
    ``novelty`` (a push to a new position, see :func:`novelty_kernel`, is free; 0 off, else the
    width), ``novelty_cells`` (1: instead, the new position goes to its feature cell's twin, in the
    frontier's second half; on with novelty where there are no move weights or
    ``SearchOptions.novelty_cells``), ``pack_tries`` (the boxes the packing advisor tries for
    each goal area, forward, see :func:`pack_retry_kernel`), ``relevance_window``, ``relevance_distant`` and
    ``relevance_reach`` (relevance cuts of this direction's pushes or pulls, see
    :func:`relevance_kernel`; 0 window: off).
    """

    optimal: int
    weight: int
    corrals: int
    backward: int
    goal_player: int
    macros: int
    fess: int
    corral_nodes: int
    corral_boxes: int
    corral_grow: int
    player_penalty: int
    move_weight: int
    pack_advisor: int
    conn_advisor: int
    hot_advisor: int
    oop_advisor: int
    hot_feature: int
    room_feature: int
    open_advisor: int
    pair_penalty: int
    box_runs: int
    novelty: int
    novelty_cells: int
    pack_tries: int
    relevance_window: int
    relevance_distant: int
    relevance_reach: int


#: A key is ``(score << KEY_SHIFT) | h``: the order, then the bound (h < BIG = 2**20).
KEY_SHIFT = 20
#: The bound's bits of a key.
H_MASK = (1 << KEY_SHIFT) - 1
#: A push code holds ``cell * 4 + direction`` below PUSH_STEPS_SHIFT, the pushes the
#: move made (macros make several) from there, and 1 at PUSH_MACRO_SHIFT for a goal
#: macro or advisor's move (whose pushes are found again when the solution is rebuilt).
PUSH_STEPS_SHIFT = 20
PUSH_MACRO_SHIFT = 30
#: ``cell * 4 + direction`` of a push code.
PUSH_MOVE_MASK = (1 << PUSH_STEPS_SHIFT) - 1
#: The pushes of a push code (after the shift).
PUSH_STEPS_MASK = (1 << (PUSH_MACRO_SHIFT - PUSH_STEPS_SHIFT)) - 1
#: A macro longer than this is not taken (two in a row stay below PUSH_STEPS_MASK).
MAX_MACRO_STEPS = 512


@njit
def encode_push(macro, steps, cell, d):  # type: ignore[no-untyped-def]
    """The push code of a move of ``steps`` pushes from ``cell`` in direction ``d``
    (``macro`` 1: a goal macro or advisor's move)."""
    return (macro << PUSH_MACRO_SHIFT) | (steps << PUSH_STEPS_SHIFT) | (cell * 4 + (d & 3))


@njit
def is_goal_kernel(s, h, player):  # type: ignore[no-untyped-def]
    """True for a solved position: bound 0 and, backward, the player in the goal region."""
    return h == 0 and (s.backward == 0 or player == s.goal_player)


@njit
def initial_key_kernel(s, h):  # type: ignore[no-untyped-def]
    """The key of a root of bound ``h``."""
    if s.optimal != 0:
        return (np.int64(h) << KEY_SHIFT) | h
    return (np.int64(s.weight * h) << KEY_SHIFT) | h


@njit
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
            nhot = obstruction_kernel(s, board.hot, board.tunnel, board.goalm, sc.cells)
            cell = feature_cell_kernel(
                board.floor, sc.boxat, board.off, board.goals, board.garea, board.forder, board.fstart, gs.mark,
                gs.stamp, sc.queue, nhot, sc.mark, ctr[C_STAMP], -1,
            )  # fmt: skip
            for j in range(nb):
                sc.boxat[sc.cells[j]] = -1
            cell_push_kernel(fr.croot, cell, n, hk, fr.mch, fr.mkey)
            ctr[C_OPEN] += 1
        else:
            ctr[C_HEAP] = heap_push_kernel(fr.hkey, fr.hnode, ctr[C_HEAP], hk, n)
        n += 1
    return RUNNING


@njit
def solved_kernel(ctr, node, meet):  # type: ignore[no-untyped-def]
    """Record the solution's node (and the other direction's node it met, -1 none)."""
    ctr[C_SOLUTION] = node
    ctr[C_MEET] = meet
    return SOLVED


@njit
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
    top, k = heap_pop_kernel(fr.hkey, fr.hnode, ctr[C_HEAP])
    ctr[C_HEAP] -= 1
    return top, k


@njit
def put_back_kernel(fr, ctr, fess, top, k):  # type: ignore[no-untyped-def]
    """Undo :func:`take_kernel` (the node's expansion is redone once there is room)."""
    if fess != 0:
        ncell = fr.croot.shape[0]
        back = (ctr[C_CURSOR] + ncell - 1) % ncell
        cell_push_kernel(fr.croot, back, k, top, fr.mch, fr.mkey)
        ctr[C_OPEN] += 1
        ctr[C_CURSOR] = back
    else:
        ctr[C_HEAP] = heap_push_kernel(fr.hkey, fr.hnode, ctr[C_HEAP], top, k)


@njit
def search_kernel(board, pool, fr, other, ctr, s, budget, sc, asg, gs, cs):  # type: ignore[no-untyped-def]
    """Best-first search of pushes (or pulls); see the module notes. Returns a status code.

    Runs at most ``budget`` expansions. ``s`` (:class:`Settings`): with ``optimal``
    A* on ``g + h`` (h the minimum-cost matching, admissible and consistent), the
    goal tested when a node is taken, so the solution has the fewest pushes;
    otherwise the key is ``weight * h + g`` and the goal is tested when a node is
    generated. ``backward``: the search *pulls* boxes from the goals towards the
    start, and a goal also needs the player's region to be ``goal_player``'s.
    ``fess``: the feature-space search (see :func:`take_kernel`), with
    ``move_weight`` and ``pack_advisor`` (see :func:`insert_kernel` and
    :func:`advisor_step_kernel`). Every new state is looked up in the other
    direction's pool ``other`` (a table of size 1 holding 0 is empty): a hit ends
    the search with ``ctr[C_MEET]`` the other search's node. ``cs`` is the
    corral-deadlock test's scratch (see :func:`corral_deadlock_kernel`).
    """
    if ctr[C_INIT] == 0:
        ctr[C_INIT] = 1
        if roots_kernel(board, pool, fr, other, ctr, s, sc, asg, gs) == SOLVED:
            return SOLVED
    return expand_kernel(board, pool, fr, other, ctr, s, budget, sc, asg, gs, cs)


@njit
def expand_kernel(board, pool, fr, other, ctr, s, budget, sc, asg, gs, cs):  # type: ignore[no-untyped-def]
    """One slice of :func:`search_kernel`: at most ``budget`` times, take a node (phase
    1), load it (2), generate every box's moves (3), prune each child (4), and store,
    score and open the survivors (5); a status code.

    The groups are unpacked once a slice and the helpers get the few arrays they use
    (see the notes above :class:`Board`): this is why the phases are the parts of one
    loop here rather than functions of their own.
    """
    floor, goalm, goals, dead, dist, off, zbox, zpl, garea, forder, fstart, hot, tunnel = board[:13]
    pairs, lidx, fidx, pm2, influence = board[13:]
    boxat, mark, mark2, queue, cells, sorted_cells, fz, lab, bseen, allow = sc[:10]
    pa_box, pa_tgt, pa_end, pa_move, ca_tgt, one, fg = sc[10:]
    u, v, p, way, minv, used, u2, v2, p2, cnode, cu, cv, cp = asg
    pboxes, pplayer, pg, ptable, phash = pool.boxes, pool.player, pool.g, pool.table, pool.hash
    otable, ohash, oplayer, oboxes = other.table, other.hash, other.player, other.boxes
    gmark, gstamp = gs.mark, gs.stamp
    nb = cells.shape[0]
    for _ in range(budget):
        # phase 1: the next node
        top, k = take_kernel(fr, ctr, s.fess)
        if k < 0:
            return EXHAUSTED
        if s.optimal != 0:
            h = top & H_MASK
            if (top >> KEY_SHIFT) - h != pg[k]:
                continue  # stale entry: a shorter way to this node was found
            if is_goal_kernel(s, h, pplayer[k]):
                return solved_kernel(ctr, k, -1)
        ctr[C_EXPANDED] += 1
        # phase 2: the node's position, region, assignment, corral restriction and advice
        for j in range(nb):
            cells[j] = pboxes[k, j]
            boxat[cells[j]] = j
        ctr[C_STAMP] += 1
        stamp = ctr[C_STAMP]
        flood_min_kernel(floor, boxat, off, pplayer[k], stamp, mark, queue)
        kslot = k & (cnode.shape[0] - 1)
        if cnode[kslot] == k:  # its matching was kept when it was stored
            load_duals_kernel(kslot, cu, cv, cp, u, v, p)
            ctr[C_DUALS] += 1
        else:
            hungarian_kernel(cells, dist, u, v, p, way, minv, used)
        pcell = 0
        pconn = -1  # the parent's connectivity digit of pcell (-1: not counted)
        last = -1  # box_runs: the cell of the box the last move moved, and the way it went (a macro: its first push)
        lastd = -1
        if s.box_runs != 0 and s.fess != 0 and s.move_weight > 0 and pool.parent[k] >= 0:
            last = moved_box_kernel(pboxes, k, pool.parent[k])
            lastd = pool.push[k] & 3
        rlast = -1  # relevance cuts: where the last push left its box, and the distant pushes before it
        rdistant = 0
        if s.relevance_window > 0:
            rlast, rdistant = relevance_kernel(
                pboxes, pool.parent, pool.push, influence, k, s.relevance_window, s.relevance_reach
            )
        if s.fess != 0 and s.move_weight > 0:
            nhot = obstruction_kernel(s, hot, tunnel, goalm, cells)
            pcell = feature_cell_kernel(
                floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue, nhot, mark, stamp, -1
            )
            pconn = pcell % NCONN
        restricted = False
        if s.corrals != 0 and s.backward == 0:
            res = pi_corral_kernel(
                floor, goalm, dead, boxat, off, mark, stamp, cells, lab, ctr[C_LAB], queue, bseen, allow,
                1 if goals.shape[0] > nb else 0,
            )  # fmt: skip
            ctr[C_LAB] += (res >> 1) + 1
            restricted = (res & 1) != 0
            if restricted:
                ctr[C_PRUNED] += 1
        advice = 0
        checked = False  # the packing advisor's moves found already (pa_move)
        if s.pack_advisor > 0 and s.fess != 0 and not restricted:  # backward: the start's areas, pulled into
            advice = pack_advice_kernel(boxat, cells, goals, garea, forder, fstart, dist, pa_end, pa_box, pa_tgt)
            if advice > 0 and s.pack_tries > 1 and s.backward == 0:
                advice = pack_retry_kernel(board, sc, gs, s.pack_advisor, s.pack_tries, pplayer[k])
                checked = True
        joins = 0
        if s.conn_advisor > 0 and s.fess != 0 and s.backward == 0 and not restricted:
            joins = conn_advice_kernel(
                floor, dead, boxat, off, cells, pplayer[k], s.conn_advisor, gs.vis, gstamp, gs.qbox, gs.qpl, gs.qg,
                gmark, queue, ca_tgt,
            )  # fmt: skip
        one[0] = -1
        one[2] = -1
        one[4] = -1
        if s.hot_advisor > 0 and s.fess != 0 and s.backward == 0 and not restricted:
            hot_advice_kernel(board, sc, gs, s.hot_advisor, pplayer[k])
        if s.oop_advisor > 0 and s.fess != 0 and s.backward == 0 and not restricted:
            oop_advice_kernel(board, sc, gs, s.oop_advisor, pplayer[k])
        if s.open_advisor > 0 and advice > 0:
            opener_advice_kernel(board, sc, gs, s.open_advisor, pplayer[k])
        nmoves = 4
        for d, on in ((5, advice > 0), (6, joins > 0), (7, one[0] >= 0), (8, one[2] >= 0), (9, one[4] >= 0)):
            if on:
                nmoves = d
        parent_key = phash[k] ^ zpl[pplayer[k]]
        status = RUNNING
        for i in range(nb):
            c = cells[i]
            for d in range(nmoves):
                # phase 3: the move's first step: a push (a pull backward) if the player can get
                # behind the box, the way is free and not dead, and a PI-corral allows it; d == 4,
                # the packing advisor's move of box i, d == 5 the connectivity advisor's, d == 6
                # the hotspot advisor's, d == 7 the out-of-plan advisor's, d == 8 the opener's;
                # backward, d == 4 pulls the box into a start area's next cell (written out here,
                # not called: an array passed to a function costs two atomic reference counts a
                # call, per move)
                to0, pl0, steps0 = c + off[d & 3], c, 1
                if d >= 4:
                    tgt, area = -1, 0
                    if d >= 6:  # one[0:2]: the hotspot advisor's box and cell; one[2:4] out of plan; one[4:6] opener
                        w = 2 * (d - 6)
                        tgt = one[w + 1] if one[w] == i else -1
                    elif d == 5:
                        if joins > 0:
                            tgt = ca_tgt[i]
                    elif advice > 0:
                        for a in range(pa_box.shape[0]):
                            if pa_box[a] == i:
                                tgt = pa_tgt[a]
                                area = a
                    if tgt < 0:
                        continue
                    bound = s.pack_advisor
                    if d >= 5:
                        bound = (s.conn_advisor, s.hot_advisor, s.oop_advisor, s.open_advisor)[d - 5]
                    if d == 4 and checked:
                        to0, pl0, steps0 = tgt, pa_move[area, 0], pa_move[area, 1]
                    else:
                        to0, pl0, steps0 = advisor_step_kernel(board, sc, gs, bound, pplayer[k], c, tgt, s.backward)
                    if steps0 == 0:
                        continue
                elif s.backward != 0:
                    pl0 = to0 + off[d]
                    if mark[to0] != stamp or floor[pl0] == 0 or boxat[pl0] >= 0 or dead[to0] != 0:
                        continue
                elif mark[c - off[d]] != stamp or floor[to0] == 0 or boxat[to0] >= 0 or dead[to0] != 0:
                    continue
                elif restricted and allow[i * 4 + d] == 0:
                    continue
                if d < 4 and rlast >= 0 and rdistant >= s.relevance_distant and influence[rlast, c] > s.relevance_reach:
                    ctr[C_CUTS] += 1  # a distant push (pull), with as many distant ones as allowed before it
                    continue
                # with goal macros (forward, not strict) a push gives two children: the plain
                # push, then the push carried on to its goal area's next goal when that applies
                for variant in range(2 if s.macros == 1 and s.backward == 0 and d < 4 else 1):
                    to, newpl, steps = to0, pl0, steps0
                    boxat[c] = -1
                    boxat[to] = i
                    cells[i] = to
                    macro = 0
                    if d >= 4:
                        macro = 1
                        ctr[C_MACROS] += 1
                    elif s.macros != 0 and s.backward == 0:
                        to, newpl, extra = tunnel_kernel(floor, goalm, dead, off, boxat, cells, i, d, to, newpl)
                        steps += extra
                    if d < 4 and (variant == 1 or s.macros == 2) and garea[to] >= 0:
                        to, newpl, steps, macro = goal_step_kernel(board, sc, gs, ctr, s.macros, i, c, to, newpl, steps)
                    if variant == 1 and macro != 1:
                        macro = -1  # no goal macro here: the plain push was the only child
                    # phase 4: prune (a freeze deadlock forward, a dead pair), then find the child
                    alive = macro >= 0
                    if alive and s.backward == 0 and blocked_kernel(floor, boxat, dead, off, to):
                        alive = not frozen_after_kernel(floor, dead, goalm, goals, off, boxat, cells, fz, queue, fg)
                    if alive and pair_dead_kernel(pairs, lidx, fidx, cells, i, newpl):
                        alive = False
                        ctr[C_PAIRS] += 1
                    if alive:
                        # the child's region: when one step moved the box and a look round c and
                        # to tells (told), the parent's (mark == stamp) less to and with c (marked
                        # until the move is undone), with as many regions as the parent's (conn);
                        # else flooded (mark2 == stamp2). (Two calls below rather than one array
                        # variable for both: an array assigned costs reference counts.)
                        ctr[C_STAMP] += 1
                        stamp2 = ctr[C_STAMP]
                        conn = -1
                        marked_c = 0
                        pl = -1
                        if macro == 0 and to == c + off[d] and (s.fess == 0 or pconn >= 0):
                            pl = child_min_kernel(floor, boxat, off, mark, stamp, pplayer[k], c, to)
                        told = pl >= 0
                        if told:
                            conn = pconn
                            marked_c = mark[c]
                            mark[c] = stamp
                        else:
                            pl = flood_min_kernel(floor, boxat, off, newpl, stamp2, mark2, queue)
                        key = parent_key ^ zbox[c] ^ zbox[to] ^ zpl[pl]
                        rank = sort_child_kernel(cells, sorted_cells, i, to)
                        found = lookup_kernel(ptable, phash, pplayer, pboxes, key, sorted_cells, pl)
                        g2 = pg[k] + steps
                        code = encode_push(macro, steps, c, d)
                        h2 = BIG
                        if found < 0 or (s.optimal != 0 and g2 < pg[found]):
                            h2 = child_bound_kernel(i + 1, cells, dist, u, v, p, u2, v2, p2, way, minv, used)
                        corral = False
                        if found < 0 and h2 < BIG and s.corral_nodes > 0 and s.backward == 0:
                            nodes, most, grow = s.corral_nodes, s.corral_boxes, s.corral_grow
                            if told:
                                corral = corral_deadlock_kernel(
                                    floor, goalm, dead, off, zbox, zpl, boxat, cells, mark, stamp, to, newpl, pl,
                                    nodes, most, grow, cs,
                                )  # fmt: skip
                            else:
                                corral = corral_deadlock_kernel(
                                    floor, goalm, dead, off, zbox, zpl, boxat, cells, mark2, stamp2, to, newpl, pl,
                                    nodes, most, grow, cs,
                                )  # fmt: skip
                        if found >= 0:
                            if h2 < BIG:  # A*: a shorter way to a stored state reopens it
                                status = reopen_kernel(pool, fr, ctr, found, k, g2, h2, code)
                        elif corral:
                            ctr[C_CORRAL] += 1
                        elif h2 < BIG:
                            # phase 5: store, then stop (met, or a goal) or score and open
                            met = lookup_kernel(otable, ohash, oplayer, oboxes, key, sorted_cells, pl)
                            cell = 0
                            if s.fess != 0 and met < 0:
                                nhot = obstruction_kernel(s, hot, tunnel, goalm, cells)
                                cell = feature_cell_kernel(
                                    floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue, nhot,
                                    mark2, stamp2, conn,
                                )  # fmt: skip
                            gp = s.goal_player
                            if told:
                                away = s.backward != 0 and (mark[gp] != stamp or boxat[gp] >= 0)
                            else:
                                away = s.backward != 0 and mark2[gp] != stamp2
                            # an advisor's move is free, as is (box_runs) a push on of the box last moved
                            free = pcell if d < 4 and not (c == last and d == lastd) else -1
                            # and (novelty) a push to a new position, or (novelty_cells) the new
                            # positions have cells of their own, the twins of theirs, which take
                            # their turns as the others do (so they come early)
                            if s.novelty > 0 and novelty_kernel(gs.nov, packing_of(cell), cells, i, s.novelty):
                                if s.novelty_cells != 0:
                                    cell += fr.croot.shape[0] >> 1
                                else:
                                    free = -1
                            extra = 0
                            if s.pair_penalty != 0:  # fz, the freeze test's scratch, is free again here
                                extra = pair_penalty_kernel(pairs, lidx, fidx, pm2, cells, pl, fz)
                            n = ctr[C_NODES]
                            status = insert_kernel(
                                pool, fr, ctr, s, k, found, pl, g2, h2, code, key, sorted_cells, met, away, free, cell,
                                extra,
                            )  # fmt: skip
                            if ctr[C_NODES] > n:  # stored: keep its matching for its expansion
                                slot = n & (cnode.shape[0] - 1)
                                keep_duals_kernel(slot, n, i + 1, rank + 1, u2, v2, p2, cnode, cu, cv, cp)
                    if alive and told:
                        mark[c] = marked_c
                    boxat[to] = -1  # undo the move
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
            put_back_kernel(fr, ctr, s.fess, top, k)
            return MEMORY
        if status == SOLVED:
            return SOLVED
    return RUNNING


@njit
def advise_kernel(board, sc, gs, bound, player, i, slot):  # type: ignore[no-untyped-def]
    """An advisor's pick in ``sc.one[slot:slot + 2]``: box ``i`` and the first cell, fewest pushes
    first (a lone-box search of at most ``bound`` states from the player on ``player``), where
    ``gs.want`` is set; True when there is one (``one[slot]`` is left as it was otherwise)."""
    cell = nearest_push_kernel(
        board.floor, board.dead, sc.boxat, board.off, sc.cells[i], player, bound, 0, gs.want, gs.vis, gs.stamp,
        gs.qbox, gs.qpl, gs.qg, gs.mark, sc.queue,
    )  # fmt: skip
    if cell < 0:
        return False
    sc.one[slot] = i
    sc.one[slot + 1] = cell
    return True


@njit
def hot_advice_kernel(board, sc, gs, bound, player):  # type: ignore[no-untyped-def]
    """The hotspot advisor's choice, in ``sc.one[0:2]``: the box that cuts the most others off every
    goal (:func:`hotspots_kernel`) and the first cell, fewest pushes first (a lone-box search of
    at most ``bound`` states from the player on ``player``), where it cuts off none
    (:func:`cool_cells_kernel`); ``one[0]`` -1 when there is no hotspot or no such cell."""
    one = sc.one
    one[0] = -1
    best = hotspots_kernel(board.hot, board.goalm, sc.cells)[1]
    if best < 0:
        return 0
    cool_cells_kernel(board.hot, board.goalm, sc.cells, best, gs.want)
    advise_kernel(board, sc, gs, bound, player, best, 0)
    return 0


@njit
def oop_advice_kernel(board, sc, gs, bound, player):  # type: ignore[no-untyped-def]
    """The out-of-plan advisor's choice, in ``sc.one[2:4]``: the first box out of plan (on a goal
    of a goal area past the filled prefix of its packing order, see :func:`out_of_plan_kernel`)
    and the first cell, fewest pushes first (a lone-box search of at most ``bound`` states from
    the player on ``player``), where it is out of plan no more: off every goal area, or on its
    area's next goal; ``one[2]`` -1 when no box is out of plan or none finds such a cell."""
    one = sc.one
    one[2] = -1
    garea, forder, fstart, boxat, want = board.garea, board.forder, board.fstart, sc.boxat, gs.want
    for a in range(fstart.shape[0] - 1):
        nxt = prefix_end_kernel(boxat, forder, fstart[a], fstart[a + 1])
        for q in range(nxt + 1, fstart[a + 1]):
            i = boxat[forder[q]]
            if i < 0:
                continue
            for z in range(want.shape[0]):
                want[z] = 1 if garea[z] < 0 else 0
            want[forder[nxt]] = 1
            advise_kernel(board, sc, gs, bound, player, i, 2)
            return 0
    return 0


@njit
def ghost_path_kernel(floor, dead, off, start, player, target, limit, gs, queue):  # type: ignore[no-untyped-def]
    """The way the box on ``start`` would take to ``target`` were it the only box on the board
    (fewest pushes, the player starting on ``player``; a breadth-first search of at most
    ``limit`` states, as :func:`goal_macro_kernel`'s): written to ``gs.path`` from the target
    back, for each push the box's new cell, then the cell the player pushed from. Returns how
    many cells were written, 0 when there is no such way within ``limit`` states."""
    qbox, qpl, qpar, vis, vstamp = gs.qbox, gs.qpl, gs.qpar, gs.vis, gs.stamp
    mark, empty, path = gs.mark, gs.empty, gs.path
    vstamp[0] += 1
    vs = vstamp[0]
    qbox[0] = start
    qpl[0] = player
    qpar[0] = -1
    head = 0
    tail = 1
    found = -1
    while head < tail and head < limit and found < 0:
        b = qbox[head]
        k = head
        head += 1
        vstamp[0] += 1
        empty[b] = 0  # the box alone: ``empty`` holds no other
        flood_min_kernel(floor, empty, off, qpl[k], vstamp[0], mark, queue)
        empty[b] = -1
        for d in range(4):
            behind = b - off[d]
            to = b + off[d]
            if mark[behind] != vstamp[0] or floor[to] == 0 or dead[to] != 0 or vis[to * 4 + d] == vs:
                continue
            vis[to * 4 + d] = vs
            qbox[tail] = to
            qpl[tail] = b
            qpar[tail] = k
            tail += 1
            if to == target:
                found = tail - 1
                break
    n = 0
    k = found
    while k > 0:
        path[n] = qbox[k]
        path[n + 1] = 2 * qpl[k] - qbox[k]  # the player stood behind the box's last cell
        n += 2
        k = qpar[k]
    return n


@njit
def opener_advice_kernel(board, sc, gs, bound, player):  # type: ignore[no-untyped-def]
    """The opener's choice, in ``sc.one[4:6]`` (Festival's opener, for the packing advisor): when
    a goal area's advised box (``sc.pa_box``, see :func:`pack_advice_kernel`) cannot reach its
    goal alone (a lone-box search of at most ``bound`` states), the first other box on the way
    it would take were it the only box (:func:`ghost_path_kernel`: its cells and the player's
    behind it), and the first cell, fewest pushes first, to which that box can be pushed alone
    off that way; ``one[4]`` -1 when there is none."""
    one, boxat, cells, want = sc.one, sc.boxat, sc.cells, gs.want
    one[4] = -1
    for a in range(sc.pa_box.shape[0]):
        i = sc.pa_box[a]
        if i < 0:
            continue
        c, tgt = cells[i], sc.pa_tgt[a]
        steps = goal_macro_kernel(
            board.floor, board.dead, boxat, board.off, board.garea, -1, c, player, tgt, gs.vis, gs.stamp, gs.qbox,
            gs.qpl, gs.qg, gs.mark, sc.queue, gs.out, bound, 0,
        )  # fmt: skip
        if steps > 0:
            continue  # the way is open: the packing advisor's own move goes
        n = ghost_path_kernel(board.floor, board.dead, board.off, c, player, tgt, bound, gs, sc.queue)
        blocker = -1
        for t in range(n):
            j = boxat[gs.path[t]]
            if j >= 0 and j != i:
                blocker = j
                break
        if blocker < 0:
            continue
        for z in range(want.shape[0]):
            want[z] = 1
        for t in range(n):
            want[gs.path[t]] = 0
        if advise_kernel(board, sc, gs, bound, player, blocker, 4):
            return 0
    return 0


@njit
def advisor_step_kernel(board, sc, gs, bound, player, c, tgt, pull):  # type: ignore[no-untyped-def]
    """Phase 3, an advisor's move: the box on ``c`` goes all the way to the cell ``tgt`` the
    advisor chose for it (a goal, :func:`pack_advice_kernel`; a cell that joins regions,
    :func:`conn_advice_kernel`; or a cell out of the way or out of plan no more,
    :func:`hot_advice_kernel`, :func:`oop_advice_kernel`; backward, ``pull`` 1, a start area's
    next cell, pulled) when a lone-box search of at most ``bound`` (box cell, side) states finds
    the way: ``(cell, player, moves)``, moves 0 otherwise."""
    steps = goal_macro_kernel(
        board.floor, board.dead, sc.boxat, board.off, board.garea, -1, c, player, tgt, gs.vis, gs.stamp, gs.qbox,
        gs.qpl, gs.qg, gs.mark, sc.queue, gs.out, bound, pull,
    )  # fmt: skip
    if steps <= 0 or steps >= MAX_MACRO_STEPS:
        return c, c, 0
    return tgt, gs.out[0], steps


@njit
def move_box_kernel(boxat, cells, i, frm, to):  # type: ignore[no-untyped-def]
    """Move box ``i`` from ``frm`` to ``to`` in ``boxat`` and ``cells``."""
    boxat[frm] = -1
    boxat[to] = i
    cells[i] = to


@njit
def tunnel_kernel(floor, goalm, dead, off, boxat, cells, i, d, to, newpl):  # type: ignore[no-untyped-def]
    """Phase 3, the tunnel macro: a box pushed along a one-wide corridor, the player
    following in it, goes on to the corridor's end in one move. ``(to, player, extra
    pushes)`` after box ``i`` was pushed onto ``to`` in direction ``d``."""
    a = 2 if d < 2 else 0  # the two sides across the direction
    extra = 0
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
        move_box_kernel(boxat, cells, i, to, nxt)
        newpl = to
        to = nxt
        extra += 1
    return to, newpl, extra


@njit
def packing_prefix_kernel(boxat, forder, lo, hi, i):  # type: ignore[no-untyped-def]
    """The next goal of a packing order ``forder[lo:hi]`` when the boxes on its goals, box
    ``i`` left out, fill exactly a prefix of it (-1 otherwise)."""
    m = 0
    for t in range(lo, hi):
        bt = boxat[forder[t]]
        if bt >= 0 and bt != i:
            m += 1
    if lo + m >= hi:
        return -1
    for t in range(lo, lo + m):
        bt = boxat[forder[t]]
        if bt < 0 or bt == i:
            return -1
    return forder[lo + m]


@njit
def goal_step_kernel(board, sc, gs, ctr, macros, i, c, to, newpl, steps):  # type: ignore[no-untyped-def]
    """Phase 3, the goal macro: box ``i`` (pushed from ``c``) entering a goal area whose
    goals are filled in its packing order so far goes straight on to the next goal.

    Returns ``(to, player, steps, macro)``: ``macro`` 1 when the box was carried on, -1
    when the strict packing order (``macros`` 2) forbids this entry, else 0.
    """
    garea = board.garea
    ga = garea[to]
    target = packing_prefix_kernel(sc.boxat, board.forder, board.fstart[ga], board.fstart[ga + 1], i)
    if target >= 0 and target != to and steps < MAX_MACRO_STEPS:
        r = goal_macro_kernel(
            board.floor, board.dead, sc.boxat, board.off, garea, ga, to, newpl, target, gs.vis, gs.stamp, gs.qbox,
            gs.qpl, gs.qg, gs.mark, sc.queue, gs.out, 0, 0,
        )  # fmt: skip
        if 0 < r < MAX_MACRO_STEPS:
            move_box_kernel(sc.boxat, sc.cells, i, to, target)
            ctr[C_MACROS] += 1
            return target, gs.out[0], steps + r, 1
        if macros == 2 and garea[c] != ga:
            return to, newpl, steps, -1  # strict: a box entering out of the packing order is not tried
    return to, newpl, steps, 0


@njit
def frozen_after_kernel(floor, dead, goalm, goals, off, boxat, cells, fz, queue, fg):  # type: ignore[no-untyped-def]
    """Phase 4: True when the position is a freeze deadlock: frozen boxes off goals, or
    frozen boxes that leave the others too few reachable goals (tested when the box just
    pushed is blocked on both axes)."""
    if frozen_kernel(cells, boxat, floor, dead, goalm, off, fz):
        return True
    return frozen_goals_kernel(cells, fz, floor, goals, off, queue, fg)


@njit
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


@njit
def sorted_row_kernel(row, i, r):  # type: ignore[no-untyped-def]
    """Where row ``row`` (1-based) of a child goes once its rows are sorted: row ``i`` (the
    moved box) to ``r``, the rows between them one step towards ``i``'s old place."""
    if row == i:
        return r
    if i < row <= r:
        return row - 1
    if r <= row < i:
        return row + 1
    return row


@njit
def keep_duals_kernel(slot, n, i, r, u2, v2, p2, cnode, cu, cv, cp):  # type: ignore[no-untyped-def]
    """Keep node ``n``'s matching (``u2``, ``v2``, ``p2``: its rows in the child's order, box ``i``
    moved, 1-based) in the cache's ``slot``, rows in the node's sorted order (``i`` at ``r``)."""
    cnode[slot] = n
    cu[slot, 0] = u2[0]
    for row in range(1, u2.shape[0]):
        cu[slot, sorted_row_kernel(row, i, r)] = u2[row]
    for j in range(v2.shape[0]):
        cv[slot, j] = v2[j]
        cp[slot, j] = 0 if p2[j] == 0 else sorted_row_kernel(p2[j], i, r)


@njit
def load_duals_kernel(slot, cu, cv, cp, u, v, p):  # type: ignore[no-untyped-def]
    """The cached matching of the cache's ``slot`` into ``u``, ``v``, ``p``."""
    for row in range(u.shape[0]):
        u[row] = cu[slot, row]
    for j in range(v.shape[0]):
        v[j] = cv[slot, j]
        p[j] = cp[slot, j]


@njit
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


@njit
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


@njit
def reopen_kernel(pool, fr, ctr, node, parent, g, h, code):  # type: ignore[no-untyped-def]
    """A*: ``node`` reached by a shorter way (``g`` pushes, from ``parent``) goes back on the heap."""
    if ctr[C_HEAP] >= fr.hkey.shape[0] - 1:
        return MEMORY
    pool.g[node] = g
    pool.parent[node] = parent
    pool.push[node] = code
    ctr[C_HEAP] = heap_push_kernel(fr.hkey, fr.hnode, ctr[C_HEAP], (np.int64(g + h) << KEY_SHIFT) | h, node)
    return RUNNING


@njit
def insert_kernel(pool, fr, ctr, s, k, slot, pl, g, h, code, key, boxes, met, away, pcell, cell, extra):  # type: ignore[no-untyped-def]
    """Phase 5: store the child of ``k`` (sorted ``boxes``, player ``pl``, bound ``h``) in the
    table at ``-1 - slot``, stop when it is the other direction's node ``met`` (>= 0) or
    (fast mode) a goal, else score it and open it; a status code.

    The key is ``weight * (h + penalty + extra) + g``, the penalty ``player_penalty`` when a
    backward position's player cannot reach the goal region (``away``: the last pulls
    would need the player elsewhere), ``extra`` the pairs' penalties (forward, with
    ``pair_penalty``); A*'s is ``g + h``. In the feature-space search
    the node goes to its feature cell's heap (``cell``), and with ``move_weight`` its key
    grows by that weight times the pushes on its way that improved no feature (one that
    improves a feature over the parent's cell ``pcell`` is free, as an advisor's move is, and
    with ``box_runs`` a push of the box the parent's move moved on in the same direction:
    ``pcell`` -1), so a cell's shallow states come first.
    """
    n = ctr[C_NODES]
    if n >= ctr[C_CAP] or ctr[C_HEAP] >= fr.hkey.shape[0] - 1:
        return MEMORY
    store_kernel(pool, ctr, n, k, pl, g, code, key, slot, boxes)
    ctr[C_GENERATED] += 1
    if h < ctr[C_BEST_H]:
        ctr[C_BEST_H] = h
    if met >= 0:
        return solved_kernel(ctr, n, met)
    if s.optimal != 0:
        ctr[C_HEAP] = heap_push_kernel(fr.hkey, fr.hnode, ctr[C_HEAP], (np.int64(g + h) << KEY_SHIFT) | h, n)
        return RUNNING
    if is_goal_kernel(s, h, pl):
        return solved_kernel(ctr, n, -1)
    pen = s.player_penalty if away else 0
    hk = (np.int64(s.weight * (h + pen + extra) + g) << KEY_SHIFT) | h
    if s.fess == 0:
        ctr[C_HEAP] = heap_push_kernel(fr.hkey, fr.hnode, ctr[C_HEAP], hk, n)
        return RUNNING
    if s.move_weight > 0:
        free = pcell < 0 or improves_kernel(pcell, cell)
        pool.acc[n] = pool.acc[k] + (0 if free else 1)
        hk += np.int64(s.move_weight * pool.acc[n]) << KEY_SHIFT
    cell_push_kernel(fr.croot, cell, n, hk, fr.mch, fr.mkey)
    ctr[C_OPEN] += 1
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
