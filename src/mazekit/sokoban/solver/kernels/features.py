"""The feature cells of the feature-space search (after FESS): packing, out of plan,
obstructions (blocked tunnels between rooms) and connectivity, and the novelty of a position.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import step
from ..._padded_kernels import more_regions_kernel
from .state import NCONN, NHOT, NOOP


@step
def prefix_end_kernel(boxat, forder, lo, hi):  # type: ignore[no-untyped-def]
    """The first position in ``forder[lo:hi]`` (a packing order) whose goal holds no box; ``hi`` if all do."""
    t = lo
    while t < hi and boxat[forder[t]] >= 0:
        t += 1
    return t


@step
def packed_kernel(boxat, goals, garea, forder, fstart):  # type: ignore[no-untyped-def]
    """The packing feature: boxes on goals outside goal areas plus, in each goal
    area, the length of the filled prefix of its packing order."""
    n = 0
    for q in range(goals.shape[0]):
        if garea[goals[q]] < 0 and boxat[goals[q]] >= 0:
            n += 1
    for a in range(fstart.shape[0] - 1):
        n += prefix_end_kernel(boxat, forder, fstart[a], fstart[a + 1]) - fstart[a]
    return n


@step
def out_of_plan_kernel(boxat, forder, fstart):  # type: ignore[no-untyped-def]
    """The out-of-plan feature: boxes on goal-area goals past the filled prefix of the
    area's packing order (each must leave again before the area can be finished)."""
    n = 0
    for a in range(fstart.shape[0] - 1):
        for q in range(prefix_end_kernel(boxat, forder, fstart[a], fstart[a + 1]) + 1, fstart[a + 1]):
            if boxat[forder[q]] >= 0:
                n += 1
    return n


@step
def packing_of(cell):  # type: ignore[no-untyped-def]
    """The packing digit of feature cell ``cell`` (see :func:`feature_cell_kernel`)."""
    return cell // (NOOP * NHOT * NCONN)


@step
def improves_kernel(before, after):  # type: ignore[no-untyped-def]
    """Whether feature cell ``after`` (see :func:`feature_cell_kernel`) improves on ``before`` in
    some feature: more packed, fewer out of plan, fewer hotspots or fewer regions."""
    return (
        packing_of(after) > packing_of(before)
        or (after // (NHOT * NCONN)) % NOOP < (before // (NHOT * NCONN)) % NOOP
        or (after // NCONN) % NHOT < (before // NCONN) % NHOT
        or after % NCONN < before % NCONN
    )


@step
def blocked_tunnels_kernel(tunnel, goalm, cells):  # type: ignore[no-untyped-def]
    """Festival's room connectivity: how many tunnels between rooms (``tunnel[x]``, the label of
    a one-wide passage joining two rooms, -1 elsewhere; see ``search.tunnels``) hold a box off
    a goal."""
    n = 0
    for j in range(cells.shape[0]):
        t = tunnel[cells[j]]
        if t < 0 or goalm[cells[j]] != 0:
            continue
        first = True
        for i in range(j):  # counted at its first box (a few boxes stand in tunnels)
            if tunnel[cells[i]] == t and goalm[cells[i]] == 0:
                first = False
                break
        if first:
            n += 1
    return n


@step
def obstruction_kernel(s, tunnel, goalm, cells):  # type: ignore[no-untyped-def]
    """The fourth axis of the feature cells: the tunnels blocked (``s.room_feature``), or 0 when off."""
    if s.room_feature != 0:
        return blocked_tunnels_kernel(tunnel, goalm, cells)
    return 0


@step
def feature_cell_kernel(  # type: ignore[no-untyped-def]
    floor, boxat, off, goals, garea, forder, fstart, mark, stamp, queue, nhot, pmark, pstamp, conn
):
    """The feature-space cell of the position in ``boxat``: packing, out of plan (0 or 1 and more),
    hotspots or blocked tunnels (``nhot``, see :func:`obstruction_kernel`: 0, 1, 2 and more; 0
    when both features are off) and connectivity (1, 2, 3, 4 and more regions; the player's
    region is the free cells with ``pmark == pstamp``), as
    ``((packing * NOOP + out) * NHOT + hot) * NCONN + conn``. A ``conn`` of 0 or more is the
    connectivity digit, known (the regions are not counted again)."""
    stamp[0] += 1
    r = conn + 1
    if conn < 0:  # (regions past NCONN are not counted: the cell is the same)
        r = 1 + more_regions_kernel(floor, boxat, off, mark, stamp[0], queue, pmark, pstamp, NCONN - 1)
    ooo = out_of_plan_kernel(boxat, forder, fstart)
    packing = packed_kernel(boxat, goals, garea, forder, fstart)
    return ((packing * NOOP + min(ooo, NOOP - 1)) * NHOT + min(nhot, NHOT - 1)) * NCONN + min(r, NCONN) - 1


@step
def novelty_kernel(nov, pack, cells, i, width):  # type: ignore[no-untyped-def]
    """Whether the position (boxes on ``cells``, box ``i`` just moved) is new at its packing
    ``pack``: box ``i`` on a cell no position of that packing had a box on (``width`` 1), or
    with ``width`` 2 box ``i`` and another on two cells no such position had boxes on
    together; marks what it saw. ``nov[pack, x, 0]`` is the flag of cell ``x`` (width 1),
    ``nov[pack, x, y]`` that of cells ``x < y`` (width 2)."""
    novel = False
    if width >= 2:
        for j in range(cells.shape[0]):
            x, y = min(cells[i], cells[j]), max(cells[i], cells[j])
            if j != i and nov[pack, x, y] == 0:
                nov[pack, x, y] = 1
                novel = True
    elif nov[pack, cells[i], 0] == 0:
        nov[pack, cells[i], 0] = 1
        novel = True
    return novel
