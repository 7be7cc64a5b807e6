"""The lower bound: a minimum-cost matching of boxes to goals (the Hungarian method), kept
incrementally from parent to child, and the cache of a stored child's duals.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import step
from .state import BIG, INF


@step
def augment_kernel(i, cells, dist, u, v, p, way, minv, used):  # type: ignore[no-untyped-def]
    """Add row ``i`` (1-based; box ``cells[i - 1]``) to a partial assignment.

    One shortest augmenting path of the Hungarian method (potentials ``u`` for
    boxes, ``v`` for goals, ``p[j]`` the box assigned to goal ``j``, 1-based, 0
    none). Other rows' potentials must be feasible; row ``i`` may be anything.
    """
    m = v.shape[0] - 1
    for j in range(m + 1):
        minv[j] = INF
        used[j] = 0
    p[0] = i
    u[i] = 0
    j0 = 0
    while True:
        used[j0] = 1
        i0 = p[j0]
        c0 = cells[i0 - 1]
        delta = INF
        j1 = 0
        for j in range(1, m + 1):
            if used[j] == 0:
                dd = dist[j - 1, c0]
                cost = BIG if dd < 0 else dd
                cur = cost - u[i0] - v[j]
                if cur < minv[j]:
                    minv[j] = cur
                    way[j] = j0
                if minv[j] < delta or (minv[j] == delta and p[j] == 0 and p[j1] != 0):
                    # of the columns at the least reduced cost, a free one ends the path here
                    delta = minv[j]
                    j1 = j
        for j in range(m + 1):
            if used[j] != 0:
                u[p[j]] += delta
                v[j] -= delta
            else:
                minv[j] -= delta
        j0 = j1
        if p[j0] == 0:
            break
    while True:
        j1 = way[j0]
        p[j0] = p[j1]
        j0 = j1
        if j0 == 0:
            break
    return 0


@step
def assignment_cost_kernel(cells, dist, p):  # type: ignore[no-untyped-def]
    """The cost of the assignment ``p`` (goal -> 1-based box), capped at ``BIG``."""
    total = 0
    for j in range(1, p.shape[0]):
        if p[j] != 0:
            dd = dist[j - 1, cells[p[j] - 1]]
            if dd < 0:
                return BIG
            total += dd
    return total


@step
def hungarian_kernel(cells, dist, u, v, p, way, minv, used):  # type: ignore[no-untyped-def]
    """Minimum-cost matching of boxes ``cells`` to goals; returns its cost (>= BIG: none)."""
    for j in range(p.shape[0]):
        p[j] = 0
        v[j] = 0
    for i in range(u.shape[0]):
        u[i] = 0
    for i in range(1, cells.shape[0] + 1):
        augment_kernel(i, cells, dist, u, v, p, way, minv, used)
    return assignment_cost_kernel(cells, dist, p)


@step
def child_bound_kernel(i, cells, dist, u, v, p, u2, v2, p2, way, minv, used):  # type: ignore[no-untyped-def]
    """The matching cost after box ``i`` (1-based) moved, from the parent's solution ``u, v, p``.

    Copies the parent's potentials and assignment, frees row ``i`` and runs one
    augmenting path: O(boxes * goals) instead of a full O(boxes^2 * goals) solve.
    With more goals than boxes it solves the child's matching afresh: the goal box ``i``
    leaves keeps its potential, and a path may then end there when another free goal is
    cheaper (the bound came out too high: 1 where 0 was the least).
    """
    if v.shape[0] > u.shape[0]:
        return hungarian_kernel(cells, dist, u2, v2, p2, way, minv, used)
    for j in range(u.shape[0]):
        u2[j] = u[j]
    for j in range(v.shape[0]):
        v2[j] = v[j]
        p2[j] = p[j]
        if p2[j] == i:
            p2[j] = 0
    augment_kernel(i, cells, dist, u2, v2, p2, way, minv, used)
    return assignment_cost_kernel(cells, dist, p2)


@step
def sorted_row_kernel(row, i, r):  # type: ignore[no-untyped-def]
    """Where row ``row`` (1-based) of a child goes once its rows are sorted: row ``i`` (the
    moved box) to ``r``, the rows between them one step towards ``i``'s old place."""
    if row == i:
        return r
    if i < row <= r:
        return row - 1
    if r <= row < i:
        return row + 1
    return row


@step
def keep_duals_kernel(slot, n, i, r, u2, v2, p2, cnode, cu, cv, cp):  # type: ignore[no-untyped-def]
    """Keep node ``n``'s matching (``u2``, ``v2``, ``p2``: its rows in the child's order, box ``i``
    moved, 1-based) in the cache's ``slot``, rows in the node's sorted order (``i`` at ``r``)."""
    cnode[slot] = n
    cu[slot, 0] = u2[0]
    for row in range(1, u2.shape[0]):
        cu[slot, sorted_row_kernel(row, i, r)] = u2[row]
    for j in range(v2.shape[0]):
        cv[slot, j] = v2[j]
        cp[slot, j] = 0 if p2[j] == 0 else sorted_row_kernel(p2[j], i, r)


@step
def load_duals_kernel(slot, cu, cv, cp, u, v, p):  # type: ignore[no-untyped-def]
    """The cached matching of the cache's ``slot`` into ``u``, ``v``, ``p``."""
    for row in range(u.shape[0]):
        u[row] = cu[slot, row]
    for j in range(v.shape[0]):
        v[j] = cv[slot, j]
        p[j] = cp[slot, j]
