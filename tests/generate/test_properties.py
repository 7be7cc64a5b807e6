"""Maze measures against brute force."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings

from mazekit.generate import generate
from mazekit.generate.properties import (
    dead_ends,
    is_cell_layout,
    is_perfect,
    junctions,
    metrics,
    solution_length,
    straightness,
)
from tests.strategies import grids


def _brute_tree(p: np.ndarray) -> bool:
    cells = [(r, c) for r, c in zip(*np.nonzero(p), strict=False)]
    if not cells:
        return False
    edges = sum(
        1
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < p.shape[0] and c + dc < p.shape[1] and p[r + dr, c + dc]
    )
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        r, c = todo.pop()
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            q = (r + dr, c + dc)
            if 0 <= q[0] < p.shape[0] and 0 <= q[1] < p.shape[1] and p[q] and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(cells) and edges == len(cells) - 1


@settings(max_examples=80)
@given(grids(6, opened=False))
def test_is_perfect_pixels(p: np.ndarray) -> None:
    assert is_perfect(p, cells=False) == _brute_tree(p)


def test_cell_layout_measures() -> None:
    maze = generate("backtracker", 15, 15, rng=4)
    assert is_cell_layout(maze)
    m = metrics(maze)
    assert m.cells == 225 and m.perfect
    assert m.dead_ends == dead_ends(maze) and m.junctions == junctions(maze)
    assert 0 <= m.straightness <= 1 and m.straightness == straightness(maze)
    # pixel-level route is twice the cell route
    assert solution_length(maze, cells=False) == 2 * m.solution_length


def test_corridor() -> None:
    maze = generate("binary-tree", 1, 6, rng=0)
    assert dead_ends(maze) == 2 and junctions(maze) == 0 and straightness(maze) == 1.0
    assert solution_length(maze) == 5
    assert solution_length(maze, (0, 0), (0, 3)) == 3


def test_unreachable() -> None:
    p = np.array([[1, 0, 1]], dtype=bool)
    assert solution_length(p) == -1 and not is_perfect(p)
