"""The Hypothesis strategies the tests share; each test module imports what it draws from here.

One line under each says what it draws. Two ways of drawing a grid are kept on purpose, as their
inputs differ: ``arrays()`` (``grids``, ``cost_grids``) mostly gives nearly uniform grids with a few
odd cells, a list of per-cell draws (``mazes``, ``sokoban_levels``) gives every cell its own draw.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mazekit.minesweeper import Board
from mazekit.sokoban import Level

Point = tuple[int, int]

# ------------------------------------------------------------------ numbers

#: Maze sides in cells for the generators: 1 to 9.
sizes = st.integers(1, 9)
#: Seeds for ``np.random.default_rng``: any 32-bit value.
seeds = st.integers(0, 2**32 - 1)


def points(shape: tuple[int, ...]) -> st.SearchStrategy[Point]:
    """A cell ``(r, c)`` anywhere in a grid of this shape."""
    return st.tuples(st.integers(0, shape[0] - 1), st.integers(0, shape[1] - 1))


# -------------------------------------------------------------------- grids


@st.composite
def grids(draw: st.DrawFn, max_side: int = 12, *, opened: bool = True) -> np.ndarray:
    """Bool grids (True = passable), 1 to ``max_side`` a side; with ``opened``, half of them are
    OR-ed with a second grid (mostly open grids find longer paths)."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    p = draw(arrays(np.bool_, (rows, cols), elements=st.booleans()))
    if opened and draw(st.booleans()):
        p = p | draw(arrays(np.bool_, (rows, cols), elements=st.booleans()))
    return p


@st.composite
def grid_and_points(draw: st.DrawFn, max_side: int = 12) -> tuple[np.ndarray, Point, Point]:
    """A grid of ``grids(max_side)`` and two cells of it (start and goal; walls too)."""
    p = draw(grids(max_side))
    return p, draw(points(p.shape)), draw(points(p.shape))


@st.composite
def cost_grids(draw: st.DrawFn, max_side: int = 10) -> tuple[np.ndarray, Point, Point]:
    """Step costs from {0, 0.5, 1, 2, 3.5, 9, inf} (inf = wall), 1 to ``max_side`` a side, and two cells."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cost = draw(arrays(np.float64, (rows, cols), elements=st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5, 9.0, np.inf])))
    return cost, draw(points(cost.shape)), draw(points(cost.shape))


@st.composite
def mazes(draw: st.DrawFn, max_side: int = 5, density: float = 0.3) -> tuple[np.ndarray, Point]:
    """Universal escape inputs: a bool grid 1 to ``max_side`` a side, each cell open at 1/2, and its
    exit (made open); half of them are opened again where a draw from [0, 1] exceeds ``density``."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    bits = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    passable = np.array(bits, dtype=bool).reshape(rows, cols)
    cells = rows * cols
    er = draw(st.integers(0, rows - 1))
    ec = draw(st.integers(0, cols - 1))
    passable[er, ec] = True
    if draw(st.booleans()):  # connect everything often enough to have strings
        passable |= (
            np.array(draw(st.lists(st.floats(0, 1), min_size=cells, max_size=cells))).reshape(rows, cols) > density
        )
    return passable, (er, ec)


#: A maze as text cells ('0' open at 2/3, '1' wall), 1 to 7 a side, and its exit ``(r, c)``.
maze_texts = st.integers(1, 7).flatmap(
    lambda rows: st.integers(1, 7).flatmap(
        lambda cols: st.tuples(
            st.lists(st.lists(st.sampled_from("001"), min_size=cols, max_size=cols), min_size=rows, max_size=rows),
            st.integers(0, rows - 1),
            st.integers(0, cols - 1),
        )
    )
)


# ------------------------------------------------------------------ Sokoban


@st.composite
def sokoban_levels(
    draw: st.DrawFn,
    *,
    sides: tuple[int, int] = (3, 8),
    border: bool = False,
    wall_percent: int = 50,
    max_boxes: int = 2,
    goals_apart: bool = False,
    extra_goals: int = 0,
) -> Level:
    """Small Sokoban levels: ``sides`` (lowest, highest) inner rows and columns, walled round when
    ``border`` (else the map's edge is the wall), each inner cell a wall at ``wall_percent`` %;
    a player, 1 to ``max_boxes`` boxes and as many goals, on floor apart from the player and the
    boxes when ``goals_apart``, else anywhere on the floor; ``extra_goals`` more goals than boxes where
    the floor has room. Fewer than 3 floor cells: no walls inside.
    The defaults: 3-8 a side, no border, half the cells walls, 1-2 boxes (the engine's tests)."""
    lo, hi = sides
    rows, cols = draw(st.integers(lo, hi)), draw(st.integers(lo, hi))
    coins = draw(st.lists(st.integers(0, 99), min_size=rows * cols, max_size=rows * cols))
    pad = 1 if border else 0
    walls = np.ones((rows + 2 * pad, cols + 2 * pad), dtype=bool)
    inside = (slice(pad, pad + rows), slice(pad, pad + cols))
    walls[inside] = (np.array(coins) >= 100 - wall_percent).reshape(rows, cols)  # shrinks towards floor
    if (~walls).sum() < 3:
        walls[inside] = False
    free = [(int(r), int(c)) for r, c in np.argwhere(~walls)]
    fits = (len(free) - 1) // 2 if goals_apart else len(free) - 1
    nb = draw(st.integers(1, min(max_boxes, fits)))
    ng = nb + max(0, min(extra_goals, (len(free) - 1 - 2 * nb) if goals_apart else len(free) - nb))
    if goals_apart:
        picks = draw(st.permutations(free))
        boxes, goals, player = picks[:nb], picks[nb : nb + ng], picks[nb + ng]
    else:
        picks = draw(st.lists(st.sampled_from(free), min_size=nb + 1, max_size=nb + 1, unique=True))
        player, boxes = picks[0], picks[1:]
        goals = draw(st.lists(st.sampled_from(free), min_size=ng, max_size=ng, unique=True))
    return Level.build(walls, goals=goals, player=player, boxes=boxes)


#: Walled rooms 4-7 a side, 18 % inner walls, 1-3 boxes (the deadlock rules' soundness).
sokoban_rooms = sokoban_levels(sides=(2, 5), border=True, wall_percent=18, max_boxes=3)
#: Walled levels 5-7 a side, 10 % inner walls, 1-3 boxes, goals apart (brute force against the solver).
tiny_sokoban_levels = sokoban_levels(sides=(3, 5), border=True, wall_percent=10, max_boxes=3, goals_apart=True)


# -------------------------------------------------------------- Minesweeper


@st.composite
def mine_boards(draw: st.DrawFn) -> tuple[np.ndarray, Point]:
    """Mine layouts 1-14 a side at density 0, 5, 12 or 25 %, and a mine-free cell to open."""
    rows = draw(st.integers(1, 14))
    cols = draw(st.integers(1, 14))
    p = draw(st.sampled_from([0.0, 0.05, 0.12, 0.25]))
    seed = draw(st.integers(0, 2**31))
    mines = np.random.default_rng(seed).random((rows, cols)) < p
    r = draw(st.integers(0, rows - 1))
    c = draw(st.integers(0, cols - 1))
    mines[r, c] = False
    return mines, (r, c)


def _mine_view(rows: int, cols: int, total: int, opened_share: float, gen: np.random.Generator) -> np.ndarray:
    """One view of :func:`mine_views` from the generator ``gen``."""
    n = rows * cols
    flat = np.zeros(n, bool)
    flat[gen.choice(n, total, replace=False)] = True
    mines = flat.reshape(rows, cols)
    dens = Board.from_mines(mines).density()
    opened = (gen.random((rows, cols)) < opened_share) & ~mines
    view = np.where(opened, dens, -1).astype(np.int8)
    flags = mines & (gen.random((rows, cols)) < 0.2)
    view[flags] = -2
    return view


@st.composite
def mine_views(
    draw: st.DrawFn, keep: Callable[[np.ndarray, int], bool] | None = None, tries: int = 64
) -> tuple[np.ndarray, int]:
    """A player's view of a 2-5 a side board with 1-5 mines (-1 closed, -2 flagged, else the number
    shown; 20, 40 or 60 % of the safe cells open, a fifth of the mines flagged) and the mine count.

    With ``keep``, a view it accepts: up to ``tries`` views are made from the drawn seed and the
    first accepted is returned (the last one when none is), so that a test that wants a kind of
    view rarely has to filter (Hypothesis fails a test that rejects most of its inputs)."""
    rows = draw(st.integers(2, 5))
    cols = draw(st.integers(2, 5))
    total = draw(st.integers(1, min(5, rows * cols - 1)))
    seed = draw(st.integers(0, 2**31))
    share = draw(st.sampled_from([0.2, 0.4, 0.6]))
    gen = np.random.default_rng(seed)
    view = _mine_view(rows, cols, total, share, gen)
    for _ in range(tries - 1 if keep is not None else 0):
        if keep(view, total):  # type: ignore[misc]
            break
        view = _mine_view(rows, cols, total, share, gen)
    return view, total


# -------------------------------------------------------------- web bodies


def search_fields() -> st.SearchStrategy[dict[str, Any]]:
    """``/api/search`` bodies: any subset of its fields, each any small JSON value (NaN too)."""
    values = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 10),
        st.floats(allow_nan=True),
        st.text(max_size=8),
        st.lists(st.integers(-2, 9), max_size=3),
        st.lists(st.text("01SG.#x", max_size=6), max_size=6),
    )
    return st.fixed_dictionaries(
        {},
        optional={
            k: values for k in ("grid", "start", "goal", "algorithm", "connectivity", "heuristic", "weights", "seed")
        },
    )
