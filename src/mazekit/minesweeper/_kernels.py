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
from typing import Any, NamedTuple

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
    :func:`probability_kernel` (frontier only) and :func:`endgame_kernel` (all
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
    (one frontier component) and :func:`endgame_kernel` (all closed cells).
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
    # components, each listed in breadth-first order (constraints close early)
    comp = np.full(max(nf, 1), -1, np.int64)
    order = np.empty(max(nf, 1), np.int64)
    cstart = np.zeros(nf + 1, np.int64)
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
    # enumerate each component
    maxm = 0
    for a in range(ncomp):
        maxm = max(maxm, cstart[a + 1] - cstart[a])
    cnt = np.zeros((max(ncomp, 1), maxm + 1), np.float64)
    cellk = np.zeros((max(nf, 1), maxm + 1), np.float64)
    rem_need = need[:nc].copy()
    rem_left = csize[:nc].copy()
    state = np.zeros(maxm + 1, np.int64)
    walk = np.zeros(3, np.int64)  # next_placement's depth, mines and nodes
    status = 0
    lscale = 0.0
    total_nodes = 0
    failed = np.zeros(max(ncomp, 1), np.bool_)
    for a in range(ncomp):
        lo = cstart[a]
        m = cstart[a + 1] - lo
        for d in range(m + 1):
            state[d] = 0
        walk[0] = 0
        walk[1] = 0
        walk[2] = 0
        while True:
            found = next_placement(
                order, lo, m, ccount, ccons, rem_need, rem_left, state, walk, 0, remaining, max_nodes
            )
            if found == 1:
                mines = walk[1]
                cnt[a, mines] += 1.0
                for d in range(m):
                    if state[d] == 2:
                        cellk[order[lo + d], mines] += 1.0
                continue
            if found == -1:
                failed[a] = True
                status = 1
            break
        total_nodes += walk[2]
        if failed[a]:
            # a stand-in: one placement count at the expected number of mines,
            # and local estimates for the cells (nothing is proved for them)
            for d in range(m + 1):
                cnt[a, d] = 0.0
            for d in range(m):
                for t in range(maxm + 1):
                    cellk[order[lo + d], t] = 0.0
            # pretend the component holds its expected local number of mines
            est = 0.0
            for d in range(m):
                f = order[lo + d]
                p = 0.0
                for j in range(ccount[f]):
                    c = ccons[f, j]
                    q = need[c] / csize[c]
                    if q > p:
                        p = q
                est += p
            k = int(est + 0.5)
            if k > m:
                k = m
            cnt[a, k] = 1.0
            for d in range(m):
                f = order[lo + d]
                p = 0.0
                for j in range(ccount[f]):
                    c = ccons[f, j]
                    q = need[c] / csize[c]
                    if q > p:
                        p = q
                # keep it strictly between 0 and 1: nothing is proved
                cellk[f, k] = min(max(p, 1e-6), 1.0 - 1e-6)
        else:
            # scale by a power of two (exact) to keep the numbers in range
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
    # weights of a total of K frontier mines (K <= cap: at most the mines left)
    logz[1] = total_nodes
    cap = min(nf, max(remaining, 0))
    logw = np.empty(cap + 1, np.float64)
    top = -np.inf
    for kk in range(cap + 1):
        logw[kk] = _lchoose(interior, remaining - kk)
        if logw[kk] > top:
            top = logw[kk]
    w = np.zeros(cap + 1, np.float64)
    if top > -np.inf:
        for kk in range(cap + 1):
            if logw[kk] > -np.inf:
                w[kk] = math.exp(logw[kk] - top)
    # prefix and suffix convolutions of the components' counts; pre[a] lives on
    # [0, min(cap, sizes before a)], suf[a] on [0, min(cap, sizes from a on)]
    pre = np.zeros((ncomp + 1, cap + 1), np.float64)
    suf = np.zeros((ncomp + 1, cap + 1), np.float64)
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
    # interior cells
    if interior > 0:
        if zi_mine == 0.0:
            pint = 0.0
        elif zi_safe == 0.0:
            pint = 1.0
        else:
            pint = zi_mine / (z * interior)
        for i in range(n):
            if know[i] == UNKNOWN and fidx[i] < 0:
                prob[i] = pint
    # frontier cells
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
    return status


# ---------------------------------------------------------------- guessing


@njit
def choose_kernel(know, prob, offsets, width, height, tol):  # type: ignore[no-untyped-def]
    """The cell to open when nothing is proved: the safest, then the most promising.

    Among closed cells whose mine probability is within ``tol`` of the lowest,
    the one with the highest chance to show a zero (the product of its closed
    neighbours' safety; cells with known-mine neighbours score 0), so corners
    and edges win among equal interior cells; then the lowest index.
    """
    n = know.shape[0]
    best = 2.0
    for i in range(n):
        if know[i] == UNKNOWN and prob[i] < best:
            best = prob[i]
    pick = -1
    score = -1.0
    for i in range(n):
        if know[i] != UNKNOWN or prob[i] > best + tol:
            continue
        z = 1.0 - prob[i]
        for k in range(8):
            v = know[i + offsets[k]]
            if v == UNKNOWN:
                z *= 1.0 - prob[i + offsets[k]]
            elif v == KNOWN_MINE:
                z = 0.0
        if z > score + 1e-12:
            score = z
            pick = i
    return pick


@njit
def zero_chance(know, prob, offsets, i):  # type: ignore[no-untyped-def]
    """The chance that cell ``i`` is safe and all its closed neighbours too (it
    would show a zero), treating the cells as independent; 0 next to a known mine."""
    z = 1.0 - prob[i]
    for k in range(8):
        v = know[i + offsets[k]]
        if v == UNKNOWN:
            z *= 1.0 - prob[i + offsets[k]]
        elif v == KNOWN_MINE:
            return 0.0
    return z


@njit
def _candidates(know, prob, offsets, look, margin, cand, zs):  # type: ignore[no-untyped-def]
    """The look-ahead's candidates, best first, into ``cand``; returns how many.

    The closed cells whose mine probability is within ``margin`` of the lowest:
    the ``look`` best by (probability, chance of a zero), at most two of them
    away from the frontier. ``zs`` receives each candidate's chance of a zero.
    """
    n = know.shape[0]
    best = 2.0
    for i in range(n):
        if know[i] == UNKNOWN and prob[i] < best:
            best = prob[i]
    chosen = np.zeros(n, np.bool_)
    inner = np.zeros(n, np.bool_)
    for i in range(n):
        if know[i] == UNKNOWN and prob[i] <= best + margin:
            zs[i] = zero_chance(know, prob, offsets, i)
            edge = False
            for k in range(8):
                if know[i + offsets[k]] >= 0:
                    edge = True
                    break
            inner[i] = not edge
    nc = 0
    ninner = 0
    while nc < look:
        pick = -1
        for i in range(n):
            if know[i] != UNKNOWN or chosen[i] or prob[i] > best + margin:
                continue
            if inner[i] and ninner >= 2:
                continue
            if pick < 0 or prob[i] < prob[pick] - 1e-12 or (prob[i] <= prob[pick] + 1e-12 and zs[i] > zs[pick] + 1e-12):
                pick = i
        if pick < 0:
            break
        chosen[pick] = True
        if inner[pick]:
            ninner += 1
        cand[nc] = pick
        nc += 1
    return nc


@njit
def _after(know, prob2):  # type: ignore[no-untyped-def]
    """The next move on a view with probabilities ``prob2``: (free, safety of the safest
    closed cell); free when a cell is proved safe or only mines are left."""
    low = 2.0
    others = False
    for i in range(know.shape[0]):
        if know[i] == UNKNOWN:
            p = prob2[i]
            if p == 0.0:
                return True, 1.0
            if p < 1.0:
                others = True
                if p < low:
                    low = p
    if not others:
        return True, 1.0
    return False, 1.0 - low


@njit
def _score(know, prob, offsets, total_mines, max_nodes, base_logz, c, top, deep, margin, scratch):  # type: ignore[no-untyped-def]
    """The look-ahead's score of opening ``c``: ``sum_v P(c shows v) * next(v)``.

    ``next(v)`` is 1 when the view after it proves a move, else the chance to
    survive the next guess: its safest cell's safety, or with ``deep > 0`` the
    best one-ply score of that view over ``deep`` candidates (two plies). Values
    stop once the score cannot reach ``top``. Returns ``(score, values, gains,
    complete)``: the values it may show, whether one of them proves a move, and
    whether every value was counted. ``know`` is restored.
    """
    prob2 = scratch[0]
    info = np.zeros(2, np.float64)
    flagged = 0
    closed = 0
    for k in range(8):
        x = know[c + offsets[k]]
        if x == KNOWN_MINE:
            flagged += 1
        elif x == UNKNOWN:
            closed += 1
    score = 0.0
    left = 1.0 - prob[c]
    values = 0
    gains = False
    complete = True
    for v in range(flagged, flagged + closed + 1):
        if score + left < top - 1e-9:
            complete = False
            break
        know[c] = v
        st = probability_kernel(know, offsets, total_mines, prob2, max_nodes, info)
        if st == 2:
            continue
        pv = math.exp(info[0] - base_logz)
        if pv <= 0.0:
            continue
        values += 1
        left -= pv
        free, nxt = _after(know, prob2)
        if free:
            gains = True
        elif deep > 0:
            nxt = _best_one_ply(know, prob2, offsets, total_mines, max_nodes, info[0], deep, margin, scratch[1])
        score += pv * nxt
    know[c] = UNKNOWN
    return score, values, gains, complete


@njit
def _best_one_ply(know, prob, offsets, total_mines, max_nodes, base_logz, look, margin, prob3):  # type: ignore[no-untyped-def]
    """The best one-ply score of the position ``know`` (probabilities ``prob``)."""
    n = know.shape[0]
    cand = np.empty(max(look, 1), np.int64)
    zs = np.zeros(n, np.float64)
    nc = _candidates(know, prob, offsets, look, margin, cand, zs)
    scratch = np.empty((2, n), np.float64)
    top = -1.0
    for j in range(nc):
        c = cand[j]
        if 1.0 - prob[c] < top - 1e-9:
            continue
        sc, _v, _g, _c = _score1(know, prob, offsets, total_mines, max_nodes, base_logz, c, top, margin, scratch, prob3)
        if sc > top:
            top = sc
    return top


@njit
def _score1(know, prob, offsets, total_mines, max_nodes, base_logz, c, top, margin, scratch, prob3):  # type: ignore[no-untyped-def]
    """:func:`_score` with one ply (a separate function: the compiled code may not recurse)."""
    info = np.zeros(2, np.float64)
    flagged = 0
    closed = 0
    for k in range(8):
        x = know[c + offsets[k]]
        if x == KNOWN_MINE:
            flagged += 1
        elif x == UNKNOWN:
            closed += 1
    score = 0.0
    left = 1.0 - prob[c]
    for v in range(flagged, flagged + closed + 1):
        if score + left < top - 1e-9:
            break
        know[c] = v
        st = probability_kernel(know, offsets, total_mines, prob3, max_nodes, info)
        if st == 2:
            continue
        pv = math.exp(info[0] - base_logz)
        if pv <= 0.0:
            continue
        left -= pv
        _free, nxt = _after(know, prob3)
        score += pv * nxt
    know[c] = UNKNOWN
    return score, 0, False, True


@njit
def lookahead_kernel(know, prob, offsets, total_mines, max_nodes, base_logz, look, margin, skip_dead, deep):  # type: ignore[no-untyped-def]
    """The guess that best survives two moves: this one and the next guess, if any.

    Candidates are the closed cells whose mine probability is within ``margin``
    of the lowest: the ``look`` best by (probability, chance of a zero), at
    most two of them away from the frontier. For a candidate ``c`` and each
    value ``v`` it may show, the view with ``c`` open showing ``v`` is counted
    exactly (:func:`probability_kernel`): ``P(c safe, shows v) = Z_v / Z``. If
    that view proves a cell safe (or finishes the game), the next move is free;
    else the next move is a guess whose survival chance is the view's best
    safety (with ``deep > 0``: the best one-ply score of that view over ``deep``
    candidates, a two-ply look-ahead). The score ``sum_v P(v) * next_survival``
    is the chance of surviving both; ties go to the safer cell, then to the
    better chance of a zero. With ``skip_dead``, a *dead* candidate (it can show
    only one number, and opening it proves nothing) is passed over while another
    one remains: the risk buys no progress, and later information may decide it
    for free. ``know`` is restored before returning. Returns the chosen cell.
    """
    n = know.shape[0]
    cand = np.empty(max(look, 1), np.int64)
    zs = np.zeros(n, np.float64)
    nc = _candidates(know, prob, offsets, look, margin, cand, zs)
    if nc == 1:
        return cand[0]
    scratch = np.empty((2, n), np.float64)
    pick = -1
    fallback = -1
    top = -1.0
    for j in range(nc):
        c = cand[j]
        # the score cannot exceed the chance that c is safe: prune hopeless candidates
        if 1.0 - prob[c] < top - 1e-9:
            continue
        score, values, gains, complete = _score(
            know, prob, offsets, total_mines, max_nodes, base_logz, c, top, deep, margin, scratch
        )
        if skip_dead and complete and values <= 1 and not gains:
            if fallback < 0:
                fallback = c
            continue
        if pick < 0 or score > top + 1e-9:
            better = True
        elif score < top - 1e-9:
            better = False
        elif prob[c] < prob[pick] - 1e-12:
            better = True
        else:
            better = prob[c] <= prob[pick] + 1e-12 and zs[c] > zs[pick] + 1e-12
        if better:
            top = score
            pick = c
    if pick < 0:
        pick = fallback if fallback >= 0 else cand[0]
    return pick


@njit
def _near(a, b, width):  # type: ignore[no-untyped-def]
    """True when padded cells ``a`` and ``b`` touch (king's move)."""
    return abs(a // width - b // width) <= 1 and abs(a % width - b % width) <= 1


@njit
def fifty_kernel(know, prob, offsets, width):  # type: ignore[no-untyped-def]
    """A forced coin flip, or -1: a closed cell ``a`` of a pair ``{a, b}`` that nothing can decide.

    The pair holds exactly one mine (an open number sees no other closed cell
    and misses one mine), every open number next to one of them is next to the
    other, and no other closed cell touches just one of them. Then every layout
    with the mine on ``a`` has a twin with it on ``b``, now and after any other
    cell is opened: the flip is independent of the rest of the game and must be
    taken sooner or later. Taking it first costs nothing and spares the other
    risks of a game lost on it. Returns the lower-index cell of the first pair.
    """
    n = know.shape[0]
    rows = n // width
    for a in range(n):
        if know[a] != UNKNOWN or abs(prob[a] - 0.5) > 1e-9:
            continue
        ra = a // width
        ca = a % width
        for dr in range(0, 3):
            for dc in range(-2, 3):
                if dr == 0 and dc <= 0:
                    continue
                if ra + dr >= rows or ca + dc < 0 or ca + dc >= width:
                    continue
                b = a + dr * width + dc
                if know[b] == UNKNOWN and abs(prob[b] - 0.5) <= 1e-9 and _coin_flip(know, offsets, width, a, b):
                    return a
    return -1


@njit
def _coin_flip(know, offsets, width, a, b):  # type: ignore[no-untyped-def]
    """The test of :func:`fifty_kernel` for the pair ``{a, b}``."""
    pinned = False
    for side in range(2):
        x = a if side == 0 else b
        y = b if side == 0 else a
        for k in range(8):
            u = x + offsets[k]
            if u == y:
                continue
            ku = know[u]
            if ku == BORDER or ku == KNOWN_MINE:
                continue
            if not _near(u, y, width):
                return False  # a closed cell or a number that sees only one of them
            if ku >= 0 and not pinned:
                unknown = 0
                missing = int(ku)
                for j in range(8):
                    w = know[u + offsets[j]]
                    if w == UNKNOWN:
                        unknown += 1
                    elif w == KNOWN_MINE:
                        missing -= 1
                pinned = unknown == 2 and missing == 1
    return pinned


@njit
def endgame_kernel(know, offsets, total_mines, max_layouts, max_work, out):  # type: ignore[no-untyped-def]
    """The guess with the best chance to win, by exhaustive search, when few layouts remain.

    Every mine layout that agrees with ``know`` (over all closed cells, with
    the mine count) is listed; if there are more than ``max_layouts``, the
    kernel gives up. A position is a set ``S`` of layouts still possible. It
    is won when no closed cell is a mine in some layouts of ``S`` and not in
    others. A cell safe in all of ``S`` whose value differs between layouts is
    opened for free (information never hurts), so ``S`` splits by its value.
    Otherwise the chance to win is the best, over the undecided cells ``c``, of
    ``sum_v |S(c safe, shows v)| / |S| * win(S(c, v))``. Candidates are tried
    safest first, and a candidate is dropped as soon as its score cannot beat
    the best one found (its score is at most its safety). The search runs on
    an explicit stack; past ``max_work`` positions it gives up.

    Returns 1 and writes ``out[0]`` (the cell) and ``out[1]`` (its chance to
    win), or 0 when it gave up.
    """
    n = know.shape[0]
    index = np.empty((2, n), np.int64)
    counts = np.empty((3, n), np.int64)
    links = np.empty((2, n, 8), np.int64)
    # the variables are all the closed cells; the constraints, the open numbers next to them
    ncl, _nc, _interior, flagged = constraints_kernel(know, offsets, False, index, counts, links)
    remaining = total_mines - flagged
    if ncl == 0 or remaining < 0 or remaining > ncl:
        return 0
    cidx, cells = index[0], index[1]
    need, left, ccount = counts[0], counts[1], counts[2]
    ccons = links[1]
    # list the layouts by backtracking over the closed cells
    lay = np.empty((max_layouts, ncl), np.int8)
    state = np.zeros(ncl + 1, np.int64)
    walk = np.zeros(3, np.int64)
    seq = np.arange(ncl)
    nsol = 0
    while True:
        found = next_placement(seq, 0, ncl, ccount, ccons, need, left, state, walk, remaining, remaining, max_work)
        if found == -1 or (found == 1 and nsol == max_layouts):
            return 0
        if found == 0:
            break
        for j in range(ncl):
            lay[nsol, j] = state[j] - 1
        nsol += 1
    if nsol == 0:
        return 0
    # each layout's value of each closed cell (9: a mine)
    val = np.empty((nsol, ncl), np.int8)
    for t in range(nsol):
        for j in range(ncl):
            if lay[t, j] == 1:
                val[t, j] = MINE
            else:
                u = cells[j]
                x = 0
                for k in range(8):
                    w = u + offsets[k]
                    if know[w] == KNOWN_MINE:
                        x += 1
                    elif know[w] == UNKNOWN and lay[t, cidx[w]] == 1:
                        x += 1
                val[t, j] = x
    # the game tree, on an explicit stack; frame d holds S = sbuf[f_start[d]: + f_len[d]]
    top = ncl + 2
    sbuf = np.empty(nsol * (top + 1), np.int64)
    for t in range(nsol):
        sbuf[t] = t
    f_start = np.zeros(top, np.int64)
    f_len = np.zeros(top, np.int64)
    f_kind = np.zeros(top, np.int64)  # 0 risky candidates, 1 a free cell
    f_ci = np.zeros(top, np.int64)
    f_v = np.zeros(top, np.int64)
    f_acc = np.zeros(top, np.float64)
    f_left = np.zeros(top, np.float64)
    f_best = np.zeros(top, np.float64)
    f_bestc = np.zeros(top, np.int64)
    f_ncand = np.zeros(top, np.int64)
    f_child = np.zeros(top, np.int64)
    order = np.empty((top, ncl), np.int64)
    safety = np.empty((top, ncl), np.float64)
    mcount = np.empty(ncl, np.int64)
    d = 0
    f_start[0] = 0
    f_len[0] = nsol
    fresh = True
    result = 0.0
    have = False
    positions = 0
    while True:
        if fresh:
            fresh = False
            positions += 1
            if positions > max_work:
                return 0
            st = f_start[d]
            ln = f_len[d]
            undecided = False
            free = -1
            nca = 0
            for j in range(ncl):
                mc = 0
                v0 = -1
                varies = False
                for t in range(st, st + ln):
                    x = val[sbuf[t], j]
                    if x == MINE:
                        mc += 1
                    elif v0 < 0:
                        v0 = x
                    elif x != v0:
                        varies = True
                mcount[j] = mc
                if 0 < mc < ln:
                    undecided = True
                    safety[d, j] = (ln - mc) / ln
                    order[d, nca] = j
                    nca += 1
                elif mc == 0 and varies and free < 0:
                    free = j
            if not undecided:
                result = 1.0
                have = True
                d -= 1
                if d < 0:
                    break
                continue
            if free >= 0:
                f_kind[d] = 1
                order[d, 0] = free
                f_ncand[d] = 1
                f_left[d] = 1.0
            else:
                f_kind[d] = 0
                f_ncand[d] = nca
                # safest first (insertion sort; few candidates)
                for a in range(1, nca):
                    x = order[d, a]
                    b = a - 1
                    while b >= 0 and safety[d, order[d, b]] < safety[d, x]:
                        order[d, b + 1] = order[d, b]
                        b -= 1
                    order[d, b + 1] = x
                f_left[d] = safety[d, order[d, 0]]
            f_ci[d] = 0
            f_v[d] = 0
            f_acc[d] = 0.0
            f_best[d] = -1.0
            f_bestc[d] = order[d, 0]
        if have:
            have = False
            f_acc[d] += f_child[d] / f_len[d] * result
            f_v[d] += 1
        # the next child of frame d, or finish it
        pushed = False
        while not pushed:
            if f_v[d] > 8:
                c = order[d, f_ci[d]]
                if f_kind[d] == 1:
                    result = f_acc[d]
                    break
                if f_acc[d] > f_best[d]:
                    f_best[d] = f_acc[d]
                    f_bestc[d] = c
                f_ci[d] += 1
                if f_ci[d] >= f_ncand[d] or safety[d, order[d, f_ci[d]]] <= f_best[d] + 1e-12:
                    result = f_best[d]
                    break
                f_v[d] = 0
                f_acc[d] = 0.0
                f_left[d] = safety[d, order[d, f_ci[d]]]
                continue
            if f_kind[d] == 0 and f_acc[d] + f_left[d] <= f_best[d] + 1e-12:
                f_v[d] = 9  # cannot beat the best: drop this candidate
                continue
            c = order[d, f_ci[d]]
            v = f_v[d]
            st = f_start[d]
            ln = f_len[d]
            cs = st + ln
            cl = 0
            for t in range(st, st + ln):
                if val[sbuf[t], c] == v:
                    sbuf[cs + cl] = sbuf[t]
                    cl += 1
            if cl == 0:
                f_v[d] += 1
                continue
            f_left[d] -= cl / ln
            f_child[d] = cl
            f_start[d + 1] = cs
            f_len[d + 1] = cl
            d += 1
            fresh = True
            pushed = True
        if pushed:
            continue
        # frame d is finished with ``result``
        if d == 0:
            out[0] = cells[f_bestc[0]] if f_kind[0] == 0 else cells[order[0, 0]]
            out[1] = result
            return 1
        d -= 1
        have = True
    # the root itself was decided (nothing to guess)
    return 0


# ------------------------------------------------------------- playing


class Field(NamedTuple):
    """A game as the playing kernels see it, padded and flat: ``dens`` the truth (each cell's
    number, ``MINE`` or ``BORDER``), ``know`` what the player sees (changed as it plays),
    ``offsets`` the eight neighbours, ``width`` the padded width, ``height`` the rows,
    ``total_mines`` the board's mines."""

    dens: Any
    know: Any
    offsets: Any
    width: int
    height: int
    total_mines: int


class Policy(NamedTuple):
    """How :func:`solve_kernel` goes on when nothing is proved. ``guess`` False: it stops.
    Else a guess is :func:`lookahead_kernel`'s (``look`` candidates within ``margin`` of the
    safest) or, with ``look`` 0 or when the probabilities took more than ``look_nodes``
    search nodes (a position too costly to look ahead from), :func:`choose_kernel`'s (``tol``).
    When at most ``endgame`` layouts remain, :func:`endgame_kernel` searches for the best
    guess exhaustively (within ``endgame_work`` positions; if it gives up, the look-ahead
    guesses). ``max_nodes`` bounds the probabilities' search. ``skip_dead``: the look-ahead
    passes over dead cells (see :func:`lookahead_kernel`); ``fifty``: a forced coin flip
    (:func:`fifty_kernel`) is taken before any other guess. ``deep`` > 0: a two-ply
    look-ahead over ``deep`` candidates at the second ply, from positions whose
    probabilities took at most ``deep_nodes`` search nodes (small frontiers)."""

    guess: bool
    tol: float
    max_nodes: int
    look: int
    margin: float
    look_nodes: int
    endgame: int
    endgame_work: int
    skip_dead: bool
    fifty: bool
    deep: int
    deep_nodes: int


class Work(NamedTuple):
    """Scratch of :func:`solve_kernel`, one entry a padded cell: ``queue`` (floods), ``safe``
    (proved safe cells), ``mark`` and ``prob`` (each cell's mine probability)."""

    queue: Any
    safe: Any
    mark: Any
    prob: Any


@njit
def proofs_only(max_nodes):  # type: ignore[no-untyped-def]
    """The policy that makes proved moves only and stops when stuck."""
    return Policy(False, 0.0, max_nodes, 0, 0.0, 0, 0, 0, False, False, 0, 0)


#: The rule that chose a guess (:func:`guess_kernel`'s ``out[1]``).
BY_SAFEST, BY_LOOKAHEAD, BY_ENDGAME, BY_COIN_FLIP = 0, 1, 2, 3


@njit
def guess_kernel(know, prob, offsets, width, height, total_mines, policy, info, out):  # type: ignore[no-untyped-def]
    """The cell to open when nothing is proved, as ``policy`` says (see :class:`Policy`).

    ``prob`` and ``info`` are :func:`probability_kernel`'s for ``know``. Writes the
    rule that chose the cell to ``out[1]`` (``BY_*``) and, for the end-game search,
    the chance to win to ``out[2]`` (else -1). Returns the cell.
    """
    out[2] = -1.0
    if policy.fifty:
        g = fifty_kernel(know, prob, offsets, width)
        if g >= 0:
            out[1] = BY_COIN_FLIP
            return g
    if policy.endgame > 0 and info[0] <= math.log(policy.endgame + 0.5):
        if endgame_kernel(know, offsets, total_mines, policy.endgame, policy.endgame_work, out) == 1:
            out[2] = out[1]
            out[1] = BY_ENDGAME
            return int(out[0])
    if policy.look > 0 and info[1] <= policy.look_nodes:
        out[1] = BY_LOOKAHEAD
        deep = policy.deep if info[1] <= policy.deep_nodes else 0
        return lookahead_kernel(
            know,
            prob,
            offsets,
            total_mines,
            policy.max_nodes,
            info[0],
            policy.look,
            policy.margin,
            policy.skip_dead,
            deep,
        )
    out[1] = BY_SAFEST
    return choose_kernel(know, prob, offsets, width, height, policy.tol)


@njit
def work_for(n):  # type: ignore[no-untyped-def]
    """Fresh :class:`Work` for ``n`` padded cells."""
    return Work(np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(n, np.int8), np.empty(n, np.float64))


@njit
def solve_kernel(field, first, policy, work):  # type: ignore[no-untyped-def]
    """Play ``field`` from what it shows (opening ``first`` if >= 0) until won, lost or stuck,
    guessing as ``policy`` says (see :class:`Policy`).

    Returns ``(status, guesses, opened)``: status 1 won, -1 lost (a guess hit a mine), 0
    stuck; ``opened`` counts the open cells at the end.
    """
    dens, know, offsets, width, height, total_mines = field
    guess = policy.guess
    max_nodes = policy.max_nodes
    queue, safe, mark, prob = work
    n = know.shape[0]
    safe_cells = 0
    for i in range(n):
        if dens[i] >= 0 and dens[i] != MINE:
            safe_cells += 1
    opened = 0
    for i in range(n):
        if know[i] >= 0:
            opened += 1
    guesses = 0
    info = np.zeros(2, np.float64)
    egout = np.zeros(3, np.float64)
    if first >= 0 and know[first] == UNKNOWN:
        if dens[first] == MINE:
            return -1, 1, opened
        opened += reveal_kernel(dens, know, offsets, first, queue)
    while opened < safe_cells:
        ns, nm = simple_kernel(know, offsets, width, safe, mark)
        if ns > 0:
            for i in range(ns):
                opened += reveal_kernel(dens, know, offsets, safe[i], queue)
            continue
        if nm > 0:
            continue
        probability_kernel(know, offsets, total_mines, prob, max_nodes, info)
        moved = False
        for i in range(n):
            if know[i] == UNKNOWN:
                if prob[i] == 0.0:
                    opened += reveal_kernel(dens, know, offsets, i, queue)
                    moved = True
                elif prob[i] == 1.0:
                    know[i] = KNOWN_MINE
                    moved = True
        if moved:
            continue
        if not guess:
            return 0, guesses, opened
        g = guess_kernel(know, prob, offsets, width, height, total_mines, policy, info, egout)
        guesses += 1
        if dens[g] == MINE:
            return -1, guesses, opened
        opened += reveal_kernel(dens, know, offsets, g, queue)
    return 1, guesses, opened


@njit
def noguess_kernel(mines, protect, offsets, width, height, total_mines, first, rand, max_nodes, max_moves):  # type: ignore[no-untyped-def]
    """Move mines until the board is solved from ``first`` without guessing.

    ``mines`` (uint8, padded) is changed in place; ``protect`` marks cells that
    must stay free (the first-click rule); ``rand`` holds uniform numbers in
    [0, 1) drawn by the wrapper. When the solver gets stuck, a random closed
    cell next to the open area is swapped with a random cell of the other kind
    away from it (a mine leaves the frontier, or a free cell enters it), the
    open numbers are updated, and solving resumes; a board that is finished is
    verified again from scratch. Returns the number of mine moves, or -1 when
    ``max_moves`` or the random numbers ran out.
    """
    n = mines.shape[0]
    dens = np.empty(n, np.int8)
    know = np.empty(n, np.int8)
    work = work_for(n)
    queue = work.queue
    field = Field(dens, know, offsets, width, height, total_mines)
    proofs = proofs_only(max_nodes)
    cand = np.empty(n, np.int64)
    cand2 = np.empty(n, np.int64)
    r = 0
    nr = rand.shape[0]
    moves = 0
    for i in range(n):
        know[i] = BORDER
    for row in range(1, height + 1):
        for col in range(1, width - 1):
            know[row * width + col] = UNKNOWN
    _densities(mines, know, offsets, dens)
    fresh = True
    while True:
        if fresh:
            for i in range(n):
                if know[i] != BORDER:
                    know[i] = UNKNOWN
            fresh = False
            st, _g, _o = solve_kernel(field, first, proofs, work)
        else:
            st, _g, _o = solve_kernel(field, -1, proofs, work)
        if st == 1:
            if moves == 0 or _verified(dens, offsets, width, height, total_mines, first, max_nodes):
                return moves
            fresh = True
            continue
        if moves >= max_moves or r + 2 > nr:
            return -1
        # frontier cells (closed, not proved, next to an open cell) and interior cells
        nf = 0
        ni = 0
        for i in range(n):
            if know[i] != UNKNOWN or protect[i] != 0:
                continue
            edge = False
            for k in range(8):
                if know[i + offsets[k]] >= 0:
                    edge = True
                    break
            if edge:
                cand[nf] = i
                nf += 1
            else:
                cand2[ni] = i
                ni += 1
        if nf == 0:
            return -1
        f = cand[int(rand[r] * nf)]
        r += 1
        want = 0 if mines[f] != 0 else 1  # the kind of cell to swap with
        # partners: interior cells of the other kind, else frontier cells of the other kind
        np_ = 0
        for j in range(ni):
            if mines[cand2[j]] == want:
                queue[np_] = cand2[j]
                np_ += 1
        if np_ == 0:
            for j in range(nf):
                if mines[cand[j]] == want:
                    queue[np_] = cand[j]
                    np_ += 1
        if np_ == 0:
            r += 1
            moves += 1
            continue
        g = queue[int(rand[r] * np_)]
        r += 1
        mines[f] = want
        mines[g] = 1 - want
        moves += 1
        _update_densities(mines, know, offsets, dens, f)
        _update_densities(mines, know, offsets, dens, g)
        # open cells keep showing the truth; newly zero cells spread
        for i in range(n):
            if know[i] >= 0:
                know[i] = dens[i]
        for i in range(n):
            if know[i] == 0:
                for k in range(8):
                    v = i + offsets[k]
                    if know[v] == UNKNOWN:
                        reveal_kernel(dens, know, offsets, v, queue)


@njit
def _densities(mines, know, offsets, dens):  # type: ignore[no-untyped-def]
    n = mines.shape[0]
    for i in range(n):
        if know[i] == BORDER:
            dens[i] = BORDER
        elif mines[i] != 0:
            dens[i] = MINE
        else:
            s = 0
            for k in range(8):
                s += mines[i + offsets[k]]
            dens[i] = s


@njit
def _update_densities(mines, know, offsets, dens, cell):  # type: ignore[no-untyped-def]
    for k in range(9):
        u = cell if k == 8 else cell + offsets[k]
        if dens[u] == BORDER:
            continue
        if mines[u] != 0:
            dens[u] = MINE
        else:
            s = 0
            for j in range(8):
                s += mines[u + offsets[j]]
            dens[u] = s


@njit
def _verified(dens, offsets, width, height, total_mines, first, max_nodes):  # type: ignore[no-untyped-def]
    n = dens.shape[0]
    know = np.empty(n, np.int8)
    for i in range(n):
        know[i] = BORDER if dens[i] == BORDER else UNKNOWN
    work = work_for(n)
    st, _g, _o = solve_kernel(
        Field(dens, know, offsets, width, height, total_mines), first, proofs_only(max_nodes), work
    )
    return st == 1
