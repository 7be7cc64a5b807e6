"""``mazekit mines``: bad input, play arguments, bench."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from mazekit.cli import main
from mazekit.cli.mines import game_size


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: empty input"),
        ("3 3 1\n...\n", "line 1: expected 4 integers"),
        ("2 2 3 1\n..\n..\n", "line 1: the clicked cell (3, 1) is outside"),
        ("2 2 1 1\n.x\n..\n", "line 2: unexpected character 'x'"),
        ("2 2 1 1\n..\n", "line 3: missing row"),
        ("2 2 1 1\n...\n..\n", "line 2: expected 2 cells, got 3"),
        ("2 2 1 1\n..\n..\n..\n", "line 4: unexpected text"),
    ],
)
def test_bad_input(text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text(text)
    out = tmp_path / "out.txt"
    assert main(["mines", "open", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_open_writes_output(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("1 3 1 1\n..*\n")
    out = tmp_path / "out.txt"
    assert main(["mines", "open", str(src), "-o", str(out)]) == 0
    assert out.read_text() == "01#\n"


def _ns(**kw: object) -> argparse.Namespace:
    base = {"level": None, "size": None, "mines": None, "first_click": "safe"}
    base.update(kw)
    return argparse.Namespace(**base)


def test_game_size() -> None:
    assert game_size(_ns()) == (9, 9, 10)
    assert game_size(_ns(level="expert")) == (16, 30, 99)
    assert game_size(_ns(size="10x20", mines=30)) == (10, 20, 30)
    from mazekit.cli import UsageError

    for bad in (_ns(size="10by20"), _ns(level="expert", mines=3), _ns(size="3x3", mines=9, first_click="zero")):
        with pytest.raises(UsageError):
            game_size(bad)


def test_play_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mines", "play"]) == 2
    assert "terminal" in capsys.readouterr().err


def test_bench_small(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mines", "bench", "--games", "20", "--board", "beginner", "--first-click", "safe", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "| beginner 9x9/10 | safe | 20 |" in out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: empty input"),
        ("2 2\n##\n##\n", "line 1: expected 3 integers"),
        ("2 2 5\n##\n##\n", "line 1: M must be between 0 and 4"),
        ("2 2 1\n#x\n##\n", "line 2: unexpected 'x' in column 2"),
        ("2 2 1\n###\n##\n", "line 2: expected 2 cells, got 3"),
        ("2 2 1\n##\n", "expected 2 rows of the board"),
        ("2 2 4\n1#\n##\n", "line 1: 4 mines do not fit in the 3 closed cells"),
        ("2 2 3\n1#\n##\n", "line 1: no layout of 3 mines agrees with the numbers"),
    ],
)
def test_hint_bad_input(text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.txt"
    src.write_text(text)
    assert main(["mines", "hint", str(src)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_hint_gives_the_move_and_its_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI says what the library's hint says, 1-based."""
    from mazekit.minesweeper import hint
    from mazekit.minesweeper.text import VIEW_EXAMPLE, parse_view

    src = tmp_path / "in.txt"
    src.write_text(VIEW_EXAMPLE)
    assert main(["mines", "hint", str(src)]) == 0
    out = capsys.readouterr().out
    view, mines, _ = parse_view(VIEW_EXAMPLE)
    h = hint(view, mines)
    assert h.move is not None
    assert out == f"{h.move.kind} row {h.move.cell[0] + 1}, column {h.move.cell[1] + 1}: {h.reason}\n"
    assert "the best guess: safe" in out and "opens an area" in out
    # a flag on a proved mine is knowledge; a flag elsewhere is not
    src.write_text("1 3 1\n1F#\n")
    assert main(["mines", "hint", str(src)]) == 0
    assert capsys.readouterr().out.startswith("open row 1, column 3: safe:")
    src.write_text("1 3 1\n1#F\n")
    assert main(["mines", "hint", str(src)]) == 0
    assert capsys.readouterr().out.startswith("open row 1, column 3: safe:")  # the wrong flag is ignored
