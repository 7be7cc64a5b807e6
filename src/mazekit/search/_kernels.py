# mypy: allow-untyped-defs, allow-untyped-calls
"""The compiled loops of mazekit.search.

Every kernel works on a *padded, flattened* grid: the wrapper adds a one-cell
wall border around the grid and ravels it, so a neighbour of cell ``u`` is
simply ``u + offsets[k]`` and no loop ever checks bounds. Neighbours are tried
in the order of ``offsets``: up, down, left, right, then (8-connectivity) the
diagonals up-left, up-right, down-left, down-right.

Conventions shared by the kernels:

* ``grid``: uint8, 1 = passable;
* ``pdir``: int8, the index in ``offsets`` of the step that first reached a cell
  (so its parent is ``v - offsets[pdir[v]]``), -1 for none;
* ``dist``: int32 BFS distance, -1 unreached; float64 costs use ``inf``.

These functions are plain Python; :mod:`mazekit._jit` compiles them for large
inputs and the tests compare both versions on generated grids.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit

# --------------------------------------------------------------------------- BFS


@njit
def bfs_kernel(grid, offsets, sources, goal, targets, dist, pdir, queue, want_parent):
    """Breadth-first search from ``sources`` (FIFO, neighbours in offset order).

    Stops as soon as ``goal`` (a cell index, -1 for none) or any cell with
    ``targets[v] != 0`` (``targets`` may be empty) is discovered.
    Returns ``(number of cells queued, the cell reached or -1)``.
    """
    nd = offsets.shape[0]
    has_targets = targets.shape[0] > 0
    tail = 0
    for i in range(sources.shape[0]):
        s = sources[i]
        if dist[s] >= 0:
            continue
        dist[s] = 0
        queue[tail] = s
        tail += 1
        if s == goal or (has_targets and targets[s] != 0):
            return tail, s
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u] + 1
        for k in range(nd):
            v = u + offsets[k]
            if grid[v] != 0 and dist[v] < 0:
                dist[v] = du
                if want_parent:
                    pdir[v] = k
                queue[tail] = v
                tail += 1
                if v == goal or (has_targets and targets[v] != 0):
                    return tail, v
    return tail, -1


@njit
def bfs4_distances_kernel(grid, width, source, dist, queue):
    """BFS distances from one source, 4-connected, no parents: the tightest loop."""
    dist[source] = 0
    queue[0] = source
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u] + 1
        v = u - width
        if grid[v] != 0 and dist[v] < 0:
            dist[v] = du
            queue[tail] = v
            tail += 1
        v = u + width
        if grid[v] != 0 and dist[v] < 0:
            dist[v] = du
            queue[tail] = v
            tail += 1
        v = u - 1
        if grid[v] != 0 and dist[v] < 0:
            dist[v] = du
            queue[tail] = v
            tail += 1
        v = u + 1
        if grid[v] != 0 and dist[v] < 0:
            dist[v] = du
            queue[tail] = v
            tail += 1
    return tail


# --------------------------------------------------------------------------- DFS


@njit
def dfs_kernel(grid, offsets, start, goal, targets, order, pdir, stack_cell, stack_k):
    """Depth-first search that visits cells in the order of the recursive DFS.

    A cell is entered when it is passable and not yet visited; neighbours are
    tried in ``offsets`` order. The search stops at the first cell that is
    ``goal`` or has ``targets[v] != 0`` (such a cell is not expanded).
    Returns ``(number of cells visited, the cell reached or -1)``.
    """
    nd = offsets.shape[0]
    has_targets = targets.shape[0] > 0
    order[start] = 0
    count = 1
    if start == goal or (has_targets and targets[start] != 0):
        return count, start
    sp = 0
    stack_cell[0] = start
    stack_k[0] = 0
    while sp >= 0:
        u = stack_cell[sp]
        k = stack_k[sp]
        if k == nd:
            sp -= 1
            continue
        stack_k[sp] = k + 1
        v = u + offsets[k]
        if grid[v] != 0 and order[v] < 0:
            order[v] = count
            count += 1
            pdir[v] = k
            if v == goal or (has_targets and targets[v] != 0):
                return count, v
            sp += 1
            stack_cell[sp] = v
            stack_k[sp] = 0
    return count, -1


# ------------------------------------------------------------------- paths


@njit
def walk_back_kernel(pdir, offsets, end, out):
    """Follow ``pdir`` from ``end`` back to a source; write the cells end-first.

    Returns the number of cells written.
    """
    n = 0
    v = end
    while True:
        out[n] = v
        n += 1
        k = pdir[v]
        if k < 0:
            break
        v = v - offsets[k]
    return n


# ------------------------------------------------------------ A* (unit cost)


@njit
def astar_unit4_kernel(grid, width, start, goal, g, pdir, order):
    """A* for 4-connected unit-cost grids with the Manhattan heuristic.

    With unit steps, f = g + h changes by 0 or +2 along an edge, so the open
    list is two stacks: the current f-level (LIFO: deepest first, which is the
    usual "prefer larger g" tie-break) and the next one. No heap is needed.
    ``order`` receives the closing step of each cell (-1 never closed).
    Returns ``(number of cells closed, goal reached)``.
    """
    gr = goal // width
    gc = goal % width
    cap = 1024
    cur = np.empty(cap, dtype=np.int32)
    nxt = np.empty(cap, dtype=np.int32)
    ncur = 0
    nnxt = 0
    g[start] = 0
    cur[0] = start
    ncur = 1
    closed = 0
    offs = np.empty(4, dtype=np.int64)
    offs[0] = -width
    offs[1] = width
    offs[2] = -1
    offs[3] = 1
    while True:
        while ncur > 0:
            ncur -= 1
            u = cur[ncur]
            if order[u] >= 0:
                continue
            order[u] = closed
            closed += 1
            if u == goal:
                return closed, True
            ur = u // width
            uc = u - ur * width
            gu = g[u] + 1
            for k in range(4):
                v = u + offs[k]
                if grid[v] == 0 or order[v] >= 0:
                    continue
                gv = g[v]
                if gv >= 0 and gv <= gu:
                    continue
                g[v] = gu
                pdir[v] = k
                # does the step bring v closer to the goal? (h decreases by 1)
                if k == 0:
                    closer = ur > gr
                elif k == 1:
                    closer = ur < gr
                elif k == 2:
                    closer = uc > gc
                else:
                    closer = uc < gc
                if closer:
                    if ncur == cur.shape[0]:
                        bigger = np.empty(cur.shape[0] * 2, dtype=np.int32)
                        bigger[:ncur] = cur[:ncur]
                        cur = bigger
                    cur[ncur] = v
                    ncur += 1
                else:
                    if nnxt == nxt.shape[0]:
                        bigger = np.empty(nxt.shape[0] * 2, dtype=np.int32)
                        bigger[:nnxt] = nxt[:nnxt]
                        nxt = bigger
                    nxt[nnxt] = v
                    nnxt += 1
        if nnxt == 0:
            return closed, False
        tmp = cur
        cur = nxt
        nxt = tmp
        ncur = nnxt
        nnxt = 0


# ------------------------------------------------------ heap-based searches


@njit
def _heap_less(hk1, hk2, hseq, a, b):
    if hk1[a] != hk1[b]:
        return hk1[a] < hk1[b]
    if hk2[a] != hk2[b]:
        return hk2[a] < hk2[b]
    return hseq[a] < hseq[b]


@njit
def best_first_kernel(cost, offsets, step_len, coords_r, coords_c, width, start, goal, targets,
                      mode, heuristic, hscale, g, pdir, order):
    """Best-first search on a cost grid with a binary heap.

    ``cost[v]`` is the cost of entering ``v`` (``inf`` = wall), multiplied by
    ``step_len[k]`` for a step along ``offsets[k]`` (1 or sqrt 2).
    ``mode``: 0 Dijkstra (key g), 1 A* (key g + h, ties to larger g),
    2 greedy best-first (key h).
    ``heuristic``: 0 zero, 1 Manhattan, 2 octile, 3 Euclidean, 4 Chebyshev,
    scaled by ``hscale`` (the cheapest cell cost, keeping A* admissible).
    ``coords_r``/``coords_c`` are the goal's padded row and column. The octile
    heuristic uses the diagonal step length ``step_len[4]``.
    Stops when ``goal`` (or a cell of ``targets``) is closed.
    Returns ``(number of cells closed, the cell reached or -1)``.
    """
    nd = offsets.shape[0]
    has_targets = targets.shape[0] > 0
    cap = 1024
    hk1 = np.empty(cap, dtype=np.float64)
    hk2 = np.empty(cap, dtype=np.float64)
    hseq = np.empty(cap, dtype=np.int64)
    hnode = np.empty(cap, dtype=np.int64)
    n = 0
    seq = 0
    diagm2 = (step_len[4] if nd == 8 else np.sqrt(2.0)) - 2.0
    g[start] = 0.0
    # push start
    hk1[0] = 0.0
    hk2[0] = 0.0
    hseq[0] = 0
    hnode[0] = start
    n = 1
    seq = 1
    closed = 0
    while n > 0:
        # pop the root
        u = hnode[0]
        n -= 1
        if n > 0:
            hk1[0] = hk1[n]
            hk2[0] = hk2[n]
            hseq[0] = hseq[n]
            hnode[0] = hnode[n]
            i = 0
            while True:
                left = 2 * i + 1
                if left >= n:
                    break
                best = left
                right = left + 1
                if right < n and _heap_less(hk1, hk2, hseq, right, left):
                    best = right
                if _heap_less(hk1, hk2, hseq, best, i):
                    t1 = hk1[i]
                    hk1[i] = hk1[best]
                    hk1[best] = t1
                    t2 = hk2[i]
                    hk2[i] = hk2[best]
                    hk2[best] = t2
                    t3 = hseq[i]
                    hseq[i] = hseq[best]
                    hseq[best] = t3
                    t4 = hnode[i]
                    hnode[i] = hnode[best]
                    hnode[best] = t4
                    i = best
                else:
                    break
        if order[u] >= 0:
            continue
        order[u] = closed
        closed += 1
        if u == goal or (has_targets and targets[u] != 0):
            return closed, u
        gu = g[u]
        for k in range(nd):
            v = u + offsets[k]
            cv = cost[v]
            if not (cv < np.inf) or order[v] >= 0:
                continue
            ng = gu + cv * step_len[k]
            if mode != 2 and not (ng < g[v]):
                continue
            if mode == 2 and g[v] < np.inf:
                continue
            g[v] = ng
            pdir[v] = k
            h = 0.0
            if heuristic != 0:
                vr = v // width
                vc = v - vr * width
                dr = abs(vr - coords_r)
                dc = abs(vc - coords_c)
                if heuristic == 1:
                    h = float(dr + dc)
                elif heuristic == 2:
                    lo = min(dr, dc)
                    h = float(dr + dc) + diagm2 * lo
                elif heuristic == 3:
                    h = np.sqrt(float(dr * dr + dc * dc))
                else:
                    h = float(max(dr, dc))
                h *= hscale
            if mode == 0:
                k1 = ng
                k2 = 0.0
            elif mode == 1:
                k1 = ng + h
                k2 = -ng
            else:
                k1 = h
                k2 = 0.0
            if n == hk1.shape[0]:
                m = hk1.shape[0] * 2
                b1 = np.empty(m, dtype=np.float64)
                b1[:n] = hk1[:n]
                hk1 = b1
                b2 = np.empty(m, dtype=np.float64)
                b2[:n] = hk2[:n]
                hk2 = b2
                b3 = np.empty(m, dtype=np.int64)
                b3[:n] = hseq[:n]
                hseq = b3
                b4 = np.empty(m, dtype=np.int64)
                b4[:n] = hnode[:n]
                hnode = b4
            # push and sift up
            i = n
            hk1[i] = k1
            hk2[i] = k2
            hseq[i] = seq
            hnode[i] = v
            seq += 1
            n += 1
            while i > 0:
                p = (i - 1) // 2
                if _heap_less(hk1, hk2, hseq, i, p):
                    t1 = hk1[i]
                    hk1[i] = hk1[p]
                    hk1[p] = t1
                    t2 = hk2[i]
                    hk2[i] = hk2[p]
                    hk2[p] = t2
                    t3 = hseq[i]
                    hseq[i] = hseq[p]
                    hseq[p] = t3
                    t4 = hnode[i]
                    hnode[i] = hnode[p]
                    hnode[p] = t4
                    i = p
                else:
                    break
    return closed, -1


# ------------------------------------------------------------- flood fill


@njit
def flood_kernel(grid, offsets, seed, stop, out, queue):
    """Mark in ``out`` the cells reachable from ``seed`` (BFS order).

    Cells with ``stop[v] != 0`` are marked but not expanded (``stop`` may be
    empty). Returns the number of cells marked; ``queue[:n]`` holds them in
    the order they were reached.
    """
    nd = offsets.shape[0]
    has_stop = stop.shape[0] > 0
    out[seed] = 1
    queue[0] = seed
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        if has_stop and stop[u] != 0:
            continue
        for k in range(nd):
            v = u + offsets[k]
            if grid[v] != 0 and out[v] == 0:
                out[v] = 1
                queue[tail] = v
                tail += 1
    return tail


@njit
def scanline_fill_kernel(grid, width, seed, out, diagonal):
    """Scan-line flood fill from ``seed``: whole horizontal runs at a time.

    Fills ``out`` with 1 on every cell 4-connected (8-connected if
    ``diagonal``) to ``seed``. Returns the number of cells filled. Far fewer
    stack operations than a cell-by-cell fill, which is why image libraries
    use it.
    """
    cap = 1024
    stack = np.empty(cap, dtype=np.int64)
    sp = 0
    stack[0] = seed
    sp = 1
    filled = 0
    ext = 1 if diagonal else 0
    while sp > 0:
        sp -= 1
        x = stack[sp]
        if out[x] != 0:
            continue
        # extend the run left and right
        lo = x
        while grid[lo - 1] != 0 and out[lo - 1] == 0:
            lo -= 1
        hi = x
        while grid[hi + 1] != 0 and out[hi + 1] == 0:
            hi += 1
        for i in range(lo, hi + 1):
            out[i] = 1
        filled += hi - lo + 1
        # look for new runs in the rows above and below
        for d in (-width, width):
            i = lo - ext + d
            end = hi + ext + d
            while i <= end:
                if grid[i] != 0 and out[i] == 0:
                    if sp == stack.shape[0]:
                        bigger = np.empty(stack.shape[0] * 2, dtype=np.int64)
                        bigger[:sp] = stack[:sp]
                        stack = bigger
                    stack[sp] = i
                    sp += 1
                    # skip the rest of this run
                    while i <= end and grid[i] != 0 and out[i] == 0:
                        i += 1
                else:
                    i += 1
    return filled


@njit
def label_kernel(grid, offsets, labels, queue):
    """Label the connected components of passable cells, 1, 2, ... in scan order.

    Returns the number of components. ``labels`` must be zero on entry.
    """
    nd = offsets.shape[0]
    n = grid.shape[0]
    current = 0
    for s in range(n):
        if grid[s] == 0 or labels[s] != 0:
            continue
        current += 1
        labels[s] = current
        queue[0] = s
        head = 0
        tail = 1
        while head < tail:
            u = queue[head]
            head += 1
            for k in range(nd):
                v = u + offsets[k]
                if grid[v] != 0 and labels[v] == 0:
                    labels[v] = current
                    queue[tail] = v
                    tail += 1
    return current


@njit
def tree_depth_kernel(cells, pdir, offsets, depth):
    """Depth of each cell in a search tree; ``cells`` lists parents before children."""
    for i in range(cells.shape[0]):
        v = cells[i]
        k = pdir[v]
        if k < 0:
            depth[v] = 0
        else:
            depth[v] = depth[v - offsets[k]] + 1
