"""The search loop: open the roots, then expand nodes, a slice of at most ``budget`` at a time.

Every kernel works on a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from ...._jit import njit
from ..._deadlock_kernels import blocked_kernel
from ..._padded_kernels import child_min_kernel, flood_min_kernel
from ..._pair_kernels import pair_dead_kernel
from .advisors import advisor_step_kernel, pack_advice_kernel, pack_retry_kernel
from .bound import child_bound_kernel, hungarian_kernel, keep_duals_kernel, load_duals_kernel
from .corrals import corral_deadlock_kernel, pi_corral_kernel
from .features import feature_cell_kernel, novelty_kernel, obstruction_kernel, packing_of
from .freeze import frozen_after_kernel
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
    """One slice of :func:`search_kernel`: at most ``budget`` times, take a node (phase
    1), load it (2), generate every box's moves (3), prune each child (4), and store,
    score and open the survivors (5); a status code.

    The groups are unpacked once a slice and the helpers get the few arrays they use
    (see the notes above :class:`Board`): this is why the phases are the parts of one
    loop here rather than functions of their own.
    """
    floor, goalm, goals, dead, dist, off, zbox, zpl, garea, forder, fstart, tunnel = board[:12]
    pairs, lidx, fidx, influence = board[12:]
    boxat, mark, mark2, queue, cells, sorted_cells, fz, lab, bseen, allow = sc[:10]
    pa_box, pa_tgt, pa_end, pa_move, fg = sc[10:]
    u, v, p, way, minv, used, u2, v2, p2, cnode, cu, cv, cp = asg
    pboxes, pplayer, pg, ptable, phash = pool.boxes, pool.player, pool.g, pool.table, pool.hash
    otable, ohash, oplayer, oboxes = other.table, other.hash, other.player, other.boxes
    gmark, gstamp = gs.mark, gs.stamp
    nb = cells.shape[0]
    for _ in range(budget):
        # phase 1: the next node
        top, k = take_kernel(fr, ctr, s.fess)
        if k < 0:
            return EXHAUSTED
        if s.optimal != 0:
            h = top & H_MASK
            if (top >> KEY_SHIFT) - h != pg[k]:
                continue  # stale entry: a shorter way to this node was found
            if is_goal_kernel(s, h, pplayer[k]):
                return solved_kernel(ctr, k, -1)
        ctr[C_EXPANDED] += 1
        # phase 2: the node's position, region, assignment, corral restriction and advice
        for j in range(nb):
            cells[j] = pboxes[k, j]
            boxat[cells[j]] = j
        ctr[C_STAMP] += 1
        stamp = ctr[C_STAMP]
        flood_min_kernel(floor, boxat, off, pplayer[k], stamp, mark, queue)
        kslot = k & (cnode.shape[0] - 1)
        if cnode[kslot] == k:  # its matching was kept when it was stored
            load_duals_kernel(kslot, cu, cv, cp, u, v, p)
            ctr[C_DUALS] += 1
        else:
            hungarian_kernel(cells, dist, u, v, p, way, minv, used)
        pcell = 0
        pconn = -1  # the parent's connectivity digit of pcell (-1: not counted)
        last = -1  # box_runs: the cell of the box the last move moved, and the way it went (a macro: its first push)
        lastd = -1
        if s.box_runs != 0 and s.fess != 0 and s.move_weight > 0 and pool.parent[k] >= 0:
            last = moved_box_kernel(pboxes, k, pool.parent[k])
            lastd = pool.push[k] & 3
        rlast = -1  # relevance cuts: where the last push left its box, and the distant pushes before it
        rdistant = 0
        if s.relevance_window > 0:
            rlast, rdistant = relevance_kernel(
                pboxes, pool.parent, pool.push, influence, k, s.relevance_window, s.relevance_reach
            )
        if s.fess != 0 and s.move_weight > 0:
            nhot = obstruction_kernel(s, tunnel, goalm, cells)
            pcell = feature_cell_kernel(
                floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue, nhot, mark, stamp, -1
            )
            pconn = pcell % NCONN
        restricted = False
        if s.corrals != 0 and s.backward == 0:
            res = pi_corral_kernel(
                floor, goalm, dead, boxat, off, mark, stamp, cells, lab, ctr[C_LAB], queue, bseen, allow,
                1 if goals.shape[0] > nb else 0,
            )  # fmt: skip
            ctr[C_LAB] += (res >> 1) + 1
            restricted = (res & 1) != 0
            if restricted:
                ctr[C_PRUNED] += 1
        advice = 0
        checked = False  # the packing advisor's moves found already (pa_move)
        if s.pack_advisor > 0 and s.fess != 0 and s.backward == 0 and not restricted:
            advice = pack_advice_kernel(boxat, cells, goals, garea, forder, fstart, dist, pa_end, pa_box, pa_tgt)
            if advice > 0 and s.pack_tries > 1:
                advice = pack_retry_kernel(board, sc, gs, s.pack_advisor, s.pack_tries, pplayer[k])
                checked = True
        nmoves = 5 if advice > 0 else 4
        parent_key = phash[k] ^ zpl[pplayer[k]]
        status = RUNNING
        for i in range(nb):
            c = cells[i]
            for d in range(nmoves):
                # phase 3: the move's first step: a push (a pull backward) if the player can get
                # behind the box, the way is free and not dead, and a PI-corral allows it; d == 4,
                # the packing advisor's move of box i (written out here, not called: an array
                # passed to a function costs two atomic reference counts a call, per move)
                to0, pl0, steps0 = c + off[d & 3], c, 1
                if d >= 4:
                    tgt, area = -1, 0
                    for a in range(pa_box.shape[0]):
                        if pa_box[a] == i:
                            tgt = pa_tgt[a]
                            area = a
                    if tgt < 0:
                        continue
                    if checked:
                        to0, pl0, steps0 = tgt, pa_move[area, 0], pa_move[area, 1]
                    else:
                        to0, pl0, steps0 = advisor_step_kernel(board, sc, gs, s.pack_advisor, pplayer[k], c, tgt)
                    if steps0 == 0:
                        continue
                elif s.backward != 0:
                    pl0 = to0 + off[d]
                    if mark[to0] != stamp or floor[pl0] == 0 or boxat[pl0] >= 0 or dead[to0] != 0:
                        continue
                elif mark[c - off[d]] != stamp or floor[to0] == 0 or boxat[to0] >= 0 or dead[to0] != 0:
                    continue
                elif restricted and allow[i * 4 + d] == 0:
                    continue
                if d < 4 and rlast >= 0 and rdistant >= s.relevance_distant and influence[rlast, c] > s.relevance_reach:
                    ctr[C_CUTS] += 1  # a distant push (pull), with as many distant ones as allowed before it
                    continue
                # with goal macros (forward) a push gives two children: the plain
                # push, then the push carried on to its goal area's next goal when that applies
                for variant in range(2 if s.macros != 0 and s.backward == 0 and d < 4 else 1):
                    to, newpl, steps = to0, pl0, steps0
                    boxat[c] = -1
                    boxat[to] = i
                    cells[i] = to
                    macro = 0
                    if d >= 4:
                        macro = 1
                        ctr[C_MACROS] += 1
                    elif s.macros != 0 and s.backward == 0:
                        to, newpl, extra = tunnel_kernel(floor, goalm, dead, off, boxat, cells, i, d, to, newpl)
                        steps += extra
                    if d < 4 and variant == 1 and garea[to] >= 0:
                        to, newpl, steps, macro = goal_step_kernel(board, sc, gs, ctr, i, to, newpl, steps)
                    if variant == 1 and macro != 1:
                        macro = -1  # no goal macro here: the plain push was the only child
                    # phase 4: prune (a freeze deadlock forward, a dead pair), then find the child
                    alive = macro >= 0
                    if alive and s.backward == 0 and blocked_kernel(floor, boxat, dead, off, to):
                        alive = not frozen_after_kernel(floor, dead, goalm, goals, off, boxat, cells, fz, queue, fg)
                    if alive and pair_dead_kernel(pairs, lidx, fidx, cells, i, newpl):
                        alive = False
                        ctr[C_PAIRS] += 1
                    if alive:
                        # the child's region: when one step moved the box and a look round c and
                        # to tells (told), the parent's (mark == stamp) less to and with c (marked
                        # until the move is undone), with as many regions as the parent's (conn);
                        # else flooded (mark2 == stamp2). (Two calls below rather than one array
                        # variable for both: an array assigned costs reference counts.)
                        ctr[C_STAMP] += 1
                        stamp2 = ctr[C_STAMP]
                        conn = -1
                        marked_c = 0
                        pl = -1
                        if macro == 0 and to == c + off[d] and (s.fess == 0 or pconn >= 0):
                            pl = child_min_kernel(floor, boxat, off, mark, stamp, pplayer[k], c, to)
                        told = pl >= 0
                        if told:
                            conn = pconn
                            marked_c = mark[c]
                            mark[c] = stamp
                        else:
                            pl = flood_min_kernel(floor, boxat, off, newpl, stamp2, mark2, queue)
                        key = parent_key ^ zbox[c] ^ zbox[to] ^ zpl[pl]
                        rank = sort_child_kernel(cells, sorted_cells, i, to)
                        found = lookup_kernel(ptable, phash, pplayer, pboxes, key, sorted_cells, pl)
                        g2 = pg[k] + steps
                        code = encode_push(macro, steps, c, d)
                        h2 = BIG
                        if found < 0 or (s.optimal != 0 and g2 < pg[found]):
                            h2 = child_bound_kernel(i + 1, cells, dist, u, v, p, u2, v2, p2, way, minv, used)
                        corral = False
                        if found < 0 and h2 < BIG and s.corral_nodes > 0 and s.backward == 0:
                            nodes, most, grow = s.corral_nodes, s.corral_boxes, s.corral_grow
                            if told:
                                corral = corral_deadlock_kernel(
                                    floor, goalm, dead, off, zbox, zpl, boxat, cells, mark, stamp, to, newpl, pl,
                                    nodes, most, grow, cs,
                                )  # fmt: skip
                            else:
                                corral = corral_deadlock_kernel(
                                    floor, goalm, dead, off, zbox, zpl, boxat, cells, mark2, stamp2, to, newpl, pl,
                                    nodes, most, grow, cs,
                                )  # fmt: skip
                        if found >= 0:
                            if h2 < BIG:  # A*: a shorter way to a stored state reopens it
                                status = reopen_kernel(pool, fr, ctr, found, k, g2, h2, code)
                        elif corral:
                            ctr[C_CORRAL] += 1
                        elif h2 < BIG:
                            # phase 5: store, then stop (met, or a goal) or score and open
                            met = lookup_kernel(otable, ohash, oplayer, oboxes, key, sorted_cells, pl)
                            cell = 0
                            if s.fess != 0 and met < 0:
                                nhot = obstruction_kernel(s, tunnel, goalm, cells)
                                cell = feature_cell_kernel(
                                    floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue, nhot,
                                    mark2, stamp2, conn,
                                )  # fmt: skip
                            gp = s.goal_player
                            if told:
                                away = s.backward != 0 and (mark[gp] != stamp or boxat[gp] >= 0)
                            else:
                                away = s.backward != 0 and mark2[gp] != stamp2
                            # an advisor's move is free, as is (box_runs) a push on of the box last moved
                            free = pcell if d < 4 and not (c == last and d == lastd) else -1
                            # and (novelty) a push to a new position, or (novelty_cells) the new
                            # positions have cells of their own, the twins of theirs, which take
                            # their turns as the others do (so they come early)
                            if s.novelty > 0 and novelty_kernel(gs.nov, packing_of(cell), cells, i, s.novelty):
                                if s.novelty_cells != 0:
                                    cell += fr.croot.shape[0] >> 1
                                else:
                                    free = -1
                            n = ctr[C_NODES]
                            status = insert_kernel(
                                pool, fr, ctr, s, k, found, pl, g2, h2, code, key, sorted_cells, met, away, free, cell
                            )
                            if ctr[C_NODES] > n:  # stored: keep its matching for its expansion
                                slot = n & (cnode.shape[0] - 1)
                                keep_duals_kernel(slot, n, i + 1, rank + 1, u2, v2, p2, cnode, cu, cv, cp)
                    if alive and told:
                        mark[c] = marked_c
                    boxat[to] = -1  # undo the move
                    boxat[c] = i
                    cells[i] = c
                    if status != RUNNING:
                        break
                if status != RUNNING:
                    break
            if status != RUNNING:
                break
        for j in range(nb):
            boxat[cells[j]] = -1
        if status == MEMORY:
            put_back_kernel(fr, ctr, s.fess, top, k)
            return MEMORY
        if status == SOLVED:
            return SOLVED
    return RUNNING
