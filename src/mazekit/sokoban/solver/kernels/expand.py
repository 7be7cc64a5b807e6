"""The search loop: open the roots, then expand nodes, a slice of at most ``budget`` at a time.

One expansion (:func:`expand_kernel`) is a short sequence of named steps: take a node
(:func:`~.store.take_kernel`), load it (:func:`load_node`, :func:`match_node`), read its context
(:func:`last_move`, :func:`~.relevance.relevance_kernel`, :func:`feature_cell`,
:func:`corral_restriction`, :func:`advise`), then for every box and direction generate the move
(:func:`first_push`, :func:`advisor_move`, :func:`irrelevant`), place the child
(:func:`place_child`), prune it (:func:`may_freeze` and the freeze test, :func:`dead_pair`),
find its region (:func:`child_region`) and bound (:func:`child_bound`), test its corrals
(:func:`corral_dead`), score it (:func:`feature_cell`, :func:`child_score`) and store it
(:func:`store_child`).

The steps are :func:`mazekit._jit.step` kernels: compiled without reference counts, they are
inlined into the loop and cost nothing as calls. They get bare arrays, unpacked from the groups
once a slice, and their scalars travel in :class:`Node` and :class:`Child`, records of integers.
A step whose own calls hand on many arrays is not inlined, so the two heavy tests (freeze,
corrals) are called from the loop or from a step that makes that one call. Every kernel works on
a padded, flattened level (see :mod:`.state`).
"""

from __future__ import annotations

from typing import NamedTuple

from ...._jit import step
from ..._deadlock_kernels import blocked_kernel
from ..._padded_kernels import child_min_kernel, flood_min_kernel
from ..._pair_kernels import pair_dead_kernel
from .advisors import advisor_step_kernel, pack_advice_kernel, pack_retry_kernel
from .bound import child_bound_kernel, hungarian_kernel, keep_duals_kernel, load_duals_kernel
from .corrals import corral_deadlock_kernel, pi_corral_kernel
from .features import feature_cell_kernel, novelty_kernel, obstruction_kernel, packing_of
from .freeze import frozen_after_kernel
from .macros import goal_step_kernel, move_box_kernel, tunnel_kernel
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


class Node(NamedTuple):
    """The node being expanded, as its children's steps read it.

    ``k`` its index, ``player`` its normalised player, ``stamp`` its region (``mark == stamp``),
    ``g`` its pushes, ``key`` its Zobrist key without the player's; ``cell`` its feature cell
    and ``conn`` that cell's connectivity digit (-1: not counted); ``last``/``lastd`` where the
    box its move moved stands and the way it went (``box_runs``; -1 none); ``rlast``/``rdistant``
    where its push left its box and the distant pushes before (relevance cuts; -1 none);
    ``restricted`` (a PI-corral allows only the pushes in ``allow``) and ``checked`` (the
    packing advisor's moves are found already, in ``pa_move``).
    """

    k: int
    player: int
    stamp: int
    g: int
    key: int
    cell: int
    conn: int
    last: int
    lastd: int
    rlast: int
    rdistant: int
    restricted: bool
    checked: bool


class Child(NamedTuple):
    """A move of box ``i`` from ``c`` in direction ``d`` (4: the packing advisor's move) that
    left it on ``to``, the player on ``player``, after ``steps`` pushes; ``macro`` 1 for a goal
    macro or an advisor's move, 0 for a push (with its tunnel), -1 for no child."""

    i: int
    c: int
    d: int
    to: int
    player: int
    steps: int
    macro: int


@step
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


@step
def expand_kernel(board, pool, fr, other, ctr, s, budget, sc, asg, gs, cs):  # type: ignore[no-untyped-def]
    """One slice of :func:`search_kernel`: at most ``budget`` expansions; a status code.

    An expansion takes the best node, loads it and reads its context, then tries every box's
    moves: each child is placed, pruned, bounded, tested, scored and stored (see the module
    notes), and its box goes back before the next move.
    """
    floor, goalm, goals, dead, dist, off, zbox, zpl, garea, forder, fstart, tunnel = board[:12]
    pairs, lidx, fidx, influence = board[12:]
    boxat, mark, mark2, queue, cells, sorted_cells, fz, lab, bseen, allow = sc[:10]
    pa_box, pa_tgt, pa_end, pa_move, fg = sc[10:]
    u, v, p, way, minv, used, u2, v2, p2, cnode, cu, cv, cp = asg
    pboxes, pplayer, pparent, pg, ppush, phash, _acc, ptable = pool
    otable, ohash, oplayer, oboxes = other.table, other.hash, other.player, other.boxes
    gmark, gstamp, nov = gs.mark, gs.stamp, gs.nov
    twins = fr.croot.shape[0] >> 1
    nb = cells.shape[0]
    for _ in range(budget):
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
        stamp = load_node(k, pboxes, pplayer, cells, boxat, floor, off, mark, queue, ctr)
        match_node(k, cells, dist, ctr, u, v, p, way, minv, used, cnode, cu, cv, cp)
        last, lastd = last_move(s, k, pboxes, pparent, ppush)
        rlast, rdistant = -1, 0
        if s.relevance_window > 0:
            rlast, rdistant = relevance_kernel(
                pboxes, pparent, ppush, influence, k, s.relevance_window, s.relevance_reach
            )
        pcell, pconn = 0, -1
        if s.fess != 0 and s.move_weight > 0:
            pcell = feature_cell(
                s, floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue, tunnel, goalm, cells,
                mark, stamp, -1,
            )  # fmt: skip
            pconn = pcell % NCONN
        restricted = corral_restriction(
            s, ctr, floor, goalm, dead, boxat, off, mark, stamp, cells, lab, queue, bseen, allow, goals.shape[0]
        )
        advice, checked = advise(
            s, board, sc, gs, pplayer[k], restricted, boxat, cells, goals, garea, forder, fstart, dist, pa_end,
            pa_box, pa_tgt,
        )  # fmt: skip
        node = Node(
            k, pplayer[k], stamp, pg[k], phash[k] ^ zpl[pplayer[k]], pcell, pconn, last, lastd, rlast, rdistant,
            restricted, checked,
        )  # fmt: skip
        status = RUNNING
        for i in range(nb):
            c = cells[i]
            for d in range(5 if advice > 0 else 4):
                if d == 4:
                    to0, pl0, steps0 = advisor_move(s, board, sc, gs, node, i, c, pa_box, pa_tgt, pa_move)
                else:
                    to0, pl0, steps0 = first_push(s, node, i, c, d, off, floor, boxat, dead, mark, allow)
                if steps0 == 0 or irrelevant(s, node, ctr, influence, c, d):
                    continue
                for variant in range(2 if s.macros != 0 and s.backward == 0 and d < 4 else 1):
                    ch = place_child(
                        s, board, sc, gs, ctr, floor, goalm, dead, off, garea, boxat, cells,
                        Child(i, c, d, to0, pl0, steps0, 0), variant,
                    )  # fmt: skip
                    if (
                        ch.macro >= 0
                        and not (
                            may_freeze(s, floor, boxat, dead, off, ch)
                            and frozen_after_kernel(floor, dead, goalm, goals, off, boxat, cells, fz, queue, fg)
                        )
                        and not dead_pair(ctr, pairs, lidx, fidx, cells, ch)
                    ):
                        pl, told, conn, stamp2, marked_c = child_region(
                            s, node, ch, ctr, floor, boxat, off, mark, mark2, queue
                        )
                        key = node.key ^ zbox[c] ^ zbox[ch.to] ^ zpl[pl]
                        rank = sort_child_kernel(cells, sorted_cells, i, ch.to)
                        found = lookup_kernel(ptable, phash, pplayer, pboxes, key, sorted_cells, pl)
                        g2 = node.g + ch.steps
                        h2 = child_bound(s, found, g2, pg, i, cells, dist, u, v, p, u2, v2, p2, way, minv, used)
                        if found >= 0:
                            if h2 < BIG:  # A*: a shorter way to a stored state reopens it
                                code = encode_push(ch.macro, ch.steps, c, d)
                                status = reopen_kernel(pool, fr, ctr, found, k, g2, h2, code)
                        elif h2 < BIG and corral_dead(
                            s, cs, node, ch, pl, told, stamp2, mark, mark2, floor, goalm, dead, off, zbox, zpl,
                            boxat, cells,
                        ):  # fmt: skip
                            ctr[C_CORRAL] += 1
                        elif h2 < BIG:
                            met = lookup_kernel(otable, ohash, oplayer, oboxes, key, sorted_cells, pl)
                            cell = 0
                            if s.fess != 0 and met < 0:
                                cell = feature_cell(
                                    s, floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue, tunnel,
                                    goalm, cells, mark2, stamp2, conn,
                                )  # fmt: skip
                            cell, away, free = child_score(
                                s, node, ch, cell, told, stamp2, nov, twins, cells, boxat, mark, mark2
                            )
                            status = store_child(
                                s, pool, fr, ctr, node, ch, found, key, pl, g2, h2, met, away, free, cell, rank,
                                sorted_cells, u2, v2, p2, cnode, cu, cv, cp,
                            )  # fmt: skip
                        if told:
                            mark[c] = marked_c
                    move_box_kernel(boxat, cells, i, ch.to, c)  # the move undone
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


@step
def load_node(k, pboxes, pplayer, cells, boxat, floor, off, mark, queue, ctr):  # type: ignore[no-untyped-def]
    """Put node ``k``'s boxes on the board (``cells``, ``boxat``) and mark its player's region
    with a new stamp (``mark == stamp``); the stamp."""
    for j in range(cells.shape[0]):
        cells[j] = pboxes[k, j]
        boxat[cells[j]] = j
    ctr[C_STAMP] += 1
    stamp = ctr[C_STAMP]
    flood_min_kernel(floor, boxat, off, pplayer[k], stamp, mark, queue)
    return stamp


@step
def match_node(k, cells, dist, ctr, u, v, p, way, minv, used, cnode, cu, cv, cp):  # type: ignore[no-untyped-def]
    """Node ``k``'s matching of boxes to goals (``u``, ``v``, ``p``): the one kept when it was
    stored (:func:`~.bound.keep_duals_kernel`), else solved again."""
    kslot = k & (cnode.shape[0] - 1)
    if cnode[kslot] == k:
        load_duals_kernel(kslot, cu, cv, cp, u, v, p)
        ctr[C_DUALS] += 1
    else:
        hungarian_kernel(cells, dist, u, v, p, way, minv, used)


@step
def last_move(s, k, pboxes, pparent, ppush):  # type: ignore[no-untyped-def]
    """With ``box_runs`` (feature-space, move weights): where the box node ``k``'s move moved
    stands, and the way it went (a macro: its first push); ``(-1, -1)`` otherwise."""
    last = -1
    lastd = -1
    if s.box_runs != 0 and s.fess != 0 and s.move_weight > 0 and pparent[k] >= 0:
        last = moved_box_kernel(pboxes, k, pparent[k])
        lastd = ppush[k] & 3
    return last, lastd


@step
def feature_cell(  # type: ignore[no-untyped-def]
    s, floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue, tunnel, goalm, cells, rmark, rstamp, conn
):
    """The feature cell of the position on the board (:func:`~.features.feature_cell_kernel`),
    the player's region ``rmark == rstamp``, ``conn`` its connectivity digit when known (-1 not)."""
    nhot = obstruction_kernel(s, tunnel, goalm, cells)
    return feature_cell_kernel(
        floor, boxat, off, goals, garea, forder, fstart, gmark, gstamp, queue, nhot, rmark, rstamp, conn
    )


@step
def corral_restriction(  # type: ignore[no-untyped-def]
    s, ctr, floor, goalm, dead, boxat, off, mark, stamp, cells, lab, queue, bseen, allow, ngoals
):
    """Forward, with ``corrals``: whether a PI-corral restricts the node's pushes to those into it,
    marked in ``allow`` (:func:`~.corrals.pi_corral_kernel`; counted in ``C_PRUNED``)."""
    if s.corrals == 0 or s.backward != 0:
        return False
    spare = 1 if ngoals > cells.shape[0] else 0
    res = pi_corral_kernel(
        floor, goalm, dead, boxat, off, mark, stamp, cells, lab, ctr[C_LAB], queue, bseen, allow, spare
    )
    ctr[C_LAB] += (res >> 1) + 1
    if (res & 1) != 0:
        ctr[C_PRUNED] += 1
        return True
    return False


@step
def advise(  # type: ignore[no-untyped-def]
    s, board, sc, gs, player, restricted, boxat, cells, goals, garea, forder, fstart, dist, pa_end, pa_box, pa_tgt
):
    """Forward, feature-space, with the packing advisor and no PI-corral restriction: how many
    goal areas have a box to take to their next goal (``pa_box``, ``pa_tgt``:
    :func:`~.advisors.pack_advice_kernel`), and whether their moves are found already (with
    ``pack_tries`` over 1, :func:`~.advisors.pack_retry_kernel` keeps them in ``pa_move``)."""
    advice = 0
    checked = False
    if s.pack_advisor > 0 and s.fess != 0 and s.backward == 0 and not restricted:
        advice = pack_advice_kernel(boxat, cells, goals, garea, forder, fstart, dist, pa_end, pa_box, pa_tgt)
        if advice > 0 and s.pack_tries > 1:
            advice = pack_retry_kernel(board, sc, gs, s.pack_advisor, s.pack_tries, player)
            checked = True
    return advice, checked


@step
def first_push(s, node, i, c, d, off, floor, boxat, dead, mark, allow):  # type: ignore[no-untyped-def]
    """The first step of box ``i``'s push from ``c`` in direction ``d`` (a pull backward):
    ``(cell, player, 1)`` when the player can get behind the box (in front of it, pulling), the
    way is free and not dead, and no PI-corral restriction forbids it; ``(cell, player, 0)``
    otherwise."""
    to = c + off[d]
    pl = c
    ok = True
    if s.backward != 0:
        pl = to + off[d]
        ok = mark[to] == node.stamp and floor[pl] != 0 and boxat[pl] < 0 and dead[to] == 0
    elif mark[c - off[d]] != node.stamp or floor[to] == 0 or boxat[to] >= 0 or dead[to] != 0:
        ok = False
    elif node.restricted and allow[i * 4 + d] == 0:
        ok = False
    return to, pl, 1 if ok else 0


@step
def advisor_move(s, board, sc, gs, node, i, c, pa_box, pa_tgt, pa_move):  # type: ignore[no-untyped-def]
    """The packing advisor's move of box ``i`` on ``c``, when it chose that box: ``(goal, player,
    moves)`` of pushing it all the way to its goal alone; moves 0 when there is none."""
    tgt, area = -1, 0
    for a in range(pa_box.shape[0]):
        if pa_box[a] == i:
            tgt = pa_tgt[a]
            area = a
    if tgt < 0:
        return c, c, 0
    if node.checked:
        return tgt, pa_move[area, 0], pa_move[area, 1]
    return advisor_step_kernel(board, sc, gs, s.pack_advisor, node.player, c, tgt)


@step
def irrelevant(s, node, ctr, influence, c, d):  # type: ignore[no-untyped-def]
    """Relevance cuts: whether the push of the box on ``c`` is cut, as distant (further than
    ``relevance_reach`` in influence distance from where the node's push left its box) with as
    many distant pushes as allowed before it (:func:`~.relevance.relevance_kernel`); counted in
    ``C_CUTS``."""
    if d < 4 and node.rlast >= 0 and node.rdistant >= s.relevance_distant:
        if influence[node.rlast, c] > s.relevance_reach:
            ctr[C_CUTS] += 1
            return True
    return False


@step
def place_child(s, board, sc, gs, ctr, floor, goalm, dead, off, garea, boxat, cells, first, variant):  # type: ignore[no-untyped-def]
    """Make the move ``first`` (a :class:`Child`: box ``i`` from ``c`` onto ``to``) on the board,
    carried on as the macros say: along a tunnel, then (``variant`` 1, forward with ``macros``)
    on to its goal area's next goal. The child made; its ``macro`` is -1 when variant 1 has no
    goal macro here (the plain push was the only child)."""
    i, c, d, to, newpl, steps, _ = first
    move_box_kernel(boxat, cells, i, c, to)
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
        macro = -1
    return Child(i, c, d, to, newpl, steps, macro)


@step
def may_freeze(s, floor, boxat, dead, off, ch):  # type: ignore[no-untyped-def]
    """Forward, whether the child's box is blocked on both axes, so that its push may have made a
    freeze deadlock (:func:`~.freeze.frozen_after_kernel` tells)."""
    return s.backward == 0 and blocked_kernel(floor, boxat, dead, off, ch.to)


@step
def dead_pair(ctr, pairs, lidx, fidx, cells, ch):  # type: ignore[no-untyped-def]
    """Whether the child's box makes a dead pair with another (:func:`pair_dead_kernel`; counted
    in ``C_PAIRS``)."""
    if pair_dead_kernel(pairs, lidx, fidx, cells, ch.i, ch.player):
        ctr[C_PAIRS] += 1
        return True
    return False


@step
def child_region(s, node, ch, ctr, floor, boxat, off, mark, mark2, queue):  # type: ignore[no-untyped-def]
    """The child's player region: ``(least cell, told, conn, stamp2, marked_c)``.

    When one push moved the box and a look round its two cells tells (``told``), the region is
    the node's (``mark == node.stamp``) less the box's new cell and with its old one (``mark[c]``
    set until the move is undone; ``marked_c`` its old value), with the node's number of regions
    (``conn``, its connectivity digit); else it is flooded anew (``mark2 == stamp2``, ``conn``
    -1)."""
    ctr[C_STAMP] += 1
    stamp2 = ctr[C_STAMP]
    pl = -1
    if ch.macro == 0 and ch.to == ch.c + off[ch.d] and (s.fess == 0 or node.conn >= 0):
        pl = child_min_kernel(floor, boxat, off, mark, node.stamp, node.player, ch.c, ch.to)
    told = pl >= 0
    conn = -1
    marked_c = 0
    if told:
        conn = node.conn
        marked_c = mark[ch.c]
        mark[ch.c] = node.stamp
    else:
        pl = flood_min_kernel(floor, boxat, off, ch.player, stamp2, mark2, queue)
    return pl, told, conn, stamp2, marked_c


@step
def child_bound(s, found, g2, pg, i, cells, dist, u, v, p, u2, v2, p2, way, minv, used):  # type: ignore[no-untyped-def]
    """The child's bound (its matching, found from the node's by one augmenting path:
    :func:`~.bound.child_bound_kernel`; ``BIG`` when there is none) when the child is new or
    (A*) reached by a shorter way; ``BIG`` otherwise."""
    if found < 0 or (s.optimal != 0 and g2 < pg[found]):
        return child_bound_kernel(i + 1, cells, dist, u, v, p, u2, v2, p2, way, minv, used)
    return BIG


@step
def corral_dead(  # type: ignore[no-untyped-def]
    s, cs, node, ch, pl, told, stamp2, mark, mark2, floor, goalm, dead, off, zbox, zpl, boxat, cells
):
    """Forward, with the corral-deadlock test: whether a corral next to the child's box is a
    deadlock (:func:`~.corrals.corral_deadlock_kernel`; the child's region is the node's when
    ``told``, else ``mark2 == stamp2``)."""
    if s.corral_nodes <= 0 or s.backward != 0:
        return False
    rmark, rstamp = (mark, node.stamp) if told else (mark2, stamp2)
    return corral_deadlock_kernel(
        floor, goalm, dead, off, zbox, zpl, boxat, cells, rmark, rstamp, ch.to, ch.player, pl, s.corral_nodes,
        s.corral_boxes, s.corral_grow, cs,
    )  # fmt: skip


@step
def child_score(s, node, ch, cell, told, stamp2, nov, twins, cells, boxat, mark, mark2):  # type: ignore[no-untyped-def]
    """What the child's key takes besides its bound and its feature cell ``cell``: ``(cell, away,
    free)``.

    ``cell`` becomes its twin with ``novelty_cells`` when the position is new; ``away``,
    backward, whether the child's player cannot reach the goal region; ``free`` the node's
    cell, which the move must improve on to cost nothing, or -1 when it is free anyway: an
    advisor's move, with ``box_runs`` a push of the box last moved on the way it went, with
    ``novelty`` a new position."""
    rmark, rstamp = (mark, node.stamp) if told else (mark2, stamp2)
    away = s.backward != 0 and (rmark[s.goal_player] != rstamp or boxat[s.goal_player] >= 0)
    free = node.cell if ch.d < 4 and not (ch.c == node.last and ch.d == node.lastd) else -1
    if s.novelty > 0 and novelty_kernel(nov, packing_of(cell), cells, ch.i, s.novelty):
        if s.novelty_cells != 0:
            cell += twins
        else:
            free = -1
    return cell, away, free


@step
def store_child(  # type: ignore[no-untyped-def]
    s, pool, fr, ctr, node, ch, found, key, pl, g2, h2, met, away, free, cell, rank, sorted_cells, u2, v2, p2,
    cnode, cu, cv, cp,
):  # fmt: skip
    """Store the child (:func:`~.store.insert_kernel`: it may meet the other direction or be a
    goal, else it is opened) and keep its matching for its expansion; a status code."""
    n = ctr[C_NODES]
    code = encode_push(ch.macro, ch.steps, ch.c, ch.d)
    status = insert_kernel(pool, fr, ctr, s, node.k, found, pl, g2, h2, code, key, sorted_cells, met, away, free, cell)
    if ctr[C_NODES] > n:
        keep_duals_kernel(n & (cnode.shape[0] - 1), n, ch.i + 1, rank + 1, u2, v2, p2, cnode, cu, cv, cp)
    return status
