"""Jupyter display (#15 item 10): search results and, with the extension, mazes show as pictures."""

from __future__ import annotations

import io
import sys
from typing import Any

import numpy as np
import pytest

import mazekit
from mazekit.generate import backtracker
from mazekit.render._colors import COLORS
from mazekit.render.notebook import maze_png
from mazekit.search import SOLVERS, astar, bfs, dijkstra, solve

Image = pytest.importorskip("PIL.Image")


def picture(png: bytes | None) -> Any:
    assert png is not None and png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("algorithm", sorted(SOLVERS))
def test_every_search_result_draws_itself(algorithm: str) -> None:
    maze = backtracker(6, 9, rng=3)
    res = solve(maze, (1, 1), (11, 17), algorithm=algorithm, rng=0)
    img = picture(res._repr_png_())
    scale = img.size[0] // maze.shape[1]
    assert img.size == (maze.shape[1] * scale, maze.shape[0] * scale)
    assert res.passable.tolist() == maze.tolist()
    px = lambda r, c: img.getpixel((c * scale + scale // 2, r * scale + scale // 2))  # noqa: E731
    assert px(1, 1) == COLORS["start"] and px(11, 17) == COLORS["goal"]
    mid = res.path[len(res.path) // 2]
    assert px(*mid) == COLORS["route"]
    assert px(0, 0) == COLORS["wall"]


def test_no_route_still_draws() -> None:
    grid = np.array([[True, False, True]])
    img = picture(bfs(grid, (0, 0), (0, 2))._repr_png_())
    assert img.size[0] > 0
    assert dijkstra(np.where(grid, 1.0, np.inf), (0, 0), (0, 2))._repr_png_() is not None


def test_maze_png_only_for_grids() -> None:
    assert picture(maze_png(backtracker(2, 2, rng=0))).size[0] > 0
    assert maze_png(np.zeros((3, 3), dtype=np.int32)) is None
    assert maze_png(np.zeros(5, dtype=bool)) is None


class FakeFormatter:
    def __init__(self) -> None:
        self.type_printers: dict[type, Any] = {}

    def for_type(self, typ: type, fn: Any) -> None:
        self.type_printers[typ] = fn


class FakeIPython:
    def __init__(self) -> None:
        self.display_formatter = type("D", (), {"formatters": {"image/png": FakeFormatter()}})()


def test_load_ext_mazekit_draws_bool_arrays() -> None:
    ip = FakeIPython()
    mazekit.load_ipython_extension(ip)
    fn = ip.display_formatter.formatters["image/png"].type_printers[np.ndarray]
    assert picture(fn(backtracker(3, 3, rng=1))).size[0] > 0
    assert fn(np.arange(6)) is None  # other arrays keep their text
    mazekit.unload_ipython_extension(ip)
    assert np.ndarray not in ip.display_formatter.formatters["image/png"].type_printers


def test_without_pillow_the_text_is_shown(monkeypatch: Any) -> None:
    res = astar(backtracker(3, 3, rng=1), (1, 1), (5, 5))
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    assert res._repr_png_() is None
    assert "SearchResult(" in repr(res)


def test_in_an_ipython_session_results_draw_without_importing_render() -> None:
    """search never imports render; ``import mazekit`` in IPython hooks the picture in."""
    import subprocess

    code = (
        "import sys, types; sys.modules['IPython'] = types.ModuleType('IPython'); import numpy as np\n"
        "from mazekit.search import bfs\n"
        "print(bfs(np.ones((3, 3), bool), (0, 0), (2, 2))._repr_png_()[:4])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == repr(b"\x89PNG")
    plain = code.split("\n", 1)[1].replace("[:4]", "").replace("import numpy as np", "")
    plain = "import numpy as np\n" + plain
    out = subprocess.run([sys.executable, "-c", plain], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "None"  # outside IPython nothing loads render
