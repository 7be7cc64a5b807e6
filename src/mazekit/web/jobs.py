"""Long work on the web: one fair queue, one clock, one WebSocket protocol.

Every request that may run for seconds goes through the app's :class:`Jobs`: the
Sokoban solver and optimiser (blocking or over a WebSocket that reports progress
and can be stopped), universal escape strings, Minesweeper's no-guess layouts and
big boards' hints. What it gives them:

- **A fair queue** (:class:`FairQueue`): at most ``solver_runs`` jobs at once; the
  others wait and are let in round-robin by client, so one student who starts five
  solver runs does not hold up the next one's single run. A client is the
  ``mazekit_client`` cookie the pages get with their HTML (:func:`client_id`),
  else the address it connects from. A client has at most ``client_runs`` jobs going
  or waiting (a 429 after that), the queue at most ``solver_queue`` waiting (a 503).
- **A clock** (:meth:`Job.clock`): the time a run has used against its limit, not
  counting compiling, never going back.
- **One protocol** over a WebSocket (:meth:`Jobs.run_socket`): read the request,
  answer ``started`` (with the job's id and its place in the queue), a ``progress``
  message at once and every 0.25 s (its place in the queue while it waits), the
  ``result`` (or an ``error``: one line, never a traceback) and close;
  ``{"stop": true}``, or closing the socket, stops the job (a waiting job leaves
  the queue at once).
- **Compiling once**: a job that needs a room's kernels while the start-up warm-up
  is still compiling them waits for it (shown as ``compiling``, a stop ends the
  wait) rather than compile them a second time, and says so in the same words
  everywhere (:func:`compiling_text`).
- **Nothing kept for ever**: a finished job (its last progress and its result) stays
  readable at ``GET /api/jobs/{id}`` for ``jobs_kept_seconds``, the ``jobs_kept``
  most recent at most; then it is let go. The server's memory does not grow with
  the number of jobs it has run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..errors import InputError
from .api._common import ApiError, Limits, read_body

__all__ = [
    "CLIENT_COOKIE",
    "Busy",
    "FairQueue",
    "Job",
    "Jobs",
    "Start",
    "TooMany",
    "client_id",
    "compiling_text",
    "jobs_of",
    "new_client_token",
    "run_job",
]

log = logging.getLogger("mazekit.web")
T = TypeVar("T")

#: The cookie that names a browser to the queue (set with a room's page, see :func:`new_client_token`).
CLIENT_COOKIE = "mazekit_client"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: Seconds between two progress messages.
TICK = 0.25


class Busy(ApiError):
    """Every solver slot and queue place is taken: answered as 503."""

    status = 503


class TooMany(ApiError):
    """This client already has its share of jobs going or waiting: answered as 429."""

    status = 429


def new_client_token() -> str:
    """A fresh value for the :data:`CLIENT_COOKIE` cookie."""
    return secrets.token_urlsafe(12)


def client_id(conn: HTTPConnection) -> str:
    """Who is asking, for the queue's fairness and the limits per client: the page's
    :data:`CLIENT_COOKIE` (``"c:<token>"``) when it sent a well-formed one, else its address
    (``"a:<host>"``; behind one NAT a whole class would share it, hence the cookie)."""
    token = conn.cookies.get(CLIENT_COOKIE, "")
    if _TOKEN.fullmatch(token):
        return f"c:{token}"
    return f"a:{conn.client.host if conn.client else 'unknown'}"


def compiling_text(what: str, *, they: bool = False) -> str:
    """The one sentence for a first compile: ``compiling the solver (once per installation;
    later runs load it from the cache)``."""
    it = "them" if they else "it"
    return f"compiling {what} (once per installation; later runs load {it} from the cache)"


# ------------------------------------------------------------------ the fair queue


@dataclass(eq=False, slots=True)
class _Ticket:
    client: str
    admitted: bool = False  # it holds a slot
    gone: bool = False  # it has left (its slot or its place in line given back)
    turn: asyncio.Event = field(default_factory=asyncio.Event)  # set when it is let in


class FairQueue:
    """At most ``runs`` jobs at once; the rest wait and are let in round-robin by client.

    When a slot frees, the waiting client with the fewest jobs running goes next, among
    equals the one served longest ago (a client new to the line first, in the order
    they came), and lets in its oldest waiting job. So a client with a job running
    waits behind those with none, and one with five jobs waiting takes one turn in
    each round. A client has at most ``per_client`` jobs going or waiting
    (:class:`TooMany` past that); at most ``queue`` jobs wait in all (:class:`Busy`).

    >>> q = FairQueue(runs=1, queue=10, per_client=5)
    >>> a1, a2, a3, b1 = q.enter("a"), q.enter("a"), q.enter("a"), q.enter("b")
    >>> q.admitted(a1), [q.position(t) for t in (a2, a3, b1)]  # b's one job goes before a's next two
    (True, [2, 3, 1])
    """

    def __init__(self, runs: int, queue: int, per_client: int) -> None:
        self.runs, self.queue, self.per_client = max(1, runs), max(0, queue), max(1, per_client)
        self._running = 0
        self._line: dict[str, deque[_Ticket]] = {}  # the waiting tickets by client, in the order clients came
        self._count: dict[str, int] = {}  # jobs going or waiting, by client
        self._served: dict[str, int] = {}  # when each client with jobs was last let in (a count)
        self._turn = 0

    # -- asking
    @property
    def running(self) -> int:
        return self._running

    @property
    def waiting(self) -> int:
        return sum(len(d) for d in self._line.values())

    @property
    def clients(self) -> int:
        """Clients with a job going or waiting."""
        return len(self._count)

    def jobs_of(self, client: str) -> int:
        return self._count.get(client, 0)

    def admitted(self, ticket: _Ticket) -> bool:
        """True once the ticket holds a slot (or has left)."""
        return ticket.gone or ticket.admitted

    def position(self, ticket: _Ticket) -> int:
        """The ticket's place in line (1 = let in next), 0 once it holds a slot (or has left).
        Jobs that come later may still go before it (a client with none running)."""
        if self.admitted(ticket):
            return 0
        for place, waiting in enumerate(self._turns(), 1):
            if waiting is ticket:
                return place
        raise AssertionError("a waiting ticket is in line")  # pragma: no cover

    def _turns(self) -> Iterator[_Ticket]:
        """The waiting tickets in the order they will be let in (if no job ends or comes)."""
        line = {client: list(mine) for client, mine in self._line.items()}
        running = {client: self._count[client] - len(mine) for client, mine in line.items()}
        served = {client: self._served.get(client, -1) for client in line}
        turn = self._turn
        while line:
            client = min(line, key=lambda c: (running[c], served[c]))  # the first in line among equals
            mine = line[client]
            yield mine.pop(0)
            running[client] += 1
            served[client] = turn
            turn += 1
            if not mine:
                del line[client]

    # -- entering and leaving
    def enter(self, client: str) -> _Ticket:
        """A ticket for ``client``: a slot at once when one is free and nobody waits, else a
        place in line. Raises :class:`TooMany` or :class:`Busy` (then nothing changed)."""
        if self._count.get(client, 0) >= self.per_client:
            n = self.per_client
            raise TooMany(
                f"you already have {n} solver run{'s' if n != 1 else ''} going or waiting (the limit for one browser);"
                " wait for one to end, or stop it"
            )
        free = self._running < self.runs and not self._line
        if not free and self.waiting >= self.queue:
            raise Busy("the server is busy with other solver runs; try again in a moment")
        self._count[client] = self._count.get(client, 0) + 1
        ticket = _Ticket(client, admitted=free)
        if free:
            self._running += 1
            self._served[client] = self._turn
            self._turn += 1
        else:
            self._line.setdefault(ticket.client, deque()).append(ticket)
        return ticket

    async def wait(self, ticket: _Ticket) -> None:
        """Until the ticket holds a slot. Cancelled, it leaves the line (or its slot)."""
        if self.admitted(ticket):
            return
        try:
            await ticket.turn.wait()
        except asyncio.CancelledError:
            self.leave(ticket)
            raise

    def leave(self, ticket: _Ticket) -> None:
        """Give back the ticket's slot, or its place in line (the next in turn is let in);
        a second call does nothing."""
        if ticket.gone:
            return
        held = self.admitted(ticket)
        ticket.gone = True
        if held:
            self._running -= 1
        else:
            mine = self._line[ticket.client]
            mine.remove(ticket)
            if not mine:
                del self._line[ticket.client]
        left = self._count[ticket.client] - 1
        if left > 0:
            self._count[ticket.client] = left
        else:
            del self._count[ticket.client]
            self._served.pop(ticket.client, None)
        self._let_in()

    def _let_in(self) -> None:
        while self._running < self.runs and self._line:
            ticket = next(self._turns())
            mine = self._line[ticket.client]
            mine.popleft()
            if not mine:
                del self._line[ticket.client]
            self._running += 1
            self._served[ticket.client] = self._turn
            self._turn += 1
            ticket.admitted = True
            ticket.turn.set()


# ------------------------------------------------------------------ jobs


class Job:
    """One long run: what its worker thread and the event loop share.

    The worker sets :attr:`phase` and the job's own counters; the loop reads
    :meth:`message` every :data:`TICK` and may set :attr:`stop`. A kind of job
    subclasses it and says what it does in :meth:`fields` and :meth:`text`; the
    generic phases (``queued``, ``compiling``) are worded here.

    Class attributes: ``kind`` (``"solve"``), ``what`` (``"solver"``, for the
    messages), ``room`` (whose warm-up it waits for), ``working`` (the phase whose
    time the limit counts: only then does the progress bar have a measure),
    ``first`` (its phase once it holds a slot), ``compiling`` (the first compile's
    sentence).
    """

    kind = "job"
    what = "job"
    room = ""
    working = "working"
    first = "working"
    compiling = compiling_text("the kernels", they=True)

    def __init__(self, time_limit: float = 0.0) -> None:
        self.stop = threading.Event()
        self.time_limit = time_limit
        self.phase = "queued"
        self.started = 0.0  # perf_counter() when it started (holding a slot); 0 before
        self.waited = 0.0  # seconds spent waiting for the warm-up to compile its kernels
        self.compile_time = 0.0  # seconds of compiling so far (not counted against the limit)
        self.used = 0.0  # the last message's share of the time limit used (it only grows)
        self.id = secrets.token_urlsafe(9)
        self.client = ""
        self.position = 0  # its place in line while it waits (1 = next); 0 once it runs
        self.finished: float | None = None  # the Jobs' clock when it finished
        self.last: dict[str, Any] | None = None  # its last progress message
        self.result: dict[str, Any] | None = None  # its answer (or error), once finished

    # -- what a kind of job says
    def fields(self) -> dict[str, Any]:
        """The job's own progress fields (counters, best so far)."""
        return {}

    def text(self, limit_text: str) -> str:
        """The progress line in the job's own phases (``limit_text`` says the time used)."""
        return f"{self.what}: {self.phase} · {limit_text}"

    # -- shared
    def clock(self) -> tuple[dict[str, Any], str]:
        """The run's time against its limit: the fields ``elapsed`` (seconds since it started,
        compiling included; 0 before), ``time_limit``, ``used`` (what the limit counts:
        ``elapsed`` less ``compile_time``, at most the limit, and never less than the last
        message's: a compile is known only once it ends and would otherwise take the bar
        back) and ``fraction`` (``used / time_limit``, what the page's bar shows; None outside
        the ``working`` phase: a bar without a measure), and the phrase that says so."""
        elapsed = time.perf_counter() - self.started if self.started else 0.0
        measured = self.phase == self.working
        used = min(self.time_limit, max(self.used, elapsed - self.compile_time, 0.0))
        if measured:  # not while compiling: its length is known only once it ends
            self.used = used
        fields = {
            "elapsed": round(elapsed, 3),
            "time_limit": self.time_limit,
            "used": round(used, 3),
            "fraction": round(used / self.time_limit, 3) if measured and self.time_limit > 0 else None,
        }
        return fields, f"{used:.1f} s of the {self.time_limit:g} s time limit used (it may end sooner)"

    def message(self) -> dict[str, Any]:
        """The ``progress`` message of the moment."""
        clock, limit_text = self.clock()
        if self.phase == "queued":
            ahead = self.position - 1
            text = f"waiting for a free solver slot: {_ordinal(self.position)} in line" + (
                f" ({ahead} run{'s' if ahead != 1 else ''} ahead)" if ahead else " (next)"
            )
        elif self.phase == "compiling":
            text = self.compiling
        else:
            text = self.text(limit_text)
        if self.stop.is_set():
            text = "stopping… " + text
        msg = {
            "type": "progress",
            "phase": self.phase,
            "position": self.position,
            **clock,
            **self.fields(),
            "compile_time": round(self.compile_time, 3),
            "message": text,
        }
        self.last = msg
        return msg

    def summary(self) -> dict[str, Any]:
        """What ``GET /api/jobs/{id}`` answers."""
        return {
            "id": self.id,
            "kind": self.kind,
            "phase": "finished" if self.finished is not None else self.phase,
            "position": self.position,
            "progress": self.last,
            "result": self.result,
        }


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


#: Reads a socket's first message (the JSON object) and the server's limits: the work to run in
#: a slot (its answer the ``result`` message) and the job it reports through, and the
#: ``started`` message's fields. Bad input raises :class:`ApiError`.
Start = Callable[[dict[str, Any], Limits], tuple[Callable[[], dict[str, Any]], Job, dict[str, Any]]]


class Jobs:
    """The app's long work: the fair queue, the jobs going, waiting, and finished a while ago.

    Parameters
    ----------
    limits : Limits
        ``solver_runs``, ``solver_queue``, ``client_runs`` (the queue's),
        ``jobs_kept`` and ``jobs_kept_seconds`` (how many finished jobs are kept, and how long).
    clock : callable, optional
        Seconds, for how long a finished job is kept (default :func:`time.monotonic`; a test
        passes a fake).
    warming : callable, optional
        Returns the app's warm-up (:class:`~mazekit.web.warm.Warming`) or None; asked at each
        job, so that the app's state may change it (a test puts a gate there).
    """

    def __init__(
        self,
        limits: Limits,
        *,
        clock: Callable[[], float] = time.monotonic,
        warming: Callable[[], Any] | None = None,
    ) -> None:
        self.limits = limits
        self.queue = FairQueue(limits.solver_runs, limits.solver_queue, limits.client_runs)
        self.clock = clock
        self._warming = warming or (lambda: None)
        self._jobs: OrderedDict[str, Job] = OrderedDict()  # going or waiting (kept: finished, oldest first)
        self._kept: OrderedDict[str, Job] = OrderedDict()

    # -- the registry
    def __len__(self) -> int:
        """Jobs known: going, waiting, and finished ones still kept."""
        self.prune()
        return len(self._jobs) + len(self._kept)

    def get(self, job_id: str) -> Job | None:
        self.prune()
        return self._jobs.get(job_id) or self._kept.get(job_id)

    def stats(self, client: str | None = None) -> dict[str, Any]:
        """The queue at a glance (``GET /api/jobs``); with ``client``, that client's jobs too."""
        self.prune()
        out: dict[str, Any] = {
            "running": self.queue.running,
            "waiting": self.queue.waiting,
            "clients": self.queue.clients,
            "kept": len(self._kept),
        }
        if client is not None:
            mine = [j for j in (*self._jobs.values(), *self._kept.values()) if j.client == client]
            out["yours"] = [{k: j.summary()[k] for k in ("id", "kind", "phase", "position")} for j in mine]
        return out

    def prune(self) -> None:
        """Let go of finished jobs older than ``jobs_kept_seconds``, and of the oldest past ``jobs_kept``."""
        too_old = self.clock() - self.limits.jobs_kept_seconds
        while self._kept:
            job = next(iter(self._kept.values()))
            assert job.finished is not None
            if job.finished >= too_old and len(self._kept) <= self.limits.jobs_kept:
                break
            self._kept.popitem(last=False)

    def finish(self, job: Job, result: dict[str, Any] | None, *, keep: bool = True) -> None:
        """Mark ``job`` finished with ``result``; keep it for a while (``keep``) or let it go now."""
        self._jobs.pop(job.id, None)
        job.finished = self.clock()
        job.result = result
        job.position = 0
        if keep:
            self._kept[job.id] = job
        self.prune()

    # -- running
    def submit(self, client: str, job: Job) -> _Ticket:
        """Put ``job`` in the queue for ``client`` (:class:`TooMany`, :class:`Busy` when it cannot)."""
        ticket = self.queue.enter(client)
        job.client = client
        job.position = self.queue.position(ticket)
        if job.position:
            job.phase = "queued"
        else:
            self._begin(job)
        self._jobs[job.id] = job
        return ticket

    async def execute(self, ticket: _Ticket, job: Job, work: Callable[[], T]) -> T:
        """Wait for the ticket's turn, then run ``work`` in a worker thread (after the warm-up
        when the job's room is still compiling) and give the slot back. A stop while waiting
        leaves the line: ``work`` then runs at once, without a slot, and must see the stop."""
        try:
            while not self.queue.admitted(ticket):
                job.position = self.queue.position(ticket)
                if job.stop.is_set():
                    self.queue.leave(ticket)
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ticket.turn.wait(), 0.1)
            if job.phase == "queued":
                self._begin(job)
            return await run_in_threadpool(self._after_warm_up(job, work))
        finally:
            self.queue.leave(ticket)

    async def run(self, conn: HTTPConnection, work: Callable[[], T], job: Job | None = None) -> T:
        """Run ``work`` in the queue for the connection's client (a blocking route's way)."""
        job = job or Job()
        ticket = self.submit(client_id(conn), job)
        try:
            return await self.execute(ticket, job, work)
        finally:
            self.finish(job, None, keep=False)

    def _warming_up(self, job: Job) -> Any:
        """The app's warm-up when it is still compiling the job's room, else None."""
        warming = self._warming()
        if not job.room or warming is None or warming.is_ready(job.room):
            return None
        return warming

    def _begin(self, job: Job) -> None:
        """The job holds a slot: its first phase (``compiling`` while it waits for the warm-up)."""
        job.position = 0
        job.phase = "compiling" if self._warming_up(job) is not None else job.first

    def _after_warm_up(self, job: Job, work: Callable[[], T]) -> Callable[[], T]:
        """``work``, first waiting for the start-up warm-up to compile the job's room when it is
        still at it, rather than compile the same kernels a second time meanwhile; shown as
        ``compiling``, and a stop ends the wait."""
        warming = self._warming_up(job)
        if warming is None:
            return work
        job.phase = "compiling"

        def waiting() -> T:
            began = time.perf_counter()
            job.started = job.started or began
            warming.wait(job.room, job.stop)
            job.waited = time.perf_counter() - began
            job.compile_time += job.waited
            return work()

        return waiting

    async def run_socket(self, ws: WebSocket, start: Start) -> None:
        """The sockets' protocol (see the module): ``start`` reads the request."""
        await ws.accept()
        try:
            raw = await ws.receive_text()
        except (WebSocketDisconnect, KeyError, RuntimeError):
            return
        try:
            body = read_body(raw.encode("utf-8", "replace"), self.limits)
            work, job, started = start(body, self.limits)
            ticket = self.submit(client_id(ws), job)
        except (ApiError, InputError, ValueError) as exc:
            error: dict[str, Any] = {"type": "error", "error": str(exc).splitlines()[0]}
            if isinstance(exc, ApiError) and exc.status != 400:
                error["status"] = exc.status
            await _send(ws, error)
            await _close(ws)
            return
        await _send(
            ws, {"type": "started", **started, "job": job.id, "queued": job.position > 0, "position": job.position}
        )
        task = asyncio.ensure_future(self.execute(ticket, job, work))
        listener = asyncio.ensure_future(_listen(ws, job))
        try:
            await _send(ws, job.message())
            while True:
                done, _ = await asyncio.wait({task}, timeout=TICK)
                if done:
                    break
                await _send(ws, job.message())
        finally:
            if not task.done():  # cancelled (server shutting down): let the thread stop, then finish
                job.stop.set()
            listener.cancel()
        result = _outcome(task, job)
        self.finish(job, result)
        await _send(ws, result)
        await _close(ws)


def _outcome(task: asyncio.Future[dict[str, Any]], job: Job) -> dict[str, Any]:
    """The task's answer, or its error as one line (a bug's traceback goes to the log)."""
    try:
        return task.result()
    except (ApiError, InputError, ValueError) as exc:
        return {"type": "error", "error": str(exc).splitlines()[0]}
    except Exception as exc:  # a bug: one line to the client, the traceback in the log
        log.exception("internal error in a %s job", job.kind)
        return {"type": "error", "error": f"internal error: {type(exc).__name__}: {exc}".splitlines()[0]}


async def _send(ws: WebSocket, payload: dict[str, Any]) -> bool:
    """Send a message; False when the client has gone."""
    if ws.client_state != WebSocketState.CONNECTED:
        return False
    try:
        await ws.send_text(json.dumps(payload))
        return True
    except (WebSocketDisconnect, RuntimeError, OSError):
        return False


async def _close(ws: WebSocket) -> None:
    if ws.client_state == WebSocketState.CONNECTED:
        try:
            await ws.close()
        except RuntimeError:
            pass


async def _listen(ws: WebSocket, job: Job) -> None:
    """Read the client's messages while the job runs: ``{"stop": true}`` (or leaving) stops it."""
    while True:
        try:
            text = await ws.receive_text()
        except (WebSocketDisconnect, RuntimeError, KeyError):
            job.stop.set()
            return
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if isinstance(msg, dict) and msg.get("stop") is True:
            job.stop.set()
        else:
            await _send(ws, {"type": "error", "error": f'expected {{"stop": true}} while the {job.what} runs'})


def jobs_of(conn: HTTPConnection) -> Jobs:
    """The app's :class:`Jobs`."""
    jobs: Jobs = conn.app.state.jobs
    return jobs


def run_job(conn: HTTPConnection, work: Callable[[], T], job: Job | None = None) -> Awaitable[T]:
    """Run ``work`` (blocking, in a worker thread) through the app's fair queue."""
    return jobs_of(conn).run(conn, work, job)
