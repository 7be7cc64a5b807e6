"""The Sokoban routes: levels, the board after a move string, the solver and the optimiser (HTTP and WebSocket)."""

from __future__ import annotations

import json
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from mazekit import examples
from mazekit.sokoban import format_level, generate_level, parse_levels, replay
from mazekit.web.api.sokoban import collection
from tests.conftest import DATA

LEVELS = parse_levels(examples.read_text("sokoban/mazekit.xsb"))
ASSIGNMENT = examples.read_text("sokoban/assignment.txt")
#: A long run: unsolvable, but only a search to the time limit shows it (see the file).
HARD = (DATA / "sokoban" / "slow.xsb").read_text()


def state(client, moves, level=None, **extra):
    body = {"level": level or {"collection": "mazekit", "index": 1}, "moves": moves, **extra}
    return client.post("/api/sokoban/state", json=body)


def test_state_names_a_dead_pair(client):
    # two boxes close the top-left corner, and its goal, with the player outside: the board
    # says so at once, as the solver does (the same table)
    r = state(client, "", level={"text": "#######\n#.$  .#\n#$ #  #\n#  @  #\n#######"})
    assert r.status_code == 200 and r.json()["dead"] == "dead pair"
    assert r.json()["dead_boxes"] == [[1, 2], [2, 1]]
    r = state(client, "l", level={"text": "#######\n#.$  .#\n#$ #  #\n#  @  #\n#######"})
    assert r.json()["dead"] == "dead pair"


def test_state_names_the_boxes_of_a_failed_matching(client):
    # two boxes share the one goal they can reach; the third has its own and is not named
    r = state(client, "", level={"text": "#######\n#@$ $.#\n###.###\n# $ . #\n#######"})
    assert r.status_code == 200 and r.json()["dead"] == "bipartite"
    assert r.json()["dead_boxes"] == [[1, 2], [1, 4]]


def rc(level, cell):
    return list(level.rc(cell))


def test_levels_lists_the_bundled_collections(client):
    r = client.get("/api/sokoban/levels")
    assert r.status_code == 200
    cols = {c["name"]: c for c in r.json()["collections"]}
    assert set(cols) == {"mazekit", "assignment"}
    assert [lv["title"] for lv in cols["mazekit"]["levels"]] == [lv.title for lv in LEVELS]
    assert cols["assignment"]["levels"][0]["boxes"] == 1


def test_state_equals_the_engine_replay(client):
    moves = "rrruulDullll"
    r = state(client, moves)
    assert r.status_code == 200
    a = r.json()
    want = replay(LEVELS[1], moves)
    assert a["illegal"] is None
    assert (a["moves"], a["pushes"], a["solved"]) == (want.moves, want.pushes, want.solved)
    assert a["player"] == rc(LEVELS[1], want.state.player)
    assert a["boxes"] == [rc(LEVELS[1], b) for b in want.state.boxes]
    assert a["board"][0] == "########" and a["shape"] == [5, 8]


def test_a_solution_wins(client):
    a = state(client, "rRR", {"collection": "mazekit", "index": 0}).json()
    assert a["solved"] and a["moves"] == 3 and a["pushes"] == 2


def test_illegal_move_is_answered_not_crashed(client):
    r = state(client, "rrrrr")  # the fourth 'r' walks into the wall
    assert r.status_code == 200
    a = r.json()
    assert a["illegal"]["legal"] == 3 and a["illegal"]["index"] == 3 and "wall" in a["illegal"]["message"]
    assert a["moves"] == 3 and a["lurd"] == "rrr"
    # strict case: a lower-case push is illegal; lenient: the case is fixed
    a = state(client, "rr", {"collection": "mazekit", "index": 0}).json()
    assert a["illegal"]["legal"] == 1 and "push" in a["illegal"]["message"]
    a = state(client, "rr", {"collection": "mazekit", "index": 0}, strict=False).json()
    assert a["illegal"] is None and a["lurd"] == "rR"


def test_frames_follow_the_moves(client):
    a = state(client, "rRR", {"collection": "mazekit", "index": 0}, frames=True).json()
    f = a["frames"]
    assert f["count"] == 4 and f["player"]["shape"] == [4] and f["boxes"]["shape"] == [4, 1]


def test_assignment_has_its_fake_target(client):
    a = state(client, "", {"text": ASSIGNMENT}).json()
    assert a["level"]["kind"] == "assignment"
    assert a["level"]["fake_targets"] == [[3, 6]]
    assert a["board"][3][6] == "x" and a["board"][3].count(".") == 1
    assert a["level"]["assignment"]["outcome"] == "WIN"
    b = state(client, "", {"collection": "assignment", "index": 0}).json()
    assert b["level"]["fake_targets"] == [[3, 6]]


@pytest.mark.parametrize(
    "body, words",
    [
        ({"level": {"collection": "nope", "index": 0}}, "no collection called"),
        ({"level": {"collection": "mazekit", "index": 5}}, "out of range"),
        ({"level": {"collection": "mazekit", "index": -1}}, "out of range"),
        ({"level": {"collection": "mazekit", "index": "1"}}, "must be an integer"),
        ({"level": {"text": "#####\n#@$.#\n#%###\n"}}, "line 3"),
        ({"level": {"text": "#####\n#@ .#\n#####\n"}}, "no boxes"),
        ({"level": {"text": "   "}}, "empty"),
        ({"level": {"text": "x" * 300_000}}, "limit"),
        ({"level": {"text": "999999999#|#@$.#"}}, "run lengths"),
        ({"level": {"collection": "mazekit", "text": "#"}}, "exactly one"),
        ({"level": "/etc/passwd"}, "must be an object"),
        ({"level": {"path": "/etc/passwd"}}, "exactly one"),
        ({"level": {"collection": "mazekit", "index": 0}, "moves": "rxR"}, "'x' at position 2"),
        ({"level": {"collection": "mazekit", "index": 0}, "moves": 12}, "must be a string"),
        ({"level": {"collection": "mazekit", "index": 0}, "moves": "r" * 200_000}, "limit"),
    ],
)
def test_bad_input_is_a_400(client, body, words):
    r = client.post("/api/sokoban/state", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]


def test_huge_body_is_a_400(small_client):
    r = small_client.post("/api/sokoban/state", json={"level": {"text": "#" * 30_000}})
    assert r.status_code == 400 and "limit" in r.json()["error"]


def test_not_json_is_a_400(client):
    r = client.post("/api/sokoban/state", content=b"{nope")
    assert r.status_code == 400 and "malformed JSON" in r.json()["error"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, len(LEVELS) - 1), moves=st.text(alphabet="udlrUDLR", max_size=40))
def test_random_moves_match_the_engine(client, index, moves):
    a = state(client, moves, {"collection": "mazekit", "index": index}).json()
    want = replay(LEVELS[index], moves)
    assert (a["moves"], a["pushes"], a["solved"]) == (want.moves, want.pushes, want.solved)
    assert a["player"] == rc(LEVELS[index], want.state.player)
    assert a["boxes"] == [rc(LEVELS[index], b) for b in want.state.boxes]
    assert (a["illegal"] is None) == (want.error == "")
    if want.error:
        assert a["illegal"]["index"] == want.error_index and a["illegal"]["message"] == want.error


# ------------------------------------------------------------------ solving


def test_blocking_solve(client):
    r = client.post("/api/sokoban/solve", json={"level": {"collection": "mazekit", "index": 2}, "time_limit": 5})
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["solved"] and replay(LEVELS[2], a["lurd"]).solved
    assert a["moves"] == len(a["lurd"])


def test_blocking_solve_from_a_position(client):
    a = client.post("/api/sokoban/solve", json={"level": {"collection": "mazekit", "index": 3}, "moves": "L"}).json()
    assert a["solved"] and a["from"] == "L" and replay(LEVELS[3], "L" + a["lurd"]).solved


def test_blocking_solve_bad_input(client):
    r = client.post("/api/sokoban/solve", json={"level": {"collection": "mazekit", "index": 0}, "moves": "u"})
    assert r.status_code == 400 and "wall" in r.json()["error"]
    r = client.post("/api/sokoban/solve", json={"level": {"collection": "mazekit", "index": 0}, "time_limit": -1})
    assert r.status_code == 400 and "time_limit" in r.json()["error"]


def messages(ws, *, stop=None, limit=400):
    """A socket's messages up to the result (or an error); ``stop(m)`` True on a progress
    message sends ``{"stop": true}`` (once). Returns the messages and when the stop was sent."""
    out = []
    sent = None
    for _ in range(limit):
        m = ws.receive_json()
        out.append(m)
        if stop is not None and sent is None and m["type"] == "progress" and stop(m):
            ws.send_text(json.dumps({"stop": True}))
            sent = time.perf_counter()
        if m["type"] in ("result", "error"):
            return out, sent
    raise AssertionError(f"no final message in {limit}: {out[-3:]}")


def test_socket_solve_sends_progress_and_a_solution(client):
    with client.websocket_connect("/api/sokoban/solve") as ws:
        ws.send_text(json.dumps({"level": {"collection": "mazekit", "index": 2}, "time_limit": 5}))
        out, _ = messages(ws)
    kinds = [m["type"] for m in out]
    assert kinds[0] == "started" and "progress" in kinds and kinds[-1] == "result"
    res = out[-1]
    assert res["solved"] and res["stopped"] == "solved"
    assert replay(LEVELS[2], res["lurd"]).solved
    assert (res["moves"], res["pushes"]) == (len(res["lurd"]), sum(ch.isupper() for ch in res["lurd"]))


@pytest.mark.parametrize(
    "text, words",
    [
        # a 2x2 block of boxes off the goals: dead before any push
        (
            "########\n#@     #\n# $$ ..#\n# $$ ..#\n#      #\n########",
            "it is dead already: a box that can never reach a goal, boxes that can never move again",
        ),
        # two boxes close the top-left corner, and its goal, with the player outside
        (
            "#######\n#.$  .#\n#$ #  #\n#  @  #\n#######",
            "or two that can never both reach goals",
        ),
        # the player is on the wrong side of the box, and pushing it away never brings it back
        ("#######\n#.@$  #\n#######", "every reachable position that is not a deadlock was tried"),
    ],
)
def test_socket_solve_says_why_there_is_no_solution(client, text, words):
    with client.websocket_connect("/api/sokoban/solve") as ws:
        ws.send_text(json.dumps({"level": {"text": text}, "time_limit": 30}))
        out, _ = messages(ws)
    res = out[-1]
    assert res["type"] == "result" and not res["solved"] and res["stopped"] == "unsolvable", res
    assert res["message"].startswith("no solution exists from this position (") and words in res["message"]
    assert res["time"] - res["compile_time"] < 5


def test_socket_stop_answers_quickly(client):
    with client.websocket_connect("/api/sokoban/solve") as ws:
        ws.send_text(json.dumps({"level": {"text": HARD}, "time_limit": 30}))
        t0 = time.perf_counter()
        out, sent = messages(ws, stop=lambda m: m["phase"] == "searching")
    assert sent is not None, "no 'searching' progress message came"
    res = out[-1]
    assert res["type"] == "result" and not res["solved"] and res["stopped"] == "interrupted"
    assert res["message"] == "stopped, no solution yet"
    assert time.perf_counter() - sent < 5
    progress = [m for m in out if m["type"] == "progress"]
    gaps = [b["elapsed"] - a["elapsed"] for a, b in zip(progress, progress[1:], strict=False)]
    assert max(gaps, default=0) <= 0.5 + 0.3, gaps  # at least every half second (slack for a busy machine)
    assert time.perf_counter() - t0 < 25


def test_socket_solve_progress_measures_the_time_limit_used(client):
    with client.websocket_connect("/api/sokoban/solve") as ws:
        ws.send_text(json.dumps({"level": {"text": HARD}, "time_limit": 2}))
        out, _ = messages(ws)
    assert out[-1]["type"] == "result" and out[-1]["stopped"] == "time", out[-1]
    progress = [m for m in out if m["type"] == "progress"]
    assert all(m["time_limit"] == 2.0 for m in progress)
    assert all(m["fraction"] is None for m in progress if m["phase"] != "searching")  # a bar without a measure
    searching = [m for m in progress if m["phase"] == "searching"]
    assert len(searching) >= 3, [m["message"] for m in progress]  # every 0.25 s over 2 s
    for m in searching:
        assert 0 <= m["used"] <= min(2.0, m["elapsed"]) and m["fraction"] == pytest.approx(m["used"] / 2, abs=1e-3), m
        said = re.search(r"· (\d+\.\d) s of the 2 s time limit used \(it may end sooner\)$", m["message"])
        assert said and abs(float(said[1]) - m["used"]) <= 0.051, m
    assert searching[-1]["fraction"] > 0.5


@pytest.mark.parametrize(
    "payload, words",
    [
        ("not json", "malformed JSON"),
        ("[1, 2]", "expected a JSON object"),
        (json.dumps({"level": {"collection": "nope", "index": 0}}), "no collection"),
        (json.dumps({"level": {"collection": "mazekit", "index": 0}, "moves": "q"}), "not a move"),
        (json.dumps({"level": {"collection": "mazekit", "index": 0}, "moves": "u"}), "wall"),
        (json.dumps({"level": {"text": "####\n#@.#\n####"}}), "no boxes"),
    ],
)
def test_socket_bad_input_is_an_error_message(client, payload, words):
    with client.websocket_connect("/api/sokoban/solve") as ws:
        ws.send_text(payload)
        m = ws.receive_json()
    assert m["type"] == "error" and words in m["error"]


def test_socket_time_limit_is_capped(small_client):
    with small_client.websocket_connect("/api/sokoban/solve") as ws:
        ws.send_text(json.dumps({"level": {"collection": "mazekit", "index": 0}, "time_limit": 1000}))
        out, _ = messages(ws)
    assert out[0]["time_limit"] == 2.0 and out[-1]["solved"]


def test_the_bundled_collections_parse():
    levels, moves = collection("assignment")
    assert len(levels) == 1 and moves is not None


ROOM = "#######\n#@ $ .#\n#     #\n#######"


def test_optimise_shortens_a_solution(client):
    r = client.post("/api/sokoban/optimise", json={"level": {"text": ROOM}, "lurd": "rRdrruLdlluRR", "time_limit": 5})
    assert r.status_code == 200, r.text
    a = r.json()
    assert (a["lurd"], a["moves"], a["pushes"], a["before_moves"], a["before_pushes"]) == ("rRR", 3, 2, 13, 4)
    assert a["stopped"] == "done" and a["message"].startswith("shortened in ")
    # already the shortest: the same string back, and the message says so
    a = client.post("/api/sokoban/optimise", json={"level": {"text": ROOM}, "lurd": "rRR", "metric": "pushes"}).json()
    assert a["lurd"] == "rRR" and a["improvements"] == 0 and a["message"].startswith("nothing shorter found")


def test_optimise_a_solver_solution_of_a_bundled_level(client):
    level = {"collection": "mazekit", "index": 3}
    sol = client.post("/api/sokoban/solve", json={"level": level, "time_limit": 10}).json()
    a = client.post("/api/sokoban/optimise", json={"level": level, "lurd": sol["lurd"], "time_limit": 5}).json()
    levels = parse_levels(examples.read_bytes("sokoban/mazekit.xsb"))
    check = replay(levels[3], a["lurd"])
    assert check.solved and (a["moves"], a["pushes"]) == (check.moves, check.pushes)
    assert (a["moves"], a["pushes"]) <= (sol["moves"], sol["pushes"])


@pytest.mark.parametrize(
    "body, words",
    [
        ({"level": {"text": ROOM}, "lurd": "rR"}, "'lurd': the moves do not solve the level"),
        ({"level": {"text": ROOM}, "lurd": "rr"}, "'lurd': move 2 'r': is a push (write 'R')"),
        ({"level": {"text": ROOM}, "lurd": "rRx"}, "'lurd': 'x' at position 3 is not a move"),
        ({"level": {"text": ROOM}}, "'lurd'"),
        ({"level": {"text": ROOM}, "lurd": "rRR", "metric": "steps"}, "'metric' must be 'moves' or 'pushes'"),
        ({"level": {"text": ROOM}, "lurd": "rRR", "time_limit": -1}, "'time_limit' must be between"),
    ],
)
def test_optimise_bad_input_is_a_400(client, body, words):
    r = client.post("/api/sokoban/optimise", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text


# a 20x20 room of 10 boxes with the generator's wandering solution (225 moves, 68 pushes): the
# optimiser shortens it within a second and has more to try for many seconds after
WANDER = generate_level(rows=20, cols=20, boxes=10, seed=1, pulls=1500)
WANDER_LEVEL = {"text": format_level(WANDER.level)}


def test_socket_optimise_answers_as_the_post_does(client):
    body = {"level": {"text": ROOM}, "lurd": "rRdrruLdlluRR", "time_limit": 5}
    post = client.post("/api/sokoban/optimise", json=body).json()
    with client.websocket_connect("/api/sokoban/optimise") as ws:
        ws.send_text(json.dumps(body))
        out, _ = messages(ws)
    assert out[0] == {
        "type": "started",
        "time_limit": 5.0,
        "metric": "moves",
        "before_moves": 13,
        "before_pushes": 4,
        "queued": False,
        "position": 0,
        "job": out[0]["job"],
    }
    assert out[1]["type"] == "progress" and out[-1]["type"] == "result"
    res = out[-1]
    assert set(res) == set(post) | {"type"}
    for key in ("lurd", "moves", "pushes", "before_moves", "before_pushes", "improvements", "stopped"):
        assert res[key] == post[key], key
    assert res["lurd"] == "rRR" and res["message"].startswith("shortened in ")


def test_socket_optimise_sends_progress_then_the_result(client):
    with client.websocket_connect("/api/sokoban/optimise") as ws:
        ws.send_text(json.dumps({"level": WANDER_LEVEL, "lurd": WANDER.solution, "time_limit": 2}))
        out, _ = messages(ws)
    assert [m["type"] for m in (out[0], out[-1])] == ["started", "result"]
    assert (out[0]["before_moves"], out[0]["before_pushes"]) == (225, 68)
    progress = [m for m in out if m["type"] == "progress"]
    assert len(progress) >= 4, [m["message"] for m in progress]  # every 0.25 s over 2 s
    assert all(m["phase"] in ("queued", "compiling", "shortening") for m in progress)
    assert all(0 <= m["at"] < m["of"] or m["sweep"] == 0 for m in progress)
    working = [m for m in progress if m["phase"] == "shortening" and m["sweep"] >= 1]
    assert working, [m["message"] for m in progress]
    last = working[-1]
    # both are rounded to 3 places on their own: equal to within one unit of the last place
    assert 0 < last["fraction"] <= 1 and abs(last["fraction"] - last["used"] / 2) <= 0.0011
    fractions = [m["fraction"] for m in working]
    assert fractions == sorted(fractions)  # the bar never goes back (no compiling here)
    assert f"{last['used']:.1f} s of the 2 s time limit used" in last["message"]
    assert f"at push {last['at'] + 1} of {last['of']}" in last["message"]
    assert f"best so far {last['moves']:,} moves" in last["message"]
    assert last["moves"] < 225 and last["improvements"] >= 1  # the best so far, as it goes down
    res = out[-1]
    assert res["stopped"] in ("time", "done") and res["moves"] <= last["moves"]
    check = replay(WANDER.level, res["lurd"])
    assert check.solved and (res["moves"], res["pushes"]) == (check.moves, check.pushes)


def test_socket_optimise_stop_keeps_the_best_so_far(client):
    with client.websocket_connect("/api/sokoban/optimise") as ws:
        ws.send_text(json.dumps({"level": WANDER_LEVEL, "lurd": WANDER.solution, "time_limit": 30}))
        t0 = time.perf_counter()
        out, sent = messages(ws, stop=lambda m: m["improvements"] >= 1)
    assert sent is not None, "no progress message with a shorter solution came"
    res = out[-1]
    assert res["type"] == "result" and res["stopped"] == "interrupted", res
    assert time.perf_counter() - sent < 5 and time.perf_counter() - t0 < 20
    assert res["message"].startswith("stopped after ") and "the best so far: 225 \u2192" in res["message"]
    seen = [m for m in out if m["type"] == "progress"]
    assert res["moves"] <= min(m["moves"] for m in seen) < 225  # at least what the progress showed
    check = replay(WANDER.level, res["lurd"])
    assert check.solved and (res["moves"], res["pushes"]) == (check.moves, check.pushes)


@pytest.mark.parametrize(
    "payload, words",
    [
        ("not json", "malformed JSON at line 1 column 1"),
        ("[1, 2]", "expected a JSON object, got a list"),
        (json.dumps({"level": {"text": ROOM}, "lurd": "rr"}), "'lurd': move 2 'r': is a push (write 'R')"),
        (json.dumps({"level": {"text": ROOM}, "lurd": "rR"}), "'lurd': the moves do not solve the level"),
        (json.dumps({"level": {"text": ROOM}, "lurd": "rRx"}), "'lurd': 'x' at position 3 is not a move"),
        (json.dumps({"level": {"text": ROOM}, "lurd": "rRR", "metric": "steps"}), "'metric' must be"),
        (json.dumps({"level": {"collection": "nope"}, "lurd": "rRR"}), "no collection"),
    ],
)
def test_socket_optimise_bad_input_is_one_line_then_a_close(client, payload, words):
    with client.websocket_connect("/api/sokoban/optimise") as ws:
        ws.send_text(payload)
        m = ws.receive_json()
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert m["type"] == "error" and words in m["error"], m
    assert "\n" not in m["error"] and "Traceback" not in m["error"]


def test_the_time_limit_used_never_goes_back():
    # a later search's first compile is known only when it ends: its seconds leave the time used,
    # and the bar would step back by them; it stays where it was until the search catches up
    from types import SimpleNamespace

    from mazekit.web.api.sokoban import SolveJob

    watch = SolveJob(10.0)
    watch.started = time.perf_counter() - 5.0
    watch.progress(SimpleNamespace(nodes=1, expanded=1, compile_time=0.0), "searching")
    first = watch.message()
    assert 5.0 <= first["used"] < 6.0 and first["fraction"] == pytest.approx(first["used"] / 10, abs=1e-3)
    watch.progress(SimpleNamespace(nodes=2, expanded=2, compile_time=3.0), "searching")
    second = watch.message()
    assert second["used"] == first["used"] and second["fraction"] == first["fraction"]
    assert f"{first['used']:.1f} s of the 10 s time limit used" in second["message"]
    watch.started -= 4.0  # four seconds on: the search has caught up and goes past
    third = watch.message()
    assert third["used"] > first["used"] and 6.0 <= third["used"] < 7.0
