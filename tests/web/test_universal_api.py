"""``/api/universal``, ``/api/universal/verify`` and ``/api/universal/example``."""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mazekit import examples
from mazekit.universal import read_maze, verify
from mazekit.web.api.universal import TRACE_CELLS
from tests.strategies import maze_texts

JULIA = [row for row in examples.read_text("julia.txt").splitlines() if row]
ANSWER = "DLDLLLULUUUDRDRDDDRRUUUURUURULLDLLL"


def unpack(rec: dict[str, Any]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(rec["data"]), dtype=np.dtype(rec["dtype"]).newbyteorder("<")).reshape(
        rec["shape"]
    )


def test_the_article_maze_needs_35(client: Any) -> None:
    r = client.post("/api/universal", json={"grid": JULIA, "method": "exact"})
    assert r.status_code == 200, r.text
    a = r.json()
    assert a["length"] == 35 == len(a["commands"]) and a["lower_bound"] == 35 and a["proven"]
    assert a["starts"] == 70 and a["pair_bound"] == 31 and a["distance_bound"] == 20
    v = client.post("/api/universal/verify", json={"grid": JULIA, "commands": a["commands"]}).json()
    assert (v["freed"], v["total"], v["text"]) == (70, 70, "70 test completed from 70")


def test_auto_method_and_time_limit_capped(small_client: Any) -> None:
    a = small_client.post("/api/universal", json={"grid": "\n".join(JULIA), "time_limit": 1000}).json()
    assert a["time_limit"] == 2.0
    assert a["found"] and a["length"] >= a["lower_bound"] == 35 or not a["complete"]


def test_walk_trace(client: Any) -> None:
    v = client.post("/api/universal/verify", json={"grid": JULIA, "commands": ANSWER}).json()
    trace = unpack(v["trace"])
    assert trace.shape == (36, 70) and trace.dtype == np.int32 and not v["trace_sampled"]
    passable, exit = read_maze("\n".join(JULIA))
    free = np.flatnonzero(passable.ravel())
    assert trace[0].tolist() == [i for i in free.tolist() if i != exit[0] * 10 + exit[1]]
    assert (trace[-1] == -1).all()
    # once out, out for good; each move is one step or none
    for t in range(1, 36):
        gone = trace[t - 1] < 0
        assert (trace[t][gone] == -1).all()
        moved = trace[t][~gone & (trace[t] >= 0)], trace[t - 1][~gone & (trace[t] >= 0)]
        assert set(np.abs(moved[0] - moved[1]).tolist()) <= {0, 1, 10}


def test_no_trace_when_not_asked(client: Any) -> None:
    v = client.post("/api/universal/verify", json={"grid": JULIA, "commands": "RRRLDUUU", "trace": False}).json()
    passable, exit = read_maze("\n".join(JULIA))
    assert "trace" not in v and v["text"] == str(verify(passable, exit, "RRRLDUUU"))


def test_big_trace_is_sampled(client: Any) -> None:
    grid = ["0" * 200] * 199 + ["0" * 199 + "x"]
    commands = "R" * (TRACE_CELLS // 39_999 + 5)
    v = client.post("/api/universal/verify", json={"grid": grid, "commands": commands}).json()
    assert v["trace_sampled"] and "trace_note" in v
    trace = unpack(v["trace"])
    assert trace.size <= TRACE_CELLS and trace.shape[0] == len(commands) + 1
    assert v["freed"] == len(commands)  # only the bottom row's last cells get out moving right


def test_stuck_cells(client: Any) -> None:
    a = client.post("/api/universal", json={"grid": ["01x", "010"]}).json()
    assert not a["found"] and a["commands"] == "" and a["stuck"] == [[0, 0], [1, 0]] and a["stuck_count"] == 2


def test_example(client: Any) -> None:
    assert client.post("/api/universal/example", json={}).json()["grid"] == JULIA


@pytest.mark.parametrize(
    ("route", "body", "words"),
    [
        ("/api/universal", {"grid": ["000", "010"]}, "no exit"),
        ("/api/universal", {"grid": ["00x", "01x"]}, "2 exits"),
        ("/api/universal", {"grid": ["00x", "012"]}, "unexpected character"),
        ("/api/universal", {"grid": ["00x", "01"]}, "'grid'"),
        ("/api/universal", {"grid": 5}, "'grid' must be a list of row strings"),
        ("/api/universal", {}, "missing field 'grid'"),
        ("/api/universal", {"grid": JULIA, "method": "fast"}, "'method' must be one of"),
        ("/api/universal", {"grid": JULIA, "time_limit": "soon"}, "'time_limit' must be a number"),
        ("/api/universal", {"grid": JULIA, "time_limit": 0}, "'time_limit' must be between"),
        ("/api/universal", {"grid": ["0" * 60] * 41 + ["x" + "0" * 59]}, "limit"),
        ("/api/universal/verify", {"grid": JULIA, "commands": "UDX"}, "'commands' has 'X' at position 3"),
        ("/api/universal/verify", {"grid": JULIA, "commands": "udxl"}, "'commands' has 'x' at position 3"),
        ("/api/universal/verify", {"grid": JULIA, "commands": 12}, "'commands' must be a string"),
        ("/api/universal/verify", {"grid": JULIA}, "missing field 'commands'"),
        ("/api/universal/verify", {"grid": JULIA, "commands": "U", "trace": 1}, "'trace' must be true or false"),
        ("/api/universal/example", {"name": "other"}, "'name' must be one of"),
    ],
)
def test_bad_input_is_400(small_client: Any, route: str, body: dict[str, Any], words: str) -> None:
    r = small_client.post(route, json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]


def test_exact_on_a_big_maze_is_400(client: Any) -> None:
    grid = ["0" * 80] * 79 + ["0" * 79 + "x"]
    r = client.post("/api/universal", json={"grid": grid, "method": "exact", "time_limit": 1})
    assert r.status_code == 400 and 'method "heuristic"' in r.json()["error"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(maze=maze_texts, commands=st.text(alphabet="UDLR", max_size=40))
def test_verify_route_matches_the_library(client: Any, maze: Any, commands: str) -> None:
    cells, r, c = maze
    cells[r][c] = "x"
    rows = ["".join(row) for row in cells]
    v = client.post("/api/universal/verify", json={"grid": rows, "commands": commands}).json()
    passable, exit = read_maze("\n".join(rows))
    verdict = verify(passable, exit, commands)
    assert (v["freed"], v["total"], v["text"]) == (verdict.reached, verdict.total, str(verdict))
    assert v["failed"] == verdict.failed.tolist()
    trace = unpack(v["trace"])
    assert trace.shape == (len(commands) + 1, verdict.total)
    assert int((trace[-1] == -1).sum()) == verdict.reached


def test_lower_case_commands_read_as_upper_case(client):
    lower = client.post("/api/universal/verify", json={"grid": JULIA, "commands": "rdldrdllldd"}).json()
    upper = client.post("/api/universal/verify", json={"grid": JULIA, "commands": "RDLDRDLLLDD"}).json()
    lower.pop("time_ms"), upper.pop("time_ms")
    assert lower == upper
