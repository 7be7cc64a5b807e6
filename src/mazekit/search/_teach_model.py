"""The step-by-step record's vocabulary: the algorithms, their pseudocode and data structures,
and the records of one step and of a whole walk-through (see :mod:`.teach`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..grid import Point

#: The largest grid (in cells) :func:`teach` records: the panes are for grids of up to 60 x 60.
MAX_CELLS = 3600
#: The algorithms :func:`teach` knows (the keys of :data:`mazekit.search.SOLVERS`).
ALGORITHMS = ("bfs", "dfs", "dfs-random", "greedy", "astar", "dijkstra")

_BFS = (
    "queue ← [start]; mark start seen",
    "while queue is not empty:",
    "  u ← take the front of queue",
    "  for each neighbour v of u:",
    "    if v is a wall or seen: skip v",
    "    mark v seen; parent[v] ← u",
    "    if v = goal: return route to v",
    "    add v at the back of queue",
    "return no route",
)
_DFS = (
    "visit start; stack ← [start]",
    "while stack is not empty:",
    "  u ← the top of stack",
    "  if all of u's neighbours tried: pop u",
    "  v ← the next neighbour of u",
    "  if v is a wall or visited: skip v",
    "  visit v; parent[v] ← u",
    "  if v = goal: return route to v",
    "  push v",
    "return no route",
)
_RANDOM_DFS = (
    "visit start; stack ← [start]",
    "while stack is not empty:",
    "  u ← the top of stack",
    "  options ← u's free unvisited neighbours",
    "  if options is empty: pop u",
    "  v ← a random cell of options",
    "  visit v; parent[v] ← u",
    "  if v = goal: return stack + [v]",
    "  push v",
    "return no route",
)
_GREEDY = (
    "open ← {start}; g[start] ← 0",
    "while open is not empty:",
    "  u ← take the smallest h from open",
    "  close u",
    "  if u = goal: return route to u",
    "  for each neighbour v of u:",
    "    if v is a wall, closed or open: skip v",
    "    g[v] ← g[u] + cost(v); parent[v] ← u",
    "    add v to open with h(v)",
    "return no route",
)
_ASTAR = (
    "open ← {start}; g[start] ← 0",
    "while open is not empty:",
    "  u ← take the smallest f = g + h from open",
    "  if u is closed: skip it (an old entry)",
    "  close u",
    "  if u = goal: return route to u",
    "  for each neighbour v of u:",
    "    if v is a wall or closed: skip v",
    "    if g[u] + cost(v) ≥ g[v]: skip v",
    "    g[v] ← g[u] + cost(v); parent[v] ← u",
    "    add v to open, f = g[v] + h(v)",
    "return no route",
)
_DIJKSTRA = tuple(
    line.replace("the smallest f = g + h", "the smallest g").replace("open, f = g[v] + h(v)", "open with g[v]")
    for line in _ASTAR
)

#: Textbook pseudocode of each algorithm, the lines that :attr:`Step.line` counts from 0.
PSEUDOCODE: dict[str, tuple[str, ...]] = {
    "bfs": _BFS,
    "dfs": _DFS,
    "dfs-random": _RANDOM_DFS,
    "greedy": _GREEDY,
    "astar": _ASTAR,
    "dijkstra": _DIJKSTRA,
}
#: What each algorithm keeps its open list in.
STRUCTURES = {
    "bfs": "queue",
    "dfs": "stack",
    "dfs-random": "stack",
    "greedy": "priority queue",
    "astar": "priority queue",
    "dijkstra": "priority queue",
}


_RULES = {
    "bfs": "first in, first out",
    "dfs": "last in, first out",
    "dfs-random": "last in, first out; the next cell drawn at random",
    "greedy": "the smallest h first, the oldest on ties",
    "astar": "the smallest f first, then the larger g, then the oldest",
    "dijkstra": "the smallest g first, the oldest on ties",
}
_NEIGHBOURS = "; neighbours up, down, left, right (then the diagonals)"


@dataclass(frozen=True, slots=True)
class Entry:
    """An entry of the open list: its cell and, where they apply, g, h and f (None elsewhere).

    ``stale``: an older entry of a cell that is closed now or was added again with a smaller g
    (A* and Dijkstra leave it in the list and skip it when it comes out).
    """

    cell: Point
    g: float | None = None
    h: float | None = None
    f: float | None = None
    stale: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """One step: a cell taken out of the open list (closed, or entered by a DFS).

    Attributes
    ----------
    at : int
        The cell's place in the visiting order (``Walkthrough.order``): the step's index,
        except for BFS's goal, which takes the place it was added at (a BFS numbers cells
        as they join the queue and stops when the goal joins it).
    cell, parent : (r, c), and (r, c) or None
        The cell taken out and the cell it was reached from.
    g, h, f : float or None
        Its cost from the start, heuristic and key, where the algorithm has them.
    added : tuple of (r, c)
        Cells added to the open list in this step (in the order added).
    updated : tuple of (r, c)
        Cells already open that were added again with a smaller g (A*, Dijkstra).
    walls : tuple of (r, c)
        Neighbours skipped because they are walls.
    seen : tuple of (r, c)
        Neighbours skipped because they were seen, closed, or no shorter this way.
    dropped : tuple of (r, c)
        Cells taken out and put aside before this step's cell: stale entries (A*,
        Dijkstra) or the cells a DFS backed up from.
    size : int
        Entries in the open list after the step.
    first : tuple of Entry
        Its first entries, in the order they will be taken out.
    line : int
        The line of :data:`PSEUDOCODE` this step is about (0-based).
    lines : tuple of int
        Every line the step ran.
    goal : bool
        Whether this cell is the goal (the search stops).
    text : str
        The step in one line of words.
    """

    at: int
    cell: Point
    parent: Point | None
    g: float | None
    h: float | None
    f: float | None
    added: tuple[Point, ...]
    updated: tuple[Point, ...]
    walls: tuple[Point, ...]
    seen: tuple[Point, ...]
    dropped: tuple[Point, ...]
    size: int
    first: tuple[Entry, ...]
    line: int
    lines: tuple[int, ...]
    goal: bool
    text: str


@dataclass(frozen=True, slots=True)
class Walkthrough:
    """A search as :func:`teach` recorded it.

    Attributes
    ----------
    algorithm : str
        One of :data:`ALGORITHMS`.
    code : tuple of str
        Its pseudocode (:data:`PSEUDOCODE`).
    structure : str
        "queue", "stack" or "priority queue".
    rule : str
        Which entry comes out next, and the neighbour order, in words.
    steps : tuple of Step
        One per visited cell, in visiting order.
    found : bool
        Whether the goal was reached.
    path : ndarray of int, shape (n, 2)
        The route (empty when there is none).
    order : ndarray of int32, shape (R, C)
        The step at which each cell was visited, -1 never (as ``SearchResult.order``).
    parent : ndarray of int64, shape (R, C)
        The flat index of each cell's parent, -1 for none (as ``SearchResult.parent``).
    g : ndarray of float64, shape (R, C)
        Cost from the start of every cell reached (inf elsewhere); a DFS's depth.
    h : ndarray of float64, shape (R, C)
        The heuristic of every cell reached, where the algorithm has one (nan elsewhere).
    """

    algorithm: str
    code: tuple[str, ...]
    structure: str
    rule: str
    steps: tuple[Step, ...]
    found: bool
    path: NDArray[np.intp]
    order: NDArray[np.int32]
    parent: NDArray[np.int64]
    g: NDArray[np.float64]
    h: NDArray[np.float64]
