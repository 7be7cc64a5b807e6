"""Helpers for the Sokoban tests: levels from XSB rows, the shared collections (skipped when absent)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from mazekit.sokoban import Level, parse_level
from mazekit.sokoban.solver import PORTFOLIO, SearchOptions
from tests.conftest import SHARED

LEVELS = SHARED / "levels"


def portfolio_with(**changes: object) -> tuple[SearchOptions, ...]:
    """The fast mode's portfolio with some options changed in every search (a misspelt name fails)."""
    return tuple(replace(opts, **changes) for opts in PORTFOLIO)  # type: ignore[arg-type]


def rows_level(rows: list[str]) -> Level:
    """The engine level of XSB rows (one string a row), read by the engine's parser."""
    return parse_level("\n".join(rows))


def shared_file(name: str) -> Path:
    path = LEVELS / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    return path


@pytest.fixture(scope="session")
def xsokoban():
    from mazekit.sokoban import parse_levels

    levels = parse_levels(shared_file("xsokoban90.xsb").read_bytes())
    with open(shared_file("xsokoban90_solutions.toml"), "rb") as fh:
        solutions = tomllib.load(fh)
    return levels, [solutions[f"Level{i:04d}"] for i in range(1, len(levels) + 1)]
