"""One vocabulary across the commands (#15 item 7): --scale and --color everywhere, plain help."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from mazekit import examples
from mazekit.cli import build_parser, main


def all_parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    out = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                out += all_parsers(child)
    return out


def test_help_has_no_docstring_markup_or_article_numbers_with_zeros() -> None:
    for p in all_parsers(build_parser()):
        text = p.format_help()
        assert "``" not in text and ":func:" not in text and "**" not in text, p.prog
        assert "article 00" not in text, p.prog


def test_every_command_says_what_it_does_in_its_own_help() -> None:
    """``mazekit X Y --help`` describes Y (its input and output), not only its options."""
    for p in all_parsers(build_parser()):
        assert (p.description or "").strip(), f"{p.prog} --help has no description"


def test_picture_sizes_are_one_option_with_one_upper_bound() -> None:
    names = set()
    for p in all_parsers(build_parser()):
        for action in p._actions:
            if action.help is argparse.SUPPRESS:
                continue
            names.update(o for o in action.option_strings if o in ("--scale", "--cell", "--size-px"))
            if "--scale" in action.option_strings:
                assert "128" in (action.help or ""), p.prog
    assert names == {"--scale"}


@pytest.mark.parametrize(
    ("argv", "lowest"),
    [
        (["maze", "generate", "-s", "3x3", "--seed", "1", "--png", "{out}"], 1),
        (["mines", "render", "{mines}", "-o", "{out}"], 8),
        (["sokoban", "render", "{xsb}", "--png", "{out}"], 8),
    ],
)
def test_scale_limits_say_the_same(tmp_path: Path, capsys: Any, argv: list[str], lowest: int) -> None:
    pytest.importorskip("PIL")
    mines = tmp_path / "m.txt"
    mines.write_text("3 3 1 1\n...\n...\n..*\n")
    xsb = tmp_path / "l.xsb"
    xsb.write_text(examples.read_text("sokoban/mazekit.xsb"))
    args = [a.format(out=tmp_path / "o.png", mines=mines, xsb=xsb) for a in argv]
    assert main([*args, "--scale", "129"]) == 2
    assert f"--scale must be between {lowest} and 128 pixels per square, got 129" in capsys.readouterr().err
    assert main([*args, "--scale", str(lowest)]) == 0
    assert (tmp_path / "o.png").exists()


def test_colour_is_spelt_one_way() -> None:
    spellings = set()
    for p in all_parsers(build_parser()):
        for action in p._actions:
            if action.help is not argparse.SUPPRESS:
                spellings.update(o for o in action.option_strings if "colo" in o)
    assert spellings == {"--color"}
    args = build_parser().parse_args(["sokoban", "play", "x.xsb", "--no-colour"])
    assert args.color == "never"
