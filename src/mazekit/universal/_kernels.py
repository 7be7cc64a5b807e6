"""The compiled loops of mazekit.universal.

Every kernel works on the *move table* ``nxt`` (int32, shape ``(4, N)``): the
free cells other than the exit are numbered ``0 .. n-1`` in reading order, the
extra index ``n`` (``gone = N - 1``) stands for "has left through the exit",
and ``nxt[k, i]`` is where command ``k`` (0 U, 1 D, 2 L, 3 R) takes a robot
standing on ``i`` (itself when blocked, ``gone`` when it steps onto the exit;
``nxt[k, gone] == gone``).

A *set of robots* is an int32 array of distinct cell indices (never ``gone``);
the exact search stores sets as bitsets of uint64 words (bit ``i`` = a robot on
cell ``i``). Pair states ``(a, b)`` are encoded ``a * N + b``.

These functions are plain Python; :mod:`mazekit._jit` compiles them for large
inputs and the tests compare both versions.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit

# --------------------------------------------------------------- single robots


@njit
def walk_kernel(nxt, moves, starts, out_steps):  # type: ignore[no-untyped-def]
    """Run every robot of ``starts`` through ``moves``.

    ``out_steps[i]`` = the number of commands after which robot ``i`` left
    through the exit, or -1 if it is still inside at the end.
    """
    gone = nxt.shape[1] - 1
    m = moves.shape[0]
    for i in range(starts.shape[0]):
        cur = starts[i]
        out_steps[i] = -1
        for t in range(m):
            cur = nxt[moves[t], cur]
            if cur == gone:
                out_steps[i] = t + 1
                break


@njit
def step_set_kernel(nxt, k, pos, count, mark, stamp, out):  # type: ignore[no-untyped-def]
    """Apply command ``k`` to the set ``pos[:count]``; write the new set to ``out``.

    Robots that meet are merged and robots that leave are dropped. ``mark`` (int32,
    one per index) must hold values below ``stamp``; cells written get ``stamp``.
    Returns the size of the new set (robots keep their relative order).
    """
    gone = nxt.shape[1] - 1
    c = 0
    for i in range(count):
        j = nxt[k, pos[i]]
        if j != gone and mark[j] != stamp:
            mark[j] = stamp
            out[c] = j
            c += 1
    return c


@njit
def run_set_kernel(nxt, moves, pos, count, mark, sizes):  # type: ignore[no-untyped-def]
    """Apply all ``moves`` to the set ``pos[:count]`` (in place); return the final size.

    ``sizes[t]`` (length ``len(moves)``) gets the size of the set after ``t + 1``
    commands. ``mark`` as in :func:`step_set_kernel` (any values below the
    largest one + 1 are fine: the kernel starts stamping above its maximum).
    """
    gone = nxt.shape[1] - 1
    stamp = 0
    for i in range(mark.shape[0]):
        if mark[i] > stamp:
            stamp = mark[i]
    buf = np.empty_like(pos)
    for t in range(moves.shape[0]):
        k = moves[t]
        stamp += 1
        c = 0
        for i in range(count):
            j = nxt[k, pos[i]]
            if j != gone and mark[j] != stamp:
                mark[j] = stamp
                buf[c] = j
                c += 1
        for i in range(c):
            pos[i] = buf[i]
        count = c
        sizes[t] = c
    return count


# --------------------------------------------------------------- pair product


@njit
def pair_bfs_kernel(nxt, pstart, plist, dist, queue, head, tail, budget):  # type: ignore[no-untyped-def]
    """Backward BFS on the pair product graph from ``(gone, gone)``, resumable.

    ``pstart``/``plist`` list the predecessors of each cell under each command
    (CSR, row ``k * N + j`` = the cells that command ``k`` takes to ``j``).
    ``dist[a * N + b]`` (int32, -1 = not reached) becomes the length of the
    shortest command string that takes both a robot on ``a`` and one on ``b``
    out of the maze (``dist[a * N + a]`` is a single robot's distance). The
    caller seeds ``dist``/``queue`` with ``(gone, gone)`` (``head=0, tail=1``);
    each call expands at most ``budget`` queue entries and returns the new
    ``(head, tail)``: the search is over when ``head == tail``.
    """
    n1 = nxt.shape[1]
    stop = head + budget
    while head < tail and head < stop:
        s = queue[head]
        head += 1
        a = s // n1
        b = s - a * n1
        d = dist[s] + 1
        for k in range(4):
            ra = k * n1 + a
            rb = k * n1 + b
            for p in range(pstart[ra], pstart[ra + 1]):
                base = np.int64(plist[p]) * n1
                for q in range(pstart[rb], pstart[rb + 1]):
                    t = base + plist[q]
                    if dist[t] < 0:
                        dist[t] = d
                        queue[tail] = t
                        tail += 1
    return head, tail


@njit
def _slot(key, mask):  # type: ignore[no-untyped-def]
    """Hash-table slot of a pair state (no overflow: 32 bits times 31 bits)."""
    return (((key & 0xFFFFFFFF) * 0x5BD1E995) >> 13) & mask


@njit
def pair_astar_kernel(nxt, dist, a, b, budget, keys, gval, nodes, ng, nnext, head):  # type: ignore[no-untyped-def]
    """Forward A* on the pair product graph from ``(a, b)`` to ``(gone, gone)``.

    Heuristic ``max(dist[x], dist[y])`` (consistent). ``keys`` (int64, a power of
    two long, all -1 on entry) and ``gval`` form an open-addressing table of the
    best depth of each pair seen; ``nodes``/``ng``/``nnext`` (length ``budget``)
    hold queued entries, chained per ``f`` value from ``head`` (int64, all -1).
    Returns ``(bound, exact)``: the shortest length and True, or, when
    ``budget`` entries were used up, the smallest ``f`` left (a lower bound) and
    False. The tables are left dirty (the caller resets them).
    """
    n1 = nxt.shape[1]
    gone = n1 - 1
    goal = gone * n1 + gone
    mask = keys.shape[0] - 1
    nf = head.shape[0]
    s0 = a * n1 + b
    f0 = max(dist[a], dist[b])
    if s0 == goal:
        return 0, True
    used = 0
    nodes[0] = s0
    ng[0] = 0
    nnext[0] = -1
    head[f0] = 0
    used = 1
    slot = _slot(s0, mask)
    keys[slot] = s0
    gval[slot] = 0
    f = f0
    while f < nf:
        e = head[f]
        if e < 0:
            f += 1
            continue
        head[f] = nnext[e]
        s = nodes[e]
        g = ng[e]
        slot = _slot(s, mask)
        while keys[slot] != s:
            slot = (slot + 1) & mask
        if gval[slot] < g:
            continue
        if s == goal:
            return g, True
        x = s // n1
        y = s - x * n1
        g1 = g + 1
        for k in range(4):
            u = nxt[k, x]
            v = nxt[k, y]
            t = np.int64(u) * n1 + v
            slot = _slot(t, mask)
            known = False
            while keys[slot] >= 0:
                if keys[slot] == t:
                    known = True
                    break
                slot = (slot + 1) & mask
            if known and gval[slot] <= g1:
                continue
            if used == nodes.shape[0]:
                return f, False
            keys[slot] = t
            gval[slot] = g1
            ft = g1 + max(dist[u], dist[v])
            if ft >= nf:
                continue
            nodes[used] = t
            ng[used] = g1
            nnext[used] = head[ft]
            head[ft] = used
            used += 1
    return f, False


# --------------------------------------------------------------- exact search


@njit
def _children(nxt, words, out_words):  # type: ignore[no-untyped-def]
    """``out_words[k]``: the bitset of where the robots of ``words`` are after command ``k``."""
    gone = nxt.shape[1] - 1
    nw = words.shape[0]
    for k in range(4):
        for w in range(nw):
            out_words[k, w] = 0
    for w in range(nw):
        x = words[w]
        if x == 0:
            continue
        for j in range(64):
            if (x >> np.uint64(j)) & np.uint64(1):
                i = w * 64 + j
                for k in range(4):
                    t = nxt[k, i]
                    if t != gone:
                        out_words[k, t >> 6] |= np.uint64(1) << np.uint64(t & 63)


@njit
def _members(words, members):  # type: ignore[no-untyped-def]
    """The robots of the bitset ``words`` into ``members``; returns how many."""
    c = 0
    for w in range(words.shape[0]):
        x = words[w]
        if x == 0:
            continue
        for j in range(64):
            if (x >> np.uint64(j)) & np.uint64(1):
                members[c] = w * 64 + j
                c += 1
    return c


@njit
def expand_kernel(nxt, pd, words, out_words, out_h, members):  # type: ignore[no-untyped-def]
    """Apply each command to the bitset ``words``; bound each child by pairs.

    ``out_words[k]`` gets the child set for command ``k`` and ``out_h[k]`` its
    pair bound: the largest ``pd[a * N + b]`` over robots ``a``, ``b`` of the
    child (0 for the empty set). ``members`` is int32 scratch of size N.
    """
    n1 = nxt.shape[1]
    _children(nxt, words, out_words)
    for k in range(4):
        c = _members(out_words[k], members)
        h = 0
        for p in range(c):
            base = np.int64(members[p]) * n1
            for q in range(p, c):
                v = pd[base + members[q]]
                if v > h:
                    h = v
        out_h[k] = h


# --------------------------------------------------------------- heuristics


@njit
def greedy_kernel(nxt, dist, pos, count, mark, out_moves, farthest):  # type: ignore[no-untyped-def]
    """Farthest-first greedy: send one robot out by its shortest route, repeat.

    ``pos[:count]`` is the starting set (overwritten). While robots remain, the
    one with the largest ``dist`` (``nearest`` when ``farthest`` is False; ties:
    the first in the set's order) is walked to the exit along steepest descent
    of ``dist`` (commands tried U, D, L, R), every command applied to all.
    Writes the commands to ``out_moves`` and returns their number, or -1 when
    ``out_moves`` is too short.
    """
    gone = nxt.shape[1] - 1
    cap = out_moves.shape[0]
    buf = np.empty_like(pos)
    cur_pos = pos
    length = 0
    stamp = 0
    for i in range(mark.shape[0]):
        if mark[i] > stamp:
            stamp = mark[i]
    while count > 0:
        pick = cur_pos[0]
        for i in range(1, count):
            p = cur_pos[i]
            if farthest:
                if dist[p] > dist[pick]:
                    pick = p
            elif dist[p] < dist[pick]:
                pick = p
        cur = pick
        while cur != gone:
            dc = dist[cur]
            kk = 0
            for k in range(4):
                t = nxt[k, cur]
                if t == gone or dist[t] == dc - 1:
                    kk = k
                    break
            if length == cap:
                return -1
            out_moves[length] = kk
            length += 1
            cur = nxt[kk, cur]
            stamp += 1
            c = 0
            for i in range(count):
                t = nxt[kk, cur_pos[i]]
                if t != gone and mark[t] != stamp:
                    mark[t] = stamp
                    buf[c] = t
                    c += 1
            count = c
            tmp = cur_pos
            cur_pos = buf
            buf = tmp
    return length


@njit
def beam_child(nxt, dist, keys, beam, counts, b, k, mark, stamp, cand, ci):  # type: ignore[no-untyped-def]
    """Move the robots of beam set ``b`` by command ``k``; the child set goes to ``cand[ci]``.

    Robots that leave and robots that land together count once (``mark`` holds ``stamp`` on
    the cells taken). Returns ``(robots, sum of their dist, the largest dist, the set's hash:
    the xor of their keys)``. The one expansion of both beam searches.
    """
    gone = nxt.shape[1] - 1
    c = 0
    tot = 0
    mx = 0
    h = np.uint64(0)
    for i in range(counts[b]):
        t = nxt[k, beam[b, i]]
        if t != gone and mark[t] != stamp:
            mark[t] = stamp
            cand[ci, c] = t
            c += 1
            dt = dist[t]
            tot += dt
            if dt > mx:
                mx = dt
            h ^= keys[t]
    return c, tot, mx, h


@njit
def beam_keep(beam, counts, cand, ccounts, chosen, kept, parents, pmoves, row):  # type: ignore[no-untyped-def]
    """Make the ``kept`` chosen children (``cand`` rows ``chosen[:kept]``) the new beam, and
    record in ``parents[row]`` / ``pmoves[row]`` the set and command each came from."""
    for q in range(kept):
        ci = chosen[q]
        c = ccounts[ci]
        for i in range(c):
            beam[q, i] = cand[ci, i]
        counts[q] = c
        parents[row, q] = ci // 4
        pmoves[row, q] = ci % 4


@njit
def beam_kernel(  # type: ignore[no-untyped-def]
    nxt, dist, keys, beam, counts, nbeam, cand, ccounts, mark, parents, pmoves, step0, steps, weight
):
    """Run up to ``steps`` steps of beam search over sets of robots.

    ``beam[b, :counts[b]]`` for ``b < nbeam[0]`` are the current sets. Each step
    applies the 4 commands to every set, scores the children by
    ``sum(dist) + weight * max(dist) * count`` (lower is better), drops
    duplicates (order-free hash: the xor of ``keys`` over the set, ties kept
    apart by size) and keeps the ``beam.shape[0]`` best, in score then hash
    order. ``parents[t, b]`` / ``pmoves[t, b]`` record where beam slot ``b`` of
    step ``t`` came from. Returns ``(steps done, slot of an empty set or -1)``;
    the beam arrays hold the new sets.
    """
    width = beam.shape[0]
    nc = 4 * width
    scores = np.empty(nc, dtype=np.float64)
    hashes = np.empty(nc, dtype=np.uint64)
    chosen_h = np.empty(width, dtype=np.uint64)
    chosen_c = np.empty(width, dtype=np.int64)
    stamp = 0
    for i in range(mark.shape[0]):
        if mark[i] > stamp:
            stamp = mark[i]
    for s in range(steps):
        nb = nbeam[0]
        for b in range(nb):
            for k in range(4):
                ci = 4 * b + k
                stamp += 1
                c, tot, mx, h = beam_child(nxt, dist, keys, beam, counts, b, k, mark, stamp, cand, ci)
                ccounts[ci] = c
                scores[ci] = tot + weight * mx * c
                hashes[ci] = h
                if c == 0:
                    parents[step0 + s, 0] = b
                    pmoves[step0 + s, 0] = k
                    return s + 1, 0
        used = 4 * nb
        order = np.argsort(scores[:used], kind="mergesort")
        kept = 0
        for oi in range(used):
            ci = order[oi]
            dup = False
            for q in range(kept):
                if chosen_h[q] == hashes[ci] and ccounts[chosen_c[q]] == ccounts[ci]:
                    dup = True
                    break
            if dup:
                continue
            chosen_h[kept] = hashes[ci]
            chosen_c[kept] = ci
            kept += 1
            if kept == width:
                break
        beam_keep(beam, counts, cand, ccounts, chosen_c, kept, parents, pmoves, step0 + s)
        nbeam[0] = kept
    return steps, -1


@njit
def pair_beam_kernel(  # type: ignore[no-untyped-def]
    nxt,
    pd,
    td,
    dist,
    keys,
    beam,
    counts,
    nbeam,
    cand,
    ccounts,
    mark,
    parents,
    pmoves,
    step0,
    steps,
    weight,
    limit,
    seen,
    fill,
):
    """Run up to ``steps`` steps of beam search over sets of robots, scored by the pair bound.

    As :func:`beam_kernel`, but a child set ``S`` reached after ``g`` commands is
    scored ``h(S) + weight * sum(dist[S]) / scale`` where ``h(S)`` is its pair
    bound (the largest ``pd[a * N + b]`` over robots ``a``, ``b`` of ``S``, the
    diagonal included) and ``scale`` the ``sum(dist)`` of the first beam set;
    children with ``g + h(S) >= limit`` cannot lead to a string shorter than
    ``limit`` and are dropped. Returns ``(steps done, slot of an empty set or
    -1, 1 when no child was left (the beam died) else 0)``.

    ``td``: the triple table, or an array of length 1 for none; with it the
    bound is raised as in :func:`expand3_kernel`.

    ``seen`` (uint64, a power of two long, zeros at first) remembers the sets
    kept so far, all steps together (``fill[0]`` counts them): a set met again
    later is dropped (it was already reached at least as early), so the beam
    cannot go round in circles. When half full it stops remembering.
    """
    n1 = nxt.shape[1]
    width = beam.shape[0]
    nc = 4 * width
    scores = np.empty(nc, dtype=np.float64)
    hashes = np.empty(nc, dtype=np.uint64)
    chosen_c = np.empty(width, dtype=np.int64)
    tmask = seen.shape[0] - 1
    use_td = td.shape[0] > 1
    stamp = 0
    for i in range(mark.shape[0]):
        if mark[i] > stamp:
            stamp = mark[i]
    scale = 0.0
    for i in range(counts[0]):
        scale += dist[beam[0, i]]
    if scale < 1.0:
        scale = 1.0
    for s in range(steps):
        nb = nbeam[0]
        g1 = step0 + s + 1
        for b in range(nb):
            for k in range(4):
                ci = 4 * b + k
                stamp += 1
                c, tot, _, h = beam_child(nxt, dist, keys, beam, counts, b, k, mark, stamp, cand, ci)
                ccounts[ci] = c
                hashes[ci] = h
                if c == 0:
                    parents[step0 + s, 0] = b
                    pmoves[step0 + s, 0] = k
                    return s + 1, 0, 0
                hp = 0
                ba = 0
                bb = 0
                for p in range(c):
                    base = np.int64(cand[ci, p]) * n1
                    for q in range(p, c):
                        v = pd[base + cand[ci, q]]
                        if v > hp:
                            hp = v
                            ba = cand[ci, p]
                            bb = cand[ci, q]
                if use_td and c > 2:
                    base = (np.int64(ba) * n1 + bb) * n1
                    for p in range(c):
                        v = td[base + cand[ci, p]]
                        if v > hp:
                            hp = v
                if g1 + hp >= limit:
                    scores[ci] = np.inf
                else:
                    scores[ci] = hp + weight * tot / scale
        used = 4 * nb
        order = np.argsort(scores[:used], kind="mergesort")
        kept = 0
        for oi in range(used):
            ci = order[oi]
            if scores[ci] == np.inf:
                break
            key = hashes[ci] ^ (np.uint64(ccounts[ci]) << np.uint64(40)) | np.uint64(1)
            slot = np.int64((key >> np.uint64(17)) & np.uint64(tmask))
            dup = False
            while seen[slot] != 0:
                if seen[slot] == key:
                    dup = True
                    break
                slot = (slot + 1) & tmask
            if dup:
                continue
            if 2 * fill[0] < seen.shape[0]:
                seen[slot] = key
                fill[0] += 1
            chosen_c[kept] = ci
            kept += 1
            if kept == width:
                break
        if kept == 0:
            return s + 1, -1, 1
        beam_keep(beam, counts, cand, ccounts, chosen_c, kept, parents, pmoves, step0 + s)
        nbeam[0] = kept
    return steps, -1, 0


# --------------------------------------------------------------- triple product


@njit
def triple_bfs_kernel(pstart, plist, n1, dist, queue):  # type: ignore[no-untyped-def]
    """Backward BFS on the triple product graph from ``(gone, gone, gone)``.

    As :func:`pair_bfs_kernel` for three robots: ``dist[(a * N + b) * N + c]``
    (int16, -1 = not reached, all -1 on entry) becomes the length of the
    shortest string that takes robots on ``a``, ``b`` and ``c`` out.
    ``queue`` is int32 scratch of ``N ** 3``. Runs to the end.
    """
    gone = n1 - 1
    s0 = (gone * n1 + gone) * n1 + gone
    dist[s0] = 0
    queue[0] = s0
    head = 0
    tail = 1
    nn = n1 * n1
    while head < tail:
        s = queue[head]
        head += 1
        a = s // nn
        r = s - a * nn
        b = r // n1
        c = r - b * n1
        d = dist[s] + 1
        for k in range(4):
            ra = k * n1 + a
            rb = k * n1 + b
            rc = k * n1 + c
            for p in range(pstart[ra], pstart[ra + 1]):
                base_a = np.int64(plist[p]) * nn
                for q in range(pstart[rb], pstart[rb + 1]):
                    base_b = base_a + np.int64(plist[q]) * n1
                    for u in range(pstart[rc], pstart[rc + 1]):
                        t = base_b + plist[u]
                        if dist[t] < 0:
                            dist[t] = d
                            queue[tail] = t
                            tail += 1
    return tail


@njit
def expand3_kernel(nxt, pd, td, words, out_words, out_h, members, cap):  # type: ignore[no-untyped-def]
    """:func:`expand_kernel` with a triple-strengthened bound.

    ``out_h[k]`` is the larger of the child's pair bound and the largest
    ``td[(a * N + b) * N + c]`` over robots ``c`` of the child, where ``(a, b)``
    is the pair that gave the pair bound (a lower bound: three robots of the set
    need at least that many commands). The scan stops once the bound reaches
    ``cap`` (a child that needs ``cap`` commands will be dropped anyway), so
    ``out_h[k]`` is ``min(bound, cap)`` or more, never more than the bound.
    """
    n1 = nxt.shape[1]
    _children(nxt, words, out_words)
    for k in range(4):
        c = _members(out_words[k], members)
        h = 0
        ba = 0
        bb = 0
        for p in range(c):
            base = np.int64(members[p]) * n1
            for q in range(p, c):
                v = pd[base + members[q]]
                if v > h:
                    h = v
                    ba = members[p]
                    bb = members[q]
            if h >= cap:
                break
        if c > 2 and h < cap:
            base = (np.int64(ba) * n1 + bb) * n1
            for p in range(c):
                v = td[base + members[p]]
                if v > h:
                    h = v
        out_h[k] = h


# --------------------------------------------------------------- compiled exact search


@njit
def _words_slot(words, node, nw, mask):  # type: ignore[no-untyped-def]
    """Hash-table slot of the bitset ``words[node]``."""
    h = np.uint64(0x9E3779B97F4A7C15)
    low = np.uint64(0xFFFFFFFF)
    for w in range(nw):
        h ^= words[node, w]
        # two 32-bit halves times 31-bit constants: mixes without overflowing 64 bits
        h = (h >> np.uint64(32)) * np.uint64(0x5BD1E995) + (h & low) * np.uint64(0x7FEB352D)
        h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(mask))


@njit
def astar_kernel(  # type: ignore[no-untyped-def]
    nxt, pd, td, limit, budget, words, gbest, hval, parent, pmove, table, ent_node, ent_g, ent_next, head, state
):
    """A* over sets of robots (bitsets), resumable; bound as :func:`expand3_kernel`.

    Nodes are rows of ``words`` (node 0 = the start set, set up by the caller with
    ``gbest[0] = 0``, ``hval[0]`` its bound, an entry for it in ``head``);
    ``table`` (int32, a power of two long, -1 = empty) maps a bitset to its node;
    open entries ``(ent_node, ent_g)`` are chained per ``f`` from ``head[f]`` (LIFO:
    among equal ``f`` the latest, usually the deepest, first). A child gets the
    bound ``max(its own, parent's - 1)`` (pathmax); one reached again by a
    shorter string is queued again. Children with ``g + h >= limit`` are dropped.
    ``state`` (int64): ``[nodes used, entries used, smallest f with entries,
    expanded, goal node or -1]``. Runs at most ``budget`` expansions; returns
    0 on the goal (the empty set, node ``state[4]``), 1 when no entry is left
    below ``limit`` (no string shorter than ``limit``), 2 when the budget is
    spent, 3 when the node or entry arrays are full.
    """
    n1 = nxt.shape[1]
    nw = words.shape[1]
    mask = table.shape[0] - 1
    cap = words.shape[0]
    ecap = ent_node.shape[0]
    out_words = np.empty((4, nw), dtype=np.uint64)
    out_h = np.empty(4, dtype=np.int64)
    members = np.empty(n1, dtype=np.int32)
    used = state[0]
    eused = state[1]
    f = state[2]
    done = 0
    while done < budget:
        while f < limit and head[f] < 0:
            f += 1
        if f >= limit:
            state[0] = used
            state[1] = eused
            state[2] = f
            return 1
        e = head[f]
        head[f] = ent_next[e]
        node = ent_node[e]
        g = ent_g[e]
        if gbest[node] < g:
            continue
        done += 1
        state[3] += 1
        expand3_kernel(nxt, pd, td, words[node], out_words, out_h, members, limit - g - 1)
        g1 = g + 1
        floor = hval[node] - 1
        for k in range(4):
            h = out_h[k]
            if h == 0:  # the empty set: every robot is out
                if used == cap:
                    state[0] = used
                    state[1] = eused
                    state[2] = f
                    return 3
                for w in range(nw):
                    words[used, w] = out_words[k, w]
                gbest[used] = g1
                hval[used] = 0
                parent[used] = node
                pmove[used] = k
                state[4] = used
                used += 1
                state[0] = used
                state[1] = eused
                state[2] = f
                return 0
            if h < floor:
                h = floor
            if g1 + h >= limit:
                continue
            if used == cap or eused == ecap:
                state[0] = used
                state[1] = eused
                state[2] = f
                return 3
            for w in range(nw):
                words[used, w] = out_words[k, w]
            slot = _words_slot(words, used, nw, mask)
            found = -1
            while table[slot] >= 0:
                other = table[slot]
                same = True
                for w in range(nw):
                    if words[other, w] != out_words[k, w]:
                        same = False
                        break
                if same:
                    found = other
                    break
                slot = (slot + 1) & mask
            if found >= 0:
                if gbest[found] <= g1:
                    continue
                child = found
                if h < hval[found]:
                    h = hval[found]
                    if g1 + h >= limit:
                        continue
            else:
                child = used
                used += 1
                table[slot] = child
            gbest[child] = g1
            hval[child] = h
            parent[child] = node
            pmove[child] = k
            ft = g1 + h
            ent_node[eused] = child
            ent_g[eused] = g1
            ent_next[eused] = head[ft]
            head[ft] = eused
            eused += 1
            if ft < f:
                f = ft
    state[0] = used
    state[1] = eused
    state[2] = f
    return 2
