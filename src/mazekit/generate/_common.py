"""Helpers shared by the maze generators."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

RNG = np.random.Generator | int | None

_NO_ORDER = np.empty(0, dtype=np.int32)


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


def order_buffer(order: NDArray[Any] | None, shape: tuple[int, int]) -> NDArray[np.int32]:
    """The flat int32 buffer a kernel records the carving order into.

    ``order`` is the caller's array (filled with -1 here) or None (an empty
    buffer: nothing is recorded).
    """
    if order is None:
        return _NO_ORDER
    if not isinstance(order, np.ndarray) or order.dtype != np.int32 or order.shape != shape:
        got = getattr(order, "shape", None), getattr(order, "dtype", None)
        raise ValueError(f"order must be an int32 array of shape {shape}, got {got}")
    if not order.flags.c_contiguous:
        raise ValueError("order must be C-contiguous")
    order.fill(-1)
    return order.reshape(-1)


def check_fraction(name: str, value: float) -> float:
    v = float(value)
    if not 0.0 <= v <= 1.0:
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
    return v


def seed32(gen: np.random.Generator) -> int:
    """A nonzero 32-bit seed for the kernels' xorshift32."""
    return int(gen.integers(1, 2**32))
