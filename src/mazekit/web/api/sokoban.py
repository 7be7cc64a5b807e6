"""Sokoban routes: the bundled levels, the board after a move string, and the solver.

The page never applies a rule of the game itself: it keeps the move string
(LURD letters, upper case a push) and asks ``POST /api/sokoban/state`` for the
board after it, so undo, redo and restart are edits of that string. Levels
come only from the package's examples (``GET /api/sokoban/levels``) or from
text sent in the request (XSB, run-length rows, or the assignment's map);
never from a path.

The solver and the optimiser run as jobs of the app's fair queue
(:mod:`mazekit.web.jobs`), either blocking (``POST /api/sokoban/solve``, ``POST
/api/sokoban/optimise``) or over a WebSocket at the same path that streams the
progress and can be stopped (the jobs' one protocol). The protocols and every
JSON field are described in ``docs/playground/sokoban.md``.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from ... import examples
from ...errors import InputError
from ...sokoban import Deadlocks, Level, State, format_level, positions, replay, simulate, step
from ...sokoban.rules import Game
from ...sokoban.solver.optimise import Metric, OptimiseStatus, pushes_of
from ..jobs import Job, compiling_text, jobs_of, run_job
from ._common import ApiError, Limits, _kind, answer, endpoint, field_bool, field_float, field_text, pack

__all__ = [
    "COLLECTIONS",
    "ROUTES",
    "Board",
    "LevelRef",
    "OptimiseJob",
    "SolveJob",
    "board",
    "board_payload",
    "collection",
    "frames",
    "optimise_level",
    "read_level",
    "read_moves",
    "solve_level",
]

#: The bundled collections: name -> example file (under ``mazekit/examples``).
COLLECTIONS: dict[str, str] = {"mazekit": "sokoban/mazekit.xsb", "assignment": "sokoban/assignment.txt"}
#: What each bundled collection is, in one line.
ABOUT: dict[str, str] = {
    "mazekit": "mazekit's own small levels",
    "assignment": "the assignment's example map (its fake target does not count)",
}

#: Longest pasted level text, in characters.
MAX_TEXT = 200_000
#: Longest move string, in letters.
MAX_MOVES = 100_000
_MOVE_CHARS = re.compile(r"[^udlrUDLR\s]")


# ------------------------------------------------------------------- levels


@dataclass(frozen=True, slots=True)
class LevelRef:
    """A level chosen by a request: its collection (or pasted text), index and the level itself.

    Attributes
    ----------
    level : Level
        The engine's level.
    index : int
        Its 0-based index in the collection or text.
    count : int
        How many levels the collection or text holds.
    collection : str or None
        The bundled collection's name; None for pasted text.
    kind : str
        ``"xsb"`` or ``"assignment"`` (the assignment's map, with a fake target).
    assignment_moves : str or None
        For an assignment input, its line of moves as LURD letters.
    """

    level: Level
    index: int
    count: int
    collection: str | None
    kind: str
    assignment_moves: str | None


def _load(text: str) -> tuple[list[Level], str | None]:
    from ...sokoban.formats import load_levels

    return load_levels(text.encode("utf-8"))


@functools.cache
def collection(name: str) -> tuple[tuple[Level, ...], str | None]:
    """The levels of bundled collection ``name`` and the assignment's moves (for the assignment)."""
    levels, moves = _load(examples.read_text(COLLECTIONS[name]))
    return tuple(levels), moves


@functools.lru_cache(maxsize=32)
def _parse_text(text: str) -> tuple[tuple[Level, ...], str | None]:
    levels, moves = _load(text)
    return tuple(levels), moves


def _check_runs(text: str, limits: Limits) -> None:
    """Refuse run-length rows that would expand past the cell limit (before expanding them)."""
    total = 0
    for m in re.finditer(r"\d+", text):
        total += int(m.group(0)) if len(m.group(0)) < 12 else limits.max_cells + 1
        if total > limits.max_cells:
            raise ApiError(f"'level.text': its run lengths add up to more than {limits.max_cells} cells, the limit")


def read_level(body: Mapping[str, Any], limits: Limits) -> LevelRef:
    """The ``level`` field: ``{"collection": name, "index": i}`` or ``{"text": ..., "index": i}``.

    Raises :class:`ApiError` naming the field and what is wrong (an unknown
    collection, an index out of range, a malformed level naming its line).
    """
    ref = body.get("level")
    if not isinstance(ref, dict):
        raise ApiError(
            f'\'level\' must be an object {{"collection": name, "index": i}} or '
            f'{{"text": level text, "index": i}}, got {_kind(ref)}'
        )
    if ("collection" in ref) == ("text" in ref):
        raise ApiError("'level' needs exactly one of 'collection' (a bundled collection) and 'text' (a pasted level)")
    name: str | None = None
    if "collection" in ref:
        name = ref["collection"]
        if not isinstance(name, str) or name not in COLLECTIONS:
            shown = json.dumps(name)[:40]
            raise ApiError(f"'level.collection': no collection called {shown}; there are {', '.join(COLLECTIONS)}")
        levels, moves = collection(name)
    else:
        text = field_text(ref, "text", max_len=MAX_TEXT)
        if not text.strip():
            raise ApiError("'level.text' is empty: paste an XSB level (or collection) or the assignment's map")
        _check_runs(text, limits)
        try:
            levels, moves = _parse_text(text)
        except InputError as exc:
            raise ApiError(f"'level.text': {exc}") from None
    index = ref.get("index", 0)
    if isinstance(index, bool) or not isinstance(index, int):
        raise ApiError(f"'level.index' must be an integer, got {_kind(index)}")
    if not 0 <= index < len(levels):
        where = f"collection {name!r}" if name else "the text"
        raise ApiError(f"'level.index' {index} is out of range: {where} has {len(levels)} level(s), numbered from 0")
    level = levels[index]
    rows, cols = level.shape
    if rows > limits.max_side or cols > limits.max_side or level.size > limits.max_cells:
        raise ApiError(
            f"level {index} is {rows}x{cols}; the limit is {limits.max_side} a side and {limits.max_cells} cells"
        )
    kind = "assignment" if moves is not None else "xsb"
    return LevelRef(level, index, len(levels), name, kind, moves)


def read_moves(body: Mapping[str, Any], key: str = "moves") -> str:
    """A move string: LURD letters (whitespace ignored), at most :data:`MAX_MOVES`."""
    moves = field_text(body, key, "", max_len=MAX_MOVES)
    bad = _MOVE_CHARS.search(moves)
    if bad:
        raise ApiError(
            f"{key!r}: {bad.group(0)!r} at position {bad.start() + 1} is not a move "
            "(use u d l r, upper case for a push)"
        )
    return "".join(moves.split())


# -------------------------------------------------------------------- board


@dataclass(frozen=True, slots=True)
class Board:
    """The position after a move string (see :func:`board`)."""

    state: State
    lurd: str
    moves: int
    pushes: int
    solved: bool
    illegal: dict[str, Any] | None
    dead: str
    dead_boxes: tuple[int, ...] = ()


def board(ref: LevelRef, moves: str, *, strict: bool = True) -> Board:
    """Play ``moves`` on the level with the engine; stop at the first illegal move.

    With ``strict`` a letter's case must say whether it pushes (the engine's
    :func:`~mazekit.sokoban.replay`); without, the case is taken from the
    engine's step and the returned ``lurd`` is written in the right case.

    >>> lv, _ = collection("mazekit")
    >>> b = board(LevelRef(lv[0], 0, 5, "mazekit", "xsb", None), "rrRRu", strict=False)
    >>> b.lurd, b.moves, b.pushes, b.solved, b.illegal["legal"]
    ('rRR', 3, 2, True, 3)
    """
    level = ref.level
    if strict:
        r = replay(level, moves)
        legal = moves[: r.error_index] if r.error else moves
        state, n, pushes, solved, error = r.state, r.moves, r.pushes, r.solved, r.error
    else:
        game = Game(level)
        error = ""
        for i, ch in enumerate(moves):
            if not game.move(ch.lower()):
                why = step(level, game.state, ch.lower()).reason
                error = f"move {i + 1} {ch!r}: {why}"
                break
        legal, state, n, pushes, solved = game.lurd, game.state, game.moves, game.pushes, game.solved
    illegal = None
    if error:
        illegal = {"index": len(legal), "legal": len(legal), "move": moves[len(legal)], "message": error}
    dead, dead_boxes = ("", ()) if solved else Deadlocks(level, pairs=True).why(state)
    return Board(state, legal, n, pushes, solved, illegal, dead, dead_boxes)


def _static(level: Level) -> list[str]:
    """The level's fixed cells as row strings: ``#`` wall, ``.`` goal, ``x`` fake target,
    ``-`` floor, a space outside (cells the player can never reach)."""
    rows, cols = level.shape
    out = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if level.walls[r, c]:
                row.append("#")
            elif level.goals[r, c]:
                row.append(".")
            elif level.decoys[r, c]:
                row.append("x")
            elif level.floor[r, c]:
                row.append("-")
            else:
                row.append(" ")
        out.append("".join(row))
    return out


def _level_info(ref: LevelRef) -> dict[str, Any]:
    lv = ref.level
    info: dict[str, Any] = {
        "collection": ref.collection,
        "index": ref.index,
        "count": ref.count,
        "title": lv.title,
        "kind": ref.kind,
        "boxes": len(lv.start.boxes),
    }
    fake = [list(lv.rc(int(i))) for i in lv.decoys.ravel().nonzero()[0]]
    if fake:
        info["fake_targets"] = fake
    if ref.assignment_moves is not None:
        sim = simulate(lv, ref.assignment_moves)
        info["assignment"] = {"moves": ref.assignment_moves, "outcome": sim.outcome, "reason": sim.reason}
    return info


def board_payload(ref: LevelRef, b: Board) -> dict[str, Any]:
    """The JSON answer of ``POST /api/sokoban/state``."""
    lv = ref.level
    return {
        "level": _level_info(ref),
        "shape": list(lv.shape),
        "board": _static(lv),
        "player": list(lv.rc(b.state.player)),
        "boxes": [list(lv.rc(x)) for x in b.state.boxes],
        "lurd": b.lurd,
        "moves": b.moves,
        "pushes": b.pushes,
        "solved": b.solved,
        "illegal": b.illegal,
        "dead": b.dead,
        "dead_boxes": [list(lv.rc(x)) for x in b.dead_boxes],
        "xsb": format_level(lv, b.state),
    }


# ----------------------------------------------------------------- routes


async def levels_route(request: Request) -> Response:
    """``GET /api/sokoban/levels``: the bundled collections and their levels' titles."""
    out = []
    for name in COLLECTIONS:
        levels, _ = collection(name)
        out.append(
            {
                "name": name,
                "about": ABOUT.get(name, ""),
                "text": examples.read_text(COLLECTIONS[name]),
                "levels": [
                    {
                        "index": i,
                        "title": lv.title or f"Level {i + 1}",
                        "shape": list(lv.shape),
                        "boxes": len(lv.start.boxes),
                    }
                    for i, lv in enumerate(levels)
                ],
            }
        )
    return answer({"collections": out})


@endpoint
async def state_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/sokoban/state``: the board after a move string (an illegal move says where)."""
    ref = read_level(body, request.app.state.limits)
    moves = read_moves(body)
    strict = field_bool(body, "strict", True)
    b = board(ref, moves, strict=strict)
    payload = board_payload(ref, b)
    if field_bool(body, "frames", False):
        payload["frames"] = frames(ref.level, b.lurd)
    return answer(payload)


#: Most numbers (positions x (boxes + 2)) a ``frames`` answer may hold.
MAX_FRAME_NUMBERS = 4_000_000


def frames(level: Level, lurd: str) -> dict[str, Any]:
    """The position after each move of a legal ``lurd``, as packed arrays (frame 0 the start).

    ``player`` int32 (n + 1,), ``boxes`` int32 (n + 1, boxes), ``pushes`` int32
    (n + 1,) pushes so far; cells are flat indices ``r * width + c``.
    """
    n, nb = len(lurd), len(level.start.boxes)
    if (n + 1) * (nb + 2) > MAX_FRAME_NUMBERS:
        raise ApiError(
            f"'frames': {n} moves of {nb} boxes are too many positions to send; "
            f"the limit is {MAX_FRAME_NUMBERS} numbers"
        )
    try:
        states = positions(level, lurd)
    except ValueError as exc:  # pragma: no cover - lurd comes from board(), legal
        raise ApiError(f"'moves': {exc}") from None
    player = np.array([s.player for s in states], dtype=np.int32)
    boxes = np.array([s.boxes for s in states], dtype=np.int32).reshape(len(states), nb)
    pushes = np.zeros(len(states), dtype=np.int32)
    pushes[1:] = np.cumsum(np.any(boxes[1:] != boxes[:-1], axis=1))
    return {"count": n + 1, "player": pack(player), "boxes": pack(boxes), "pushes": pack(pushes)}


# ----------------------------------------------------------------- solving


class SolveJob(Job):
    """A solver run: its phase and counts so far (the solver's ``progress`` callback)."""

    kind, what, room = "solve", "solver", "sokoban"
    working, first = "searching", "preparing"
    compiling = compiling_text("the solver")

    def __init__(self, time_limit: float) -> None:
        super().__init__(time_limit)
        self.nodes = 0
        self.expanded = 0

    def progress(self, stats: Any, phase: str) -> bool:
        self.phase = phase
        self.nodes, self.expanded = stats.nodes, stats.expanded
        self.compile_time = stats.compile_time + self.waited
        return self.stop.is_set()

    def fields(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "expanded": self.expanded}

    def text(self, limit_text: str) -> str:
        if self.phase == "searching":
            return f"searching: {self.nodes:,} states stored, {self.expanded:,} expanded · {limit_text}"
        if self.phase == "preparing":
            text = "preparing the level (deadlock tables, distances)"
            if self.started and time.perf_counter() - self.started > 1.0:
                text += "; the first run also compiles some kernels (once per installation)"
            return text
        return self.phase


def _time_limit(body: Mapping[str, Any], limits: Limits) -> float:
    """The ``time_limit`` field in seconds (default 10), capped by the server's ``solver_seconds``."""
    cap = limits.solver_seconds
    if body.get("time_limit") is None:
        return min(10.0, cap)
    return min(cap, field_float(body, "time_limit", lo=0.1, hi=1e6))


def solve_level(
    ref: LevelRef, moves: str, time_limit: float, memory_mb: int, watch: SolveJob | None = None
) -> dict[str, Any]:
    """Solve the level from the position after ``moves``; the answer's JSON (see the docs).

    Runs in the calling thread, and the portfolio's other searches in worker processes on
    the machine's other cores; ``watch`` receives the progress and may stop them all.
    The solution is replayed by the engine before it is returned.
    """
    from ...sokoban.solver import search_level
    from ...sokoban.solver.lanes import default_cores

    watch = watch or SolveJob(time_limit)
    watch.started = watch.started or time.perf_counter()  # already set while it waited for the warm-up
    b = board(ref, moves)
    if b.illegal is not None:
        raise ApiError(f"'moves': {b.illegal['message']}")
    base = {"from": b.lurd, "from_moves": b.moves, "from_pushes": b.pushes}
    if b.solved:
        return {
            "type": "result",
            "solved": True,
            "stopped": "solved",
            "lurd": "",
            "moves": 0,
            "pushes": 0,
            "time": 0.0,
            "nodes": 0,
            "expanded": 0,
            "compile_time": 0.0,
            "message": "already solved: every box is on a goal",
            **base,
        }
    if watch.stop.is_set():
        return {
            "type": "result",
            "solved": False,
            "stopped": "interrupted",
            "lurd": None,
            "time": 0.0,
            "nodes": 0,
            "expanded": 0,
            "compile_time": 0.0,
            "message": "stopped, no solution yet",
            **base,
        }
    watch.phase = "preparing"
    level = ref.level.with_start(b.state)
    cores = default_cores()  # the portfolio's searches side by side (see search_level)
    res = search_level(level, time_limit=time_limit, memory=memory_mb << 20, progress=watch.progress, cores=cores)
    st = res.stats
    out: dict[str, Any] = {
        "type": "result",
        "stopped": st.stopped,
        "time": round(st.time, 3),
        "nodes": st.nodes,
        "expanded": st.expanded,
        "compile_time": round(st.compile_time, 3),
        **base,
    }
    sol = res.solution
    if sol is not None and not replay(level, sol.lurd).solved:  # pragma: no cover - a solver bug
        sol = None
        out["stopped"] = "replay-failed"
    if sol is None:
        why = {
            "interrupted": "stopped, no solution yet",
            "time": f"no solution within the time limit ({time_limit:g} s)",
            "memory": f"no solution within the memory cap ({memory_mb} MB)",
            "unsolvable": "no solution exists from this position ("
            + (
                "it is dead already: a box that can never reach a goal, boxes that can never move again,"
                " or two that can never both reach goals)"
                if st.expanded == 0
                else "every reachable position that is not a deadlock was tried)"
            ),
        }.get(str(out["stopped"]), "the solver's solution did not replay: a solver bug")
        return {**out, "solved": False, "lurd": None, "message": why}
    where = "from this position" if b.moves else "from the start"
    return {
        **out,
        "solved": True,
        "lurd": sol.lurd,
        "moves": sol.moves,
        "pushes": sol.pushes,
        "message": f"solved {where}: {sol.moves} moves, {sol.pushes} pushes in {st.time:.2f} s",
    }


def _solve_request(body: Mapping[str, Any], limits: Limits) -> tuple[LevelRef, str, float]:
    ref = read_level(body, limits)
    moves = read_moves(body)
    time_limit = _time_limit(body, limits)
    return ref, moves, time_limit


@endpoint
async def solve_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/sokoban/solve``: solve a level (blocking; the same limits as the WebSocket)."""
    limits: Limits = request.app.state.limits
    ref, moves, time_limit = _solve_request(body, limits)
    job = SolveJob(time_limit)
    result = await run_job(request, lambda: solve_level(ref, moves, time_limit, limits.solver_memory_mb, job), job)
    result.pop("type", None)
    return answer(result)


def _solve_start(body: dict[str, Any], limits: Limits) -> tuple[Callable[[], dict[str, Any]], Job, dict[str, Any]]:
    ref, moves, time_limit = _solve_request(body, limits)
    board_now = board(ref, moves)
    if board_now.illegal is not None:
        raise ApiError(f"'moves': {board_now.illegal['message']}")
    job = SolveJob(time_limit)
    started = {"time_limit": time_limit, "memory_mb": limits.solver_memory_mb, "boxes": len(ref.level.start.boxes)}
    return lambda: solve_level(ref, moves, time_limit, limits.solver_memory_mb, job), job, started


async def solve_socket(ws: WebSocket) -> None:
    """``/api/sokoban/solve`` (WebSocket): solve with live progress; ``{"stop": true}`` stops."""
    await jobs_of(ws).run_socket(ws, _solve_start)


# ---------------------------------------------------------------- shortening


class OptimiseJob(Job):
    """An optimiser run: where it is and the best so far (the optimiser's ``progress`` callback)."""

    kind, what, room = "optimise", "optimiser", "sokoban"
    working = first = "shortening"
    compiling = compiling_text("the searches", they=True)

    def __init__(self, time_limit: float, before: tuple[int, int]) -> None:
        super().__init__(time_limit)
        self.before = before
        moves, pushes = before
        self.status = OptimiseStatus(pushes, 0, 0, pushes, moves, 0, 0, 0.0, False)

    def progress(self, status: OptimiseStatus) -> bool:
        self.status = status
        self.phase = "compiling" if status.compiling else "shortening"
        self.compile_time = status.compile_time + self.waited
        return self.stop.is_set()

    def fields(self) -> dict[str, Any]:
        st = self.status
        before_moves, before_pushes = self.before
        return {
            "sweep": st.sweep,
            "window": st.window,
            "at": st.at,
            "of": st.of,
            "moves": st.moves,
            "pushes": st.pushes,
            "before_moves": before_moves,
            "before_pushes": before_pushes,
            "improvements": st.improvements,
        }

    def text(self, limit_text: str) -> str:
        st = self.status
        if not st.sweep:
            return "shortening: starting"
        before_moves, before_pushes = self.before
        return (
            f"shortening: sweep {st.sweep}, windows of {st.window} pushes, at push {st.at + 1} of {st.of}"
            f" · best so far {st.moves:,} moves, {st.pushes:,} pushes (from {before_moves:,}, {before_pushes:,})"
            f" · {limit_text}"
        )


def optimise_level(
    ref: LevelRef, lurd: str, metric: Metric, time_limit: float, watch: OptimiseJob | None = None
) -> dict[str, Any]:
    """Shorten a solution of the level from its start (see :func:`mazekit.sokoban.solver.optimise`);
    the answer's JSON. A string that is not a solution is an :class:`ApiError`. ``watch``
    receives the progress and may stop it (the answer is then the best so far)."""
    from ...sokoban.solver import optimise

    if watch is not None:
        watch.started = watch.started or time.perf_counter()  # already set while it waited for the warm-up
        watch.phase = "shortening"
    try:
        res = optimise(
            ref.level, lurd, metric=metric, time_limit=time_limit, progress=None if watch is None else watch.progress
        )
    except ValueError as exc:
        raise ApiError(f"'lurd': {exc}") from None
    gained = (res.before_moves - res.moves, res.before_pushes - res.pushes)
    took = f"{res.time:.1f} s"
    if res.compile_time >= 0.5:
        took += f" ({res.compile_time:.1f} s of it compiling the solver, once per installation)"
    counts = f"{res.before_moves} \u2192 {res.moves} moves, {res.before_pushes} \u2192 {res.pushes} pushes"
    if res.stopped == "interrupted":
        found = "nothing shorter found" if gained == (0, 0) else f"the best so far: {counts}"
        message = f"stopped after {took}; {found}"
    elif gained == (0, 0):
        message = f"nothing shorter found in {took}: {res.moves} moves, {res.pushes} pushes"
    else:
        message = f"shortened in {took}: {counts}"
    return {
        "lurd": res.lurd,
        "moves": res.moves,
        "pushes": res.pushes,
        "before_moves": res.before_moves,
        "before_pushes": res.before_pushes,
        "improvements": res.improvements,
        "searches": res.searches,
        "time": round(res.time, 3),
        "compile_time": round(res.compile_time, 3),
        "stopped": res.stopped,
        "message": message,
    }


def _optimise_request(body: Mapping[str, Any], limits: Limits) -> tuple[LevelRef, str, Metric, float]:
    ref = read_level(body, limits)
    lurd = read_moves(body, "lurd")
    name = field_text(body, "metric", "moves", max_len=10)
    if name not in ("moves", "pushes"):
        raise ApiError(f"'metric' must be 'moves' or 'pushes', got {name!r}")
    metric: Metric = "pushes" if name == "pushes" else "moves"
    return ref, lurd, metric, _time_limit(body, limits)


def _optimise_job(ref: LevelRef, lurd: str, time_limit: float) -> OptimiseJob:
    """The job shortening ``lurd``; a string that is not a solution is an :class:`ApiError` here,
    before the job starts."""
    try:
        pushes = len(pushes_of(ref.level, lurd))
    except ValueError as exc:
        raise ApiError(f"'lurd': {exc}") from None
    return OptimiseJob(time_limit, (len(lurd), pushes))


@endpoint
async def optimise_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/sokoban/optimise``: shorten a solution (blocking, in a solver slot)."""
    ref, lurd, metric, time_limit = _optimise_request(body, request.app.state.limits)
    job = _optimise_job(ref, lurd, time_limit)
    return answer(await run_job(request, lambda: optimise_level(ref, lurd, metric, time_limit, job), job))


def _optimise_start(body: dict[str, Any], limits: Limits) -> tuple[Callable[[], dict[str, Any]], Job, dict[str, Any]]:
    ref, lurd, metric, time_limit = _optimise_request(body, limits)
    job = _optimise_job(ref, lurd, time_limit)
    moves, pushes = job.before
    started = {"time_limit": time_limit, "metric": metric, "before_moves": moves, "before_pushes": pushes}
    return lambda: {"type": "result", **optimise_level(ref, lurd, metric, time_limit, job)}, job, started


async def optimise_socket(ws: WebSocket) -> None:
    """``/api/sokoban/optimise`` (WebSocket): shorten with live progress; ``{"stop": true}`` stops.

    A stop answers the best solution found so far."""
    await jobs_of(ws).run_socket(ws, _optimise_start)


# ---------------------------------------------------------------- warm-up


def _compile_share(first: bool) -> None:
    from ...sokoban.solver.warmup import compile_share

    compile_share(first)


def _warm() -> None:
    """Load (or compile, once per installation) the solver's and the optimiser's kernels."""
    from ...sokoban import _kernels as EK
    from ...sokoban._pair_kernels import pair_table_kernel
    from ...sokoban.solver.warmup import load_search

    pair_table_kernel.compiled()  # built at the first search's start (the dead pairs)
    EK.vicinity_kernel.compiled()
    load_search()  # later searches, even tiny ones, take the compiled path


#: Run once at start-up (in a thread) so the first request does not wait for numba.
WARM_UP = _warm
#: Run before ``WARM_UP``, at once, each in a process of its own: the search's first compile
#: in parts (see :mod:`mazekit.sokoban.solver.compiling`).
WARM_PARTS = (lambda: _compile_share(True), lambda: _compile_share(False))
#: Seconds its first compile takes on a 2-core machine (it orders the warm-up's queue).
WARM_SECONDS = 80.0

ROUTES: list[BaseRoute] = [
    Route("/api/sokoban/levels", levels_route, methods=["GET"]),
    Route("/api/sokoban/state", state_route, methods=["POST"]),
    Route("/api/sokoban/solve", solve_route, methods=["POST"]),
    Route("/api/sokoban/optimise", optimise_route, methods=["POST"]),
    WebSocketRoute("/api/sokoban/solve", solve_socket),
    WebSocketRoute("/api/sokoban/optimise", optimise_socket),
]
