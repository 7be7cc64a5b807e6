"""Lower bounds on the length of a universal escape string.

Two bounds, the second never weaker than the first:

* the **distance bound**: the largest BFS distance from a free cell to the exit
  (a robot that starts there needs at least that many commands);
* the **pair bound**: the largest, over pairs of start cells ``(a, b)``, of the
  length of the shortest string that takes *both* a robot on ``a`` and one on
  ``b`` out. It is the BFS distance in the product graph of pairs, computed for
  all pairs at once by one backward BFS from ``(gone, gone)``, or for big mazes
  over a sample of pairs by forward A* (heuristic: the larger of the two
  distances); a search cut short by its budget still yields a valid bound (the
  smallest ``f`` left), so the sampled bound is valid, only maybe weaker.

>>> from mazekit.universal import bounds, read_maze
>>> passable, exit = read_maze("000\\n0x0\\n")
>>> bounds.distance_bound(passable, exit), bounds.pair_bound(passable, exit).value
(2, 3)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point
from . import _kernels as K
from ._model import Model


class Interrupted(Exception):
    """A deadline passed during a search (internal; the caller keeps what it has)."""


__all__ = [
    "PAIR_SEARCH_BUDGET",
    "PAIR_TABLE_LIMIT",
    "TRIPLE_TABLE_LIMIT",
    "PairBound",
    "distance_bound",
    "pair_bound",
    "pair_distances",
    "triple_bound",
]

#: Largest number of pair states ``(n + 1) ** 2`` for which the full pair table is built.
PAIR_TABLE_LIMIT = 30_000_000
#: Largest number of triple states ``(n + 1) ** 3`` for which the triple table is built.
TRIPLE_TABLE_LIMIT = 8_000_000
#: Pair states a sampled pair may queue before its search stops with a partial bound.
PAIR_SEARCH_BUDGET = 1 << 20


@dataclass(frozen=True, slots=True)
class PairBound:
    """The pair bound and how it was obtained.

    Attributes
    ----------
    value : int
        The bound (-1 when some cell cannot reach the exit).
    pair : ((r, c), (r, c)) or None
        Two start cells that need ``value`` commands together.
    exhaustive : bool
        True when every pair was considered, False for a sample.
    pairs : int
        How many pairs were considered.
    """

    value: int
    pair: tuple[Point, Point] | None
    exhaustive: bool
    pairs: int


def distance_bound(passable: ArrayLike, exit: Point) -> int:
    """The largest BFS distance from a free cell to the exit (-1 if one cannot reach it).

    >>> distance_bound([[1, 1, 1], [0, 0, 1]], (0, 0))
    3
    """
    return _distance_bound(Model(passable, exit))


def _distance_bound(model: Model) -> int:
    d = model.dist[: model.n]
    if d.size == 0:
        return 0
    return -1 if int(d.min()) < 0 else int(d.max())


def _predecessors(nxt: NDArray[np.int32]) -> tuple[NDArray[np.int64], NDArray[np.int32]]:
    """CSR lists: row ``k * N + j`` holds the cells ``i`` with ``nxt[k, i] == j``."""
    n1 = nxt.shape[1]
    keys = (np.arange(4, dtype=np.int64)[:, None] * n1 + nxt).ravel()
    sources = np.tile(np.arange(n1, dtype=np.int32), 4)
    order = np.argsort(keys, kind="stable")
    start = np.zeros(4 * n1 + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=4 * n1), out=start[1:])
    return start, sources[order]


def _pair_table(model: Model, deadline: float | None = None) -> NDArray[np.int32]:
    """The full pair table; raises :class:`Interrupted` when ``deadline`` passes."""
    n1 = model.n + 1
    pstart, plist = _predecessors(model.nxt)
    dist = np.full(n1 * n1, -1, dtype=np.int32)
    queue = np.empty(n1 * n1, dtype=np.int32)
    s0 = model.n * n1 + model.n
    dist[s0] = 0
    queue[0] = s0
    kern = K.pair_bfs_kernel.pick(n1 * n1)
    head, tail = 0, 1
    chunk = 1 << 21
    while head < tail:
        head, tail = kern(model.nxt, pstart, plist, dist, queue, head, tail, chunk)
        head, tail = int(head), int(tail)
        if head < tail and deadline is not None and time.monotonic() > deadline:
            raise Interrupted
    return dist


def _triple_table(model: Model) -> NDArray[np.int16] | None:
    """The triple table (see :func:`~mazekit.universal._kernels.triple_bfs_kernel`), or
    None when it would have more than :data:`TRIPLE_TABLE_LIMIT` states or a cell is stuck."""
    n1 = model.n + 1
    if n1**3 > TRIPLE_TABLE_LIMIT or model.n == 0 or int(model.dist[: model.n].min()) < 0:
        return None
    pstart, plist = _predecessors(model.nxt)
    dist = np.full(n1**3, -1, dtype=np.int16)
    queue = np.empty(n1**3, dtype=np.int32)
    K.triple_bfs_kernel.pick(n1**3)(pstart, plist, n1, dist, queue)
    return dist


def triple_bound(passable: ArrayLike, exit: Point) -> int:
    """The triple bound: the largest, over three start cells, of the shortest string that
    takes all three robots out (never below the pair bound; -1 when a cell is stuck).

    Notes
    -----
    Backward BFS over the ``(n + 1) ** 3`` triple states; refuses (ValueError) more
    than :data:`TRIPLE_TABLE_LIMIT` of them.

    Examples
    --------
    >>> triple_bound([[1, 1, 1, 1]], (0, 1))
    3
    """
    model = Model(passable, exit)
    if model.n and int(model.dist[: model.n].min()) < 0:
        return -1
    if model.n == 0:
        return 0
    table = _triple_table(model)
    if table is None:
        raise ValueError(f"the triple table needs {(model.n + 1) ** 3} states, more than {TRIPLE_TABLE_LIMIT}")
    n1 = model.n + 1
    return int(table.reshape(n1, n1, n1)[: model.n, : model.n, : model.n].max())


def pair_distances(passable: ArrayLike, exit: Point) -> NDArray[np.int32]:
    """For every two free cells, the shortest string that takes both robots out.

    Returns
    -------
    ndarray of int32, shape (R, C, R, C)
        ``out[a][b]`` for cells ``a``, ``b`` (the diagonal ``out[a][a]`` is the
        distance of ``a`` to the exit); -1 where impossible or not a free cell.
        The exit itself counts as distance 0.

    Notes
    -----
    Backward BFS over the ``(n + 1) ** 2`` pair states (``n`` free cells plus
    "gone"); each state has at most 16 predecessors in a grid. Meant for small
    mazes: memory is ``(R*C) ** 2`` integers.

    Examples
    --------
    >>> pd = pair_distances([[1, 1, 1]], (0, 1))
    >>> int(pd[0, 0, 0, 2]), int(pd[0, 0, 0, 0])
    (2, 1)
    """
    model = Model(passable, exit)
    n1 = model.n + 1
    table = _pair_table(model).reshape(n1, n1)
    rows, cols = model.shape
    cell_of = np.full(rows * cols, -1, dtype=np.int64)
    flat = model.cells[:, 0] * cols + model.cells[:, 1]
    cell_of[flat] = np.arange(model.n)
    cell_of[model.exit[0] * cols + model.exit[1]] = model.n
    ok = cell_of >= 0
    out = np.full((rows * cols, rows * cols), -1, dtype=np.int32)
    idx = cell_of[ok]
    out[np.ix_(ok, ok)] = table[np.ix_(idx, idx)]
    return out.reshape(rows, cols, rows, cols)


def pair_bound(
    passable: ArrayLike,
    exit: Point,
    *,
    sample: int | None = None,
) -> PairBound:
    """The pair lower bound (see the module docs).

    Parameters
    ----------
    passable : array_like of bool
        True where a cell is free.
    exit : (r, c)
        The exit.
    sample : int, optional
        Consider only pairs among this many cells (the farthest from the exit
        and an even spread of the rest). Default: every pair when there are at
        most :data:`PAIR_TABLE_LIMIT` pair states, else a sample of 16 cells.

    Returns
    -------
    PairBound

    Examples
    --------
    >>> b = pair_bound([[1, 1, 1, 1]], (0, 1))
    >>> b.value, b.pair, b.exhaustive
    (3, ((0, 0), (0, 3)), True)
    """
    return _pair_bound(Model(passable, exit), sample=sample)[0]


def _pair_bound(
    model: Model, *, sample: int | None = None, deadline: float | None = None
) -> tuple[PairBound, NDArray[np.int32] | None]:
    """The bound and, when it was built, the full pair table."""
    n = model.n
    n1 = n + 1
    if n == 0:
        return PairBound(0, None, True, 0), None
    if int(model.dist[:n].min()) < 0:
        return PairBound(-1, None, True, 0), None
    if sample is None and n1 * n1 <= PAIR_TABLE_LIMIT:
        table = _pair_table(model, deadline)
        view = table.reshape(n1, n1)[:n, :n]
        k = int(np.argmax(view))
        a, b = divmod(k, n)
        pair = (_pt(model, a), _pt(model, b))
        return PairBound(int(view[a, b]), pair, True, n * (n + 1) // 2), table
    size = 16 if sample is None else max(1, int(sample))
    cells = _sample_cells(model, size)
    budget = PAIR_SEARCH_BUDGET
    cap = 1 << (2 * budget).bit_length()
    keys = np.full(cap, -1, dtype=np.int64)
    gval = np.zeros(cap, dtype=np.int32)
    nodes = np.empty(budget, dtype=np.int64)
    ng = np.empty(budget, dtype=np.int32)
    nnext = np.empty(budget, dtype=np.int64)
    dmax = int(model.dist[:n].max())
    head = np.full(4 * dmax + 8, -1, dtype=np.int64)
    kern = K.pair_astar_kernel.pick(budget)
    best = int(model.dist[cells].max())
    best_pair = (int(cells[0]), int(cells[0]))
    exact = True
    count = 0
    for i in range(len(cells)):
        for j in range(i + 1, len(cells)):
            a, b = int(cells[i]), int(cells[j])
            count += 1
            d, ok = kern(model.nxt, model.dist, a, b, budget, keys, gval, nodes, ng, nnext, head)
            keys.fill(-1)
            head.fill(-1)
            if int(d) > best:
                best, best_pair = int(d), (a, b)
            exact = exact and bool(ok)
            if deadline is not None and time.monotonic() > deadline:
                raise Interrupted
    pair = (_pt(model, best_pair[0]), _pt(model, best_pair[1]))
    return PairBound(best, pair, len(cells) == n and exact, count), None


def _sample_cells(model: Model, size: int) -> NDArray[np.int64]:
    n = model.n
    if size >= n:
        return np.arange(n, dtype=np.int64)
    far = np.argsort(-model.dist[:n], kind="stable")[: (size + 1) // 2]
    spread = np.linspace(0, n - 1, size - len(far)).round().astype(np.int64)
    cells = np.unique(np.concatenate([far.astype(np.int64), spread]))
    return cells[np.argsort(-model.dist[cells], kind="stable")]


def _pt(model: Model, i: int) -> Point:
    r, c = model.cells[i]
    return (int(r), int(c))
