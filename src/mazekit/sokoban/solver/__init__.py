"""A Sokoban solver: push-level feature-space and best-first search, compiled.

The solver reads the engine's levels (:class:`mazekit.sokoban.Level`); parse text first.

>>> from mazekit.sokoban import parse_level
>>> from mazekit.sokoban.solver import solve
>>> solve(parse_level("#####\\n#@$.#\\n#####")).lurd
'R'
"""

from __future__ import annotations

from .optimise import Optimised, OptimiseStatus, optimise
from .problem import Problem, as_problem
from .search import (
    BACKWARD_RELEVANCE,
    DEFAULT_MEMORY,
    EXTRA,
    PORTFOLIO,
    RELEVANCE,
    STALL,
    Relays,
    Relevance,
    SearchOptions,
    SearchResult,
    SearchStats,
    Solution,
    Stall,
    portfolio_for,
    search_level,
    solve,
)

__all__ = [
    "BACKWARD_RELEVANCE",
    "DEFAULT_MEMORY",
    "EXTRA",
    "PORTFOLIO",
    "RELEVANCE",
    "STALL",
    "OptimiseStatus",
    "Optimised",
    "Problem",
    "Relays",
    "Relevance",
    "SearchOptions",
    "SearchResult",
    "SearchStats",
    "Solution",
    "Stall",
    "as_problem",
    "optimise",
    "portfolio_for",
    "search_level",
    "solve",
]
