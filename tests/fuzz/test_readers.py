"""Fuzz every reader: Hypothesis over raw bytes and over mutations of the valid examples.

The contract (issue #15): for every input a reader gives an answer, or refuses it
with an ``InputError`` whose message is one line (the API: a 400 with a one-line
``error``); never another exception, a hang, or a partial output file. The
targets live in ``tests/fuzz/readers.py``, shared with the coverage-guided runs of
``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mazekit import _jit
from mazekit.errors import InputError
from tests.conftest import jit_mode

from .readers import READERS, seeds

NAMES = list(READERS)

#: Bytes a mutation likes to put in: line ends, NUL, a lone UTF-8 lead byte, a BOM, the grids' characters.
SPICE = [
    b"\r\n",
    b"\r",
    b"\n",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xef\xbb\xbf",
    b" ",
    b"\t",
    b"0",
    b"1",
    b"#",
    b"@",
    b"$",
    b".",
    b"*",
    b"x",
    b"o",
    b"E",
    b"|",
    b"9",
    b"-",
    b"\xc3\xa9",
    b"\xe2\x80\xa8",
]
HUGE = [b"99999999 99999999", b"99999999", b"-1", b"0", b"2147483648", b"100000", b"65536 65536", b"1" * 40]


def _split(data: bytes) -> list[bytes]:
    return data.split(b"\n")


@st.composite
def mutated(draw: st.DrawFn, name: str) -> bytes:
    """A valid example of reader ``name`` with a few edits: characters, lines, numbers, line ends."""
    base = draw(st.sampled_from(seeds(name)))
    data = bytearray(base)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(
            st.sampled_from(["flip", "insert", "delete", "dup_line", "drop_line", "huge", "crlf", "cut", "spice_line"])
        )
        n = len(data)
        pos = draw(st.integers(0, max(n - 1, 0)))
        if op == "flip" and n:
            data[pos] = draw(st.integers(0, 255))
        elif op == "insert":
            data[pos:pos] = draw(st.sampled_from(SPICE) | st.binary(min_size=1, max_size=3))
        elif op == "delete" and n:
            del data[pos : pos + draw(st.integers(1, 3))]
        elif op in ("dup_line", "drop_line", "spice_line", "huge"):
            lines = _split(bytes(data))
            i = draw(st.integers(0, len(lines) - 1))
            if op == "dup_line":
                lines.insert(i, lines[i])
            elif op == "drop_line":
                del lines[i]
            elif op == "spice_line":
                lines[i] = lines[i] + draw(st.sampled_from(SPICE))
            else:  # a number of the line (the header's first) replaced by a huge or odd one
                words = lines[i].split(b" ")
                k = draw(st.integers(0, len(words) - 1))
                words[k] = draw(st.sampled_from(HUGE))
                lines[i] = b" ".join(words)
            data = bytearray(b"\n".join(lines))
        elif op == "crlf":
            data = bytearray(bytes(data).replace(b"\n", draw(st.sampled_from([b"\r\n", b"\r", b"\n\n", b"\r\r\n"]))))
        elif op == "cut" and n:
            del data[pos:]
    return bytes(data)


_WARMED: set[str] = set()


def _warm(name: str) -> None:
    """Compile the Sokoban solver's route once before a timed input (a cold numba cache, as on a
    fresh clone or in CI, costs about 40 s: the first compile, not the input).

    The route itself cannot do it: the fuzz app stops the solver after 0.005 s of work, which
    may end before the search kernel is reached (the warm-up then compiles the set-up kernels
    only, and whichever later input reaches the search compiles it). So the playground's own
    start-up warm-up runs first, a whole search, with every kernel it calls compiled."""
    if name == "api_solve" and name not in _WARMED:
        from mazekit.web.api.sokoban import WARM_UP

        with jit_mode("always"):
            WARM_UP()
            READERS[name].target(b'{"level": {"text": "#####\\n#@$.#\\n#####\\n"}, "time_limit": 5}')
        _WARMED.add(name)


def _run(name: str, data: bytes) -> None:
    """Run one input; it must be answered in 10 s, numba's compiling (or cache loading) apart:
    a kernel first reached by this input is compiled once, which is not a hang."""
    _warm(name)
    t0 = time.perf_counter()
    c0 = _jit.compile_seconds()
    READERS[name].target(data)
    took = time.perf_counter() - t0 - (_jit.compile_seconds() - c0)
    assert took < 10, f"{name} took {took:.1f} s (compiling apart) on {data[:80]!r}"


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40)
@given(data=st.binary(max_size=400))
def test_any_bytes(name: str, data: bytes) -> None:
    _run(name, data)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60)
@given(data=st.data())
def test_mutated_examples(name: str, data: st.DataObject) -> None:
    if name == "lurd":
        lurd = data.draw(st.text(alphabet="udlrUDLR \t\nxİß\u0130\u212a", max_size=60))
        _run(name, bytes([data.draw(st.integers(0, 255))]) + lurd.encode())
        return
    _run(name, data.draw(mutated(name)))


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("lurd", "api")])
def test_seeds_are_answered(name: str) -> None:
    """The seeds are valid inputs: the fuzz starts from inputs that get an answer."""
    for data in seeds(name):
        _run(name, data)


# --------------------------------------------------------- huge sizes, fast


HUGE_HEADERS = {
    "robot": b"99999999 99999999 1 1 2 2\n",
    "forest": b"99999999 99999999\n",
    "mines": b"99999999 99999999 1 1\n",
    "grid": b"99999999 99999999\n0\n",
}


@pytest.mark.parametrize("name", list(HUGE_HEADERS))
@pytest.mark.parametrize("rows", [b"", b"0\n", b"X\n" * 3, b"." * 5000 + b"\n"])
def test_huge_header_is_refused_at_once(name: str, rows: bytes) -> None:
    t0 = time.perf_counter()
    _run(name, HUGE_HEADERS[name] + rows)
    assert time.perf_counter() - t0 < 1


def test_huge_header_says_so() -> None:
    from mazekit.cli.robot import solve_text

    with pytest.raises(InputError, match="too large") as err:
        solve_text(b"99999999 99999999 1 1 1 1\n")
    assert err.value.line == 1


# ------------------------------------------------------------ through the CLI

#: Commands that read a file and write an answer to ``-o``; the exit statuses an answer may have.
CLI = {
    "robot": (["robot", "FILE", "-o", "OUT"], {0}),
    "forest": (["forest", "FILE", "-o", "OUT"], {0}),
    "mines": (["mines", "open", "FILE", "-o", "OUT"], {0}),
    "assignment": (["sokoban", "run", "FILE", "-o", "OUT"], {0}),
    "universal": (["universal", "FILE", "--verify", "UDLR", "-o", "OUT"], {0, 1}),
    "grid": (["path", "FILE", "-o", "OUT"], {0, 1}),
}


def _cli(cmd: str, data: bytes, tmp: Path) -> None:
    from mazekit.cli import main

    argv, ok = CLI[cmd]
    src = tmp / "input.txt"
    src.write_bytes(data)
    out_dir = tmp / "out"
    out_dir.mkdir(exist_ok=True)
    for f in out_dir.iterdir():
        f.unlink()
    dest = out_dir / "answer.txt"
    err = io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""))
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main([str(src) if a == "FILE" else str(dest) if a == "OUT" else a for a in argv])
    finally:
        sys.stdin = stdin
    text = err.getvalue()
    if status == 2:
        assert text.count("\n") == 1 and text.startswith("mazekit ") and "Traceback" not in text, (data, text)
        assert os.listdir(out_dir) == [], (data, os.listdir(out_dir))
    else:
        assert status in ok, (data, status, text)
        if status == 0 or cmd == "grid":
            assert os.listdir(out_dir) == ["answer.txt"], (data, os.listdir(out_dir))


@pytest.mark.parametrize("cmd", list(CLI))
@settings(max_examples=25)
@given(data=st.data())
@example(data=None)
def test_cli_bad_input_is_exit_2_one_line_no_file(
    cmd: str, data: st.DataObject | None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp = tmp_path_factory.mktemp("cli")
    if data is None:
        raw = HUGE_HEADERS.get(cmd, b"\x00\xff")
    elif data.draw(st.booleans()):
        raw = data.draw(st.binary(max_size=200))
    else:
        raw = data.draw(mutated(cmd))
    _cli(cmd, raw, tmp)
