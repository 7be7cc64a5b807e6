"""``mazekit.render.minesweeper`` and ``mazekit mines render``."""

from __future__ import annotations

from pathlib import Path

import pytest

from mazekit.cli import main
from mazekit.minesweeper import Board

PIL = pytest.importorskip("PIL")


def test_picture_shows_open_closed_and_hit_cells() -> None:
    from mazekit.render.minesweeper import MINES_COLOURS, draw_minesweeper

    b = Board.parse("*...\n....\n....")
    img = draw_minesweeper(b, b.open((2, 3)), scale=10)
    assert img.size == (40, 30)
    assert img.getpixel((35, 25)) == MINES_COLOURS["open"]  # an open zero, flat
    assert img.getpixel((5, 5)) != MINES_COLOURS["open"]  # the mine stays closed
    boom = draw_minesweeper(b, hit=(0, 0), scale=10)
    assert boom.getpixel((1, 1)) == MINES_COLOURS["hit"]
    with pytest.raises(ValueError, match="scale"):
        draw_minesweeper(b, scale=4)
    with pytest.raises(ValueError, match="shape"):
        draw_minesweeper(b, [[True]])


def test_cli_render_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text("5 6 5 1\n..*...\n......\n....*.\n......\n......\n")
    out = tmp_path / "b.png"
    assert main(["mines", "render", str(src), "-o", str(out), "--scale", "16"]) == 0
    from PIL import Image

    with Image.open(out) as img:
        assert img.size == (96, 80)
    bad = tmp_path / "bad.png"
    assert main(["mines", "render", str(src), "-o", str(bad), "--scale", "3"]) == 2
    assert "--scale must be between 8 and 128" in capsys.readouterr().err
    assert not bad.exists()
    src.write_text("2 2 3 1\n..\n..\n")
    assert main(["mines", "render", str(src), "-o", str(bad)]) == 2
    assert "line 1: the clicked cell (3, 1) is outside" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.png", "in.txt"]  # nothing partial left
