"""A Sokoban solver: push-level feature-space and best-first search, compiled.

>>> from mazekit.sokoban.solver import solve
>>> solve(["#####", "#@$.#", "#####"]).lurd
'R'
"""

from __future__ import annotations

from .problem import Problem, as_problem
from .search import DEFAULT_MEMORY, SearchResult, SearchStats, Solution, search_level, solve

__all__ = ["solve", "search_level", "Solution", "SearchStats", "SearchResult", "Problem", "as_problem", "DEFAULT_MEMORY"]
