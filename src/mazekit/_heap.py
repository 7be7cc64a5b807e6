# mypy: allow-untyped-defs, allow-untyped-calls
"""The one binary heap of the compiled kernels (grid search, maze generation, the Sokoban solver).

A heap is one float64 array of shape ``(4, capacity)`` whose columns are its entries: row 0 the
first key, row 1 the item (the caller's payload: a cell, or a pair of cells as ``a * n + b``, an
integer below 2**53), row 2 a second key and row 3 a sequence number. The entry with the smallest
``(key1, key2, seq)`` comes out first: ``seq`` breaks ties in the order of pushing when the
caller counts it up. A heap made with ``ties=False`` has rows 0 and 1 only and orders by the
first key alone: equal keys come out in an order fixed by the sift alone (a new entry stops below
an equal parent; a pop moves a child up only when it is strictly smaller), which random real keys
make moot and which the Sokoban solver's searches rely on. A heap of two rows may also be an
int64 array (the caller makes it with ``np.empty((2, capacity), np.int64)``) for integer keys of
any size: the solver's keys pack two numbers in 64 bits.

The caller keeps the number of entries ``n``: before a push it grows a full heap
(:func:`heap_grow`, when ``n == heap.shape[1]``), then pushes and adds one; a pop returns the
smallest entry's item and the caller takes one off. Why this shape: numba counts references to
every array a function is given, so one array per call is cheaper than four; each row is
contiguous, so a sift reads 8 bytes an entry of the keys it compares; and the functions are
inlined into the kernels that call them.

>>> h = heap_new(2, True)
>>> n = 0
>>> for seq, (key, item) in enumerate([(3.0, 30), (1.0, 10), (2.0, 20), (1.0, 11)]):
...     if n == h.shape[1]:
...         h = heap_grow(h)
...     heap_push(h, n, key, 0.0, seq, item)
...     n += 1
>>> [int(heap_pop(h, n - i)) for i in range(n)]
[10, 11, 20, 30]
"""

from __future__ import annotations

import numpy as np

from ._jit import njit

__all__ = ["heap_grow", "heap_new", "heap_pop", "heap_push"]


@njit(inline="always")
def heap_new(capacity, ties):
    """An empty heap with room for ``capacity`` entries; ``ties``: ordered by ``(key1, key2,
    seq)``, else by ``key1`` alone."""
    return np.empty((4 if ties else 2, max(capacity, 1)), dtype=np.float64)


@njit
def heap_grow(heap):
    """The heap copied into one twice as long (for a heap that is full)."""
    grown = np.empty((heap.shape[0], 2 * heap.shape[1]), dtype=np.float64)
    grown[:, : heap.shape[1]] = heap
    return grown


@njit(inline="always")
def _before(k1, k2, seq, heap, i):
    """Whether the entry ``(k1, k2, seq)`` comes out before entry ``i``."""
    if k1 != heap[0, i] or heap.shape[0] == 2:
        return k1 < heap[0, i]
    if k2 != heap[2, i]:
        return k2 < heap[2, i]
    return seq < heap[3, i]


@njit(inline="always")
def _after(k1, k2, seq, heap, i):
    """Whether entry ``i`` comes out before the entry ``(k1, k2, seq)``."""
    if k1 != heap[0, i] or heap.shape[0] == 2:
        return heap[0, i] < k1
    if k2 != heap[2, i]:
        return heap[2, i] < k2
    return heap[3, i] < seq


@njit(inline="always")
def _less(heap, a, b):
    """Whether entry ``a`` comes out before entry ``b``."""
    if heap[0, a] != heap[0, b] or heap.shape[0] == 2:
        return heap[0, a] < heap[0, b]
    if heap[2, a] != heap[2, b]:
        return heap[2, a] < heap[2, b]
    return heap[3, a] < heap[3, b]


@njit(inline="always")
def _move(heap, to, frm):
    for row in range(heap.shape[0]):
        heap[row, to] = heap[row, frm]


@njit(inline="always")
def _set(heap, i, k1, k2, seq, item):
    heap[0, i] = k1
    heap[1, i] = item
    if heap.shape[0] == 4:
        heap[2, i] = k2
        heap[3, i] = seq


@njit(inline="always")
def heap_push(heap, n, k1, k2, seq, item):
    """Add the entry ``(k1, k2, seq, item)`` to a heap of ``n`` entries, ``n < heap.shape[1]``."""
    i = n  # a hole that moves up while the new entry comes before its parent
    while i > 0:
        p = (i - 1) // 2
        if not _before(k1, k2, seq, heap, p):
            break
        _move(heap, i, p)
        i = p
    _set(heap, i, k1, k2, seq, item)


@njit(inline="always")
def heap_pop(heap, n):
    """Remove the smallest of a heap's ``n`` entries (``n > 0``) and return its item (an int)."""
    out = int(heap[1, 0])
    n -= 1
    k1, item = heap[0, n], heap[1, n]
    k2, seq = (heap[2, n], heap[3, n]) if heap.shape[0] == 4 else (0.0, 0.0)
    i = 0  # a hole that moves down while a child comes before the last entry
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and _less(heap, c + 1, c):
            c += 1
        if not _after(k1, k2, seq, heap, c):
            break
        _move(heap, i, c)
        i = c
    if n > 0:
        _set(heap, i, k1, k2, seq, item)
    return out
