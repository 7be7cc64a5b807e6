"""Every generator: perfect mazes, reproducible, compiled == interpreted, order recording."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.generate import GENERATORS, PERFECT, PLAIN, braid, caves, generate, rooms
from mazekit.generate import _kernels as K
from mazekit.generate.properties import dead_ends, is_perfect
from mazekit.search import label
from tests.conftest import jit_mode
from tests.strategies import seeds, sizes

MAZES = sorted(PERFECT)


@pytest.mark.parametrize("name", MAZES)
@settings(max_examples=25)
@given(rows=sizes, cols=sizes, seed=seeds)
def test_perfect(name: str, rows: int, cols: int, seed: int) -> None:
    maze = generate(name, rows, cols, rng=seed)
    assert maze.dtype == np.bool_ and maze.shape == (2 * rows + 1, 2 * cols + 1)
    assert not maze[0].any() and not maze[-1].any() and not maze[:, 0].any() and not maze[:, -1].any()
    assert maze[1::2, 1::2].all()  # every cell is open
    assert is_perfect(maze)


@pytest.mark.parametrize("name", MAZES)
@pytest.mark.parametrize("shape", [(1, 1), (1, 40), (40, 1), (2, 2)])
def test_thin_shapes(name: str, shape: tuple[int, int]) -> None:
    for seed in range(3):
        assert is_perfect(generate(name, *shape, rng=seed))


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_seeded(name: str) -> None:
    a = generate(name, 6, 7, rng=11)
    b = generate(name, 6, 7, rng=np.random.default_rng(11))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("name", MAZES)
@settings(max_examples=8)
@given(rows=sizes, cols=sizes, seed=seeds)
def test_compiled_equals_python(name: str, rows: int, cols: int, seed: int) -> None:
    shape = (2 * rows + 1, 2 * cols + 1)
    oa = np.empty(shape, dtype=np.int32)
    ob = np.empty(shape, dtype=np.int32)
    with jit_mode("never"):
        a = generate(name, rows, cols, rng=seed, order=oa)
    with jit_mode("always"):
        b = generate(name, rows, cols, rng=seed, order=ob)
    assert np.array_equal(a, b)
    assert np.array_equal(oa, ob)


@pytest.mark.parametrize("name", MAZES)
def test_order_replays_the_maze(name: str) -> None:
    shape = (15, 21)
    order = np.empty(shape, dtype=np.int32)
    maze = generate(name, 7, 10, rng=3, order=order)
    plain = generate(name, 7, 10, rng=3)
    assert np.array_equal(maze, plain)  # recording changes nothing
    if name == "division":  # adds walls: the recorded pixels are the walls placed
        assert not maze[order >= 0].any()
        inside = np.zeros(shape, dtype=bool)
        inside[1:-1, 1:-1] = True
        assert np.array_equal(inside & (order < 0), maze)
    else:
        assert np.array_equal(order >= 0, maze)
        steps = order[order >= 0]
        assert len(np.unique(steps)) == steps.size  # one pixel per step


def test_big_inputs_run_compiled() -> None:
    before = K.backtracker_kernel.calls_compiled
    with jit_mode("auto"):
        generate("backtracker", 250, 250, rng=0)
    assert K.backtracker_kernel.calls_compiled == before + 1


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="rows must be a positive integer"):
        generate("prim", 0, 3)
    with pytest.raises(ValueError, match="unknown algorithm"):
        generate("nope", 3, 3)
    with pytest.raises(ValueError, match="order must be an int32 array"):
        generate("prim", 3, 3, order=np.zeros((7, 7)))
    from mazekit.generate import growing_tree

    with pytest.raises(ValueError, match="mode must be"):
        growing_tree(3, 3, mode="oldest")  # type: ignore[arg-type]


def test_growing_tree_modes() -> None:
    from mazekit.generate import growing_tree

    for mode in ("newest", "random", "mixed", 0.25):
        assert is_perfect(growing_tree(9, 9, rng=1, mode=mode))  # type: ignore[arg-type]


@settings(max_examples=20)
@given(rows=st.integers(1, 40), cols=st.integers(1, 40), seed=seeds)
def test_caves(rows: int, cols: int, seed: int) -> None:
    cave = caves(rows, cols, rng=seed)
    assert cave.shape == (rows, cols)
    assert label(cave)[1] <= 1
    with jit_mode("always"):
        assert np.array_equal(caves(rows, cols, rng=seed), cave)
    assert "caves" in PLAIN


@settings(max_examples=25)
@given(rows=sizes, cols=sizes, seed=seeds, frac=st.floats(0, 1))
def test_braid(rows: int, cols: int, seed: int, frac: float) -> None:
    maze = generate("backtracker", rows, cols, rng=seed)
    before = dead_ends(maze)
    out = braid(maze, frac, rng=seed)
    assert label(out)[1] == 1
    assert (out >= maze).all()  # only walls removed
    after = dead_ends(out)
    if rows > 1 and cols > 1:  # in a 1xN corridor the two ends have no wall to open
        assert before - after >= min(round(frac * before), before) - 1
    if frac == 1.0 and rows > 1 and cols > 1:
        assert after == 0
    assert np.array_equal(out, braid(maze, frac, rng=seed))


def test_rooms_keep_connected() -> None:
    maze = generate("kruskal", 12, 12, rng=0)
    out = rooms(maze, 4, rng=0)
    assert label(out)[1] == 1 and (out >= maze).all() and out.sum() > maze.sum()
