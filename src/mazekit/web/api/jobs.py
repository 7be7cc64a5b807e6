"""The long jobs' routes: the queue at a glance, and one job's state or result.

The jobs themselves run through :mod:`mazekit.web.jobs` (the solver's and the
optimiser's WebSockets say a job's id in their ``started`` message).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..jobs import client_id, jobs_of
from ._common import answer

__all__ = ["ROUTES"]


async def queue_route(request: Request) -> Response:
    """``GET /api/jobs``: the solver queue (running, waiting, clients) and the asking browser's jobs."""
    return answer(jobs_of(request).stats(client_id(request)))


async def job_route(request: Request) -> Response:
    """``GET /api/jobs/{id}``: a job's phase, last progress and, once finished, its result."""
    job = jobs_of(request).get(request.path_params["id"])
    if job is None:
        return answer({"error": "no such job (a finished job is kept for a while, then let go)"}, 404)
    return answer(job.summary())


ROUTES: list[BaseRoute] = [
    Route("/api/jobs", queue_route, methods=["GET"]),
    Route("/api/jobs/{id}", job_route, methods=["GET"]),
]
