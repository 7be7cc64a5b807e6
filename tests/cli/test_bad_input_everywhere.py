"""Every command that reads input: garbage in gives one line on stderr, exit 2, nothing written."""

from __future__ import annotations

import io
import os
import sys

import pytest

from mazekit.cli import main

# Commands that read a file (FILE is replaced by the bad input's path) and may write an output
# (OUT is replaced by a path whose creation is checked).
COMMANDS = [
    ["robot", "FILE", "-o", "OUT"],
    ["forest", "FILE", "-o", "OUT"],
    ["path", "FILE", "-o", "OUT"],
    ["maze", "solve", "FILE", "--png", "OUT"],
    ["maze", "render", "FILE", "--png", "OUT"],
    ["universal", "FILE"],
    ["mines", "open", "FILE", "-o", "OUT"],
    ["mines", "hint", "FILE", "-o", "OUT"],
    ["sokoban", "run", "FILE", "-o", "OUT"],
    ["sokoban", "replay", "FILE", "--level", "1", "R"],
    ["sokoban", "render", "FILE", "--level", "1", "--png", "OUT"],
    ["sokoban", "solve", "FILE", "--time-limit", "1"],
    ["sokoban", "optimise", "FILE", "R", "-o", "OUT"],
]

BAD_INPUTS = {
    "empty": b"",
    "blank": b"\n\n  \n",
    "binary": bytes(range(256)) * 4,
    "nul": b"00\x0000\n",
    "latin1": b"caf\xe9\n",
    "ragged": b"3 3\n000\n00\n0000\n",
    "header only": b"999999 999999 1 1 2 2\n",
    "letters": b"hello world\nthis is not a grid\n",
}


def _available(argv: list[str]) -> bool:
    from mazekit.cli import COMMANDS as REGISTRY

    return argv[0] in REGISTRY


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("name", list(BAD_INPUTS))
def test_bad_input_is_one_line_and_exit_2(argv, name, tmp_path, monkeypatch, capsysbinary):
    if not _available(argv):
        pytest.skip(f"{argv[0]} is not a command yet")
    src = tmp_path / "input.txt"
    src.write_bytes(BAD_INPUTS[name])
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    dest = out_dir / "result.png"
    args = [str(src) if a == "FILE" else str(dest) if a == "OUT" else a for a in argv]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    status = main(args)
    out, err = capsysbinary.readouterr()
    text = err.decode("utf-8", "replace")
    # "sokoban solve" may answer an unparsable collection with "no levels"; every
    # command must refuse it with status 2 and a single line
    assert status == 2, (argv, name, status, text)
    assert text.count("\n") == 1 and "Traceback" not in text, text
    assert text.startswith("mazekit "), text
    assert os.listdir(out_dir) == [], os.listdir(out_dir)


# Commands that draw a picture from good input (FILE is an example shipped with mazekit).
PICTURES = [
    ["robot", "EX:robot.txt", "--png", "OUT"],
    ["forest", "EX:forest.txt", "--png", "OUT"],
    ["maze", "generate", "--size", "5x5", "--png", "OUT"],
    ["maze", "generate", "--size", "5x5", "--gif", "OUT"],
    ["mines", "render", "DATA:minesweeper/ring.in", "-o", "OUT"],
    ["sokoban", "render", "EX:sokoban/mazekit.xsb", "--level", "1", "--png", "OUT"],
]


@pytest.mark.parametrize("argv", PICTURES, ids=lambda a: " ".join(a[:2] + a[-2:-1]))
def test_pictures_without_pillow_are_one_line_and_exit_2(argv, tmp_path, monkeypatch, capsys):
    """Pillow is an extra: asking for a PNG or GIF without it says how to install it, exit 2,
    before any other output, and writes nothing."""
    from importlib import resources
    from pathlib import Path

    examples = resources.files("mazekit.examples")
    data = Path(__file__).parent.parent / "data"
    dest = tmp_path / "out" / "picture.png"
    dest.parent.mkdir()

    def arg(a: str) -> str:
        if a.startswith("EX:"):
            return str(examples.joinpath(a[3:]))
        if a.startswith("DATA:"):
            return str(data / a[5:])
        return str(dest) if a == "OUT" else a

    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now fails as if not installed
    status = main([arg(a) for a in argv])
    out, err = capsys.readouterr()
    assert status == 2, (argv, err)
    assert out == ""
    assert err.count("\n") == 1 and "Pillow" in err and "mazekit[render]" in err, err
    assert os.listdir(dest.parent) == []


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["maze", "generate", "-s", "-5x10"],
            "mazekit maze generate: --size must be RxC (two positive integers, like 12x32), got '-5x10'",
        ),
        (
            ["maze", "generate", "--size", "-5x10"],
            "mazekit maze generate: --size must be RxC (two positive integers, like 12x32), got '-5x10'",
        ),
    ],
)
def test_a_negative_value_reaches_its_option(argv, line, capsys):
    """argparse would take "-5x10" for an option and say "expected one argument"."""
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == line
