"""Inputs the fuzzers found, each once a crash, now refused as the reader promises."""

from __future__ import annotations

import time

import pytest

from mazekit.errors import InputError


@pytest.mark.parametrize(
    "data",
    [
        # 6.6 KB of run-length rows asked for a 3002x9999900 level: MemoryError (28 GiB)
        ("99999#" * 100 + "|" + "#|" * 3000 + "#@$.#").encode(),
        # rows each under the limit on their own, too many cells together (before any array is made)
        ("99999#" * 40 + "\n") * 200 + "#@$.#",
        # few long rows, many short ones: the level's rectangle is what counts
        "99999#|" * 30 + "\n" + "#|" * 30000 + "#@$.#",
    ],
    ids=["one-line", "many-lines", "rectangle"],
)
def test_run_length_rows_cannot_ask_for_gigabytes(data: str | bytes) -> None:
    from mazekit.sokoban import load_levels
    from mazekit.sokoban.formats import MAX_LEVEL_CELLS, parse_levels

    t0 = time.perf_counter()
    with pytest.raises(InputError, match=f"more than {MAX_LEVEL_CELLS} cells"):
        parse_levels(data)
    with pytest.raises(InputError, match="cells"):
        load_levels(data if isinstance(data, bytes) else data.encode())
    assert time.perf_counter() - t0 < 5


@pytest.mark.parametrize("data", ["\u00b2 2\n00\n", "2 \u00b2\n00\n00\n", "--5 2\n00\n", "2 --2\n00\n00\n"])
def test_a_header_of_odd_digits_is_input_error(data: str) -> None:
    """'²'.isdigit() is true but int('²') fails: read_grid raised ValueError, 'mazekit path' a traceback."""
    from mazekit.grid import read_grid

    with pytest.raises(InputError):
        read_grid(data)
    with pytest.raises(InputError):
        read_grid(data.encode())


def test_header_ends_ignores_odd_digits() -> None:
    from mazekit.grid import header_ends

    assert header_ends("\u00b2 1 1 1 1 1\n0\n", (1, 1)) is None
    assert header_ends("1 1 1 1 1 1\n0\n", (1, 1)) == ((0, 0), (0, 0))


def test_run_length_count_of_odd_digits_is_input_error() -> None:
    from mazekit.sokoban import parse_levels

    with pytest.raises(InputError, match="line 1"):
        parse_levels("#1\u00b2#\n#@$.#\n")


def test_path_cli_odd_digit_header_is_exit_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from mazekit.cli import main

    src = tmp_path / "grid.txt"
    src.write_bytes("\u00b2 2\n00\n".encode())
    assert main(["path", str(src)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_solver_out_of_time_before_its_first_run_is_an_answer() -> None:
    """search_level asserted a run had started: a time limit shorter than the level's preparation
    (the fuzzed /api/sokoban/solve, body {"level": {"text": "####\\n.........##+$.$.#\\n#2###\\n#\\n#2###\\n"}}
    on a server with a 0.05 s cap) was a 500 'internal error: AssertionError'."""
    from mazekit.sokoban import parse_level
    from mazekit.sokoban.solver import search_level

    level = parse_level("#" * 40 + "\n#@ $" + " " * 34 + ".#\n" + ("#" + " " * 38 + "#\n") * 30 + "#" * 40)
    res = search_level(level, time_limit=1e-9)
    assert res.solution is None and res.stats.stopped == "time"
