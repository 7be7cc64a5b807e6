"""Outputs are all or nothing, checked before any work, and errors name the user's path."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from mazekit import examples
from mazekit.cli import main
from mazekit.cli._io import UsageError, check_outputs, write_files

pytest.importorskip("PIL")


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*"))


@pytest.mark.parametrize("late", ["--svg", "--gif", "--html", "-o"])
def test_maze_generate_leaves_nothing_when_one_output_cannot_be_written(tmp_path: Path, capsys: Any, late: str) -> None:
    argv = [
        "maze",
        "generate",
        "-s",
        "5x5",
        "--seed",
        "1",
        "--png",
        str(tmp_path / "a.png"),
        late,
        str(tmp_path / "nodir" / "x.out"),
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nodir" in err and "no such folder" in err
    assert listing(tmp_path) == []


def test_maze_solve_leaves_nothing(tmp_path: Path, capsys: Any) -> None:
    maze = tmp_path / "m.txt"
    assert main(["maze", "generate", "-s", "5x5", "--seed", "1", "-o", str(maze)]) == 0
    argv = [
        "maze",
        "solve",
        str(maze),
        "--png",
        str(tmp_path / "r.png"),
        "--gif",
        str(tmp_path / "r.gif"),
        "--html",
        str(tmp_path / "nodir" / "r.html"),
    ]
    assert main(argv) == 2
    assert listing(tmp_path) == ["m.txt"]


@pytest.mark.parametrize("command", ["robot", "forest"])
def test_articles_leave_nothing(tmp_path: Path, capsys: Any, command: str) -> None:
    src = tmp_path / "in.txt"
    src.write_text(examples.read_text(f"{command}.txt"))
    argv = [command, str(src), "--png", str(tmp_path / "a.png"), "-o", str(tmp_path / "nodir" / "out.txt")]
    assert main(argv) == 2
    assert listing(tmp_path) == ["in.txt"]
    argv = [
        command,
        str(src),
        "--png",
        str(tmp_path / "a.png"),
        "--html",
        str(tmp_path / "a.html"),
        "-o",
        str(tmp_path / "out.txt"),
    ]
    assert main(argv) == 0
    assert listing(tmp_path) == ["a.html", "a.png", "in.txt", "out.txt"]


@pytest.mark.parametrize(
    "argv",
    [
        ["maze", "generate", "-s", "3x3", "--seed", "1", "-o", "{dir}"],
        ["maze", "generate", "-s", "3x3", "--seed", "1", "--png", "{dir}"],
        ["path", "{grid}", "-o", "{dir}"],
        ["robot", "{robot}", "-o", "{dir}"],
        ["universal", "-o", "{dir}"],
        ["mines", "open", "{mines}", "-o", "{dir}"],
    ],
)
def test_a_folder_as_output_is_named(tmp_path: Path, capsys: Any, argv: list[str]) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    (tmp_path / "g.txt").write_text("S.\n.G\n")
    (tmp_path / "r.txt").write_text(examples.read_text("robot.txt"))
    (tmp_path / "m.txt").write_text("3 3 1 1\n...\n...\n..*\n")
    args = [
        a.format(dir=folder, grid=tmp_path / "g.txt", robot=tmp_path / "r.txt", mines=tmp_path / "m.txt") for a in argv
    ]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{folder}: is a folder, not a file" in err and ".mazekit-" not in err
    assert listing(folder) == []


def test_write_files_is_all_or_nothing(tmp_path: Path) -> None:
    def ok(tmp: str) -> None:
        Path(tmp).write_text("ok")

    def boom(tmp: str) -> None:
        Path(tmp).write_text("half")
        raise RuntimeError("failed half way")

    with pytest.raises(RuntimeError):
        write_files([(str(tmp_path / "a"), ok), (str(tmp_path / "b"), boom)])
    assert listing(tmp_path) == []
    write_files([(str(tmp_path / "a"), ok), (None, boom)])
    assert listing(tmp_path) == ["a"]


def test_check_outputs(tmp_path: Path) -> None:
    check_outputs(None, "-", str(tmp_path / "new.txt"))
    with pytest.raises(UsageError, match="named for two outputs"):
        check_outputs(str(tmp_path / "x"), str(tmp_path / ".." / tmp_path.name / "x"))
    if os.geteuid() != 0:  # root may write anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(UsageError, match="cannot write in"):
            check_outputs(str(locked / "f"))
