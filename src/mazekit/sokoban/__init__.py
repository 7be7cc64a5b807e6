"""Sokoban: levels, moves and pushes, level formats, deadlock detection.

The engine every Sokoban feature stands on (the assignment's simulator, replay,
the terminal game, pictures, the solver). A :class:`Level` holds the static
arrays, a :class:`State` the player and the boxes as flat cell indices; the
functions of :mod:`.rules` step from state to state.

>>> from mazekit.sokoban import parse_level, replay
>>> lv = parse_level('''
... #######
... #@ $ .#
... #######''')
>>> r = replay(lv, "rR"); r.moves, r.pushes, r.solved
(2, 1, False)
>>> replay(lv, "rRR").solved
True
"""

from typing import Any

from .assignment import Simulation, simulate
from .deadlock import (
    Deadlocks,
    bipartite_deadlock,
    block_deadlock,
    corner_squares,
    dead_squares,
    freeze_deadlock,
    goal_reach,
    is_deadlocked,
    wall_line_squares,
)
from .formats import (
    Assignment,
    fake_target,
    format_assignment_map,
    format_level,
    format_levels,
    from_xy,
    level_index,
    load_levels,
    parse_assignment,
    parse_level,
    parse_levels,
    to_xy,
)
from .generate import Generated, generate_level, generate_levels
from .level import DIRECTIONS, STEPS, Level, State
from .rules import (
    Game,
    Replay,
    Step,
    canonical,
    legal_pushes,
    lurd_pushes,
    positions,
    push,
    pushes_to_lurd,
    reachable,
    replay,
    step,
    walk,
)


def __getattr__(name: str) -> Any:
    """``solve`` is the solver's (:func:`mazekit.sokoban.solver.solve`), loaded on first use: the
    engine does not need the solver, and importing it does not load it."""
    if name == "solve":
        from .solver import solve

        return solve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DIRECTIONS",
    "STEPS",
    "Assignment",
    "Deadlocks",
    "Game",
    "Generated",
    "Level",
    "Replay",
    "Simulation",
    "State",
    "Step",
    "bipartite_deadlock",
    "block_deadlock",
    "canonical",
    "corner_squares",
    "dead_squares",
    "fake_target",
    "format_assignment_map",
    "format_level",
    "format_levels",
    "freeze_deadlock",
    "from_xy",
    "generate_level",
    "generate_levels",
    "goal_reach",
    "is_deadlocked",
    "legal_pushes",
    "level_index",
    "load_levels",
    "lurd_pushes",
    "parse_assignment",
    "parse_level",
    "parse_levels",
    "positions",
    "push",
    "pushes_to_lurd",
    "reachable",
    "replay",
    "simulate",
    "solve",
    "step",
    "to_xy",
    "walk",
    "wall_line_squares",
]
