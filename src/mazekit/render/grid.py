"""Small grid puzzles' answers as pictures (the robot and forest articles' style).

Cells are squares with grid lines between them: blocked cells dark, free
cells light, the route a thick orange line through the cell centres, the start
a green disc and the finish a red one. Letters (``E`` for the explorer, say)
can be written in cells.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..grid import as_passable
from ._colors import COLORS, heat, pil
from .maze import Route, _route

__all__ = ["draw_grid", "save_grid_png"]


def draw_grid(
    passable: ArrayLike,
    route: Route = None,
    *,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
    order: ArrayLike | None = None,
    marks: dict[tuple[int, int], str] | None = None,
    cell: int | None = None,
) -> Any:
    """The grid with its route, as a PIL image.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True = free cell.
    route : sequence of (r, c), optional
        The answer, start first.
    start, goal : (r, c), optional
        Default: the route's ends.
    order : array_like of int, optional
        A search's visiting order: visited cells are tinted along the heat ramp.
    marks : dict of (r, c) -> str, optional
        Letters to write in cells.
    cell : int, optional
        Pixels per cell (default: 40, less for big grids).

    Examples
    --------
    >>> draw_grid([[1, 1, 0], [0, 1, 1]], [(0, 0), (0, 1), (1, 1), (1, 2)], cell=20).size
    (61, 41)
    """
    Image, ImageDraw = pil()
    grid = as_passable(passable)
    rows, cols = grid.shape
    s = cell if cell is not None else max(4, min(40, 1200 // max(rows, cols)))
    if s < 2:
        raise ValueError(f"cell must be >= 2, got {cell!r}")
    img = Image.new("RGB", (cols * s + 1, rows * s + 1), COLORS["grid"])
    rgb = np.empty((rows, cols, 3), dtype=np.uint8)
    rgb[...] = COLORS["wall"]
    rgb[grid] = COLORS["free"]
    if order is not None:
        o = np.asarray(order)
        seen = (o >= 0) & grid
        if seen.any():
            tint = heat(o[seen] / max(int(o.max()), 1)).astype(np.float64)
            rgb[seen] = np.rint(0.45 * tint + 0.55 * 255).astype(np.uint8)
    big = np.repeat(np.repeat(rgb, s, axis=0), s, axis=1)
    cells = Image.fromarray(np.ascontiguousarray(big), "RGB")
    # paste the cells, leaving one-pixel grid lines between them
    mask = np.ones((rows * s, cols * s), dtype=np.uint8) * 255
    if s >= 6:
        mask[::s, :] = 0
        mask[:, ::s] = 0
    img.paste(cells, (1, 1), Image.fromarray(mask[:, :], "L"))
    draw = ImageDraw.Draw(img)
    pts = _route(route)

    def centre(p: tuple[int, int]) -> tuple[float, float]:
        return (p[1] * s + s / 2 + 0.5, p[0] * s + s / 2 + 0.5)

    if len(pts) > 1:
        xy = [centre((r, c)) for r, c in pts.tolist()]
        width = max(2, s // 5)
        draw.line(xy, fill=COLORS["route"], width=width, joint="curve")
        for x, y in xy:
            draw.ellipse([x - width / 2, y - width / 2, x + width / 2, y + width / 2], fill=COLORS["route"])
    if len(pts):
        start = (int(pts[0, 0]), int(pts[0, 1])) if start is None else start
        goal = (int(pts[-1, 0]), int(pts[-1, 1])) if goal is None else goal
    rad = max(2.0, s * 0.3)
    for p, role in ((start, "start"), (goal, "goal")):
        if p is not None:
            x, y = centre(p)
            draw.ellipse([x - rad, y - rad, x + rad, y + rad], fill=COLORS[role])
    if marks and s >= 12:
        for (r, c), text in marks.items():
            x, y = centre((r, c))
            draw.text((x, y), text, fill=(255, 255, 255), anchor="mm", font_size=max(8, int(s * 0.5)))
    return img


def save_grid_png(path: str, passable: ArrayLike, route: Route = None, **options: Any) -> None:
    """Write :func:`draw_grid` to ``path`` (PNG); options as :func:`draw_grid`."""
    draw_grid(passable, route, **options).save(path, format="PNG", optimize=True)
