"""The offline pages and GIFs the command line writes, looked at as a person would (#15 item 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mazekit.cli import main
from mazekit.render._colors import COLORS

FRESH_COUNT = """() => {{
  const c = document.getElementById("c"), px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  const [r, g, b] = {}; let n = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] === r && px[i + 1] === g && px[i + 2] === b) n++;
  return n;
}}""".format(list(COLORS["fresh"]))


def test_generation_page_has_no_fresh_cells_once_finished(browser: Any, tmp_path: Path) -> None:
    page_file = tmp_path / "gen.html"
    assert (
        main(
            [
                "maze",
                "generate",
                "-a",
                "kruskal",
                "-s",
                "15x25",
                "--seed",
                "4",
                "--html",
                str(page_file),
                "-o",
                str(tmp_path / "m.txt"),
            ]
        )
        == 0
    )
    page = browser.new_page()
    try:
        page.goto(page_file.as_uri())
        assert page.evaluate(FRESH_COUNT) == 0  # the page opens on the finished maze
        page.evaluate("""() => { const s = document.getElementById("t"); s.value = +s.max - 1;
                                 s.dispatchEvent(new Event("input")); }""")
        assert page.evaluate(FRESH_COUNT) > 0  # while carving, the newest cells are lit
    finally:
        page.close()


def test_search_gif_marks_start_and_goal_in_every_frame(tmp_path: Path) -> None:
    Image = pytest.importorskip("PIL.Image")
    maze = tmp_path / "m.txt"
    assert main(["maze", "generate", "-s", "6x8", "--seed", "3", "-o", str(maze)]) == 0
    gif = tmp_path / "s.gif"
    assert (
        main(["maze", "solve", str(maze), "--gif", str(gif), "--scale", "1", "--start", "1,1", "--goal", "11,15"]) == 0
    )
    img = Image.open(gif)
    frames = 0
    for k in range(img.n_frames):
        img.seek(k)
        rgb = img.convert("RGB")
        assert rgb.getpixel((1, 1)) == COLORS["start"], k
        assert rgb.getpixel((15, 11)) == COLORS["goal"], k
        frames += 1
    assert frames > 2
