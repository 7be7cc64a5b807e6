"""``sokoban solve`` on stderr (#15 item 8): the first compile is announced, a status line for
long searches, nothing on stdout but the answers, ``--quiet`` silent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mazekit import examples
from mazekit.cli import _progress, main
from mazekit.cli.sokoban_solve import COMPILING
from mazekit.sokoban import solver
from mazekit.sokoban.solver.kernels.expand import search_kernel

ANSWERS = "R\n"


@pytest.fixture
def level(tmp_path: Path) -> str:
    path = tmp_path / "one.xsb"
    path.write_text("#####\n#@$.#\n#####\n")
    return str(path)


@pytest.fixture
def uncompiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kernel not in numba's cache, and a search that reaches its first compile."""
    phases: list[str] = []
    real = solver.search_level
    monkeypatch.setattr(search_kernel, "is_cached", lambda: False)

    def search_level(level: Any, **kw: Any) -> Any:
        progress = kw.get("progress")
        if progress is not None:
            phases.append("compiling")
            progress(solver.SearchStats(0, 0, 0.0, "time"), "compiling")
        return real(level, **kw)

    monkeypatch.setattr(solver, "search_level", search_level)
    return phases


def test_the_first_compile_is_announced_on_stderr(
    level: str, uncompiled: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sokoban", "solve", level]) == 0
    out, err = capsys.readouterr()
    assert uncompiled == ["compiling"]
    assert out == ANSWERS
    assert err.startswith(COMPILING + "\n")
    assert COMPILING == "compiling the solver (once per installation)…"


def test_a_cached_kernel_is_not_announced(
    level: str, uncompiled: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(search_kernel, "is_cached", lambda: True)
    assert main(["sokoban", "solve", level]) == 0
    assert "compiling" not in capsys.readouterr().err


def test_quiet_silences_stderr(level: str, uncompiled: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sokoban", "solve", "--quiet", level]) == 0
    assert capsys.readouterr() == (ANSWERS, "")


def test_a_pool_announces_the_compile_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(search_kernel, "is_cached", lambda: False)
    path = tmp_path / "levels.xsb"
    path.write_bytes(examples.read_bytes("sokoban/mazekit.xsb"))
    assert main(["sokoban", "solve", "--jobs", "2", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err.count(COMPILING) == 1 and err.startswith(COMPILING)
    assert len(out.splitlines()) == 5 and "compiling" not in out


def test_the_status_line_shows_the_search_and_is_cleared(
    level: str, uncompiled: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_progress, "_is_tty", lambda stream: True)
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    assert main(["sokoban", "solve", level]) == 0
    out, err = capsys.readouterr()
    assert out == ANSWERS
    assert "\rlevel 1  " in err and "compiling" in err
    summary = err.rsplit("\r", 1)[1]
    assert summary.startswith(" level boxes result")  # the line was rubbed out before the summary
