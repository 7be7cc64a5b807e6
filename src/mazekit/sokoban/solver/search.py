"""Push-level best-first search for Sokoban: :func:`solve`.

The wrapper prepares the level (:mod:`.problem`), allocates the node pool, the
transposition table and the heap as NumPy arrays, and calls the compiled
:func:`~._kernels.search_kernel` in slices of a few thousand expansions, checking
the clock, the memory cap and Ctrl-C between slices. The solution is rebuilt
from the parent links as a list of pushes, then as a LURD string with the
player's shortest walks between pushes.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from . import _kernels as K
from .problem import LETTERS, Problem, as_problem

__all__ = ["Solution", "SearchStats", "SearchResult", "solve", "search_level", "lurd_of", "DEFAULT_MEMORY"]

#: Default memory cap of one search, in bytes (4 GiB).
DEFAULT_MEMORY = 4 << 30

Stop = Literal["solved", "unsolvable", "time", "memory", "interrupted"]


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What a search did.

    Attributes
    ----------
    nodes : int
        States stored (the transposition table's size).
    expanded : int
        States expanded.
    time : float
        Wall-clock seconds, compilation included.
    stopped : str
        Why it stopped: ``"solved"``, ``"unsolvable"`` (every reachable state
        was tried), ``"time"``, ``"memory"`` or ``"interrupted"``.
    """

    nodes: int
    expanded: int
    time: float
    stopped: Stop


@dataclass(frozen=True, slots=True)
class Solution:
    """A solution: the LURD string (lower case walks, upper case pushes) and its counts.

    ``optimal`` is True when the search proved that no solution has fewer pushes.
    """

    lurd: str
    moves: int
    pushes: int
    optimal: bool
    stats: SearchStats = field(compare=False)


@dataclass(slots=True)
class SearchResult:
    """The outcome of :func:`search_level`: the solution (or None) and the stats either way."""

    solution: Solution | None
    stats: SearchStats


def _cap_for(memory: int, nb: int, box_bytes: int) -> int:
    # pool: boxes + player, parent, g, push (4 each) + hash (8);
    # table: 2 slots of 4 bytes; heap: 1.5 entries of 12 bytes
    per_node = nb * box_bytes + 16 + 8 + 8 + 18
    return max(16, min(memory // per_node, (1 << 31) - 2))


class _Arrays:
    """The growable search arrays (node pool, table, heap)."""

    def __init__(self, nb: int, box_dtype: type, cap: int) -> None:
        self.nb = nb
        self.box_dtype = box_dtype
        self.cap = 0
        self.pboxes: NDArray[Any] = np.empty((0, nb), dtype=box_dtype)
        self.pplayer = np.empty(0, dtype=np.int32)
        self.pparent = np.empty(0, dtype=np.int32)
        self.pg = np.empty(0, dtype=np.int32)
        self.ppush = np.empty(0, dtype=np.int32)
        self.phash = np.empty(0, dtype=np.int64)
        self.table = np.zeros(1, dtype=np.int32)
        self.hkey = np.empty(0, dtype=np.int64)
        self.hnode = np.empty(0, dtype=np.int32)
        self.grow(cap, 0, 0)

    def grow(self, cap: int, nodes: int, heap: int) -> None:
        def bigger(a: NDArray[Any], n: int) -> NDArray[Any]:
            b = np.empty((n,) + a.shape[1:], dtype=a.dtype)
            b[: a.shape[0]] = a
            return b

        self.pboxes = bigger(self.pboxes, cap)
        self.pplayer = bigger(self.pplayer, cap)
        self.pparent = bigger(self.pparent, cap)
        self.pg = bigger(self.pg, cap)
        self.ppush = bigger(self.ppush, cap)
        self.phash = bigger(self.phash, cap)
        hcap = cap + cap // 2 + 8
        self.hkey = bigger(self.hkey, hcap)
        self.hnode = bigger(self.hnode, hcap)
        tsize = 1
        while tsize < 2 * cap:
            tsize *= 2
        if tsize != self.table.shape[0]:
            self.table = np.zeros(tsize, dtype=np.int32)
            K.rehash_kernel.pick(nodes + 1)(self.table, self.phash, nodes)
        self.cap = cap


def _pushes(prob: Problem, arrays: _Arrays, node: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    while node > 0:
        code = int(arrays.ppush[node])
        out.append((code >> 2, code & 3))
        node = int(arrays.pparent[node])
    out.reverse()
    return out


def _walk(prob: Problem, boxes: set[int], start: int, goal: int) -> str:
    """Shortest walk (lower-case letters) from ``start`` to ``goal`` around ``boxes``."""
    if start == goal:
        return ""
    prev: dict[int, tuple[int, int]] = {start: (-1, -1)}
    todo = deque([start])
    while todo:
        x = todo.popleft()
        for d in range(4):
            y = x + int(prob.off[d])
            if prob.floor[y] and y not in boxes and y not in prev:
                prev[y] = (x, d)
                if y == goal:
                    steps = []
                    while y != start:
                        y, dd = prev[y]
                        steps.append(LETTERS[dd])
                    return "".join(reversed(steps))
                todo.append(y)
    raise AssertionError("no walk to the pushing cell: the search state was inconsistent")


def lurd_of(prob: Problem, pushes: list[tuple[int, int]]) -> str:
    """The LURD string of a list of pushes ``(box cell, direction)`` from the start."""
    boxes = {int(b) for b in prob.boxes}
    player = int(prob.player)
    parts = []
    for cell, d in pushes:
        step = int(prob.off[d])
        parts.append(_walk(prob, boxes, player, cell - step))
        parts.append(LETTERS[d].upper())
        boxes.remove(cell)
        boxes.add(cell + step)
        player = cell
    return "".join(parts)


def search_level(
    level: Any,
    *,
    time_limit: float | None = 10.0,
    optimal: bool = False,
    memory: int = DEFAULT_MEMORY,
    weight: int = 3,
    corrals: bool = True,
    slice_seconds: float = 0.05,
) -> SearchResult:
    """Run the search; return the solution (or None) with the statistics.

    See :func:`solve` for the parameters; ``weight`` is the fast mode's weight
    on the bound (key ``weight * h + g``).
    """
    t0 = time.perf_counter()
    prob = as_problem(level)
    nb = len(prob.boxes)
    ncells = prob.height * prob.width
    box_dtype: type = np.int16 if ncells < 32767 else np.int32
    max_cap = _cap_for(int(memory), nb, np.dtype(box_dtype).itemsize)
    arr = _Arrays(nb, box_dtype, min(max_cap, 1 << 14))
    arr.pboxes[0] = prob.boxes
    arr.pplayer[0] = prob.player
    rng = np.random.default_rng(0x5EED)
    zbox = rng.integers(0, 1 << 62, size=ncells, dtype=np.int64)
    zpl = rng.integers(0, 1 << 62, size=ncells, dtype=np.int64)
    ctr = np.zeros(K.NCTR, dtype=np.int64)
    ctr[K.C_LAB] = 1
    ctr[K.C_CAP] = arr.cap
    nbm = max(nb, 1)
    ng = len(prob.goals)
    boxat = np.full(ncells, -1, dtype=np.int32)
    mark = np.zeros(ncells, dtype=np.int64)
    mark2 = np.zeros(ncells, dtype=np.int64)
    queue = np.empty(ncells, dtype=np.int64)
    cells = np.empty(nb, dtype=np.int64)
    sorted_cells = np.empty(nb, dtype=np.int64)
    u = np.zeros(nbm + 1, dtype=np.int64)
    v = np.zeros(ng + 1, dtype=np.int64)
    p = np.zeros(ng + 1, dtype=np.int64)
    way = np.zeros(ng + 1, dtype=np.int64)
    minv = np.zeros(ng + 1, dtype=np.int64)
    used = np.zeros(ng + 1, dtype=np.uint8)
    u2, v2, p2 = u.copy(), v.copy(), p.copy()
    fz = np.zeros(nbm, dtype=np.uint8)
    lab = np.zeros(ncells, dtype=np.int64)
    bseen = np.zeros(nbm, dtype=np.int64)
    allow = np.zeros(4 * nbm, dtype=np.uint8)
    budget = 64
    status = K.RUNNING
    stopped: Stop = "time"
    # a first small slice runs uncompiled (tiny levels need no compiler);
    # the rest runs compiled
    from ..._jit import THRESHOLD

    kernel = K.search_kernel.pick(ncells)
    try:
        while True:
            ts = time.perf_counter()
            status = int(
                kernel(
                    prob.floor, prob.goalm, prob.dead, prob.dist, prob.off, zbox, zpl,
                    arr.pboxes, arr.pplayer, arr.pparent, arr.pg, arr.ppush, arr.phash,
                    arr.table, arr.hkey, arr.hnode, ctr, 1 if optimal else 0, int(weight),
                    budget, boxat, mark, mark2, queue, cells, sorted_cells,
                    u, v, p, way, minv, used, u2, v2, p2, fz,
                    lab, bseen, allow, 1 if corrals else 0,
                )
            )
            now = time.perf_counter()
            kernel = K.search_kernel.pick(THRESHOLD)
            if status == K.SOLVED:
                stopped = "solved"
                break
            if status == K.EXHAUSTED:
                stopped = "unsolvable"
                break
            if status == K.MEMORY:
                if arr.cap >= max_cap:
                    stopped = "memory"
                    break
                arr.grow(min(max_cap, arr.cap * 2), int(ctr[K.C_NODES]), int(ctr[K.C_HEAP]))
                ctr[K.C_CAP] = arr.cap
            if time_limit is not None and now - t0 >= time_limit:
                stopped = "time"
                break
            spent = now - ts
            if spent < slice_seconds / 2:
                budget = min(budget * 2, 1 << 22)
            elif spent > slice_seconds * 2 and budget > 16:
                budget //= 2
    except KeyboardInterrupt:
        stopped = "interrupted"
    stats = SearchStats(int(ctr[K.C_NODES]), int(ctr[K.C_EXPANDED]), time.perf_counter() - t0, stopped)
    if stopped != "solved":
        return SearchResult(None, stats)
    pushes = _pushes(prob, arr, int(ctr[K.C_SOLUTION]))
    lurd = lurd_of(prob, pushes)
    return SearchResult(Solution(lurd, len(lurd), len(pushes), bool(optimal), stats), stats)


def solve(
    level: Any,
    *,
    time_limit: float | None = 10.0,
    optimal: bool = False,
    memory: int = DEFAULT_MEMORY,
) -> Solution | None:
    """Solve a Sokoban level; return a :class:`Solution` or None.

    Parameters
    ----------
    level : Level, Problem or list of str
        An engine level (:mod:`mazekit.sokoban`), a prepared
        :class:`~.problem.Problem`, or XSB rows.
    time_limit : float or None
        Seconds before giving up (None: no limit).
    optimal : bool
        False (fast): a weighted best-first search that returns any solution.
        True: A* with an admissible bound; the solution has the fewest pushes.
    memory : int
        Bytes the search may use for its states (default 4 GiB).

    Returns
    -------
    Solution or None
        None when no solution was found (unsolvable, or a limit was hit: use
        :func:`search_level` to know which).

    Notes
    -----
    A state is the set of box cells plus the player's region, named by its
    smallest cell. Children are pushes of a box to a neighbouring cell that is
    not a dead square (one from which a lone box reaches no goal) and that do
    not freeze a box off a goal. The bound is the minimum-cost matching of
    boxes to goals on lone-box push distances (Hungarian method, one augmenting
    path per child); no perfect matching is a bipartite deadlock. Duplicates are
    found in a Zobrist-keyed open-addressing table.

    Examples
    --------
    >>> sol = solve(["#######", "#@ $ .#", "#######"], optimal=True)
    >>> sol.lurd, sol.moves, sol.pushes, sol.optimal
    ('rRR', 3, 2, True)
    """
    return search_level(level, time_limit=time_limit, optimal=optimal, memory=memory).solution
