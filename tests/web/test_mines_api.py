"""The Minesweeper routes: games played through the API match the library's Game."""

from __future__ import annotations

import base64
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from mazekit.minesweeper import Game, open_text, probabilities, result_line
from mazekit.minesweeper import opening_order as flood_sequence
from mazekit.minesweeper.text import EXAMPLE
from mazekit.web.api.mines import EXAMPLES, GameStore, view_codes
from tests.strategies import seeds


def unpack(rec: dict[str, Any]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(rec["data"]), dtype=rec["dtype"]).reshape(rec["shape"])


def post(client: TestClient, path: str, body: Any, status: int = 200) -> dict[str, Any]:
    r = client.post(f"/api/mines/{path}", json=body)
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    if status == 400:
        assert set(data) == {"error"} and "\n" not in data["error"] and data["error"]
    return data


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    return post(client, "new", body)


def act(client: TestClient, gid: str, action: str, cell: tuple[int, int]) -> dict[str, Any]:
    return post(client, "act", {"id": gid, "action": action, "cell": list(cell)})


def same(view: dict[str, Any], game: Game) -> None:
    """The API's view is the game's."""
    assert view["state"] == game.state
    assert view["mines_left"] == game.mines_left
    assert view["clicks"] == game.clicks
    assert np.array_equal(unpack(view["board"]), view_codes(game))
    if game.board is not None:
        assert view["three_bv"] == game.three_bv()
        assert view["efficiency"] == pytest.approx(game.efficiency())
    if game.over:
        assert view["result"].split(" in ")[0] == result_line(game).split(" in ")[0]
        assert view["exploded"] == (None if game.exploded is None else list(game.exploded))


def check_flood(
    cells: list[list[int]], waves: list[int], game: Game, before: np.ndarray, seeds: list[tuple[int, int]]
) -> None:
    """Each opened cell is a seed or touches a zero opened before it (or open already); waves follow the order."""
    opened = game.opened & ~before
    assert sorted(map(tuple, cells)) == sorted(map(tuple, np.argwhere(opened).tolist()))
    known = before.copy()
    dens = game.density
    mines = game.board.mines  # type: ignore[union-attr]
    last_wave = -1
    for (r, c), w in zip(cells, waves, strict=False):
        if w == 0:
            assert (r, c) in seeds
        else:
            assert w >= last_wave
            near = (
                known[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
                & (dens[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] == 0)
                & ~mines[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
            )
            assert near.any(), (r, c)
        last_wave = w
        known[r, c] = True


# ------------------------------------------------------------------ games
@pytest.mark.parametrize(
    "level, no_guess, rule", [("beginner", False, "safe"), ("intermediate", True, "zero"), ("expert", True, "safe")]
)
def test_game_through_api_matches_game(client: TestClient, level: str, no_guess: bool, rule: str) -> None:
    v = new(client, level=level, seed=7, no_guess=no_guess, first_click=rule)
    rows, cols = v["rows"], v["cols"]
    game = Game(rows, cols, v["mines"], first_click=rule, no_guess=no_guess, rng=7)  # type: ignore[arg-type]
    same(v, game)
    first = (rows // 2, cols // 2)
    before = game.opened.copy()
    a = act(client, v["id"], "open", first)
    game.open(first)
    same(a, game)
    check_flood(a["opened"], a["wave"], game, before, [first])
    # play on with the API's hints, mirrored on the game
    for _ in range(400):
        if game.over:
            break
        h = post(client, "hint", {"id": v["id"]})
        cell = tuple(h["cell"])
        prob = probabilities(game.view(), game.n_mines)
        if h["proved"]:
            assert prob[cell] == (1.0 if h["kind"] == "flag" else 0.0)
            if h["kind"] == "open":
                assert not game.board.mines[cell]  # type: ignore[union-attr]
        action = "flag" if h["kind"] == "flag" else "open"
        before = game.opened.copy()
        a = act(client, v["id"], action, cell)  # type: ignore[arg-type]
        if action == "flag":
            game.toggle_flag(cell)  # type: ignore[arg-type]
            # the solver flags proved mines only once: open a number around it later
        else:
            game.open(cell)  # type: ignore[arg-type]
            check_flood(a["opened"], a["wave"], game, before, [cell])  # type: ignore[list-item]
        same(a, game)
    if no_guess:
        assert game.state == "won"


def test_chord_flood_and_replay(client: TestClient) -> None:
    v = new(client, level="beginner", seed=3, no_guess=True)
    gid = v["id"]
    game = Game(9, 9, 10, no_guess=True, rng=3)
    act(client, gid, "open", (4, 4))
    game.open((4, 4))
    chorded = False
    for _ in range(200):
        if game.over:
            break
        prob = probabilities(game.view(), game.n_mines)
        mines = [(int(p[0]), int(p[1])) for p in np.argwhere(prob == 1.0) if not game.flagged[tuple(p)]]
        for m in mines:
            act(client, gid, "flag", m)  # type: ignore[arg-type]
            game.toggle_flag(m)  # type: ignore[arg-type]
        # chord every number whose flags are complete and that still has closed neighbours
        done = False
        for r, c in np.argwhere(game.opened & (game.density > 0)):
            r0, c0 = max(r - 1, 0), max(c - 1, 0)
            around = np.s_[r0 : r + 2, c0 : c + 2]
            if (
                game.flagged[around].sum() == game.density[r, c]
                and (~game.opened[around] & ~game.flagged[around]).any()
            ):
                before = game.opened.copy()
                a = act(client, gid, "chord", (int(r), int(c)))
                game.chord((int(r), int(c)))
                seeds = [(i, j) for i in range(r0, min(r + 2, 9)) for j in range(c0, min(c + 2, 9))]
                check_flood(a["opened"], a["wave"], game, before, seeds)
                same(a, game)
                chorded = done = True
                break
        if not done:
            safe = np.argwhere(prob == 0.0)
            cell = (int(safe[0][0]), int(safe[0][1]))
            act(client, gid, "open", cell)
            game.open(cell)
    assert chorded and game.state == "won"
    last = post(client, "hint", {"id": gid})
    assert last["cell"] is None and "over" in last["reason"]
    # the moves replayed on a new game give the same view
    final = act(client, gid, "flag", (0, 0))
    again = new(client, level="beginner", seed=3, no_guess=True, moves=final["moves"])
    assert again["board"] == final["board"] and again["state"] == "won" and again["clicks"] == final["clicks"]


def test_loss_reveals_mines_and_hit(client: TestClient) -> None:
    v = new(client, level="beginner", seed=1)
    gid = v["id"]
    a = act(client, gid, "open", (0, 0))
    game = Game(9, 9, 10, rng=1)
    game.open((0, 0))
    mine = tuple(int(x) for x in np.argwhere(game.board.mines)[0])  # type: ignore[union-attr]
    a = act(client, gid, "open", mine)  # type: ignore[arg-type]
    assert a["state"] == "lost" and a["exploded"] == list(mine) and a["opened"] == [list(mine)]
    board = unpack(a["board"])
    assert board[mine] == 12 and int(((board == 11) | (board == 12)).sum()) == 10
    again = act(client, gid, "open", (8, 8))
    assert again["clicks"] == a["clicks"] and again["opened"] == []


def test_hint_before_first_click_and_probabilities(client: TestClient) -> None:
    v = new(client, level="expert", seed=2, first_click="zero")
    h = post(client, "hint", {"id": v["id"]})
    assert h["cell"] == [8, 15] and h["proved"] and "zero" in h["reason"]
    p = unpack(post(client, "probabilities", {"id": v["id"]})["p"])
    assert p.dtype == np.float32 and p.shape == (16, 30) and np.allclose(p, 99 / 480)
    act(client, v["id"], "open", (8, 15))
    game = Game(16, 30, 99, first_click="zero", rng=2)
    game.open((8, 15))
    ans = post(client, "probabilities", {"id": v["id"]})
    p = unpack(ans["p"])
    ref = probabilities(game.view(), 99).astype(np.float32)
    assert np.array_equal(np.isnan(p), np.isnan(ref)) and np.allclose(p[~np.isnan(p)], ref[~np.isnan(ref)])
    assert ans["safe"] == int((ref == 0).sum())


def test_new_picks_and_answers_a_seed(client: TestClient) -> None:
    a, b = new(client), new(client, level="custom", rows=5, cols=7)
    assert isinstance(a["seed"], int) and a["id"] != b["id"]
    assert (b["rows"], b["cols"], b["mines"]) == (5, 7, max(1, 35 * 10 // 64))


def test_store_drops_the_least_recently_used() -> None:
    store = GameStore(3)
    from mazekit.web.api.mines import Entry

    ids = [store.add(Entry(Game(), "beginner", s)) for s in range(3)]
    store.get(ids[0])
    ids.append(store.add(Entry(Game(), "beginner", 3)))
    assert store.get(ids[1]) is None and store.get(ids[0]) is not None and len(store) == 3


# ------------------------------------------------------------------ the article
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_article_text_is_mines_open_output(client: TestClient, name: str) -> None:
    a = post(client, "article", {"example": name})
    out = subprocess.run(
        [sys.executable, "-m", "mazekit", "mines", "open"],
        input=EXAMPLES[name].encode(),
        capture_output=True,
        check=True,
    ).stdout.decode()
    assert a["output"] == out == open_text(EXAMPLES[name])
    board = Game(
        board=__import__("mazekit.minesweeper", fromlist=["Board"]).Board.from_mines(unpack(a["mines"]).astype(bool))
    )
    before = board.opened.copy()
    board.open(tuple(a["click"]))  # type: ignore[arg-type]
    if a["boom"]:
        assert a["opened"] == [a["click"]] and out == "BOOM\n"
    else:
        check_flood(a["opened"], a["wave"], board, before, [tuple(a["click"])])  # type: ignore[list-item]
        assert a["opened"][0] == a["click"]


def test_article_default_is_the_cli_example(client: TestClient) -> None:
    a = post(client, "article", {})
    assert a["input"] == EXAMPLE and a["output"] == open_text(EXAMPLE)
    b = post(client, "article", {"text": "2 3 1 3\n...\n*..\n"})
    assert b["output"] == open_text("2 3 1 3\n...\n*..\n")


def test_flood_sequence_doctest_board() -> None:
    from mazekit.minesweeper import Board

    g = Game(board=Board.parse("....\n.*..\n....\n...."))
    before = g.opened.copy()
    g.open((3, 3))
    cells, waves = flood_sequence(g, before, [(3, 3)])
    check_flood(cells, waves, g, before, [(3, 3)])


# ------------------------------------------------------------------ bad input
BAD_NEW = [
    {"level": "huge"},
    {"level": 3},
    {"level": "custom"},
    {"level": "custom", "rows": 5, "cols": "7"},
    {"level": "custom", "rows": 5, "cols": 5, "mines": 25},
    {"level": "custom", "rows": 5, "cols": 5, "mines": 0},
    {"level": "custom", "rows": 3, "cols": 3, "first_click": "zero"},
    {"level": "custom", "rows": 101, "cols": 5},
    {"level": "beginner", "rows": 9},
    {"seed": -1},
    {"seed": "x"},
    {"no_guess": "yes"},
    {"first_click": "corner"},
    {"level": "custom", "rows": 20, "cols": 20, "mines": 200, "no_guess": True},
    {"moves": "o1.1"},
    {"moves": [["open", 9, 0]]},
    {"moves": [["boom", 0, 0]]},
    {"moves": [["open", True, 0]]},
]


@pytest.mark.parametrize("body", BAD_NEW)
def test_bad_new_is_400(client: TestClient, body: dict[str, Any]) -> None:
    post(client, "new", body, 400)


def test_bad_bodies_are_400(client: TestClient) -> None:
    gid = new(client)["id"]
    for path, body in [
        ("act", {"id": "nope", "action": "open", "cell": [0, 0]}),
        ("act", {"id": gid, "action": "open", "cell": [9, 0]}),
        ("act", {"id": gid, "action": "open", "cell": [-1, 0]}),
        ("act", {"id": gid, "action": "open", "cell": "0,0"}),
        ("act", {"id": gid, "action": "open"}),
        ("act", {"id": gid, "action": "dig", "cell": [0, 0]}),
        ("act", {"id": 12, "action": "open", "cell": [0, 0]}),
        ("act", {"action": "open", "cell": [0, 0]}),
        ("hint", {"id": "gone"}),
        ("probabilities", {"id": None}),
        ("probabilities", {}),
        ("article", {"text": "2 2 3 1\n..\n..\n"}),
        ("article", {"text": "2 2 1 1\n.x\n..\n"}),
        ("article", {"text": 5}),
        ("article", {"example": "nope"}),
        ("article", {"text": "5000 5000 1 1\n"}),
    ]:
        err = post(client, path, body, 400)["error"]
        if body.get("id") in ("nope", "gone"):
            assert err == "this game is no longer on the server; start a new one"
    for raw in (b"", b"[1]", b"{", b"\xff"):
        r = client.post("/api/mines/new", content=raw)
        assert r.status_code == 400 and "error" in r.json()


def test_small_limits(small_client: TestClient) -> None:
    post(small_client, "new", {"level": "custom", "rows": 61, "cols": 5}, 400)
    err = post(small_client, "new", {"level": "custom", "rows": 60, "cols": 50}, 400)["error"]
    assert "2500" in err
    post(small_client, "new", {"level": "custom", "rows": 50, "cols": 50, "mines": 100})


# ------------------------------------------------------------------ random play
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=seeds,
    rule=st.sampled_from(["safe", "zero"]),
    moves=st.lists(
        st.tuples(st.sampled_from(["open", "flag", "chord"]), st.integers(0, 5), st.integers(0, 6)), max_size=25
    ),
)
def test_random_actions_match_game(client: TestClient, seed: int, rule: str, moves: list[tuple[str, int, int]]) -> None:
    v = new(client, level="custom", rows=6, cols=7, mines=6, seed=seed, first_click=rule)
    game = Game(6, 7, 6, first_click=rule, rng=seed)  # type: ignore[arg-type]
    for action, r, c in moves:
        a = act(client, v["id"], action, (r, c))
        {"open": game.open, "flag": game.toggle_flag, "chord": game.chord}[action]((r, c))
        same(a, game)
    replay = new(
        client, level="custom", rows=6, cols=7, mines=6, seed=seed, first_click=rule, moves=a["moves"] if moves else []
    )
    assert replay["board"] == (a["board"] if moves else v["board"])
