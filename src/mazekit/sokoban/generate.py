"""Random Sokoban levels in Boxoban's manner: a room carved by random walks, the boxes on
their goals, then pulled back from them by a random reverse game.

Every level made here is solvable by construction (the reverse game, read backwards,
is a solution), so a collection of them checks a solver's choices on levels it was
never tuned on: the generality that tuning on XSokoban or Microban alone cannot show.

>>> from mazekit.sokoban import replay
>>> g = generate_level(seed=3)
>>> g.level.shape, len(g.level.start.boxes)
((10, 10), 4)
>>> replay(g.level, g.solution).solved
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .level import DIRECTIONS, Level, State
from .rules import lurd_pushes, pushes_to_lurd

__all__ = ["Generated", "generate_level", "generate_levels"]

_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True, slots=True)
class Generated:
    """A generated level and a solution: its reverse game's pushes, read backwards, with the
    shortest walks between them (LURD; not the fewest pushes)."""

    level: Level
    solution: str


def _room(rng: np.random.Generator, rows: int, cols: int, walks: int, steps: int) -> np.ndarray:
    """Floor carved by ``walks`` random walks of ``steps`` steps inside a wall border, each
    walk keeping its direction with probability 1/2 and carving one cell to its side now and
    then (Boxoban's rooms are built this way)."""
    floor = np.zeros((rows, cols), dtype=bool)
    r, c = int(rng.integers(1, rows - 1)), int(rng.integers(1, cols - 1))
    for _ in range(walks):
        d = int(rng.integers(4))
        for _ in range(steps):
            floor[r, c] = True
            if rng.random() < 0.3:  # a wider passage: one cell beside the walk
                dr, dc = _STEPS[int(rng.integers(4))]
                if 0 < r + dr < rows - 1 and 0 < c + dc < cols - 1:
                    floor[r + dr, c + dc] = True
            if rng.random() < 0.5:
                d = int(rng.integers(4))
            dr, dc = _STEPS[d]
            if 0 < r + dr < rows - 1 and 0 < c + dc < cols - 1:
                r, c = r + dr, c + dc
    return floor


def _reverse_game(
    rng: np.random.Generator, floor: np.ndarray, boxes: set[int], player: int, pulls: int
) -> tuple[set[int], int, list[str], int]:
    """Play ``pulls`` random reverse moves: the player steps, pulling the box behind it when
    there is one (with probability 3/4). Returns the boxes, the player, the forward moves
    (in reverse order) and how many times the pulls passed from one box to another."""
    rows, cols = floor.shape
    flat = floor.ravel()
    offs = (-cols, cols, -1, 1)
    moves: list[str] = []
    swaps = 0  # times the pulling passed from one box to another
    last = -1
    for _ in range(pulls):
        d = int(rng.integers(4))
        to = player + offs[d]
        if not flat[to] or to in boxes:
            continue
        behind = player - offs[d]
        back = DIRECTIONS[d ^ 1]  # the forward move walks back the other way
        if behind in boxes and rng.random() < 0.75:
            boxes.remove(behind)
            boxes.add(player)
            moves.append(back.upper())
            swaps += behind != last
            last = player
        else:
            moves.append(back)
        player = to
    return boxes, player, moves, swaps


def generate_level(
    *, rows: int = 10, cols: int = 10, boxes: int = 4, seed: int | None = None, pulls: int = 300, tries: int = 8
) -> Generated:
    """A random level in Boxoban's style, solvable by construction.

    Parameters
    ----------
    rows, cols : int
        The level's size, walls included (at least 5 each).
    boxes : int
        Boxes (and goals), at least 1.
    seed : int or None
        The random seed (the same seed, the same level).
    pulls : int
        Reverse moves played from the solved position.
    tries : int
        Reverse games played; the one with the best score is kept: as Boxoban's
        generator scores them, the number of times the pulling passed from one box to
        another times the sum of the boxes' distances from the goals.

    Raises
    ------
    ValueError
        When the sizes are too small or the room has too little floor for the boxes.
    """
    if rows < 5 or cols < 5 or boxes < 1:
        raise ValueError(f"a level needs at least 5x5 cells and 1 box, got {rows}x{cols} and {boxes}")
    rng = np.random.default_rng(seed)
    floor = np.zeros((rows, cols), dtype=bool)
    for _ in range(20):
        floor = _room(rng, rows, cols, walks=3 + (rows * cols) // 20, steps=max(rows, cols))
        if int(floor.sum()) >= boxes * 3 + 4:
            break
    else:
        raise ValueError(f"no {rows}x{cols} room with room for {boxes} boxes was carved")
    cells = np.flatnonzero(floor.ravel())
    goals = [int(x) for x in rng.choice(cells, size=boxes, replace=False)]
    free = [int(x) for x in cells if int(x) not in goals]
    best: tuple[int, set[int], int, list[str]] | None = None
    for _ in range(tries):
        start = int(free[int(rng.integers(len(free)))])
        got, player, moves, swaps = _reverse_game(rng, floor, set(goals), start, pulls)
        if swaps == 0 or got == set(goals):
            continue
        # Boxoban's score: the box swaps times the boxes' distance from the goals
        score = swaps * sum(min(_dist(b, g, cols) for g in goals) for b in got)
        if best is None or score > best[0]:
            best = (score, got, player, moves)
    if best is None:
        raise ValueError("no reverse game moved a box: the room is too tight")
    _, got, player, moves = best
    goal_mask = np.zeros((rows, cols), dtype=bool)
    goal_mask.ravel()[goals] = True
    level = Level(~floor, goal_mask, State.make(player, got), np.zeros_like(goal_mask))
    return Generated(level, _tidy(level, "".join(reversed(moves))))


def _tidy(level: Level, lurd: str) -> str:
    """The same pushes with shortest walks between them (the reverse game wanders)."""
    return pushes_to_lurd(level, level.start, lurd_pushes(level, lurd))


def _dist(a: int, b: int, cols: int) -> int:
    return abs(a // cols - b // cols) + abs(a % cols - b % cols)


def generate_levels(
    count: int, *, seed: int = 0, rows: int = 10, cols: int = 10, boxes: int = 4, pulls: int = 300
) -> list[Generated]:
    """``count`` levels from seeds ``seed``, ``seed + 1``, ... (see :func:`generate_level`)."""
    return [generate_level(rows=rows, cols=cols, boxes=boxes, seed=seed + k, pulls=pulls) for k in range(count)]
