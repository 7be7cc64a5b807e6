"""Boards, the article's opening (byte for byte) and the flood fill against a recursive reference."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings

from mazekit.cli import main
from mazekit.minesweeper import Board, density, generate, protected_cells, three_bv
from mazekit.search import _kernels as SK
from tests.conftest import DATA, jit_mode
from tests.strategies import mine_boards

CASES = sorted(p.stem for p in (DATA / "minesweeper").glob("*.in"))


@pytest.mark.parametrize("name", CASES)
def test_article_opening_byte_for_byte(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "minesweeper" / f"{name}.in"
    assert main(["mines", "open", str(path)]) == 0
    assert capsys.readouterr().out == (DATA / "minesweeper" / f"{name}.out").read_text()


def reference_open(mines: np.ndarray, seed: tuple[int, int]) -> np.ndarray:
    """The article's C function, recursive, in plain Python."""
    rows, cols = mines.shape
    dens = density(mines)
    opened = np.zeros(mines.shape, dtype=bool)

    def open_empty_pos(row: int, col: int) -> None:
        opened[row, col] = True
        if dens[row, col] == 0:
            for i in (-1, 0, 1):
                for j in (-1, 0, 1):
                    if (i or j) and 0 <= row + i < rows and 0 <= col + j < cols and not opened[row + i, col + j]:
                        open_empty_pos(row + i, col + j)

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10 * mines.size + 100))
    try:
        open_empty_pos(*seed)
    finally:
        sys.setrecursionlimit(old)
    return opened


@settings(max_examples=40)
@given(mine_boards())
def test_flood_matches_recursive_reference(case: tuple[np.ndarray, tuple[int, int]]) -> None:
    mines, seed = case
    expected = reference_open(mines, seed)
    board = Board.from_mines(mines)
    with jit_mode("never"):
        slow = board.open(seed)
    with jit_mode("always"):
        fast = board.open(seed)
    assert np.array_equal(slow, expected)
    assert np.array_equal(fast, expected)


def test_big_board_opens_fast_and_compiled() -> None:
    gen = np.random.default_rng(7)
    mines = gen.random((1000, 1000)) < 0.01
    mines[500, 500] = False
    mines[499:502, 499:502] = False
    board = Board.from_mines(mines)
    dens = board.density()
    board.open((500, 500), density=dens)  # compile or load
    before = SK.flood_kernel.calls_compiled
    t = time.perf_counter()
    region = board.open((500, 500), density=dens)
    elapsed = time.perf_counter() - t
    assert SK.flood_kernel.calls_compiled == before + 1
    assert region.sum() > 500_000
    assert elapsed < 1.0, elapsed


def test_board_value_object() -> None:
    a = generate(9, 9, 10, click=(0, 0), rng=5)
    b = generate(9, 9, 10, click=(0, 0), rng=5)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != generate(9, 9, 10, click=(0, 0), rng=6)
    assert Board.parse(str(a)) == a
    with pytest.raises(AttributeError):
        a.rows = 3  # type: ignore[misc]
    assert not a.mines.flags.writeable


@pytest.mark.parametrize("rule", ["safe", "zero"])
def test_first_click_rules(rule: str) -> None:
    for seed in range(50):
        click = (seed % 9, (seed * 5) % 9)
        b = generate(9, 9, 30, click=click, first_click=rule, rng=seed)  # type: ignore[arg-type]
        assert b.n_mines == 30
        assert not (b.mines & protected_cells((9, 9), click, rule)).any()  # type: ignore[arg-type]
        if rule == "zero":
            assert b.density()[click] == 0


def test_generate_rejects_too_many_mines() -> None:
    with pytest.raises(ValueError, match="mines must be between 0 and 72"):
        generate(9, 9, 73, click=(4, 4), first_click="zero")


def test_three_bv() -> None:
    assert three_bv(np.zeros((4, 4), bool)) == 1
    b = Board.parse("*.*\n...\n*.*")
    assert b.three_bv() == 5  # no zero: every safe cell is a click
    assert Board.parse("*....\n.....\n.....").three_bv() == 1
