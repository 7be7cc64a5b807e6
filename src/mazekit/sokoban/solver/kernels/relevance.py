"""Relevance cuts (after Rolling Stone): the influence distance between cells, and whether a
move switches to a distant part of the level too often.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import step
from .state import PUSH_MOVE_MASK
from .store import moved_box_kernel


@step
def influence_kernel(floor, off, cost, out, dist, queue, inq):  # type: ignore[no-untyped-def]
    """Fill ``out[x, y]`` with the influence distance from floor cell ``x`` to floor cell ``y``:
    the cheapest walk over the floor where entering a cell costs ``cost`` of it, at most 255
    (``out`` starts at 255). ``dist``, ``queue`` and ``inq`` are work arrays of a cell each
    (a first-in first-out relaxation: the costs are 0, 1 or 2 and the levels small)."""
    ncells = floor.shape[0]
    for x in range(ncells):
        if floor[x] == 0:
            continue
        for y in range(ncells):
            dist[y] = 255
            inq[y] = 0
        dist[x] = 0
        head, size = 0, 1
        queue[0] = x
        inq[x] = 1
        while size > 0:
            u = queue[head]
            head = (head + 1) % ncells
            size -= 1
            inq[u] = 0
            for d in range(4):
                y = u + off[d]
                nd = dist[u] + cost[y]
                if floor[y] != 0 and nd < dist[y]:
                    dist[y] = nd
                    if inq[y] == 0:
                        inq[y] = 1
                        queue[(head + size) % ncells] = y
                        size += 1
        for y in range(ncells):
            out[x, y] = dist[y]


@step
def relevance_kernel(pboxes, parent, push, influence, k, window, reach):  # type: ignore[no-untyped-def]
    """Node ``k``'s recent pushes as the relevance cuts see them: the cell where its last push
    left its box (-1 at a root) and how many of the ``window - 1`` pushes on its way up to it
    were distant (the box pushed was further than ``reach`` in ``influence`` from the cell
    where the push before it left its box; a push with no push before it is not distant)."""
    last = -1
    distant = 0
    origin = -1  # where the push looked at one step before (nearer k) took its box from
    j = k
    for t in range(window):
        up = parent[j]
        if up < 0:
            break
        dest = moved_box_kernel(pboxes, j, up)
        if t == 0:
            last = dest
        elif dest >= 0 and origin >= 0 and influence[dest, origin] > reach:
            distant += 1
        origin = (push[j] & PUSH_MOVE_MASK) >> 2
        j = up
    return last, distant
