"""The compiled loops of mazekit.minesweeper: opening, deduction, probabilities, play.

Every kernel works on a *padded, flattened* board (a one-cell border around it,
raveled), so the 8 neighbours of cell ``u`` are ``u + offsets[k]`` and no loop
checks bounds. Two arrays describe a position:

* ``dens`` (int8): the density (0-8) of each safe cell, :data:`MINE` (9) for a
  mine, :data:`BORDER` (-3) on the border;
* ``know`` (int8): what the player knows: :data:`UNKNOWN` (-1) for a closed
  cell, :data:`KNOWN_MINE` (-2) for a cell proved to be a mine, :data:`BORDER`
  (-3) on the border, and 0-8 for an open cell (its density).

The solver never reads ``dens`` except through :func:`reveal_kernel`, which
plays the move on the true board; its deductions come from ``know`` only.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import njit

UNKNOWN = -1
KNOWN_MINE = -2
BORDER = -3
MINE = 9

# ----------------------------------------------------------------- opening


@njit
def reveal_kernel(dens, know, offsets, cell, queue):  # type: ignore[no-untyped-def]
    """Open ``cell`` (a closed safe cell) and spread from zeros (the article's "loang").

    Returns the number of cells opened; ``queue[:n]`` holds them in order.
    """
    if know[cell] != UNKNOWN:
        return 0
    know[cell] = dens[cell]
    queue[0] = cell
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        if dens[u] == 0:
            for k in range(8):
                v = u + offsets[k]
                if know[v] == UNKNOWN:
                    know[v] = dens[v]
                    queue[tail] = v
                    tail += 1
    return tail


# --------------------------------------------------------------- deduction


@njit
def simple_kernel(know, offsets, width, safe, mark):  # type: ignore[no-untyped-def]
    """One pass of the local rules; proved mines are written into ``know``.

    Single-cell rule: a number whose closed neighbours equal its missing mines
    (all mines) or whose mines are all known (all safe). Pair rule: for two
    numbers ``a`` and ``b`` at most two cells apart, the mines in their shared
    closed cells lie in ``[lo, hi]``; when that forces ``a``'s other cells to be
    all mines or all safe, they are. (This contains the subset rule.)
    Safe cells are listed in ``safe`` (``mark`` is a scratch array of zeros,
    left zeroed); returns ``(number of safe cells, number of mines found)``.
    """
    n = know.shape[0]
    nsafe = 0
    nmine = 0
    for a in range(n):
        ka = int(know[a])
        if ka < 0:
            continue
        # closed neighbours and missing mines of a
        need_a = ka
        size_a = 0
        for k in range(8):
            v = know[a + offsets[k]]
            if v == UNKNOWN:
                size_a += 1
            elif v == KNOWN_MINE:
                need_a -= 1
        if size_a == 0:
            continue
        if need_a == 0 or need_a == size_a:
            for k in range(8):
                v = a + offsets[k]
                if know[v] == UNKNOWN:
                    if need_a == 0:
                        if mark[v] == 0:
                            mark[v] = 1
                            safe[nsafe] = v
                            nsafe += 1
                    else:
                        know[v] = KNOWN_MINE
                        nmine += 1
            continue
        ra = a // width
        ca = a % width
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                if dr == 0 and dc == 0:
                    continue
                b = a + dr * width + dc
                if b < 0 or b >= n:
                    continue
                kb = int(know[b])
                if kb < 0:
                    continue
                need_b = kb
                size_b = 0
                inter = 0
                rb = ra + dr
                cb = ca + dc
                for k in range(8):
                    v = b + offsets[k]
                    x = know[v]
                    if x == UNKNOWN:
                        size_b += 1
                        vr = v // width
                        vc = v % width
                        if abs(vr - ra) <= 1 and abs(vc - ca) <= 1:
                            inter += 1
                    elif x == KNOWN_MINE:
                        need_b -= 1
                if inter == 0 or size_b == 0:
                    continue
                only_a = size_a - inter
                only_b = size_b - inter
                if only_a == 0:
                    continue
                lo = max(0, need_a - only_a, need_b - only_b)
                hi = min(need_a, need_b, inter)
                if need_a - hi == only_a or need_a - lo == 0:
                    all_mine = need_a - hi == only_a
                    for k in range(8):
                        v = a + offsets[k]
                        if know[v] != UNKNOWN:
                            continue
                        vr = v // width
                        vc = v % width
                        if abs(vr - rb) <= 1 and abs(vc - cb) <= 1:
                            continue
                        if all_mine:
                            know[v] = KNOWN_MINE
                            nmine += 1
                        elif mark[v] == 0:
                            mark[v] = 1
                            safe[nsafe] = v
                            nsafe += 1
                    return nsafe_clear(safe, mark, nsafe), nmine
    return nsafe_clear(safe, mark, nsafe), nmine


@njit
def nsafe_clear(safe, mark, nsafe):  # type: ignore[no-untyped-def]
    """Zero ``mark`` at the listed cells; return ``nsafe``."""
    for i in range(nsafe):
        mark[safe[i]] = 0
    return nsafe


# ----------------------------------------------------------- probabilities


@njit
def constraints_kernel(know, offsets, frontier_only, index, counts, links):  # type: ignore[no-untyped-def]
    """The unknowns of a position and the constraints its numbers put on them.

    The *variables* are the closed cells in index order: with ``frontier_only``
    only those next to an open cell (the frontier; the others are counted as
    the *interior*), else all of them. The *constraints* are the open cells
    next to a closed cell, in index order: the closed neighbours of each hold
    its number minus its known-mine neighbours. Shared by
    :func:`probability_kernel` (frontier only) and :func:`~._guess_kernels.endgame_kernel` (all
    closed cells). The caller passes the output arrays (``n = know.shape[0]``):

    * ``index`` (int64, ``(2, n)``): ``index[0]`` the variable of each cell
      (-1 for the others), ``index[1, :nv]`` the cell of each variable;
    * ``counts`` (int64, ``(3, n)``): for constraint ``c``, ``counts[0, c]``
      its missing mines and ``counts[1, c]`` its number of variables; for
      variable ``j``, ``counts[2, j]`` its number of constraints;
    * ``links`` (int64, ``(2, n, 8)``): ``links[0, c, :counts[1, c]]`` the
      variables of constraint ``c`` (in the order of ``offsets``),
      ``links[1, j, :counts[2, j]]`` the constraints on variable ``j`` (in
      increasing order).

    Returns ``(nv, nc, interior, known_mines)``: the numbers of variables and
    constraints, of closed cells that are not variables, of known mines.
    """
    n = know.shape[0]
    cell_var = index[0]
    var_cell = index[1]
    need = counts[0]
    csize = counts[1]
    ccount = counts[2]
    cvars = links[0]
    ccons = links[1]
    nv = 0
    interior = 0
    known_mines = 0
    for i in range(n):
        cell_var[i] = -1
        x = know[i]
        if x == UNKNOWN:
            edge = True
            if frontier_only:
                edge = False
                for k in range(8):
                    if know[i + offsets[k]] >= 0:
                        edge = True
                        break
            if edge:
                cell_var[i] = nv
                var_cell[nv] = i
                ccount[nv] = 0
                nv += 1
            else:
                interior += 1
        elif x == KNOWN_MINE:
            known_mines += 1
    nc = 0
    for i in range(n):
        if know[i] < 0:
            continue
        m = int(know[i])
        size = 0
        for k in range(8):
            v = i + offsets[k]
            x = know[v]
            if x == KNOWN_MINE:
                m -= 1
            elif x == UNKNOWN:
                j = cell_var[v]
                cvars[nc, size] = j
                size += 1
                ccons[j, ccount[j]] = nc
                ccount[j] += 1
        if size > 0:
            need[nc] = m
            csize[nc] = size
            nc += 1
    return nv, nc, interior, known_mines


@njit
def _lchoose(n, k):  # type: ignore[no-untyped-def]
    if k < 0 or k > n:
        return -np.inf
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit
def next_placement(order, lo, m, ccount, ccons, need, left, state, pos, min_mines, max_mines, max_nodes):  # type: ignore[no-untyped-def]
    """Advance a backtracking search over mine placements to its next placement.

    The variables ``order[lo], ..., order[lo + m - 1]`` (``m >= 1``) are given 0 or 1
    in that order; ``state[d]`` is 1 + the value of the ``d``-th (0 while unset), and
    each constraint's ``need`` (mines still missing) and ``left`` (variables still
    unset) follow every step (``ccount``/``ccons`` as :func:`constraints_kernel`
    gives them). A branch is cut as soon as a constraint cannot be met or the mines
    cannot end between ``min_mines`` and ``max_mines``. ``pos`` holds the search's
    depth, mines and nodes visited: zero it (and ``state[:m + 1]``) to start.

    Returns 1 with a placement in ``state`` (the next call resumes after it), 0 when
    every placement has been listed, -1 when more than ``max_nodes`` nodes were
    visited (everything applied is undone). Shared by :func:`probability_kernel`
    (one frontier component) and :func:`~._guess_kernels.endgame_kernel` (all closed cells).
    """
    depth = pos[0]
    mines = pos[1]
    nodes = pos[2]
    if depth == m:
        depth -= 1  # resume after the placement returned last time
    while depth >= 0:
        s = state[depth]
        f = order[lo + depth]
        if s > 0:
            x = s - 1
            for j in range(ccount[f]):
                c = ccons[f, j]
                need[c] += x
                left[c] += 1
            mines -= x
        if s == 2:
            state[depth] = 0
            depth -= 1
            continue
        state[depth] = s + 1
        ok = True
        for j in range(ccount[f]):
            c = ccons[f, j]
            need[c] -= s
            left[c] -= 1
            if need[c] < 0 or need[c] > left[c]:
                ok = False
        mines += s
        nodes += 1
        if nodes > max_nodes:
            for d in range(m):
                sd = state[d]
                if sd > 0:
                    g = order[lo + d]
                    for j in range(ccount[g]):
                        c = ccons[g, j]
                        need[c] += sd - 1
                        left[c] += 1
                state[d] = 0
            pos[0] = 0
            pos[1] = 0
            pos[2] = nodes
            return -1
        if ok and mines <= max_mines and mines + (m - depth - 1) >= min_mines:
            depth += 1
            if depth == m:
                pos[0] = depth
                pos[1] = mines
                pos[2] = nodes
                return 1
    pos[0] = 0
    pos[1] = 0
    pos[2] = nodes
    return 0


@njit
def probability_kernel(know, offsets, total_mines, prob, max_nodes, logz):  # type: ignore[no-untyped-def]
    """Exact mine probabilities of every closed cell, from ``know`` and the mine count.

    The closed cells next to a number (the frontier) are split into independent
    components (linked by shared numbers); each component's consistent mine
    placements are enumerated by backtracking and counted by their number of
    mines ``k``; the components are combined with the cells away from the
    frontier (the interior), a total of ``K`` frontier mines being weighted by
    ``C(interior, remaining - K)``. ``prob`` receives the probability of each
    closed cell (-1 elsewhere), exactly 0.0 or 1.0 for proved cells.

    ``logz[0]`` receives the natural log of the number of mine layouts that
    agree with ``know`` (``-inf`` when none does); the look-ahead compares it
    across hypothetical views to get the chance of each value a cell may show.
    ``logz[1]`` receives the number of search nodes used (the cost).

    Returns 0, or 1 when a component needed more than ``max_nodes`` search nodes
    (its cells then get a local estimate and nothing is proved for them; the
    count is then an estimate too), or 2 when no layout agrees with ``know``.
    """
    n = know.shape[0]
    index = np.empty((2, n), np.int64)
    counts = np.empty((3, n), np.int64)
    links = np.empty((2, n, 8), np.int64)
    # the variables are the frontier cells; the constraints, the open numbers next to them
    nf, nc, interior, flagged = constraints_kernel(know, offsets, True, index, counts, links)
    fidx, front = index[0], index[1]
    need, csize, ccount = counts[0], counts[1], counts[2]
    cvars, ccons = links[0], links[1]
    remaining = total_mines - flagged
    for i in range(n):
        prob[i] = -1.0
    order = np.empty(max(nf, 1), np.int64)
    cstart = np.zeros(nf + 1, np.int64)
    ncomp = _components(nf, ccount, ccons, csize, cvars, order, cstart)
    maxm = 0
    for a in range(ncomp):
        maxm = max(maxm, cstart[a + 1] - cstart[a])
    # cnt[a, k]: component a's placements with k mines; cellk[f, k]: those with a mine on f
    cnt = np.zeros((max(ncomp, 1), maxm + 1), np.float64)
    cellk = np.zeros((max(nf, 1), maxm + 1), np.float64)
    failed = np.zeros(max(ncomp, 1), np.bool_)
    status, total_nodes, lscale = _count_components(
        ncomp, cstart, order, ccount, ccons, need, csize, nc, remaining, max_nodes, cnt, cellk, failed
    )
    logz[1] = total_nodes
    # weights of a total of K frontier mines (K <= cap: at most the mines left)
    cap = min(nf, max(remaining, 0))
    w = np.zeros(cap + 1, np.float64)
    top = _frontier_weights(interior, remaining, cap, w)
    pre = np.zeros((ncomp + 1, cap + 1), np.float64)
    suf = np.zeros((ncomp + 1, cap + 1), np.float64)
    _convolve(ncomp, cstart, nf, cap, cnt, pre, suf)
    z = 0.0
    zi_mine = 0.0
    zi_safe = 0.0
    for kk in range(cap + 1):
        x = pre[ncomp, kk] * w[kk]
        z += x
        zi_mine += x * (remaining - kk)
        zi_safe += x * (interior - (remaining - kk))
    if z <= 0.0:
        # inconsistent knowledge (cannot happen in a real game): fall back to a flat guess
        logz[0] = -np.inf
        for i in range(n):
            if know[i] == UNKNOWN:
                prob[i] = 0.5
        return 2
    logz[0] = math.log(z) + lscale + top
    if interior > 0:
        _interior_probs(know, fidx, interior, z, zi_mine, zi_safe, prob)
    _frontier_probs(ncomp, cstart, nf, cap, maxm, order, front, pre, suf, w, cnt, cellk, failed, prob)
    return status


@njit
def _components(nf, ccount, ccons, csize, cvars, order, cstart):  # type: ignore[no-untyped-def]
    """Split the ``nf`` frontier variables into components linked by shared constraints.

    Component ``a`` is ``order[cstart[a]:cstart[a + 1]]``, listed in breadth-first
    order (so that its constraints close early in the search). Returns the number
    of components.
    """
    comp = np.full(max(nf, 1), -1, np.int64)
    ncomp = 0
    pos = 0
    for s in range(nf):
        if comp[s] >= 0:
            continue
        comp[s] = ncomp
        order[pos] = s
        head = pos
        pos += 1
        while head < pos:
            f = order[head]
            head += 1
            for j in range(ccount[f]):
                c = ccons[f, j]
                for t in range(csize[c]):
                    g = cvars[c, t]
                    if comp[g] < 0:
                        comp[g] = ncomp
                        order[pos] = g
                        pos += 1
        ncomp += 1
        cstart[ncomp] = pos
    return ncomp


@njit
def _count_components(ncomp, cstart, order, ccount, ccons, need, csize, nc, remaining, max_nodes, cnt, cellk, failed):  # type: ignore[no-untyped-def]
    """Count each component's mine placements by their number of mines.

    Fills ``cnt`` and ``cellk`` (see :func:`probability_kernel`), each component's
    counts scaled by a power of two; a component that needs more than
    ``max_nodes`` search nodes is marked in ``failed`` and gets a stand-in
    (:func:`_stand_in`). Returns ``(status, nodes, lscale)``: 1 when a component
    failed (else 0), the search nodes used, and the natural log of the scales
    taken out of the counts.
    """
    maxm = cnt.shape[1] - 1
    rem_need = need[:nc].copy()
    rem_left = csize[:nc].copy()
    state = np.zeros(maxm + 1, np.int64)
    walk = np.zeros(3, np.int64)  # next_placement's depth, mines and nodes
    status = 0
    lscale = 0.0
    total_nodes = 0
    for a in range(ncomp):
        lo = cstart[a]
        m = cstart[a + 1] - lo
        if not _enumerate(
            a, lo, m, order, ccount, ccons, rem_need, rem_left, state, walk, remaining, max_nodes, cnt, cellk
        ):
            failed[a] = True
            status = 1
        total_nodes += walk[2]
        if failed[a]:
            _stand_in(a, lo, m, order, ccount, ccons, need, csize, cnt, cellk)
        else:
            lscale = _rescale(a, lo, m, order, cnt, cellk, lscale)
    return status, total_nodes, lscale


@njit
def _enumerate(a, lo, m, order, ccount, ccons, rem_need, rem_left, state, walk, remaining, max_nodes, cnt, cellk):  # type: ignore[no-untyped-def]
    """List the placements of component ``a`` (``m`` variables from ``order[lo]``) with
    :func:`next_placement`, adding each to ``cnt[a, mines]`` and, for every variable
    ``f`` holding a mine, to ``cellk[f, mines]``. Returns False when the search went
    past ``max_nodes`` nodes (``walk[2]`` holds the nodes visited)."""
    for d in range(m + 1):
        state[d] = 0
    walk[0] = 0
    walk[1] = 0
    walk[2] = 0
    while True:
        found = next_placement(order, lo, m, ccount, ccons, rem_need, rem_left, state, walk, 0, remaining, max_nodes)
        if found != 1:
            return found == 0
        mines = walk[1]
        cnt[a, mines] += 1.0
        for d in range(m):
            if state[d] == 2:
                cellk[order[lo + d], mines] += 1.0


@njit
def _stand_in(a, lo, m, order, ccount, ccons, need, csize, cnt, cellk):  # type: ignore[no-untyped-def]
    """The counts of a component too costly to enumerate: one placement at its
    expected local number of mines, and for each cell a local estimate (the highest
    density of its numbers, kept strictly between 0 and 1: nothing is proved)."""
    maxm = cnt.shape[1] - 1
    for d in range(m + 1):
        cnt[a, d] = 0.0
    for d in range(m):
        for t in range(maxm + 1):
            cellk[order[lo + d], t] = 0.0
    est = 0.0
    for d in range(m):
        est += _local_density(order[lo + d], ccount, ccons, need, csize)
    k = int(est + 0.5)
    if k > m:
        k = m
    cnt[a, k] = 1.0
    for d in range(m):
        f = order[lo + d]
        p = _local_density(f, ccount, ccons, need, csize)
        cellk[f, k] = min(max(p, 1e-6), 1.0 - 1e-6)


@njit
def _local_density(f, ccount, ccons, need, csize):  # type: ignore[no-untyped-def]
    """The highest share of missing mines among the constraints on variable ``f``."""
    p = 0.0
    for j in range(ccount[f]):
        c = ccons[f, j]
        q = need[c] / csize[c]
        if q > p:
            p = q
    return p


@njit
def _rescale(a, lo, m, order, cnt, cellk, lscale):  # type: ignore[no-untyped-def]
    """Divide component ``a``'s counts by a power of two (exact) near their largest, to
    keep the numbers in range; returns ``lscale`` plus the natural log of that power."""
    top = 0.0
    for d in range(m + 1):
        if cnt[a, d] > top:
            top = cnt[a, d]
    if top > 0.0:
        e = math.floor(math.log2(top))
        lscale += e * math.log(2.0)
        sc = 2.0 ** (-e)
        for d in range(m + 1):
            cnt[a, d] *= sc
        for d in range(m):
            f = order[lo + d]
            for t in range(m + 1):
                cellk[f, t] *= sc
    return lscale


@njit
def _frontier_weights(interior, remaining, cap, w):  # type: ignore[no-untyped-def]
    """``w[K]`` for ``K = 0..cap`` frontier mines: the ways to place the other
    ``remaining - K`` mines in the ``interior`` cells, ``C(interior, remaining - K)``,
    divided by the largest of them. Returns the natural log of that divisor
    (``-inf`` when every weight is 0)."""
    logw = np.empty(cap + 1, np.float64)
    top = -np.inf
    for kk in range(cap + 1):
        logw[kk] = _lchoose(interior, remaining - kk)
        if logw[kk] > top:
            top = logw[kk]
    if top > -np.inf:
        for kk in range(cap + 1):
            if logw[kk] > -np.inf:
                w[kk] = math.exp(logw[kk] - top)
    return top


@njit
def _convolve(ncomp, cstart, nf, cap, cnt, pre, suf):  # type: ignore[no-untyped-def]
    """Prefix and suffix convolutions of the components' counts: ``pre[a, K]`` counts the
    placements of components ``0..a-1`` with ``K`` mines (``K`` up to ``min(cap, their
    size)``), ``suf[a, K]`` those of components ``a..ncomp-1``."""
    pre[0, 0] = 1.0
    for a in range(ncomp):
        m = cstart[a + 1] - cstart[a]
        for i in range(min(cap, cstart[a]) + 1):
            x = pre[a, i]
            if x == 0.0:
                continue
            for k in range(min(m, cap - i) + 1):
                pre[a + 1, i + k] += x * cnt[a, k]
    suf[ncomp, 0] = 1.0
    for a in range(ncomp - 1, -1, -1):
        m = cstart[a + 1] - cstart[a]
        for i in range(min(cap, nf - cstart[a + 1]) + 1):
            x = suf[a + 1, i]
            if x == 0.0:
                continue
            for k in range(min(m, cap - i) + 1):
                suf[a, i + k] += x * cnt[a, k]


@njit
def _interior_probs(know, fidx, interior, z, zi_mine, zi_safe, prob):  # type: ignore[no-untyped-def]
    """The probability of the closed cells off the frontier (all the same): the
    expected interior mines ``zi_mine / z`` over the ``interior`` cells, exactly 0 or 1
    when proved (``zi_mine`` or ``zi_safe`` is 0)."""
    if zi_mine == 0.0:
        pint = 0.0
    elif zi_safe == 0.0:
        pint = 1.0
    else:
        pint = zi_mine / (z * interior)
    for i in range(know.shape[0]):
        if know[i] == UNKNOWN and fidx[i] < 0:
            prob[i] = pint


@njit
def _frontier_probs(ncomp, cstart, nf, cap, maxm, order, front, pre, suf, w, cnt, cellk, failed, prob):  # type: ignore[no-untyped-def]
    """The probability of each frontier cell: its component's placements with a mine on
    it against those without, each weighted by the placements of the other components
    (``pre`` and ``suf``) and of the interior (``w``); a failed component's cells keep
    their local estimate."""
    others = np.zeros(cap + 1, np.float64)
    wa = np.zeros(maxm + 1, np.float64)
    for a in range(ncomp):
        m = cstart[a + 1] - cstart[a]
        for i in range(cap + 1):
            others[i] = 0.0
        rest = min(cap, nf - cstart[a + 1])
        for i in range(min(cap, cstart[a]) + 1):
            x = pre[a, i]
            if x == 0.0:
                continue
            for j in range(min(rest, cap - i) + 1):
                others[i + j] += x * suf[a + 1, j]
        for k in range(m + 1):
            acc = 0.0
            for j in range(cap + 1 - k):
                acc += others[j] * w[k + j]
            wa[k] = acc
        for d in range(m):
            f = order[cstart[a] + d]
            pm = 0.0
            ps = 0.0
            for k in range(m + 1):
                pm += cellk[f, k] * wa[k]
                ps += (cnt[a, k] - cellk[f, k]) * wa[k]
            cell = front[f]
            if failed[a]:
                prob[cell] = cellk[f, int(np.argmax(cnt[a, : m + 1]))]
            elif pm == 0.0:
                prob[cell] = 0.0
            elif ps == 0.0:
                prob[cell] = 1.0
            else:
                prob[cell] = pm / (pm + ps)


# ---------------------------------------------------------------- guessing
