"""Minesweeper: boards, the flood-fill opening, a game, no-guess boards and a solver.

>>> from mazekit.minesweeper import Board
>>> b = Board.parse("*..\\n...\\n...")
>>> print(b.render(b.open((2, 2))), end="")
#10
110
000
"""

from .board import LEVELS, Board, FirstClick, density, generate, protected_cells, three_bv

__all__ = ["LEVELS", "Board", "FirstClick", "density", "generate", "protected_cells", "three_bv"]
