"""Reading grids: a header line only where the rows fit it (spaced 0/1 grids are not headers)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit.errors import InputError
from mazekit.grid import format_grid, read_grid


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_spaced_and_plain_grids_read_back(rows: int, cols: int, data: st.DataObject) -> None:
    cells = np.array(
        data.draw(st.lists(st.lists(st.booleans(), min_size=cols, max_size=cols), min_size=rows, max_size=rows))
    )
    plain = format_grid(cells)
    spaced = "\n".join(" ".join(row) for row in plain.splitlines()) + "\n"
    for text in (plain, spaced, f"{rows} {cols}\n{plain}", f"{rows} {cols}\n{spaced}"):
        assert read_grid(text).passable.tolist() == cells.tolist(), text


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("1 0\n0 1\n", (2, 2)),  # was taken for a 1x0 header
        ("1 1\n0 1\n", (2, 2)),  # a 1x1 header would not fit the 2-cell row
        ("1 1\n0\n", (1, 1)),  # it fits: a header
        ("0 1\n1 0\n0 0\n", (3, 2)),
        ("3 2\n01\n10\n00\n", (3, 2)),
        ("4 7 1 3 2 6\n1001000\n0010100\n0000000\n1101000\n", (4, 7)),
    ],
)
def test_header_or_row(text: str, shape: tuple[int, int]) -> None:
    assert read_grid(text).shape == shape


def test_a_header_that_does_not_fit_still_names_the_line() -> None:
    with pytest.raises(InputError, match="line 3"):
        read_grid("3 4\n0000\n000\n0000\n")
