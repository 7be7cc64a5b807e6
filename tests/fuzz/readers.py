"""The fuzz targets: every reader of mazekit, fed bytes, held to its contract.

Each target takes the raw bytes of one input and returns normally when the
reader gave an answer or refused the input the way it promises to (an
:class:`~mazekit.errors.InputError` whose message is one line; for the
playground's API a 400 with ``{"error": "one line"}``). Anything else -- another
exception, a multi-line message, a 500 -- is raised as :class:`ContractBroken`
(or escapes as it is), which a fuzzer reports as a crash.

The table :data:`READERS` is shared by the suite (``tests/fuzz/test_readers.py``,
Hypothesis) and the coverage-guided runs (``benchmarks/fuzz.py``, atheris), so
both fuzz the same entry points from the same seeds.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from mazekit import examples
from mazekit.errors import InputError

__all__ = ["API_ROUTES", "READERS", "ContractBroken", "Reader", "seeds"]

DATA = Path(__file__).resolve().parents[1] / "data"


class ContractBroken(AssertionError):
    """A reader answered bad input in a way it does not promise."""


def _one_line(exc: Exception) -> None:
    text = str(exc)
    if not text or "\n" in text or "\r" in text:
        raise ContractBroken(f"{type(exc).__name__} message is not one line: {text!r}")


def _refused(exc: InputError) -> None:
    _one_line(exc)
    if exc.line < 0:
        raise ContractBroken(f"InputError with a negative line {exc.line}: {exc}")


# --------------------------------------------------------------- the targets


def grid_target(data: bytes) -> None:
    """``read_grid`` with its default legend, a forest legend, and the header parser."""
    from mazekit.grid import decode_text, parse_header, read_grid, split_lines

    try:
        g = read_grid(data)
        assert g.passable.ndim == 2 and g.passable.size >= 1
    except InputError as exc:
        _refused(exc)
    try:
        read_grid(data, legend={"X": False, "O": True, "E": True}, marks="E")
    except InputError as exc:
        _refused(exc)
    try:
        lines = split_lines(decode_text(data))
        if lines:
            parse_header(lines[0], 1, ["R", "C"])
    except InputError as exc:
        _refused(exc)


def _article_answer(solve_text: Callable[[bytes], str], data: bytes) -> None:
    """An article's command on ``data``: lines of text, or the one-line refusal."""
    try:
        out = solve_text(data)
        assert out.endswith("\n")
    except InputError as exc:
        _refused(exc)


def robot_target(data: bytes) -> None:
    from mazekit.cli.robot import solve_text

    _article_answer(solve_text, data)


def forest_target(data: bytes) -> None:
    from mazekit.cli.forest import solve_text

    _article_answer(solve_text, data)


def universal_target(data: bytes) -> None:
    from mazekit.universal import read_maze

    try:
        passable, exit = read_maze(data)
        assert passable[exit]
    except InputError as exc:
        _refused(exc)


def mines_target(data: bytes) -> None:
    """``mazekit mines open``'s reader and answer, and ``Board.parse`` (which promises ValueError)."""
    from mazekit.minesweeper import Board, open_text

    try:
        out = open_text(data)
        assert out.endswith("\n")
    except InputError as exc:
        _refused(exc)
    text = data.decode("utf-8", errors="replace")
    try:
        Board.parse(text)
    except ValueError as exc:  # Board.parse's contract: ValueError, one line
        _one_line(exc)


def sokoban_target(data: bytes) -> None:
    """XSB collections and run-length rows: ``parse_levels``."""
    from mazekit.sokoban import parse_levels

    try:
        levels = parse_levels(data)
        assert levels
    except InputError as exc:
        _refused(exc)


def assignment_target(data: bytes) -> None:
    """The assignment's input: ``parse_assignment`` and the simulator (``mazekit sokoban run``)."""
    from mazekit.cli.sokoban import run_text

    try:
        out = run_text(data)
        assert out.endswith(("WIN\n", "LOSE\n", "END\n"))
    except InputError as exc:
        _refused(exc)


def load_levels_target(data: bytes) -> None:
    """The CLI's loader: an assignment input or an XSB collection, told apart by their look."""
    from mazekit.sokoban import load_levels

    try:
        levels, _moves = load_levels(data)
        assert levels
    except InputError as exc:
        _refused(exc)


@lru_cache(maxsize=1)
def _lurd_levels() -> tuple[Any, ...]:
    from mazekit.sokoban import parse_levels

    return tuple(parse_levels(examples.read_text("sokoban/mazekit.xsb")))


def lurd_target(data: bytes) -> None:
    """LURD strings given to ``replay`` (strict and lenient): an answer always, never an exception."""
    from mazekit.sokoban.rules import replay

    levels = _lurd_levels()
    level = levels[data[0] % len(levels)] if data else levels[0]
    lurd = data[1:].decode("utf-8", errors="replace")
    for strict in (True, False):
        res = replay(level, lurd, strict=strict)
        if res.error:
            _one_line(ValueError(res.error))
        assert res.moves >= 0 and res.pushes >= 0


# -------------------------------------------------------------- the web API

#: Every POST route under /api/, and a valid body for each (the seeds).
API_ROUTES: dict[str, dict[str, Any]] = {
    "/api/search": {"grid": ["S..#", "#..#", "...G"], "algorithm": "astar"},
    "/api/article": {"article": "robot", "text": "4 7 1 3 2 6\n1001000\n0010100\n0000000\n1101000\n"},
    "/api/maze/generate": {"algorithm": "prim", "rows": 7, "cols": 9, "seed": 3, "braid": 0.5},
    "/api/universal": {"grid": ["0x0", "000", "010"], "method": "heuristic", "time_limit": 0.05},
    "/api/universal/verify": {"grid": ["0x0", "000", "010"], "commands": "UUL"},
    "/api/universal/example": {"name": "julia"},
    "/api/mines/new": {"level": "custom", "rows": 5, "cols": 6, "mines": 4, "seed": 1},
    "/api/mines/act": {"id": "GAME", "action": "open", "cell": [2, 3]},
    "/api/mines/hint": {"id": "GAME"},
    "/api/mines/probabilities": {"id": "GAME"},
    "/api/mines/article": {"example": "article", "text": "5 6 5 1\n..*...\n......\n....*.\n......\n......\n"},
    "/api/sokoban/state": {"level": {"collection": "mazekit", "index": 0}, "moves": "rRdL"},
    "/api/sokoban/solve": {"level": {"text": "#####\n#@$.#\n#####\n"}, "time_limit": 0.1},
    "/api/sokoban/optimise": {"level": {"text": "#######\n#@ $ .#\n#     #\n#######\n"}, "lurd": "rRdrruLdlluRR"},
}


@lru_cache(maxsize=1)
def _api() -> tuple[Any, asyncio.AbstractEventLoop, ThreadPoolExecutor]:
    from mazekit.web import Limits, create_app

    limits = Limits(
        max_body=20_000,
        max_cells=2_500,
        max_side=60,
        solver_seconds=0.005,  # the route's contract (an answer or a 400) is the same at any limit
        solver_memory_mb=64,
        solver_runs=1,
        solver_queue=8,
    )
    # the loop runs in a thread of its own: Playwright's sync API (the browser tests, when they run
    # in the same process first) leaves its loop marked running in the main thread, and a second
    # loop cannot run in a thread that has one running
    return create_app(limits), asyncio.new_event_loop(), ThreadPoolExecutor(1, thread_name_prefix="fuzz-api")


def api_call(path: str, body: bytes) -> tuple[int, bytes]:
    """POST ``body`` to ``path`` of an in-process playground (plain ASGI, no sockets; the event loop in
    one thread of its own)."""
    app, loop, thread = _api()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    thread.submit(loop.run_until_complete, app(scope, receive, send)).result()
    return status, b"".join(chunks)


_API_PATHS = sorted(API_ROUTES)
#: The route that runs the Sokoban solver (tens of ms an input): fuzzed on its own, so it does not
#: take most of the other routes' time (its request reader, ``read_level``, is /api/sokoban/state's too).
SOLVE = "/api/sokoban/solve"
_FAST_PATHS = [p for p in _API_PATHS if p != SOLVE]


def api_target(data: bytes) -> None:
    """The first byte picks a POST route (all but the solver's); the rest is the body. 200 or 400 (503 busy)."""
    if not data:
        return
    api_check(_FAST_PATHS[data[0] % len(_FAST_PATHS)], data[1:])


def api_solve_target(data: bytes) -> None:
    """``POST /api/sokoban/solve`` with ``data`` as the body."""
    api_check(SOLVE, data)


def _live_game() -> bytes:
    """The id of a Minesweeper game on the fuzzed server (a new one when the last was dropped)."""
    app = _api()[0]
    store = getattr(app.state, "mines_games", None)
    gid = getattr(app.state, "fuzz_game", None)
    if store is None or gid is None or store.get(gid) is None:
        new = {"level": "custom", "rows": 6, "cols": 7, "mines": 6, "seed": 5}
        status, raw = api_call("/api/mines/new", json.dumps(new).encode())
        assert status == 200, raw
        gid = json.loads(raw)["id"]
        app.state.fuzz_game = gid
    return str(gid).encode()


def api_check(path: str, body: bytes) -> None:
    """POST ``body``; the game id ``GAME`` in it stands for a live game's."""
    if b"GAME" in body:
        body = body.replace(b"GAME", _live_game())
    status, raw = api_call(path, body)
    if status not in (200, 400, 404, 503):
        raise ContractBroken(f"{path}: status {status}: {raw[:300]!r}")
    payload = json.loads(raw)
    if status != 200:
        if not isinstance(payload, dict) or not isinstance(payload.get("error"), str):
            raise ContractBroken(f"{path}: {status} without an error message: {raw[:300]!r}")
        _one_line(ValueError(payload["error"]))


def api_seed(path: str) -> bytes:
    """A valid input of :func:`api_target` for ``path`` (of :func:`api_solve_target` for the solver's)."""
    body = json.dumps(API_ROUTES[path]).encode()
    return body if path == SOLVE else bytes([_FAST_PATHS.index(path)]) + body


# ------------------------------------------------------------------ the table


@dataclass(frozen=True)
class Reader:
    """A fuzz target and where its valid seed inputs come from."""

    target: Callable[[bytes], None]
    seed_files: tuple[str, ...]  # "examples:NAME" or a path under tests/data


def _read_seed(name: str) -> bytes:
    if name.startswith("examples:"):
        return examples.read_bytes(name.removeprefix("examples:"))
    return (DATA / name).read_bytes()


_MINES = tuple(f"minesweeper/{n}.in" for n in ("article_corner", "boom", "empty", "numbered", "ring"))
_ASSIGN = (
    "examples:sokoban/assignment.txt",
    "sokoban/article_lose.in",
    "sokoban/article_push.in",
    "sokoban/article_walk.in",
)

READERS: dict[str, Reader] = {
    "grid": Reader(
        grid_target,
        (
            "examples:robot.txt",
            "examples:forest.txt",
            "examples:julia.txt",
            "articles/robot_example.in",
            "articles/forest_example.in",
        ),
    ),
    "robot": Reader(robot_target, ("examples:robot.txt", "articles/robot_example.in")),
    "forest": Reader(forest_target, ("examples:forest.txt", "articles/forest_example.in")),
    "universal": Reader(universal_target, ("examples:julia.txt",)),
    "mines": Reader(mines_target, _MINES),
    "sokoban": Reader(sokoban_target, ("examples:sokoban/mazekit.xsb",)),
    "assignment": Reader(assignment_target, _ASSIGN),
    "load_levels": Reader(load_levels_target, ("examples:sokoban/mazekit.xsb", *_ASSIGN)),
    "lurd": Reader(lurd_target, ()),
    "api": Reader(api_target, ()),
    "api_solve": Reader(api_solve_target, ()),
}


def seeds(name: str) -> list[bytes]:
    """The valid inputs a reader's fuzzing starts from."""
    if name == "lurd":
        return [b"\x00rRdL", b"\x01uuLLdr", b"\x02" + b"udlrUDLR" * 4]
    if name == "api":
        return [api_seed(p) for p in _FAST_PATHS]
    if name == "api_solve":
        return [
            api_seed(SOLVE),
            json.dumps({"level": {"collection": "mazekit", "index": 2}, "moves": "r", "time_limit": 0.1}).encode(),
        ]
    out = [_read_seed(f) for f in READERS[name].seed_files]
    if name in ("sokoban", "load_levels"):
        out.append(b"; rle\n\n5#|#.$@#|5#\nTitle: two\n")
    return out
