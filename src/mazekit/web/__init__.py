"""The playground: mazekit in the browser (``mazekit playground``).

A Starlette app (:func:`create_app`) serves one page per room (grid search,
mazes, universal escape strings, Minesweeper, Sokoban) and a JSON API under
``/api/`` that the pages use and scripts can call. The algorithms run here, in
Python; the pages draw and animate the traces they receive. Needs the ``web``
extra: ``pip install 'mazekit[web]'``.
"""

from __future__ import annotations

from .api._common import Limits
from .app import create_app

__all__ = ["Limits", "create_app"]
