"""mazekit: grid worlds for Python.

Fast grid search and flood fill, mazes, universal escape strings, Sokoban and
Minesweeper. Importing ``mazekit`` is cheap: numba is loaded only when a large
input needs a compiled loop, and the subpackages load on first use::

    import mazekit
    mazekit.search.bfs(passable, start, goal)
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from .errors import InputError, MissingDependency

__version__ = "0.1.0"

__all__ = [
    "InputError",
    "MissingDependency",
    "__version__",
    "articles",
    "generate",
    "grid",
    "load_ipython_extension",
    "minesweeper",
    "render",
    "search",
    "sokoban",
    "universal",
    "unload_ipython_extension",
]

_SUBMODULES = {"articles", "grid", "search", "generate", "universal", "render", "sokoban", "minesweeper"}


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext mazekit`` in Jupyter: mazes (2-D bool arrays) show as pictures."""
    from .render.notebook import load_ipython_extension as load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext mazekit``: arrays print as text again."""
    from .render.notebook import unload_ipython_extension as unload

    unload(ipython)


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'mazekit' has no attribute {name!r}")


if "IPython" in sys.modules:  # a notebook: search results show as pictures (render hooks into search)
    importlib.import_module(".render.notebook", __name__)
