"""``run.py mines_peer``: the boards handed to the published solver are the benchmark's, bad input is one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mazekit.minesweeper.board import LEVELS, generate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def peer_bench(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_mines_peer

    return bench_mines_peer


@pytest.mark.parametrize(("rule", "click"), [("safe", (0, 0)), ("zero", (2, 2))])
def test_each_line_is_the_benchmarks_board_and_first_click(peer_bench, rule: str, click: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    rows, cols, mines = LEVELS["expert"]
    lines = peer_bench.board_lines(rule, 5, 3, 6).splitlines()
    assert len(lines) == 3
    for i, line in zip(range(3, 6), lines, strict=True):
        w, h, m, x, y, cells = line.split()
        assert (int(w), int(h), int(m)) == (cols, rows, mines)
        assert (int(y), int(x)) == click
        got = np.array([c == "1" for c in cells]).reshape(rows, cols)
        want = generate(rows, cols, mines, click=click, first_click=rule, rng=np.random.default_rng([5, i]))
        assert (got == np.asarray(want.mines, bool)).all()
        assert not got[click]


def test_the_paired_difference_counts_the_games_that_differ(peer_bench) -> None:  # type: ignore[no-untyped-def]
    ours = np.array([1, 1, 0, 0, 1], np.int8)
    peer = np.array([1, 0, 0, 1, 1], np.int8)
    mean, half, differ = peer_bench.paired(ours, peer)
    assert mean == 0.0 and differ == 2 and half > 0


def test_a_missing_peer_is_one_line_and_status_2(peer_bench, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert peer_bench.main(["--peer", str(tmp_path / "nowhere"), "--games", "10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a checkout of DavidNHill/Minesweeper" in err[0]
