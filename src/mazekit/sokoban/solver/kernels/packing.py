"""The goal areas' packing orders (see :func:`~mazekit.sokoban.solver.prepare.goal_areas`): the
fewest pulls that take one box out of a filled goal area.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ...._jit import njit


def take_out_scratch(ncells: int) -> tuple[NDArray[np.int64], ...]:
    """The work arrays of :func:`take_out_kernel` (``marks, stack, queue, seen, stamps``) for a
    level of ``ncells`` padded cells."""
    return (
        np.zeros((2, ncells), dtype=np.int64),
        np.empty(ncells, dtype=np.int64),
        np.empty((3, 4 * ncells), dtype=np.int64),
        np.empty(4 * ncells, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


@njit
def flood_kernel(floor, off, occ, box, start, mark, stamp, stack):  # type: ignore[no-untyped-def]
    """Mark with ``stamp`` (in ``mark``) the floor cells the player reaches from ``start`` with
    boxes where ``occ`` is not 0 and on ``box`` (-1: none); return the least of them.
    ``stack``: a work array of a cell each."""
    mark[start] = stamp
    stack[0] = start
    top = 1
    low = start
    while top > 0:
        top -= 1
        x = stack[top]
        for d in range(4):
            y = x + off[d]
            if floor[y] != 0 and occ[y] == 0 and y != box and mark[y] != stamp:
                mark[y] = stamp
                stack[top] = y
                top += 1
                if y < low:
                    low = y
    return low


@njit
def take_out_kernel(floor, off, occ, box, area, way_in, marks, stack, queue, seen, stamps):  # type: ignore[no-untyped-def]
    """The fewest pulls that take the box on ``box`` out of the goal area (``area`` not 0 on its
    cells) to a cell where ``way_in`` is not 0 (a cell boxes come in from), among the other boxes
    (``occ`` not 0), the player anywhere free at first; -1 if none.

    A breadth-first search over the box's cell and the player's region (named by its least
    cell), the other boxes never moving. Work arrays: ``marks`` int64 ``(2, cells)``,
    ``stack`` int64 ``(cells,)``, ``queue`` int64 ``(3, 4 * cells)`` (box cell, player cell,
    pulls), ``seen`` int64 ``(4 * cells,)`` (the player regions met beside each box cell);
    ``stamps`` int64 ``(1,)``, the last mark used, kept between calls so that the marks never
    need clearing.
    """
    region, other = marks[0], marks[1]
    for i in range(seen.shape[0]):
        seen[i] = -1
    head, tail = 0, 0
    for d in range(4):
        x = box + off[d]
        if floor[x] != 0 and occ[x] == 0:
            stamps[0] += 1
            p = flood_kernel(floor, off, occ, box, x, other, stamps[0], stack)
            if _first_visit(seen, box, p):
                queue[0, tail], queue[1, tail], queue[2, tail] = box, p, 0
                tail += 1
    while head < tail:
        b, pl, n = queue[0, head], queue[1, head], queue[2, head]
        head += 1
        stamps[0] += 1
        here = stamps[0]
        flood_kernel(floor, off, occ, b, pl, region, here, stack)
        for d in range(4):
            to = b + off[d]
            newpl = to + off[d]
            if region[to] != here or region[newpl] != here:
                continue
            if area[to] == 0 and way_in[to] != 0:
                return n + 1
            stamps[0] += 1
            p = flood_kernel(floor, off, occ, to, newpl, other, stamps[0], stack)
            if _first_visit(seen, to, p):
                queue[0, tail], queue[1, tail], queue[2, tail] = to, p, n + 1
                tail += 1
    return -1


@njit
def _first_visit(seen, b, p):  # type: ignore[no-untyped-def]
    """Record the player's region ``p`` beside a box on ``b`` in ``seen``; False if it was already
    there. A box has at most four regions around it."""
    for k in range(4):
        v = seen[4 * b + k]
        if v == p:
            return False
        if v < 0:
            seen[4 * b + k] = p
            return True
    return False
