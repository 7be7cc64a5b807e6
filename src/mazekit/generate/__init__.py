"""Maze generation: one module per algorithm and the :data:`GENERATORS` registry.

Every generator is called ``gen(rows, cols, *, rng=None, order=None)`` with
the maze size in cells and returns a bool ``passable`` array of shape
``(2*rows+1, 2*cols+1)``: cell ``(i, j)`` at ``(2i+1, 2j+1)``, walls between
them. ``order`` (an int32 array of that shape) receives the step at which each
pixel changed, for animations. :func:`caves` is the exception: it returns a
plain ``rows`` x ``cols`` grid (see :data:`PLAIN`). :func:`braid` and
:func:`rooms` post-process a maze; :mod:`.properties` measures one.

>>> from mazekit.generate import GENERATORS
>>> GENERATORS["backtracker"](3, 4, rng=7).shape
(7, 9)
>>> sorted(PERFECT) == sorted(set(GENERATORS) - {"caves"})
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .aldous_broder import aldous_broder
from .backtracker import backtracker
from .binary_tree import binary_tree
from .braid import braid, rooms
from .caves import caves
from .division import division
from .eller import eller
from .growing_tree import growing_tree
from .hunt_and_kill import hunt_and_kill
from .kruskal import kruskal
from .prim import prim, simplified_prim, true_prim
from .properties import is_perfect, metrics
from .sidewinder import sidewinder
from .wilson import wilson

__all__ = [
    "GENERATORS",
    "PERFECT",
    "PLAIN",
    "aldous_broder",
    "backtracker",
    "binary_tree",
    "braid",
    "caves",
    "division",
    "eller",
    "generate",
    "growing_tree",
    "hunt_and_kill",
    "is_perfect",
    "kruskal",
    "metrics",
    "prim",
    "rooms",
    "sidewinder",
    "simplified_prim",
    "true_prim",
    "wilson",
]


def _growing(mode: str) -> Callable[..., NDArray[np.bool_]]:
    def gen(rows: int, cols: int, *, rng: Any = None, order: NDArray[Any] | None = None) -> NDArray[np.bool_]:
        return growing_tree(rows, cols, rng=rng, mode=mode, order=order)  # type: ignore[arg-type]

    gen.__name__ = f"growing_tree_{mode}"
    gen.__doc__ = f"growing_tree(rows, cols, mode={mode!r}): see :func:`growing_tree`."
    return gen


#: Name -> generator; read by the CLI for its choices and by the tests.
GENERATORS: dict[str, Callable[..., NDArray[np.bool_]]] = {
    "backtracker": backtracker,
    "prim": prim,
    "simplified-prim": simplified_prim,
    "true-prim": true_prim,
    "kruskal": kruskal,
    "wilson": wilson,
    "aldous-broder": aldous_broder,
    "hunt-and-kill": hunt_and_kill,
    "growing-tree": _growing("mixed"),
    "growing-tree-newest": _growing("newest"),
    "growing-tree-random": _growing("random"),
    "eller": eller,
    "binary-tree": binary_tree,
    "sidewinder": sidewinder,
    "division": division,
    "caves": caves,
}

#: The generators whose mazes are perfect (connected, no loops).
PERFECT: frozenset[str] = frozenset(GENERATORS) - {"caves"}

#: The generators that return a plain grid of the size asked (not the cell layout).
PLAIN: frozenset[str] = frozenset({"caves"})


def generate(
    algorithm: str,
    rows: int,
    cols: int,
    *,
    rng: np.random.Generator | int | None = None,
    order: NDArray[Any] | None = None,
) -> NDArray[np.bool_]:
    """Run the generator called ``algorithm`` (a key of :data:`GENERATORS`).

    >>> generate("kruskal", 2, 2, rng=0).shape
    (5, 5)
    """
    try:
        gen = GENERATORS[algorithm]
    except KeyError:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(GENERATORS)}") from None
    if algorithm in PLAIN:
        if order is not None:
            raise ValueError(f"{algorithm} does not record a carving order")
        return gen(rows, cols, rng=rng)
    return gen(rows, cols, rng=rng, order=order)
