# mypy: allow-untyped-defs, allow-untyped-calls
"""Compiled loops of the maze generators.

Mazes are carved on a cell grid of ``h`` x ``w`` cells drawn on a pixel grid of
``2h+1`` x ``2w+1`` (cell ``(i, j)`` at pixel ``(2i+1, 2j+1)``, the wall between
two cells at the pixel between them: for cells at pixels ``p`` and ``q`` the wall
is at ``(p + q) // 2``). Kernels get their random numbers as an array drawn by
the wrapper from a NumPy Generator, so a seed gives the same maze whether the
kernel runs compiled or not. The two random-walk algorithms (Wilson,
Aldous-Broder) need an unbounded number of draws: the wrapper draws a 32-bit
seed and the kernel runs xorshift32 in plain integer arithmetic, identical
compiled or not.

Every kernel takes ``out`` (the flattened pixel grid, uint8, 1 = passage) and
``order`` (int32, either empty or the size of ``out``): when ``order`` is not
empty, each pixel the kernel changes gets the step at which it changed (the
generation animation is drawn from it).
"""

from __future__ import annotations

import numpy as np

from .._heap import heap_new, heap_pop, heap_push
from .._jit import njit

MASK32 = 0xFFFFFFFF


@njit(inline="always")
def marked_neighbours(u, h, w, mark, value, cand):
    """Write the cells next to cell ``u`` (up, down, left, right) whose ``mark`` is ``value`` into
    ``cand``; return their count.

    Inlined into each kernel and written without a branch: each cell is written, and counted only
    when it is inside the grid and marked (a read outside is clamped into the array, its cell not
    counted). A helper given arrays makes numba count a reference to each on the way in and out,
    four atomic operations a call, which its pruning removes only from a body of one block
    (benchmarks/notes/2026-12-06-one-heap.md).
    """
    ui = u // w
    uj = u - ui * w
    last = mark.shape[0] - 1
    m = 0
    cand[m] = u - w
    m += (ui > 0) & (mark[max(u - w, 0)] == value)
    cand[m] = u + w
    m += (ui < h - 1) & (mark[min(u + w, last)] == value)
    cand[m] = u - 1
    m += (uj > 0) & (mark[max(u - 1, 0)] == value)
    cand[m] = u + 1
    m += (uj < w - 1) & (mark[min(u + 1, last)] == value)
    return m


@njit
def cell_neighbours(u, h, w, cand):
    """Write the cells next to cell ``u`` (up, down, left, right) into ``cand``; return their count."""
    ui = u // w
    uj = u - ui * w
    m = 0
    if ui > 0:
        cand[m] = u - w
        m += 1
    if ui < h - 1:
        cand[m] = u + w
        m += 1
    if uj > 0:
        cand[m] = u - 1
        m += 1
    if uj < w - 1:
        cand[m] = u + 1
        m += 1
    return m


@njit
def xorshift32(x):
    """The next state of xorshift32 (a nonzero integer below 2**32)."""
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


@njit
def backtracker_kernel(h, w, start, rand, out, order):
    """Recursive backtracker (randomized depth-first search), with an explicit stack.

    ``rand`` holds at least h*w floats in [0, 1). Returns the number used.
    """
    W = 2 * w + 1
    n = h * w
    rec = order.shape[0] > 0
    step = 0
    visited = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    cand = np.empty(4, dtype=np.int64)
    stack[0] = start
    sp = 1
    visited[start] = 1
    p0 = (2 * (start // w) + 1) * W + 2 * (start % w) + 1
    out[p0] = 1
    if rec:
        order[p0] = step
    step += 1
    ri = 0
    while sp > 0:
        u = stack[sp - 1]
        ui = u // w
        uj = u - ui * w
        m = marked_neighbours(u, h, w, visited, 0, cand)
        if m == 0:
            sp -= 1
            continue
        v = cand[int(rand[ri] * m)]
        ri += 1
        visited[v] = 1
        vi = v // w
        vj = v - vi * w
        pv = (2 * vi + 1) * W + 2 * vj + 1
        pw = (ui + vi + 1) * W + uj + vj + 1
        out[pw] = 1
        out[pv] = 1
        if rec:
            order[pw] = step
            order[pv] = step + 1
        step += 2
        stack[sp] = v
        sp += 1
    return ri


@njit
def prim_kernel(h, w, start, rand, out, order, mode):
    """Randomized Prim. ``mode`` 0: a random wall from the list of walls of the
    maze (the article's version); 1: a random frontier cell, joined to a random
    neighbour already in the maze (simplified Prim).

    ``rand`` holds at least 4*h*w floats.
    """
    W = 2 * w + 1
    n = h * w
    rec = order.shape[0] > 0
    step = 0
    state = np.zeros(n, dtype=np.uint8)  # 0 out, 1 in the maze, 2 in the frontier
    la = np.empty(4 * n + 4, dtype=np.int64)  # mode 0: wall's inner cell; mode 1: frontier cell
    lb = np.empty(4 * n + 4, dtype=np.int64)  # mode 0: wall's outer cell
    cand = np.empty(4, dtype=np.int64)
    nl = 0
    ri = 0
    u = start
    src = start
    state[u] = 1
    pu = (2 * (u // w) + 1) * W + 2 * (u % w) + 1
    out[pu] = 1
    if rec:
        order[pu] = step
    step += 1
    while True:
        # add the walls (mode 0) or frontier cells (mode 1) around u
        m = cell_neighbours(u, h, w, cand)
        for k in range(m):
            v = cand[k]
            if mode == 0:
                if state[v] == 0:
                    la[nl] = u
                    lb[nl] = v
                    nl += 1
            elif state[v] == 0:
                state[v] = 2
                la[nl] = v
                nl += 1
        # pick the next one
        found = False
        while nl > 0:
            k = int(rand[ri] * nl)
            ri += 1
            a = la[k]
            b = lb[k]
            nl -= 1
            la[k] = la[nl]
            lb[k] = lb[nl]
            if mode == 0:
                if state[b] == 0:
                    u = b
                    src = a
                    found = True
                    break
            else:
                m = marked_neighbours(a, h, w, state, 1, cand)  # join a to a random neighbour in the maze
                src = cand[int(rand[ri] * m)]
                ri += 1
                u = a
                found = True
                break
        if not found:
            break
        state[u] = 1
        pu = (2 * (u // w) + 1) * W + 2 * (u % w) + 1
        ps = (2 * (src // w) + 1) * W + 2 * (src % w) + 1
        out[(pu + ps) // 2] = 1
        out[pu] = 1
        if rec:
            order[(pu + ps) // 2] = step
            order[pu] = step + 1
        step += 2
    return ri


@njit
def true_prim_kernel(h, w, start, weights, out, order):
    """Prim's minimum spanning tree on random edge weights (the binary heap of :mod:`mazekit._heap`).

    ``weights`` has 2*h*w floats: ``weights[c]`` for the edge from cell c to its
    right neighbour, ``weights[n + c]`` for the edge to the cell below.
    """
    W = 2 * w + 1
    n = h * w
    rec = order.shape[0] > 0
    step = 0
    inside = np.zeros(n, dtype=np.uint8)
    heap = heap_new(2 * n + 4, False)  # (weight, u * n + v): u in the maze, v outside
    hn = 0
    u = start
    src = -1
    while True:
        inside[u] = 1
        pu = (2 * (u // w) + 1) * W + 2 * (u % w) + 1
        if src >= 0:
            ps = (2 * (src // w) + 1) * W + 2 * (src % w) + 1
            out[(pu + ps) // 2] = 1
            if rec:
                order[(pu + ps) // 2] = step
            step += 1
        out[pu] = 1
        if rec:
            order[pu] = step
        step += 1
        ui = u // w
        uj = u - ui * w
        for k in range(4):
            if k == 0:
                if ui == 0:
                    continue
                v = u - w
                key = weights[n + v]
            elif k == 1:
                if ui == h - 1:
                    continue
                v = u + w
                key = weights[n + u]
            elif k == 2:
                if uj == 0:
                    continue
                v = u - 1
                key = weights[v]
            else:
                if uj == w - 1:
                    continue
                v = u + 1
                key = weights[u]
            if inside[v] == 1:
                continue
            heap_push(heap, hn, key, 0.0, 0, u * n + v)  # each edge once: there is room for all
            hn += 1
        # pop until an edge leads outside
        found = False
        while hn > 0:
            edge = heap_pop(heap, hn)
            hn -= 1
            a = edge // n
            b = edge - a * n
            if inside[b] == 0:
                u = b
                src = a
                found = True
                break
        if not found:
            break
    return step


@njit
def _find(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        nxt = parent[x]
        parent[x] = root
        x = nxt
    return root


@njit
def kruskal_kernel(h, w, edges, out, order):
    """Randomized Kruskal: join cells along ``edges`` (shuffled) when they are
    in different trees (union-find with path compression and union by size).

    An edge ``e < n`` joins cell e to its right neighbour; ``e >= n`` joins cell
    ``e - n`` to the cell below.
    """
    W = 2 * w + 1
    n = h * w
    rec = order.shape[0] > 0
    step = 0
    parent = np.arange(n)
    size = np.ones(n, dtype=np.int64)
    joined = 0
    for k in range(edges.shape[0]):
        e = edges[k]
        if e < n:
            a = e
            b = e + 1
        else:
            a = e - n
            b = a + w
        ra = _find(parent, a)
        rb = _find(parent, b)
        if ra == rb:
            continue
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        pa = (2 * (a // w) + 1) * W + 2 * (a % w) + 1
        pb = (2 * (b // w) + 1) * W + 2 * (b % w) + 1
        for p in (pa, (pa + pb) // 2, pb):
            if out[p] == 0:
                out[p] = 1
                if rec:
                    order[p] = step
                step += 1
        joined += 1
        if joined == n - 1:
            break
    if n == 1:
        out[W + 1] = 1
        if rec:
            order[W + 1] = 0
    return step


@njit
def wilson_kernel(h, w, cells, seed, out, order):
    """Wilson's algorithm: loop-erased random walks from each cell of ``cells``
    (a permutation; the first one starts the maze) until they hit the maze.
    """
    W = 2 * w + 1
    n = h * w
    rec = order.shape[0] > 0
    step = 0
    x = seed
    inside = np.zeros(n, dtype=np.uint8)
    nxt = np.empty(n, dtype=np.int64)
    cand = np.empty(4, dtype=np.int64)
    first = cells[0]
    inside[first] = 1
    p0 = (2 * (first // w) + 1) * W + 2 * (first % w) + 1
    out[p0] = 1
    if rec:
        order[p0] = step
    step += 1
    for k in range(1, n):
        s = cells[k]
        if inside[s] == 1:
            continue
        u = s
        while inside[u] == 0:
            m = cell_neighbours(u, h, w, cand)
            x = xorshift32(x)
            v = cand[(x * m) >> 32]
            nxt[u] = v
            u = v
        u = s
        while inside[u] == 0:
            inside[u] = 1
            v = nxt[u]
            pu = (2 * (u // w) + 1) * W + 2 * (u % w) + 1
            pv = (2 * (v // w) + 1) * W + 2 * (v % w) + 1
            out[pu] = 1
            out[(pu + pv) // 2] = 1
            if rec:
                order[pu] = step
                order[(pu + pv) // 2] = step + 1
            step += 2
            u = v
    return x


@njit
def aldous_broder_kernel(h, w, start, seed, out, order):
    """Aldous-Broder: a random walk that carves into every cell it enters first."""
    W = 2 * w + 1
    n = h * w
    rec = order.shape[0] > 0
    step = 0
    x = seed
    inside = np.zeros(n, dtype=np.uint8)
    cand = np.empty(4, dtype=np.int64)
    u = start
    inside[u] = 1
    pu = (2 * (u // w) + 1) * W + 2 * (u % w) + 1
    out[pu] = 1
    if rec:
        order[pu] = step
    step += 1
    left = n - 1
    while left > 0:
        m = cell_neighbours(u, h, w, cand)
        x = xorshift32(x)
        v = cand[(x * m) >> 32]
        if inside[v] == 0:
            inside[v] = 1
            left -= 1
            pu = (2 * (u // w) + 1) * W + 2 * (u % w) + 1
            pv = (2 * (v // w) + 1) * W + 2 * (v % w) + 1
            out[(pu + pv) // 2] = 1
            out[pv] = 1
            if rec:
                order[(pu + pv) // 2] = step
                order[pv] = step + 1
            step += 2
        u = v
    return x


@njit
def hunt_and_kill_kernel(h, w, start, rand, out, order):
    """Hunt-and-kill: a random walk into unvisited cells; when stuck, scan the
    rows for the first unvisited cell beside the maze and join it.

    ``rand`` holds at least h*w floats.
    """
    W = 2 * w + 1
    n = h * w
    rec = order.shape[0] > 0
    step = 0
    visited = np.zeros(n, dtype=np.uint8)
    beside = np.zeros(n, dtype=np.uint8)  # 1: next to a visited cell
    cand = np.empty(4, dtype=np.int64)
    ri = 0
    u = start
    visited[u] = 1
    pu = (2 * (u // w) + 1) * W + 2 * (u % w) + 1
    out[pu] = 1
    if rec:
        order[pu] = step
    step += 1
    scan = 0  # every cell before it is visited
    src = start
    while True:
        # each visited cell is u once: its unvisited neighbours are beside the maze from now on
        m = marked_neighbours(u, h, w, visited, 0, cand)
        for k in range(m):
            beside[cand[k]] = 1
        if m > 0:
            v = cand[int(rand[ri] * m)]
            ri += 1
            src = u
        else:
            # hunt: the first unvisited cell beside the maze (one test a cell: the scan passes
            # the same unvisited cells at every hunt, millions of them on a large maze)
            while scan < n and visited[scan] == 1:
                scan += 1
            if scan == n:
                break
            v = scan
            while v < n and (visited[v] == 1 or beside[v] == 0):
                v += 1
            if v == n:  # pragma: no cover - the grid is connected
                break
            m = marked_neighbours(v, h, w, visited, 1, cand)  # its neighbours in the maze
            src = cand[int(rand[ri] * m)]
            ri += 1
        visited[v] = 1
        pv = (2 * (v // w) + 1) * W + 2 * (v % w) + 1
        ps = (2 * (src // w) + 1) * W + 2 * (src % w) + 1
        out[(pv + ps) // 2] = 1
        out[pv] = 1
        if rec:
            order[(pv + ps) // 2] = step
            order[pv] = step + 1
        step += 2
        u = v
    return ri


@njit
def growing_tree_kernel(h, w, start, newest, rand, out, order):
    """Growing tree: keep a list of active cells; take the newest with
    probability ``newest``, else a random one; carve to a random unvisited
    neighbour or drop the cell when it has none.

    Mixed modes keep the list in insertion order with a Fenwick tree over
    the live entries (the k-th live entry in O(log N)). ``rand`` holds at least
    6*h*w floats.
    """
    W = 2 * w + 1
    n = h * w
    rec = order.shape[0] > 0
    mixed = 0.0 < newest < 1.0
    step = 0
    visited = np.zeros(n, dtype=np.uint8)
    active = np.empty(n, dtype=np.int64)
    alive = np.zeros(n, dtype=np.uint8)
    fen = np.zeros(n + 1, dtype=np.int64)
    top_bit = 1
    while top_bit * 2 <= n:
        top_bit *= 2
    cand = np.empty(4, dtype=np.int64)
    ri = 0
    active[0] = start
    na = 1  # entries in active (mixed: including dead ones)
    live = 1
    top = 0  # mixed: the newest live entry
    if mixed:
        alive[0] = 1
        i = 1
        while i <= n:
            fen[i] += 1
            i += i & (-i)
    visited[start] = 1
    p0 = (2 * (start // w) + 1) * W + 2 * (start % w) + 1
    out[p0] = 1
    if rec:
        order[p0] = step
    step += 1
    while live > 0:
        if newest >= 1.0:
            k = na - 1
        elif newest <= 0.0:
            k = int(rand[ri] * na)
            ri += 1
        else:
            if rand[ri] < newest:
                k = top
            else:
                # the t-th live entry (0-based) by Fenwick descent
                t = int(rand[ri + 1] * live) + 1
                pos = 0
                bit = top_bit
                while bit > 0:
                    nxt = pos + bit
                    if nxt <= n and fen[nxt] < t:
                        pos = nxt
                        t -= fen[nxt]
                    bit //= 2
                k = pos
            ri += 2
        u = active[k]
        ui = u // w
        uj = u - ui * w
        m = marked_neighbours(u, h, w, visited, 0, cand)
        if m == 0:
            live -= 1
            if mixed:
                alive[k] = 0
                i = k + 1
                while i <= n:
                    fen[i] -= 1
                    i += i & (-i)
                while top > 0 and alive[top] == 0:
                    top -= 1
            elif newest <= 0.0:
                na -= 1
                active[k] = active[na]
            else:
                na -= 1
            continue
        v = cand[int(rand[ri] * m)]
        ri += 1
        visited[v] = 1
        pu = (2 * ui + 1) * W + 2 * uj + 1
        pv = (2 * (v // w) + 1) * W + 2 * (v % w) + 1
        out[(pu + pv) // 2] = 1
        out[pv] = 1
        if rec:
            order[(pu + pv) // 2] = step
            order[pv] = step + 1
        step += 2
        active[na] = v
        if mixed:
            alive[na] = 1
            i = na + 1
            while i <= n:
                fen[i] += 1
                i += i & (-i)
            top = na
        na += 1
        live += 1
    return ri
