"""Maze generation: one module per algorithm and the :data:`GENERATORS` registry.

Every generator is called ``gen(rows, cols, *, rng=None)`` with the maze size in
cells and returns a bool ``passable`` array of shape ``(2*rows+1, 2*cols+1)``:
cell ``(i, j)`` at ``(2i+1, 2j+1)``, walls between them.

>>> from mazekit.generate import GENERATORS
>>> GENERATORS["backtracker"](3, 4, rng=7).shape
(7, 9)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from .backtracker import backtracker

__all__ = ["GENERATORS", "backtracker"]

#: Name -> generator; read by the CLI for its choices and by the tests.
GENERATORS: dict[str, Callable[..., NDArray[np.bool_]]] = {
    "backtracker": backtracker,
}
