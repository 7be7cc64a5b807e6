"""One search direction: its settings, its static arrays, its growable node pool and its
scratch space, as the compiled kernels take them (:mod:`.kernels.state`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .kernels.freeze import frozen_goals_cache
from .kernels.state import (
    C_CAP,
    C_HEAP,
    C_LAB,
    C_NODES,
    C_ROOTS,
    NCONN,
    NCTR,
    NHOT,
    NOOP,
    Assign,
    Board,
    CorralScratch,
    Frontier,
    GoalScratch,
    Pool,
    Scratch,
    Settings,
)
from .kernels.store import rehash_kernel
from .options import CORRAL_MAX_NODES, Relevance
from .prepare import NO_AREAS, GoalAreas, Prepared

__all__ = ["Direction", "NodeArrays"]

#: The most bytes the novelty's table of pairs may take (see ``SearchOptions.novelty``).
NOVELTY_BYTES = 64 << 20
#: The dead pairs' table of a direction that does not use one, and its cell indices.
NO_PAIRS = (np.zeros((1, 1, 1), dtype=np.uint8), np.full(1, -1, dtype=np.int32), np.full(1, -1, dtype=np.int32))
#: The influence table of a direction without relevance cuts.
NO_INFLUENCE = np.full((1, 1), 255, dtype=np.uint8)
#: The tunnel labels of a direction that does not count them.
NO_TUNNELS = np.full(1, -1, dtype=np.int32)
#: The table of a direction's missing other direction: empty.
EMPTY_TABLE = np.zeros(1, dtype=np.int32)


def _novelty_table(width: int, nb: int, ncells: int) -> np.ndarray:
    """The seen flags of :func:`~._kernels.novelty_kernel`, a byte per packing and cell (width
    1) or pair of cells (width 2); one entry when off."""
    if not width:
        return np.zeros((1, 1, 1), dtype=np.uint8)
    return np.zeros((nb + 1, ncells, ncells if width >= 2 else 1), dtype=np.uint8)


def cap_for(memory: int, nb: int, box_bytes: int) -> int:
    # pool: boxes + player, parent, g, push, move weight (4 each) + hash (8);
    # table: 2 slots of 4 bytes; heap: 1.5 entries of 16 bytes (an int64 key and node)
    per_node = nb * box_bytes + 20 + 8 + 8 + 24
    return max(16, min(memory // per_node, (1 << 31) - 2))


class NodeArrays:
    """The growable search arrays (node pool, table, heap)."""

    def __init__(self, nb: int, box_dtype: type, cap: int) -> None:
        self.nb = nb
        self.box_dtype = box_dtype
        self.cap = 0
        self.pboxes: NDArray[Any] = np.empty((0, nb), dtype=box_dtype)
        self.pplayer = np.empty(0, dtype=np.int32)
        self.pparent = np.empty(0, dtype=np.int32)
        self.pg = np.empty(0, dtype=np.int32)
        self.pacc = np.empty(0, dtype=np.int32)
        self.ppush = np.empty(0, dtype=np.int32)
        self.phash = np.empty(0, dtype=np.int64)
        self.table = np.zeros(1, dtype=np.int32)
        self.heap = np.empty((2, 0), dtype=np.int64)  # a mazekit._heap heap: keys, nodes
        self.mch = np.empty(0, dtype=np.int32)
        self.mkey = np.empty(0, dtype=np.int64)
        self.grow(cap, 0, 0)

    def pool(self) -> Pool:
        """The node pool and its table, as the kernels take them."""
        return Pool(self.pboxes, self.pplayer, self.pparent, self.pg, self.ppush, self.phash, self.pacc, self.table)

    def frontier(self, croot: NDArray[np.int32]) -> Frontier:
        """The open list (heap and feature cells' heaps), as the kernels take it."""
        return Frontier(self.heap, croot, self.mch, self.mkey)

    def grow(self, cap: int, nodes: int, heap: int) -> None:
        def bigger(a: NDArray[Any], n: int) -> NDArray[Any]:
            b = np.empty((n,) + a.shape[1:], dtype=a.dtype)
            b[: a.shape[0]] = a
            return b

        self.pboxes = bigger(self.pboxes, cap)
        self.pplayer = bigger(self.pplayer, cap)
        self.pparent = bigger(self.pparent, cap)
        self.pg = bigger(self.pg, cap)
        self.pacc = bigger(self.pacc, cap)
        self.ppush = bigger(self.ppush, cap)
        self.phash = bigger(self.phash, cap)
        self.mch = bigger(self.mch, 2 * cap)
        self.mkey = bigger(self.mkey, cap)
        hcap = cap + cap // 2 + 8
        grown = np.empty((2, hcap), dtype=np.int64)
        grown[:, : self.heap.shape[1]] = self.heap
        self.heap = grown
        tsize = 1
        while tsize < 2 * cap:
            tsize *= 2
        if tsize != self.table.shape[0]:
            self.table = np.zeros(tsize, dtype=np.int32)
            rehash_kernel.pick(nodes + 1)(self.table, self.phash, nodes)
        self.cap = cap


class Direction:
    """One search direction: its static arrays, its growable pool and its scratch space.

    Its roots are the boxes on ``roots_boxes`` with the player on each of ``roots_player``;
    ``dead`` and ``dist`` are its own dead squares and distances (backward: to the start's box
    cells), ``areas`` its goal areas (None: none). A part it does not use gets a placeholder
    of the right type (the kernels' groups hold every array).
    """

    def __init__(
        self,
        prep: Prepared,
        settings: Settings,
        max_cap: int,
        roots: tuple[NDArray[np.int64], list[int]],
        dead: NDArray[np.uint8],
        dist: NDArray[np.int32],
        areas: GoalAreas | None = None,
    ) -> None:
        prob = prep.problem
        roots_boxes, roots_player = roots
        nb = len(prob.boxes)
        ncells = prob.height * prob.width
        box_dtype: type = np.int16 if ncells < 32767 else np.int32
        self.settings = settings
        backward = bool(settings.backward)
        self.max_cap = max(max_cap, len(roots_player) + 16)
        self.arr = NodeArrays(nb, box_dtype, min(self.max_cap, max(1 << 14, len(roots_player) + 16)))
        for r, pl in enumerate(roots_player):
            self.arr.pboxes[r] = roots_boxes
            self.arr.pplayer[r] = pl
        self.ctr = np.zeros(NCTR, dtype=np.int64)
        self.ctr[C_LAB] = 1
        self.ctr[C_CAP] = self.arr.cap
        self.ctr[C_ROOTS] = len(roots_player)
        nbm = max(nb, 1)
        ng = len(prob.goals)
        nareas = max(1, 0 if areas is None else len(areas.fstart) - 1)
        self.scratch = Scratch(
            boxat=np.full(ncells, -1, dtype=np.int32),
            mark=np.zeros(ncells, dtype=np.int64),
            mark2=np.zeros(ncells, dtype=np.int64),
            queue=np.empty(ncells, dtype=np.int64),
            cells=np.empty(nb, dtype=np.int64),
            sorted_cells=np.empty(nb, dtype=np.int64),
            fz=np.zeros(nbm, dtype=np.uint8),
            lab=np.zeros(ncells, dtype=np.int64),
            bseen=np.zeros(nbm, dtype=np.int64),
            allow=np.zeros(4 * nbm, dtype=np.uint8),
            pa_box=np.full(nareas, -1, dtype=np.int64),
            pa_tgt=np.full(nareas, -1, dtype=np.int64),
            pa_end=np.empty(nareas, dtype=np.int64),
            pa_move=np.zeros((nareas, 2), dtype=np.int64),
            # the freeze test runs forward only: the backward direction's cache is a token one
            fg=frozen_goals_cache(1, 1, 1, most=1) if backward else frozen_goals_cache(nb, ng, ncells),
        )
        self.assign = Assign(
            u=np.zeros(nbm + 1, dtype=np.int64),
            v=np.zeros(ng + 1, dtype=np.int64),
            p=np.zeros(ng + 1, dtype=np.int64),
            way=np.zeros(ng + 1, dtype=np.int64),
            minv=np.zeros(ng + 1, dtype=np.int64),
            used=np.zeros(ng + 1, dtype=np.uint8),
            u2=np.zeros(nbm + 1, dtype=np.int64),
            v2=np.zeros(ng + 1, dtype=np.int64),
            p2=np.zeros(ng + 1, dtype=np.int64),
            **duals_cache(nbm, ng),
        )
        self.goal_scratch = GoalScratch(
            vis=np.zeros(4 * ncells, dtype=np.int64),
            stamp=np.zeros(1, dtype=np.int64),
            qbox=np.empty(4 * ncells + 1, dtype=np.int64),
            qpl=np.empty(4 * ncells + 1, dtype=np.int64),
            qg=np.empty(4 * ncells + 1, dtype=np.int64),
            mark=np.zeros(ncells, dtype=np.int64),
            out=np.zeros(1, dtype=np.int64),
            nov=_novelty_table(settings.novelty, nb, ncells),
        )
        # the corral test runs in the forward search only: the backward one gets placeholders
        self.corral_scratch = corral_scratch(1, 1, 0, 1) if backward else corral_scratch(ncells, nbm)
        garea, forder, fstart = NO_AREAS if areas is None else areas
        self.board = Board(
            prob.floor, prob.goalm, prob.goals, dead, dist, prob.off, prep.zbox, prep.zpl, garea, forder, fstart,
            NO_TUNNELS, *NO_PAIRS, NO_INFLUENCE,
        )  # fmt: skip
        axes = 2 if settings.novelty_cells else 1  # the new positions' twin cells (see expand_kernel)
        self.croot = np.full(axes * (nb + 1) * NOOP * NHOT * NCONN, -1, dtype=np.int32)
        self.budget = 64

    def cut(self, prep: Prepared, rel: Relevance | None) -> Settings:
        """Turn this direction's relevance cuts on (``rel``; None: they stay off, as does a level
        too large for the influence table); its settings."""
        if rel is None:
            return self.settings
        influence = prep.influence()
        if influence is not None:
            self.board = self.board._replace(influence=influence)
            self.settings = self.settings._replace(
                relevance_window=rel.window, relevance_distant=rel.distant, relevance_reach=rel.reach
            )
        return self.settings

    def run(self, kernel: Any, other: Direction | None) -> int:
        """One slice of at most ``budget`` expansions; the kernel's status."""
        pool = self.arr.pool()
        others = pool._replace(table=EMPTY_TABLE) if other is None else other.arr.pool()
        status = kernel(
            self.board,
            pool,
            self.arr.frontier(self.croot),
            others,
            self.ctr,
            self.settings,
            self.budget,
            self.scratch,
            self.assign,
            self.goal_scratch,
            self.corral_scratch,
        )
        return int(status)

    def grow(self) -> bool:
        """Double the pool; False when the memory cap forbids it."""
        if self.arr.cap >= self.max_cap:
            return False
        self.arr.grow(min(self.max_cap, self.arr.cap * 2), int(self.ctr[C_NODES]), int(self.ctr[C_HEAP]))
        self.ctr[C_CAP] = self.arr.cap
        return True


#: Memory of one direction's duals' cache (see ``K.Assign``), and its bounds in slots.
DUALS_BYTES = 32 << 20
DUALS_SLOTS = (1 << 8, 1 << 16)


def duals_cache(nb: int, ng: int) -> dict[str, np.ndarray]:
    """The duals' cache of ``K.Assign``: a power of two of slots, as many as fit in
    :data:`DUALS_BYTES` within :data:`DUALS_SLOTS` (empty arrays: only the slots a
    search fills are ever touched)."""
    row = 8 * (nb + 1 + 2 * (ng + 1))
    lo, hi = DUALS_SLOTS
    slots = max(lo, min(hi, 1 << max(0, (DUALS_BYTES // row).bit_length() - 1)))
    return {
        "cnode": np.full(slots, -1, dtype=np.int64),
        "cu": np.empty((slots, nb + 1), dtype=np.int64),
        "cv": np.empty((slots, ng + 1), dtype=np.int64),
        "cp": np.empty((slots, ng + 1), dtype=np.int64),
    }


def corral_scratch(ncells: int, nb: int, max_nodes: int = CORRAL_MAX_NODES, cache: int = 1 << 16) -> CorralScratch:
    """Scratch space of :func:`~.kernels.corrals.corral_deadlock_kernel` for searches of at most
    ``max_nodes`` positions and a verdict cache of ``cache`` slots (a power of 2)."""
    queue = 16 * max_nodes
    return CorralScratch(
        np.zeros(ncells, dtype=np.int64),  # clab: corral labels
        np.zeros(1, dtype=np.int64),  # cgen: label and stamp counter
        np.zeros(nb, dtype=np.int64),  # bst: box stamps
        np.zeros(nb, dtype=np.int64),  # blist: the corral's boxes
        np.full(ncells, -1, dtype=np.int32),  # sboxat
        np.zeros(ncells, dtype=np.int64),  # smark
        np.zeros((queue, nb), dtype=np.int32),  # qb: queued positions
        np.zeros(queue, dtype=np.int64),  # qp: their players
        np.zeros((max_nodes, nb), dtype=np.int32),  # vb: visited positions
        np.zeros(max_nodes, dtype=np.int64),  # vp: their normalised players
        np.zeros(max(4 * max_nodes, 1), dtype=np.int64),  # vtab: visited table
        np.zeros(max(4 * max_nodes, 1), dtype=np.int64),  # vgen: its generations
        np.zeros(nb, dtype=np.int64),  # scells
        np.zeros(nb, dtype=np.uint8),  # fz2
        np.full(cache, -1, dtype=np.int64),  # ckey: cache keys
        np.zeros(cache, dtype=np.uint8),  # cval: cached verdicts
        np.zeros(4, dtype=np.int64),  # cstat: checks, cache hits, deadlocks
        np.empty(ncells, dtype=np.int64),  # cq: flood queue
    )
