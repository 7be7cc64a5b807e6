"""From a search's nodes back to a solution: the pushes from the root to a node (a macro's
pushes found again), the two directions joined where they met, and the LURD string with the
player's shortest walks between pushes. The engine's replay verifies it (:mod:`..rules`).
"""

from __future__ import annotations

from collections import deque

from ..problem import Problem
from ..rules import pushes_to_lurd
from .directions import Direction, NodeArrays
from .kernels.state import C_MEET, C_SOLUTION, PUSH_MACRO_SHIFT, PUSH_MOVE_MASK, PUSH_STEPS_MASK, PUSH_STEPS_SHIFT

__all__ = ["box_path", "lurd_of", "moves_to", "solution_pushes"]


def solution_pushes(
    prob: Problem, fwd: Direction, bwd: Direction | None, winner: Direction
) -> tuple[list[tuple[int, int]], int]:
    """The solution's pushes ``(box cell, direction)`` when ``winner`` stopped on a solution: the
    forward part, then the backward part's pulls reversed; and how many pushes that backward
    part has."""
    meet = int(winner.ctr[C_MEET])
    node = int(winner.ctr[C_SOLUTION])
    fnode, bnode = (node, meet) if winner is fwd else (meet, node)
    pushes = moves_to(prob, fwd.arr, fnode) if fnode >= 0 else []
    pulls = moves_to(prob, bwd.arr, bnode, backward=True) if bnode >= 0 and bwd is not None else []  # root -> bnode
    for cell, d in reversed(pulls):
        pushes.append((cell + int(prob.off[d]), d ^ 1))
    return pushes, len(pulls)


def moves_to(prob: Problem, arrays: NodeArrays, node: int, *, backward: bool = False) -> list[tuple[int, int]]:
    """The moves ``(box cell, direction)`` from the root to ``node``: pushes, or ``backward``
    pulls (a pull in direction ``d`` takes the box from the cell to its neighbour that way)."""
    out: list[tuple[int, int]] = []
    while int(arrays.pparent[node]) >= 0:
        code = int(arrays.ppush[node])
        parent = int(arrays.pparent[node])
        if code >> PUSH_MACRO_SHIFT:
            # goal macro: find the pushes again from the parent's position
            before = {int(x) for x in arrays.pboxes[parent]}
            after = {int(x) for x in arrays.pboxes[node]}
            src = (code & PUSH_MOVE_MASK) >> 2
            moved = after - before
            dst = moved.pop() if moved else src  # the macro may bring the box back where it was
            others, was, now = before - {src}, int(arrays.pplayer[parent]), int(arrays.pplayer[node])
            if backward:  # pulls src -> dst are the pushes dst -> src played in reverse
                for cell, d in box_path(prob, others, dst, now, src, was):
                    out.append((cell + int(prob.off[d]), d ^ 1))
            else:
                out.extend(reversed(box_path(prob, others, src, was, dst, now)))
        else:
            steps = max(1, (code >> PUSH_STEPS_SHIFT) & PUSH_STEPS_MASK)
            cell, d = (code & PUSH_MOVE_MASK) >> 2, code & 3
            step = int(prob.off[d])
            out.extend((cell + s * step, d) for s in reversed(range(steps)))
        node = parent
    out.reverse()
    return out


def box_path(
    prob: Problem, others: set[int], box: int, player: int, dest: int, dest_player: int
) -> list[tuple[int, int]]:
    """Pushes ``(cell, direction)`` of one box from ``box`` to ``dest``, the player ending in ``dest_player``'s
    region (named by its smallest cell), the other boxes fixed; breadth-first."""
    start = (box, player)
    prev: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
    todo = deque([start])
    while todo:
        b, pl = todo.popleft()
        region = prob.region(others | {b}, pl)
        if b == dest and min(region) == dest_player and (b, pl) != start:
            out = []
            key = (b, pl)
            while prev[key] is not None:
                back, d = prev[key]  # type: ignore[misc]
                out.append((back[0], d))
                key = back
            out.reverse()
            return out
        for d in range(4):
            step = int(prob.off[d])
            to = b + step
            if b - step in region and prob.floor[to] and to not in others and (to, b) not in prev:
                prev[(to, b)] = ((b, pl), d)
                todo.append((to, b))
    raise AssertionError("no push path for a goal macro: the search state was inconsistent")


def lurd_of(prob: Problem, pushes: list[tuple[int, int]]) -> str:
    """The LURD string of a list of pushes ``(padded box cell, direction)`` from the start: the
    engine's :func:`~mazekit.sokoban.pushes_to_lurd` (shortest walks between pushes)."""
    level = prob.level
    return pushes_to_lurd(level, level.start, [(prob.level_cell(cell), d) for cell, d in pushes])
