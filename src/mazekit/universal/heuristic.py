"""Heuristic universal strings for mazes too big for the exact search.

* :func:`greedy`: repeatedly send the farthest remaining robot out by its
  shortest route, applying every command to all robots (each round takes at
  least that robot out, so it always ends);
* :func:`beam`: beam search over sets of robots, one command per step, keeping
  the sets with the smallest ``sum(dist) + weight * max(dist) * count``;
* :func:`pair_beam_codes`: the same, keeping the sets with the smallest pair bound
  (ties: the smaller ``sum(dist)``), and dropping the sets that cannot beat an
  upper bound (needs the full pair table).

Both work on a prepared model (see :func:`mazekit.universal.find`, which runs
them and keeps the shorter string).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import _kernels as K
from ._model import Model
from .bounds import Interrupted

__all__ = ["Interrupted", "beam_codes", "greedy_codes", "pair_beam_codes"]

Progress = Callable[[str], None]


def greedy_codes(model: Model, *, farthest: bool = True) -> NDArray[np.int8]:
    """Farthest-first (or nearest-first) greedy commands; the model must be solvable."""
    n = model.n
    pos = np.arange(n, dtype=np.int32)
    mark = np.zeros(n + 1, dtype=np.int32)
    dmax = int(model.dist[:n].max()) if n else 0
    cap = max(16, min(n * max(dmax, 1) + 1, 1 << 28))
    out = np.empty(cap, dtype=np.int8)
    length = int(K.greedy_kernel.pick(n * 4)(model.nxt, model.dist, pos, n, mark, out, farthest))
    if length < 0:  # pragma: no cover - cap is a proven upper bound
        raise RuntimeError("greedy string overflow")
    return out[:length].copy()


def _beam_arrays(n: int, width: int, length: int) -> tuple[NDArray[Any], ...]:
    """The beam kernels' arrays for ``n`` robots, ``width`` sets and strings up to ``length``:
    Zobrist keys (fixed: the result is deterministic), the beam (all robots in its one set),
    the candidates, a mark per robot, and each step's parent slot and move."""
    gen = np.random.default_rng(0x5EED)
    keys = gen.integers(0, 2**63, size=n + 1, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    beam = np.empty((width, n), dtype=np.int32)
    beam[0] = np.arange(n, dtype=np.int32)
    counts = np.zeros(width, dtype=np.int64)
    counts[0] = n
    nbeam = np.array([1], dtype=np.int64)
    cand = np.empty((4 * width, n), dtype=np.int32)
    ccounts = np.zeros(4 * width, dtype=np.int64)
    mark = np.zeros(n + 1, dtype=np.int32)
    parents = np.zeros((length, width), dtype=np.int32)
    pmoves = np.zeros((length, width), dtype=np.int8)
    return keys, beam, counts, nbeam, cand, ccounts, mark, parents, pmoves


def _trace_back(parents: NDArray[Any], pmoves: NDArray[Any], done: int, slot: int) -> NDArray[np.int8]:
    """The string of ``done`` moves that led to the beam's ``slot``, read from the parent links."""
    codes = np.empty(done, dtype=np.int8)
    for t in range(done - 1, -1, -1):
        codes[t] = pmoves[t, slot]
        slot = int(parents[t, slot])
    return codes


def beam_codes(
    model: Model,
    *,
    width: int = 16,
    weight: float = 0.5,
    max_length: int,
    deadline: float | None = None,
    progress: Progress | None = None,
    chunk: int = 256,
) -> NDArray[np.int8] | None:
    """Beam search; the commands, or None when no string of ``max_length`` or less was met."""
    n = model.n
    if n == 0:
        return np.empty(0, dtype=np.int8)
    keys, beam, counts, nbeam, cand, ccounts, mark, parents, pmoves = _beam_arrays(n, width, max_length)
    kern = K.beam_kernel.pick(n * width * 4)
    done = 0
    slot = -1
    last = time.monotonic()
    while done < max_length:
        steps = min(chunk, max_length - done)
        did, slot = kern(
            model.nxt,
            model.dist,
            keys,
            beam,
            counts,
            nbeam,
            cand,
            ccounts,
            mark,
            parents,
            pmoves,
            done,
            steps,
            float(weight),
        )
        done += int(did)
        if slot >= 0:
            break
        if deadline is not None and time.monotonic() > deadline:
            raise Interrupted
        if progress is not None and time.monotonic() - last > 1.0:
            last = time.monotonic()
            left = int(counts[: int(nbeam[0])].min())
            progress(f"beam: {done} commands, {left} robots left in the best set")
    return None if slot < 0 else _trace_back(parents, pmoves, done, int(slot))


def pair_beam_codes(
    model: Model,
    table: NDArray[np.int32],
    *,
    width: int,
    weight: float = 0.5,
    limit: int,
    deadline: float | None = None,
    chunk: int = 16,
    triples: NDArray[np.int16] | None = None,
) -> NDArray[np.int8] | None:
    """Beam search scored by the pair bound; a string shorter than ``limit``, or None.

    Each step keeps the ``width`` sets with the smallest
    ``h + weight * sum(dist) / sum(dist of all starts)`` (``h`` the set's pair
    bound from ``table``, raised by the triple table ``triples`` when given) among
    those with ``depth + h < limit``. Deterministic.
    """
    n = model.n
    if n == 0:
        return np.empty(0, dtype=np.int8)
    if limit <= 0:
        return None
    keys, beam, counts, nbeam, cand, ccounts, mark, parents, pmoves = _beam_arrays(n, width, limit)
    size = 1 << max(10, min(22, (8 * width * limit).bit_length()))
    seen = np.zeros(size, dtype=np.uint64)
    fill = np.zeros(1, dtype=np.int64)
    td = np.zeros(1, dtype=np.int16) if triples is None else triples
    kern = K.pair_beam_kernel.pick(n * n * width)
    done = 0
    slot = -1
    while done < limit - 1:
        steps = min(chunk, limit - 1 - done)
        did, slot, dead = kern(
            model.nxt,
            table,
            td,
            model.dist,
            keys,
            beam,
            counts,
            nbeam,
            cand,
            ccounts,
            mark,
            parents,
            pmoves,
            done,
            steps,
            float(weight),
            limit,
            seen,
            fill,
        )
        done += int(did)
        if slot >= 0 or dead:
            break
        if deadline is not None and time.monotonic() > deadline:
            raise Interrupted
    return None if slot < 0 else _trace_back(parents, pmoves, done, int(slot))
