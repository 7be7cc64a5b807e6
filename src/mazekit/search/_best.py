"""The shared driver of the heap-based searches (A*, greedy, Dijkstra)."""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point, as_passable, check_point
from . import _kernels as K
from ._common import (
    _NO_TARGETS,
    Padded,
    SearchResult,
    check_connectivity,
    make_result,
    target_mask,
)

Heuristic = Literal["manhattan", "octile", "euclidean", "chebyshev", "zero"]
HEURISTICS: dict[str, int] = {"zero": 0, "manhattan": 1, "octile": 2, "euclidean": 3, "chebyshev": 4}
MODES = {"dijkstra": 0, "astar": 1, "greedy": 2}


def cost_grid(cost: ArrayLike, *, name: str = "cost") -> NDArray[np.float64]:
    """Validate a cost grid: finite values >= 0 are costs, inf (or nan) a wall."""
    arr = np.asarray(cost, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array, got shape {arr.shape}")
    if (arr < 0).any():
        r, c = np.argwhere(arr < 0)[0]
        raise ValueError(f"{name} must be >= 0, got {arr[r, c]} at ({r}, {c})")
    return np.where(np.isnan(arr), np.inf, arr)


def run(
    algorithm: str,
    passable: NDArray[np.bool_],
    cost: NDArray[np.float64] | None,
    start: Point,
    goal: Point | None,
    *,
    targets: ArrayLike | str | None,
    connectivity: object,
    heuristic: str | None,
    diagonal: float,
) -> SearchResult:
    conn = check_connectivity(connectivity)
    passable = as_passable(passable)
    pg = Padded(passable, conn)
    s = check_point(start, pg.shape, name="start")
    if not passable[s] and algorithm != "dijkstra":
        raise ValueError(f"start {s} is a wall")
    goal_pt = None if goal is None else check_point(goal, pg.shape, name="goal")
    if not (diagonal > 0 and math.isfinite(diagonal)):
        raise ValueError(f"diagonal must be a positive number, got {diagonal!r}")
    if heuristic is None:
        heuristic = default_heuristic(conn, diagonal) if goal_pt is not None else "zero"
    if heuristic not in HEURISTICS:
        raise ValueError(f"heuristic must be one of {sorted(HEURISTICS)}, got {heuristic!r}")
    if goal_pt is None and heuristic != "zero" and algorithm != "dijkstra":
        raise ValueError(f"{algorithm} needs a goal for its heuristic {heuristic!r}")
    mask = target_mask(targets, pg.shape)
    tmask = _NO_TARGETS if mask is None else pg.pad_mask(mask)

    # cost of entering each padded cell; inf on walls and the border
    pcost = np.full(pg.size, np.inf)
    inner = pg.unpad(pcost)
    if cost is None:
        inner[passable] = 1.0
        hscale = 1.0
    else:
        inner[...] = np.where(passable, cost, np.inf)
        finite = inner[np.isfinite(inner)]
        hscale = float(finite.min()) if finite.size else 1.0
    step_len = np.array([1.0] * 4 + [diagonal] * 4, dtype=np.float64)[:conn]
    if heuristic == "octile" and diagonal > 2:
        raise ValueError("the octile heuristic assumes a diagonal step cheaper than two straight steps")
    g = np.full(pg.size, np.inf)
    pdir = np.full(pg.size, -1, dtype=np.int8)
    order = np.full(pg.size, -1, dtype=np.int32)
    gi = -1 if goal_pt is None else pg.index(goal_pt)
    gr, gc = (0, 0) if goal_pt is None else (goal_pt[0] + 1, goal_pt[1] + 1)
    kern = K.best_first_kernel.pick(pg.cells)
    closed, end = kern(
        pcost,
        pg.offsets,
        step_len,
        gr,
        gc,
        pg.width,
        pg.index(s),
        gi,
        tmask,
        MODES[algorithm],
        HEURISTICS[heuristic],
        hscale * _diag_factor(heuristic, diagonal),
        g,
        pdir,
        order,
    )
    end = int(end)
    return make_result(
        pg,
        end=end,
        pdir=pdir,
        cost=float(g[end]) if end >= 0 else math.inf,
        visited=int(closed),
        algorithm=algorithm,
        order=lambda: pg.unpad(order),
        distance=lambda: pg.unpad(g),
    )


def default_heuristic(connectivity: int, diagonal: float) -> str:
    """The tightest admissible heuristic for the move set."""
    if connectivity == 4 or diagonal >= 2:
        return "manhattan"
    if diagonal == 1:
        return "chebyshev"
    return "octile"


def _diag_factor(heuristic: str, diagonal: float) -> float:
    # Euclidean and Chebyshev distances stay admissible only if a diagonal step
    # costs at least as much as they assume.
    if heuristic == "euclidean" and diagonal < math.sqrt(2):
        return diagonal / math.sqrt(2)
    return 1.0
