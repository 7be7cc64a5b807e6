"""Compiled loops of the maze generators.

Mazes are carved on a cell grid of ``h`` x ``w`` cells drawn on a pixel grid of
``2h+1`` x ``2w+1`` (cell ``(i, j)`` at pixel ``(2i+1, 2j+1)``, the wall between
two cells at the pixel between them). Kernels get their random numbers as an
array drawn by the wrapper from a NumPy Generator, so a seed gives the same
maze whether the kernel runs compiled or not.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit


@njit
def backtracker_kernel(h, w, start, rand, out):  # type: ignore[no-untyped-def]
    """Recursive backtracker (randomized depth-first search), with an explicit stack.

    ``out`` is the flattened (2h+1) x (2w+1) uint8 pixel grid, zero on entry;
    carved pixels are set to 1. ``rand`` holds at least 2*h*w floats in [0, 1).
    """
    W = 2 * w + 1
    n = h * w
    visited = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    cand = np.empty(4, dtype=np.int64)
    sp = 0
    stack[0] = start
    sp = 1
    visited[start] = 1
    out[(2 * (start // w) + 1) * W + 2 * (start % w) + 1] = 1
    ri = 0
    while sp > 0:
        u = stack[sp - 1]
        ui = u // w
        uj = u - ui * w
        m = 0
        if ui > 0 and visited[u - w] == 0:
            cand[m] = u - w
            m += 1
        if ui < h - 1 and visited[u + w] == 0:
            cand[m] = u + w
            m += 1
        if uj > 0 and visited[u - 1] == 0:
            cand[m] = u - 1
            m += 1
        if uj < w - 1 and visited[u + 1] == 0:
            cand[m] = u + 1
            m += 1
        if m == 0:
            sp -= 1
            continue
        v = cand[int(rand[ri] * m)]
        ri += 1
        visited[v] = 1
        vi = v // w
        vj = v - vi * w
        out[(2 * vi + 1) * W + 2 * vj + 1] = 1
        out[(ui + vi + 1) * W + uj + vj + 1] = 1
        stack[sp] = v
        sp += 1
    return ri
