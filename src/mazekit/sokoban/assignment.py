"""The assignment's simulator (article 5): play the moves, stop at WIN or LOSE.

The rules are the engine's (:mod:`.rules`); the outcome after each move is
decided here: WIN as soon as every box stands on a real goal, LOSE as soon as
a deadlock rule (:mod:`.deadlock`) proves the position dead, END when the moves
run out. The position is checked before the first move too, so a map that
starts won or dead prints no position at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .deadlock import Deadlocks
from .level import Level, State
from .rules import step

__all__ = ["Simulation", "simulate"]

Outcome = Literal["WIN", "LOSE", "END"]


@dataclass(frozen=True, slots=True)
class Simulation:
    """The result of :func:`simulate`.

    Attributes
    ----------
    states : tuple of State
        The position after each executed move (a blocked move repeats the position).
    outcome : str
        ``'WIN'``, ``'LOSE'`` or ``'END'``.
    reason : str
        For LOSE, the deadlock rule that fired (``'dead square'``, ``'freeze'``...).
    """

    states: tuple[State, ...]
    outcome: Outcome
    reason: str = ""


def simulate(level: Level, moves: str, *, on_move: Callable[[int, State], None] | None = None) -> Simulation:
    """Play ``moves`` (letters ``u d l r``) from the level's start, as the assignment does.

    A move into a wall, off the map or pushing a box against a wall or a box
    leaves everything in place but still counts as executed. ``on_move(i,
    state)`` is called after each executed move (the ``--show`` drawing).

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("#######\\n#@ $ .#\\n#######")
    >>> sim = simulate(lv, "rrrrr")
    >>> [s.player for s in sim.states], sim.outcome
    ([9, 10, 11], 'WIN')
    >>> simulate(lv, "u").outcome, simulate(lv, "rlr").outcome
    ('END', 'END')
    """
    dl = Deadlocks(level)
    state = level.start
    if level.is_solved(state):
        return Simulation((), "WIN")
    why = dl.check(state)
    if why:
        return Simulation((), "LOSE", why)
    states: list[State] = []
    for i, ch in enumerate(moves):
        res = step(level, state, ch)
        if res.state is not None:
            state = res.state
        states.append(state)
        if on_move is not None:
            on_move(i, state)
        if res.pushed:
            if level.is_solved(state):
                return Simulation(tuple(states), "WIN")
            why = dl.check(state)
            if why:
                return Simulation(tuple(states), "LOSE", why)
    return Simulation(tuple(states), "END")
