"""Universal escape routes: ``POST /api/universal``, ``/api/universal/verify``, ``/api/universal/example``.

The grid is read as ``mazekit universal`` reads a file (rows of ``0`` free,
``1`` obstacle and exactly one ``x``, the exit). ``/api/universal`` runs
:func:`mazekit.universal.find` in a solver slot with a capped time limit;
``/api/universal/verify`` runs :func:`mazekit.universal.verify` and adds the walk
the page plays: every start's position after each command. The movement rule
lives here, in Python (the universal package's move table); the page only draws
the positions it is given.
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

from ... import examples
from ...errors import InputError
from ...grid import Point
from ..jobs import run_job
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
    field_text,
    grid_text,
    pack,
)

__all__ = [
    "MAX_STARTS",
    "METHODS",
    "ROUTES",
    "TRACE_CELLS",
    "TRACE_COMMANDS",
    "commands_field",
    "read_universal",
    "walk",
]

#: The search methods of :func:`mazekit.universal.find`.
METHODS = ("auto", "exact", "heuristic")
#: Most free cells a search request may have (a greedy string grows with cells x distance).
MAX_STARTS = 10_000
#: Most entries in a walk trace, (commands + 1) x starts; above it the starts are sampled.
TRACE_CELLS = 3_000_000
#: Most commands a walk trace follows (the verdict itself has no such cap).
TRACE_COMMANDS = 100_000
#: Most commands in a string to verify.
MAX_COMMANDS = 1_000_000
#: Most stuck or failed cells listed in an answer.
MAX_LISTED = 500


def read_universal(body: dict[str, Any], limits: Limits) -> tuple[NDArray[np.bool_], Point]:
    """The ``grid`` field as ``(passable, exit)``: rows of ``0``/``1`` with one ``x``."""
    from ...universal import read_maze

    text = grid_text(body, "grid", limits)
    if not text.strip():
        raise ApiError("'grid' is empty: expected rows of 0 (free), 1 (obstacle) and one x (the exit)")
    try:
        passable, exit = read_maze(text)
    except InputError as exc:
        raise ApiError(f"'grid': {exc}") from None
    check_size(passable.shape, limits)
    return passable, exit


def commands_field(body: dict[str, Any], key: str = "commands") -> str:
    """A string of ``U D L R`` (lower case read as upper case, spaces and newlines ignored);
    anything else is an :class:`ApiError`.

    >>> commands_field({"commands": "UD LR"})
    'UDLR'
    >>> commands_field({"commands": "uurrdd"})
    'UURRDD'
    >>> commands_field({"commands": "UDx"})
    Traceback (most recent call last):
    ...
    mazekit.web.api._common.ApiError: 'commands' has 'x' at position 3: commands are U, D, L, R
    """
    raw = field_text(body, key, max_len=2 * MAX_COMMANDS)
    string = "".join(raw.split())
    for k, ch in enumerate(string):
        if ch.upper() not in ("U", "D", "L", "R"):
            raise ApiError(f"{key!r} has {ch!r} at position {k + 1}: commands are U, D, L, R")
    if len(string) > MAX_COMMANDS:
        raise ApiError(f"{key!r} has {len(string)} commands; the limit is {MAX_COMMANDS}")
    return string.upper()


def walk(
    passable: NDArray[np.bool_], exit: Point, string: str, starts: NDArray[np.intp] | None = None
) -> NDArray[np.int32]:
    """Every start's square after each command: int32 ``(len(string) + 1, k)``.

    Parameters
    ----------
    passable, exit
        The maze, as :func:`mazekit.universal.verify` takes it.
    string : str
        Commands ``U D L R``.
    starts : ndarray of int, optional
        Which starts (positions in reading order among the free cells, the
        exit excluded); default all of them.

    Returns
    -------
    ndarray of int32
        Row ``t`` holds each start's flat index ``r * C + c`` after ``t``
        commands, or -1 once it has left through the exit.

    Examples
    --------
    >>> walk(np.array([[1, 1, 1]]), (0, 2), "R").tolist()
    [[0, 1], [1, -1]]
    """
    from ...universal._model import Model, encode

    model = Model(passable, exit)
    codes = encode(string)
    pos = np.arange(model.n, dtype=np.int32) if starts is None else np.asarray(starts, dtype=np.int32)
    flat = np.empty(model.n + 1, dtype=np.int32)
    flat[: model.n] = model.cells[:, 0] * model.shape[1] + model.cells[:, 1]
    flat[model.n] = -1
    out = np.empty((len(codes) + 1, pos.size), dtype=np.int32)
    out[0] = flat[pos]
    nxt = model.nxt
    for t, k in enumerate(codes.tolist(), start=1):
        pos = nxt[k, pos]
        out[t] = flat[pos]
    return out


def _cells(points: NDArray[np.intp]) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in points[:MAX_LISTED]]


@endpoint
async def find_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/universal``: a universal escape string, its length and lower bound."""
    from ...universal import find

    limits: Limits = request.app.state.limits
    passable, exit = read_universal(body, limits)
    method: Any = field_choice(body, "method", METHODS, "auto")
    asked = field_float(body, "time_limit", limits.solver_seconds, lo=0.01, hi=86_400.0)
    time_limit = min(asked, limits.solver_seconds)
    max_length = field_int(body, "max_length", 0, lo=0, hi=MAX_COMMANDS) if body.get("max_length") is not None else None
    starts = int(passable.sum()) - (1 if passable[exit] else 0)
    if starts > MAX_STARTS:
        raise ApiError(
            f"'grid' has {starts} free cells; a search here takes at most {MAX_STARTS} "
            "(use the mazekit universal command for bigger mazes)"
        )
    t0 = time.perf_counter()

    def work() -> Any:
        try:
            return find(passable, exit, method=method, max_length=max_length, time_limit=time_limit)
        except ValueError as exc:  # the exact search on a maze too big for its pair table
            raise ApiError(str(exc).replace("method='heuristic'", 'method "heuristic"')) from None

    res = await run_job(request, work)
    took = time.perf_counter() - t0
    payload: dict[str, Any] = {
        "commands": res.string,
        "found": res.found,
        "length": res.length,
        "lower_bound": res.lower_bound,
        "proven": res.proven,
        "pair_bound": res.pair_bound,
        "pair_bound_exhaustive": res.pair_bound_exhaustive,
        "distance_bound": res.distance_bound,
        "starts": res.starts,
        "stuck": _cells(res.stuck),
        "stuck_count": int(len(res.stuck)),
        "complete": res.complete,
        "method": res.method,
        "expanded": res.expanded,
        "time_limit": time_limit,
        "shape": list(passable.shape),
        "exit": list(exit),
        "time_ms": round(took * 1000, 3),
    }
    return answer(payload)


@endpoint
async def verify_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/universal/verify``: how many starts a string frees, and the walk of every robot."""
    from ...universal import verify

    limits: Limits = request.app.state.limits
    passable, exit = read_universal(body, limits)
    string = commands_field(body)
    want_trace = field_bool(body, "trace", True)

    def work() -> dict[str, Any]:
        verdict = verify(passable, exit, string)
        out: dict[str, Any] = {
            "freed": verdict.reached,
            "total": verdict.total,
            "text": str(verdict),
            "ok": verdict.ok,
            "length": len(string),
            "failed": _cells(verdict.failed),
            "failed_count": int(len(verdict.failed)),
            "shape": list(passable.shape),
            "exit": list(exit),
        }
        if not want_trace:
            return out
        n = verdict.total
        if len(string) > TRACE_COMMANDS:
            out.update(
                trace=None,
                trace_note=f"no walk trace: the string has {len(string)} commands, "
                f"the trace follows at most {TRACE_COMMANDS}",
            )
            return out
        starts = None
        if (len(string) + 1) * n > TRACE_CELLS:
            k = max(1, TRACE_CELLS // (len(string) + 1))
            starts = np.unique(np.linspace(0, n - 1, k).round().astype(np.intp))
            out["trace_note"] = (
                f"the walk shows {starts.size} of the {n} robots (evenly spread): "
                f"all of them over {len(string)} commands would be over {TRACE_CELLS} positions"
            )
        trace = walk(passable, exit, string, starts)
        out["trace"] = pack(trace)
        out["trace_sampled"] = starts is not None
        return out

    t0 = time.perf_counter()
    payload = await run_in_threadpool(work)
    payload["time_ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return answer(payload)


#: The bundled mazes the page can load by name.
EXAMPLES = {"julia": "julia.txt"}


@endpoint
async def example_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/universal/example``: the article's maze as rows of 0/1/x."""
    name = field_choice(body, "name", tuple(EXAMPLES), "julia")
    text = examples.read_text(EXAMPLES[name])
    rows = [line for line in text.splitlines() if line.strip()]
    return answer({"name": name, "grid": rows})


def _warm() -> None:
    """Compile (or load) the universal kernels on a tiny maze."""
    from ...universal import find, verify

    grid = np.ones((3, 4), dtype=bool)
    grid[1, 1] = False
    res = find(grid, (0, 3), method="exact")
    verify(grid, (0, 3), res.string)
    find(grid, (0, 3), method="heuristic")


#: Run once at start-up (in a thread) so the first request does not wait for numba.
WARM_UP = _warm
#: Seconds its first compile takes on a 2-core machine (it orders the warm-up's queue).
WARM_SECONDS = 10.0

ROUTES = [
    Route("/api/universal", find_route, methods=["POST"]),
    Route("/api/universal/verify", verify_route, methods=["POST"]),
    Route("/api/universal/example", example_route, methods=["POST"]),
]
