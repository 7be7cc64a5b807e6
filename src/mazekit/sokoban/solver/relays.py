"""Relays: the backward direction restarted, aimed at a position the forward direction holds.

On some levels neither direction finds its way to the other, though a position exists that
each reaches at once when aimed at it. A relay starts the backward direction again from the
goals, its target a stored forward position instead of the start: every forward position is
rooted at the start, so a meet is still a whole solution. A relay's backward direction that
runs out proves nothing: it is set aside, not taken for a proof.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from .directions import Direction
from .kernels.state import C_NODES
from .options import Relays

__all__ = ["first_relay", "relay_target"]


def first_relay(rel: Relays | None, bidirectional: bool, time_limit: float | None) -> float:
    """The seconds into a run of ``time_limit`` at which the first relay comes (``math.inf``:
    none, as without a backward direction or a time limit).

    >>> first_relay(Relays(lead=0.3), True, 10.0), first_relay(Relays(), False, 10.0), first_relay(None, True, 10.0)
    (3.0, inf, inf)
    """
    if rel is None or not bidirectional or time_limit is None:
        return math.inf
    return rel.lead * time_limit


def relay_target(forward: Direction, rel: Relays, count: int) -> tuple[NDArray[np.int64], int]:
    """The boxes (sorted padded cells) and player of the forward position the ``count``-th relay
    aims at: drawn at random (seeded by ``rel.seed`` and ``count``) from the stored positions at
    least as deep, in pushes from the start, as the median one."""
    g = forward.arr.pg[: int(forward.ctr[C_NODES])]
    deep = np.flatnonzero(g >= np.median(g))
    node = int(np.random.default_rng((rel.seed, count)).choice(deep))
    return forward.arr.pboxes[node].astype(np.int64), int(forward.arr.pplayer[node])
