"""The search loop: open the roots, then expand nodes, a slice of at most ``budget`` at a time.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import njit
from ..._padded_kernels import child_min_kernel, flood_min_kernel
from ..._pair_kernels import pair_dead_kernel
from .advisors import advisor_step_kernel, pack_advice_kernel, pack_retry_kernel
from .bound import child_bound_kernel, hungarian_kernel, keep_duals_kernel, load_duals_kernel
from .corrals import corral_deadlock_kernel, pi_corral_kernel
from .features import feature_cell_kernel, novelty_kernel, obstruction_kernel, packing_of
from .freeze import blocked_kernel, frozen_after_kernel
from .macros import goal_step_kernel, tunnel_kernel
from .relevance import relevance_kernel
from .roots import roots_kernel
from .state import (
    BIG,
    C_CORRAL,
    C_CUTS,
    C_DUALS,
    C_EXPANDED,
    C_INIT,
    C_LAB,
    C_MACROS,
    C_NODES,
    C_PAIRS,
    C_PRUNED,
    C_STAMP,
    EXHAUSTED,
    H_MASK,
    KEY_SHIFT,
    MEMORY,
    NCONN,
    RUNNING,
    SOLVED,
    encode_push,
)
from .store import (
    insert_kernel,
    is_goal_kernel,
    lookup_kernel,
    moved_box_kernel,
    put_back_kernel,
    reopen_kernel,
    solved_kernel,
    sort_child_kernel,
    take_kernel,
)


@njit
def search_kernel(board, pool, fr, other, ctr, s, budget, sc, asg, gs, cs):  # type: ignore[no-untyped-def]
    """Best-first search of pushes (or pulls); see the module notes. Returns a status code.

    Runs at most ``budget`` expansions. ``s`` (:class:`Settings`): with ``optimal``
    A* on ``g + h`` (h the minimum-cost matching, admissible and consistent), the
    goal tested when a node is taken, so the solution has the fewest pushes;
    otherwise the key is ``weight * h + g`` and the goal is tested when a node is
    generated. ``backward``: the search *pulls* boxes from the goals towards the
    start, and a goal also needs the player's region to be ``goal_player``'s.
    ``fess``: the feature-space search (see :func:`take_kernel`), with
    ``move_weight`` and ``pack_advisor`` (see :func:`insert_kernel` and
    :func:`advisor_step_kernel`). Every new state is looked up in the other
    direction's pool ``other`` (a table of size 1 holding 0 is empty): a hit ends
    the search with ``ctr[C_MEET]`` the other search's node. ``cs`` is the
    corral-deadlock test's scratch (see :func:`corral_deadlock_kernel`).
    """
    if ctr[C_INIT] == 0:
        ctr[C_INIT] = 1
        if roots_kernel(board, pool, fr, other, ctr, s, sc, asg, gs) == SOLVED:
            return SOLVED
    return expand_kernel(board, pool, fr, other, ctr, s, budget, sc, asg, gs, cs)


@njit
def expand_kernel(board, pool, fr, other, ctr, s, budget, sc, asg, gs, cs):  # type: ignore[no-untyped-def]
    """One slice of :func:`search_kernel`: at most ``budget`` times, take a node, load it, find
    what steers its children (the parent's feature cell, the corral restriction, the packing
    advisor's picks), then for each box's moves place the child, prune it and store it; a
    status code. The steps are compiled inline: one loop, as fast as written out."""
    nb = sc.cells.shape[0]
    for _ in range(budget):
        top, k = take_kernel(fr, ctr, s.fess)
        if k < 0:
            return EXHAUSTED
        if s.optimal != 0:
            h = top & H_MASK
            if (top >> KEY_SHIFT) - h != pool.g[k]:
                continue  # stale entry: a shorter way to this node was found
            if is_goal_kernel(s, h, pool.player[k]):
                return solved_kernel(ctr, k, -1)
        ctr[C_EXPANDED] += 1
        stamp = load_node(board, pool, ctr, sc, asg, k)
        ctx = node_context(board, pool, s, sc, gs, k, stamp)
        restricted = corral_restriction(board, ctr, s, sc, stamp)
        advice, checked = advise(board, pool, s, sc, gs, k, restricted)
        status = RUNNING
        for i in range(nb):
            for d in range(5 if advice > 0 else 4):
                status = expand_move(board, pool, fr, other, ctr, s, sc, asg, gs, cs, k, stamp, ctx, restricted,
                                     checked, i, d)  # fmt: skip
                if status != RUNNING:
                    break
            if status != RUNNING:
                break
        for j in range(nb):
            sc.boxat[sc.cells[j]] = -1
        if status == MEMORY:
            put_back_kernel(fr, ctr, s.fess, top, k)
            return MEMORY
        if status == SOLVED:
            return SOLVED
    return RUNNING


@njit(inline="always")
def load_node(board, pool, ctr, sc, asg, k):  # type: ignore[no-untyped-def]
    """Put node ``k``'s boxes on the board (``sc.cells``, ``sc.boxat``), flood the player's region
    (marked with the stamp returned) and load or solve its matching."""
    cells, boxat = sc.cells, sc.boxat
    for j in range(cells.shape[0]):
        cells[j] = pool.boxes[k, j]
        boxat[cells[j]] = j
    ctr[C_STAMP] += 1
    stamp = ctr[C_STAMP]
    flood_min_kernel(board.floor, boxat, board.off, pool.player[k], stamp, sc.mark, sc.queue)
    kslot = k & (asg.cnode.shape[0] - 1)
    if asg.cnode[kslot] == k:  # its matching was kept when it was stored
        load_duals_kernel(kslot, asg.cu, asg.cv, asg.cp, asg.u, asg.v, asg.p)
        ctr[C_DUALS] += 1
    else:
        hungarian_kernel(cells, board.dist, asg.u, asg.v, asg.p, asg.way, asg.minv, asg.used)
    return stamp


@njit(inline="always")
def node_context(board, pool, s, sc, gs, k, stamp):  # type: ignore[no-untyped-def]
    """What node ``k``'s children are scored and cut by: ``(pcell, pconn, last, lastd, rlast,
    rdistant)``, its feature cell and that cell's connectivity digit (-1: not counted), with
    ``box_runs`` the cell and direction of the box its move moved, and with relevance cuts
    where its push left its box and how many distant pushes came before it."""
    pcell, pconn, last, lastd, rlast, rdistant = 0, -1, -1, -1, -1, 0
    if s.box_runs != 0 and s.fess != 0 and s.move_weight > 0 and pool.parent[k] >= 0:
        last = moved_box_kernel(pool.boxes, k, pool.parent[k])
        lastd = pool.push[k] & 3
    if s.relevance_window > 0:
        rlast, rdistant = relevance_kernel(
            pool.boxes, pool.parent, pool.push, board.influence, k, s.relevance_window, s.relevance_reach
        )
    if s.fess != 0 and s.move_weight > 0:
        nhot = obstruction_kernel(s, board.tunnel, board.goalm, sc.cells)
        pcell = feature_cell_kernel(
            board.floor, sc.boxat, board.off, board.goals, board.garea, board.forder, board.fstart, gs.mark,
            gs.stamp, sc.queue, nhot, sc.mark, stamp, -1,
        )  # fmt: skip
        pconn = pcell % NCONN
    return pcell, pconn, last, lastd, rlast, rdistant


@njit(inline="always")
def corral_restriction(board, ctr, s, sc, stamp):  # type: ignore[no-untyped-def]
    """Forward, with ``corrals``: True when a PI-corral restricts the node's pushes to those
    marked in ``sc.allow``."""
    if s.corrals == 0 or s.backward != 0:
        return False
    spare = 1 if board.goals.shape[0] > sc.cells.shape[0] else 0
    res = pi_corral_kernel(
        board.floor, board.goalm, board.dead, sc.boxat, board.off, sc.mark, stamp, sc.cells, sc.lab, ctr[C_LAB],
        sc.queue, sc.bseen, sc.allow, spare,
    )  # fmt: skip
    ctr[C_LAB] += (res >> 1) + 1
    if res & 1:
        ctr[C_PRUNED] += 1
        return True
    return False


@njit(inline="always")
def advise(board, pool, s, sc, gs, k, restricted):  # type: ignore[no-untyped-def]
    """The packing advisor's picks for node ``k`` (forward, unrestricted): ``(areas advised,
    checked)``, checked True when its moves were found already (``sc.pa_move``)."""
    if s.pack_advisor == 0 or s.fess == 0 or s.backward != 0 or restricted:
        return 0, False
    advice = pack_advice_kernel(
        sc.boxat, sc.cells, board.goals, board.garea, board.forder, board.fstart, board.dist, sc.pa_end, sc.pa_box,
        sc.pa_tgt,
    )  # fmt: skip
    if advice > 0 and s.pack_tries > 1:
        return pack_retry_kernel(board, sc, gs, s.pack_advisor, s.pack_tries, pool.player[k]), True
    return advice, False


@njit(inline="always")
def first_step(board, s, sc, gs, ctr, player, stamp, ctx, restricted, checked, i, d):  # type: ignore[no-untyped-def]
    """Move ``d`` of box ``i``: a push (backward, a pull) if the player can get behind the box, the
    way is free and not dead, a PI-corral allows it and it is not cut as irrelevant; ``d`` 4,
    the packing advisor's move. ``(to, player after, pushes)``, pushes 0 when there is none."""
    off, floor, dead, boxat, mark = board.off, board.floor, board.dead, sc.boxat, sc.mark
    c = sc.cells[i]
    if d >= 4:
        tgt, area = -1, 0
        for a in range(sc.pa_box.shape[0]):
            if sc.pa_box[a] == i:
                tgt = sc.pa_tgt[a]
                area = a
        if tgt < 0:
            return c, c, 0
        if checked:
            return tgt, sc.pa_move[area, 0], sc.pa_move[area, 1]
        return advisor_step_kernel(board, sc, gs, s.pack_advisor, player, c, tgt)
    to = c + off[d]
    pl = c
    if s.backward != 0:
        pl = to + off[d]
        if mark[to] != stamp or floor[pl] == 0 or boxat[pl] >= 0 or dead[to] != 0:
            return c, c, 0
    elif mark[c - off[d]] != stamp or floor[to] == 0 or boxat[to] >= 0 or dead[to] != 0:
        return c, c, 0
    elif restricted and sc.allow[i * 4 + d] == 0:
        return c, c, 0
    rlast, rdistant = ctx[4], ctx[5]
    if rlast >= 0 and rdistant >= s.relevance_distant and board.influence[rlast, c] > s.relevance_reach:
        ctr[C_CUTS] += 1  # a distant push (pull), with as many distant ones as allowed before it
        return c, c, 0
    return to, pl, 1


@njit(inline="always")
def place_child(board, s, sc, gs, ctr, i, d, variant, to, newpl, steps):  # type: ignore[no-untyped-def]
    """Move box ``i`` onto ``to`` (the first step's cell), then on along a tunnel, or with
    ``variant`` 1 on to its goal area's next goal: ``(to, player, pushes, macro)``, macro 1 for
    an advisor's move or a goal macro, -1 when variant 1 found no goal macro (no child)."""
    c = sc.cells[i]
    sc.boxat[c] = -1
    sc.boxat[to] = i
    sc.cells[i] = to
    macro = 0
    if d >= 4:
        macro = 1
        ctr[C_MACROS] += 1
    elif s.macros != 0 and s.backward == 0:
        to, newpl, extra = tunnel_kernel(board.floor, board.goalm, board.dead, board.off, sc.boxat, sc.cells, i, d,
                                         to, newpl)  # fmt: skip
        steps += extra
    if d < 4 and variant == 1 and board.garea[to] >= 0:
        to, newpl, steps, macro = goal_step_kernel(board, sc, gs, ctr, i, to, newpl, steps)
    if variant == 1 and macro != 1:
        macro = -1  # no goal macro here: the plain push was the only child
    return to, newpl, steps, macro


@njit(inline="always")
def pruned(board, s, sc, ctr, i, to, newpl):  # type: ignore[no-untyped-def]
    """True when the child is dead: a freeze deadlock (forward) or a dead pair."""
    if s.backward == 0 and blocked_kernel(board.floor, sc.boxat, board.dead, board.off, to):
        if frozen_after_kernel(board.floor, board.dead, board.goalm, board.goals, board.off, sc.boxat, sc.cells,
                               sc.fz, sc.queue, sc.fg):  # fmt: skip
            return True
    if pair_dead_kernel(board.pairs, board.lidx, board.fidx, sc.cells, i, newpl):
        ctr[C_PAIRS] += 1
        return True
    return False


@njit(inline="always")
def expand_move(board, pool, fr, other, ctr, s, sc, asg, gs, cs, k, stamp, ctx, restricted, checked, i, d):  # type: ignore[no-untyped-def]
    """Move ``d`` of box ``i`` of node ``k``: its first step, then each child it gives (with goal
    macros, forward, the plain push and the push carried on to its area's next goal), placed,
    pruned and stored; the board is as it was after. A status code."""
    c = sc.cells[i]
    to0, pl0, steps0 = first_step(board, s, sc, gs, ctr, pool.player[k], stamp, ctx, restricted, checked, i, d)
    if steps0 == 0:
        return RUNNING
    status = RUNNING
    for variant in range(2 if s.macros != 0 and s.backward == 0 and d < 4 else 1):
        to, newpl, steps, macro = place_child(board, s, sc, gs, ctr, i, d, variant, to0, pl0, steps0)
        if macro >= 0 and not pruned(board, s, sc, ctr, i, to, newpl):
            status = store_child(board, pool, fr, other, ctr, s, sc, asg, gs, cs, k, stamp, ctx, i, c, d, to,
                                 newpl, steps, macro)  # fmt: skip
        sc.boxat[to] = -1  # undo the move
        sc.boxat[c] = i
        sc.cells[i] = c
        if status != RUNNING:
            break
    return status


@njit(inline="always")
def child_region(board, s, sc, ctr, player, stamp, pconn, c, d, to, newpl, macro):  # type: ignore[no-untyped-def]
    """The child's player region: ``(least cell, told, connectivity digit, stamp2)``. When one step
    moved the box and a look round ``c`` and ``to`` tells (told), it is the parent's (``sc.mark``
    at ``stamp``) less ``to`` and with ``c`` (marked until :func:`store_child` is done), with as
    many regions as the parent's; else it is flooded (``sc.mark2`` at ``stamp2``), digit -1."""
    ctr[C_STAMP] += 1
    stamp2 = ctr[C_STAMP]
    pl = -1
    if macro == 0 and to == c + board.off[d] and (s.fess == 0 or pconn >= 0):
        pl = child_min_kernel(board.floor, sc.boxat, board.off, sc.mark, stamp, player, c, to)
    if pl >= 0:
        return pl, True, pconn, stamp2
    pl = flood_min_kernel(board.floor, sc.boxat, board.off, newpl, stamp2, sc.mark2, sc.queue)
    return pl, False, -1, stamp2


@njit(inline="always")
def store_child(board, pool, fr, other, ctr, s, sc, asg, gs, cs, k, stamp, ctx, i, c, d, to, newpl, steps, macro):  # type: ignore[no-untyped-def]
    """A live child of node ``k`` (box ``i`` moved from ``c`` to ``to``): its region and key, found
    in the table or bounded, tested for a corral deadlock, then stored and opened (A*: a shorter
    way reopens it); a status code (SOLVED when it is a goal or meets the other direction)."""
    pcell, pconn, last, lastd = ctx[0], ctx[1], ctx[2], ctx[3]
    mark, mark2 = sc.mark, sc.mark2
    pl, told, conn, stamp2 = child_region(board, s, sc, ctr, pool.player[k], stamp, pconn, c, d, to, newpl, macro)
    marked_c = mark[c]
    if told:
        mark[c] = stamp
    key = pool.hash[k] ^ board.zpl[pool.player[k]] ^ board.zbox[c] ^ board.zbox[to] ^ board.zpl[pl]
    rank = sort_child_kernel(sc.cells, sc.sorted_cells, i, to)
    found = lookup_kernel(pool.table, pool.hash, pool.player, pool.boxes, key, sc.sorted_cells, pl)
    g2 = pool.g[k] + steps
    code = encode_push(macro, steps, c, d)
    h2 = BIG
    if found < 0 or (s.optimal != 0 and g2 < pool.g[found]):
        h2 = child_bound_kernel(i + 1, sc.cells, board.dist, asg.u, asg.v, asg.p, asg.u2, asg.v2, asg.p2, asg.way,
                                asg.minv, asg.used)  # fmt: skip
    status = RUNNING
    if found >= 0:
        if h2 < BIG:  # A*: a shorter way to a stored state reopens it
            status = reopen_kernel(pool, fr, ctr, found, k, g2, h2, code)
    elif h2 < BIG and s.corral_nodes > 0 and s.backward == 0 and corral_dead(board, s, sc, cs, told, stamp,
                                                                              stamp2, to, newpl, pl):  # fmt: skip
        ctr[C_CORRAL] += 1
    elif h2 < BIG:
        met = lookup_kernel(other.table, other.hash, other.player, other.boxes, key, sc.sorted_cells, pl)
        cell = 0
        if s.fess != 0 and met < 0:
            nhot = obstruction_kernel(s, board.tunnel, board.goalm, sc.cells)
            cell = feature_cell_kernel(
                board.floor, sc.boxat, board.off, board.goals, board.garea, board.forder, board.fstart, gs.mark,
                gs.stamp, sc.queue, nhot, mark2, stamp2, conn,
            )  # fmt: skip
        gp = s.goal_player
        if told:
            away = s.backward != 0 and (mark[gp] != stamp or sc.boxat[gp] >= 0)
        else:
            away = s.backward != 0 and mark2[gp] != stamp2
        # an advisor's move is free, as is (box_runs) a push on of the box last moved, and
        # (novelty) a push to a new position; or (novelty_cells) the new positions have cells of
        # their own, the twins of theirs, which take their turns as the others do
        free = pcell if d < 4 and not (c == last and d == lastd) else -1
        if s.novelty > 0 and novelty_kernel(gs.nov, packing_of(cell), sc.cells, i, s.novelty):
            if s.novelty_cells != 0:
                cell += fr.croot.shape[0] >> 1
            else:
                free = -1
        n = ctr[C_NODES]
        status = insert_kernel(pool, fr, ctr, s, k, found, pl, g2, h2, code, key, sc.sorted_cells, met, away, free,
                               cell)  # fmt: skip
        if ctr[C_NODES] > n:  # stored: keep its matching for its expansion
            slot = n & (asg.cnode.shape[0] - 1)
            keep_duals_kernel(slot, n, i + 1, rank + 1, asg.u2, asg.v2, asg.p2, asg.cnode, asg.cu, asg.cv, asg.cp)
    if told:
        mark[c] = marked_c
    return status


@njit(inline="always")
def corral_dead(board, s, sc, cs, told, stamp, stamp2, to, newpl, pl):  # type: ignore[no-untyped-def]
    """The corral-deadlock test of a new child (its region marked in ``sc.mark`` at ``stamp`` when
    told, else in ``sc.mark2`` at ``stamp2``)."""
    nodes, most, grow = s.corral_nodes, s.corral_boxes, s.corral_grow
    if told:
        return corral_deadlock_kernel(
            board.floor, board.goalm, board.dead, board.off, board.zbox, board.zpl, sc.boxat, sc.cells, sc.mark,
            stamp, to, newpl, pl, nodes, most, grow, cs,
        )  # fmt: skip
    return corral_deadlock_kernel(
        board.floor, board.goalm, board.dead, board.off, board.zbox, board.zpl, sc.boxat, sc.cells, sc.mark2, stamp2,
        to, newpl, pl, nodes, most, grow, cs,
    )  # fmt: skip
