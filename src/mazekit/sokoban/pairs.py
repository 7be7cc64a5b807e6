"""Dead pairs: the positions of two boxes alone, the player's region included, from which the
goals can no longer be reached (or, turned round, which the start cannot lead to).

The table is built once per level (:func:`pair_table`) and kept for the last levels seen
(:func:`dead_pairs`): the solver prunes with it in both directions, and the engine's deadlock
checks (:mod:`.deadlock`) read it for the playground.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict

import numpy as np
from numpy.typing import NDArray

from .._jit import compile_seconds
from ._padded_kernels import push_distances_kernel
from ._pair_kernels import PairWork, pair_table_kernel
from .problem import Problem

__all__ = ["PAIR_TABLE_BYTES", "PairTable", "dead_pairs", "pair_table"]

#: Bytes the dead pairs' table may take (live cells squared times floor cells); a larger
#: level searches without it.
PAIR_TABLE_BYTES = 64 << 20
#: A pair table and its cell indices: ``(alive, lidx, fidx)`` (see :func:`pair_table`).
PairTable = tuple[NDArray[np.uint8], NDArray[np.int32], NDArray[np.int32]]
#: Cells a slice of the pair table's build floods, about (a few milliseconds compiled).
PAIR_SLICE = 1 << 18


def pair_table(prob: Problem, *, reach: bool = False, deadline: float = math.inf) -> PairTable | None:
    """The dead pairs of a level: ``(alive, lidx, fidx)`` where ``alive[lidx[a], lidx[b], fidx[p]]``
    is not 0 when boxes on ``a`` and ``b`` alone, the player on ``p``, can still be pushed onto
    two goals: then it is 1 plus the fewest pushes that takes, at most 255 (see
    :func:`~._pair_kernels.pair_table_kernel`); ``lidx`` is -1 off the live cells
    (floor that is no dead square), ``fidx`` off the floor. None for a level of fewer than
    two live cells, or whose table would take more than :data:`PAIR_TABLE_BYTES`, or
    not done when ``time.perf_counter()`` passes ``deadline`` (numba's compiling apart).

    With ``reach``, the start's pairs instead: not 0 (1 plus the fewest pushes) when two of the
    start's boxes alone can be pushed to ``a`` and ``b`` with the player ending on ``p``'s side (live: the cells some
    start box can be pushed to). A position with a pair that is 0 here is reached by no
    solution (the backward search's pruning).

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> p = Problem.from_level(parse_level("#######\\n#.$  .#\\n#$ #  #\\n#  @  #\\n#######"))
    >>> alive, lidx, fidx = pair_table(p)
    >>> a, b = lidx[p.cell(1, 2)], lidx[p.cell(2, 1)]  # the two boxes close the top-left corner
    >>> # player outside: dead; inside: 1 + 4 pushes (the top box three to the right, the other one up)
    >>> int(alive[a, b, fidx[p.player]]), int(alive[a, b, fidx[p.cell(1, 1)]])
    (0, 5)
    >>> seen, lidx, fidx = pair_table(p, reach=True)  # the start itself; the player cannot get in
    >>> int(seen[a, b, fidx[p.player]]), int(seen[a, b, fidx[p.cell(1, 1)]])
    (1, 0)
    """
    ncells = prob.floor.shape[0]
    if reach:
        dist = np.full((len(prob.boxes), ncells), -1, dtype=np.int32)
        push_distances_kernel.pick(ncells * len(prob.boxes))(
            prob.floor, prob.off, prob.boxes, dist, np.empty(ncells, dtype=np.int64)
        )
        live = np.flatnonzero((prob.floor != 0) & (dist >= 0).any(axis=0)).astype(np.int64)
        seedm = np.zeros(ncells, dtype=np.uint8)
        seedm[prob.boxes] = 1
        player, forward = int(prob.player), 1
    else:
        live = np.flatnonzero((prob.floor != 0) & (prob.dead == 0)).astype(np.int64)
        seedm, player, forward = prob.goalm, -1, 0
    floor_cells = np.flatnonzero(prob.floor).astype(np.int64)
    m, nf = len(live), len(floor_cells)
    if m < 2 or m * m * nf > PAIR_TABLE_BYTES:
        return None
    lidx = np.full(ncells, -1, dtype=np.int32)
    lidx[live] = np.arange(m, dtype=np.int32)
    fidx = np.full(ncells, -1, dtype=np.int32)
    fidx[floor_cells] = np.arange(nf, dtype=np.int32)
    alive = np.zeros((m, m, nf), dtype=np.uint8)
    regions = len(prob.regions(prob.boxes[:0])) + 6  # at most, with two boxes (see the kernel)
    work = PairWork(
        prob.floor, prob.off, live, lidx, fidx, floor_cells, seedm, player, forward, alive,
        np.full(ncells, -1, dtype=np.int32), np.zeros(ncells, dtype=np.int64), np.zeros(ncells, dtype=np.int64),
        np.empty(ncells, dtype=np.int64), np.empty(regions * m * m // 2 + 1, dtype=np.int64),
        np.empty(regions, dtype=np.int64), np.zeros(5, dtype=np.int64),
    )  # fmt: skip
    kernel = pair_table_kernel.pick(m * m * nf)
    compiled0 = compile_seconds()
    # slices of about PAIR_SLICE floods, so that the clock is read every few milliseconds
    while not kernel(work, max(1, PAIR_SLICE // nf)):
        if time.perf_counter() - (compile_seconds() - compiled0) > deadline:
            return None
    return alive, lidx, fidx


#: Pair tables of the last levels seen, by what they depend on (the floor and the goals; for the
#: start's pairs, the start too): the portfolio's searches, later solves of the same level and the
#: playground's board share them. At most ``_PAIR_TABLES_KEPT`` tables and ``_PAIR_TABLES_BYTES``
#: bytes in all are kept (a large level's table can take tens of MiB); the newest always is.
_PAIR_TABLES: OrderedDict[tuple[object, ...], PairTable] = OrderedDict()
_PAIR_TABLES_KEPT = 16
_PAIR_TABLES_BYTES = 128 * 2**20


def dead_pairs(prob: Problem, deadline: float = math.inf, *, reach: bool = False) -> PairTable | None:
    """:func:`pair_table` of ``prob`` (with ``reach``, the start's pairs), kept for the last
    levels seen (a table given up at ``deadline`` is not kept: a later search builds it again)."""
    key: tuple[object, ...] = (prob.width, prob.floor.tobytes(), prob.goalm.tobytes())
    if reach:
        key += (prob.boxes.tobytes(), int(prob.player))
    table = _PAIR_TABLES.get(key)
    if table is None:
        table = pair_table(prob, reach=reach, deadline=deadline)
        if table is None:
            return None
        _PAIR_TABLES[key] = table
        while len(_PAIR_TABLES) > 1 and (
            len(_PAIR_TABLES) > _PAIR_TABLES_KEPT
            or sum(a.nbytes for kept in _PAIR_TABLES.values() for a in kept) > _PAIR_TABLES_BYTES
        ):
            _PAIR_TABLES.popitem(last=False)  # the least recently used
    _PAIR_TABLES.move_to_end(key)
    return table
