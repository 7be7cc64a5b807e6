"""mazekit.generate.teach: the step-by-step copies carve what the compiled generators carve."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.generate import GENERATORS
from mazekit.generate.teach import ALGORITHMS, MAX_CELLS, PSEUDOCODE, teach_generator
from tests.conftest import jit_mode
from tests.strategies import seeds


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(ALGORITHMS), st.integers(1, 12), st.integers(1, 12), seeds)
def test_same_maze_and_order_as_the_compiled_generator(algorithm, rows, cols, seed):
    check_same(algorithm, rows, cols, seed)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(ALGORITHMS), st.integers(20, 30), st.integers(20, 30), seeds)
def test_the_same_up_to_the_largest_mazes_it_takes(algorithm, rows, cols, seed):
    check_same(algorithm, rows, cols, seed)


def check_same(algorithm, rows, cols, seed):
    order = np.empty((2 * rows + 1, 2 * cols + 1), dtype=np.int32)
    with jit_mode("always"):
        maze = GENERATORS[algorithm](rows, cols, rng=seed, order=order)
    walk = teach_generator(algorithm, rows, cols, rng=seed)
    np.testing.assert_array_equal(walk.maze, maze)
    np.testing.assert_array_equal(walk.order, order)
    ats = [s.at for s in walk.steps]
    assert ats == sorted(ats) and ats[-1] == order.max()
    for step in walk.steps:
        assert 0 <= step.line < len(PSEUDOCODE[algorithm]) and step.line in step.lines
        if step.wall is not None:
            assert order[step.wall] <= step.at
        assert len(step.first) <= 8


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_one_step_per_cell_joined_and_the_words(algorithm):
    walk = teach_generator(algorithm, 6, 9, rng=4)
    joined = [s.cell for s in walk.steps if s.wall is not None or s.line == 0]
    if algorithm == "kruskal":  # a step per wall carved: one set fewer each time
        assert len(walk.steps) == 6 * 9 - 1
    elif algorithm != "eller":  # a step per cell that joins the maze
        assert len(set(joined)) == len(joined) == 6 * 9
    assert all(s.text for s in walk.steps)


def test_the_words_of_a_backtracker_step():
    walk = teach_generator("backtracker", 2, 2, rng=1)
    assert walk.steps[1].text == "carve from (0, 1) to (0, 0), drawn from (1, 1) and (0, 0); push (0, 0)"
    assert walk.steps[1].first == ("(0, 0)", "(0, 1)") and walk.steps[1].wall == (1, 2)
    assert walk.structure == "stack"


def test_bad_input():
    with pytest.raises(ValueError, match="unknown generator"):
        teach_generator("sidewinder", 3, 3)
    with pytest.raises(ValueError, match="at most 900 cells"):
        teach_generator("prim", 31, 30)
    with pytest.raises(ValueError, match="rows must be a positive integer"):
        teach_generator("prim", 0, 3)
    assert MAX_CELLS == 900
