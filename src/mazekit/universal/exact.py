"""Exact search: a shortest universal string, proven shortest.

A* over *sets* of robot positions. The start state is the set of all free cells
(the exit excluded), a command maps a set to the set of the robots' new cells
(robots that meet merge, robots that reach the exit leave), and the goal is the
empty set. The heuristic is the pair bound of the set: the largest pair
distance (see :mod:`mazekit.universal.bounds`) over two robots of the set. It is
*consistent* (one command lowers any pair distance by at most one), so the
first time the empty set is met its depth is the optimum, and the smallest
``f = g + h`` left on the frontier is a lower bound when the search is cut short.

Sets are bitsets of uint64 words; one compiled kernel call expands a set into
its four children and bounds them.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from . import _kernels as K
from ._model import Model

__all__ = ["ExactOutcome", "astar_codes", "polish_codes"]


@dataclass(frozen=True, slots=True, eq=False)
class ExactOutcome:
    """What the exact search established.

    Attributes
    ----------
    codes : ndarray of int8 or None
        A string shorter than ``limit`` (proven shortest), or None.
    lower_bound : int
        No string is shorter than this.
    complete : bool
        True when the search ran to its end (found, or proved that nothing
        shorter than ``limit`` exists); False when a budget stopped it.
    expanded : int
        Sets expanded.
    """

    codes: NDArray[np.int8] | None
    lower_bound: int
    complete: bool
    expanded: int


def astar_codes(  # noqa: C901 - the exact search with its budget and deadline; issue #18 reworks it
    model: Model,
    table: NDArray[np.int32],
    *,
    limit: int,
    cells: NDArray[np.integer] | None = None,
    node_limit: int | None = None,
    deadline: float | None = None,
    progress: Callable[[str], None] | None = None,
    stop: Callable[[], bool] | None = None,
    triples: NDArray[np.int16] | None = None,
) -> ExactOutcome:
    """A* for a string of length ``< limit`` that frees the robots on ``cells``.

    ``cells`` defaults to every start; ``table`` is the full pair table;
    ``triples``, the triple table, strengthens the bound (then it is admissible
    but not always consistent: a child's bound is raised to its parent's minus
    one, and a set is expanded again when reached by a shorter string).
    """
    n = model.n
    n1 = n + 1
    if cells is None:
        cells = np.arange(n, dtype=np.int64)
    cells = np.asarray(cells, dtype=np.int64)
    picked: NDArray[np.int64] = np.asarray(cells, dtype=np.int64)
    if cells.size == 0:
        return ExactOutcome(np.empty(0, dtype=np.int8), 0, True, 0)
    if triples is not None:
        return _astar_compiled(
            model,
            table,
            triples,
            limit=limit,
            cells=picked,
            node_limit=node_limit,
            deadline=deadline,
            progress=progress,
            stop=stop,
        )
    nw = (n + 63) // 64
    bits = np.zeros(nw * 64, dtype=bool)
    bits[cells] = True
    start = np.packbits(bits, bitorder="little").view("<u8").astype(np.uint64)
    members = np.empty(n1, dtype=np.int32)
    h0 = int(table.reshape(n1, n1)[np.ix_(cells, cells)].max())
    if triples is not None:
        h0 = max(h0, int(triples.reshape(n1, n1, n1)[np.ix_(cells, cells, cells)].max()))
    if h0 >= limit:
        return ExactOutcome(None, h0, True, 0)
    # called once per expansion: many
    kern = K.expand_kernel.pick(n1 * n1 * 64) if triples is None else K.expand3_kernel.pick(n1 * n1 * 64)
    out_words = np.empty((4, nw), dtype=np.uint64)
    out_h = np.empty(4, dtype=np.int64)
    key0 = start.tobytes()
    best_g: dict[bytes, int] = {key0: 0}
    parent: dict[bytes, tuple[bytes, int]] = {}
    tick = itertools.count()
    heap: list[tuple[int, int, int, bytes]] = [(h0, 0, next(tick), key0)]
    expanded = 0
    started = last = time.monotonic()
    goal_key: bytes | None = None
    lower = h0
    while heap:
        f, neg_g, _, key = heapq.heappop(heap)
        g = -neg_g
        if best_g.get(key, -1) != g:
            continue
        lower = max(lower, f)
        expanded += 1
        if (expanded & 1023) == 0:
            now = time.monotonic()
            if (
                (node_limit is not None and expanded > node_limit)
                or (deadline is not None and now > deadline)
                or (stop is not None and stop())
            ):
                return ExactOutcome(None, lower, False, expanded)
            if progress is not None and now - last > 1.0:
                last = now
                progress(f"exact: {expanded} sets expanded, {len(best_g)} seen, bound {lower}, {now - started:.1f} s")
        words = np.frombuffer(key, dtype=np.uint64)
        if triples is None:
            kern(model.nxt, table, words, out_words, out_h, members)
        else:
            kern(model.nxt, table, triples, words, out_words, out_h, members, limit - g - 1)
        g1 = g + 1
        floor = f - g - 1  # pathmax: a child needs at least its parent's bound minus one
        for k in range(4):
            h = int(out_h[k])
            h = max(h, floor) if h else 0  # (0: the empty set, the goal)
            if g1 + h >= limit:
                continue
            child = out_words[k].tobytes()
            if h == 0:
                parent[child] = (key, k)
                goal_key = child
                break
            old = best_g.get(child)
            if old is not None and old <= g1:
                continue
            best_g[child] = g1
            parent[child] = (key, k)
            heapq.heappush(heap, (g1 + h, -g1, next(tick), child))
        if goal_key is not None:
            break
    if goal_key is None:
        return ExactOutcome(None, limit, True, expanded)
    codes: list[int] = []
    key = goal_key
    while key != key0:
        key, k = parent[key]
        codes.append(k)
    codes.reverse()
    return ExactOutcome(np.array(codes, dtype=np.int8), len(codes), True, expanded)


#: Most sets the compiled exact search keeps (about 60 bytes each for mazes of 128 cells).
NODE_CAP = 4_000_000


def _astar_compiled(
    model: Model,
    table: NDArray[np.int32],
    triples: NDArray[np.int16],
    *,
    limit: int,
    cells: NDArray[np.int64],
    node_limit: int | None,
    deadline: float | None,
    progress: Callable[[str], None] | None,
    stop: Callable[[], bool] | None,
) -> ExactOutcome:
    """:func:`astar_codes` with the triple table, the whole loop compiled (``astar_kernel``)."""
    n1 = model.n + 1
    nw = (model.n + 63) // 64
    h0 = int(table.reshape(n1, n1)[np.ix_(cells, cells)].max())
    h0 = max(h0, int(triples.reshape(n1, n1, n1)[np.ix_(cells, cells, cells)].max()))
    if h0 >= limit:
        return ExactOutcome(None, h0, True, 0)
    cap = NODE_CAP if node_limit is None else max(1024, min(NODE_CAP, 4 * node_limit + 16))
    words = np.empty((cap, nw), dtype=np.uint64)
    bits = np.zeros(nw * 64, dtype=bool)
    bits[cells] = True
    words[0] = np.packbits(bits, bitorder="little").view("<u8")
    gbest = np.empty(cap, dtype=np.int32)
    hval = np.empty(cap, dtype=np.int32)
    parent = np.empty(cap, dtype=np.int32)
    pmove = np.empty(cap, dtype=np.int8)
    slots = np.full(1 << (2 * cap - 1).bit_length(), -1, dtype=np.int32)
    ent_node = np.empty(2 * cap, dtype=np.int32)
    ent_g = np.empty(2 * cap, dtype=np.int32)
    ent_next = np.empty(2 * cap, dtype=np.int32)
    head = np.full(limit + 1, -1, dtype=np.int32)
    gbest[0], hval[0] = 0, h0
    ent_node[0], ent_g[0], ent_next[0], head[h0] = 0, 0, -1, 0
    # the start set in the table, so that it is never queued again
    from ._kernels import _words_slot

    slots[int(_words_slot.py_func(words, 0, nw, len(slots) - 1))] = 0
    state = np.array([1, 1, h0, 0, -1], dtype=np.int64)
    kern = K.astar_kernel.pick(n1 * n1 * 64)
    started = last = time.monotonic()
    lower = h0
    chunk = 20_000
    while True:
        budget = chunk if node_limit is None else min(chunk, node_limit - int(state[3]))
        if budget <= 0:
            return ExactOutcome(None, lower, False, int(state[3]))
        code = int(
            kern(
                model.nxt,
                table,
                triples,
                limit,
                budget,
                words,
                gbest,
                hval,
                parent,
                pmove,
                slots,
                ent_node,
                ent_g,
                ent_next,
                head,
                state,
            )
        )
        expanded = int(state[3])
        lower = max(lower, min(int(state[2]), limit))
        if code == 0:
            break
        if code == 1:
            return ExactOutcome(None, limit, True, expanded)
        if code == 3:
            return ExactOutcome(None, lower, False, expanded)
        now = time.monotonic()
        if (deadline is not None and now > deadline) or (stop is not None and stop()):
            return ExactOutcome(None, lower, False, expanded)
        if progress is not None and now - last > 1.0:
            last = now
            progress(f"exact: {expanded} sets expanded, {int(state[0])} seen, bound {lower}, {now - started:.1f} s")
    codes: list[int] = []
    node = int(state[4])
    while node != 0:
        codes.append(int(pmove[node]))
        node = int(parent[node])
    codes.reverse()
    return ExactOutcome(np.array(codes, dtype=np.int8), len(codes), True, int(state[3]))


def polish_codes(
    model: Model,
    table: NDArray[np.int32],
    codes: NDArray[np.int8],
    *,
    budget: int = 8_000,
    deadline: float | None = None,
    sizes: tuple[int, ...] = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64),
    triples: NDArray[np.int16] | None = None,
) -> NDArray[np.int8]:
    """Shorten a universal string by replacing its tail with an optimal one.

    For growing ``s`` in ``sizes``: take the first prefix after which at most
    ``s`` robots remain, and search (A*, ``budget`` expansions) for a string
    shorter than the rest of ``codes`` that frees those robots; splice it in.
    Stops at the first search that runs out of budget (bigger sets are harder).
    The result frees every start whenever ``codes`` does. ``triples``: the
    triple table, for the compiled search with the stronger bound.
    """
    n = model.n
    mark = np.zeros(n + 1, dtype=np.int32)
    kern = K.run_set_kernel.pick(n * 8)
    last_cut = -1
    for target in sizes:
        if target >= n:
            break
        length = len(codes)
        pos = np.arange(n, dtype=np.int32)
        trace = np.empty(length, dtype=np.int64)
        kern(model.nxt, codes, pos, n, mark, trace)
        hits = np.flatnonzero(trace <= target)
        if hits.size == 0:
            continue
        cut = int(hits[0]) + 1
        if cut >= length or cut == last_cut:
            continue
        last_cut = cut
        pos = np.arange(n, dtype=np.int32)
        count = int(kern(model.nxt, codes[:cut], pos, n, mark, trace[:cut]))
        out = astar_codes(
            model, table, limit=length - cut, cells=pos[:count], node_limit=budget, deadline=deadline, triples=triples
        )
        if out.codes is not None:
            codes = np.concatenate([codes[:cut], out.codes]).astype(np.int8)
        elif not out.complete:
            break
    return codes
