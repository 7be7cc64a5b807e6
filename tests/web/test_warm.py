"""The playground's start-up warm-up: its queue, its child processes, and the solver waiting for it."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest
from starlette.testclient import TestClient

from mazekit.web import create_app
from mazekit.web import warm as W
from mazekit.web.api import sokoban as S
from mazekit.web.app import API_MODULES, ROOMS

ROOMS_COSTS = [("search", 2.0, 0), ("maze", 13.0, 0), ("universal", 10.0, 0), ("mines", 34.0, 0), ("sokoban", 80.0, 2)]


@pytest.fixture
def ran(monkeypatch):
    """The rooms whose hook ran, in order (the hooks themselves replaced by a note)."""
    order: list[str] = []
    monkeypatch.setattr(W, "_run_hook", order.append)
    return order


def test_every_room_has_an_api_module_with_a_warm_up_and_its_cost():
    assert API_MODULES == tuple(f".api.{room}" for room in ROOMS)
    for room in ROOMS:
        module = __import__(f"mazekit.web.api.{room}", fromlist=["WARM_UP"])
        assert callable(module.WARM_UP) and module.WARM_SECONDS > 0, room


def test_one_worker_warms_the_rooms_in_the_navigation_order(ran):
    w = W.Warming(ROOMS_COSTS, workers=1, processes=False)
    w.start()
    w.join(10)
    assert ran == ["search", "maze", "universal", "mines", "sokoban"]
    assert all(w.is_ready(room) and w.state(room) == "ready" for room in ROOMS)


def test_two_workers_start_the_longest_room_first():
    w = W.Warming(ROOMS_COSTS, workers=2, processes=False)
    assert w._queue == ["sokoban", "search", "maze", "universal", "mines"]


def test_an_opened_room_moves_to_the_front_of_the_queue(ran):
    w = W.Warming(ROOMS_COSTS, workers=1, processes=False)
    w.prefer("mines")
    w.prefer("nosuch")  # not a room it warms: nothing changes
    w.start()
    w.join(10)
    assert ran == ["mines", "search", "maze", "universal", "sokoban"]


def test_a_failing_hook_marks_the_room_failed_and_the_others_go_on(monkeypatch):
    def hook(room: str) -> None:
        if room == "maze":
            raise RuntimeError("boom")

    monkeypatch.setattr(W, "_run_hook", hook)
    w = W.Warming(ROOMS_COSTS, workers=1, processes=False)
    w.start()
    w.join(10)
    assert w.state("maze") == "failed" and w.is_ready("maze")  # its requests need not wait: they compile
    assert [w.state(r) for r in ROOMS if r != "maze"] == ["ready"] * 4


def test_wait_ends_when_the_room_is_ready_or_on_a_stop_or_a_timeout(monkeypatch):
    gate = threading.Event()
    monkeypatch.setattr(W, "_run_hook", lambda room: gate.wait(10))
    w = W.Warming([("sokoban", 80.0, 0)], workers=1, processes=False)
    assert w.wait("search")  # a room it does not warm is ready
    w.start()
    assert w.state("sokoban") in ("waiting", "compiling") and not w.is_ready("sokoban")
    assert not w.wait("sokoban", timeout=0.2)
    stop = threading.Event()
    stop.set()
    assert not w.wait("sokoban", stop)
    gate.set()
    assert w.wait("sokoban", timeout=10) and w.state("sokoban") == "ready"


def test_reports_a_room_that_compiled_and_the_end_once(monkeypatch):
    lines: list[str] = []
    monkeypatch.setattr(W, "COMPILED_SECONDS", 1.0)
    monkeypatch.setattr(W, "_run_hook", lambda room: time.sleep(1.2 if room == "mines" else 0))
    w = W.Warming([("search", 2.0, 0), ("mines", 34.0, 0)], workers=1, processes=False, report=lines.append)
    w.start()
    w.join(10)
    assert len(lines) == 2, lines
    assert lines[0].startswith("the mines room is ready (its kernels compiled in 1 s"), lines
    assert lines[1].startswith("every room is ready ("), lines


def test_a_warm_restart_names_no_room(monkeypatch):
    lines: list[str] = []
    monkeypatch.setattr(W, "_run_hook", lambda room: time.sleep(0.3 if room == "sokoban" else 0))
    w = W.Warming([("search", 2.0, 0), ("sokoban", 80.0, 0)], workers=2, processes=False, report=lines.append)
    w.start()
    w.join(10)
    assert lines == ["every room is ready (0 s after the start)"], lines


def test_the_child_compiles_a_room_then_the_hook_runs_here(ran):
    w = W.Warming([("search", 2.0, 0)], workers=1, processes=True)
    w.start()
    w.join(120)
    assert ran == ["search"] and w.state("search") == "ready"


@pytest.mark.parametrize(
    "args, line",
    [
        (["nosuch"], "expected ROOM [PART], ROOM one of search, maze, universal, mines, sokoban; got ['nosuch']"),
        ([], "expected ROOM [PART], ROOM one of search, maze, universal, mines, sokoban; got []"),
        (["sokoban", "2"], "the sokoban room has 2 parts; got part '2'"),
        (["search", "0"], "the search room has 0 parts; got part '0'"),
        (["sokoban", "x"], "the sokoban room has 2 parts; got part 'x'"),
    ],
)
def test_the_child_names_bad_arguments_in_one_line(args, line):
    cmd = [sys.executable, "-c", f"import sys; from mazekit.web.warm import main; sys.exit(main({args!r}))"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.strip().splitlines() == [f"mazekit warm-up: {line}"]


def test_parts_run_at_once_before_their_rooms_last_step(monkeypatch, ran):
    steps: list[tuple[str, int | None, float, float]] = []

    def child(self, room, part=None):
        t = time.perf_counter()
        time.sleep(0.3 if part is not None else 0.05)
        steps.append((room, part, t, time.perf_counter()))

    monkeypatch.setattr(W.Warming, "_compile_in_child", child)
    w = W.Warming([("search", 2.0, 0), ("sokoban", 80.0, 2)], workers=2, processes=True)
    w.start()
    w.join(10)
    first = sorted(steps, key=lambda s: s[2])
    assert {(r, p) for r, p, _, _ in first[:2]} == {("sokoban", 0), ("sokoban", 1)}  # both workers on the parts
    last = next(s for s in steps if s[:2] == ("sokoban", None))
    assert last[2] >= max(e for r, p, _, e in steps if p is not None)  # after both parts ended
    assert sorted(ran) == ["search", "sokoban"] and w.is_ready("sokoban")


def test_without_children_a_rooms_parts_are_skipped(monkeypatch, ran):
    monkeypatch.setattr(W.Warming, "_compile_in_child", lambda self, room, part=None: pytest.fail("no children"))
    w = W.Warming([("sokoban", 80.0, 2)], workers=2, processes=False)
    w.start()
    w.join(10)
    assert ran == ["sokoban"] and w.state("sokoban") == "ready"


def test_the_sokoban_rooms_parts_compile_in_children():
    """The two shares of the search's helpers, each in a warm-up child, as the playground runs them."""
    from mazekit.sokoban.solver.compiling import FIRST_SHARE, search_callees

    assert set(FIRST_SHARE) < search_callees()
    for part in (0, 1):
        res = subprocess.run(W._child_command("sokoban", part), capture_output=True, text=True, timeout=600)
        assert res.returncode == 0, res.stderr[-2000:]


def test_a_failed_child_leaves_the_compiling_to_the_hook(monkeypatch, ran, caplog):
    monkeypatch.setattr(
        W, "_child_command", lambda room, part=None: [sys.executable, "-c", "raise SystemExit('no cache')"]
    )
    w = W.Warming([("search", 2.0, 0)], workers=1, processes=True)
    w.start()
    w.join(30)
    assert ran == ["search"] and w.state("search") == "ready"
    assert "compiling the search room in a child process failed (no cache); compiling here" in caplog.text


def test_stop_ends_a_running_child_and_starts_no_other_room(monkeypatch, ran):
    monkeypatch.setattr(
        W, "_child_command", lambda room, part=None: [sys.executable, "-c", "import time; time.sleep(60)"]
    )
    w = W.Warming([("sokoban", 80.0, 0), ("search", 2.0, 0)], workers=1, processes=True)
    w.start()
    deadline = time.monotonic() + 20
    while not w._children and time.monotonic() < deadline:
        time.sleep(0.05)
    assert w._children, "the child did not start"
    t0 = time.perf_counter()
    w.stop()
    w.join(10)
    assert time.perf_counter() - t0 < 5 and ran == []
    assert w.is_ready("sokoban")  # a request waiting on it goes on (and compiles what it needs)


# ---------------------------------------------------------------- the solver waits for it


class _Gate:
    """Stands for the app's warming: the Sokoban room is compiling until ``open`` is set."""

    def __init__(self) -> None:
        self.open = threading.Event()

    def is_ready(self, room: str) -> bool:
        return self.open.is_set()

    def wait(self, room: str, stop: threading.Event | None = None, timeout: float | None = None) -> bool:
        while not self.open.wait(0.05):
            if stop is not None and stop.is_set():
                return False
        return True

    def prefer(self, room: str) -> None:
        pass


def _solve_behind(gate, on_progress):
    """A socket solve of bundled level 3 on an app whose warm-up is ``gate``; ``on_progress(m,
    ws)`` sees each progress message. The messages up to the result."""
    out = []
    with TestClient(create_app()) as client:
        client.app.state.warming = gate
        with client.websocket_connect("/api/sokoban/solve") as ws:
            ws.send_text(json.dumps({"level": {"collection": "mazekit", "index": 2}, "time_limit": 5}))
            while not out or out[-1]["type"] not in ("result", "error"):
                out.append(ws.receive_json())
                if out[-1]["type"] == "progress":
                    on_progress(out[-1], ws)
    return out


def test_the_solver_socket_waits_for_the_warm_up_and_says_it_is_compiling():
    gate = _Gate()
    seen: list[dict] = []

    def on_progress(m, ws):
        seen.append(m)
        if len(seen) == 4:  # a second of waiting, then the warm-up ends
            gate.open.set()

    out = _solve_behind(gate, on_progress)
    waiting = seen[:4]
    assert all(m["phase"] == "compiling" and m["fraction"] is None for m in waiting), waiting
    assert waiting[-1]["elapsed"] > 0.5 and "compiling the solver" in waiting[-1]["message"]
    res = out[-1]
    assert res["type"] == "result" and res["solved"], res
    searching = [m for m in seen if m["phase"] == "searching"]
    assert all(m["used"] < 5 and m["compile_time"] >= 0.5 for m in searching), searching  # the wait is not search time


def test_a_stop_while_waiting_for_the_warm_up_answers_at_once():
    gate = _Gate()
    sent: list[float] = []

    def on_progress(m, ws):
        if not sent:
            ws.send_text(json.dumps({"stop": True}))
            sent.append(time.perf_counter())

    out = _solve_behind(gate, on_progress)
    assert time.perf_counter() - sent[0] < 3
    assert out[-1]["stopped"] == "interrupted" and out[-1]["message"] == "stopped, no solution yet"
    assert not gate.open.is_set()


def test_the_blocking_solve_route_waits_for_the_warm_up_too():
    gate = _Gate()
    with TestClient(create_app()) as client:
        client.app.state.warming = gate
        threading.Timer(0.5, gate.open.set).start()
        t0 = time.perf_counter()
        r = client.post("/api/sokoban/solve", json={"level": {"collection": "mazekit", "index": 2}, "time_limit": 5})
    assert r.status_code == 200 and r.json()["solved"] and time.perf_counter() - t0 >= 0.5


def test_compiling_does_not_fill_the_time_limit_bar():
    """A first compile longer than the time limit, known only when it ends, leaves the bar at
    the search's share, not full."""
    watch = S.SolveJob(time_limit=10.0)
    watch.started = time.perf_counter() - 60
    watch.phase = "compiling"
    assert watch.message()["fraction"] is None
    watch.progress(SimpleNamespace(nodes=10, expanded=5, compile_time=59.0), "searching")
    m = watch.message()
    assert m["phase"] == "searching" and 0.9 < m["used"] < 1.5 and m["fraction"] == pytest.approx(m["used"] / 10)


def test_the_child_compiles_even_the_hooks_tiny_inputs():
    """In mode "auto" a hook's 4 x 4 maze would run as plain Python and compile nothing."""
    code = (
        "import mazekit.web.api.maze as m; from mazekit import _jit; from mazekit.web import warm; "
        "m.WARM_UP = lambda: print(_jit.get_mode()); warm.main(['maze'])"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.split() == ["always"], res.stderr[-2000:]


#: In a fresh process: a room's warm-up as the server runs it, then a lesson's requests to that room
#: (big grids, every generator, Minesweeper games played on hints); prints the numba specialisations
#: the requests loaded that the warm-up had not.
_LOADED_AFTER_WARM_UP = """
import gc, random, sys
from numba.core.dispatcher import Dispatcher
from starlette.testclient import TestClient
from mazekit.web import create_app, warm

def loaded():
    found = (d for d in gc.get_objects() if isinstance(d, Dispatcher))
    return {f"{d.py_func.__qualname__}{sig}" for d in found for sig in d.overloads}

room = sys.argv[1]
w = warm.Warming([(room, 1.0, 0)], workers=1, processes=False)
w.start()
w.join()
assert w.state(room) == "ready", w.state(room)
before = loaded()
client = TestClient(create_app())
rng = random.Random(1)
def post(path, body):
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    return r.json()
if room == "search":
    for side in (50, 300):
        rows = ["".join("1" if rng.random() < 0.25 else "0" for _ in range(side)) for _ in range(side)]
        rows[0], rows[-1] = "0" + rows[0][1:], rows[-1][:-1] + "0"
        for algorithm in ("bfs", "dfs", "dfs-random", "greedy", "astar", "dijkstra"):
            for connectivity in (4, 8):
                body = {"grid": rows, "start": [0, 0], "goal": [side - 1, side - 1], "pack_path": True}
                post("/api/search", body | {"algorithm": algorithm, "connectivity": connectivity})
elif room == "maze":
    from mazekit.web.api.maze import ALGORITHMS
    for algorithm in ALGORITHMS:
        for n in (10, 60):
            post("/api/maze/generate", {"algorithm": algorithm, "rows": n, "cols": n, "seed": 3})
elif room == "mines":
    for seed in range(20):
        game = post("/api/mines/new", {"level": ("beginner", "intermediate")[seed % 2], "seed": seed})
        cell = [game["rows"] // 2, game["cols"] // 2]
        state = post("/api/mines/act", {"id": game["id"], "action": "open", "cell": cell})
        for _ in range(12):
            if state.get("state") in ("won", "lost"):
                break
            hint = post("/api/mines/hint", {"id": game["id"]})
            if not hint["cell"]:
                break
            action = "flag" if hint["kind"] == "flag" else "open"
            state = post("/api/mines/act", {"id": game["id"], "action": action, "cell": hint["cell"]})
print(sorted(loaded() - before))
"""


@pytest.mark.slow
@pytest.mark.parametrize("room", ["search", "maze", "mines"])
def test_after_the_warm_up_a_lesson_loads_no_kernel(room):
    """The server's warm-up loads every kernel the room's requests run, so that none loads in the
    middle of a lesson (a wait for the student who asks, and a step in the server's memory). In
    mode "auto" the hooks' tiny inputs would run as plain Python and load nothing."""
    res = subprocess.run(
        [sys.executable, "-c", _LOADED_AFTER_WARM_UP, room], capture_output=True, text=True, timeout=600
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.strip().splitlines()[-1] == "[]", res.stdout[-2000:]
