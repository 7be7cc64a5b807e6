"""Generated levels (Boxoban's manner): solvable by construction, reproducible, checked sizes."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mazekit.sokoban import format_level, replay
from mazekit.sokoban.generate import generate_level, generate_levels
from mazekit.sokoban.solver import search_level
from tests.strategies import seeds


@settings(max_examples=60, deadline=None)
@given(seeds, st.integers(6, 14), st.integers(6, 14), st.integers(1, 5))
def test_every_generated_level_is_solved_by_its_reverse_game(seed, rows, cols, boxes):
    try:
        g = generate_level(rows=rows, cols=cols, boxes=boxes, seed=seed)
    except ValueError as exc:  # a room too tight for the boxes is refused, not returned half-made
        assert "room" in str(exc)
        assume(False)
    lv = g.level
    assert lv.shape == (rows, cols) and len(lv.start.boxes) == boxes == len(lv.goal_cells)
    assert not lv.is_solved(lv.start)
    assert replay(lv, g.solution).solved


def test_the_same_seed_gives_the_same_level_and_sizes_are_checked():
    a, b = generate_level(seed=11), generate_level(seed=11)
    assert format_level(a.level) == format_level(b.level) and a.solution == b.solution
    assert format_level(generate_level(seed=12).level) != format_level(a.level)
    with pytest.raises(ValueError, match="at least 5x5"):
        generate_level(rows=4)


def test_the_solver_solves_generated_levels():
    for g in generate_levels(5, seed=100):
        res = search_level(g.level, time_limit=20)
        assert res.solution is not None and replay(g.level, res.solution.lurd).solved


def test_generate_levels_passes_its_sizes_and_reverse_moves_on():
    """A collection of larger levels (the benchmark's ``generated_large`` in small): each is
    ``generate_level`` of its seed with the same sizes and reverse moves."""
    many = generate_levels(2, seed=5, rows=14, cols=16, boxes=8, pulls=2000)
    for k, g in enumerate(many):
        one = generate_level(rows=14, cols=16, boxes=8, seed=5 + k, pulls=2000)
        assert format_level(g.level) == format_level(one.level) and g.solution == one.solution
        assert g.level.shape == (14, 16) and len(g.level.start.boxes) == 8
        assert replay(g.level, g.solution).solved
    # the reverse moves matter: with none, no box leaves its goal and no level is made
    with pytest.raises(ValueError, match="no reverse game moved a box"):
        generate_levels(1, seed=5, rows=14, cols=16, boxes=8, pulls=0)
