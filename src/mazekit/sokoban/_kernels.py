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


#: Bits of one cell's compact code in a vicinity key (so at most 4095 floor cells).
VICINITY_BITS = 12
VICINITY_MASK = (1 << VICINITY_BITS) - 1


@njit
def _vicinity_slot(key, tmask):  # type: ignore[no-untyped-def]
    # no product overflows (the same value compiled and in plain Python)
    x = key ^ (key >> 24) ^ (key >> 48)
    x = ((x & 0xFFFFFF) * 0x9E3779B1) ^ (x >> 24)
    return (x ^ (x >> 17)) & tmask


@njit
def vicinity_kernel(nbr, blocked, code, cells, k, start, goal, any_player, keys, parent, table):  # type: ignore[no-untyped-def]
    """Fewest moves from position ``start`` to ``goal`` when only ``k`` boxes (1 to 4) move.

    A position is a key: the compact codes (``code[cell]``, ``cells[code]`` back) of the
    player and of the ``k`` boxes in increasing order, :data:`VICINITY_BITS` bits each, the
    player lowest. ``blocked`` (uint8) marks the cells no one may enter (the other boxes);
    with ``any_player`` the goal's player bits do not count. Breadth-first over moves:
    ``keys`` and ``parent`` receive the tree (``keys[0] = start``), ``table`` (int32, a
    power of two long, all -1) is its open-addressing index; the capacity is ``len(keys)``.
    Returns the goal's node (the path back through ``parent``), -1 when the goal cannot be
    reached, -2 when the capacity ran out first.
    """
    cap = keys.shape[0]
    tmask = table.shape[0] - 1
    boxes_goal = goal >> VICINITY_BITS
    keys[0] = start
    parent[0] = -1
    table[_vicinity_slot(start, tmask)] = 0
    if start == goal or (any_player and (start >> VICINITY_BITS) == boxes_goal):
        return 0
    box = [0, 0, 0, 0]
    nxt = [0, 0, 0, 0]
    head = 0
    tail = 1
    while head < tail:
        key = keys[head]
        p = cells[key & VICINITY_MASK]
        for j in range(k):
            box[j] = cells[(key >> (VICINITY_BITS * (j + 1))) & VICINITY_MASK]
        for d in range(4):
            q = nbr[p, d]
            if q < 0 or blocked[q]:
                continue
            hit = -1
            for j in range(k):
                if box[j] == q:
                    hit = j
            boxes_key = key >> VICINITY_BITS
            if hit >= 0:
                r = nbr[q, d]
                if r < 0 or blocked[r]:
                    continue
                free = True
                for j in range(k):
                    if box[j] == r:
                        free = False
                if not free:
                    continue
                # the boxes' codes with the pushed one moved, kept in increasing order
                for j in range(k):
                    nxt[j] = code[box[j]] if j != hit else code[r]
                for a in range(1, k):
                    v = nxt[a]
                    b = a - 1
                    while b >= 0 and nxt[b] > v:
                        nxt[b + 1] = nxt[b]
                        b -= 1
                    nxt[b + 1] = v
                boxes_key = 0
                for j in range(k - 1, -1, -1):
                    boxes_key = (boxes_key << VICINITY_BITS) | nxt[j]
            new = (boxes_key << VICINITY_BITS) | code[q]
            s = _vicinity_slot(new, tmask)
            seen = False
            while table[s] >= 0:
                if keys[table[s]] == new:
                    seen = True
                    break
                s = (s + 1) & tmask
            if seen:
                continue
            if tail >= cap:
                return -2
            keys[tail] = new
            parent[tail] = head
            table[s] = tail
            if new == goal or (any_player and boxes_key == boxes_goal):
                return tail
            tail += 1
        head += 1
    return -1
