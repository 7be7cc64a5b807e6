"""Pictures and animations: PNG, SVG, GIF and self-contained HTML (optional extra).

Importing this package loads nothing heavy: Pillow is imported when a raster
picture is drawn (``pip install 'mazekit[render]'``); SVG and HTML need only
NumPy. Pictures are drawn from arrays: a ``passable`` grid, a route, and the
trace arrays of a search (``SearchResult.order``) or of a generator (the
``order`` it records).

>>> from mazekit.generate import backtracker
>>> from mazekit.render import maze_svg
>>> maze_svg(backtracker(3, 3, rng=1)).startswith("<svg")
True
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "COLORS",
    "default_scale",
    "draw_grid",
    "draw_heatmap",
    "draw_maze",
    "draw_minesweeper",
    "draw_sokoban",
    "generation_gif",
    "generation_html",
    "grid_html",
    "maze_png",
    "maze_svg",
    "player_html",
    "save_grid_png",
    "save_heatmap_png",
    "save_maze_png",
    "save_minesweeper_png",
    "save_sokoban_gif",
    "save_sokoban_png",
    "search_gif",
    "search_html",
    "search_png",
]

_WHERE = {
    "COLORS": "._colors",
    "default_scale": ".maze",
    "draw_maze": ".maze",
    "draw_heatmap": ".maze",
    "maze_svg": ".maze",
    "save_maze_png": ".maze",
    "save_heatmap_png": ".maze",
    "generation_gif": ".animate",
    "search_gif": ".animate",
    "player_html": ".html",
    "generation_html": ".html",
    "search_html": ".html",
    "grid_html": ".html",
    "draw_grid": ".grid",
    "save_grid_png": ".grid",
    "draw_sokoban": ".sokoban",
    "save_sokoban_png": ".sokoban",
    "save_sokoban_gif": ".sokoban",
    "draw_minesweeper": ".minesweeper",
    "save_minesweeper_png": ".minesweeper",
    "maze_png": ".notebook",
    "search_png": ".notebook",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module 'mazekit.render' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
