"""Pictures in Jupyter: search results show themselves; mazes do after ``%load_ext mazekit``.

A :class:`~mazekit.search.SearchResult` has ``_repr_png_``: the last value of a
cell that is a search result is drawn (visited cells by visit order, the route,
start and goal). A maze is a plain NumPy array, which Jupyter prints as text;
``%load_ext mazekit`` registers a PNG formatter for 2-D bool arrays, so a maze
(or any ``passable`` grid) shows as a picture. Both need the ``render`` extra
(Pillow); without it Jupyter shows the text as before.

>>> from mazekit.generate import backtracker
>>> maze_png(backtracker(3, 3, rng=1))[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> maze_png(np.zeros((2, 2, 2), dtype=bool)) is None     # not a grid: no picture
True
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import MissingDependency

if TYPE_CHECKING:
    from ..search import SearchResult

__all__ = ["MAX_CELLS", "load_ipython_extension", "maze_png", "search_png"]

#: Grids above this many cells are left to the text display (a picture would be too big to be useful).
MAX_CELLS = 4_000_000
_TARGET = 640  # pixels on the longer side


def _png(rgb: Any) -> bytes | None:
    from .maze import _image, default_scale

    try:
        img = _image(rgb, default_scale(rgb.shape, _TARGET))
    except MissingDependency:
        return None
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def maze_png(passable: Any) -> bytes | None:
    """A 2-D bool array as PNG bytes (walls dark, passages light); None for anything else."""
    arr = np.asarray(passable)
    if arr.ndim != 2 or arr.dtype != np.bool_ or arr.size == 0 or arr.size > MAX_CELLS:
        return None
    from .maze import rgb_array

    return _png(rgb_array(arr))


def search_png(result: SearchResult) -> bytes | None:
    """A search result as PNG bytes: visited cells by visit order, the route, start and goal."""
    passable = result.passable
    if passable.size > MAX_CELLS:
        return None
    from .maze import rgb_array

    route = result.path if result.found else None
    return _png(rgb_array(passable, route, order=result.order))


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext mazekit``: show 2-D bool arrays (mazes, grids) as pictures."""
    formatter = ipython.display_formatter.formatters["image/png"]
    formatter.for_type(np.ndarray, maze_png)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext mazekit``: arrays print as text again."""
    formatter = ipython.display_formatter.formatters["image/png"]
    formatter.type_printers.pop(np.ndarray, None)


def _hook_into_search() -> None:
    """Let search results draw themselves in Jupyter through :func:`search_png`."""
    from ..search import _common

    _common.picture_hook = search_png


_hook_into_search()
