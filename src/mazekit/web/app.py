"""The playground's web application: the pages, the static files and the API routes.

:func:`create_app` builds a Starlette app; ``mazekit playground`` serves it with
uvicorn. Each room is one HTML page under ``static/`` sharing ``style.css`` and
the modules in ``static/js/``; nothing is fetched from outside the package.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import importlib
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .api import jobs as jobs_api
from .api._common import Limits, answer
from .jobs import CLIENT_COOKIE, Jobs, new_client_token
from .rooms import API_MODULES, ROOMS
from .warm import Warming

__all__ = ["API_MODULES", "ROOMS", "TRIM_SECONDS", "create_app", "fewer_malloc_arenas", "return_freed_memory"]

STATIC = Path(__file__).parent / "static"


def _api_modules() -> list[Any]:
    """The API modules, each with its ``ROUTES`` and, optionally, a ``WARM_UP`` callable and
    ``WARM_SECONDS``, its cold compile time (it orders the warm-up's queue)."""
    return [importlib.import_module(name, __package__) for name in API_MODULES]


def _page(request: Request, name: str) -> FileResponse:
    """A page; a browser new to the server gets its :data:`~mazekit.web.jobs.CLIENT_COOKIE` with
    it, which names it to the solver queue (fair turns and limits per browser, not per address)."""
    page = FileResponse(
        STATIC / f"{name}.html", media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"}
    )
    if CLIENT_COOKIE not in request.cookies:
        page.set_cookie(CLIENT_COOKIE, new_client_token(), max_age=30 * 86400, httponly=True, samesite="strict")
    return page


async def index(request: Request) -> Response:
    return _page(request, "index")


async def room(request: Request) -> Response:
    name = request.path_params["room"]
    if name not in ROOMS:
        raise HTTPException(404, f"no room called {name!r}")
    if request.app.state.warming is not None:
        request.app.state.warming.prefer(name)  # its kernels next, if they are still waiting
    return _page(request, name)


async def api_index(request: Request) -> Response:
    """``GET /api``: the routes, each with its methods (none for a WebSocket, marked
    ``"websocket": true``) and the first line of its description."""
    out = []
    for route in request.app.routes:
        if isinstance(route, (Route, WebSocketRoute)) and route.path.startswith("/api/"):
            doc = (route.endpoint.__doc__ or "").strip().splitlines()
            methods = sorted(route.methods or ()) if isinstance(route, Route) else []
            websocket = isinstance(route, WebSocketRoute)
            out.append({"path": route.path, "methods": methods, "websocket": websocket, "about": doc[0] if doc else ""})
    limits: Limits = request.app.state.limits
    return answer(
        {
            "routes": out,
            "limits": {k: getattr(limits, k) for k in limits.__slots__},
            "docs": "docs/playground-api.md in the mazekit sources",
        }
    )


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    detail = getattr(exc, "detail", "not found")
    if request.url.path.startswith("/api"):
        if status == 405:
            detail = f"{request.method} is not allowed on {request.url.path}"
        return JSONResponse({"error": str(detail)}, status_code=status)
    return Response(f"{status}: {detail}\n", status_code=status, media_type="text/plain")


def fewer_malloc_arenas(arenas: int = 2) -> bool:
    """Cap glibc's malloc arenas in this process at ``arenas``, as ``MALLOC_ARENA_MAX`` does,
    unless the environment sets that already; True when it did.

    By default each thread that runs a route's work (Starlette's pool has up to 40) may get
    an arena of its own, up to eight per core, and each keeps what it freed: under a class's
    load the server's resident memory climbed for minutes on end, where with two arenas it
    stays flat (the load benchmark, ``python benchmarks/run.py load``). Nothing to do off
    glibc (no ``mallopt``)."""
    if "MALLOC_ARENA_MAX" in os.environ or not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # pragma: no cover - another C library
        return False
    m_arena_max = -8  # from glibc's malloc.h
    return bool(mallopt(m_arena_max, arenas))


#: Seconds between two :func:`return_freed_memory` calls while the server runs.
TRIM_SECONDS = 60.0


def return_freed_memory() -> bool:
    """Give back to the system the memory glibc's malloc keeps after it was freed
    (``malloc_trim(0)``); True when some was. The large answers (a 300x300 search's trace is
    a megabyte) are freed into the arenas, which keep it; the server calls this every
    :data:`TRIM_SECONDS`, so that its resident memory is what it uses. Nothing off glibc."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # pragma: no cover - another C library
        return False
    return bool(trim(0))


async def _trim_every(seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        await asyncio.to_thread(return_freed_memory)


def create_app(
    limits: Limits | None = None, *, warm: bool = False, report: Callable[[str], None] | None = None
) -> Starlette:
    """The playground's Starlette app.

    Parameters
    ----------
    limits : Limits, optional
        What one request may ask (body size, grid size, solver time and memory,
        solver runs at once). Default: :class:`Limits()`.
    warm : bool
        Compile (or load from numba's cache) the rooms' kernels in the background
        from start-up (:class:`~mazekit.web.warm.Warming`), so that the first
        requests do not compile them; the solver's routes wait for it.
    report : callable, optional
        With ``warm``: called with a line when a room's first compile has ended.
    """
    modules = _api_modules()
    routes: list[BaseRoute] = [
        Route("/", index),
        Route("/api", api_index),
        *jobs_api.ROUTES,
        *(route for module in modules for route in module.ROUTES),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/{room}", room),
    ]

    rooms = [
        (room, getattr(m, "WARM_SECONDS", 1.0), len(getattr(m, "WARM_PARTS", ())))
        for room, m in zip(ROOMS, modules, strict=True)
    ]
    warming = Warming(rooms, report=report)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        fewer_malloc_arenas()  # before the worker threads start
        trimming = asyncio.ensure_future(_trim_every(TRIM_SECONDS))
        if warm:
            warming.start()
        yield
        trimming.cancel()
        warming.stop()

    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found}, lifespan=lifespan)
    app.state.limits = limits or Limits()
    app.state.warming = warming if warm else None
    app.state.jobs = Jobs(app.state.limits, warming=lambda: app.state.warming)
    return app
