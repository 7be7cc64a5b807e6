"""The packing advisor (after FESS): for each goal area with an unfinished packing order, the
box nearest to its next goal, pushed all the way there alone.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import step
from .features import prefix_end_kernel
from .macros import goal_macro_kernel
from .state import BIG, MAX_MACRO_STEPS


@step
def pack_advice_kernel(  # type: ignore[no-untyped-def]
    boxat,
    cells,
    goals,
    garea,
    forder,
    fstart,
    dist,
    pend,
    pa_box,
    pa_tgt,
):
    """The packing advisor's choices: for each goal area ``a`` whose packing order is unfinished,
    ``pa_tgt[a]`` its next goal and ``pa_box[a]`` the box (index into ``cells``) nearest to that
    goal by ``dist``, boxes on a filled prefix left out (-1 when none can reach it, or when the
    area is finished; ``pend`` is scratch, one slot per area). Returns how many areas got a box."""
    nareas = fstart.shape[0] - 1
    for a in range(nareas):
        pend[a] = prefix_end_kernel(boxat, forder, fstart[a], fstart[a + 1])
    n = 0
    for a in range(nareas):
        pa_box[a] = -1
        if pend[a] == fstart[a + 1]:
            continue
        tgt = forder[pend[a]]
        q = 0
        while goals[q] != tgt:
            q += 1
        pa_box[a] = pack_next_kernel(cells, garea, forder, fstart, pend, dist, q, 0, -1)[0]
        pa_tgt[a] = tgt
        if pa_box[a] >= 0:
            n += 1
    return n


@step
def pack_next_kernel(cells, garea, forder, fstart, pend, dist, q, after_d, after_j):  # type: ignore[no-untyped-def]
    """The box after box ``after_j`` at distance ``after_d`` from goal ``q`` in the packing
    advisor's order (by ``dist``, then index; boxes on a filled prefix, at distance 0 or with no
    way there left out): ``(box, distance)``, box -1 when there is none. With ``after_d`` 0 it is
    the nearest box."""
    best, bestd = -1, BIG
    for j in range(cells.shape[0]):
        cj = cells[j]
        dd = dist[q, cj]
        # (boxes come in index order, so a tie with the best so far keeps the best)
        if dd <= 0 or dd >= bestd or dd < after_d or (dd == after_d and j <= after_j):
            continue
        ga = garea[cj]
        on_prefix = False
        if ga >= 0:
            for t in range(fstart[ga], pend[ga]):
                if forder[t] == cj:
                    on_prefix = True
        if not on_prefix:
            best, bestd = j, dd
    return best, bestd


@step
def pack_retry_kernel(board, sc, gs, bound, tries, player):  # type: ignore[no-untyped-def]
    """The packing advisor's choices checked: when an area's box cannot reach its goal alone (a
    lone-box search of at most ``bound`` states), the next nearest box is tried, up to ``tries``
    boxes an area; an area whose tries all fail gets no box. Returns how many areas have one.

    The move found for an area's box (the player's cell and the moves, ``sc.pa_move[a]``) is kept
    for phase 3, which then need not search again."""
    n = 0
    for a in range(sc.pa_box.shape[0]):
        j = sc.pa_box[a]
        if j < 0:
            continue
        tgt = sc.pa_tgt[a]
        q = 0
        while board.goals[q] != tgt:
            q += 1
        dd = board.dist[q, sc.cells[j]]
        for t in range(tries):
            _, pl, steps = advisor_step_kernel(board, sc, gs, bound, player, sc.cells[j], tgt)
            if steps > 0:
                sc.pa_move[a, 0] = pl
                sc.pa_move[a, 1] = steps
                break
            j, dd = pack_next_kernel(sc.cells, board.garea, board.forder, board.fstart, sc.pa_end, board.dist, q, dd, j)
            if j < 0 or t == tries - 1:
                j = -1
                break
        sc.pa_box[a] = j
        if j >= 0:
            n += 1
    return n


@step
def advisor_step_kernel(board, sc, gs, bound, player, c, tgt):  # type: ignore[no-untyped-def]
    """The advisor's move: the box on ``c`` goes all the way to the goal ``tgt`` the advisor chose
    for it (:func:`pack_advice_kernel`) when a lone-box search of at most ``bound`` (box cell,
    side) states finds the way: ``(cell, player, moves)``, moves 0 otherwise."""
    steps = goal_macro_kernel(
        board.floor, board.dead, sc.boxat, board.off, board.garea, -1, c, player, tgt, gs.vis, gs.stamp, gs.qbox,
        gs.qpl, gs.qg, gs.mark, sc.queue, gs.out, bound,
    )  # fmt: skip
    if steps <= 0 or steps >= MAX_MACRO_STEPS:
        return c, c, 0
    return tgt, gs.out[0], steps
