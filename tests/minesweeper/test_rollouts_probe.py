"""The counterfactual-guess probe (benchmarks/probes/mines_rollouts.py) plays the benchmark's games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mazekit.minesweeper.bench import play_games

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("rule", ["safe", "zero"])
def test_the_solvers_pick_goes_on_as_the_benchmarks_game(monkeypatch: pytest.MonkeyPatch, rule: str) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks" / "probes"))
    from mines_rollouts import PICK, PROB, RULES, WON, collect, paired

    games = 12
    decisions = collect(rule, games, 7, 0.05, 6, 2)
    assert decisions
    outcomes = np.zeros(games, np.int8)
    play_games("expert", rule, 0, games, 7, outcomes=outcomes)  # type: ignore[arg-type]
    for game, share, a in decisions:
        assert 0.0 < share < 1.0
        assert (a[:, PICK] == 1).sum() == 1
        # the game goes on with the solver's pick: its playout is the benchmark's game
        assert a[a[:, PICK] == 1][0, WON] == outcomes[game]
        assert (a[:, PROB] >= 0).all() and (a[:, PROB] <= 1).all()
    # the look-ahead's own score picks what the solver picks unless a tie or a dead cell differs
    mean, half, differ = paired(decisions, RULES["one-ply score (dead cells not passed over)"])
    assert differ <= len(decisions) // 4
