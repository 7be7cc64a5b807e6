"""The robot and forest commands: the articles' examples byte for byte, bad input, edge cases."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit.cli import forest as forest_cli
from mazekit.cli import main
from mazekit.cli import robot as robot_cli

DATA = Path(__file__).resolve().parents[1] / "data" / "articles"


def run_main(argv, stdin=b"", monkeypatch=None, capsysbinary=None):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    status = main(argv)
    out, err = capsysbinary.readouterr()
    return status, out, err


@pytest.fixture
def cli(monkeypatch, capsysbinary):
    return lambda argv, stdin=b"": run_main(argv, stdin, monkeypatch, capsysbinary)


# ------------------------------------------------------------ byte for byte


@pytest.mark.parametrize("name", ["robot", "forest"])
def test_article_example_through_the_real_entry_point(name, tmp_path):
    src = DATA / f"{name}_example.in"
    want = (DATA / f"{name}_example.out").read_bytes()
    # from a file
    out = subprocess.run([sys.executable, "-m", "mazekit", name, str(src)], capture_output=True, check=True)
    assert out.stdout == want and out.stderr == b""
    # from stdin
    out = subprocess.run(
        [sys.executable, "-m", "mazekit", name], input=src.read_bytes(), capture_output=True, check=True
    )
    assert out.stdout == want
    # to a file
    dest = tmp_path / "answer.txt"
    subprocess.run([sys.executable, "-m", "mazekit", name, str(src), "-o", str(dest)], check=True)
    assert dest.read_bytes() == want


@pytest.mark.parametrize("name", ["robot", "forest"])
def test_article_example_with_crlf_and_trailing_blank_lines(name, cli):
    src = (DATA / f"{name}_example.in").read_bytes()
    want = (DATA / f"{name}_example.out").read_bytes()
    for variant in (src.replace(b"\n", b"\r\n"), src + b"\n\n", src.rstrip(b"\n")):
        status, out, err = cli([name], variant)
        assert (status, out, err) == (0, want, b"")


def test_robot_accepts_digits_separated_by_spaces(cli):
    text = b"4 7 1 3 2 6\n1 0 0 1 0 0 0\n0 0 1 0 1 0 0\n0 0 0 0 0 0 0\n1 1 0 1 0 0 0\n"
    status, out, _ = cli(["robot"], text)
    assert status == 0 and out == (DATA / "robot_example.out").read_bytes()


def test_robot_special_answers(cli):
    assert cli(["robot"], b"2 2 1 1 1 1\n00\n00\n")[1] == b"1 1\n"  # start == finish
    assert cli(["robot"], b"1 3 1 1 1 3\n010\n")[1] == b"-1\n"  # no path
    assert cli(["robot"], b"1 3 1 1 1 3\n001\n")[1] == b"-1\n"  # blocked finish
    assert cli(["robot"], b"1 3 1 1 1 3\n100\n")[1] == b"-1\n"  # blocked start
    assert cli(["robot"], b"1 1 1 1 1 1\n0\n")[1] == b"1 1\n"


def test_forest_special_answers(cli):
    assert cli(["forest"], b"3 3\nXXX\nXEX\nXXX\n")[1] == b"-1\n"  # trapped
    assert cli(["forest"], b"2 2\nEO\nOO\n")[1] == b"0 0\n"  # already on the border
    assert cli(["forest"], b"1 1\nE\n")[1] == b"0 0\n"
    # the search stops at the FIRST border cell the DFS enters (up before down)
    assert cli(["forest"], b"3 3\nXOX\nXEX\nXOX\n")[1] == b"1 1\n0 1\n"


# ---------------------------------------------------------------- bad input

ROBOT_BAD = [
    (b"", "line 1: empty input"),
    (b"4 7 1 3\n", "line 1: expected 6 integers"),
    (b"4 7 1 3 2 x\n", "line 1: c2 must be an integer, got 'x'"),
    (b"2 2 1 1 3 1\n00\n00\n", "line 1: finish (3, 1) is outside the 2x2 maze"),
    (b"2 2 0 1 1 1\n00\n00\n", "line 1: start (0, 1) is outside"),
    (b"0 2 1 1 1 1\n", "line 1: the maze must have at least one row"),
    (b"2 3 1 1 1 1\n000\n00\n", "line 3: expected 3 cells, got 2"),
    (b"2 3 1 1 1 1\n000\n0a0\n", "line 3: unexpected character 'a' in column 2"),
    (b"2 3 1 1 1 1\n000\n", "line 3: missing row: expected 2 rows, got 1"),
    (b"1 2 1 1 1 1\n00\n01\n", "line 3: unexpected text after the 1 rows"),
    (b"1 2 1 1 1 1\n0\xff\n", "line 2: not UTF-8 text"),
    (b"\x00\x01\x02garbage", "binary data"),
    (b"1 2 1 1 1 1\n0\xc3\xa9\n", "line 2: unexpected character"),
]


@pytest.mark.parametrize("data,message", ROBOT_BAD)
def test_robot_bad_input(cli, data, message, tmp_path):
    dest = tmp_path / "out.txt"
    status, out, err = cli(["robot", "-o", str(dest)], data)
    assert status == 2
    assert out == b""
    text = err.decode()
    assert text.startswith("mazekit robot: ") and message in text, text
    assert text.count("\n") == 1 and "Traceback" not in text
    assert not dest.exists() and list(tmp_path.iterdir()) == []


FOREST_BAD = [
    (b"", "line 1: empty input"),
    (b"2\n", "line 1: expected 2 integers (R C), got 1"),
    (b"2 2\nXO\n", "line 3: missing row"),
    (b"2 2\nXO\nXE\nXX\n", "line 4: unexpected text after"),
    (b"2 2\nXO\nOO\n", "line 2: no explorer"),
    (b"2 3\nXEO\nOEX\n", "line 3: a second explorer"),
    (b"2 2\nXO\nEA\n", "line 3: unexpected character 'A' in column 2"),
    (b"2 3\nXO\nEOO\n", "line 2: expected 3 cells, got 2"),
]


@pytest.mark.parametrize("data,message", FOREST_BAD)
def test_forest_bad_input(cli, data, message):
    status, out, err = cli(["forest"], data)
    assert status == 2 and out == b""
    text = err.decode()
    assert text.startswith("mazekit forest: ") and message in text, text
    assert text.count("\n") == 1


def test_missing_file_is_one_line(cli, tmp_path):
    status, out, err = cli(["robot", str(tmp_path / "nope.txt")])
    assert status == 2 and b"No such file" in err and err.count(b"\n") == 1


def test_unwritable_output_leaves_nothing(cli, tmp_path):
    src = str(DATA / "robot_example.in")
    status, _, err = cli(["robot", src, "-o", str(tmp_path / "no" / "dir" / "x.txt")])
    assert status == 2 and err.count(b"\n") == 1


# ------------------------------------------- generated inputs vs reference


@given(data=st.data())
def test_robot_matches_reference_bfs(data):
    R = data.draw(st.integers(1, 8))
    C = data.draw(st.integers(1, 8))
    rows = ["".join(data.draw(st.sampled_from("0001"), label="cell") for _ in range(C)) for _ in range(R)]
    r1, r2 = data.draw(st.integers(1, R)), data.draw(st.integers(1, R))
    c1, c2 = data.draw(st.integers(1, C)), data.draw(st.integers(1, C))
    text = f"{R} {C} {r1} {c1} {r2} {c2}\n" + "\n".join(rows) + "\n"
    got = robot_cli.solve_text(text)
    # the article's BFS, written directly
    free = [[ch == "0" for ch in row] for row in rows]
    s, t = (r1 - 1, c1 - 1), (r2 - 1, c2 - 1)
    if not free[s[0]][s[1]] or not free[t[0]][t[1]]:
        assert got == "-1\n"
        return
    trace = {s: None}
    q = deque([s])
    while q:
        u = q.popleft()
        if u == t:
            break
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            v = (u[0] + dr, u[1] + dc)
            if 0 <= v[0] < R and 0 <= v[1] < C and free[v[0]][v[1]] and v not in trace:
                trace[v] = u
                q.append(v)
    if t not in trace:
        assert got == "-1\n"
        return
    path = [t]
    while trace[path[-1]] is not None:
        path.append(trace[path[-1]])
    assert got == "".join(f"{r + 1} {c + 1}\n" for r, c in reversed(path))


def test_big_forest_has_no_recursion_limit():
    """A 2000x2000 forest whose DFS goes millions of cells deep."""
    n = 2000
    g = np.full((n, n), "X")
    g[1:-1:2, 1:-1] = "O"
    g[2:-1:4, -2] = "O"
    g[4:-1:4, 1] = "O"
    g[1, 1] = "E"
    g[n - 3, 0] = "O"  # the only exit, at the far end of the serpentine
    text = f"{n} {n}\n" + "\n".join("".join(row) for row in g) + "\n"
    out = forest_cli.solve_text(text)
    lines = out.splitlines()
    assert lines[0] == "1 1" and lines[-1] == f"{n - 3} 0"
    assert len(lines) > 1_000_000


# ------------------------------------------------------------ path and demo


def test_path_command(cli, tmp_path):
    grid = b"S.#\n..#\n#.G\n"
    status, out, err = cli(["path"], grid)
    assert status == 0 and out == b"0 0\n1 0\n1 1\n2 1\n2 2\n" and b"bfs: length 4" in err
    status, out, _ = cli(["path", "--algorithm", "astar", "--draw", "--color", "never"], grid)
    assert status == 0 and out == b"S*#\n.*#\n#*G\n"
    status, out, _ = cli(["path", "--start", "1,1", "--goal", "3,3", "--one-based"], b"000\n010\n000\n")
    assert status == 0 and out.splitlines()[0] == b"1 1" and out.splitlines()[-1] == b"3 3"
    status, out, _ = cli(["path", "--border", "-a", "dfs"], b"###\n#S.\n###\n")
    assert status == 0 and out == b"1 1\n1 2\n"
    status, out, _ = cli(["path"], (DATA / "robot_example.in").read_bytes())
    assert status == 0 and len(out.splitlines()) == 9
    status, out, _ = cli(["path"], b"S#G\n")
    assert status == 1 and out == b"-1\n"
    for args, msg in [
        (["path", "--start", "a,b"], b"--start must be R,C"),
        (["path", "--start", "0,0"], b"no goal"),
        (["path", "--start", "9,9", "--goal", "0,0"], b"start (9, 9) is outside"),
        (["path", "-a", "greedy", "--border", "--start", "1,1"], b"needs bfs, dfs or dijkstra"),
    ]:
        status, out, err = cli(args, b"000\n000\n")
        assert status == 2 and msg in err and err.count(b"\n") == 1, err


def test_demo_runs_and_draws_a_route(cli):
    status, out, err = cli(["demo", "--size", "4x6", "--color", "never"])
    assert status == 0
    lines = out.decode().splitlines()
    assert len(lines) == 9 and all(len(line) == 26 for line in lines)
    assert "SS" in out.decode() and "GG" in out.decode() and b"route of" in err
    status, out, err = cli(["demo", "--size", "0x3"])
    assert status == 2 and b"--size" in err


def test_demo_in_colour(cli):
    status, out, _ = cli(["demo", "--size", "3x3", "--color", "always"])
    assert status == 0 and b"\x1b[" in out


def test_help_and_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and "mazekit" in capsys.readouterr().out
    assert main([]) == 2


def test_console_script_exit_status(tmp_path):
    env = {**os.environ, "MAZEKIT_JIT": "never"}
    bad = subprocess.run([sys.executable, "-m", "mazekit", "robot"], input=b"1 1\n", capture_output=True, env=env)
    assert bad.returncode == 2 and bad.stdout == b"" and b"Traceback" not in bad.stderr


def test_demo_fits_an_80_column_terminal(cli, monkeypatch):
    """#15 item 9: the default demo was 130 columns wide."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    status, out, err = cli(["demo", "--color", "never"])
    assert status == 0
    lines = out.splitlines() + err.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert len(lines) <= 23
