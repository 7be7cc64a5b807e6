"""Minesweeper: boards, the flood-fill opening, a game, no-guess boards and a solver.

>>> from mazekit.minesweeper import Board
>>> b = Board.parse("*..\\n...\\n...")
>>> print(b.render(b.open((2, 2))), end="")
#10
110
000
"""

from .board import LEVELS, Board, FirstClick, density, generate, protected_cells, three_bv, three_bv_solved
from .game import Game, State
from .noguess import generate_no_guess
from .solver import Deduction, Move, PlayResult, deduce, next_move, play, probabilities, solvable

__all__ = [
    "LEVELS",
    "Board",
    "Deduction",
    "FirstClick",
    "Game",
    "Move",
    "PlayResult",
    "State",
    "deduce",
    "density",
    "generate",
    "generate_no_guess",
    "next_move",
    "play",
    "probabilities",
    "protected_cells",
    "solvable",
    "three_bv",
    "three_bv_solved",
]
