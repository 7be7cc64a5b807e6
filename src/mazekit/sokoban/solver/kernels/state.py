"""The search's shared vocabulary: its counters, statuses, key and move codes, and the named
groups of arrays that travel between the kernels.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ...._jit import njit

#: Cost of an impossible box-to-goal pair in the assignment.
BIG = 1 << 20


#: Larger than any assignment cost.
INF = 1 << 50


C_NODES = 0


C_HEAP = 1


C_EXPANDED = 2


C_GENERATED = 3


C_STAMP = 4


C_SOLUTION = 5


C_CAP = 6


C_BEST_H = 7


C_LAB = 8


C_PRUNED = 9


C_INIT = 10


C_ROOTS = 11


C_MEET = 12


C_MACROS = 13


C_CURSOR = 14


C_OPEN = 15


C_CORRAL = 16


#: Children pruned as a dead pair (see :func:`pair_table_kernel`).
C_PAIRS = 17


#: Expansions that took their node's matching from the duals' cache (see :class:`Assign`).
C_DUALS = 18


#: Pushes not tried because they were irrelevant (see :func:`relevance_kernel`).
C_CUTS = 19


#: Number of ctr slots.
NCTR = 20


#: Connectivity buckets of the feature-space search (1, 2, 3, 4 or more player regions).
NCONN = 4


#: Out-of-plan buckets of the feature-space search (none, some).
NOOP = 2


#: Obstruction buckets of the feature-space search (tunnels between rooms blocked: none, one, two or more).
NHOT = 3


#: Mixed into the corral cache's keys by the player's least cell (see
#: :func:`corral_deadlock_kernel`), to keep them apart from the keys by the region with B alone.
QUICK_KEY = 0x5BD1E9955BD1E995


RUNNING = 0


SOLVED = 1


EXHAUSTED = 2


MEMORY = 3


#: A key is ``(score << KEY_SHIFT) | h``: the order, then the bound (h < BIG = 2**20).
KEY_SHIFT = 20


#: The bound's bits of a key.
H_MASK = (1 << KEY_SHIFT) - 1


#: A push code holds ``cell * 4 + direction`` below PUSH_STEPS_SHIFT, the pushes the
#: move made (macros make several) from there, and 1 at PUSH_MACRO_SHIFT for a goal
#: macro or advisor's move (whose pushes are found again when the solution is rebuilt).
PUSH_STEPS_SHIFT = 20


PUSH_MACRO_SHIFT = 30


#: ``cell * 4 + direction`` of a push code.
PUSH_MOVE_MASK = (1 << PUSH_STEPS_SHIFT) - 1


#: The pushes of a push code (after the shift).
PUSH_STEPS_MASK = (1 << (PUSH_MACRO_SHIFT - PUSH_STEPS_SHIFT)) - 1


#: A macro longer than this is not taken (two in a row stay below PUSH_STEPS_MASK).
MAX_MACRO_STEPS = 512


class Board(NamedTuple):
    """The level as one direction sees it; read, never written.

    ``dead`` and ``dist`` are the direction's own (the backward search's refer to
    the start's box cells); ``zbox``/``zpl`` are the Zobrist keys of a box and of
    the normalised player on each cell; ``garea``/``forder``/``fstart`` the goal
    areas and their packing orders (see ``search.goal_areas``; one empty area when
    unused); ``tunnel`` each cell's tunnel between rooms (see :func:`blocked_tunnels_kernel`; one
    entry when unused); ``pairs`` the dead pairs' table (forward; backward, the start's
    pairs) with its cell indices ``lidx`` and ``fidx`` (see :func:`pair_table_kernel`;
    1 x 1 x 1 when unused); ``influence`` the influence distance
    between two cells (see :func:`influence_kernel`; 1 x 1 when unused).
    """

    floor: Any
    goalm: Any
    goals: Any
    dead: Any
    dist: Any
    off: Any
    zbox: Any
    zpl: Any
    garea: Any
    forder: Any
    fstart: Any
    tunnel: Any
    pairs: Any
    lidx: Any
    fidx: Any
    influence: Any


class Pool(NamedTuple):
    """The states of one direction by node index, and the table that finds them.

    ``boxes[n]`` the sorted box cells, ``player[n]`` the normalised player,
    ``parent[n]``, ``g[n]`` (moves of boxes so far), ``push[n]`` (the move that
    made it, see :func:`encode_push`), ``hash[n]`` (its Zobrist key), ``acc[n]``
    (pushes on its way that improved no feature); ``table`` holds ``node + 1``
    by key (0 empty).
    """

    boxes: Any
    player: Any
    parent: Any
    g: Any
    push: Any
    hash: Any
    acc: Any
    table: Any


class Frontier(NamedTuple):
    """The open states: a binary heap of ``(key, node)`` (``heap``, a :mod:`mazekit._heap` heap
    without ties: an int64 array of two rows, keys and nodes) for the
    best-first and A* searches, or one skew heap per feature cell (roots ``croot``,
    children ``mch``, keys ``mkey``) for the feature-space search."""

    heap: Any
    croot: Any
    mch: Any
    mkey: Any


class Scratch(NamedTuple):
    """Working arrays of one expansion.

    ``boxat`` (cell -> box, -1), ``cells`` (the boxes being moved) and ``sorted_cells`` (a child's
    sorted boxes); ``mark``/``mark2`` the player's region of the node and of a child (by stamp),
    ``queue`` for floods; ``fz`` frozen boxes; ``lab``, ``bseen``, ``allow`` the PI-corral test's;
    ``pa_box``, ``pa_tgt``, ``pa_end`` the packing advisor's choice per goal area, ``pa_move`` its
    move (player's cell and moves) when checked already; ``fg`` the freeze test's cache
    (:class:`~.freeze.FrozenGoals`; a one-slot token backward, which has no freeze test).
    """

    boxat: Any
    mark: Any
    mark2: Any
    queue: Any
    cells: Any
    sorted_cells: Any
    fz: Any
    lab: Any
    bseen: Any
    allow: Any
    pa_box: Any
    pa_tgt: Any
    pa_end: Any
    pa_move: Any
    fg: Any


class Assign(NamedTuple):
    """The Hungarian method's arrays: the node's potentials and matching (``u``, ``v``,
    ``p``), a child's (``u2``, ``v2``, ``p2``) and the shared work arrays; and the
    duals' cache: a child's solution, kept when it is stored, so that its expansion
    need not solve the matching again (``cnode[s]`` the node in slot ``s = node &
    (slots - 1)``, -1 none; ``cu``, ``cv``, ``cp`` its ``u``, ``v``, ``p``, rows in the
    node's sorted order). Any optimal solution gives the same children's bounds, so a
    hit changes no search, only its speed."""

    u: Any
    v: Any
    p: Any
    way: Any
    minv: Any
    used: Any
    u2: Any
    v2: Any
    p2: Any
    cnode: Any
    cu: Any
    cv: Any
    cp: Any


class GoalScratch(NamedTuple):
    """Working arrays of the lone-box searches of the goal macros and the packing
    advisor (:func:`goal_macro_kernel`) and of the feature cells' flood; ``nov`` the novelty's
    flags (:func:`novelty_kernel`)."""

    vis: Any
    stamp: Any
    qbox: Any
    qpl: Any
    qg: Any
    mark: Any
    out: Any
    nov: Any


class Settings(NamedTuple):
    """One direction's options, as integers (see :class:`~..options.SearchOptions` and
    :mod:`..plan`), 0 meaning off.

    ``optimal`` (A*), ``weight`` (the key is ``weight * h + g``), ``corrals`` (PI-corral pruning),
    ``backward`` (this direction pulls), ``goal_player`` (the backward goal region's least cell),
    ``macros`` (tunnel and goal macros), ``fess`` (feature-space), ``corral_nodes``,
    ``corral_boxes``, ``corral_grow`` (the corral-deadlock test's bounds), ``player_penalty``
    (added to a backward bound whose player cannot reach the goal region), ``move_weight`` (the
    key's share of the pushes that improved no feature), ``pack_advisor`` (the advisor's search
    bound), ``room_feature`` (the feature cells count blocked tunnels), ``box_runs`` (a push of
    the box last moved, on the same way, is free), ``novelty`` (its width: a push to a new
    position is free), ``novelty_cells`` (new positions go to twin cells instead),
    ``pack_tries`` (the boxes the advisor tries for each goal area), ``relevance_window``,
    ``relevance_distant``, ``relevance_reach`` (the relevance cuts).
    """

    optimal: int
    weight: int
    corrals: int
    backward: int
    goal_player: int
    macros: int
    fess: int
    corral_nodes: int
    corral_boxes: int
    corral_grow: int
    player_penalty: int
    move_weight: int
    pack_advisor: int
    room_feature: int
    box_runs: int
    novelty: int
    novelty_cells: int
    pack_tries: int
    relevance_window: int
    relevance_distant: int
    relevance_reach: int


@njit
def encode_push(macro, steps, cell, d):  # type: ignore[no-untyped-def]
    """The push code of a move of ``steps`` pushes from ``cell`` in direction ``d``
    (``macro`` 1: a goal macro or advisor's move)."""
    return (macro << PUSH_MACRO_SHIFT) | (steps << PUSH_STEPS_SHIFT) | (cell * 4 + (d & 3))


class CorralScratch(NamedTuple):
    """Working arrays of the corral-deadlock test (:func:`~.corrals.corral_deadlock_kernel`).

    ``clab`` the corral labels by cell, ``cgen`` the label and stamp counter, ``bst`` the boxes'
    stamps, ``blist`` the corral's boxes (B), ``sboxat`` and ``smark`` B's board and the player's
    region in the small search, ``qb``/``qp`` its queue of positions and players, ``vb``/``vp``
    the positions it visited and their least player cells, ``vtab``/``vgen`` their table and its
    generations, ``scells`` the position at hand, ``fz2`` the freeze test's flags, ``ckey``/``cval``
    the verdicts' cache, ``cstat`` the checks, cache hits and deadlocks counted, ``cq`` a queue for
    floods.
    """

    clab: Any
    cgen: Any
    bst: Any
    blist: Any
    sboxat: Any
    smark: Any
    qb: Any
    qp: Any
    vb: Any
    vp: Any
    vtab: Any
    vgen: Any
    scells: Any
    fz2: Any
    ckey: Any
    cval: Any
    cstat: Any
    cq: Any
