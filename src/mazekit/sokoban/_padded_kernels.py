"""Kernels over a padded, flattened level (a wall border around the grid, raveled, so that a
neighbour of cell ``u`` is ``u + off[d]`` and no loop checks bounds): floods of the player's
region, and lone-box push and pull distances. The solver and the pair tables build on them.
"""

from __future__ import annotations

from .._jit import step

#: The directions of ``off`` (up, down, left, right) in clockwise order: up, right, down, left.
RING = (0, 3, 1, 2)


@step
def flood_min_kernel(floor, boxat, off, start, stamp, mark, queue):  # type: ignore[no-untyped-def]
    """Flood the player's region from ``start``; mark it with ``stamp``; return its minimum cell."""
    mark[start] = stamp
    queue[0] = start
    head = 0
    tail = 1
    low = start
    while head < tail:
        u = queue[head]
        head += 1
        for d in range(4):
            w = u + off[d]
            if floor[w] != 0 and boxat[w] < 0 and mark[w] != stamp:
                mark[w] = stamp
                queue[tail] = w
                tail += 1
                if w < low:
                    low = w
    return low


@step
def child_min_kernel(floor, boxat, off, mark, stamp, low, c, to):  # type: ignore[no-untyped-def]
    """The least cell of the player's region after one box stepped from ``c`` to its neighbour
    ``to`` (``boxat`` already moved), found without a flood, or -1 when a look round ``c`` and
    ``to`` cannot tell.

    The region before is the cells with ``mark == stamp``, least cell ``low`` (``c`` was not in
    it). When ``to`` was in it, the free cells beside ``c`` are in it (``c`` joins no other
    region) and the free cells round ``to`` (the ring of eight) hold the free cells beside
    ``to``, ``c`` among them, in one unbroken run (no region splits off, and ``c`` is joined to
    the rest: the region had a free cell beside ``to`` besides ``c``, as ``low != to``), the
    region after is the one before less ``to`` and with ``c``, and there are as many regions as
    before. ``off`` is up, down, left, right.
    """
    if low == to or mark[to] != stamp:  # (a push can take a box into another region)
        return -1
    for d in range(4):
        y = c + off[d]
        if y != to and floor[y] != 0 and boxat[y] < 0 and mark[y] != stamp:
            return -1
    # the ring round to, clockwise from up: up, up-right, right, ..., left, up-left
    bits = 0
    for j in range(8):
        y = _ring_cell(off, to, j)
        if floor[y] != 0 and boxat[y] < 0 and (mark[y] == stamp or y == c):
            bits |= 1 << j
    # runs of open cells round the ring that hold a side cell (an even place): at most one
    # (counted from a closed place; an all-open ring has no run that closes, so none)
    start = 0
    while start < 8 and bits >> start & 1:
        start += 1
    runs = 0
    side = False
    for t in range(1, 9):
        j = (start + t) & 7
        if bits >> j & 1:
            if j & 1 == 0:
                side = True
        else:
            if side:
                runs += 1
            side = False
    if runs > 1:
        return -1
    return low if low < c else c


@step
def more_regions_kernel(floor, boxat, off, mark, s, queue, pmark, pstamp, most):  # type: ignore[no-untyped-def]
    """The regions of free floor not flooded yet (neither ``mark == s`` nor ``pmark == pstamp``):
    each is flooded (``mark = s``) and counted, up to ``most`` (the count stops there)."""
    n = 0
    for x0 in range(floor.shape[0]):
        if n >= most:
            break
        if floor[x0] != 0 and boxat[x0] < 0 and mark[x0] != s and pmark[x0] != pstamp:
            n += 1
            flood_min_kernel(floor, boxat, off, x0, s, mark, queue)
    return n


@step
def lone_box_start_kernel(boxat, start, player, vstamp, qbox, qpl, qg):  # type: ignore[no-untyped-def]
    """Begin a breadth-first search of one box's pushes (the other boxes fixed): take the box
    off ``start`` (its entry is returned, to put back), queue the first state (the box on
    ``start``, the player on ``player``, ``qg`` 0) and take a new stamp for the visited
    states; ``(saved entry, stamp)``."""
    saved = boxat[start]
    boxat[start] = -1
    vstamp[0] += 1
    qbox[0] = start
    qpl[0] = player
    qg[0] = 0
    return saved, vstamp[0]


@step
def lone_box_region_kernel(floor, boxat, off, b, saved, player, vstamp, mark, queue):  # type: ignore[no-untyped-def]
    """Stamp in ``mark`` the free cells beside the lone box (entry ``saved``) on ``b`` that the
    player on ``player`` can reach (what a push of the box needs; other cells may be stamped
    too, not all of the region). The box is off the board again afterwards. Returns the stamp.

    The player stands beside the box after a push: the free cells round ``b`` (the ring of eight)
    in one unbroken run with the player's are reached along it; each other free cell beside
    ``b`` is reached when a flood from it meets one of those, and not when it ends first (a
    small pocket ends soon; the worst case floods the whole region from the far side). A player
    elsewhere gets a flood of the whole region.
    """
    vstamp[0] += 1
    stamp = vstamp[0]
    boxat[b] = saved
    at = -1  # the player's place on the ring (even: beside b), clockwise from up
    for j in range(0, 8, 2):
        if b + off[RING[j >> 1]] == player:
            at = j
    if at < 0:
        flood_min_kernel(floor, boxat, off, player, stamp, mark, queue)
        boxat[b] = -1
        return stamp
    mark[player] = stamp
    for way in range(2):  # along the ring both ways from the player while the cells are free
        for t in range(1, 8):
            j = (at + t) & 7 if way == 0 else (at - t) & 7
            y = _ring_cell(off, b, j)
            if floor[y] == 0 or boxat[y] >= 0:
                break
            mark[y] = stamp
    for d in range(4):
        y = b + off[d]
        if (
            floor[y] != 0
            and boxat[y] < 0
            and mark[y] != stamp
            and _meets(floor, boxat, off, y, stamp, vstamp, mark, queue)
        ):
            mark[y] = stamp
    boxat[b] = -1
    return stamp


@step
def _ring_cell(off, b, j):  # type: ignore[no-untyped-def]
    """The cell at place ``j`` of the ring round ``b`` (clockwise from up; even places beside it)."""
    y = b + off[RING[j >> 1]]
    if j & 1:
        y += off[RING[((j >> 1) + 1) & 3]]
    return y


@step
def _meets(floor, boxat, off, start, stamp, vstamp, mark, queue):  # type: ignore[no-untyped-def]
    """Whether a flood of the free cells from ``start`` meets a cell with ``mark == stamp`` (it
    stamps what it floods with a stamp of its own and stops when it meets one)."""
    vstamp[0] += 1
    own = vstamp[0]
    mark[start] = own
    queue[0] = start
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        for d in range(4):
            w = u + off[d]
            if floor[w] != 0 and boxat[w] < 0:
                if mark[w] == stamp:
                    return True
                if mark[w] != own:
                    mark[w] = own
                    queue[tail] = w
                    tail += 1
    return False


@step
def pull_distances_kernel(floor, off, goals, dist, queue):  # type: ignore[no-untyped-def]
    """Fill ``dist[k]`` with push counts from every cell to goal ``goals[k]``.

    A breadth-first search of *pulls* from the goal: a box on ``x`` can have
    come from ``y = x - off[d]`` when ``y`` and ``y - off[d]`` (the player's
    cell) are floor. Other boxes are ignored, so the count is a lower bound.
    """
    for k in range(goals.shape[0]):
        g = goals[k]
        dist[k, g] = 0
        queue[0] = g
        head = 0
        tail = 1
        while head < tail:
            x = queue[head]
            head += 1
            for d in range(4):
                y = x - off[d]
                if floor[y] != 0 and floor[y - off[d]] != 0 and dist[k, y] < 0:
                    dist[k, y] = dist[k, x] + 1
                    queue[tail] = y
                    tail += 1
    return 0


@step
def push_distances_kernel(floor, off, sources, dist, queue):  # type: ignore[no-untyped-def]
    """Fill ``dist[k]`` with push counts from source ``sources[k]`` to every cell.

    The backward search's distances: a box on ``x`` can be *pulled* back to
    ``sources[k]`` in ``dist[k, x]`` pulls. A breadth-first search of pushes:
    from ``y`` to ``y + off[d]`` when ``y - off[d]`` and ``y + off[d]`` are floor.
    """
    for k in range(sources.shape[0]):
        s0 = sources[k]
        dist[k, s0] = 0
        queue[0] = s0
        head = 0
        tail = 1
        while head < tail:
            y = queue[head]
            head += 1
            for d in range(4):
                x = y + off[d]
                if floor[x] != 0 and floor[y - off[d]] != 0 and dist[k, x] < 0:
                    dist[k, x] = dist[k, y] + 1
                    queue[tail] = x
                    tail += 1
    return 0
