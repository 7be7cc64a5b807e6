"""``mazekit sokoban``: the assignment byte for byte, replay exit codes, render, bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from mazekit.cli import main
from mazekit.cli.sokoban import run_text
from tests.conftest import DATA
from tests.sokoban.conftest import shared_file

CASES = ["article_walk", "article_push", "article_lose"]
SOK = DATA / "sokoban"
LEVELS = "src/mazekit/examples/sokoban/mazekit.xsb"


def _examples_file(tmp_path):
    from mazekit import examples

    path = tmp_path / "mazekit.xsb"
    path.write_bytes(examples.read_bytes("sokoban/mazekit.xsb"))
    return str(path)


@pytest.mark.parametrize("case", CASES)
def test_run_matches_the_hand_worked_output(case, capsys):
    assert main(["sokoban", "run", str(SOK / f"{case}.in")]) == 0
    out, err = capsys.readouterr()
    assert out == (SOK / f"{case}.out").read_text()
    assert err == ""


def test_the_articles_push_example():
    # player at (18, 7) pushes the box at (18, 6) down: the player ends at (18, 6), the box at (18, 5)
    from mazekit.sokoban import format_assignment_map, from_xy, parse_assignment, simulate

    a = parse_assignment((SOK / "article_push.in").read_text())
    assert a.level.start.player == from_xy(a.level, (18, 7))
    assert a.level.start.boxes == (from_xy(a.level, (18, 6)),)
    sim = simulate(a.level, "d")
    assert sim.states[0].player == from_xy(a.level, (18, 6))
    assert sim.states[0].boxes == (from_xy(a.level, (18, 5)),)
    assert format_assignment_map(a.level, sim.states[0]).splitlines()[3:5] == [
        "#                 @#",
        "#                 o#",
    ]


def test_run_reads_stdin_and_writes_a_file(tmp_path):
    out = tmp_path / "out.txt"
    data = (SOK / "article_lose.in").read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "mazekit", "sokoban", "run", "-o", str(out)], input=data, capture_output=True
    )
    assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
    assert out.read_text() == "(10, 8)\nLOSE\n"


def test_show_draws_on_stderr_only(capsys):
    assert main(["sokoban", "run", "--show", str(SOK / "article_push.in")]) == 0
    out, err = capsys.readouterr()
    assert out == (SOK / "article_push.out").read_text()
    blocks = err.split("\n\n")
    assert blocks[0].startswith("start\n####################")
    assert err.count("####################\n") == 2 * 6  # the start and five moves, top and bottom rows
    assert err.rstrip().endswith("WIN")


def test_win_stops_the_moves():
    text = (SOK / "article_walk.in").read_text()
    assert run_text(text).splitlines()[-1] == "WIN"
    assert len(run_text(text).splitlines()) == 14  # 13 moves of 15, then WIN


def test_blocked_moves_still_print_and_end():
    lines = (SOK / "article_push.in").read_text().splitlines()
    out = run_text("\n".join(lines[:10] + [">>^^"]) + "\n")
    assert out == "(18, 7)\n(18, 7)\n(18, 8)\n(18, 8)\nEND\n"
    assert run_text("\n".join(lines[:10] + [""]) + "\n") == "END\n"


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "empty input"),
        (b"####\n#@o#\n", "line 3: missing map row"),
        (bytes(range(256)), "not UTF-8"),
        (b"\x00\x01\x02", "NUL"),
    ],
)
def test_bad_input_one_line_exit_2(tmp_path, data, words):
    out = tmp_path / "out.txt"
    proc = subprocess.run(
        [sys.executable, "-m", "mazekit", "sokoban", "run", "-o", str(out)], input=data, capture_output=True, text=False
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2 and proc.stdout == b""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ replay


def test_replay_exit_codes(tmp_path, capsys):
    f = _examples_file(tmp_path)
    assert main(["sokoban", "replay", f, "--level", "1", "rRR"]) == 0
    out, _ = capsys.readouterr()
    assert out == "moves 3, pushes 2: solved\n#######\n#   @*#\n#######\n"
    assert main(["sokoban", "replay", f, "--level", "1", "rR"]) == 1
    assert "not solved" in capsys.readouterr().out
    assert main(["sokoban", "replay", f, "--level", "Around the pillar", "rrruulDullllddrUluRddrrR"]) == 0
    capsys.readouterr()
    assert main(["sokoban", "replay", f, "rRRR"]) == 2
    assert capsys.readouterr().err.strip() == "mazekit sokoban replay: move 4 'R': box against a wall"
    assert main(["sokoban", "replay", f, "--level", "9", "r"]) == 2
    assert "the file has 5 level(s)" in capsys.readouterr().err
    assert main(["sokoban", "replay", f, "--level", "nope", "r"]) == 2
    assert main(["sokoban", "replay", f, "rq"]) == 2
    assert "move 2 'q'" in capsys.readouterr().err


def test_replay_reference_solution():
    path = shared_file("xsokoban90.xsb")
    import tomllib

    lurd = tomllib.loads(shared_file("xsokoban90_solutions.toml").read_text())["Level0001"]
    proc = subprocess.run(
        [sys.executable, "-m", "mazekit", "sokoban", "replay", str(path), "--level", "1", "-"],
        input=lurd,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"moves {len(lurd)}, pushes {sum(c.isupper() for c in lurd)}: solved\n")


def test_replay_on_an_assignment_file(capsys):
    assert main(["sokoban", "replay", str(SOK / "article_push.in"), "DDDD"]) == 0
    assert capsys.readouterr().out.startswith("moves 4, pushes 4: solved")


# ------------------------------------------------------------------ render


def test_render_png_and_gif(tmp_path):
    pytest.importorskip("PIL")
    from PIL import Image

    f = _examples_file(tmp_path)
    png = tmp_path / "a.png"
    assert main(["sokoban", "render", f, "--level", "2", "--png", str(png), "--cell", "20"]) == 0
    img = Image.open(png)
    assert img.size == (8 * 20, 5 * 20)
    gif = tmp_path / "a.gif"
    assert (
        main(["sokoban", "render", f, "--level", "2", "rrruulDullllddrUluRddrrR", "--gif", str(gif), "--cell", "12"])
        == 0
    )
    anim = Image.open(gif)
    assert anim.n_frames == 25
    # an assignment file animates its own moves
    gif2 = tmp_path / "b.gif"
    assert main(["sokoban", "render", str(SOK / "article_walk.in"), "--gif", str(gif2), "--cell", "8"]) == 0
    assert Image.open(gif2).n_frames == 13  # 14 states; the bump into the wall repeats a frame (merged)


def test_render_errors_leave_no_file(tmp_path, capsys):
    f = _examples_file(tmp_path)
    out = tmp_path / "x.gif"
    assert main(["sokoban", "render", f, "--gif", str(out)]) == 2
    assert main(["sokoban", "render", f, "rU", "--gif", str(out)]) == 2
    assert "move 2 'U': wall" in capsys.readouterr().err
    assert main(["sokoban", "render", f, "--png", str(out), "--cell", "2"]) == 2
    assert not out.exists()


def test_play_needs_a_terminal(tmp_path):
    f = _examples_file(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "mazekit", "sokoban", "play", f],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2 and "needs a terminal" in proc.stderr


def _map(row3: str, moves: str) -> str:
    rows = ["#" * 20] * 3 + [row3.ljust(19) + "#"] + ["#" * 20] * 6
    return "\n".join(rows) + "\n" + moves + "\n"


def test_lose_cases_hand_worked():
    # row 3 is y = 6; a corridor with walls above and below: boxes only slide along it
    # a box already in a corner: LOSE before any move
    assert run_text(_map("#o   @  x x", ">>")) == "LOSE\n"
    # pushing the box right along the corridor: it stays "alive" (the rules ignore which side
    # the player is on) until the eighth move puts it at (18, 6), the corner
    assert (
        run_text(_map("#  x x   @ o   ", ">>>>>>>>"))
        == "(10, 6)\n(11, 6)\n(12, 6)\n(13, 6)\n(14, 6)\n(15, 6)\n(16, 6)\n(17, 6)\nLOSE\n"
    )


def test_generate_writes_a_collection_whose_solutions_replay(tmp_path, capsys):
    """``sokoban generate``: an XSB collection of titled levels, each with a solution comment that
    replays to a win; the same seed gives the same file; bad sizes are one line and exit 2."""
    from mazekit.sokoban import parse_levels, replay

    out = tmp_path / "gen.xsb"
    assert main(["sokoban", "generate", "-n", "5", "--seed", "7", "-s", "9x11", "-b", "3", "-o", str(out)]) == 0
    text = out.read_text()
    levels = parse_levels(text)
    sols = [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("; a solution: ")]
    assert [lv.title for lv in levels] == [f"generated {s}" for s in range(7, 12)] and len(sols) == 5
    assert all(lv.shape == (9, 11) and len(lv.start.boxes) == 3 for lv in levels)
    assert all(replay(lv, sol).solved for lv, sol in zip(levels, sols, strict=True))
    assert main(["sokoban", "generate", "-n", "5", "--seed", "7", "-s", "9x11", "-b", "3"]) == 0
    assert capsys.readouterr().out == text
    for bad in (["-s", "4x10"], ["-s", "ten"], ["-b", "0"], ["-n", "0"], ["-o", str(tmp_path / "no" / "x.xsb")]):
        assert main(["sokoban", "generate", *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_optimise_prints_a_shorter_solution_and_refuses_a_non_solution(tmp_path, capsys):
    """``sokoban optimise``: the generator's solution of a level comes back no longer (here
    shorter: the reverse game wanders), replaying to a win; bad solutions are one line, exit 2."""
    from mazekit.sokoban import parse_levels, replay

    gen = tmp_path / "gen.xsb"
    assert main(["sokoban", "generate", "-s", "9x9", "-b", "3", "--seed", "5", "-o", str(gen)]) == 0
    sol = next(line.split(": ", 1)[1] for line in gen.read_text().splitlines() if line.startswith("; a solution: "))
    level = parse_levels(gen.read_text())[0]
    before = replay(level, sol)
    out = tmp_path / "short.txt"
    assert main(["sokoban", "optimise", str(gen), sol, "--time-limit", "30", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    after = replay(level, out.read_text().strip())
    assert after.solved and (after.moves, after.pushes) < (before.moves, before.pushes)
    assert f"moves {before.moves} -> {after.moves}, pushes {before.pushes} -> {after.pushes}" in err
    assert main(["sokoban", "optimise", str(gen), sol, "--metric", "pushes", "-q"]) == 0
    out_text, err = capsys.readouterr()
    assert err == "" and replay(level, out_text.strip()).pushes <= after.pushes
    for bad, words in ((sol[:-1], "do not solve"), ("rRx", "move 2"), (sol + "x", "not one of")):
        assert main(["sokoban", "optimise", str(gen), bad, "-o", str(tmp_path / "bad.txt")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
        assert not (tmp_path / "bad.txt").exists()
    assert main(["sokoban", "optimise", str(gen), sol, "--time-limit", "0"]) == 2
    assert "--time-limit" in capsys.readouterr().err


def test_optimise_status_line_says_the_best_so_far_and_the_sweep(tmp_path, monkeypatch, capsys):
    """The status line while ``sokoban optimise`` works: the best solution so far (first, so a
    narrow terminal keeps it) and where the sweep is, as the playground says it."""
    import re

    from mazekit.cli import _progress, sokoban_optimise

    notes = []

    class Recording(_progress.Progress):
        def update(self, done=None, *, note=None, share=None, label=None):
            if note is not None:
                notes.append(note)
            super().update(done, note=note, share=share, label=label)

    monkeypatch.setattr(sokoban_optimise, "Progress", Recording)
    gen = tmp_path / "gen.xsb"
    assert main(["sokoban", "generate", "-s", "9x9", "-b", "3", "--seed", "5", "-o", str(gen)]) == 0
    sol = next(line.split(": ", 1)[1] for line in gen.read_text().splitlines() if line.startswith("; a solution: "))
    assert main(["sokoban", "optimise", str(gen), sol, "--time-limit", "30"]) == 0
    capsys.readouterr()
    line = re.compile(
        r"best so far (\d+) moves, (\d+) pushes \(from (\d+) moves\)  sweep (\d+), windows of (\d+) pushes,"
        r" at push (\d+) of (\d+)$"
    )
    seen = [line.match(n) for n in notes]
    assert notes and all(seen), notes
    moves = [int(m[1]) for m in seen]
    assert moves == sorted(moves, reverse=True) and all(int(m[3]) == len(sol) for m in seen)
    assert moves[-1] < moves[0]  # it shortened while the line showed it
    assert all(1 <= int(m[6]) <= int(m[7]) for m in seen)
