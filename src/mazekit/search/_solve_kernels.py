"""Compiled loops of :mod:`mazekit.search.solve` (the random-order depth-first search)."""

from __future__ import annotations

import numpy as np

from .._jit import njit


@njit
def random_dfs_kernel(grid, offsets, start, goal, rand, order, pdir, stack):  # type: ignore[no-untyped-def]
    """Depth-first backtracking with a random neighbour order (the maze article's solver).

    From the cell on top of the stack, step to a random passable unvisited
    neighbour (push it), or pop when there is none. ``grid`` is the padded
    flattened grid, ``rand`` holds at least one float per cell. Returns
    ``(number of cells visited, the goal or -1)``.
    """
    nd = offsets.shape[0]
    cand = np.empty(nd, dtype=np.int64)
    order[start] = 0
    count = 1
    if start == goal:
        return count, start
    stack[0] = start
    sp = 1
    ri = 0
    while sp > 0:
        u = stack[sp - 1]
        m = 0
        for k in range(nd):
            v = u + offsets[k]
            if grid[v] != 0 and order[v] < 0:
                cand[m] = k
                m += 1
        if m == 0:
            sp -= 1
            continue
        k = cand[int(rand[ri] * m)]
        ri += 1
        v = u + offsets[k]
        order[v] = count
        count += 1
        pdir[v] = k
        if v == goal:
            return count, v
        stack[sp] = v
        sp += 1
    return count, -1
