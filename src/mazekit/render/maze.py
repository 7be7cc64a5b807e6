"""Mazes as pictures: PNG (the maze, its route, a heatmap of a search) and SVG.

A picture is drawn pixel for pixel from the ``passable`` grid (one grid cell
= ``scale`` x ``scale`` pixels): walls dark, passages light, the route in the
maze article's orange with its start green and its goal red.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import as_passable
from ._colors import COLORS, heat, pil

__all__ = [
    "default_scale",
    "draw_heatmap",
    "draw_maze",
    "maze_svg",
    "rgb_array",
    "save_heatmap_png",
    "save_maze_png",
]

Route = ArrayLike | Sequence[tuple[int, int]] | None


def default_scale(shape: tuple[int, ...], target: int = 1200) -> int:
    """Pixels per grid cell so that the picture's longer side is about ``target``.

    >>> default_scale((21, 41)), default_scale((2001, 2001))
    (16, 1)
    """
    return max(1, min(16, target // max(int(shape[0]), int(shape[1]), 1)))


def _route(route: Route) -> NDArray[np.intp]:
    if route is None:
        return np.empty((0, 2), dtype=np.intp)
    arr = np.asarray(route, dtype=np.intp)
    if arr.size == 0:
        return np.empty((0, 2), dtype=np.intp)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"route must be a sequence of (r, c), got shape {arr.shape}")
    return arr


def rgb_array(
    passable: ArrayLike,
    route: Route = None,
    *,
    order: ArrayLike | None = None,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
) -> NDArray[np.uint8]:
    """The picture at one pixel per grid cell, as an (R, C, 3) uint8 array.

    ``order`` (the visiting order of a search, -1 never) colours the visited
    cells along the heat ramp; the route is drawn over them; ``start`` and
    ``goal`` default to the route's ends.

    >>> rgb_array([[1, 0]], [(0, 0)]).shape
    (1, 2, 3)
    """
    arr = as_passable(passable)
    rgb = np.empty(arr.shape + (3,), dtype=np.uint8)
    rgb[...] = COLORS["wall"]
    rgb[arr] = COLORS["free"]
    if order is not None:
        o = np.asarray(order)
        if o.shape != arr.shape:
            raise ValueError(f"order must have the grid's shape {arr.shape}, got {o.shape}")
        seen = o >= 0
        if seen.any():
            top = max(int(o.max()), 1)
            rgb[seen] = heat(o[seen] / top)
    pts = _route(route)
    if len(pts):
        rgb[pts[:, 0], pts[:, 1]] = COLORS["route"]
        start = (int(pts[0, 0]), int(pts[0, 1])) if start is None else start
        goal = (int(pts[-1, 0]), int(pts[-1, 1])) if goal is None else goal
    if start is not None:
        rgb[start] = COLORS["start"]
    if goal is not None:
        rgb[goal] = COLORS["goal"]
    return rgb


def _image(rgb: NDArray[np.uint8], scale: int | None) -> Any:
    Image, _ = pil()
    s = default_scale(rgb.shape) if scale is None else int(scale)
    if s < 1:
        raise ValueError(f"scale must be >= 1, got {scale!r}")
    if s > 1:
        rgb = np.repeat(np.repeat(rgb, s, axis=0), s, axis=1)
    return Image.fromarray(np.ascontiguousarray(rgb), "RGB")


def draw_maze(
    passable: ArrayLike,
    route: Route = None,
    *,
    scale: int | None = None,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
) -> Any:
    """The maze as a PIL image, with the route drawn over it.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        The maze (True = passage).
    route : sequence of (r, c), optional
        Drawn in orange; its first cell green, its last red.
    scale : int, optional
        Pixels per grid cell (default: about 1200 pixels on the longer side).
    start, goal : (r, c), optional
        Mark these cells instead of the route's ends.

    Returns
    -------
    PIL.Image.Image

    Examples
    --------
    >>> from mazekit.generate import backtracker
    >>> draw_maze(backtracker(4, 4, rng=0), scale=3).size
    (27, 27)
    """
    return _image(rgb_array(passable, route, start=start, goal=goal), scale)


def draw_heatmap(passable: ArrayLike, order: ArrayLike, route: Route = None, *, scale: int | None = None) -> Any:
    """The cells a search visited, coloured by when (dark blue early, yellow late).

    ``order`` is :attr:`SearchResult.order` (the step at which each cell was
    visited, -1 never); the route is drawn over it.

    >>> from mazekit.generate import backtracker
    >>> from mazekit.search import solve
    >>> maze = backtracker(4, 4, rng=0)
    >>> res = solve(maze, (1, 1), (7, 7), algorithm="bfs")
    >>> draw_heatmap(maze, res.order, res.path, scale=2).size
    (18, 18)
    """
    return _image(rgb_array(passable, route, order=order), scale)


def save_maze_png(path: str, passable: ArrayLike, route: Route = None, *, scale: int | None = None) -> None:
    """Write :func:`draw_maze` to ``path`` (PNG)."""
    draw_maze(passable, route, scale=scale).save(path, format="PNG", optimize=True)


def save_heatmap_png(
    path: str, passable: ArrayLike, order: ArrayLike, route: Route = None, *, scale: int | None = None
) -> None:
    """Write :func:`draw_heatmap` to ``path`` (PNG)."""
    draw_heatmap(passable, order, route, scale=scale).save(path, format="PNG", optimize=True)


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def maze_svg(
    passable: ArrayLike,
    route: Route = None,
    *,
    scale: int = 10,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
) -> str:
    """The maze as an SVG document (walls merged into row runs, the route a polyline).

    ``start`` and ``goal`` (default: the route's ends) are filled in their
    colours, as in the PNG (:func:`rgb_array`).

    >>> svg = maze_svg([[0, 0, 0], [1, 1, 0]], [(1, 0), (1, 1)], scale=4)
    >>> svg.count("<rect"), "<polyline" in svg
    (5, True)
    >>> 'fill="#28aa50"' in maze_svg([[1, 1]], start=(0, 0))
    True
    """
    arr = as_passable(passable)
    rows, cols = arr.shape
    s = int(scale)
    if s < 1:
        raise ValueError(f"scale must be >= 1, got {scale!r}")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * s}" height="{rows * s}" '
        f'viewBox="0 0 {cols} {rows}" shape-rendering="crispEdges">',
        f'<rect width="{cols}" height="{rows}" fill="{_hex(COLORS["free"])}"/>',
        f'<g fill="{_hex(COLORS["wall"])}">',
    ]
    wall = ~arr
    for r in range(rows):
        row = wall[r]
        if not row.any():
            continue
        d = np.diff(np.concatenate(([0], row.view(np.int8), [0])))
        starts = np.flatnonzero(d == 1)
        ends = np.flatnonzero(d == -1)
        for a, b in zip(starts.tolist(), ends.tolist(), strict=False):
            out.append(f'<rect x="{a}" y="{r}" width="{b - a}" height="1"/>')
    out.append("</g>")
    pts = _route(route)
    if len(pts):
        start = (int(pts[0, 0]), int(pts[0, 1])) if start is None else start
        goal = (int(pts[-1, 0]), int(pts[-1, 1])) if goal is None else goal
    for cell, role in ((start, "start"), (goal, "goal")):
        if cell is not None:
            out.append(f'<rect x="{cell[1]}" y="{cell[0]}" width="1" height="1" fill="{_hex(COLORS[role])}"/>')
    if len(pts):
        xy = " ".join(f"{c + 0.5:g},{r + 0.5:g}" for r, c in pts.tolist())
        out.append(
            f'<polyline points="{xy}" fill="none" stroke="{_hex(COLORS["route"])}" stroke-width="0.6" '
            'stroke-linecap="round" stroke-linejoin="round"/>'
        )
        for (r, c), role in ((pts[0], "start"), (pts[-1], "goal")):
            out.append(f'<circle cx="{c + 0.5:g}" cy="{r + 0.5:g}" r="0.45" fill="{_hex(COLORS[role])}"/>')
    out.append("</svg>\n")
    return "\n".join(out)
