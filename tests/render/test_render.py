"""Pictures: PNG, SVG, GIF and HTML drawn from mazes and traces."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from mazekit.generate import GENERATORS, PLAIN, generate
from mazekit.render import (
    COLORS,
    draw_grid,
    draw_heatmap,
    draw_maze,
    generation_gif,
    generation_html,
    grid_html,
    maze_svg,
    search_gif,
    search_html,
)
from mazekit.search import solve

Image = pytest.importorskip("PIL.Image")


@pytest.fixture
def solved() -> tuple[np.ndarray, object]:
    maze = generate("backtracker", 6, 9, rng=4)
    return maze, solve(maze, (1, 1), (11, 17), algorithm="bfs")


def test_render_package_imports_nothing_heavy() -> None:
    code = "import sys, mazekit.render; print('PIL' in sys.modules, 'numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_draw_maze_pixels(solved) -> None:  # type: ignore[no-untyped-def]
    maze, res = solved
    img = np.asarray(draw_maze(maze, res.path, scale=3))
    assert img.shape == (maze.shape[0] * 3, maze.shape[1] * 3, 3)
    cells = img[1::3, 1::3]
    assert tuple(cells[0, 0]) == COLORS["wall"]
    assert tuple(cells[1, 1]) == COLORS["start"] and tuple(cells[11, 17]) == COLORS["goal"]
    r, c = res.path[len(res.path) // 2]
    assert tuple(cells[r, c]) == COLORS["route"]
    off = maze & ~np.isin(np.arange(maze.size).reshape(maze.shape), res.path[:, 0] * maze.shape[1] + res.path[:, 1])
    assert (cells[off] == COLORS["free"]).all()


def test_heatmap_colours_visited_cells(solved) -> None:  # type: ignore[no-untyped-def]
    maze, res = solved
    img = np.asarray(draw_heatmap(maze, res.order, scale=1))
    visited = res.order >= 0
    assert not (img[visited] == COLORS["free"]).all(axis=1).any()
    assert (img[maze & ~visited] == COLORS["free"]).all()


def test_svg_is_xml_and_walls_add_up(solved) -> None:  # type: ignore[no-untyped-def]
    maze, res = solved
    svg = maze_svg(maze, res.path, scale=5)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    walls = root.find(f"{ns}g")
    assert walls is not None
    area = sum(int(r.get("width", 0)) * int(r.get("height", 0)) for r in walls.iter(f"{ns}rect"))
    assert area == int((~maze).sum())
    assert root.get("width") == str(maze.shape[1] * 5)
    assert len(root.findall(f"{ns}polyline")) == 1 and len(root.findall(f"{ns}circle")) == 2


def _gif_frames(path: Path) -> list[np.ndarray]:
    im = Image.open(path)
    frames = []
    for k in range(im.n_frames):
        im.seek(k)
        frames.append(np.asarray(im.convert("RGB")))
    return frames


@pytest.mark.parametrize("name", sorted(set(GENERATORS) - PLAIN))
def test_generation_gif_ends_with_the_maze(name: str, tmp_path: Path) -> None:
    order = np.empty((11, 15), dtype=np.int32)
    maze = generate(name, 5, 7, rng=1, order=order)
    n = generation_gif(str(tmp_path / "g.gif"), maze, order, scale=2, max_frames=12)
    frames = _gif_frames(tmp_path / "g.gif")
    assert len(frames) == n <= 13
    last = frames[-1][::2, ::2]
    assert ((last == COLORS["free"]).all(axis=2) == maze).all()
    first = frames[0][::2, ::2]
    assert (first == COLORS["free"]).all(axis=2).sum() <= maze.sum() or name == "division"


def test_search_gif_ends_with_the_route(solved, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    maze, res = solved
    search_gif(str(tmp_path / "s.gif"), maze, res.order, res.path, scale=1, max_frames=6)
    frames = _gif_frames(tmp_path / "s.gif")
    assert len(frames) == 7
    r, c = res.path[3]
    assert tuple(frames[-1][r, c]) == COLORS["route"]
    assert tuple(frames[-1][1, 1]) == COLORS["start"]
    assert tuple(frames[0][r, c]) != COLORS["route"]


def test_gif_frame_cap_for_big_grids(tmp_path: Path) -> None:
    order = np.empty((401, 401), dtype=np.int32)
    maze = generate("kruskal", 200, 200, rng=0, order=order)
    n = generation_gif(str(tmp_path / "big.gif"), maze, order, scale=1, max_frames=500)
    assert n <= 251
    assert (tmp_path / "big.gif").stat().st_size < 20_000_000


def _page_data(page: str) -> dict:  # type: ignore[type-arg]
    m = re.search(r"const D = (\{.*?\});\n", page)
    assert m is not None
    return json.loads(m.group(1).replace("<\\/", "</"))  # type: ignore[no-any-return]


def test_html_is_self_contained(solved) -> None:  # type: ignore[no-untyped-def]
    maze, res = solved
    page = search_html(maze, res.order, res.path, title="<b>x</b>")
    assert "<b>x</b>" not in page and "&lt;b&gt;" in page
    assert not re.search(r"(src|href)=|https?://|@import", page)
    data = _page_data(page)
    order = np.frombuffer(base64.b64decode(data["order"]), dtype="<i4").reshape(maze.shape)
    assert np.array_equal(order, res.order)
    grid = np.frombuffer(base64.b64decode(data["grid"]), dtype=np.uint8).reshape(maze.shape)
    assert np.array_equal(grid.astype(bool), maze)
    assert data["route"] == res.path.tolist() and data["last"] == int(res.order.max())


def test_generation_and_grid_pages() -> None:
    order = np.empty((7, 9), dtype=np.int32)
    maze = generate("eller", 3, 4, rng=0, order=order)
    assert _page_data(generation_html(maze, order))["mode"] == "generate"
    data = _page_data(grid_html([[1, 1], [0, 1]], [(0, 0), (0, 1), (1, 1)], marks={(0, 0): "E"}))
    assert data["lines"] and data["marks"] == [[0, 0, "E"]]


def test_draw_grid() -> None:
    img = draw_grid([[1, 1, 0], [0, 1, 1]], [(0, 0), (0, 1), (1, 1), (1, 2)], cell=20)
    arr = np.asarray(img)
    assert arr.shape == (41, 61, 3)
    assert tuple(arr[30, 10]) == COLORS["wall"]  # cell (1, 0) is blocked
    assert tuple(arr[10, 10]) == COLORS["start"] and tuple(arr[30, 50]) == COLORS["goal"]


def test_bad_arguments(solved) -> None:  # type: ignore[no-untyped-def]
    maze, res = solved
    with pytest.raises(ValueError, match="scale"):
        draw_maze(maze, scale=0)
    with pytest.raises(ValueError, match="order must have"):
        draw_heatmap(maze, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="route must be"):
        draw_maze(maze, [1, 2, 3])
