"""The long jobs: the fair queue across clients, the jobs kept a while then let go, the protocol."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from mazekit.web import Limits, create_app
from mazekit.web.jobs import CLIENT_COOKIE, Busy, FairQueue, Job, Jobs, TooMany, client_id
from tests.conftest import DATA

#: Unsolvable, but only a search to the time limit shows it: a solver run that lasts.
HARD = (DATA / "sokoban" / "slow.xsb").read_text()


# ------------------------------------------------------------------ the fair queue, alone


def _drain(q: FairQueue, running: list[Any]) -> list[str]:
    """End the running jobs one at a time (the oldest first) until none is left; the clients in
    the order their jobs were let in."""
    order = []
    while running:
        q.leave(running.pop(0))
        admitted = [t for t in _waiting_before if q.admitted(t) and not t.gone and t not in running]
        for t in admitted:
            _waiting_before.remove(t)
            running.append(t)
            order.append(t.client)
    return order


_waiting_before: list[Any] = []


def test_a_client_with_many_runs_takes_one_turn_a_round():
    q = FairQueue(runs=1, queue=20, per_client=10)
    first = q.enter("a")
    tickets = [q.enter(c) for c in ("a", "a", "a", "b", "c", "c")]
    _waiting_before[:] = tickets
    # the order the places say is the order they are let in
    places = {id(t): q.position(t) for t in tickets}
    assert sorted(places.values()) == [1, 2, 3, 4, 5, 6]
    order = _drain(q, [first])
    assert order == ["b", "c", "a", "c", "a", "a"]
    by_place = [t.client for t in sorted(tickets, key=lambda t: places[id(t)])]
    assert by_place == order
    assert (q.running, q.waiting, q.clients) == (0, 0, 0)


def test_limits_per_client_and_in_all():
    q = FairQueue(runs=1, queue=2, per_client=2)
    q.enter("a")
    q.enter("a")
    with pytest.raises(TooMany) as exc:
        q.enter("a")
    assert exc.value.status == 429 and "2 solver runs" in str(exc.value)
    q.enter("b")
    with pytest.raises(Busy) as busy:
        q.enter("c")
    assert busy.value.status == 503 and "busy" in str(busy.value)
    assert (q.running, q.waiting, q.jobs_of("a"), q.jobs_of("c")) == (1, 2, 2, 0)  # a refusal changes nothing


def test_leaving_the_line_gives_the_place_back_once():
    q = FairQueue(runs=1, queue=5, per_client=5)
    run = q.enter("a")
    b1, c1 = q.enter("b"), q.enter("c")
    assert (q.position(b1), q.position(c1)) == (1, 2)
    q.leave(b1)
    q.leave(b1)  # twice: nothing more
    assert (q.position(c1), q.waiting, q.jobs_of("b")) == (1, 1, 0)
    q.leave(run)
    assert q.admitted(c1) and q.running == 1
    q.leave(c1)
    assert (q.running, q.waiting, q.clients) == (0, 0, 0)
    assert q._served == {} and q._line == {} and q._count == {}  # nothing left of them


def test_a_cancelled_wait_leaves_the_line():
    async def main() -> tuple[int, int]:
        q = FairQueue(runs=1, queue=5, per_client=5)
        run = q.enter("a")
        waiting = q.enter("b")
        task = asyncio.ensure_future(q.wait(waiting))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        q.leave(run)
        return q.running, q.clients

    assert asyncio.run(main()) == (0, 0)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 3),
    st.lists(st.tuples(st.sampled_from(["enter", "leave"]), st.integers(0, 4), st.integers(0, 20)), max_size=60),
)
def test_the_queue_keeps_its_invariants(runs, ops):
    """Whatever enters and leaves: never more running than slots, nobody waits while a slot is
    free, the places are 1..n, and every client's jobs let in in the order they came."""
    q = FairQueue(runs=runs, queue=6, per_client=3)
    live: list[Any] = []
    came: dict[str, list[Any]] = {}
    for op, who, pick in ops:
        client = "abcde"[who]
        if op == "enter":
            try:
                t = q.enter(client)
            except (TooMany, Busy):
                continue
            live.append(t)
            came.setdefault(client, []).append(t)
        elif live:
            q.leave(live.pop(pick % len(live)))
        waiting = [t for t in live if not q.admitted(t)]
        assert q.running == len(live) - len(waiting) <= runs
        assert not waiting or q.running == runs
        assert sorted(q.position(t) for t in waiting) == list(range(1, len(waiting) + 1))
        for tickets in came.values():
            flags = [q.admitted(t) for t in tickets if t in live]
            assert flags == sorted(flags, reverse=True)  # admitted ones first: oldest first
    for t in live:
        q.leave(t)
    assert (q.running, q.waiting, q.clients) == (0, 0, 0)


# ------------------------------------------------------------------ kept a while, then let go


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_day_of_jobs_keeps_a_bounded_few():
    clock = FakeClock()
    limits = Limits(jobs_kept=50, jobs_kept_seconds=600.0)
    jobs = Jobs(limits, clock=clock)

    async def one(i: int) -> Job:
        job = Job()
        ticket = jobs.submit(f"client-{i % 30}", job)
        result = await jobs.execute(ticket, job, lambda: {"type": "result", "i": i, "trace": list(range(100))})
        jobs.finish(job, result)
        return job

    async def day() -> list[int]:
        sizes = []
        for i in range(2000):  # one every 43.2 s: a day
            await one(i)
            clock.now += 43.2
            sizes.append(len(jobs))
        return sizes

    sizes = asyncio.run(day())
    assert max(sizes) <= 15  # 600 s of jobs at one per 43.2 s (the age bound bites first here)
    assert jobs.queue.clients == 0 and jobs.queue.running == 0
    # the count bound: 200 jobs in a minute keep the 50 most recent
    last = asyncio.run(_burst(jobs, 200))
    assert len(jobs) == 50 and jobs.get(last[-1].id) is not None and jobs.get(last[0].id) is None
    assert jobs.get(last[-1].id).summary()["result"]["i"] == 199
    clock.now += 601
    assert len(jobs) == 0 and jobs.get(last[-1].id) is None


async def _burst(jobs: Jobs, n: int) -> list[Job]:
    out = []
    for i in range(n):
        job = Job()
        ticket = jobs.submit("x", job)
        jobs.finish(job, await jobs.execute(ticket, job, lambda i=i: {"i": i}))
        out.append(job)
    return out


def test_a_waiting_job_says_its_place():
    job = Job(5.0)
    job.position = 3
    m = job.message()
    assert m["phase"] == "queued" and m["position"] == 3 and m["fraction"] is None
    assert m["message"] == "waiting for a free solver slot: 3rd in line (2 runs ahead)"
    job.position = 1
    assert job.message()["message"] == "waiting for a free solver slot: 1st in line (next)"


def test_the_client_is_the_cookie_else_the_address():
    def conn(headers: list[tuple[bytes, bytes]]) -> HTTPConnection:
        return HTTPConnection({"type": "http", "headers": headers, "client": ("10.0.0.7", 5555)})

    assert client_id(conn([(b"cookie", f"{CLIENT_COOKIE}=abcdefghijkl".encode())])) == "c:abcdefghijkl"
    assert client_id(conn([])) == "a:10.0.0.7"
    assert client_id(conn([(b"cookie", f"{CLIENT_COOKIE}=x;y".encode())])) == "a:10.0.0.7"  # not a token


# ------------------------------------------------------------------ through the app


def test_a_page_gives_the_browser_its_cookie_once():
    with TestClient(create_app()) as client:
        first = client.get("/sokoban")
        token = first.cookies.get(CLIENT_COOKIE)
        assert token and len(token) >= 12 and "httponly" in first.headers["set-cookie"].lower()
        again = client.get("/search")
        assert CLIENT_COOKIE not in again.cookies  # it keeps the one it has


def _socket(stack: contextlib.ExitStack, client: TestClient, who: str, body: dict[str, Any]) -> Any:
    """A solver socket of browser ``who`` (closed when ``stack`` ends), the request sent."""
    ws = client.websocket_connect("/api/sokoban/solve", headers={"cookie": f"{CLIENT_COOKIE}={who * 12}"})
    conn = stack.enter_context(ws)
    conn.send_text(json.dumps(body))
    return conn


def _until(conn: Any, pred: Any, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        m = conn.receive_json()
        if pred(m):
            return m
    raise AssertionError("no such message")


def test_a_second_student_goes_before_the_first_ones_second_run():
    limits = Limits(solver_runs=1, solver_queue=4, client_runs=2, solver_seconds=20.0)
    long = {"level": {"text": HARD}, "time_limit": 8}
    quick = {"level": {"collection": "mazekit", "index": 0}, "time_limit": 5}
    with TestClient(create_app(limits)) as client, contextlib.ExitStack() as stack:
        a1c = _socket(stack, client, "a", long)
        assert a1c.receive_json()["position"] == 0
        a2c = _socket(stack, client, "a", quick)
        started = a2c.receive_json()
        assert started["type"] == "started" and started["queued"] and started["position"] == 1
        # a third run of the same browser is refused; the socket says why with the status
        a3c = _socket(stack, client, "a", quick)
        refused = a3c.receive_json()
        assert refused["type"] == "error" and refused["status"] == 429, refused
        b1c = _socket(stack, client, "b", quick)
        started = b1c.receive_json()
        assert started["position"] == 1  # b has nothing running: it goes before a's second run
        m = _until(a2c, lambda m: m["type"] == "progress" and m["position"] == 2)
        assert m["phase"] == "queued" and "2nd in line (1 run ahead)" in m["message"]
        stats = client.get("/api/jobs", headers={"cookie": f"{CLIENT_COOKIE}={'a' * 12}"}).json()
        assert (stats["running"], stats["waiting"], stats["clients"]) == (1, 2, 2)
        phases = sorted(j["phase"] for j in stats["yours"])
        assert len(phases) == 2 and phases.count("queued") == 1 and "finished" not in phases
        # a stop while waiting leaves the line at once
        a2c.send_text(json.dumps({"stop": True}))
        res = _until(a2c, lambda m: m["type"] in ("result", "error"))
        assert res["stopped"] == "interrupted" and res["message"] == "stopped, no solution yet"
        a1c.send_text(json.dumps({"stop": True}))
        assert _until(a1c, lambda m: m["type"] == "result")["stopped"] == "interrupted"
        res = _until(b1c, lambda m: m["type"] == "result")
        assert res["solved"]
        # the finished job is kept for a while: its result can be read back
        job = client.get(f"/api/jobs/{started['job']}").json()
        assert job["phase"] == "finished" and job["result"]["lurd"] == res["lurd"]
        client.app.state.jobs.clock = lambda: time.monotonic() + limits.jobs_kept_seconds + 1
        gone = client.get(f"/api/jobs/{started['job']}")
        assert gone.status_code == 404 and "let go" in gone.json()["error"]
        assert client.get("/api/jobs").json() == {"running": 0, "waiting": 0, "clients": 0, "kept": 0, "yours": []}


def test_a_blocking_run_waits_its_turn_too():
    """The POST routes go through the same queue: with the one slot busy, a solve waits."""
    limits = Limits(solver_runs=1, solver_queue=4, solver_seconds=20.0)
    with TestClient(create_app(limits)) as client, contextlib.ExitStack() as stack:
        conn = _socket(stack, client, "a", {"level": {"text": HARD}, "time_limit": 2})
        conn.receive_json()
        out: list[Any] = []
        t = threading.Thread(
            target=lambda: out.append(
                client.post("/api/sokoban/solve", json={"level": {"collection": "mazekit", "index": 0}})
            )
        )
        t0 = time.perf_counter()
        t.start()
        time.sleep(0.3)
        assert client.get("/api/jobs").json()["waiting"] == 1
        _until(conn, lambda m: m["type"] == "result")
        t.join(30)
        assert out[0].status_code == 200 and out[0].json()["solved"] and time.perf_counter() - t0 >= 1.0
