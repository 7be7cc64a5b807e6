"""Deadlock detection: positions from which the boxes can never all reach goals.

Every rule is *sound*: it never calls a solvable position dead (the tests replay
reference solutions and check every position along them). A rule may miss a
deadlock; the solver only loses time then.

Rules, cheapest first:

* **dead squares** (:func:`dead_squares`): cells from which a lone box can
  never be pushed onto any goal, found by *pulling* a box backwards from every
  goal. They include the two classic special cases, kept as their own functions
  for explanation and tests: :func:`corner_squares` (two walls at right angles)
  and :func:`wall_line_squares` (a stretch along a wall, closed at both ends,
  with no goal on it).
* **2x2 blocks** (:func:`block_deadlock`): four cells in a square, each a wall or
  a box, with a box off its goal: none of those boxes can ever move.
* **freeze deadlocks** (:func:`freeze_deadlock`): a box off goal that can move
  along neither axis, because of walls, dead squares on both sides, or
  neighbouring boxes that are themselves frozen (the boxes that can never move
  again: a greatest fixed point).
* **bipartite deadlocks** (:func:`bipartite_deadlock`): no matching of the boxes
  to distinct goals such that each box could reach its goal alone.
* **dead pairs** (``Deadlocks(level, pairs=True)``): two boxes that, alone on the
  level with the player on its side, could not both be pushed onto goals (a table
  per level, built by :func:`~mazekit.sokoban.pairs.pair_table`):
  two boxes that close a pocket the player needs behind them are one. Off by
  default (the assignment's rules are the first four); the playground's board uses it,
  so that it agrees with the solver's first search.

:func:`is_deadlocked` applies them all; a :class:`Deadlocks` object keeps the
per-level tables for repeated checks (the solver's use).

The dead squares and the lone-box distances are :class:`~.problem.Problem`'s, and the freeze
test and the matching are the compiled kernels of :mod:`._deadlock_kernels`: the solver prunes
with the same ones. The rules here take levels with more boxes than goals too, which the solver
refuses. The
2x2 rule and the pair table's lookup by a level's cells are the engine's alone (the solver's
freeze test covers the first, and it looks the pairs up in its own kernel).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from ._deadlock_kernels import frozen_kernel, unmatched_kernel
from .level import Level, State
from .pairs import dead_pairs
from .problem import Problem

__all__ = [
    "Deadlocks",
    "bipartite_deadlock",
    "block_deadlock",
    "corner_squares",
    "dead_squares",
    "freeze_deadlock",
    "goal_reach",
    "is_deadlocked",
    "wall_line_squares",
]


def _board(level: Level) -> Problem:
    """The level on the compiled kernels' padded board, with its dead squares and distances
    (more boxes than goals allowed)."""
    return Problem.from_level(level, extra_boxes=True)


def _goal_reach(prob: Problem) -> NDArray[np.bool_]:
    """:func:`goal_reach` from the level's padded board."""
    out: NDArray[np.bool_] = prob.dist[:, prob.padded_cells()] >= 0
    return out


def goal_reach(level: Level) -> NDArray[np.bool_]:
    """For each goal, the cells from which a lone box can be pushed onto it.

    Returns a bool array of shape ``(goals, cells)`` (flat cells), goals in
    the order of :attr:`Level.goal_cells`: the cells whose push distance to the goal
    (:attr:`~.problem.Problem.dist`, a search of pulls from it) is known.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#@$ .#\\n######")
    >>> goal_reach(lv).reshape(-1, *lv.shape)[0, 1].astype(int).tolist()
    [0, 0, 1, 1, 1, 0]
    """
    return _goal_reach(_board(level))


def _dead_squares(prob: Problem, level: Level) -> NDArray[np.bool_]:
    """:func:`dead_squares` from the level's padded board."""
    out: NDArray[np.bool_] = ((prob.dead[prob.padded_cells()] != 0) & level.floor.ravel()).reshape(level.shape)
    return out


def dead_squares(level: Level) -> NDArray[np.bool_]:
    """Floor cells from which a lone box can reach no goal, shape ``(R, C)``.

    A box is pulled backwards from each goal (:attr:`~.problem.Problem.dead`, the cells
    with no push distance to any goal): every cell a pulled box reaches is live; the
    rest of the floor is dead.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("#####\\n#@  #\\n#$ .#\\n#####")
    >>> dead_squares(lv).astype(int).tolist()
    [[0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 1, 0, 0, 0], [0, 0, 0, 0, 0]]
    """
    return _dead_squares(_board(level), level)


def corner_squares(level: Level) -> NDArray[np.bool_]:
    """Floor cells, not goals, with a wall (or the map edge) above or below *and* left or right.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("#####\\n#@  #\\n#$ .#\\n#####")
    >>> np.argwhere(corner_squares(lv)).tolist()
    [[1, 1], [1, 3], [2, 1]]
    """
    nbr = level.nbr
    vert = (nbr[:, 0] < 0) | (nbr[:, 1] < 0)
    horiz = (nbr[:, 2] < 0) | (nbr[:, 3] < 0)
    out = vert & horiz & level.floor.ravel() & ~level.goals.ravel()
    return out.reshape(level.shape)


def wall_line_squares(level: Level) -> NDArray[np.bool_]:
    """Floor cells on a stretch along a wall, closed at both ends, with no goal on it.

    A box there can only slide along the wall and never leave it. For each
    cell and each side, the stretch is followed both ways while the wall on
    that side continues; it must end against walls at both ends.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("#######\\n#@    #\\n# $ . #\\n#######")
    >>> wall_line_squares(lv)[1].astype(int).tolist()
    [0, 1, 1, 1, 1, 1, 0]
    """
    nbr = level.nbr
    floor = level.floor.ravel()
    goals = level.goals.ravel()
    n = level.size
    out = np.zeros(n, dtype=np.bool_)
    # (side of the wall, the two directions along it)
    for side, (a, b) in ((0, (2, 3)), (1, (2, 3)), (2, (0, 1)), (3, (0, 1))):
        done = np.zeros(n, dtype=np.bool_)
        for u in range(n):
            if done[u] or not floor[u] or nbr[u, side] >= 0:
                continue
            # walk to the start of the stretch in direction a, then collect it towards b
            s = u
            while nbr[s, a] >= 0 and nbr[nbr[s, a], side] < 0:
                s = int(nbr[s, a])
            closed_a = nbr[s, a] < 0
            stretch = [s]
            while nbr[stretch[-1], b] >= 0 and nbr[nbr[stretch[-1], b], side] < 0:
                stretch.append(int(nbr[stretch[-1], b]))
            closed_b = nbr[stretch[-1], b] < 0
            done[stretch] = True
            if closed_a and closed_b and not goals[stretch].any():
                out[stretch] = True
    return (out & floor).reshape(level.shape)


def block_deadlock(level: Level, state: State) -> bool:
    """True when some 2x2 square is all walls and boxes with a box off its goal.

    Cells outside the map count as walls. No box of such a square can ever
    move: each has a wall or a box beside it along both axes.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#@   #\\n# $$ #\\n# $$ #\\n#....#\\n######")
    >>> block_deadlock(lv, lv.start)
    True
    """
    rows, cols = level.shape
    walls, goals = level.walls.ravel().tolist(), level.goals.ravel().tolist()
    return bool(_block(state.boxes, set(state.boxes), walls, goals, rows, cols))


def _block(
    check: Iterable[int], boxes: set[int], walls: list[bool], goals: list[bool], rows: int, cols: int
) -> tuple[int, ...]:
    """The 2x2 rule for the squares around each box of ``check`` (plain lists: fast in Python):
    the boxes of the first dead square found, or () when there is none."""
    for b in check:
        r, c = divmod(b, cols)
        for dr in (-1, 1):
            rr = r + dr
            row_out = not 0 <= rr < rows
            for dc in (-1, 1):
                cc = c + dc
                col_out = not 0 <= cc < cols
                off_goal = not goals[b]
                solid = True
                found = [b]
                for out, u in ((row_out, b + dr * cols), (col_out, b + dc), (row_out or col_out, b + dr * cols + dc)):
                    if out or walls[u]:
                        continue
                    if u not in boxes:
                        solid = False
                        break
                    found.append(u)
                    off_goal = off_goal or not goals[u]
                if solid and off_goal:
                    return tuple(sorted(found))
    return ()


def freeze_deadlock(
    level: Level,
    state: State,
    *,
    boxes: Iterable[int] | None = None,
    dead: NDArray[np.bool_] | None = None,
) -> bool:
    """True when a box off its goal is frozen: it can move along neither axis.

    A box is frozen when on each axis a wall, a frozen box, or dead squares on both
    sides hold it (the boxes that can never move again: the greatest fixed point of
    :func:`~._deadlock_kernels.frozen_kernel`, which the solver prunes with).

    Parameters
    ----------
    level, state : Level, State
        The position.
    boxes : iterable of int, optional
        Only check these boxes (a solver checks the box it just pushed);
        default every box off its goal.
    dead : ndarray of bool, optional
        Flat dead squares (default the level's, :func:`dead_squares`).

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#   .#\\n#@$$ #\\n#####.\\n")
    >>> freeze_deadlock(lv, lv.start)
    True
    """
    prob = _board(level)
    pdead = prob.dead
    if dead is not None:
        pdead = np.zeros_like(prob.dead)
        pdead[prob.padded_cells()] = np.asarray(dead).ravel()
    return _frozen_box(prob, pdead, state, state.boxes if boxes is None else tuple(boxes)) is not None


def _frozen_box(prob: Problem, dead: NDArray[np.uint8], state: State, roots: Iterable[int]) -> int | None:
    """The first box of ``roots`` (level cells) that is off its goal and frozen, or None, on the
    level's padded board ``prob`` with the (padded) dead squares ``dead``."""
    cells = prob.padded_cells()[np.asarray(state.boxes, dtype=np.int64)]
    boxat = np.full(prob.floor.shape[0], -1, dtype=np.int32)
    boxat[cells] = np.arange(len(cells), dtype=np.int32)
    fz = np.zeros(max(len(cells), 1), dtype=np.uint8)
    if not frozen_kernel.pick(prob.floor.shape[0])(cells, boxat, prob.floor, dead, prob.goalm, prob.off, fz):
        return None
    index = {b: j for j, b in enumerate(state.boxes)}
    for b in roots:
        j = index.get(int(b), -1)
        if j >= 0 and fz[j] and not prob.goalm[cells[j]]:
            return int(b)
    return None


def _reach_bits(reach: NDArray[np.bool_]) -> NDArray[np.uint64]:
    """``reach`` (goals, cells) as :func:`~._deadlock_kernels.unmatched_kernel` reads it: goal
    ``g`` reachable from ``cell`` is bit ``g % 64`` of ``bits[cell, g // 64]``."""
    ng, n = reach.shape
    bits = np.zeros((n, max(1, (ng + 63) // 64)), dtype=np.uint64)
    for g in range(ng):
        bits[reach[g], g >> 6] |= np.uint64(1) << np.uint64(g & 63)
    return bits


def _hall_violator(bits: NDArray[np.uint64], n_goals: int, boxes: tuple[int, ...]) -> tuple[int, ...]:
    """Boxes (their cells, sorted) that between them reach fewer goals than they are, or () when
    every box can have a goal of its own (``bits``: :func:`_reach_bits`), by the maximum matching
    of :func:`~._deadlock_kernels.unmatched_kernel`, the solver's."""
    n, m = len(boxes), max(n_goals, 1)
    rows = np.asarray(boxes, dtype=np.int64).reshape(-1)
    by_goal, via, seen = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.uint8)
    by_box, todo = np.zeros(max(n, 1), dtype=np.int64), np.zeros(max(n, 1), dtype=np.int64)
    k = unmatched_kernel.pick(n * m)(rows, bits, n_goals, by_goal, by_box, via, seen, todo)
    return tuple(sorted(int(boxes[i]) for i in todo[:k]))


def bipartite_deadlock(level: Level, state: State, *, reach: NDArray[np.bool_] | None = None) -> bool:
    """True when the boxes cannot be matched to distinct goals each could reach alone.

    ``reach`` is :func:`goal_reach` of the level (computed when not given).

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("#######\\n#.$ $.#\\n#  @  #\\n#######")
    >>> bipartite_deadlock(lv, lv.start)
    False
    >>> lv = parse_level("########\\n#.$  $ #\\n#  @   #\\n#     .#\\n########")
    >>> bipartite_deadlock(lv, lv.start)
    True
    """
    if reach is None:
        reach = goal_reach(level)
    return bool(_hall_violator(_reach_bits(reach), reach.shape[0], state.boxes))


class Deadlocks:
    """The deadlock tables of one level, for repeated checks.

    Attributes
    ----------
    dead : ndarray of bool, shape (cells,)
        The flat dead squares.
    reach : ndarray of bool, shape (goals, cells)
        :func:`goal_reach`.

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("#####\\n#@  #\\n#$ .#\\n#####")
    >>> Deadlocks(lv).check(lv.start)
    'dead square'
    >>> pocket = parse_level("#######\\n#.$  .#\\n#$ #  #\\n#  @  #\\n#######")
    >>> Deadlocks(pocket).check(pocket.start), Deadlocks(pocket, pairs=True).check(pocket.start)
    ('', 'dead pair')
    """

    __slots__ = ("level", "dead", "reach", "goals", "_board", "_bits", "_dead", "_walls", "_goals", "_pairs")

    def __init__(self, level: Level, *, pairs: bool = False) -> None:
        self.level = level
        self._board = _board(level)
        self.dead = _dead_squares(self._board, level).ravel()
        self.reach = _goal_reach(self._board)
        self.goals = level.goals.ravel()
        self._bits = _reach_bits(self.reach)
        self._dead: list[bool] = self.dead.tolist()
        self._walls: list[bool] = level.walls.ravel().tolist()
        self._goals: list[bool] = self.goals.tolist()
        self._pairs = _pair_table(level) if pairs else None

    def check(self, state: State, *, pushed: int | None = None) -> str:
        """The name of the first rule that finds ``state`` dead, or '' when none does.

        With ``pushed`` (the cell of the box just pushed), the dead-square rule
        looks at that box only, the 2x2 rule at the squares around it and the
        freeze rule at it and its neighbouring boxes: the cheap incremental check
        of a search, for a position whose parent was alive.
        Names: ``'dead square'``, ``'2x2 block'``, ``'freeze'``, ``'bipartite'``, and with
        ``pairs``, ``'dead pair'`` (every pair; with ``pushed``, the pairs it is in).
        """
        return self.why(state, pushed=pushed)[0]

    def why(self, state: State, *, pushed: int | None = None) -> tuple[str, tuple[int, ...]]:
        """:meth:`check`'s rule and the boxes it names (flat cells, sorted): those on dead squares,
        the 2x2 square's, the frozen box, the dead pair; for ``'bipartite'``, boxes that together
        can reach one goal fewer than there are of them; none when alive.

        >>> from mazekit.sokoban import parse_level
        >>> lv = parse_level("######\\n#@   #\\n# $$ #\\n# $$ #\\n#....#\\n######")
        >>> Deadlocks(lv).why(lv.start)
        ('2x2 block', (14, 15, 20, 21))
        """
        boxes = state.boxes if pushed is None else (int(pushed),)
        dead = self._dead
        stuck = tuple(b for b in boxes if dead[b])
        if stuck:
            return "dead square", stuck
        rows, cols = self.level.shape
        square = _block(boxes, set(state.boxes), self._walls, self._goals, rows, cols)
        if square:
            return "2x2 block", square
        roots = boxes
        if pushed is not None:
            # the push may freeze a neighbour (the pushed box itself may be on a goal)
            near = set(state.boxes)
            roots = boxes + tuple(int(v) for v in self.level.nbr[int(pushed)] if v in near)
        frozen = _frozen_box(self._board, self._board.dead, state, roots)
        if frozen is not None:
            return "freeze", (frozen,)
        short = _hall_violator(self._bits, len(self.level.goal_cells), state.boxes)
        if short:
            return "bipartite", short
        pair = None if self._pairs is None else self._pairs.dead(state, pushed)
        if pair is not None:
            return "dead pair", pair
        return "", ()


class _PairTable:
    """The solver's dead-pairs table of a level, indexed by the level's cells."""

    __slots__ = ("alive", "lidx", "fidx")

    def __init__(self, alive: NDArray[np.uint8], lidx: NDArray[np.int32], fidx: NDArray[np.int32]) -> None:
        self.alive, self.lidx, self.fidx = alive, lidx, fidx

    def dead(self, state: State, pushed: int | None) -> tuple[int, int] | None:
        """Two boxes of ``state`` (one of them ``pushed``, if given) that are a dead pair, or None."""
        f = int(self.fidx[state.player])
        cells = np.asarray(state.boxes, dtype=np.int64)
        idx = self.lidx[cells]
        keep = idx >= 0  # a box on a dead square is the dead-square rule's
        cells, idx = cells[keep], idx[keep]
        if f < 0 or len(idx) < 2:
            return None
        rows = cells if pushed is None else np.array([int(pushed)], dtype=np.int64)
        ridx = self.lidx[rows]
        if ridx.min() < 0:
            return None
        ok = self.alive[ridx[:, None], idx[None, :], f]
        ok[rows[:, None] == cells[None, :]] = 1  # a box with itself
        bad = np.argwhere(ok == 0)
        if len(bad) == 0:
            return None
        a, b = int(rows[bad[0][0]]), int(cells[bad[0][1]])
        return (a, b) if a < b else (b, a)


def _pair_table(level: Level) -> _PairTable | None:
    """The level's dead-pairs table on its own cells (None: too large, or too few live cells);
    the solver builds it and keeps it for the last levels seen."""
    prob = Problem.from_level(level)
    table = dead_pairs(prob)
    if table is None:
        return None
    alive, lidx, fidx = table
    rows, cols = level.shape
    cells = np.array([prob.cell(r, c) for r in range(rows) for c in range(cols)], dtype=np.int64)
    return _PairTable(alive, lidx[cells], fidx[cells])


_CACHE: weakref.WeakKeyDictionary[Level, Deadlocks] = weakref.WeakKeyDictionary()


def is_deadlocked(level: Level, state: State) -> bool:
    """True when some rule proves that ``state`` can never be solved.

    The tables are computed once per level and kept while the level lives.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#@$ .#\\n######")
    >>> is_deadlocked(lv, lv.start)
    False
    """
    dl = _CACHE.get(level)
    if dl is None:
        dl = _CACHE[level] = Deadlocks(level)
    return dl.check(state) != ""
