"""mazekit: grid worlds for Python.

Fast grid search and flood fill, mazes, universal escape strings, Sokoban and
Minesweeper. Importing ``mazekit`` is cheap: numba is loaded only when a large
input needs a compiled loop, and the subpackages load on first use::

    import mazekit
    mazekit.search.bfs(passable, start, goal)
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import InputError, MissingDependency

__version__ = "0.1.0"

__all__ = [
    "InputError", "MissingDependency", "__version__",
    "grid", "search", "generate", "universal", "render", "sokoban", "minesweeper",
]

_SUBMODULES = {"grid", "search", "generate", "universal", "render", "sokoban", "minesweeper"}


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'mazekit' has no attribute {name!r}")
