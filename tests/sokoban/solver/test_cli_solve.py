"""``mazekit sokoban solve``: one line per level, '-' when unsolved, a summary on stderr."""

from __future__ import annotations

from mazekit.cli import main
from mazekit.sokoban import parse_levels, replay
from tests.conftest import DATA

LEVELS = """\
; 1
#######
#@ $ .#
#######

; 2 (unsolvable: the box is in a corner)
#####
#@ $#
# . #
#####

; 3
  ####
###  ####
#     $ #
# #  #$ #
# . .#@ #
#########
"""


def test_solve_a_collection(tmp_path, capsys):
    path = tmp_path / "set.xsb"
    path.write_text(LEVELS)
    status = main(["sokoban", "solve", str(path), "--time-limit", "20"])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert status == 1 and len(lines) == 3 and lines[1] == "-"
    levels = parse_levels(LEVELS)
    for lv, line in zip(levels, lines, strict=False):
        if line != "-":
            assert replay(lv, line).solved
    assert "solved 2/3" in err and "unsolvable 1" in err
    assert "[3/3]" in err  # progress lines for a collection


def test_solve_one_level_optimal(tmp_path, capsys):
    path = tmp_path / "set.xsb"
    path.write_text(LEVELS)
    assert main(["sokoban", "solve", str(path), "--level", "3", "--optimal"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() and replay(parse_levels(LEVELS)[2], out.strip()).pushes == 13
    assert "solved 1/1" in err


def test_solve_in_parallel(tmp_path, capsys):
    path = tmp_path / "set.xsb"
    path.write_text(LEVELS)
    assert main(["sokoban", "solve", str(path), "--jobs", "2", "--time-limit", "20"]) == 1
    out, _ = capsys.readouterr()
    assert out.splitlines()[1] == "-" and out.splitlines()[0] == "rRR"


def test_bad_values(tmp_path, capsys):
    path = tmp_path / "set.xsb"
    path.write_text(LEVELS)
    assert main(["sokoban", "solve", str(path), "--level", "9"]) == 2
    assert main(["sokoban", "solve", str(path), "--level", "x"]) == 2
    assert main(["sokoban", "solve", str(path), "--time-limit", "0"]) == 2
    err = capsys.readouterr().err
    assert "--level 9" in err and "--time-limit" in err


HARD = """\
; easy
#######
#@ $ .#
#######

""" + (DATA / "sokoban" / "slow.xsb").read_text()


def test_ctrl_c_prints_what_was_solved_and_exits_130(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    levels = tmp_path / "hard.xsb"
    levels.write_text(HARD)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, signal; signal.signal(signal.SIGINT, signal.default_int_handler);"
            "from mazekit.cli import main; sys.exit(main(sys.argv[1:]))",
            "sokoban",
            "solve",
            str(levels),
            "--level",
            "all",
            "--time-limit",
            "120",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(6)
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    lines = out.splitlines()
    assert len(lines) == 2 and lines[1] == "-"
    assert replay(parse_levels(HARD)[0], lines[0]).solved
    assert "interrupted" in err
