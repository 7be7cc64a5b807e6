"""The compiled loops of mazekit.sokoban.

Every kernel works on the level's *neighbour table* ``nbr`` (int32, shape
``(cells, 4)``): ``nbr[u, d]`` is the cell one step from ``u`` in direction ``d``
(0 up, 1 down, 2 left, 3 right), or -1 when that step leaves the map or enters
a wall. No loop checks bounds. Cells are flat indices ``r * width + c``.

These functions are plain Python; :mod:`mazekit._jit` compiles them for large
inputs and the tests compare both versions.
"""

from __future__ import annotations

from .._jit import njit

#: The opposite of each direction (up <-> down, left <-> right).
OPPOSITE = (1, 0, 3, 2)


@njit
def reach_kernel(nbr, blocked, start, seen, queue):  # type: ignore[no-untyped-def]
    """Flood the cells the player can walk to from ``start`` without pushing.

    ``blocked`` (uint8) marks cells the player may not enter (the boxes);
    ``seen`` (uint8, all 0 on entry) receives 1 for every reached cell.
    Returns the number of reached cells (they are ``queue[:n]``, in BFS order).
    """
    seen[start] = 1
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        for d in range(4):
            v = nbr[u, d]
            if v >= 0 and seen[v] == 0 and blocked[v] == 0:
                seen[v] = 1
                queue[tail] = v
                tail += 1
    return tail


@njit
def walk_kernel(nbr, blocked, start, goal, pdir, queue):  # type: ignore[no-untyped-def]
    """BFS from ``start`` to ``goal`` around ``blocked`` cells, neighbours in UDLR order.

    ``pdir`` (int8, all -1 on entry) receives for each reached cell the direction
    of the step that reached it. Returns True when ``goal`` was reached.
    """
    if start == goal:
        return True
    pdir[start] = 4
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        for d in range(4):
            v = nbr[u, d]
            if v >= 0 and pdir[v] < 0 and blocked[v] == 0:
                pdir[v] = d
                if v == goal:
                    return True
                queue[tail] = v
                tail += 1
    return False


@njit
def pull_kernel(nbr, floor, sources, live, queue):  # type: ignore[no-untyped-def]
    """Cells from which a lone box can be pushed onto one of ``sources``.

    Works backwards: a box at ``b`` can have come from ``x = nbr[b, e]`` (pushed
    the other way) when ``x`` and the player's cell behind it ``nbr[x, e]`` are
    both on the ``floor`` (uint8). ``live`` (uint8, all 0 on entry) receives 1
    for every such cell, the sources included. Returns the number of live cells.
    """
    tail = 0
    for i in range(sources.shape[0]):
        s = sources[i]
        if live[s] == 0:
            live[s] = 1
            queue[tail] = s
            tail += 1
    head = 0
    while head < tail:
        b = queue[head]
        head += 1
        for e in range(4):
            x = nbr[b, e]
            if x < 0 or live[x] != 0 or floor[x] == 0:
                continue
            p = nbr[x, e]
            if p < 0 or floor[p] == 0:
                continue
            live[x] = 1
            queue[tail] = x
            tail += 1
    return tail
