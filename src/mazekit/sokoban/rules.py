"""Moves and pushes: stepping, the player's region, legal pushes, LURD replay, undo/redo.

Moves are written in LURD notation: ``u d l r`` a step of the player, upper case
``U D L R`` a step that pushes a box. Directions are indices 0..3 into
:data:`~mazekit.sokoban.DIRECTIONS` (up, down, left, right).

The functions take a :class:`~mazekit.sokoban.Level` and an immutable
:class:`~mazekit.sokoban.State` and return new states; :class:`Game` keeps a
history on top of them for undo and redo.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ._kernels import OPPOSITE, reach_kernel, walk_kernel
from .level import DIRECTIONS, Level, State

__all__ = [
    "Game",
    "Replay",
    "Step",
    "canonical",
    "legal_pushes",
    "lurd_pushes",
    "positions",
    "push",
    "pushes_to_lurd",
    "reachable",
    "replay",
    "step",
    "walk",
]


class Step(NamedTuple):
    """The outcome of one step: the new state (None when illegal), whether it pushed, why not."""

    state: State | None
    pushed: bool
    reason: str


def _direction(d: int | str) -> int:
    if isinstance(d, str):
        k = DIRECTIONS.find(d.lower())
        if len(d) != 1 or k < 0:
            raise ValueError(f"direction must be one of u d l r (or 0..3), got {d!r}")
        return k
    if not 0 <= d < 4:
        raise ValueError(f"direction must be 0..3, got {d}")
    return int(d)


def step(level: Level, state: State, d: int | str) -> Step:
    """Move the player one step in direction ``d``, pushing a box if one is there.

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("#####\\n#@$.#\\n#####")
    >>> s = step(lv, lv.start, "r"); s.pushed, lv.is_solved(s.state)
    (True, True)
    >>> step(lv, lv.start, "u").reason
    'wall'
    """
    k = _direction(d)
    nxt = int(level.nbr[state.player, k])
    if nxt < 0:
        return Step(None, False, "wall")
    if nxt not in state.boxes:
        return Step(State(nxt, state.boxes), False, "")
    beyond = int(level.nbr[nxt, k])
    if beyond < 0:
        return Step(None, False, "box against a wall")
    if beyond in state.boxes:
        return Step(None, False, "box against a box")
    boxes = tuple(sorted(beyond if b == nxt else b for b in state.boxes))
    return Step(State(nxt, boxes), True, "")


def _blocked(level: Level, boxes: Iterable[int]) -> NDArray[np.uint8]:
    blocked = np.zeros(level.size, dtype=np.uint8)
    blocked[list(boxes)] = 1
    return blocked


def reachable(level: Level, state: State) -> NDArray[np.bool_]:
    """The cells the player can walk to without pushing, as a flat bool array.

    Reshape with ``.reshape(level.shape)`` for the 2-D picture.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#@ $.#\\n######")
    >>> np.flatnonzero(reachable(lv, lv.start)).tolist()
    [7, 8]
    """
    n = level.size
    seen = np.zeros(n, dtype=np.uint8)
    queue = np.empty(n, dtype=np.int32)
    reach_kernel.pick(n)(level.nbr, _blocked(level, state.boxes), np.int32(state.player), seen, queue)
    return seen.astype(np.bool_)


def canonical(level: Level, state: State, reach: NDArray[np.bool_] | None = None) -> State:
    """The state with the player moved to the smallest cell of its region.

    Two states with the same boxes and the player in the same region are the
    same position for a push-level search; their canonical forms are equal.
    """
    if reach is None:
        reach = reachable(level, state)
    return State(int(np.argmax(reach)), state.boxes)


def legal_pushes(level: Level, state: State, reach: NDArray[np.bool_] | None = None) -> list[tuple[int, int]]:
    """The pushes available now: ``(box cell, direction)`` pairs, boxes in order, UDLR.

    A push is legal when the player can walk to the cell behind the box and the
    cell in front of it is neither a wall nor a box.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("#####\\n#   #\\n#@$.#\\n#   #\\n#####")
    >>> legal_pushes(lv, lv.start)
    [(12, 0), (12, 1), (12, 2), (12, 3)]
    """
    if reach is None:
        reach = reachable(level, state)
    nbr = level.nbr
    boxes = set(state.boxes)
    out: list[tuple[int, int]] = []
    for b in state.boxes:
        for d in range(4):
            front = int(nbr[b, d])
            back = int(nbr[b, OPPOSITE[d]])
            if front >= 0 and back >= 0 and reach[back] and front not in boxes:
                out.append((b, d))
    return out


def push(level: Level, state: State, box: int, d: int) -> State:
    """The state after pushing the box at ``box`` in direction ``d`` (the player ends where the box was).

    The push is not checked; use :func:`legal_pushes` for the legal ones.
    """
    dest = int(level.nbr[box, d])
    return State(box, tuple(sorted(dest if b == box else b for b in state.boxes)))


def walk(level: Level, state: State, target: int) -> str | None:
    """A shortest walk (lower-case LURD, no pushes) from the player to ``target``, or None."""
    n = level.size
    pdir = np.full(n, -1, dtype=np.int8)
    queue = np.empty(n, dtype=np.int32)
    blocked = _blocked(level, state.boxes)
    if blocked[target]:
        return None
    ok = walk_kernel.pick(n)(level.nbr, blocked, np.int32(state.player), np.int32(target), pdir, queue)
    if not ok:
        return None
    out: list[str] = []
    v = target
    while v != state.player:
        d = int(pdir[v])
        out.append(DIRECTIONS[d])
        v = int(level.nbr[v, OPPOSITE[d]])
    return "".join(reversed(out))


def pushes_to_lurd(level: Level, state: State, pushes: Iterable[tuple[int, int]]) -> str:
    """The full LURD string for a sequence of ``(box cell, direction)`` pushes.

    The walks between pushes are shortest walks. Raises ValueError when a push
    is not possible.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#@ $.#\\n######")
    >>> pushes_to_lurd(lv, lv.start, [(9, 3)])
    'rR'
    """
    parts: list[str] = []
    for box, d in pushes:
        back = int(level.nbr[box, OPPOSITE[d]])
        path = walk(level, state, back) if back >= 0 else None
        front = int(level.nbr[box, d])
        if path is None or box not in state.boxes or front < 0 or front in state.boxes:
            raise ValueError(f"push of the box at {level.rc(box)} {DIRECTIONS[d]!r} is not possible")
        parts.append(path + DIRECTIONS[d].upper())
        state = push(level, state, box, d)
    return "".join(parts)


def lurd_pushes(level: Level, lurd: str, *, state: State | None = None) -> list[tuple[int, int]]:
    """The pushes ``(box cell, direction)`` of a LURD string played from the start (or ``state``):
    the inverse of :func:`pushes_to_lurd` up to the walks. Whitespace is skipped; an illegal
    move raises ValueError with :func:`replay`'s message.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#@ $.#\\n######")
    >>> lurd_pushes(lv, "rR")
    [(9, 3)]
    """
    cur = level.start if state is None else state
    out: list[tuple[int, int]] = []
    for ch in lurd:
        if ch.isspace():
            continue
        d = DIRECTIONS.find(ch.lower())
        res = step(level, cur, d) if d >= 0 and len(ch.lower()) == 1 else None
        if res is None or res.state is None or res.pushed != ch.isupper():
            raise ValueError(replay(level, lurd, state=state).error)
        if res.pushed:
            out.append((int(level.nbr[cur.player, d]), d))
        cur = res.state
    return out


@dataclass(frozen=True, slots=True)
class Replay:
    """The result of :func:`replay`.

    Attributes
    ----------
    state : State
        The position after the last legal move.
    moves, pushes : int
        Moves made (pushes included) and pushes, up to the first illegal move.
    solved : bool
        Whether ``state`` is solved.
    error : str
        '' when every move was legal, else why the move at ``error_index`` was not,
        e.g. ``"move 17 'L': wall"`` (moves counted from 1).
    error_index : int
        The 0-based index in the string of the illegal move, -1 for none.
    """

    state: State
    moves: int
    pushes: int
    solved: bool
    error: str = ""
    error_index: int = -1


def replay(level: Level, lurd: str, *, state: State | None = None, strict: bool = True) -> Replay:
    """Play a LURD string from the start (or ``state``); stop at the first illegal move.

    With ``strict`` (the default) the case must match: a lower-case letter that
    would push, or an upper-case one that does not, is illegal. Whitespace is
    skipped. A character that is not a LURD letter is an error too.

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#@ $.#\\n######")
    >>> r = replay(lv, "rR"); r.moves, r.pushes, r.solved
    (2, 1, True)
    >>> replay(lv, "rrR").error
    "move 2 'r': is a push (write 'R')"
    """
    cur = level.start if state is None else state
    moves = pushes = 0
    count = 0
    for i, ch in enumerate(lurd):
        if ch.isspace():
            continue
        count += 1
        k = DIRECTIONS.find(ch.lower())
        if k < 0 or len(ch.lower()) != 1:
            return Replay(
                cur, moves, pushes, level.is_solved(cur), f"move {count} {ch!r}: not one of u d l r U D L R", i
            )
        res = step(level, cur, k)
        if res.state is None:
            return Replay(cur, moves, pushes, level.is_solved(cur), f"move {count} {ch!r}: {res.reason}", i)
        if strict and res.pushed != ch.isupper():
            why = f"is a push (write {ch.upper()!r})" if res.pushed else f"pushes nothing (write {ch.lower()!r})"
            return Replay(cur, moves, pushes, level.is_solved(cur), f"move {count} {ch!r}: {why}", i)
        cur = res.state
        moves += 1
        pushes += res.pushed
    return Replay(cur, moves, pushes, level.is_solved(cur))


def positions(level: Level, lurd: str, *, state: State | None = None) -> list[State]:
    """The position before the first move of a LURD string and after each of its moves.

    Whitespace is skipped and a letter's case is not checked (check it with :func:`replay`
    first where it matters). Raises ``ValueError`` with :func:`replay`'s message at the first
    illegal move. The animations of a solution are drawn from these positions.

    >>> from mazekit.sokoban import parse_level
    >>> lv = parse_level("######\\n#@ $.#\\n######")
    >>> [s.player for s in positions(lv, "r R")]
    [7, 8, 9]
    """
    states = [level.start if state is None else state]
    for ch in lurd:
        if ch.isspace():
            continue
        res = step(level, states[-1], ch.lower()) if ch.lower() in DIRECTIONS and len(ch.lower()) == 1 else None
        if res is None or res.state is None:
            raise ValueError(replay(level, lurd, state=states[0], strict=False).error)
        states.append(res.state)
    return states


class Game:
    """A game in progress: the current state and its history, with undo and redo.

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> g = Game(parse_level("#######\\n#@ $ .#\\n#######"))
    >>> g.move("r"), g.move("r"), g.lurd, g.moves, g.pushes
    (True, True, 'rR', 2, 1)
    >>> g.move("u"), g.undo(), g.lurd, g.redo(), g.lurd
    (False, True, 'r', True, 'rR')
    >>> g.move("r"); g.solved
    True
    True
    """

    def __init__(self, level: Level) -> None:
        self.level = level
        self._states: list[State] = [level.start]
        self._lurd: list[str] = []
        self._redo: list[str] = []

    @property
    def state(self) -> State:
        """The current position."""
        return self._states[-1]

    @property
    def lurd(self) -> str:
        """The moves made so far, in LURD notation."""
        return "".join(self._lurd)

    @property
    def moves(self) -> int:
        """Moves made so far (pushes included)."""
        return len(self._lurd)

    @property
    def pushes(self) -> int:
        """Pushes made so far."""
        return sum(ch.isupper() for ch in self._lurd)

    @property
    def solved(self) -> bool:
        """True when every box stands on a goal."""
        return self.level.is_solved(self.state)

    def move(self, d: int | str) -> bool:
        """Step in direction ``d``; False (and nothing changes) when the step is illegal."""
        res = step(self.level, self.state, d)
        if res.state is None:
            return False
        ch = DIRECTIONS[_direction(d)]
        ch = ch.upper() if res.pushed else ch
        self._states.append(res.state)
        self._lurd.append(ch)
        if self._redo and self._redo[-1] == ch:
            self._redo.pop()
        else:
            self._redo.clear()
        return True

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self._lurd:
            return False
        self._states.pop()
        self._redo.append(self._lurd.pop())
        return True

    def redo(self) -> bool:
        """Make again the last move taken back; False when there is none."""
        if not self._redo:
            return False
        ch = self._redo.pop()
        res = step(self.level, self.state, ch.lower())
        assert res.state is not None
        self._states.append(res.state)
        self._lurd.append(ch)
        return True

    def restart(self) -> None:
        """Back to the start (the moves can be redone one by one)."""
        while self.undo():
            pass
