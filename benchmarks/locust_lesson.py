"""A lesson's load on the playground, for Locust: each simulated user is one student.

Run by ``python benchmarks/run.py load`` (``bench_load.py``), which starts the server, runs
``locust -f benchmarks/locust_lesson.py --headless ...`` against it on 127.0.0.1, watches the
server's memory and writes the figures. A student opens the rooms' pages (the HTML, its style
sheets and scripts) and, at a lesson's pace (0.5 to 2 s between steps), does what a lesson does:

- grid searches on 50x50 to 300x300 grids (BFS, DFS, A*, greedy, Dijkstra, with their traces);
- maze generation with the carving trace (any generator, 10x10 to 60x60 cells);
- a Minesweeper game (beginner or intermediate): the first click, then hints and the moves
  they give, until the game ends or 12 moves;
- Sokoban moves (the board after each move, as the room asks it) on a bundled level;
- and ``MAZEKIT_LOAD_SOLVES`` (5) Sokoban solver runs over the WebSocket, at random times
  through the lesson, with the progress messages read as the page reads them.

Environment: ``MAZEKIT_LOAD_SECONDS`` (how long the lesson lasts: the solver runs are spread
over it), ``MAZEKIT_LOAD_SUMMARY`` (a JSON file written at the end: status codes, sockets
dropped, solver runs, the time solver runs waited in the queue, every request's response time and
failures by kind of request, so that percentiles can be taken over several lessons).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import websocket
from bench_load import ALGORITHMS, GENERATORS
from locust import HttpUser, between, events, task

SECONDS = float(os.environ.get("MAZEKIT_LOAD_SECONDS", "300"))
SOLVES = int(os.environ.get("MAZEKIT_LOAD_SOLVES", "5"))
SUMMARY = os.environ.get("MAZEKIT_LOAD_SUMMARY", "")

ROOMS = {
    "/": ["/static/style.css", "/static/js/common.js", "/static/img/search.png"],
    "/search": ["/static/style.css", "/static/js/search.js", "/static/js/common.js", "/static/js/gridview.js"],
    "/maze": ["/static/style.css", "/static/js/maze.js", "/static/js/player.js"],
    "/mines": ["/static/style.css", "/static/mines.css", "/static/js/mines.js"],
    "/sokoban": ["/static/style.css", "/static/sokoban.css", "/static/js/sokoban.js"],
}
SIDES = (50, 100, 200, 300)
#: Bundled Sokoban levels a lesson plays and asks the solver about (each solved in milliseconds).
SOKOBAN = [("mazekit", i) for i in range(5)] + [("assignment", 0)]
#: One of a student's solver runs is on a level too hard for it (38 boxes, unsolvable, but only a
#: search to the time limit shows it): a run that holds its slot for the whole time limit.
HARD = (Path(__file__).resolve().parent.parent / "tests" / "data" / "sokoban" / "slow.xsb").read_text()
HARD_SECONDS = float(os.environ.get("MAZEKIT_LOAD_HARD_SECONDS", "5"))

_seen: Counter[str] = Counter()  # status codes (and "ws-dropped", ...), for the summary
_times: dict[str, list[float]] = {}  # "TYPE name": every response time (ms), for percentiles across lessons
_failed: Counter[str] = Counter()  # "TYPE name": failures
_errors: Counter[str] = Counter()  # "TYPE name: error": failures
_queue_waits: list[float] = []
_solve_times: list[float] = []


def _grid(side: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    rows = ["".join("1" if rng.random() < 0.25 else "0" for _ in range(side)) for _ in range(side)]
    rows[0] = "0" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "0"
    return rows


#: A few grids of each size, made once (a student's grid comes with the room; making it here for
#: every request would load the client's CPU, which the server shares).
GRIDS = {side: [_grid(side, seed) for seed in range(3)] for side in SIDES}


@events.request.add_listener
def _count(
    request_type: str,
    name: str,
    response_time: float = 0.0,
    response: Any = None,
    exception: Any = None,
    **kw: Any,
) -> None:
    key = f"{request_type} {name}"
    _times.setdefault(key, []).append(round(float(response_time), 2))
    if exception is not None:
        _failed[key] += 1
        _errors[f"{key}: {str(exception).splitlines()[0][:200] if str(exception) else type(exception).__name__}"] += 1
    if request_type == "WS":
        _seen["ws-ok" if exception is None else "ws-dropped"] += 1
    elif response is not None and getattr(response, "status_code", None) is not None:
        _seen[str(response.status_code)] += 1


@events.quitting.add_listener
def _write_summary(environment: Any, **kw: Any) -> None:
    if SUMMARY:
        with open(SUMMARY, "w") as f:
            summary = {
                "seen": dict(_seen),
                "queue_waits": _queue_waits,
                "solve_times": _solve_times,
                "times": _times,
                "failed": dict(_failed),
                "errors": dict(_errors),
            }
            json.dump(summary, f)


class Student(HttpUser):
    """One student: the pages, then a lesson's steps at a reading pace."""

    wait_time = between(0.5, 2.0)

    def on_start(self) -> None:
        self.rng = random.Random()
        self.t0 = time.monotonic()
        # the solver runs' times, spread over the lesson (not in its last 20 s, so each can end)
        self.solves = sorted(self.rng.uniform(5.0, max(6.0, SECONDS - 20.0)) for _ in range(SOLVES))
        self.hard = self.rng.randrange(SOLVES) if SOLVES and HARD_SECONDS > 0 else -1  # which one is the hard one
        self.level = self.rng.choice(SOKOBAN)
        self.moves = ""
        self.page("/")  # the first visit gives the browser its cookie

    # ------------------------------------------------------------------ steps
    @task
    def step(self) -> None:
        if self.solves and time.monotonic() - self.t0 >= self.solves[0]:
            self.solves.pop(0)
            self.solve(hard=len(self.solves) == self.hard)
            return
        kind = self.rng.choices(["page", "search", "maze", "mines", "sokoban"], weights=[1, 4, 3, 1, 3])[0]
        getattr(self, kind)()

    def page(self, path: str | None = None) -> None:
        path = path or self.rng.choice(list(ROOMS))
        self.client.get(path, name=f"page {path}")
        for asset in ROOMS[path]:
            self.client.get(asset, name="static file")

    def search(self) -> None:
        side = self.rng.choice(SIDES)
        body = {
            "grid": self.rng.choice(GRIDS[side]),
            "start": [0, 0],
            "goal": [side - 1, side - 1],
            "algorithm": self.rng.choice(ALGORITHMS),
            "connectivity": self.rng.choice([4, 8]),
            "pack_path": True,  # as the rooms ask
        }
        self.client.post("/api/search", json=body, name=f"/api/search {side}x{side}")

    def maze(self) -> None:
        n = self.rng.choice([10, 20, 40, 60])
        body = {"algorithm": self.rng.choice(GENERATORS), "rows": n, "cols": n, "seed": self.rng.randrange(2**31)}
        self.client.post("/api/maze/generate", json=body, name=f"/api/maze/generate {n}x{n}")

    def mines(self) -> None:
        level = self.rng.choice(["beginner", "intermediate"])
        game = self.client.post("/api/mines/new", json={"level": level}, name="/api/mines/new").json()
        gid, rows, cols = game["id"], game["rows"], game["cols"]
        state = self.client.post(
            "/api/mines/act", json={"id": gid, "action": "open", "cell": [rows // 2, cols // 2]}, name="/api/mines/act"
        ).json()
        for _ in range(12):
            if state.get("state") in ("won", "lost", None):
                break
            time.sleep(self.rng.uniform(0.3, 1.0))  # looking at the board
            hint = self.client.post("/api/mines/hint", json={"id": gid}, name="/api/mines/hint").json()
            if not hint.get("cell"):
                break
            action = "flag" if hint["kind"] == "flag" else "open"
            state = self.client.post(
                "/api/mines/act", json={"id": gid, "action": action, "cell": hint["cell"]}, name="/api/mines/act"
            ).json()

    def sokoban(self) -> None:
        collection, index = self.level
        for _ in range(self.rng.randint(3, 8)):  # a few moves, one request each, as the room asks
            self.moves += self.rng.choice("udlr")
            body = {"level": {"collection": collection, "index": index}, "moves": self.moves, "strict": False}
            with self.client.post("/api/sokoban/state", json=body, name="/api/sokoban/state", catch_response=True) as r:
                if r.status_code == 200:
                    answer = r.json()
                    self.moves = answer["lurd"]  # the legal moves, in the right case
                    if answer["solved"] or len(self.moves) > 200:
                        self.level, self.moves = self.rng.choice(SOKOBAN), ""
            time.sleep(self.rng.uniform(0.1, 0.4))

    def solve(self, hard: bool = False) -> None:
        """A solver run over the WebSocket, as the Sokoban room does it: the progress read until
        the result; a socket that closes before the result is a dropped socket. ``hard``: the
        level too hard for the solver, with a short time limit (it ends at the limit, unsolved)."""
        if hard:
            body: dict[str, Any] = {"level": {"text": HARD}, "time_limit": HARD_SECONDS}
            name = f"sokoban solve, too hard (socket, {HARD_SECONDS:g} s limit)"
        else:
            collection, index = self.rng.choice(SOKOBAN)
            body = {"level": {"collection": collection, "index": index}, "time_limit": 10}
            name = "sokoban solve (socket, start to result)"
        cookie = "; ".join(f"{k}={v}" for k, v in self.client.cookies.items())
        url = self.host.replace("http://", "ws://") + "/api/sokoban/solve"
        t0 = time.perf_counter()
        waited = 0.0
        error: Exception | None = None
        size = 0
        try:
            ws = websocket.create_connection(url, cookie=cookie, timeout=90)
            try:
                ws.send(json.dumps(body))
                queued = False
                while True:
                    m = json.loads(ws.recv())
                    size += 1
                    if m["type"] == "started":
                        queued = m["queued"]
                    elif queued and m["type"] == "progress" and m["phase"] != "queued":
                        queued, waited = False, time.perf_counter() - t0
                    elif m["type"] == "error":
                        raise RuntimeError(f"solver error: {m['error']}")
                    elif m["type"] == "result":
                        if m["solved"] == hard or m["stopped"] not in ("solved", "time"):
                            raise RuntimeError(f"unexpected answer: {m['message']}")
                        break
            finally:
                ws.close()
        except Exception as exc:  # a dropped socket, a timeout, an error message
            error = exc
        took = time.perf_counter() - t0
        if error is None:
            _solve_times.append(took)
            _queue_waits.append(waited)
        self.environment.events.request.fire(
            request_type="WS", name=name, response_time=took * 1000, response_length=size, exception=error, context={}
        )
