"""Helpers for the Sokoban tests: levels from XSB rows, the shared collections (skipped when absent)."""

from __future__ import annotations

import tomllib
from collections import deque
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mazekit.sokoban import Level, State, legal_pushes, parse_level, push
from mazekit.sokoban.rules import canonical
from mazekit.sokoban.solver import PORTFOLIO, SearchOptions
from tests.conftest import SHARED

LEVELS = SHARED / "levels"


def free_regions(floor: np.ndarray, boxes: set[int], off: np.ndarray) -> list[set[int]]:
    """The 4-connected regions of free floor (floor without the cells in ``boxes``), as sets of
    cells: a plain reference for the solver's floods."""
    seen: set[int] = set()
    out = []
    for x0 in np.flatnonzero(floor):
        x0 = int(x0)
        if x0 in boxes or x0 in seen:
            continue
        part, todo = {x0}, [x0]
        while todo:
            x = todo.pop()
            for d in off:
                y = x + int(d)
                if floor[y] and y not in boxes and y not in part:
                    part.add(y)
                    todo.append(y)
        seen |= part
        out.append(part)
    return out


def portfolio_with(**changes: object) -> tuple[SearchOptions, ...]:
    """The fast mode's portfolio with some options changed in every search (a misspelt name fails)."""
    return tuple(replace(opts, **changes) for opts in PORTFOLIO)  # type: ignore[arg-type]


def rows_level(rows: list[str]) -> Level:
    """The engine level of XSB rows (one string a row), read by the engine's parser."""
    return parse_level("\n".join(rows))


def brute_force_path(level: Level, start: State | None = None) -> list[tuple[int, int]] | None:
    """Fewest pushes ``(box cell, direction)`` that solve ``level`` from ``start`` (default the
    level's): breadth-first search over canonical positions with the engine's rules; None if none."""
    first = canonical(level, level.start if start is None else start)
    parent: dict[State, tuple[State, tuple[int, int]] | None] = {first: None}
    todo = deque([first])
    while todo:
        s = todo.popleft()
        if level.is_solved(s):
            out = []
            while (link := parent[s]) is not None:
                s, move = link
                out.append(move)
            return out[::-1]
        for b, d in legal_pushes(level, s):
            t = canonical(level, push(level, s, b, d))
            if t not in parent:
                parent[t] = (s, (b, d))
                todo.append(t)
    return None


def brute_force_pushes(level: Level) -> int | None:
    """The length of :func:`brute_force_path` (None when the level cannot be solved)."""
    path = brute_force_path(level)
    return None if path is None else len(path)


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
