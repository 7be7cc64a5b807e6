"""Macro moves: a lone box's push path (breadth first), the tunnel macro and the goal macro.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import step
from ..._padded_kernels import lone_box_region_kernel, lone_box_start_kernel
from .state import C_MACROS, MAX_MACRO_STEPS


@step
def goal_macro_kernel(  # type: ignore[no-untyped-def]
    floor,
    dead,
    boxat,
    off,
    garea,
    area,
    start,
    start_pl,
    target,
    vis,
    vstamp,
    qbox,
    qpl,
    qg,
    mark,
    queue,
    out,
    limit,
):
    """Fewest pushes that bring the box on ``start`` to ``target`` inside goal
    area ``area`` (anywhere when ``area`` < 0); -1 if none, or if none within ``limit`` states
    (when > 0).

    A breadth-first search of the lone box's pushes, the other boxes fixed
    (``boxat``; the moving box's own entry is ignored), the box kept on the
    area's cells (``garea == area``) and off ``dead`` cells, the player starting on
    ``start_pl``. A state is (box cell, direction of the last move); each asks which cells
    beside the box the player can reach (:func:`lone_box_region_kernel`). ``vstamp`` is a one-slot
    stamp counter for ``vis`` and ``mark``; ``out[0]`` receives the player's cell after the
    last move.
    """
    if start == target:
        out[0] = start_pl
        return 0
    saved, vs = lone_box_start_kernel(boxat, start, start_pl, vstamp, qbox, qpl, qg)
    head = 0
    tail = 1
    res = -1
    while head < tail and res < 0 and (limit <= 0 or head < limit):
        b = qbox[head]
        pl = qpl[head]
        gg = qg[head]
        head += 1
        ms = lone_box_region_kernel(floor, boxat, off, b, saved, pl, vstamp, mark, queue)
        for d in range(4):
            to = b + off[d]
            nxt = b
            if mark[b - off[d]] != ms or floor[to] == 0 or boxat[to] >= 0 or dead[to] != 0:
                continue
            if (area >= 0 and garea[to] != area) or vis[to * 4 + d] == vs:
                continue
            vis[to * 4 + d] = vs
            if to == target:
                out[0] = nxt
                res = gg + 1
                break
            qbox[tail] = to
            qpl[tail] = nxt
            qg[tail] = gg + 1
            tail += 1
    boxat[start] = saved
    return res


@step
def move_box_kernel(boxat, cells, i, frm, to):  # type: ignore[no-untyped-def]
    """Move box ``i`` from ``frm`` to ``to`` in ``boxat`` and ``cells``."""
    boxat[frm] = -1
    boxat[to] = i
    cells[i] = to


@step
def tunnel_kernel(floor, goalm, dead, off, boxat, cells, i, d, to, newpl):  # type: ignore[no-untyped-def]
    """Phase 3, the tunnel macro: a box pushed along a one-wide corridor, the player
    following in it, goes on to the corridor's end in one move. ``(to, player, extra
    pushes)`` after box ``i`` was pushed onto ``to`` in direction ``d``."""
    a = 2 if d < 2 else 0  # the two sides across the direction
    extra = 0
    while (
        goalm[to] == 0
        and floor[to + off[a]] == 0
        and floor[to + off[a + 1]] == 0
        and floor[newpl + off[a]] == 0
        and floor[newpl + off[a + 1]] == 0
    ):
        nxt = to + off[d]
        if floor[nxt] == 0 or boxat[nxt] >= 0 or dead[nxt] != 0:
            break
        move_box_kernel(boxat, cells, i, to, nxt)
        newpl = to
        to = nxt
        extra += 1
    return to, newpl, extra


@step
def packing_prefix_kernel(boxat, forder, lo, hi, i):  # type: ignore[no-untyped-def]
    """The next goal of a packing order ``forder[lo:hi]`` when the boxes on its goals, box
    ``i`` left out, fill exactly a prefix of it (-1 otherwise)."""
    m = 0
    for t in range(lo, hi):
        bt = boxat[forder[t]]
        if bt >= 0 and bt != i:
            m += 1
    if lo + m >= hi:
        return -1
    for t in range(lo, lo + m):
        bt = boxat[forder[t]]
        if bt < 0 or bt == i:
            return -1
    return forder[lo + m]


@step
def goal_step_kernel(board, sc, gs, ctr, i, to, newpl, steps):  # type: ignore[no-untyped-def]
    """Phase 3, the goal macro: box ``i`` entering a goal area whose goals are filled in its
    packing order so far goes straight on to the next goal.

    Returns ``(to, player, steps, macro)``: ``macro`` 1 when the box was carried on, else 0.
    """
    garea = board.garea
    ga = garea[to]
    target = packing_prefix_kernel(sc.boxat, board.forder, board.fstart[ga], board.fstart[ga + 1], i)
    if target >= 0 and target != to and steps < MAX_MACRO_STEPS:
        r = goal_macro_kernel(
            board.floor, board.dead, sc.boxat, board.off, garea, ga, to, newpl, target, gs.vis, gs.stamp, gs.qbox,
            gs.qpl, gs.qg, gs.mark, sc.queue, gs.out, 0,
        )  # fmt: skip
        if 0 < r < MAX_MACRO_STEPS:
            move_box_kernel(sc.boxat, sc.cells, i, to, target)
            ctr[C_MACROS] += 1
            return target, gs.out[0], steps + r, 1
    return to, newpl, steps, 0
