"""The command line speaks one language: one meaning per flag name, one help line per command."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from mazekit import examples
from mazekit.cli import ARTICLES, COMMANDS, build_parser, main


def _options(parser: argparse.ArgumentParser, name: str = "mazekit") -> list[tuple[str, str, argparse.Action]]:
    """Every option of every (sub)command: (command, option string, action)."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, child in action.choices.items():
                found += _options(child, f"{name} {sub}")
        else:
            found += [(name, o, action) for o in action.option_strings]
    return found


def test_the_help_lists_every_command_once_on_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    lines = text.splitlines()
    for name in COMMANDS:
        if name in ("robot", "forest"):
            continue
        (line,) = [ln for ln in lines if ln.startswith(f"  {name} ") and " article " not in ln[:24]]
        assert len(line) <= 110, line
    shown = [ln.split("article")[0].strip() for ln in lines if " article " in ln and ln.startswith("  ")]
    assert shown == [cmd for cmd, _ in ARTICLES]
    assert "usage: mazekit [-h] [-V] COMMAND ..." in text


@pytest.mark.parametrize("article", [cmd for cmd, _ in ARTICLES])
def test_every_article_listed_is_a_command(article: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main([*article.split(), "--help"])
    assert exit.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: mazekit {article}")


def test_level_is_a_level_number_or_title_wherever_it_appears() -> None:
    uses = [(cmd, a) for cmd, opt, a in _options(build_parser()) if opt == "--level" and a.help != argparse.SUPPRESS]
    assert uses, "no command has --level"
    for cmd, action in uses:
        assert "level number (from 1) or title" in (action.help or ""), cmd


def test_algorithm_picks_an_algorithm_wherever_it_appears() -> None:
    uses = [(cmd, a) for cmd, opt, a in _options(build_parser()) if opt == "--algorithm"]
    assert len(uses) >= 3
    for cmd, action in uses:
        assert action.choices is not None or action.metavar == "NAME", cmd


def test_a_renamed_flag_still_works_with_one_line_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    old = build_parser("mines").parse_args(["mines", "play", "--level", "expert"])
    err = capsys.readouterr().err
    new = build_parser("mines").parse_args(["mines", "play", "--board", "expert"])
    assert old.level == new.level == "expert"
    assert err.count("\n") == 1 and "--level is now --board" in err
    assert capsys.readouterr().err == ""


def test_sokoban_solve_takes_a_title_as_the_other_sokoban_commands_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xsb = tmp_path / "m.xsb"
    xsb.write_text(examples.read_text("sokoban/mazekit.xsb"))
    by_title = main(["sokoban", "solve", str(xsb), "--level", "First push", "--time-limit", "5", "-q"])
    out_title = capsys.readouterr().out
    by_number = main(["sokoban", "solve", str(xsb), "--level", "1", "--time-limit", "5", "-q"])
    assert by_title == by_number == 0
    assert out_title == capsys.readouterr().out != ""
    assert main(["sokoban", "solve", str(xsb), "--level", "no such title"]) == 2
    assert "--level 'no such title': no level has that title" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command", [["replay", "{xsb}", "R"], ["render", "{xsb}", "--png", "{png}"], ["optimise", "{xsb}", "R"]]
)
def test_a_one_level_command_says_so_for_level_all(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xsb = tmp_path / "m.xsb"
    xsb.write_text(examples.read_text("sokoban/mazekit.xsb"))
    argv = [a.format(xsb=xsb, png=tmp_path / "out.png") for a in command]
    assert main(["sokoban", *argv, "--level", "all"]) == 2
    assert "--level all: this command takes one level (a number from 1 or a title)" in capsys.readouterr().err
    assert not (tmp_path / "out.png").exists()


def test_seed_is_a_number_from_0_wherever_it_appears(capsys: pytest.CaptureFixture[str]) -> None:
    uses = sorted({cmd for cmd, opt, _ in _options(build_parser()) if opt == "--seed"})
    assert len(uses) >= 5
    for cmd in uses:
        argv = cmd.split()[1:]
        extra = {"mazekit mines play": ["--board", "beginner"], "mazekit maze solve": ["-"]}.get(cmd, [])
        assert main([*argv, *extra, "--seed", "-1"]) == 2, cmd
        assert "--seed must be at least 0, got -1" in capsys.readouterr().err, cmd
