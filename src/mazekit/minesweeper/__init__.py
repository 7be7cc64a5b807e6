"""Minesweeper: boards, the flood-fill opening, a game, no-guess boards and a solver.

>>> from mazekit.minesweeper import Board
>>> b = Board.parse("*..\\n...\\n...")
>>> print(b.render(b.open((2, 2))), end="")
#10
110
000
"""

from .board import (
    LEVELS,
    Board,
    FirstClick,
    density,
    generate,
    mine_room,
    protected_cells,
    three_bv,
    three_bv_solved,
)
from .game import Game, State, opening_order, result_line
from .hints import GuessOutlook, Hint, first_click_reason, guess_outlook, hint
from .noguess import generate_no_guess
from .solver import (
    DEFAULT,
    Deduction,
    Move,
    PlayResult,
    PossibleFlip,
    SolverOptions,
    deduce,
    next_move,
    play,
    possible_flips,
    probabilities,
    solvable,
    with_proved_flags,
)
from .text import open_text, parse_open

__all__ = [
    "DEFAULT",
    "LEVELS",
    "Board",
    "Deduction",
    "FirstClick",
    "Game",
    "GuessOutlook",
    "Hint",
    "Move",
    "PlayResult",
    "PossibleFlip",
    "SolverOptions",
    "State",
    "deduce",
    "density",
    "first_click_reason",
    "generate",
    "generate_no_guess",
    "guess_outlook",
    "hint",
    "mine_room",
    "next_move",
    "open_text",
    "opening_order",
    "parse_open",
    "play",
    "possible_flips",
    "probabilities",
    "protected_cells",
    "result_line",
    "solvable",
    "three_bv",
    "three_bv_solved",
    "with_proved_flags",
]
