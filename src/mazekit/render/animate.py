"""Animations as GIF: a maze being generated, a search exploring it.

Frames are drawn from trace arrays: the ``order`` a generator records (the step
at which each pixel changed) or :attr:`SearchResult.order` (the step at which
each cell was visited). Long traces are sampled: at most ``max_frames`` frames,
fewer for very large grids, so a GIF stays a few megabytes at most.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import as_passable
from ._colors import COLORS, heat, pil
from .maze import Route, _route, default_scale

__all__ = ["frame_steps", "generation_gif", "search_gif"]

_WALL, _FREE, _ROUTE, _START, _GOAL, _FRESH, _HEAT0 = 0, 1, 2, 3, 4, 5, 6
_LEVELS = 64
#: Grid pixels times frames above which frames are dropped.
PIXEL_FRAMES = 40_000_000


def _palette() -> list[int]:
    cols = [COLORS["wall"], COLORS["free"], COLORS["route"], COLORS["start"], COLORS["goal"], COLORS["fresh"]]
    ramp = heat(np.linspace(0.0, 1.0, _LEVELS))
    flat = [v for rgb in cols for v in rgb] + ramp.ravel().tolist()
    return flat + [0] * (768 - len(flat))


def frame_steps(last: int, max_frames: int, pixels: int = 0) -> NDArray[np.int64]:
    """The steps at which frames are taken: evenly spread over ``0..last``.

    >>> frame_steps(10, 4).tolist()
    [0, 3, 7, 10]
    >>> frame_steps(2, 100).tolist()
    [0, 1, 2]
    """
    if max_frames < 2:
        raise ValueError(f"max_frames must be >= 2, got {max_frames!r}")
    if pixels:
        max_frames = min(max_frames, max(8, PIXEL_FRAMES // max(pixels, 1)))
    n = min(max_frames, last + 1)
    return np.unique(np.rint(np.linspace(0, last, max(n, 1))).astype(np.int64))


def _save(path: str, frames: list[NDArray[np.uint8]], scale: int, duration: int, hold: int) -> None:
    Image, _ = pil()
    pal = _palette()
    images = []
    for f in frames:
        if scale > 1:
            f = np.repeat(np.repeat(f, scale, axis=0), scale, axis=1)
        im = Image.fromarray(np.ascontiguousarray(f), "P")
        im.putpalette(pal)
        images.append(im)
    durations = [duration] * (len(images) - 1) + [hold]
    images[0].save(
        path,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )


def _scale(shape: tuple[int, int], scale: int | None) -> int:
    s = default_scale(shape, target=640) if scale is None else int(scale)
    if s < 1:
        raise ValueError(f"scale must be >= 1, got {scale!r}")
    return s


def generation_gif(
    path: str,
    passable: ArrayLike,
    order: ArrayLike,
    *,
    scale: int | None = None,
    max_frames: int = 120,
    duration: int = 50,
    hold: int = 2000,
) -> int:
    """Write a GIF of a maze being generated; returns the number of frames.

    Parameters
    ----------
    path : str
        The GIF file.
    passable : array_like of bool
        The finished maze.
    order : array_like of int
        The step at which each pixel changed (-1: never), as recorded by a
        generator's ``order=`` argument. A pixel shows its final state from its
        step on and the opposite before (so wall-adding generators work too);
        the pixels changed since the previous frame are highlighted.
    scale : int, optional
        Pixels per grid cell (default: about 640 pixels on the longer side).
    max_frames : int
        At most this many frames (fewer for very large grids).
    duration, hold : int
        Milliseconds per frame, and for the last frame.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from mazekit.generate import prim
    >>> order = np.empty((9, 9), dtype=np.int32)
    >>> maze = prim(4, 4, rng=1, order=order)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     generation_gif(os.path.join(d, "g.gif"), maze, order, max_frames=10)
    11
    """
    final = as_passable(passable)
    o = np.asarray(order)
    if o.shape != final.shape:
        raise ValueError(f"order must have the maze's shape {final.shape}, got {o.shape}")
    last = int(o.max()) if o.size else 0
    steps = frame_steps(max(last, 0), max_frames, final.size)
    frames = []
    prev = -1
    for t in steps.tolist():
        done = (o < 0) | (o <= t)
        state = np.where(done, final, ~final)
        f = np.where(state, _FREE, _WALL).astype(np.uint8)
        f[(o > prev) & (o <= t)] = _FRESH
        frames.append(f)
        prev = t
    frames.append(np.where(final, _FREE, _WALL).astype(np.uint8))
    _save(path, frames, _scale(final.shape, scale), duration, hold)
    return len(frames)


def search_gif(
    path: str,
    passable: ArrayLike,
    order: ArrayLike,
    route: Route = None,
    *,
    scale: int | None = None,
    max_frames: int = 120,
    duration: int = 50,
    hold: int = 2500,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
) -> int:
    """Write a GIF of a search spreading through a maze, ending with its route.

    ``order`` is :attr:`SearchResult.order`; visited cells are coloured by
    when they were visited (dark blue early, yellow late). ``start`` and
    ``goal`` (default: the route's ends) are marked in every frame. Returns the
    number of frames.

    Examples
    --------
    >>> import tempfile, os
    >>> from mazekit.generate import backtracker
    >>> from mazekit.search import solve
    >>> maze = backtracker(5, 5, rng=2)
    >>> res = solve(maze, (1, 1), (9, 9), algorithm="astar")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     search_gif(os.path.join(d, "s.gif"), maze, res.order, res.path, max_frames=5)
    6
    """
    grid = as_passable(passable)
    o = np.asarray(order)
    if o.shape != grid.shape:
        raise ValueError(f"order must have the grid's shape {grid.shape}, got {o.shape}")
    last = max(int(o.max()) if o.size else 0, 0)
    base = np.where(grid, _FREE, _WALL).astype(np.uint8)
    lvl = (_HEAT0 + np.clip(o, 0, None) * (_LEVELS - 1) // max(last, 1)).astype(np.uint8)
    pts = _route(route)
    if len(pts):
        start = (int(pts[0, 0]), int(pts[0, 1])) if start is None else start
        goal = (int(pts[-1, 0]), int(pts[-1, 1])) if goal is None else goal

    def ends(frame: NDArray[np.uint8]) -> NDArray[np.uint8]:
        if start is not None:
            frame[start] = _START
        if goal is not None:
            frame[goal] = _GOAL
        return frame

    frames = []
    for t in frame_steps(last, max_frames, grid.size).tolist():
        seen = (o >= 0) & (o <= t)
        frames.append(ends(np.where(seen, lvl, base).astype(np.uint8)))
    end = frames[-1].copy() if frames else base.copy()
    if len(pts):
        end[pts[:, 0], pts[:, 1]] = _ROUTE
    frames.append(ends(end))
    _save(path, frames, _scale(grid.shape, scale), duration, hold)
    return len(frames)
