"""``mazekit maze``: generate prints 0/1 text, solve reads it back, pictures are written atomically."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest

from mazekit.cli import main
from mazekit.generate import GENERATORS, PLAIN
from mazekit.generate.properties import is_perfect
from mazekit.grid import read_grid


def run(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_generate_prints_a_maze(name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["maze", "generate", "-a", name, "--size", "4x6", "--seed", "3"], monkeypatch, capsys)
    assert status == 0 and "seed 3" in err
    lines = out.splitlines()
    assert set("".join(lines)) <= {"0", "1"}
    grid = read_grid(out).passable
    if name in PLAIN:
        assert grid.shape == (4, 6)
    else:
        assert grid.shape == (9, 13) and is_perfect(grid)
    again = run(["maze", "generate", "-a", name, "--size", "4x6", "--seed", "3"], monkeypatch, capsys)[1]
    assert again == out


def test_exit_and_pipe_into_solve(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _, maze, _ = run(["maze", "generate", "--size", "5x5", "--seed", "1", "--exit"], monkeypatch, capsys)
    assert maze.count("x") == 1 and maze.splitlines()[9][9] == "x"
    for algo in ("dfs-random", "dfs", "greedy", "astar", "bfs", "dijkstra"):
        status, route, err = run(["maze", "solve", "-a", algo, "--seed", "2"], monkeypatch, capsys, stdin=maze)
        assert status == 0 and algo in err
        pts = [tuple(map(int, line.split())) for line in route.splitlines()]
        assert pts[0] == (1, 1) and pts[-1] == (9, 9)
        steps = np.abs(np.diff(np.array(pts), axis=0)).sum(axis=1)
        assert (steps == 1).all()


def test_solve_without_route(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["maze", "solve"], monkeypatch, capsys, stdin="S1G\n")
    assert status == 1 and out == "-1\n" and "no route" in err


def test_pictures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("PIL")
    files = {ext: str(tmp_path / f"m.{ext}") for ext in ("png", "svg", "gif", "html")}
    argv = ["maze", "generate", "-a", "prim", "-s", "6x8", "--seed", "5"]
    status, maze, _ = run(argv + [f"--{k}={v}" for k, v in files.items()], monkeypatch, capsys)
    assert status == 0 and all(Path(f).stat().st_size > 0 for f in files.values())
    solved = {ext: str(tmp_path / f"s.{ext}") for ext in ("png", "svg", "gif", "html")}
    status, _, _ = run(["maze", "solve"] + [f"--{k}={v}" for k, v in solved.items()], monkeypatch, capsys, stdin=maze)
    assert status == 0 and all(Path(f).stat().st_size > 0 for f in solved.values())
    (tmp_path / "m.txt").write_text(maze)
    out = str(tmp_path / "r.png")
    assert run(["maze", "render", str(tmp_path / "m.txt"), "--png", out, "--scale", "2"], monkeypatch, capsys)[0] == 0
    from PIL import Image

    assert Image.open(out).size == (17 * 2, 13 * 2)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["maze", "generate", "--size", "3y3"], "--size must be RxC"),
        (["maze", "generate", "--size", "0x3"], "--size must be RxC"),
        (["maze", "generate", "--braid", "1.5"], "--braid must be between 0 and 1"),
        (["maze", "generate", "-a", "caves", "--braid", "0.5"], "plain grid"),
        (["maze", "generate", "--scale", "0", "--png", "PNG"], "--scale"),
        (["maze", "render"], "give --png"),
    ],
)
def test_usage_errors(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(argv, monkeypatch, capsys)
    assert status == 2 and out == "" and message in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_bad_input_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["maze", "solve", "--png", str(tmp_path / "x.png")], monkeypatch, capsys, stdin="01\n1\n")
    assert status == 2 and "line 2" in err
    assert list(tmp_path.iterdir()) == []


def test_render_svg_shows_the_marked_cells_as_the_png_does(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """#15 item 2: the SVG kept the walls but dropped S/G/x and the robot header's ends."""
    import re

    from PIL import Image

    from mazekit import examples
    from mazekit.cli import main
    from mazekit.render._colors import COLORS

    cases = {
        "marks.txt": ("S.#\n..#\n#.x\n", {(0, 0): "start", (2, 2): "goal"}),
        "robot.txt": (examples.read_text("robot.txt"), {(0, 2): "start", (1, 5): "goal"}),
    }
    for name, (text, cells) in cases.items():
        src = tmp_path / name
        src.write_text(text)
        svg, png = tmp_path / f"{name}.svg", tmp_path / f"{name}.png"
        assert main(["maze", "render", str(src), "--svg", str(svg), "--png", str(png), "--scale", "1"]) == 0
        doc = svg.read_text()
        img = Image.open(png).convert("RGB")
        for (r, c), role in cells.items():
            colour = "#{:02x}{:02x}{:02x}".format(*COLORS[role])
            assert re.search(rf'<rect x="{c}" y="{r}" width="1" height="1" fill="{colour}"/>', doc), (name, role)
            assert img.getpixel((c, r)) == COLORS[role], (name, role)


def test_the_cli_offers_every_generator_and_solver() -> None:
    """The CLI lists the registries' names by hand (so its start-up imports no kernel): keep them equal."""
    from mazekit.cli import maze as cli_maze
    from mazekit.search import SOLVERS

    assert cli_maze._GENERATORS == tuple(GENERATORS)
    assert cli_maze._SOLVERS == tuple(SOLVERS)
