"""The progress line on stderr (#15 item 8): when it shows, what it says, that it clears."""

from __future__ import annotations

import io
import time
from typing import Any

import pytest

from mazekit.cli import _progress
from mazekit.cli._progress import Progress, duration


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def make(stream: io.StringIO, total: int | None = 100, **kw: Any) -> tuple[Progress, Clock]:
    clock = Clock()
    return Progress("work", total, unit="items", stream=stream, clock=clock, **kw), clock


def test_a_terminal_sees_nothing_in_the_first_second_then_one_line_redrawn_then_cleared() -> None:
    out = Tty()
    p, clock = make(out)
    clock.t += 0.5
    p.update(10)
    assert out.getvalue() == ""
    clock.t += 0.5
    p.update(20)
    first = out.getvalue()
    assert first == "\rwork  20/100 items  20%  20.0/s  ETA 4.0 s"
    clock.t += 0.01  # too soon to redraw
    p.update(21)
    assert out.getvalue() == first
    clock.t += 1.0
    p.update(50)
    assert out.getvalue().endswith("\rwork  50/100 items  50%  24.9/s  ETA 2.0 s")
    assert "\n" not in out.getvalue()
    p.close()
    assert out.getvalue().endswith("\r" + " " * (len("work  50/100 items  50%  24.9/s  ETA 2.0 s") + 2) + "\r")
    clock.t += 5
    p.update(90)  # closed: nothing more
    assert out.getvalue().endswith("\r")


def test_a_shorter_line_rubs_out_the_longer_one() -> None:
    out = Tty()
    p, clock = make(out, total=None)
    clock.t += 1.5
    p.update(note="a long note here")
    clock.t += 1.0
    p.update(note="")
    last = out.getvalue().rsplit("\r", 1)[1]
    assert last.startswith("work  2.5 s") and last.rstrip("\b").endswith(" " * len("  a long note here"))


def test_not_a_terminal_gets_a_plain_line_every_ten_seconds_and_never_a_carriage_return() -> None:
    out = io.StringIO()
    p, clock = make(out)
    for _ in range(9):
        clock.t += 1
        p.update(int(clock.t - 100))
    assert out.getvalue() == ""  # short work leaves the log alone
    clock.t += 1
    p.update(10)
    assert out.getvalue() == "work  10/100 items  10%  1.00/s  ETA 1:30\n"
    clock.t += 5
    p.update(15)
    assert out.getvalue().count("\n") == 1
    clock.t += 5
    p.update(20)
    p.close()
    assert out.getvalue().count("\n") == 2 and "\r" not in out.getvalue()


def test_say_prints_at_once_and_the_line_comes_back_under_it() -> None:
    out = Tty()
    p, clock = make(out, total=None)
    p.say("compiling the solver (once per installation)…")
    assert out.getvalue() == "compiling the solver (once per installation)…\n"
    clock.t += 2
    p.update()
    assert out.getvalue().endswith("\n\rwork  2.0 s")
    p.say("again")
    assert "\r" + " " * (len("work  2.0 s") + 2) + "\ragain\n" in out.getvalue()


def test_quiet_is_silent() -> None:
    for out in (Tty(), io.StringIO()):
        p, clock = make(out, quiet=True)
        p.say("compiling")
        clock.t += 60
        p.update(50)
        p.close()
        assert out.getvalue() == ""


def test_share_drives_the_eta_when_the_units_are_uneven() -> None:
    out = Tty()
    p, clock = make(out)
    clock.t += 10
    p.update(50, share=0.25)  # half the games, a quarter of the work
    assert out.getvalue() == "\rwork  50/100 items  25% of the work  5.00/s  ETA 30 s"  # not "50/100 ... 25%"


def test_hidden_draws_nothing_while_the_answer_is_written() -> None:
    out = Tty()
    p, clock = make(out, total=None)
    clock.t += 2
    p.update()
    with p.hidden():
        assert out.getvalue().endswith("\r" + " " * (len("work  2.0 s") + 2) + "\r")
        size = len(out.getvalue())
        clock.t += 1
        p.update()
        assert len(out.getvalue()) == size
    clock.t += 1
    p.update()
    assert out.getvalue().endswith("\rwork  4.0 s")


def test_ticking_redraws_from_a_thread_while_the_caller_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    out = Tty()
    with Progress("generating a 5000x5000 maze…", stream=out) as p, p.ticking(interval=0.01):
        time.sleep(0.2)  # a kernel that cannot report
    text = out.getvalue()
    assert text.count("\rgenerating a 5000x5000 maze…  0.") >= 2
    assert text.endswith("\r")


def test_durations() -> None:
    assert [duration(s) for s in (0.04, 9.96, 59.4, 61, 3600)] == ["0.0 s", "10.0 s", "59 s", "1:01", "1:00:00"]


def test_maze_generate_says_what_it_does_on_stderr_and_leaves_stdout_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mazekit.cli import main

    argv = ["maze", "generate", "-s", "30x40", "--seed", "3"]
    assert main(argv) == 0
    plain_out, plain_err = capsys.readouterr()
    assert "generating" not in plain_err  # quick, and not a terminal: nothing
    monkeypatch.setattr(_progress, "_is_tty", lambda stream: True)
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out == plain_out
    assert "\rwriting the 30x40 backtracker maze…" in err and "\rmeasuring the 30x40 backtracker maze…" in err
    assert err.rsplit("\r", 1)[1] == plain_err  # cleared before the summary
