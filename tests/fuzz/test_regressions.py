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
    from mazekit.cli.sokoban import load_levels
    from mazekit.sokoban.formats import MAX_LEVEL_CELLS, parse_levels

    t0 = time.perf_counter()
    with pytest.raises(InputError, match=f"more than {MAX_LEVEL_CELLS} cells"):
        parse_levels(data)
    with pytest.raises(InputError, match="cells"):
        load_levels(data if isinstance(data, bytes) else data.encode())
    assert time.perf_counter() - t0 < 5
