"""Helpers shared by the maze generators."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

RNG = np.random.Generator | int | None


def cells_shape(rows: int, cols: int) -> tuple[int, int]:
    """Validate a maze size in cells."""
    for name, v in (("rows", rows), ("cols", cols)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if (2 * rows + 1) * (2 * cols + 1) > 2**31 - 1:
        raise ValueError(f"a {rows}x{cols} maze is too large")
    return int(rows), int(cols)


def new_canvas(h: int, w: int) -> NDArray[np.uint8]:
    """An all-wall pixel grid for an h x w cell maze (uint8, 1 = passage)."""
    return np.zeros((2 * h + 1, 2 * w + 1), dtype=np.uint8)
