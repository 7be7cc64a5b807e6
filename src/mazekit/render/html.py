"""A self-contained HTML page with a step slider: no network, no files beside it.

The page holds the grid and a trace as base64 data and draws them on a canvas
with a few lines of inline JavaScript. Move the slider (or press Play) to see
the maze being carved, or a search spreading through it until its route
appears. Small grids are drawn cell by cell with grid lines (the style of the
articles' illustrations), large ones pixel by pixel.
"""

from __future__ import annotations

import base64
import html
import json
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ..grid import as_passable
from ._colors import COLORS, heat
from .maze import Route, _route

__all__ = ["generation_html", "grid_html", "player_html", "search_html"]

_PAGE = r"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>
body { font: 15px system-ui, sans-serif; margin: 20px; background: #f4f4f0; color: #1e222e; }
h1 { font-size: 20px; margin: 0 0 6px; }
#info { color: #555; margin-bottom: 10px; }
#controls { display: flex; align-items: center; gap: 12px; margin-bottom: 12px; }
#t { width: 480px; }
button { font: inherit; padding: 3px 14px; }
canvas { image-rendering: pixelated; image-rendering: crisp-edges; box-shadow: 0 1px 6px #0003; background: #fff; }
#legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 10px; color: #555; font-size: 13px; }
#legend i { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; border: 1px solid #0002; }
</style>
</head>
<body>
<h1>__TITLE__</h1>
<div id="info"></div>
<div id="controls">
<button id="play">Play</button>
<input id="t" type="range" min="0" value="0">
<span id="label"></span>
</div>
<canvas id="c"></canvas>
<div id="legend"></div>
<script>
"use strict";
const D = __DATA__;
function bytes(s) { const b = atob(s), u = new Uint8Array(b.length); for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i); return u; }
const grid = bytes(D.grid), order = new Int32Array(bytes(D.order).buffer), R = D.rows, C = D.cols;
const canvas = document.getElementById("c"), ctx = canvas.getContext("2d");
const slider = document.getElementById("t"), label = document.getElementById("label"), play = document.getElementById("play");
document.getElementById("info").textContent = D.info;
const vector = D.lines;
if (vector) { canvas.width = C * D.cell + 1; canvas.height = R * D.cell + 1; }
else { canvas.width = C; canvas.height = R; canvas.style.width = (C * D.cell) + "px"; canvas.style.height = (R * D.cell) + "px"; }
slider.max = D.last + 1; slider.value = D.last + 1;
const hash = location.hash.match(/t=(\d+)/); if (hash) slider.value = Math.min(+hash[1], D.last + 1);
function rgb(c) { return "rgb(" + c[0] + "," + c[1] + "," + c[2] + ")"; }
const ramp = "linear-gradient(90deg," + [0, 0.5, 1].map((f) => rgb(D.ramp[Math.round(f * (D.ramp.length - 1))])).join(",") + ")";
const keys = D.mode === "generate"
  ? [[rgb(D.colors.wall), "wall"], [rgb(D.colors.free), "carved"], [rgb(D.colors.fresh), "carved just now"]]
  : [[rgb(D.colors.wall), "wall"], [rgb(D.colors.free), "free"], [ramp, "visited (early \u2192 late)"], [rgb(D.colors.route), "route"]];
if (D.start) keys.push([rgb(D.colors.start), "start"]);
if (D.goal) keys.push([rgb(D.colors.goal), "goal"]);
for (const [bg, text] of keys) {
  const item = document.createElement("span"), swatch = document.createElement("i");
  swatch.style.background = bg; item.append(swatch, text); document.getElementById("legend").append(item);
}
function colour(i, t) {
  const o = order[i], free = grid[i];
  if (D.mode === "generate") {
    const st = (o < 0 || o <= t) ? free : 1 - free;
    if (t <= D.last && o >= 0 && o <= t && o > t - D.fresh) return D.colors.fresh;  // none once finished
    return st ? D.colors.free : D.colors.wall;
  }
  if (o >= 0 && o <= t && free) return D.ramp[Math.floor(o * (D.ramp.length - 1) / Math.max(D.last, 1))];
  return free ? D.colors.free : D.colors.wall;
}
function draw() {
  const t = +slider.value, done = t > D.last;
  if (vector) {
    const s = D.cell;
    ctx.fillStyle = rgb(D.colors.grid); ctx.fillRect(0, 0, canvas.width, canvas.height);
    for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) {
      ctx.fillStyle = rgb(colour(r * C + c, t)); ctx.fillRect(c * s + 1, r * s + 1, s - 1, s - 1);
    }
    if (done && D.route.length) {
      ctx.strokeStyle = rgb(D.colors.route); ctx.lineWidth = Math.max(2, s / 5); ctx.lineJoin = ctx.lineCap = "round";
      ctx.beginPath();
      D.route.forEach((p, k) => { const x = p[1] * s + s / 2 + 0.5, y = p[0] * s + s / 2 + 0.5; k ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
      ctx.stroke();
    }
    for (const [p, key] of [[D.start, "start"], [D.goal, "goal"]]) {
      if (!p) continue;
      ctx.fillStyle = rgb(D.colors[key]); ctx.beginPath();
      ctx.arc(p[1] * s + s / 2 + 0.5, p[0] * s + s / 2 + 0.5, s * 0.3, 0, 2 * Math.PI); ctx.fill();
    }
    for (const m of D.marks) {
      ctx.fillStyle = "#fff"; ctx.font = "bold " + Math.floor(s * 0.55) + "px sans-serif";
      ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.fillText(m[2], m[1] * s + s / 2 + 0.5, m[0] * s + s / 2 + 1);
    }
  } else {
    const img = ctx.createImageData(C, R), px = img.data;
    for (let i = 0; i < R * C; i++) { const c = colour(i, t); px[4 * i] = c[0]; px[4 * i + 1] = c[1]; px[4 * i + 2] = c[2]; px[4 * i + 3] = 255; }
    const put = (p, c) => { const i = 4 * (p[0] * C + p[1]); px[i] = c[0]; px[i + 1] = c[1]; px[i + 2] = c[2]; };
    if (done) for (const p of D.route) put(p, D.colors.route);
    if (D.start) put(D.start, D.colors.start);
    if (D.goal) put(D.goal, D.colors.goal);
    ctx.putImageData(img, 0, 0);
  }
  label.textContent = done ? D.doneText : "step " + t + " of " + D.last;
}
let timer = null;
play.onclick = () => {
  if (timer) { clearInterval(timer); timer = null; play.textContent = "Play"; return; }
  if (+slider.value > D.last) slider.value = 0;
  play.textContent = "Pause";
  const stride = Math.max(1, Math.ceil((D.last + 1) / 240));
  timer = setInterval(() => {
    slider.value = Math.min(D.last + 1, +slider.value + stride); draw();
    if (+slider.value > D.last) { clearInterval(timer); timer = null; play.textContent = "Play"; }
  }, 30);
};
slider.oninput = draw;
draw();
</script>
</body>
</html>
"""


def player_html(
    passable: ArrayLike,
    order: ArrayLike,
    route: Route = None,
    *,
    mode: Literal["search", "generate"] = "search",
    title: str = "mazekit",
    info: str = "",
    cell: int | None = None,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
    marks: dict[tuple[int, int], str] | None = None,
    lines: bool = False,
) -> str:
    """The HTML page (a string) that replays ``order`` step by step.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        The grid (final state for ``mode="generate"``).
    order : array_like of int, shape (R, C)
        The trace: a search's visiting order, or a generator's carving order
        (-1: never).
    route : sequence of (r, c), optional
        Shown once the slider passes the last step.
    mode : {"search", "generate"}
        How ``order`` is shown: visited cells coloured by time, or pixels
        appearing in their final state.
    title, info : str
        The page's heading and a line under it.
    cell : int, optional
        Screen pixels per grid cell (default: about 640 pixels on the longer side).
    start, goal : (r, c), optional
        Marked green and red (default: the route's ends).
    marks : dict of (r, c) -> str, optional
        Letters drawn in cells (with ``lines`` only).
    lines : bool
        Draw cell by cell with grid lines and the route as a line (small
        puzzles); otherwise pixel by pixel, scaled up.

    Notes
    -----
    The page opens at the last step; ``page.html#t=40`` opens it at step 40.

    Examples
    --------
    >>> page = player_html([[1, 1], [0, 1]], [[0, 1], [-1, 2]], [(0, 0), (0, 1), (1, 1)])
    >>> page.startswith("<!doctype html>") and "http" not in page.replace("http://www.w3.org", "")
    True
    """
    grid = as_passable(passable)
    o = np.ascontiguousarray(np.asarray(order), dtype="<i4")
    if o.shape != grid.shape:
        raise ValueError(f"order must have the grid's shape {grid.shape}, got {o.shape}")
    rows, cols = grid.shape
    pts = _route(route)
    if len(pts):
        start = (int(pts[0, 0]), int(pts[0, 1])) if start is None else start
        goal = (int(pts[-1, 0]), int(pts[-1, 1])) if goal is None else goal
    last = max(int(o.max()) if o.size else 0, 0)
    if cell is None:
        cell = max(1, min(40, 640 // max(rows, cols)))
    data: dict[str, Any] = {
        "rows": rows,
        "cols": cols,
        "mode": mode,
        "last": last,
        "cell": int(cell),
        "lines": bool(lines),
        "fresh": max(1, last // 120),
        "grid": base64.b64encode(grid.astype(np.uint8).tobytes()).decode("ascii"),
        "order": base64.b64encode(o.tobytes()).decode("ascii"),
        "route": pts.tolist(),
        "start": list(start) if start is not None else None,
        "goal": list(goal) if goal is not None else None,
        "marks": [[r, c, s] for (r, c), s in (marks or {}).items()],
        "colors": {k: list(v) for k, v in COLORS.items()},
        "ramp": heat(np.linspace(0, 1, 64)).tolist(),
        "info": info,
        "doneText": f"route: {len(pts) - 1} steps" if len(pts) else "finished",
    }
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return _PAGE.replace("__TITLE__", html.escape(title)).replace("__DATA__", blob)


def generation_html(passable: ArrayLike, order: ArrayLike, *, title: str = "Maze generation", info: str = "") -> str:
    """A page that replays a generator's carving ``order`` (see :func:`player_html`).

    >>> import numpy as np
    >>> from mazekit.generate import kruskal
    >>> order = np.empty((7, 7), dtype=np.int32)
    >>> "<canvas" in generation_html(kruskal(3, 3, rng=0, order=order), order)
    True
    """
    return player_html(passable, order, mode="generate", title=title, info=info)


def search_html(
    passable: ArrayLike, order: ArrayLike, route: Route = None, *, title: str = "Maze search", info: str = ""
) -> str:
    """A page that replays a search (its ``order``) and then shows its route.

    >>> from mazekit.generate import backtracker
    >>> from mazekit.search import solve
    >>> maze = backtracker(3, 3, rng=0)
    >>> res = solve(maze, (1, 1), (5, 5))
    >>> "route: " in search_html(maze, res.order, res.path)
    True
    """
    return player_html(passable, order, route, mode="search", title=title, info=info)


def grid_html(
    passable: ArrayLike,
    route: Route,
    *,
    order: ArrayLike | None = None,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
    marks: dict[tuple[int, int], str] | None = None,
    title: str = "mazekit",
    info: str = "",
) -> str:
    """A page for a small grid puzzle's answer (robot, forest): cells with grid
    lines, the search's visiting order, then the route, start and finish.

    >>> "<canvas" in grid_html([[1, 1]], [(0, 0), (0, 1)])
    True
    """
    grid = as_passable(passable)
    if order is None:
        o = np.full(grid.shape, -1, dtype=np.int32)
        for k, (r, c) in enumerate(_route(route).tolist()):
            o[r, c] = k
    else:
        o = np.asarray(order)
    cell = max(8, min(48, 800 // max(grid.shape)))
    return player_html(
        grid, o, route, title=title, info=info, cell=cell, start=start, goal=goal, marks=marks, lines=True
    )
