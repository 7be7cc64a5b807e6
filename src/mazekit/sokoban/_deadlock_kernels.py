"""Deadlock tests over a padded, flattened level (see :mod:`._padded_kernels`), compiled: the
frozen boxes and the matching of boxes to goals. The engine's rules
(:mod:`mazekit.sokoban.deadlock`) and the solver's pruning (:mod:`mazekit.sokoban.solver`) both
run these.
"""

from __future__ import annotations

import numpy as np

from .._jit import step


@step
def blocked_kernel(floor, boxat, dead, off, c):  # type: ignore[no-untyped-def]
    """True when the box on ``c`` is blocked on both axes (a wall, a box, or two dead squares on each):
    only then can a push have frozen it, so only then is the freeze test worth running."""
    for a in range(0, 4, 2):
        x = c + off[a]
        y = c + off[a + 1]
        if floor[x] != 0 and floor[y] != 0 and boxat[x] < 0 and boxat[y] < 0 and (dead[x] == 0 or dead[y] == 0):
            return False
    return True


@step
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


@step
def reaches_kernel(reach, cell, g):  # type: ignore[no-untyped-def]
    """Whether goal ``g`` is reachable from ``cell``: its bit in ``reach[cell]`` (64 goals a word)."""
    return reach[cell, g >> 6] >> np.uint64(g & 63) & np.uint64(1) != 0


@step
def unmatched_kernel(rows, reach, m, by_goal, by_box, via, seen, todo):  # type: ignore[no-untyped-def]
    """0 when every box on ``rows`` can have a goal of its own among the first ``m`` goals (goal
    ``g`` reachable from the box's cell: bit ``g % 64`` of ``reach[cell, g // 64]``); else the
    number of boxes of a Hall violator, listed in ``todo`` (indices into ``rows``): boxes that
    between them reach fewer goals than they are.

    A maximum bipartite matching, greedy first, then one breadth-first augmenting path per box
    left. When a box ``r`` has none, the search from it has met every box an alternating path
    leads to and every goal they reach, each matched to one of them other than ``r``: one goal
    fewer than boxes.
    ``by_goal`` (``m``), ``by_box`` (boxes), ``via`` (``m``), ``seen`` (``m``) and ``todo``
    (boxes) are work arrays."""
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
            return tail
        g = end
        while True:  # flip the path: each box on it takes the goal it reached
            b = via[g]
            before = by_box[b]
            by_goal[g] = b
            by_box[b] = g
            if b == r:
                break
            g = before
    return 0
