"""Compiled guessing: the candidate cells, the one- and two-ply look-ahead, forced coin flips
and the exhaustive end game (see :mod:`._kernels` for the board conventions)."""

from __future__ import annotations

import math

import numpy as np

from .._jit import njit, step
from ._flip_kernels import flip_risks
from ._kernels import BORDER, KNOWN_MINE, MINE, UNKNOWN, constraints_kernel, next_placement, probability_kernel


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
def lookahead_kernel(  # type: ignore[no-untyped-def]
    know,
    prob,
    offsets,
    total_mines,
    max_nodes,
    base_logz,
    look,
    margin,
    skip_dead,
    deep,
    width=0,
    flips=0.0,
    flip_extra=0,
):
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
    for free. With ``flips > 0`` each score is multiplied by the candidate's share
    of the coin flips to come that it leaves unsettled (:func:`flip_risks`, which
    adds up to ``flip_extra`` candidates; ``width`` is the padded board's). ``know``
    is restored before returning. Returns the chosen cell.
    """
    n = know.shape[0]
    cand = np.empty(max(look, 1) + flip_extra, np.int64)  # room for the extra candidates
    zs = np.zeros(n, np.float64)
    nc = _candidates(know, prob, offsets, look, margin, cand, zs)
    if nc == 1 and (flips <= 0.0 or flip_extra == 0):
        return cand[0]
    scratch = np.empty((2, n), np.float64)
    keep = np.ones(nc + flip_extra, np.float64)
    if flips > 0.0:
        nc = flip_risks(
            know, prob, offsets, width, total_mines, max_nodes, base_logz, cand, nc, flips, flip_extra, margin, keep
        )
    pick = -1
    fallback = -1
    top = -1.0
    for j in range(nc):
        c = cand[j]
        # the score cannot exceed the chance that c is safe: prune hopeless candidates
        if (1.0 - prob[c]) * keep[j] < top - 1e-9:
            continue
        score, values, gains, complete = _score(
            know, prob, offsets, total_mines, max_nodes, base_logz, c, top / keep[j], deep, margin, scratch
        )
        score *= keep[j]
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
def region_kernel(know, offsets, total_mines, max_layouts, max_work, max_cells, out):  # type: ignore[no-untyped-def]
    """The best guess inside an isolated region, by exhaustive search, or nothing.

    A region is a set of closed cells linked by touching or by a shared number;
    it is *isolated* when every cell of it is next to an open number (none lies
    in the unknown interior, so no closed cell outside it touches it or shares a
    number with it). When its layouts all hold the same number of mines, nothing
    outside can ever tell them apart and nothing inside tells anything about the
    rest: the region is a game of its own that must be won, its layouts equally
    likely. The first region of at most ``max_cells`` cells with one mine count
    is searched as :func:`endgame_kernel` searches a whole board (the other
    closed cells taken off the board). Returns 1 and writes ``out[0]`` (the
    cell) and ``out[1]`` (the chance to clear the region), or 0.
    """
    n = know.shape[0]
    seen = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    sub = np.empty(n, np.int8)
    prob = np.empty(n, np.float64)
    info = np.zeros(2, np.float64)
    flagged = 0
    for i in range(n):
        if know[i] == KNOWN_MINE:
            flagged += 1
    for s in range(n):
        if know[s] != UNKNOWN or seen[s]:
            continue
        size = _region(know, offsets, s, seen, queue)
        if size < 0 or size > max_cells:
            continue
        for i in range(n):
            sub[i] = BORDER if know[i] == UNKNOWN else know[i]
        for j in range(size):
            sub[queue[j]] = UNKNOWN
        count = -1  # the one mine count the region's layouts hold; -2: more than one
        for m in range(size + 1):
            if probability_kernel(sub, offsets, flagged + m, prob, max_work, info) != 2:
                count = m if count == -1 else -2
                if count == -2:
                    break
        if count >= 0 and endgame_kernel(sub, offsets, flagged + count, max_layouts, max_work, out) == 1:
            return 1
    return 0


@njit
def _region(know, offsets, s, seen, queue):  # type: ignore[no-untyped-def]
    """Flood the region of closed cell ``s`` into ``queue`` (marking ``seen``); its size, or -1
    when a cell of it touches no open number (the region reaches the interior)."""
    seen[s] = True
    queue[0] = s
    head = 0
    tail = 1
    isolated = True
    while head < tail:
        u = queue[head]
        head += 1
        front = False
        for k in range(8):
            v = u + offsets[k]
            kv = know[v]
            if kv == UNKNOWN:
                if not seen[v]:
                    seen[v] = True
                    queue[tail] = v
                    tail += 1
            elif kv >= 0:
                front = True
                for j in range(8):
                    w = v + offsets[j]
                    if know[w] == UNKNOWN and not seen[w]:
                        seen[w] = True
                        queue[tail] = w
                        tail += 1
        if not front:
            isolated = False
    return tail if isolated else -1


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
    lay = np.empty((max_layouts, ncl), np.int8)
    nsol = _list_layouts(ncl, ccount, ccons, need, left, remaining, max_work, lay)
    if nsol <= 0:
        return 0
    val = np.empty((nsol, ncl), np.int8)
    _layout_values(know, offsets, cells, cidx, lay, nsol, val)
    return _search_tree(val, nsol, ncl, cells, max_work, out)


@njit
def _list_layouts(ncl, ccount, ccons, need, left, remaining, max_work, lay):  # type: ignore[no-untyped-def]
    """List the layouts of ``remaining`` mines over the ``ncl`` closed cells that meet every
    constraint, by backtracking (:func:`next_placement`): ``lay[t, j]`` is 1 when cell ``j``
    holds a mine in layout ``t``. Returns the number of layouts, or -1 when there are more
    than ``lay`` holds or the search went past ``max_work`` nodes."""
    max_layouts = lay.shape[0]
    state = np.zeros(ncl + 1, np.int64)
    walk = np.zeros(3, np.int64)
    seq = np.arange(ncl)
    nsol = 0
    while True:
        found = next_placement(seq, 0, ncl, ccount, ccons, need, left, state, walk, remaining, remaining, max_work)
        if found == -1 or (found == 1 and nsol == max_layouts):
            return -1
        if found == 0:
            return nsol
        for j in range(ncl):
            lay[nsol, j] = state[j] - 1
        nsol += 1


@njit
def _layout_values(know, offsets, cells, cidx, lay, nsol, val):  # type: ignore[no-untyped-def]
    """``val[t, j]``: what closed cell ``j`` (padded cell ``cells[j]``) shows in layout
    ``t``: :data:`MINE`, or its number of mine neighbours (known mines and the layout's)."""
    ncl = val.shape[1]
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


#: Columns of a frame's integers (``fi``, a row a frame, its fields side by side) in
#: :func:`_search_tree`: where its layouts start in ``sbuf`` and how many, its kind (0 risky
#: candidates, 1 a free cell), the candidate being scored, the value it shows next, the best
#: candidate so far, the number of candidates and the layouts of the child being searched.
F_START, F_LEN, F_KIND, F_CI, F_V, F_BESTC, F_NCAND, F_CHILD = range(8)
#: Columns of a frame's reals (``ff``): the current candidate's chance to win so far, what is left
#: of its safety to add, and the best candidate's chance.
F_ACC, F_LEFT, F_BEST = range(3)


@njit
def _search_tree(val, nsol, ncl, cells, max_work, out):  # type: ignore[no-untyped-def]
    """The game tree of :func:`endgame_kernel` over the layouts of ``val``, depth first on
    an explicit stack. Frame ``d`` is a position: its layouts, its candidate cells
    ``order[d, :ncand]`` (one free cell, or the undecided cells safest first) and the
    candidate being scored: row ``d`` of ``fi`` and ``ff``, by the columns ``F_*``. Returns 1
    with ``out`` written, or 0 (gave up).

    Each step: open a new position (:func:`_open_position`; a decided one is won), add a
    finished child's chance to its frame, then go down to the frame's next child
    (:func:`_next_child`) or, when its candidates are done, back up with its chance.
    """
    top = ncl + 2
    sbuf = np.empty(nsol * (top + 1), np.int64)
    for t in range(nsol):
        sbuf[t] = t
    fi = np.zeros((top, 8), np.int64)
    ff = np.zeros((top, 3), np.float64)
    order = np.empty((top, ncl), np.int64)
    safety = np.empty((top, ncl), np.float64)
    fi[0, F_LEN] = nsol
    return _walk_tree(val, sbuf, fi, ff, order, safety, cells, max_work, out)


@step
def _walk_tree(val, sbuf, fi, ff, order, safety, cells, max_work, out):  # type: ignore[no-untyped-def]
    """The loop of :func:`_search_tree` (its steps are inlined into it)."""
    d = 0
    fresh = True
    have = False
    result = 0.0
    positions = 0
    while True:
        if fresh:
            fresh = False
            positions += 1
            if positions > max_work:
                return 0
            if not _open_position(d, val, sbuf, fi, ff, order, safety):
                result = 1.0  # nothing left undecided: won
                have = True
                d -= 1
                if d < 0:
                    return 0  # the root itself was decided (nothing to guess)
                continue
        if have:
            have = False
            ff[d, F_ACC] += fi[d, F_CHILD] / fi[d, F_LEN] * result
            fi[d, F_V] += 1
        if _next_child(d, val, sbuf, fi, ff, order, safety):
            d += 1
            fresh = True
            continue
        result = ff[d, F_BEST] if fi[d, F_KIND] == 0 else ff[d, F_ACC]
        if d == 0:
            out[0] = cells[fi[0, F_BESTC]] if fi[0, F_KIND] == 0 else cells[order[0, 0]]
            out[1] = result
            return 1
        d -= 1
        have = True


@step(inline="always")
def _open_position(d, val, sbuf, fi, ff, order, safety):  # type: ignore[no-untyped-def]
    """Set up frame ``d`` for its layouts: its candidates are a closed cell safe in every
    layout whose value differs between them (opened for free), else the cells that are a mine
    in some layouts and not in others, safest first. False when there is none (the position
    is decided)."""
    st = fi[d, F_START]
    ln = fi[d, F_LEN]
    ncl = val.shape[1]
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
        if 0 < mc < ln:
            safety[d, j] = (ln - mc) / ln
            order[d, nca] = j
            nca += 1
        elif mc == 0 and varies and free < 0:
            free = j
    if nca == 0:
        return False
    if free >= 0:
        fi[d, F_KIND] = 1
        order[d, 0] = free
        fi[d, F_NCAND] = 1
        ff[d, F_LEFT] = 1.0
    else:
        fi[d, F_KIND] = 0
        fi[d, F_NCAND] = nca
        _sort_safest(order, safety, d, nca)
        ff[d, F_LEFT] = safety[d, order[d, 0]]
    fi[d, F_CI] = 0
    fi[d, F_V] = 0
    ff[d, F_ACC] = 0.0
    ff[d, F_BEST] = -1.0
    fi[d, F_BESTC] = order[d, 0]
    return True


@step(inline="always")
def _sort_safest(order, safety, d, nca):  # type: ignore[no-untyped-def]
    """Sort frame ``d``'s ``nca`` candidates ``order[d]`` safest first (insertion sort: few
    candidates; equal ones keep their order)."""
    for a in range(1, nca):
        x = order[d, a]
        b = a - 1
        while b >= 0 and safety[d, order[d, b]] < safety[d, x]:
            order[d, b + 1] = order[d, b]
            b -= 1
        order[d, b + 1] = x


@step(inline="always")
def _next_child(d, val, sbuf, fi, ff, order, safety):  # type: ignore[no-untyped-def]
    """Go on with frame ``d``: True when the layouts where its candidate shows its next value
    are frame ``d + 1``; the frame moves on to its next candidate when one is scored or cannot
    beat the best. False when the frame is finished (its chance is ``ff[d, F_BEST]``, or
    ``ff[d, F_ACC]`` for a free cell)."""
    while True:
        if fi[d, F_V] > 8:
            if not _next_candidate(d, fi, ff, order, safety):
                return False
            continue
        if fi[d, F_KIND] == 0 and ff[d, F_ACC] + ff[d, F_LEFT] <= ff[d, F_BEST] + 1e-12:
            fi[d, F_V] = 9  # cannot beat the best: drop this candidate
            continue
        cl = _child_layouts(d, val, sbuf, fi, order)
        if cl == 0:
            fi[d, F_V] += 1
            continue
        ff[d, F_LEFT] -= cl / fi[d, F_LEN]
        fi[d, F_CHILD] = cl
        fi[d + 1, F_START] = fi[d, F_START] + fi[d, F_LEN]
        fi[d + 1, F_LEN] = cl
        return True


@step(inline="always")
def _next_candidate(d, fi, ff, order, safety):  # type: ignore[no-untyped-def]
    """Frame ``d``'s candidate is scored: keep it if it is the best so far and set up the next
    one; False when there is none that could beat the best (or the frame had one free cell)."""
    if fi[d, F_KIND] == 1:
        return False
    if ff[d, F_ACC] > ff[d, F_BEST]:
        ff[d, F_BEST] = ff[d, F_ACC]
        fi[d, F_BESTC] = order[d, fi[d, F_CI]]
    fi[d, F_CI] += 1
    ci = fi[d, F_CI]
    if ci >= fi[d, F_NCAND] or safety[d, order[d, ci]] <= ff[d, F_BEST] + 1e-12:
        return False
    fi[d, F_V] = 0
    ff[d, F_ACC] = 0.0
    ff[d, F_LEFT] = safety[d, order[d, ci]]
    return True


@step(inline="always")
def _child_layouts(d, val, sbuf, fi, order):  # type: ignore[no-untyped-def]
    """Copy the layouts of frame ``d`` where its candidate shows its next value after the
    frame's own in ``sbuf`` (where frame ``d + 1`` keeps them); how many."""
    c = order[d, fi[d, F_CI]]
    v = fi[d, F_V]
    st = fi[d, F_START]
    cs = st + fi[d, F_LEN]
    cl = 0
    for t in range(st, cs):
        if val[sbuf[t], c] == v:
            sbuf[cs + cl] = sbuf[t]
            cl += 1
    return cl


# ------------------------------------------------------------- playing
