"""``POST /api/maze/generate``: the CLI's maze for a seed, its carving order, measures and bad input."""

from __future__ import annotations

import base64
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mazekit import generate as G
from mazekit.cli import main
from mazekit.generate.properties import metrics
from mazekit.web.api.maze import ALGORITHMS

URL = "/api/maze/generate"


def unpack(rec: dict[str, Any]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(rec["data"]), dtype=np.dtype(rec["dtype"]).newbyteorder("<")).reshape(
        rec["shape"]
    )


def cli_text(*args: str) -> str:
    """What ``mazekit maze generate ARGS`` writes (through ``-o``, the command's own output path)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "maze.txt"
        assert main(["maze", "generate", *args, "-o", str(out)]) == 0
        return out.read_text()


def test_algorithms_are_the_registry() -> None:
    assert list(ALGORITHMS) == list(G.GENERATORS)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_same_maze_as_the_cli(client: Any, algorithm: str) -> None:
    braid = 0.0 if algorithm == "caves" else 0.4
    r = client.post(URL, json={"algorithm": algorithm, "rows": 6, "cols": 9, "seed": 11, "braid": braid})
    assert r.status_code == 200, r.text
    a = r.json()
    args = ["-a", algorithm, "-s", "6x9", "--seed", "11"] + (["--braid", "0.4"] if braid else [])
    assert "\n".join(a["grid"]) + "\n" == cli_text(*args)
    grid = np.array([[ch == "0" for ch in row] for row in a["grid"]])
    m = metrics(grid, cells=None if algorithm == "caves" else True)
    assert a["metrics"]["dead_ends"] == m.dead_ends
    assert a["metrics"]["perfect"] == m.perfect
    assert a["metrics"]["solution_length"] == m.solution_length
    assert a["plain"] == (algorithm == "caves")
    if algorithm == "caves":
        assert a["order"] is None and a["steps"] == 0
        return
    order = unpack(a["order"])
    assert order.shape == grid.shape and order.dtype == np.int32
    assert a["steps"] == order.max() + 1
    assert a["start"] == [1, 1] and a["goal"] == [grid.shape[0] - 2, grid.shape[1] - 2]


def test_order_replays_to_the_maze(client: Any) -> None:
    a = client.post(URL, json={"algorithm": "kruskal", "rows": 5, "cols": 5, "seed": 3, "braid": 1.0}).json()
    order = unpack(a["order"])
    final = np.array([[ch == "0" for ch in row] for row in a["grid"]])
    before = np.where(order >= 0, ~final, final)  # the state before step 0
    assert before.sum() < final.sum()  # carving opens squares
    base = np.asarray(G.generate("kruskal", 5, 5, rng=3), dtype=bool)
    last = order == a["steps"] - 1
    assert a["extra_step"] is True  # braiding opened walls: they get their own last step
    assert (last == (final != base)).all()
    assert (np.where(last, base, final) == base).all()


def test_exit_marks_the_last_free_cell(client: Any) -> None:
    a = client.post(URL, json={"algorithm": "prim", "rows": 3, "cols": 4, "seed": 5, "exit": True}).json()
    assert "\n".join(a["grid"]) + "\n" == cli_text("-a", "prim", "-s", "3x4", "--seed", "5", "--exit")
    assert a["exit"] == [5, 7]


def test_seed_is_chosen_and_answered(client: Any) -> None:
    a = client.post(URL, json={"rows": 3, "cols": 3}).json()
    b = client.post(URL, json={"rows": 3, "cols": 3, "seed": a["seed"]}).json()
    assert a["grid"] == b["grid"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"algorithm": "nope"}, "'algorithm' must be one of"),
        ({"algorithm": 3}, "'algorithm' must be one of"),
        ({"rows": "ten"}, "'rows' must be an integer"),
        ({"rows": 0}, "'rows' must be between 1"),
        ({"cols": 2.5}, "'cols' must be an integer"),
        ({"seed": -1}, "'seed' must be between 0"),
        ({"braid": 2}, "'braid' must be between 0 and 1"),
        ({"braid": "lots"}, "'braid' must be a number"),
        ({"exit": "yes"}, "'exit' must be true or false"),
        ({"algorithm": "caves", "braid": 0.5}, "plain grid"),
        ({"rows": 40, "cols": 40}, "too big"),
    ],
)
def test_bad_input_is_400(small_client: Any, body: dict[str, Any], words: str) -> None:
    r = small_client.post(URL, json=body)
    assert r.status_code == 400
    assert words in r.json()["error"]


def test_not_json_is_400(client: Any) -> None:
    r = client.post(URL, content=b"[1, 2")
    assert r.status_code == 400 and "malformed JSON" in r.json()["error"]
    r = client.post(URL, json=[1, 2])
    assert r.status_code == 400 and "JSON object" in r.json()["error"]


def test_solving_through_the_search_route(client: Any) -> None:
    a = client.post(URL, json={"algorithm": "backtracker", "rows": 8, "cols": 8, "seed": 2}).json()
    s = client.post(
        "/api/search", json={"grid": a["grid"], "start": a["start"], "goal": a["goal"], "algorithm": "bfs"}
    ).json()
    assert s["found"] and s["length"] == 2 * a["metrics"]["solution_length"]


def test_teach_adds_the_generator_step_by_step(client):
    import numpy as np

    from mazekit.generate.teach import teach_generator

    body = {"algorithm": "wilson", "rows": 5, "cols": 7, "seed": 3, "teach": True}
    a = client.post("/api/maze/generate", json=body).json()
    walk = teach_generator("wilson", 5, 7, rng=np.random.default_rng(3))
    assert [s["text"] for s in a["lesson"]["steps"]] == [s.text for s in walk.steps]
    assert a["lesson"]["steps"][-1]["at"] == a["steps"] - 1 and a["lesson"]["structure"] == "random walk"
    assert ["".join("0" if x else "1" for x in row) for row in walk.maze] == a["grid"]
    note = client.post("/api/maze/generate", json={**body, "algorithm": "sidewinder"}).json()["lesson_note"]
    assert "sidewinder has none yet" in note
    big = client.post("/api/maze/generate", json={**body, "rows": 40, "cols": 40}).json()["lesson_note"]
    assert "up to 900 cells" in big
