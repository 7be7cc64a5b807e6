"""Maze routes: ``POST /api/maze/generate``.

The route makes the maze ``mazekit maze generate`` makes for the same algorithm,
size, seed, braid fraction and rooms (one random generator, drawn from in the
same order), and adds what the page animates: the carving ``order`` (the step at
which each grid square changed, -1 never; see :mod:`mazekit.generate`). Squares
that braiding or rooms opened afterwards get one last step of their own, so the
animation ends on the maze answered. Solving goes through ``POST /api/search``.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

import numpy as np
from numpy.typing import NDArray
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ...generate import GENERATORS
from ...grid import Point, format_grid
from ._common import (
    ApiError,
    Limits,
    answer,
    check_size,
    endpoint,
    field_bool,
    field_choice,
    field_float,
    field_int,
    pack,
)

__all__ = ["ALGORITHMS", "ROUTES", "Generated", "carving_lesson", "make_maze"]

#: The generators the page offers: the keys of :data:`mazekit.generate.GENERATORS`, in its order.
ALGORITHMS: tuple[str, ...] = tuple(GENERATORS)

#: Largest seed (numpy accepts any non-negative integer; the page and URLs keep to 32 bits).
MAX_SEED = 2**32 - 1


class Generated:
    """A generated maze and its carving trace.

    Attributes
    ----------
    maze : ndarray of bool
        The final grid (True free), after braiding and rooms.
    order : ndarray of int32 or None
        Step at which each square changed (-1 never); None for plain generators.
    steps : int
        Steps in ``order`` (0 without one).
    extra_step : bool
        True when the last step is the braiding/rooms step, not the generator's.
    plain : bool
        True for a generator that returns a plain grid (``caves``).
    """

    __slots__ = ("maze", "order", "steps", "extra_step", "plain")

    def __init__(
        self, maze: NDArray[np.bool_], order: NDArray[np.int32] | None, steps: int, extra_step: bool, plain: bool
    ) -> None:
        self.maze = maze
        self.order = order
        self.steps = steps
        self.extra_step = extra_step
        self.plain = plain


def make_maze(algorithm: str, rows: int, cols: int, *, seed: int, braid: float = 0.0, rooms: int = 0) -> Generated:
    """The maze ``mazekit maze generate`` makes, with its carving order.

    Parameters
    ----------
    algorithm : str
        A key of :data:`mazekit.generate.GENERATORS`.
    rows, cols : int
        Size in cells (``caves``: in grid squares).
    seed : int
        The seed of the one random generator (as ``--seed``).
    braid : float
        Share of dead ends to remove, 0..1 (not for plain generators).
    rooms : int
        Rectangular rooms to open (not for plain generators).

    Returns
    -------
    Generated

    Examples
    --------
    >>> g = make_maze("kruskal", 2, 3, seed=1)
    >>> g.maze.shape, g.steps > 0, g.plain
    ((5, 7), True, False)
    """
    from ... import generate as G

    plain = algorithm in G.PLAIN
    if plain and (braid or rooms):
        raise ApiError(f"{algorithm} makes a plain grid, not a maze: braid and rooms need a maze")
    gen = np.random.default_rng(seed)
    shape = (rows, cols) if plain else (2 * rows + 1, 2 * cols + 1)
    order = None if plain else np.empty(shape, dtype=np.int32)
    base = G.generate(algorithm, rows, cols, rng=gen, order=order)
    maze = base
    if braid:
        maze = G.braid(maze, braid, rng=gen)
    if rooms:
        maze = G.rooms(maze, rooms, rng=gen)
    if order is None:
        return Generated(np.asarray(maze, dtype=bool), None, 0, False, True)
    steps = int(order.max(initial=-1)) + 1
    changed = np.asarray(maze, dtype=bool) != np.asarray(base, dtype=bool)
    extra = bool(changed.any())
    if extra:
        order[changed] = steps
        steps += 1
    return Generated(np.asarray(maze, dtype=bool), order, steps, extra, False)


def carving_lesson(algorithm: str, rows: int, cols: int, seed: int) -> dict[str, Any]:
    """The generator's core loop step by step (``mazekit.generate.teach``) for the maze
    :func:`make_maze` makes with this seed: ``{"lesson": ...}``, or ``{"lesson_note": why not}``.

    Grid squares are flat indices ``r * (2 * cols + 1) + c``.
    """
    from ...generate import teach as T

    if algorithm not in T.ALGORITHMS:
        return {"lesson_note": f"the step-by-step panes show {', '.join(T.ALGORITHMS)}; {algorithm} has none yet"}
    if rows * cols > T.MAX_CELLS:
        return {"lesson_note": f"the step-by-step panes show mazes of up to {T.MAX_CELLS} cells (30 x 30)"}
    walk = T.teach_generator(algorithm, rows, cols, rng=np.random.default_rng(seed))
    width = 2 * cols + 1
    steps = [
        {
            "at": s.at,
            "cell": None if s.cell is None else list(s.cell),
            "wall": None if s.wall is None else s.wall[0] * width + s.wall[1],
            "size": s.size,
            "first": list(s.first),
            "marks": [r * width + c for r, c in s.marks],
            "line": s.line,
            "lines": list(s.lines),
            "text": s.text,
        }
        for s in walk.steps
    ]
    return {"lesson": {"algorithm": algorithm, "code": list(walk.code), "structure": walk.structure, "steps": steps}}


def _ends(maze: NDArray[np.bool_]) -> tuple[Point | None, Point | None]:
    """The first and the last free square in reading order (``mazekit maze solve``'s defaults)."""
    free = np.flatnonzero(maze.ravel())
    if free.size == 0:
        return None, None
    cols = maze.shape[1]
    a, b = int(free[0]), int(free[-1])
    return (a // cols, a % cols), (b // cols, b % cols)


@endpoint
async def generate_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/maze/generate``: a maze, its carving order and its measures."""
    from ...generate.properties import metrics

    limits: Limits = request.app.state.limits
    algorithm = field_choice(body, "algorithm", ALGORITHMS, "backtracker")
    plain = algorithm == "caves"
    rows = field_int(body, "rows", 10, lo=1, hi=limits.max_side)
    cols = field_int(body, "cols", 10, lo=1, hi=limits.max_side)
    shape = (rows, cols) if plain else (2 * rows + 1, 2 * cols + 1)
    try:
        check_size(shape, limits)
    except ApiError:
        size = f"a {rows}x{cols} grid;" if plain else f"a {rows}x{cols} maze is a {shape[0]}x{shape[1]} grid;"
        raise ApiError(
            f"too big: {size} the limit is {limits.max_side} squares a side and {limits.max_cells} squares in all"
        ) from None
    seed_given = body.get("seed") is not None
    seed = field_int(body, "seed", 0, lo=0, hi=MAX_SEED) if seed_given else secrets.randbelow(MAX_SEED + 1)
    braid = field_float(body, "braid", 0.0, lo=0.0, hi=1.0)
    rooms = field_int(body, "rooms", 0, lo=0, hi=1000)
    want_exit = field_bool(body, "exit", False)
    t0 = time.perf_counter()

    teach = field_bool(body, "teach", False)

    def work() -> tuple[Generated, Any, dict[str, Any]]:
        made = make_maze(algorithm, rows, cols, seed=seed, braid=braid, rooms=rooms)
        lesson = carving_lesson(algorithm, rows, cols, seed) if teach else {}
        return made, metrics(made.maze, cells=None if made.plain else True), lesson

    made, m, lesson = await run_in_threadpool(work)
    took = time.perf_counter() - t0
    start, goal = _ends(made.maze)
    text = format_grid(made.maze).splitlines()
    exit_cell = goal if want_exit else None
    if want_exit:
        if exit_cell is None:
            raise ApiError("the grid has no free cell to mark as the exit")
        r, c = exit_cell
        text[r] = text[r][:c] + "x" + text[r][c + 1 :]
    payload: dict[str, Any] = {
        "algorithm": algorithm,
        "rows": rows,
        "cols": cols,
        "seed": seed,
        "braid": braid,
        "rooms": rooms,
        "plain": made.plain,
        "shape": list(made.maze.shape),
        "grid": text,
        "start": None if start is None else list(start),
        "goal": None if goal is None else list(goal),
        "exit": None if exit_cell is None else list(exit_cell),
        "steps": made.steps,
        "extra_step": made.extra_step,
        "order": None if made.order is None else pack(made.order),
        "metrics": {
            "cells": m.cells,
            "perfect": m.perfect,
            "dead_ends": m.dead_ends,
            "junctions": m.junctions,
            "straightness": round(m.straightness, 4),
            "solution_length": m.solution_length,
            "summary": m.summary(),
        },
        "time_ms": round(took * 1000, 3),
    }
    payload.update(lesson)
    return answer(payload, gzip_for=request if "lesson" in lesson else None)


def _warm() -> None:
    """Compile (or load) what :func:`generate_route` runs: every generator's kernel on a tiny
    maze, braided and not, and the maze's measures (its route, dead ends, regions)."""
    from ...generate.properties import metrics

    for name in ALGORITHMS:
        for braid in (0.0,) if name == "caves" else (0.0, 0.5):  # caves are not braided
            made = make_maze(name, 4, 4, seed=0, braid=braid)
            metrics(made.maze, cells=None if made.plain else True)


#: Run once at start-up (in a thread) so the first request does not wait for numba.
WARM_UP = _warm
#: Seconds its first compile takes on a 2-core machine (it orders the warm-up's queue).
WARM_SECONDS = 13.0

ROUTES = [
    Route("/api/maze/generate", generate_route, methods=["POST"]),
]
