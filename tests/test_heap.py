"""mazekit._heap, the kernels' one binary heap: the same order as heapq, compiled or not."""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit._heap import heap_grow, heap_new, heap_pop, heap_push

#: A run: pushes (key1 from few values, so that ties happen; key2 likewise) and pops.
OPS = st.lists(
    st.one_of(st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 10**6)), st.just(None)),
    max_size=200,
)


def kernels(compiled: bool) -> tuple[Any, ...]:
    """heap_new, heap_grow, heap_push and heap_pop, compiled by numba or as plain Python."""
    return tuple(k.compiled() if compiled else k.py_func for k in (heap_new, heap_grow, heap_push, heap_pop))


def run(ops: list[tuple[int, int, int] | None], ties: bool, compiled: bool) -> tuple[list[int], list[int]]:
    """Play ``ops`` on the heap and on heapq; return both pop sequences (items)."""
    new, grow, push, pop = kernels(compiled)
    heap = new(1, ties)
    n = 0
    ref: list[tuple[float, ...]] = []
    got, want = [], []
    for seq, op in enumerate(ops):
        if op is None:
            if n:
                got.append(int(pop(heap, n)))
                n -= 1
                want.append(int(heapq.heappop(ref)[-1]))
            continue
        k1, k2, item = op
        if n == heap.shape[1]:
            heap = grow(heap)
        push(heap, n, float(k1), float(k2), seq, item)
        n += 1
        heapq.heappush(ref, (k1, k2, seq, item) if ties else (k1, seq, item))
    while n:
        got.append(int(pop(heap, n)))
        n -= 1
        want.append(int(heapq.heappop(ref)[-1]))
    return got, want


@settings(max_examples=60, deadline=None)
@given(OPS)
def test_the_heap_pops_in_heapqs_order(ops: list[tuple[int, int, int] | None]) -> None:
    for compiled in (False, True):
        got, want = run(ops, ties=True, compiled=compiled)
        assert got == want


@settings(max_examples=60, deadline=None)
@given(OPS)
def test_a_heap_without_ties_pops_a_smallest_first_key(ops: list[tuple[int, int, int] | None]) -> None:
    """Equal first keys come out in no fixed order: each pop is one of the entries with the least key."""
    for compiled in (False, True):
        new, grow, push, pop = kernels(compiled)
        heap, n, held = new(1, False), 0, []
        for op in [*ops, *[None] * len(ops)]:
            if op is None:
                if n:
                    item = int(pop(heap, n))
                    n -= 1
                    least = min(k for k, _ in held)
                    held.remove((least, item))  # a ValueError if the item was not among the least
                continue
            if n == heap.shape[1]:
                heap = grow(heap)
            push(heap, n, float(op[0]), 0.0, 0, op[2])
            n += 1
            held.append((op[0], op[2]))
        assert n == 0 and not held


def test_a_heap_without_ties_holds_two_rows() -> None:
    assert heap_new.py_func(8, False).shape == (2, 8)
    assert heap_new.py_func(0, True).shape == (4, 1)
    h = heap_new.py_func(2, True)
    h[:, :2] = np.arange(8).reshape(4, 2)
    assert (heap_grow.py_func(h)[:, :2] == h).all() and heap_grow.py_func(h).shape == (4, 4)


def reference_pops(ops: list[tuple[int, int, int] | None]) -> list[int]:
    """A plain binary heap of ``(key, item)`` ordered by the key alone, whose sift keeps an equal
    parent above a new entry and moves a child up only when it is strictly smaller: the order
    of equal keys the Sokoban solver's searches were recorded with."""
    keys: list[int] = []
    items: list[int] = []
    out: list[int] = []

    def pop() -> None:
        out.append(items[0])
        key, item = keys.pop(), items.pop()
        if not keys:
            return
        i, size = 0, len(keys)
        while 2 * i + 1 < size:
            c = 2 * i + 1
            if c + 1 < size and keys[c + 1] < keys[c]:
                c += 1
            if keys[c] >= key:
                break
            keys[i], items[i] = keys[c], items[c]
            i = c
        keys[i], items[i] = key, item

    for op in ops:
        if op is None:
            if keys:
                pop()
            continue
        keys.append(op[0])
        items.append(op[2])
        i = len(keys) - 1
        while i > 0 and keys[(i - 1) // 2] > op[0]:
            keys[i], items[i] = keys[(i - 1) // 2], items[(i - 1) // 2]
            i = (i - 1) // 2
        keys[i], items[i] = op[0], op[2]
    while keys:
        pop()
    return out


@settings(max_examples=60, deadline=None)
@given(OPS)
def test_an_integer_heap_without_ties_keeps_the_solvers_order(ops: list[tuple[int, int, int] | None]) -> None:
    """An int64 heap of two rows (the Sokoban solver's open list, keys of 64 bits) pops equal keys
    in the order of the sift alone, the same as the solver's own heap before it used this one."""
    for compiled in (False, True):
        _, _, push, pop = kernels(compiled)
        heap, n, got = np.empty((2, len(ops) + 1), dtype=np.int64), 0, []
        for op in [*ops, *[None] * len(ops)]:
            if op is None:
                if n:
                    got.append(int(pop(heap, n)))
                    n -= 1
                continue
            push(heap, n, (op[0] << 58) | 7, 0, 0, op[2])  # keys past 2**53: exact only as integers
            n += 1
        assert got == reference_pops(ops)
