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

from .._heap import heap_grow, heap_new, heap_pop, heap_push
from .._jit import njit

# --------------------------------------------------------------------------- BFS


@njit
def bfs_kernel(grid, offsets, sources, goal, targets, pdir, queue):
    """Breadth-first search from ``sources`` (FIFO, neighbours in offset order).

    Keeps only ``pdir`` (-1 on entry): the step that first reached each cell,
    ``-2`` on the sources; a cell is seen when ``pdir[v] != -1``. One byte per
    cell is all the loop touches besides the grid, as in a C BFS; distances
    follow from ``pdir`` and the queue order (:func:`tree_depth_kernel`).
    Stops as soon as ``goal`` (a cell index, -1 for none) or any cell with
    ``targets[v] != 0`` (``targets`` may be empty) is discovered.
    Returns ``(number of cells queued, the cell reached or -1)``.
    """
    nd = offsets.shape[0]
    has_targets = targets.shape[0] > 0
    tail = 0
    for i in range(sources.shape[0]):
        s = sources[i]
        if pdir[s] != -1:
            continue
        pdir[s] = -2
        queue[tail] = s
        tail += 1
        if s == goal or (has_targets and targets[s] != 0):
            return tail, s
    head = 0
    if nd == 4 and not has_targets:  # the common case, written out
        w = offsets[1]
        while head < tail:
            u = queue[head]
            head += 1
            v = u - w
            if grid[v] != 0 and pdir[v] == -1:
                pdir[v] = 0
                queue[tail] = v
                tail += 1
                if v == goal:
                    return tail, v
            v = u + w
            if grid[v] != 0 and pdir[v] == -1:
                pdir[v] = 1
                queue[tail] = v
                tail += 1
                if v == goal:
                    return tail, v
            v = u - 1
            if grid[v] != 0 and pdir[v] == -1:
                pdir[v] = 2
                queue[tail] = v
                tail += 1
                if v == goal:
                    return tail, v
            v = u + 1
            if grid[v] != 0 and pdir[v] == -1:
                pdir[v] = 3
                queue[tail] = v
                tail += 1
                if v == goal:
                    return tail, v
        return tail, -1
    while head < tail:
        u = queue[head]
        head += 1
        for k in range(nd):
            v = u + offsets[k]
            if grid[v] != 0 and pdir[v] == -1:
                pdir[v] = k
                queue[tail] = v
                tail += 1
                if v == goal or (has_targets and targets[v] != 0):
                    return tail, v
    return tail, -1


@njit
def bfs_distances_kernel(grid, offsets, sources, dist, queue):
    """BFS distances from several sources (any offsets), no parents.

    ``dist`` is -1 on entry. Returns the number of cells reached.
    """
    nd = offsets.shape[0]
    tail = 0
    for i in range(sources.shape[0]):
        s = sources[i]
        if dist[s] >= 0:
            continue
        dist[s] = 0
        queue[tail] = s
        tail += 1
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u] + 1
        for k in range(nd):
            v = u + offsets[k]
            if grid[v] != 0 and dist[v] < 0:
                dist[v] = du
                queue[tail] = v
                tail += 1
    return tail


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
def astar_unit4_kernel(grid, rows, cols, start, goal, state, closed_cells):
    """A* for 4-connected unit-cost grids with the Manhattan heuristic.

    Works on the *unpadded* grid (``rows`` x ``cols``, flattened; bounds are
    checked from the cell's row and column, which the heuristic needs anyway),
    so the wrapper copies nothing. All per-cell state is packed into one int32
    array (zero on entry: a fresh ``np.zeros`` costs nothing until touched)::

        state[v] = ((g + 1) << 3) | (4 if closed) | k    (0 = never opened)

    where ``k`` is the index of the step (up, down, left, right) that reached
    ``v``. ``closed_cells`` receives the cells in closing order.

    With unit steps, f = g + h changes by 0 or +2 along an edge, so the open
    list is two stacks: the current f-level (LIFO: deepest first, which is the
    usual "prefer larger g" tie-break) and the next one. No heap is needed.
    A cell's neighbours are opened up, down, left, right, or left, right, up,
    down when more rows than columns remain to the goal: the last opened is
    expanded first, so the search dives along the diagonal, where a random grid
    has the most shortest routes (on an open 4000 x 4000 grid with 25 % walls
    this closes 12 thousand cells instead of 800 thousand).
    Returns ``(number of cells closed, goal reached)``.
    """
    gr = goal // cols
    gc = goal - gr * cols
    cap = 1024
    cur = np.empty(cap, dtype=np.int32)
    nxt = np.empty(cap, dtype=np.int32)
    nnxt = 0
    state[start] = 1 << 3
    cur[0] = start
    ncur = 1
    closed = 0
    while True:
        while ncur > 0:
            ncur -= 1
            u = cur[ncur]
            su = state[u]
            if su & 4:
                continue
            state[u] = su | 4
            closed_cells[closed] = u
            closed += 1
            if u == goal:
                return closed, True
            ur = u // cols
            uc = u - ur * cols
            gv1 = (su >> 3) + 1  # g(v) + 1 for a neighbour v
            # Open the vertical steps last (so they are expanded first) when more
            # rows than columns remain to the goal: the dive keeps near the
            # diagonal, where the most equally short routes are.
            vertical_last = abs(gr - ur) > abs(gc - uc)
            for i in range(4):
                k = (i + 2) & 3 if vertical_last else i
                if k == 0:
                    if ur == 0:
                        continue
                    v = u - cols
                    closer = ur > gr  # the step brings v closer to the goal
                elif k == 1:
                    if ur == rows - 1:
                        continue
                    v = u + cols
                    closer = ur < gr
                elif k == 2:
                    if uc == 0:
                        continue
                    v = u - 1
                    closer = uc > gc
                else:
                    if uc == cols - 1:
                        continue
                    v = u + 1
                    closer = uc < gc
                if grid[v] == 0:
                    continue
                sv = state[v]
                if sv != 0 and (sv & 4 or (sv >> 3) <= gv1):
                    continue
                state[v] = (gv1 << 3) | k
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


@njit
def walk_back4_kernel(state, cols, start, end, out):
    """Follow the step indices ``state[v] & 3`` (up, down, left, right) from
    ``end`` back to ``start`` on an unpadded grid; write the cells end-first.

    Returns the number of cells written.
    """
    n = 0
    v = end
    while True:
        out[n] = v
        n += 1
        if v == start:
            break
        k = state[v] & 3
        if k == 0:
            v += cols
        elif k == 1:
            v -= cols
        elif k == 2:
            v += 1
        else:
            v -= 1
    return n


# ------------------------------------------------------ heap-based searches


@njit
def best_first_kernel(
    cost, offsets, step_len, coords_r, coords_c, width, start, goal, targets, mode, heuristic, hscale, g, pdir, order
):
    """Best-first search on a cost grid with the binary heap of :mod:`mazekit._heap`.

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
    diagm2 = (step_len[4] if nd == 8 else np.sqrt(2.0)) - 2.0
    g[start] = 0.0
    heap = heap_new(1024, True)
    heap_push(heap, 0, 0.0, 0.0, 0, start)
    n = 1
    seq = 1
    closed = 0
    while n > 0:
        u = heap_pop(heap, n)
        n -= 1
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
            if n == heap.shape[1]:
                heap = heap_grow(heap)
            heap_push(heap, n, k1, k2, seq, v)
            seq += 1
            n += 1
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
def fill_kernel(grid, offsets, seed, stack):
    """Flood fill in place: every cell connected to ``seed`` goes from 1 to 2.

    ``grid`` is the wrapper's own padded copy (0 wall, 1 passable), so the
    marks need no second array (half the memory traffic of a separate output).
    Explicit stack, mark on push: each cell is pushed at most once, so
    ``stack`` needs room for every cell. With four offsets the neighbour tests
    are written out (the common case, as tight as a C loop).
    Returns the number of cells filled.
    """
    nd = offsets.shape[0]
    grid[seed] = 2
    stack[0] = seed
    sp = 1
    n = 0
    if nd == 4:
        w = offsets[1]
        while sp > 0:
            sp -= 1
            u = stack[sp]
            n += 1
            v = u - w
            if grid[v] == 1:
                grid[v] = 2
                stack[sp] = v
                sp += 1
            v = u + w
            if grid[v] == 1:
                grid[v] = 2
                stack[sp] = v
                sp += 1
            v = u - 1
            if grid[v] == 1:
                grid[v] = 2
                stack[sp] = v
                sp += 1
            v = u + 1
            if grid[v] == 1:
                grid[v] = 2
                stack[sp] = v
                sp += 1
        return n
    while sp > 0:
        sp -= 1
        u = stack[sp]
        n += 1
        for k in range(nd):
            v = u + offsets[k]
            if grid[v] == 1:
                grid[v] = 2
                stack[sp] = v
                sp += 1
    return n


@njit
def label_kernel(grid, rows, cols, diagonal, labels, run_start, run_end, link):
    """Label the connected components of passable cells, 1, 2, ... in reading order.

    Run-based two-pass labelling on the *unpadded* grid (``rows`` x ``cols``,
    flattened). Pass 1 numbers the runs of passable cells of every row in
    reading order and joins touching runs of consecutive rows in a union-find
    forest (``link``) whose root is always the smallest run number, so a
    component's root is its first run in reading order. Pass 2 numbers the
    roots in order and writes every cell's label.

    4-connectivity: pass 1 walks two rows at once and records a (run below,
    run above) pair, in ``run_start``/``run_end``, at the first column of each
    stretch where both cells are open; the run counters advance without a
    branch per cell; the unions follow in a loop of their own. 8-connectivity
    (``diagonal``): pass 1 records each run's first and last column in
    ``run_start``/``run_end`` and merge-walks them against the row above's
    (runs touch when their columns overlap, widened by one on each side).

    ``link``, ``run_start`` and ``run_end`` need room for
    ``rows * ((cols + 1) // 2) + 1`` entries (one spare); ``labels`` needs no
    initialisation, and ``run_start``/``run_end`` may share its memory (they
    are dead before pass 2 writes it).
    Returns the number of components.
    """
    n = 0
    if not diagonal:
        # the touching pairs (run below, run above) first, without a branch per
        # cell, then the unions in a tight loop of their own
        nj = 0  # runs numbered before the row above's first
        m = 0
        for r in range(rows):
            base = r * cols
            above = max(base - cols, 0)
            has_above = 1 if r > 0 else 0
            row_lo = n
            xprev = 0
            yprev = 0
            tprev = 0
            for c in range(cols):
                link[n] = n  # the next run's slot: right whether or not it starts here
                x = int(grid[base + c])
                y = int(grid[above + c]) * has_above
                n += x & (xprev ^ 1)
                nj += y & (yprev ^ 1)
                t = x & y
                run_start[m] = n - 1
                run_end[m] = nj - 1
                m += t & (tprev ^ 1)  # the first column of a stretch where both are open
                xprev = x
                yprev = y
                tprev = t
            nj = row_lo
        for k in range(m):
            a = run_start[k]
            while link[a] != a:
                link[a] = link[link[a]]
                a = link[a]
            b = run_end[k]
            while link[b] != b:
                link[b] = link[link[b]]
                b = link[b]
            if a < b:
                link[b] = a
            elif b < a:
                link[a] = b
    else:
        prev_lo = 0
        for r in range(rows):
            base = r * cols
            # the row's runs: every cell writes both candidates, and the
            # counters advance only at a run's start / end
            ns = n
            ne = n
            prev = 0
            for c in range(cols):
                x = int(grid[base + c])
                run_start[ns] = c
                ns += x & (prev ^ 1)
                run_end[ne] = c - 1
                ne += prev & (x ^ 1)
                prev = x
            if prev:
                run_end[ne] = cols - 1
            for i in range(n, ns):
                link[i] = i
            # merge-walk this row's runs against the row above's
            i = n
            j = prev_lo
            while i < ns and j < n:
                si = run_start[i]
                ei = run_end[i]
                sj = run_start[j]
                ej = run_end[j]
                if ej + 1 < si:
                    j += 1
                    continue
                if ei + 1 < sj:
                    i += 1
                    continue
                a = i
                while link[a] != a:
                    link[a] = link[link[a]]
                    a = link[a]
                b = j
                while link[b] != b:
                    link[b] = link[link[b]]
                    b = link[b]
                if a < b:
                    link[b] = a
                elif b < a:
                    link[a] = b
                if ej < ei:
                    j += 1
                else:
                    i += 1
            prev_lo = n
            n = ns
    # link[i] < i for every non-root, so one forward sweep turns pointers into
    # final labels (a root gets the next number)
    count = 0
    for i in range(n):
        p = link[i]
        if p == i:
            count += 1
            link[i] = count
        else:
            link[i] = link[p]
    # pass 2: the run index advances at each run's start, as in pass 1
    ri = -1
    for r in range(rows):
        base = r * cols
        prev = 0
        for c in range(cols):
            x = int(grid[base + c])
            ri += x & (prev ^ 1)
            labels[base + c] = link[max(ri, 0)] * x
            prev = x
    return count


@njit
def tree_depth_kernel(cells, pdir, offsets, depth):
    """Depth of each cell in a search tree; ``cells`` lists parents before children.

    A cell with ``pdir < 0`` is a root (depth 0).
    """
    for i in range(cells.shape[0]):
        v = cells[i]
        k = pdir[v]
        if k < 0:
            depth[v] = 0
        else:
            depth[v] = depth[v - offsets[k]] + 1
