"""The robot and forest commands draw their answers; stdout stays byte-exact."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest

from mazekit.cli import forest as forest_cli
from mazekit.cli import main
from mazekit.cli import robot as robot_cli
from mazekit.render import COLORS

Image = pytest.importorskip("PIL.Image")


def run(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    status = main(argv)
    return status, capsys.readouterr().out


@pytest.mark.parametrize("cli, name", [(robot_cli, "robot"), (forest_cli, "forest")])
def test_pictures_keep_stdout(
    cli,
    name,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
    capsys: pytest.CaptureFixture[str],
) -> None:
    plain = run([name], cli.EXAMPLE, monkeypatch, capsys)
    png, html = tmp_path / "a.png", tmp_path / "a.html"
    drawn = run([name, "--png", str(png), "--html", str(html)], cli.EXAMPLE, monkeypatch, capsys)
    assert drawn == plain == (0, cli.solve_text(cli.EXAMPLE))
    img = np.asarray(Image.open(png).convert("RGB"))
    assert (img == COLORS["route"]).all(axis=2).any()
    assert (img == COLORS["start"]).all(axis=2).any() and (img == COLORS["goal"]).all(axis=2).any()
    page = html.read_text()
    assert "<canvas" in page and "http" not in page


def test_robot_without_route_still_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "a.png"
    status, out = run(["robot", "--png", str(png)], "1 3 1 1 1 3\n010\n", monkeypatch, capsys)
    assert (status, out) == (0, "-1\n") and png.stat().st_size > 0
