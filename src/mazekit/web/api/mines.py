"""Minesweeper routes: games kept on the server, hints, probabilities, the article's opening.

The game model stays in Python (:class:`mazekit.minesweeper.Game`); the page
only draws what these routes answer. A game lives in a bounded in-memory store
(:class:`GameStore`, the least recently used dropped first) under a random id.

``POST /api/mines/new``
    A new game (a level, or a custom size), optionally replaying ``moves``.
``POST /api/mines/act``
    Open, flag or chord a cell; the new view, and the cells an open or chord
    opened in flood order (so the page can animate the opening spreading).
``POST /api/mines/hint``
    The solver's next move with the reason it gives (as ``mines play``'s ``?``).
``POST /api/mines/probabilities``
    The solver's exact mine probability for every closed cell.
``POST /api/mines/article``
    ``mazekit mines open`` on a text (default: the article's example): its exact
    output and the opened cells in flood order.

The JSON of every route is described in ``docs/playground/mines.md``.

View codes (the ``board`` array, int8, one per cell, row by row):
0-8 an open cell showing its number, 9 closed, 10 flagged, 11 a mine shown
after a loss (or every mine after a win), 12 the mine that was hit, 13 a flag
on a cell without a mine (shown after a loss).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ...grid import Point
from ...minesweeper import (
    LEVELS,
    FirstClick,
    Game,
    hint,
    mine_room,
    next_move,
    open_text,
    opening_order,
    parse_open,
    probabilities,
    result_line,
)
from ...minesweeper.solver import CLOSED
from ..jobs import run_job
from ._common import (
    ApiError,
    Limits,
    answer,
    endpoint,
    field_bool,
    field_choice,
    field_int,
    field_point,
    field_text,
    pack,
)

__all__ = [
    "ACTIONS",
    "CODES",
    "EXAMPLES",
    "MAX_GAMES",
    "MAX_SIDE",
    "NO_GUESS_DENSITY",
    "ROUTES",
    "GameStore",
    "view_codes",
]

#: How many games the server keeps (the least recently used is dropped first).
MAX_GAMES = 500
#: Largest side of a custom board (the server's ``max_side`` may lower it).
MAX_SIDE = 100
#: Densest no-guess board offered (expert is 99/480 = 0.206).
NO_GUESS_DENSITY = 0.22
#: Boards with more cells than this compute probabilities in a solver slot.
SLOT_CELLS = 1200
#: The actions of ``/api/mines/act``.
ACTIONS = ("open", "flag", "chord")
LEVEL_NAMES = (*LEVELS, "custom")

#: The view codes (see the module docs).
CODES: dict[str, int] = {
    "closed": 9,
    "flag": 10,
    "mine": 11,
    "exploded": 12,
    "wrong_flag": 13,
}
CLOSED_CODE, FLAG, MINE, EXPLODED, WRONG_FLAG = 9, 10, 11, 12, 13

#: The inputs of ``/api/mines/article``: the article's example and a few more.
EXAMPLES: dict[str, str] = {
    "article": "5 6 5 1\n..*...\n......\n....*.\n......\n......\n",
    "ring": "6 7 1 7\n.......\n.*.....\n.......\n....*..\n*......\n.......\n",
    "numbered": "4 4 2 2\n*...\n....\n..*.\n....\n",
    "wide": (
        "9 16 9 1\n"
        "...*............\n"
        "..........*.....\n"
        "......*.........\n"
        "..............*.\n"
        "...*............\n"
        "................\n"
        "..........*.....\n"
        ".*..............\n"
        "................\n"
    ),
    "boom": "3 3 1 1\n*..\n...\n...\n",
}


# ------------------------------------------------------------------ the store
@dataclass(slots=True)
class Entry:
    """A game on the server: the game, how it was made, the moves that changed it."""

    game: Game
    level: str
    seed: int
    moves: list[tuple[str, int, int]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class GameStore:
    """At most ``size`` games by id; the least recently used is dropped first.

    >>> store = GameStore(2)
    >>> a, b, c = (store.add(Entry(Game(), "beginner", s)) for s in range(3))
    >>> store.get(a) is None, store.get(c).seed
    (True, 2)
    """

    def __init__(self, size: int = MAX_GAMES) -> None:
        self.size = size
        self._games: OrderedDict[str, Entry] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def add(self, entry: Entry) -> str:
        """Keep ``entry`` under a new random id; return the id."""
        gid = secrets.token_urlsafe(12)
        self._games[gid] = entry
        while len(self._games) > self.size:
            self._games.popitem(last=False)
        return gid

    def get(self, gid: str) -> Entry | None:
        """The game under ``gid`` (now the most recently used), or None."""
        entry = self._games.get(gid)
        if entry is not None:
            self._games.move_to_end(gid)
        return entry

    def drop(self, gid: str) -> None:
        self._games.pop(gid, None)


def _store(request: Request) -> GameStore:
    store: GameStore | None = getattr(request.app.state, "mines_games", None)
    if store is None:
        store = GameStore()
        request.app.state.mines_games = store
    return store


def _entry(request: Request, body: Mapping[str, Any]) -> tuple[str, Entry]:
    gid = field_text(body, "id", max_len=64)
    entry = _store(request).get(gid)
    if entry is None:
        raise ApiError("this game is no longer on the server; start a new one")
    return gid, entry


# ------------------------------------------------------------------ views
def view_codes(game: Game) -> NDArray[np.int8]:
    """What the player sees, as the view codes (see the module docs).

    >>> from mazekit.minesweeper import Board
    >>> g = Game(board=Board.parse("*..\\n*..\\n..."))
    >>> _ = g.toggle_flag((1, 0)), g.open((2, 2))
    >>> view_codes(g).tolist()
    [[9, 2, 0], [10, 2, 0], [9, 1, 0]]
    >>> _ = g.open((0, 0))
    >>> view_codes(g).tolist()
    [[12, 2, 0], [10, 2, 0], [9, 1, 0]]
    """
    out = np.full(game.shape, CLOSED_CODE, dtype=np.int8)
    out[game.flagged] = FLAG
    if game.board is None:
        return out
    mines = game.board.mines
    out[game.opened] = game.density[game.opened]
    if game.state == "lost":
        out[mines & ~game.flagged] = MINE
        out[game.flagged & ~mines] = WRONG_FLAG
        if game.exploded is not None:
            out[game.exploded] = EXPLODED
    elif game.state == "won":
        out[mines & ~game.flagged] = MINE
    return out


def _view(gid: str, entry: Entry) -> dict[str, Any]:
    g = entry.game
    laid = g.board is not None
    bv = g.three_bv() if laid else None
    secs = g.elapsed
    return {
        "id": gid,
        "level": entry.level,
        "rows": g.rows,
        "cols": g.cols,
        "mines": g.n_mines,
        "seed": entry.seed,
        "no_guess": g.no_guess,
        "first_click": g.first_click,
        "state": g.state,
        "board": pack(view_codes(g)),
        "mines_left": g.mines_left,
        "clicks": g.clicks,
        "three_bv": bv,
        "three_bv_done": g.three_bv_solved() if laid else None,
        "efficiency": g.efficiency() if laid else None,
        "three_bv_per_s": (g.three_bv_solved() / max(secs, 1e-9)) if laid and g.over else None,
        "elapsed": round(secs, 3),
        "exploded": None if g.exploded is None else list(g.exploded),
        "result": result_line(g) if g.over else None,
        "moves": [list(m) for m in entry.moves],
    }


# ------------------------------------------------------------------ reading the request
def _settings(body: Mapping[str, Any], limits: Limits) -> tuple[str, int, int, int, FirstClick, bool]:
    level = field_choice(body, "level", LEVEL_NAMES, "beginner")
    first_click: FirstClick = field_choice(body, "first_click", ("safe", "zero"), "safe")
    no_guess = field_bool(body, "no_guess", False)
    if level == "custom":
        side = min(MAX_SIDE, limits.max_side)
        rows = field_int(body, "rows", lo=2, hi=side)
        cols = field_int(body, "cols", lo=2, hi=side)
        if rows * cols > limits.max_cells:
            raise ApiError(f"a {rows}x{cols} board has {rows * cols} cells; the limit is {limits.max_cells}")
        room = mine_room(rows, cols, first_click)
        if room < 1:
            raise ApiError(f"a {rows}x{cols} board has no room for mines with first click {first_click!r}")
        mines = field_int(body, "mines", max(1, rows * cols * 10 // 64), lo=1, hi=room)
    else:
        for key in ("rows", "cols", "mines"):
            if body.get(key) is not None:
                raise ApiError(f'{key!r} goes with level "custom", not {level!r}')
        rows, cols, mines = LEVELS[level]
    if no_guess and mines > NO_GUESS_DENSITY * rows * cols:
        raise ApiError(
            f"a no-guess board may have at most {int(NO_GUESS_DENSITY * rows * cols)} mines "
            f"on {rows}x{cols} ({NO_GUESS_DENSITY:.0%} of the cells), got {mines}"
        )
    return level, rows, cols, mines, first_click, no_guess


def _moves(body: Mapping[str, Any], shape: tuple[int, int]) -> list[tuple[str, Point]]:
    raw = body.get("moves")
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ApiError("'moves' must be a list of [action, r, c]")
    if len(raw) > 4 * shape[0] * shape[1] + 100:
        raise ApiError(f"'moves' has {len(raw)} moves; the limit for this board is {4 * shape[0] * shape[1] + 100}")
    out: list[tuple[str, Point]] = []
    for i, m in enumerate(raw):
        if not (isinstance(m, list) and len(m) == 3 and m[0] in ACTIONS):
            raise ApiError(
                f"'moves' item {i} must be [action, r, c] with action open, flag or chord, got {str(m)[:40]}"
            )
        cell = field_point({"cell": m[1:]}, "cell", shape)
        assert cell is not None
        out.append((m[0], cell))
    return out


def _apply(game: Game, action: str, cell: Point) -> list[Point]:
    """Play one action; return the seeds its opening spread from."""
    if action == "open":
        game.open(cell)
        return [cell]
    if action == "flag":
        game.toggle_flag(cell)
        return []
    r, c = cell
    seeds = [
        (rr, cc)
        for rr in range(max(r - 1, 0), min(r + 2, game.rows))
        for cc in range(max(c - 1, 0), min(c + 2, game.cols))
    ]
    game.chord(cell)
    return seeds


def _needs_slot(game: Game, action: str) -> bool:
    return game.board is None and action == "open" and (game.no_guess or game.rows * game.cols > SLOT_CELLS)


async def _run(request: Request, gid: str, fn: Any) -> Any:
    """Run ``fn`` in a solver slot within the time limit; a game left mid-move is dropped."""
    limits: Limits = request.app.state.limits
    try:
        return await asyncio.wait_for(run_job(request, fn), timeout=limits.solver_seconds)
    except TimeoutError:
        _store(request).drop(gid)
        raise ApiError(
            f"laying out the board took over {limits.solver_seconds:g} s; try fewer mines or no no-guess"
        ) from None
    except RuntimeError as exc:  # generate_no_guess found no board
        raise ApiError(str(exc)) from None


def _record(entry: Entry, action: str, cell: Point, clicks_before: int) -> None:
    if entry.game.clicks != clicks_before:
        entry.moves.append((action, cell[0], cell[1]))


# ------------------------------------------------------------------ routes
@endpoint
async def new_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/mines/new``: a new game (level or custom size, seed, no-guess, first-click rule, moves to replay)."""
    limits: Limits = request.app.state.limits
    level, rows, cols, mines, first_click, no_guess = _settings(body, limits)
    seed = field_int(body, "seed", secrets.randbelow(2**31), lo=0, hi=2**32 - 1)
    moves = _moves(body, (rows, cols))
    game = Game(rows, cols, mines, first_click=first_click, no_guess=no_guess, rng=seed)
    entry = Entry(game, level, seed)
    gid = _store(request).add(entry)

    def replay() -> None:
        for action, cell in moves:
            clicks = game.clicks
            _apply(game, action, cell)
            _record(entry, action, cell, clicks)

    async with entry.lock:
        if moves and (no_guess or rows * cols > SLOT_CELLS or len(moves) > 50):
            await _run(request, gid, replay)
        else:
            replay()
        return answer(_view(gid, entry))


@endpoint
async def act_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/mines/act``: open, flag or chord a cell; the new view and the opened cells in flood order."""
    gid, entry = _entry(request, body)
    action = field_choice(body, "action", ACTIONS)
    game = entry.game
    cell = field_point(body, "cell", game.shape)
    assert cell is not None
    async with entry.lock:
        before = game.opened.copy()
        clicks = game.clicks
        t0 = time.perf_counter()
        if _needs_slot(game, action):
            seeds = await _run(request, gid, lambda: _apply(game, action, cell))
        else:
            seeds = _apply(game, action, cell)
        took = time.perf_counter() - t0
        _record(entry, action, cell, clicks)
        opened, waves = opening_order(game, before, seeds) if seeds and game.board is not None else ([], [])
        payload = _view(gid, entry)
        payload.update(
            {"action": action, "cell": list(cell), "opened": opened, "wave": waves, "time_ms": round(took * 1000, 3)}
        )
        return answer(payload)


@endpoint
async def hint_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/mines/hint``: a safe cell or a mine the solver proves, else its best guess, with the reason."""
    gid, entry = _entry(request, body)
    game = entry.game
    if game.board is not None and not game.over and game.rows * game.cols > SLOT_CELLS:
        h = await run_job(request, lambda: hint(game))
    else:
        h = hint(game)
    move = h.move
    return answer(
        {
            "id": gid,
            "cell": None if move is None else list(move.cell),
            "kind": None if move is None else move.kind,
            "p_mine": None if move is None else move.p_mine,
            "proved": h.proved,
            "rule": h.rule,
            "reason": h.reason[:1].upper() + h.reason[1:],
            "because": [list(p) for p in h.because],
            "outlook": None
            if h.outlook is None
            else {"safe": h.outlook.safe, "opens": h.outlook.opens, "progress": h.outlook.progress},
            "win": h.win,
        }
    )


@endpoint
async def probabilities_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/mines/probabilities``: the mine probability of every closed cell (packed float32, NaN elsewhere)."""
    gid, entry = _entry(request, body)
    game = entry.game
    view = game.view()
    t0 = time.perf_counter()
    if game.rows * game.cols > SLOT_CELLS:
        prob = await run_job(request, lambda: probabilities(view, game.n_mines))
    else:
        prob = probabilities(view, game.n_mines)
    took = time.perf_counter() - t0
    closed = view == CLOSED
    return answer(
        {
            "id": gid,
            "p": pack(prob.astype(np.float32)),
            "safe": int(np.count_nonzero(closed & (prob == 0.0))),
            "mines": int(np.count_nonzero(closed & (prob == 1.0))),
            "time_ms": round(took * 1000, 3),
        }
    )


@endpoint
async def article_route(request: Request, body: dict[str, Any]) -> Response:
    """``POST /api/mines/article``: ``mazekit mines open`` on a text (the article's by default), in flood order."""
    limits: Limits = request.app.state.limits
    example = field_choice(body, "example", tuple(EXAMPLES), "article")
    text = field_text(body, "text", "", max_len=limits.max_body)
    if not text.strip():
        text = EXAMPLES[example]
    head = text.split(None, 2)[:2]
    if len(head) == 2 and all(h.isdigit() for h in head) and int(head[0]) * int(head[1]) > limits.max_cells:
        raise ApiError(f"the board has {int(head[0]) * int(head[1])} cells; the limit is {limits.max_cells}")
    output = open_text(text)
    board, seed = parse_open(text)
    game = Game(board=board)
    before = game.opened.copy()
    game.open(seed)
    cells, waves = opening_order(game, before, [seed])
    return answer(
        {
            "input": text,
            "output": output,
            "boom": bool(board.mines[seed]),
            "rows": board.rows,
            "cols": board.cols,
            "click": list(seed),
            "mines": pack(board.mines),
            "density": pack(board.density()),
            "opened": cells,
            "wave": waves,
        }
    )


def _warm() -> None:
    """Compile (or load) what the room's requests run before the first game: the no-guess
    layout, the first click's flood, the view's 3BV, the probabilities, a hint that proves
    a move and one that must guess (a 2x2 board with one mine, its far corner open), and the
    possible coin flips a guess's hint may name."""
    from ...minesweeper import Board, generate_no_guess, possible_flips

    board = generate_no_guess(9, 9, 10, click=(4, 4), rng=0)
    g = Game(board=board)
    g.open((4, 4))
    g.three_bv_solved()
    probabilities(g.view(), 10)
    next_move(g.view(), 10)
    hint(g)
    guess = Game(board=Board.parse("*.\n.."))
    guess.open((1, 1))
    hint(guess)
    possible_flips(guess.view(), 1, (0, 0))


#: Run once at start-up (in a thread) so the first request does not wait for numba.
WARM_UP = _warm
#: Seconds its first compile takes on a 2-core machine (it orders the warm-up's queue).
WARM_SECONDS = 34.0

ROUTES = [
    Route("/api/mines/new", new_route, methods=["POST"]),
    Route("/api/mines/act", act_route, methods=["POST"]),
    Route("/api/mines/hint", hint_route, methods=["POST"]),
    Route("/api/mines/probabilities", probabilities_route, methods=["POST"]),
    Route("/api/mines/article", article_route, methods=["POST"]),
]
