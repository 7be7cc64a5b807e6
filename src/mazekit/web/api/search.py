"""Grid search routes: ``POST /api/search`` and ``POST /api/article``.

``/api/search`` reads the grid as ``mazekit path`` reads a file and runs the
same search, so it answers the same route; it adds the trace the page animates
(``order``: the step at which each cell was closed; ``discovered``: the step at
which it joined the frontier) as packed int32 arrays. The route is a list of
``[r, c]`` pairs, or with ``"pack_path": true`` one packed (n, 2) int32 array: a
depth-first route on a big grid has tens of thousands of cells, and a list of
that many pairs takes longer to write as JSON than the search takes to run.
``/api/article`` runs the robot (article 1) or forest (article 2) example, or a
text the user pasted in the article's format, and answers its exact text output.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numpy.typing import NDArray
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ... import articles, examples
from ...grid import Point, format_grid
from ...search import SearchResult
from ...search.teach import MAX_CELLS, Walkthrough, teach
from ._common import (
    ApiError,
    Limits,
    answer,
    endpoint,
    field_bool,
    field_choice,
    field_grid,
    field_int,
    field_point,
    field_text,
    grid_text,
    pack,
)

__all__ = ["ALGORITHMS", "HEURISTICS", "ROUTES", "lesson", "run_search", "teach_search", "trace"]

#: The algorithms the page offers (the keys of :data:`mazekit.search.SOLVERS`).
ALGORITHMS = ("bfs", "dfs", "dfs-random", "greedy", "astar", "dijkstra")
#: A* and greedy heuristics (default: the tightest admissible one for the connectivity).
HEURISTICS = ("default", "manhattan", "octile", "euclidean", "chebyshev", "zero")


def _weights(body: dict[str, Any], shape: tuple[int, int], limits: Limits) -> NDArray[np.float64] | None:
    """The ``weights`` field: rows of digits 1-9, the cost of entering each cell."""
    if body.get("weights") is None:
        return None
    text = grid_text(body, "weights", limits)
    rows = [row for row in text.split("\n") if row != ""]
    if len(rows) != shape[0]:
        raise ApiError(f"'weights' has {len(rows)} rows; the grid has {shape[0]}")
    out = np.ones(shape, dtype=np.float64)
    for r, row in enumerate(rows):
        if len(row) != shape[1] or not all("1" <= ch <= "9" for ch in row):
            raise ApiError(f"'weights' row {r}: expected {shape[1]} digits 1-9, got {row[:40]!r}")
        out[r] = np.frombuffer(row.encode("ascii"), dtype=np.uint8) - 48
    return out


def run_search(
    passable: NDArray[np.bool_],
    start: Point,
    goal: Point | None,
    *,
    algorithm: str,
    connectivity: int,
    heuristic: str = "default",
    weights: NDArray[np.float64] | None = None,
    seed: int = 0,
) -> SearchResult:
    """The search ``mazekit path`` runs (``goal=None``: the nearest border cell), with weights and heuristics."""
    from ... import search

    passable = passable.copy()
    passable[start] = True
    conn: Any = connectivity
    h: Any = None if heuristic == "default" else heuristic
    if goal is None:
        if algorithm not in ("bfs", "dfs", "dijkstra"):
            raise ApiError(f"a border goal needs bfs, dfs or dijkstra, not {algorithm}")
        if algorithm == "dijkstra":
            cost = np.where(passable, 1.0 if weights is None else weights, np.inf)
            return search.dijkstra(cost, start, targets="border", connectivity=conn)
        walk = search.bfs if algorithm == "bfs" else search.dfs
        return walk(passable, start, targets="border", connectivity=conn)
    if algorithm == "dijkstra" and weights is not None:
        return search.dijkstra(np.where(passable, weights, np.inf), start, goal, connectivity=conn)
    if algorithm in ("astar", "greedy") and (weights is not None or h is not None):
        guided = search.astar if algorithm == "astar" else search.greedy
        return guided(passable, start, goal, cost=weights, connectivity=conn, heuristic=h)
    return search.solve(passable, start, goal, algorithm=algorithm, connectivity=conn, rng=seed)


def _cell(p: Point | None, cols: int) -> int:
    return -1 if p is None else p[0] * cols + p[1]


def _num(x: float | None) -> float | None:
    return None if x is None or not np.isfinite(x) else round(float(x), 4)


def lesson(walk: Walkthrough, cols: int) -> dict[str, Any]:
    """A walkthrough as the page's panes read it: cells as flat indices ``r * cols + c``.

    ``steps[i]``: ``at`` (its place in ``order``), ``cell``, ``parent``, ``g``/``h``/``f``,
    ``line`` and ``lines`` (0-based pseudocode lines), ``size`` and ``first`` (the open list's
    first entries ``[cell, g, h, f, stale]``), ``text``; the lists ``added``, ``updated``,
    ``walls``, ``seen``, ``dropped`` when not empty, ``goal`` when it is the goal.
    """
    steps = []
    for st in walk.steps:
        out: dict[str, Any] = {
            "at": st.at,
            "cell": _cell(st.cell, cols),
            "parent": _cell(st.parent, cols),
            "g": _num(st.g),
            "h": _num(st.h),
            "f": _num(st.f),
            "line": st.line,
            "lines": list(st.lines),
            "size": st.size,
            "first": [[_cell(e.cell, cols), _num(e.g), _num(e.h), _num(e.f), e.stale] for e in st.first],
            "text": st.text,
        }
        for name in ("added", "updated", "walls", "seen", "dropped"):
            cells = getattr(st, name)
            if cells:
                out[name] = [_cell(c, cols) for c in cells]
        if st.goal:
            out["goal"] = True
        steps.append(out)
    g = np.where(np.isfinite(walk.g), walk.g, -1.0)
    return {
        "algorithm": walk.algorithm,
        "code": list(walk.code),
        "structure": walk.structure,
        "rule": walk.rule,
        "steps": steps,
        "g": pack(g.astype(np.float32)),
        "h": pack(np.nan_to_num(walk.h, nan=-1.0).astype(np.float32)),
        "parent": pack(walk.parent.astype(np.int32)),
    }


def trace(result: SearchResult) -> dict[str, Any]:
    """The packed trace of a search: ``order`` and ``discovered`` (-1 never), ``steps``.

    The arrays take the smallest signed integer type that holds the steps
    (int8, int16 or int32), so a search that visits few cells sends little.
    """
    order = result.order
    parent = result.parent.ravel()
    flat = order.ravel()
    discovered = np.where(parent >= 0, flat[np.maximum(parent, 0)], -1)
    discovered[flat == 0] = 0  # the sources
    discovered = np.where((flat >= 0) & ((discovered < 0) | (discovered > flat)), flat, discovered)
    steps = int(flat.max(initial=-1)) + 1
    dtype = np.int8 if steps <= 127 else np.int16 if steps <= 32767 else np.int32
    return {
        "steps": steps,
        "order": pack(order.astype(dtype)),
        "discovered": pack(discovered.reshape(order.shape).astype(dtype)),
    }


def teach_search(
    passable: NDArray[np.bool_],
    start: Point,
    goal: Point | None,
    *,
    algorithm: str,
    connectivity: int,
    heuristic: str = "default",
    weights: NDArray[np.float64] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """The step-by-step record of the search :func:`run_search` runs, for the room's panes:
    ``{"lesson": ...}``, or ``{"lesson_note": why not}`` (a border goal, a grid too large)."""
    if goal is None:
        return {"lesson_note": "the step-by-step panes need a goal cell, not the border"}
    if passable.size > MAX_CELLS:
        return {
            "lesson_note": f"the step-by-step panes show grids of up to {MAX_CELLS:,} cells "
            f"(60 x 60); this one has {passable.size:,}"
        }
    passable = passable.copy()
    passable[start] = True
    guided = algorithm in ("astar", "greedy") and (weights is not None or heuristic != "default")
    walk = teach(
        passable,
        start,
        goal,
        algorithm=algorithm,
        connectivity=connectivity,
        cost=weights if algorithm == "dijkstra" or guided else None,
        heuristic=None if heuristic == "default" else heuristic,
        rng=seed,
    )
    return {"lesson": lesson(walk, passable.shape[1])}


@endpoint
async def search_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/search``: a route and its trace."""
    limits: Limits = request.app.state.limits
    grid = field_grid(body, "grid", limits)
    shape = grid.shape
    algorithm = field_choice(body, "algorithm", ALGORITHMS, "bfs")
    connectivity = field_choice(body, "connectivity", (4, 8), 4)
    heuristic = field_choice(body, "heuristic", HEURISTICS, "default")
    seed = field_int(body, "seed", 0, lo=0, hi=2**32 - 1)
    start = field_point(body, "start", shape, None) or grid.marked("SE")
    if start is None:
        raise ApiError("no start: give 'start': [r, c] or mark a cell S")
    border = body.get("goal") == "border"
    goal = None if border else (field_point(body, "goal", shape, None) or grid.marked("Gx"))
    if goal is None and not border:
        raise ApiError("no goal: give 'goal': [r, c] or \"border\", or mark a cell G")
    weights = _weights(body, shape, limits)
    pack_path = field_bool(body, "pack_path", False)

    def work() -> tuple[SearchResult, float, dict[str, Any]]:
        t0 = time.perf_counter()
        result = run_search(
            grid.passable,
            start,
            goal,
            algorithm=algorithm,
            connectivity=connectivity,
            heuristic=heuristic,
            weights=weights,
            seed=seed,
        )
        took = time.perf_counter() - t0
        traced = trace(result) if body.get("trace", True) is not False else {}
        if body.get("teach") is True:
            traced.update(
                teach_search(
                    grid.passable,
                    start,
                    goal,
                    algorithm=algorithm,
                    connectivity=connectivity,
                    heuristic=heuristic,
                    weights=weights,
                    seed=seed,
                )
            )
        return result, took, traced

    # in a worker thread: a big grid must not hold up the other requests (or a solver's progress)
    result, took, traced = await run_in_threadpool(work)
    payload: dict[str, Any] = {
        "found": result.found,
        "length": result.length,
        "cost": result.cost,
        "visited": result.visited,
        "path": pack(result.path.astype(np.int32)) if pack_path else result.path.tolist(),
        "algorithm": algorithm,
        "connectivity": connectivity,
        "shape": list(shape),
        "start": list(start),
        "goal": None if goal is None else list(goal),
        "time_ms": round(took * 1000, 3),
    }
    payload.update(traced)
    return answer(payload, gzip_for=request if "lesson" in traced else None)


ARTICLES = {"robot": "robot.txt", "forest": "forest.txt"}


@endpoint
async def article_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/article``: the robot or forest article on its example or a pasted text."""
    article = field_choice(body, "article", tuple(ARTICLES))
    text = field_text(body, "text", "", max_len=request.app.state.limits.max_body)
    if not text.strip():
        text = examples.read_text(ARTICLES[article])
    found = (articles.robot if article == "robot" else articles.forest)(text)
    output, drawing = found.text, found.drawing()
    passable = drawing["passable"]
    check_rows = passable.shape[0] * passable.shape[1]
    if check_rows > request.app.state.limits.max_cells:
        raise ApiError(f"the grid has {check_rows} cells; the limit is {request.app.state.limits.max_cells}")
    route = drawing.get("route")
    payload: dict[str, Any] = {
        "article": article,
        "input": text,
        "output": output,
        "grid": format_grid(passable).splitlines(),
        "shape": list(passable.shape),
        "start": list(drawing["start"]),
        "goal": None if drawing.get("goal") is None else list(drawing["goal"]),
        "path": [] if route is None else np.asarray(route).tolist(),
        "algorithm": "bfs" if article == "robot" else "dfs",
        "base": 1 if article == "robot" else 0,
    }
    if drawing.get("order") is not None:
        order = np.asarray(drawing["order"], dtype=np.int32)
        payload["steps"] = int(order.max(initial=-1)) + 1
        payload["order"] = pack(order)
    return answer(payload)


ROUTES = [
    Route("/api/search", search_route, methods=["POST"]),
    Route("/api/article", article_route, methods=["POST"]),
]


def _warm() -> None:
    """Compile (or load) the kernels the page's searches run, as :func:`search_route` runs them
    (the trace too): every algorithm, both connectivities, to a cell, to the border, with
    weights and with a heuristic, on a 24 x 24 grid with walls (the warm-up runs even tiny
    inputs compiled, see :class:`~mazekit.web.warm.Warming`)."""
    rng = np.random.default_rng(0)
    grid = rng.random((24, 24)) >= 0.25
    weights = rng.integers(1, 10, grid.shape).astype(np.float64)
    goal = (23, 23)
    for algorithm in ALGORITHMS:
        for connectivity in (4, 8):
            trace(run_search(grid, (0, 0), goal, algorithm=algorithm, connectivity=connectivity))
            if algorithm in ("bfs", "dfs", "dijkstra"):
                trace(run_search(grid, (12, 12), None, algorithm=algorithm, connectivity=connectivity))
            if algorithm in ("greedy", "astar", "dijkstra"):
                trace(run_search(grid, (0, 0), goal, algorithm=algorithm, connectivity=connectivity, weights=weights))
            if algorithm in ("greedy", "astar"):
                trace(run_search(grid, (0, 0), goal, algorithm=algorithm, connectivity=connectivity, heuristic="zero"))


#: Run at start-up, in the background, so the first request does not wait for numba.
WARM_UP = _warm
#: Seconds its first compile takes on a 2-core machine (it orders the warm-up's queue).
WARM_SECONDS = 2.0
