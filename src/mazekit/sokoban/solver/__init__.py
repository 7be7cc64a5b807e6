"""A Sokoban solver: push-level feature-space and best-first search, compiled.

The solver reads the engine's levels (:class:`mazekit.sokoban.Level`); parse text first.

>>> from mazekit.sokoban import parse_level
>>> from mazekit.sokoban.solver import solve
>>> solve(parse_level("#####\\n#@$.#\\n#####")).lurd
'R'
"""

from __future__ import annotations

from ..problem import Problem, as_problem
from .driver import Search, run_search
from .optimise import Optimised, OptimiseStatus, optimise
from .options import DEFAULT_MEMORY, Relays, Relevance, SearchOptions, Stall
from .portfolio import (
    BACKWARD_RELEVANCE,
    EXTRA,
    MEMBERS,
    PORTFOLIO,
    RELAYS,
    RELEVANCE,
    SHORT,
    SHORT_LIMIT,
    STALL,
    Member,
    first_core,
    portfolio_for,
)
from .prepare import Prepared
from .results import SearchResult, SearchStats, Solution
from .search import search_level, solve

__all__ = [
    "BACKWARD_RELEVANCE",
    "DEFAULT_MEMORY",
    "EXTRA",
    "MEMBERS",
    "PORTFOLIO",
    "RELAYS",
    "RELEVANCE",
    "SHORT",
    "SHORT_LIMIT",
    "STALL",
    "Member",
    "OptimiseStatus",
    "Optimised",
    "Prepared",
    "Problem",
    "Relays",
    "Relevance",
    "Search",
    "SearchOptions",
    "SearchResult",
    "SearchStats",
    "Solution",
    "Stall",
    "as_problem",
    "first_core",
    "optimise",
    "portfolio_for",
    "run_search",
    "search_level",
    "solve",
]
