"""``mines bench``: the workers capped at the cores and the work, progress on stderr (#15 items 4, 8)."""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

import pytest

from mazekit.cli import _progress, main
from mazekit.minesweeper import bench as B


def test_worker_count_is_capped_by_the_cores_and_the_tasks() -> None:
    cores = os.cpu_count() or 1
    assert B.worker_count(1000, 5) == 1
    assert B.worker_count(1000, 10 * B.CHUNK * cores) == cores
    assert B.worker_count(1000, 2 * B.CHUNK) == min(2, cores)
    assert B.worker_count(1, 10**6) == 1


def test_a_thousand_workers_for_five_games_start_no_pool_and_say_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    sizes: list[int] = []
    real = multiprocessing.get_context

    class Ctx:
        def __init__(self, method: str) -> None:
            self.ctx = real(method)

        def Pool(self, n: int, *a: Any, **k: Any) -> Any:
            sizes.append(n)
            if n > (os.cpu_count() or 1):
                raise AssertionError(f"a pool of {n} processes on {os.cpu_count()} cores")
            return self.ctx.Pool(n, *a, **k)

    monkeypatch.setattr(multiprocessing, "get_context", lambda method=None: Ctx(method or "spawn"))
    assert main(["mines", "bench", "--jobs", "1000", "--games", "5"]) == 0
    out, err = capsys.readouterr()
    assert sizes == []  # no pool at all (before: a spawned pool of 1000 processes, minutes)
    assert f"1 worker(s), not 1000: {os.cpu_count()} core(s), 5 game(s) a board" in err
    assert out.count("\n") == 8 and out.startswith("| board |")  # the table alone on stdout


def test_bench_reports_progress_by_task(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int, float]] = []
    rows = B.bench(
        7,
        levels=("beginner", "expert"),
        rules=("safe",),
        workers=1,
        chunk=3,
        progress=lambda d, t, s: seen.append((d, t, s)),
    )
    assert [r.games for r in rows] == [7, 7]
    assert [d for d, _, _ in seen] == [3, 6, 7, 10, 13, 14]
    assert {t for _, t, _ in seen} == {14}
    shares = [s for _, _, s in seen]
    assert shares == sorted(shares) and shares[-1] == 1.0
    assert shares[2] == pytest.approx(1 / (1 + 30))  # an expert game costs 30 beginner games


def test_the_progress_line_goes_to_stderr_and_quiet_silences_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_progress, "_is_tty", lambda stream: True)
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    argv = ["mines", "bench", "--games", "4", "--board", "beginner", "--jobs", "1"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "\rmines bench  4/8 games  50%" in err and err.endswith("\r")
    assert "\r" not in out and "mines bench" not in out
    assert main([*argv, "--quiet"]) == 0
    out_quiet, err = capsys.readouterr()
    assert err == ""
    same = [line.split("|")[1:7] for line in out.splitlines()]  # all but the times
    assert [line.split("|")[1:7] for line in out_quiet.splitlines()] == same


def test_a_first_compile_is_announced(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    warmed: list[int] = []
    monkeypatch.setattr(B, "solver_is_cached", lambda: False)
    monkeypatch.setattr(B, "warm_up", lambda _=0: warmed.append(1))
    argv = ["mines", "bench", "--games", "2", "--board", "beginner", "--first-click", "safe", "--jobs", "1"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == "compiling the solver (once per installation)…\n" and warmed
    assert "compiling" not in out
    assert main([*argv, "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_a_thousand_dask_workers_are_capped_at_the_cores(capsys: pytest.CaptureFixture[str]) -> None:
    """--workers N asks for a local Dask cluster: never more workers than cores or tasks."""
    pytest.importorskip("distributed")
    assert main(["mines", "bench", "--workers", "1000", "--games", "5", "--board", "beginner"]) == 0
    out, err = capsys.readouterr()
    cores = os.cpu_count() or 1
    assert f"{min(cores, 2)} Dask worker(s), not 1000: {cores} core(s), 2 task(s)" in err
    assert out.startswith("| board |") and out.count("\n") == 4
