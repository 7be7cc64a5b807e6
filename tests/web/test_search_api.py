"""``POST /api/search`` and ``/api/article``: the same routes as the CLI, traces, and bad input."""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit import examples
from mazekit.cli import main
from mazekit.web.api.search import ALGORITHMS
from tests.strategies import search_fields


def unpack(rec: dict[str, Any]) -> np.ndarray:
    arr = np.frombuffer(base64.b64decode(rec["data"]), dtype=np.dtype(rec["dtype"]).newbyteorder("<"))
    return arr.reshape(rec["shape"])


def cli_route(capsys: pytest.CaptureFixture[str], text: str, args: list[str], tmp_path: Any) -> str:
    f = tmp_path / "grid.txt"
    f.write_text(text)
    status = main(["path", str(f), *args])
    out = capsys.readouterr().out
    assert status in (0, 1)
    return out


GRIDS = [
    "0000000\n0110110\n0000100\n1110101\n0000000\n",
    "S..#....\n.#.#.##.\n.#...#..\n.####.#.\n......#G\n",
]


@pytest.mark.parametrize("algorithm", ["bfs", "astar", "dijkstra", "greedy", "dfs"])
@pytest.mark.parametrize("connectivity", [4, 8])
@pytest.mark.parametrize("text", GRIDS)
def test_same_route_as_mazekit_path(
    client: Any, capsys: Any, tmp_path: Any, algorithm: str, connectivity: int, text: str
) -> None:
    marked = "S" in text
    ends = {} if marked else {"start": [0, 0], "goal": [4, 6]}
    args = ["-a", algorithm, "-c", str(connectivity)] + ([] if marked else ["--start", "0,0", "--goal", "4,6"])
    expected = cli_route(capsys, text, args, tmp_path)
    res = client.post(
        "/api/search", json={"grid": text.splitlines(), "algorithm": algorithm, "connectivity": connectivity, **ends}
    )
    assert res.status_code == 200, res.text
    got = res.json()
    assert got["found"]
    assert "".join(f"{r} {c}\n" for r, c in got["path"]) == expected
    assert got["length"] == len(got["path"]) - 1


def test_trace_arrays(client: Any) -> None:
    rows = ["0000", "0110", "0000"]
    got = client.post("/api/search", json={"grid": rows, "start": [0, 0], "goal": [2, 3], "algorithm": "bfs"}).json()
    order, disc = unpack(got["order"]), unpack(got["discovered"])
    assert order.shape == disc.shape == (3, 4)
    assert order[0, 0] == 0 and order[1, 1] == -1 and order[1, 2] == -1
    assert got["steps"] == order.max() + 1 == got["visited"]
    seen = order >= 0
    # a cell joins the frontier no later than it is closed, and after its parent was closed
    assert (disc[seen] <= order[seen]).all()
    assert (disc[seen] >= 0).all()


@pytest.mark.parametrize("algorithm", ["bfs", "dfs"])
def test_packed_path_is_the_same_route(client: Any, algorithm: str) -> None:
    rows = ["0000", "0110", "0000"]
    body = {"grid": rows, "start": [0, 0], "goal": [2, 3], "algorithm": algorithm}
    plain = client.post("/api/search", json=body).json()
    packed = client.post("/api/search", json={**body, "pack_path": True}).json()
    path = unpack(packed["path"])
    assert path.dtype == np.int32 and path.shape == (len(plain["path"]), 2)
    assert path.tolist() == plain["path"] and packed["length"] == plain["length"]
    empty = client.post("/api/search", json={**body, "goal": [1, 1], "pack_path": True}).json()
    assert unpack(empty["path"]).shape == (0, 2) and empty["found"] is False
    bad = client.post("/api/search", json={**body, "pack_path": "yes"})
    assert bad.status_code == 400 and "pack_path" in bad.json()["error"]


def test_weights_make_dijkstra_go_round(client: Any) -> None:
    rows = ["000", "000", "000"]
    weights = ["111", "191", "111"]
    plain = client.post(
        "/api/search", json={"grid": rows, "start": [1, 0], "goal": [1, 2], "algorithm": "dijkstra"}
    ).json()
    heavy = client.post(
        "/api/search", json={"grid": rows, "start": [1, 0], "goal": [1, 2], "algorithm": "dijkstra", "weights": weights}
    ).json()
    assert plain["path"] == [[1, 0], [1, 1], [1, 2]]
    assert [1, 1] not in heavy["path"] and heavy["cost"] == 4
    astar = client.post(
        "/api/search", json={"grid": rows, "start": [1, 0], "goal": [1, 2], "algorithm": "astar", "weights": weights}
    ).json()
    assert astar["cost"] == 4


def test_border_goal_and_no_route(client: Any) -> None:
    got = client.post("/api/search", json={"grid": ["111", "101", "111"], "start": [1, 1], "goal": "border"}).json()
    assert got["found"] is False and got["path"] == [] and got["length"] == -1
    got = client.post(
        "/api/search", json={"grid": ["101", "101", "111"], "start": [1, 1], "goal": "border", "algorithm": "dfs"}
    ).json()
    assert got["found"] and got["path"][-1] == [0, 1]


def test_every_algorithm_and_heuristic_answers(client: Any) -> None:
    rows = ["0" * 12] * 9
    for algorithm in ALGORITHMS:
        for h in ("default", "octile", "euclidean", "chebyshev", "zero", "manhattan"):
            got = client.post(
                "/api/search",
                json={
                    "grid": rows,
                    "start": [0, 0],
                    "goal": [8, 11],
                    "algorithm": algorithm,
                    "heuristic": h,
                    "connectivity": 8,
                },
            )
            assert got.status_code == 200, got.text
            assert got.json()["found"]


@pytest.mark.parametrize("article", ["robot", "forest"])
def test_articles_byte_for_byte(client: Any, capsys: Any, article: str) -> None:
    text = examples.read_text(f"{article}.txt")
    assert main([article, str(examples_path(article))]) == 0
    expected = capsys.readouterr().out
    got = client.post("/api/article", json={"article": article}).json()
    assert got["output"] == expected and got["input"] == text
    assert got["base"] == (1 if article == "robot" else 0)


def examples_path(article: str) -> Any:
    from importlib import resources

    return resources.files("mazekit.examples") / f"{article}.txt"


BAD = [
    (b"", "empty request body"),
    (b"{bad", "malformed JSON at line 1"),
    (b"[1, 2]", "expected a JSON object, got a list"),
    (b'"x"', "expected a JSON object, got a string"),
    (b"\xff\xfe", "not UTF-8"),
    (json.dumps({"start": [0, 0], "goal": [0, 1]}).encode(), "missing field 'grid'"),
    (json.dumps({"grid": 5}).encode(), "'grid' must be a list of row strings"),
    (json.dumps({"grid": [1, 2]}).encode(), "'grid' must be a list of row strings"),
    (json.dumps({"grid": ["00", "0"], "start": [0, 0], "goal": [0, 1]}).encode(), "'grid'"),
    (json.dumps({"grid": ["0a", "00"], "start": [0, 0], "goal": [0, 1]}).encode(), "'grid'"),
    (
        json.dumps({"grid": ["00", "00"], "start": [0, 5], "goal": [0, 1]}).encode(),
        "'start' (0, 5) is outside the 2x2 grid",
    ),
    (json.dumps({"grid": ["00", "00"], "start": [0], "goal": [0, 1]}).encode(), "'start' must be [r, c]"),
    (json.dumps({"grid": ["00", "00"], "start": [0, True], "goal": [0, 1]}).encode(), "'start' must be [r, c]"),
    (json.dumps({"grid": ["00", "00"], "start": [0, 0]}).encode(), "no goal"),
    (json.dumps({"grid": ["00", "00"], "goal": [0, 0]}).encode(), "no start"),
    (
        json.dumps({"grid": ["00", "00"], "start": [0, 0], "goal": [1, 1], "algorithm": "bogo"}).encode(),
        "'algorithm' must be one of",
    ),
    (
        json.dumps({"grid": ["00", "00"], "start": [0, 0], "goal": [1, 1], "connectivity": 6}).encode(),
        "'connectivity' must be one of 4, 8",
    ),
    (
        json.dumps({"grid": ["00", "00"], "start": [0, 0], "goal": [1, 1], "connectivity": "4"}).encode(),
        "'connectivity' must be one of",
    ),
    (
        json.dumps({"grid": ["00", "00"], "start": [0, 0], "goal": [1, 1], "weights": ["10", "11"]}).encode(),
        "'weights' row 0",
    ),
    (
        json.dumps({"grid": ["00", "00"], "start": [0, 0], "goal": "border", "algorithm": "astar"}).encode(),
        "a border goal needs",
    ),
    (json.dumps({"grid": "S.\n.G\n", "seed": -1}).encode(), "'seed' must be between"),
    (b"[" * 100_000 + b"]" * 100_000, "malformed JSON"),
]


@pytest.mark.parametrize(("body", "message"), BAD)
def test_bad_input_is_one_clear_line(client: Any, body: bytes, message: str) -> None:
    res = client.post("/api/search", content=body, headers={"Content-Type": "application/json"})
    assert res.status_code == 400, res.text
    error = res.json()["error"]
    assert message in error and "\n" not in error and "Traceback" not in error


def test_limits(small_client: Any) -> None:
    big = ["0" * 60] * 60  # 3600 cells > 2500
    res = small_client.post("/api/search", json={"grid": big, "start": [0, 0], "goal": [1, 1]})
    assert res.status_code == 400 and "limit" in res.json()["error"]
    huge = {"grid": ["0" * 30_000]}
    res = small_client.post("/api/search", json=huge)
    assert res.status_code == 400 and "limit" in res.json()["error"]


def test_article_bad_input(client: Any) -> None:
    res = client.post("/api/article", json={"article": "robot", "text": "4 7 1 3 2 6\n1001000\n"})
    assert res.status_code == 400 and "line" in res.json()["error"]
    res = client.post("/api/article", json={"article": "mines"})
    assert res.status_code == 400


@given(st.binary(max_size=300))
def test_any_bytes_answer_200_or_400(body: bytes) -> None:
    from starlette.testclient import TestClient

    with TestClient(_APP) as c:
        res = c.post("/api/search", content=body)
    assert res.status_code in (200, 400), res.text
    assert "error" in res.json() or "found" in res.json()


@given(search_fields())
def test_any_fields_answer_200_or_400(body: dict[str, Any]) -> None:
    from starlette.testclient import TestClient

    with TestClient(_APP) as c:
        res = c.post("/api/search", content=json.dumps(body))  # NaN and Infinity as Python writes them
    assert res.status_code in (200, 400), res.text


def _app() -> Any:
    from mazekit.web import create_app

    return create_app()


_APP = _app()


def test_teach_adds_the_steps_of_the_same_search(client):
    import base64

    import numpy as np

    from mazekit.search.teach import teach

    grid = ["0000", "0110", "0000"]
    body = {"grid": grid, "start": [0, 0], "goal": [2, 3], "algorithm": "astar", "teach": True}
    a = client.post("/api/search", json=body).json()
    lesson = a["lesson"]
    order = np.frombuffer(base64.b64decode(a["order"]["data"]), dtype=a["order"]["dtype"]).reshape(3, 4)
    walk = teach(np.array([[ch == "0" for ch in row] for row in grid]), (0, 0), (2, 3), algorithm="astar")
    assert lesson["code"] == list(walk.code) and lesson["structure"] == "priority queue"
    assert [s["cell"] for s in lesson["steps"]] == [r * 4 + c for r, c in (s.cell for s in walk.steps)]
    # the steps follow the trace the page animates
    assert all(order.flat[s["cell"]] == s["at"] for s in lesson["steps"])
    assert lesson["steps"][0]["text"] == walk.steps[0].text and lesson["steps"][-1]["goal"] is True
    assert "lesson" not in client.post("/api/search", json={**body, "teach": False}).json()


def test_teach_says_why_not(client):
    big = {"grid": ["0" * 70] * 70, "start": [0, 0], "goal": [69, 69], "algorithm": "bfs", "teach": True}
    assert "up to 3,600 cells" in client.post("/api/search", json=big).json()["lesson_note"]
    border = {"grid": ["000", "000"], "start": [0, 0], "goal": "border", "algorithm": "bfs", "teach": True}
    assert "goal cell" in client.post("/api/search", json=border).json()["lesson_note"]


def test_a_large_step_by_step_answer_travels_gzipped(client: Any) -> None:
    """A 40x40 search with the panes' record: gzipped for a browser that takes it (the same JSON
    once unzipped), plain for one that does not; an answer without the record is never zipped."""
    grid = ["0" * 40] * 40
    body = {"grid": grid, "start": [0, 0], "goal": [39, 39], "algorithm": "bfs", "teach": True}
    zipped = client.post("/api/search", json=body, headers={"accept-encoding": "gzip"})
    plain = client.post("/api/search", json=body, headers={"accept-encoding": "identity"})
    assert zipped.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    # the test client unzips the answer: the same record, a third of the bytes or less on the wire
    assert zipped.json()["lesson"] == plain.json()["lesson"]
    assert int(zipped.headers["content-length"]) < len(plain.content) / 3
    quiet = client.post("/api/search", json={**body, "teach": False}, headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in quiet.headers
