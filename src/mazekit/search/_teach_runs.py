"""The six searches of :func:`.teach.teach`, in plain Python, recording every step: the same
visit order, parents and route as the compiled searches (checked by the tests)."""

from __future__ import annotations

import heapq
import itertools
import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..grid import Point
from ._best import HEURISTICS
from ._common import STEPS
from ._teach_model import _NEIGHBOURS, _RULES, PSEUDOCODE, STRUCTURES, Entry, Step, Walkthrough


def _fmt(x: float | None) -> str:
    if x is None:
        return "?"
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def _cells(points: Sequence[Point]) -> str:
    words = [f"({r}, {c})" for r, c in points]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class _Recorder:
    """The state every search shares, and the steps it records."""

    def __init__(self, algorithm: str, grid: NDArray[np.bool_], start: Point, goal: Point, conn: int, first: int):
        self.algorithm = algorithm
        self.grid = grid
        self.rows, self.cols = grid.shape
        self.start, self.goal, self.conn, self.first = start, goal, conn, first
        self.order = np.full(grid.shape, -1, dtype=np.int32)
        self.parent = np.full(grid.shape, -1, dtype=np.int64)
        self.g = np.full(grid.shape, np.inf)
        self.h = np.full(grid.shape, np.nan)
        self.steps: list[Step] = []
        self.found = False
        self.end: Point | None = None
        self.rule = _RULES[algorithm]
        self.reset()

    def reset(self) -> None:
        """Start a new step's lists."""
        self.added: list[Point] = []
        self.updated: list[Point] = []
        self.walls: list[Point] = []
        self.seen: list[Point] = []
        self.longer: list[Point] = []
        self.dropped: list[Point] = []
        self.lines: list[int] = []

    def neighbours(self, u: Point, ks: Sequence[int] | None = None) -> list[tuple[int, Point]]:
        """(step index, cell) of the neighbours inside the grid, in the given step order."""
        out = []
        for k in range(self.conn) if ks is None else ks:
            dr, dc = STEPS[k]
            r, c = u[0] + dr, u[1] + dc
            if 0 <= r < self.rows and 0 <= c < self.cols:
                out.append((k, (r, c)))
        return out

    def link(self, v: Point, u: Point) -> None:
        self.parent[v] = u[0] * self.cols + u[1]

    def skips(self) -> str:
        parts = []
        if self.walls:
            parts.append(f"{_cells(self.walls)} {'is a wall' if len(self.walls) == 1 else 'are walls'}")
        if self.seen:
            parts.append(f"{_cells(self.seen)} {'is' if len(self.seen) == 1 else 'are'} {self.seen_word}")
        if self.longer:
            parts.append(f"{_cells(self.longer)}: no shorter this way")
        return "; ".join(parts)

    seen_word = "seen already"

    def emit(
        self,
        cell: Point,
        *,
        head: str,
        line: int,
        entries: list[Entry],
        size: int,
        g: float | None = None,
        h: float | None = None,
        f: float | None = None,
        goal: bool = False,
        skips_first: bool = False,
        prefix: str = "",
        at: int | None = None,
    ) -> None:
        """Record the step that took ``cell`` (with the lists gathered since :meth:`reset`)."""
        at = len(self.steps) if at is None else at
        self.order[cell] = at
        text_parts = [head]
        if self.added:
            text_parts.append(f"add {_cells(self.added)}")
        if self.updated:
            text_parts.append(f"add {_cells(self.updated)} again, with a smaller g")
        if self.skips():
            text_parts.insert(0 if skips_first else len(text_parts), self.skips())
        if prefix:
            text_parts.insert(0, prefix)
        if goal:
            self.found = True
            self.end = cell
        p = int(self.parent[cell])
        self.steps.append(
            Step(
                at=at,
                cell=cell,
                parent=None if p < 0 else (p // self.cols, p % self.cols),
                g=g,
                h=h,
                f=f,
                added=tuple(self.added),
                updated=tuple(self.updated),
                walls=tuple(self.walls),
                seen=tuple(self.seen + self.longer),
                dropped=tuple(self.dropped),
                size=size,
                first=tuple(entries[: self.first]),
                line=line,
                lines=tuple(sorted(set(self.lines) | {line})),
                goal=goal,
                text="; ".join(text_parts),
            )
        )
        self.reset()

    def finish(self, tail: str) -> None:
        """After the loop: a search that ran out of cells says so in its last step."""
        if self.found or not self.steps:
            return
        last = self.steps[-1]
        extra = f"; then {tail}" if tail else ""
        self.steps[-1] = replace(last, text=f"{last.text}{extra}: nothing is left to take, no route")

    def route(self) -> NDArray[np.intp]:
        if self.end is None:
            return np.empty((0, 2), dtype=np.intp)
        cells = []
        v = self.end[0] * self.cols + self.end[1]
        while v >= 0:
            cells.append((v // self.cols, v % self.cols))
            v = int(self.parent.flat[v])
        return np.array(cells[::-1], dtype=np.intp).reshape(-1, 2)

    def goal_words(self) -> str:
        return f"the route has {len(self.route()) - 1} steps"

    def walkthrough(self) -> Walkthrough:
        return Walkthrough(
            algorithm=self.algorithm,
            code=PSEUDOCODE[self.algorithm],
            structure=STRUCTURES[self.algorithm],
            rule=self.rule + _NEIGHBOURS if self.rule == _RULES[self.algorithm] != _RULES["dfs-random"] else self.rule,
            steps=tuple(self.steps),
            found=self.found,
            path=self.route(),
            order=self.order,
            parent=self.parent,
            g=self.g,
            h=self.h,
        )


# ------------------------------------------------------------------ the searches


def _bfs(rec: _Recorder) -> None:
    """FIFO queue; a cell is seen when added; the goal test when a cell is added."""
    s, goal = rec.start, rec.goal
    queue: deque[Point] = deque([s])
    queued = 1
    rec.g[s] = 0
    if s == goal:
        rec.emit(s, head=f"{s} is the goal: stop; the route has 0 steps", line=6, entries=[], size=1, g=0, goal=True)
        return
    while queue:
        u = queue.popleft()
        reached: Point | None = None
        for _, v in rec.neighbours(u):
            if not rec.grid[v]:
                rec.walls.append(v)
                continue
            if rec.g[v] < np.inf:
                rec.seen.append(v)
                continue
            rec.g[v] = rec.g[u] + 1
            rec.link(v, u)
            rec.lines += [5, 7]
            rec.added.append(v)
            queue.append(v)
            queued += 1
            if v == goal:
                reached = v
                break
        if rec.walls or rec.seen:
            rec.lines.append(4)
        entries = [Entry(c, g=float(rec.g[c])) for c in list(queue)[: rec.first]]
        du = float(rec.g[u])
        rec.emit(u, head=f"take {_p(u)}, distance {_fmt(du)}", line=2, entries=entries, size=len(queue), g=du)
        if reached is not None:
            rec.found = True
            rec.end = reached
            entries = [Entry(c, g=float(rec.g[c])) for c in list(queue)[: rec.first]]
            words = f"{_p(reached)} is the goal, found when it was added: stop; {rec.goal_words()}"
            g_end = float(rec.g[reached])
            rec.emit(reached, head=words, line=6, entries=entries, size=len(queue), g=g_end, goal=True, at=queued - 1)
            # the cells queued but never taken out are visited too, as the compiled search counts them
            for k, v in enumerate(list(queue)[:-1]):
                rec.order[v] = queued - len(queue) + k
            return
    rec.finish("")


def _p(p: Point) -> str:
    return f"({p[0]}, {p[1]})"


def _emit_goal(rec: _Recorder, v: Point, head: str, entries: list[Entry], size: int, back: str) -> None:
    """A depth-first walk's last step: it visits the goal and stops (line 7)."""
    rec.emit(
        v,
        head=f"{head}: it is the goal, stop; {rec.goal_words()}",
        line=7,
        entries=entries,
        size=size,
        g=float(rec.g[v]),
        goal=True,
        skips_first=True,
        prefix=back,
    )


def _dfs(rec: _Recorder) -> None:
    """The recursive DFS's visiting order, with an explicit stack of (cell, next direction)."""
    rec.seen_word = "visited already"
    s, goal = rec.start, rec.goal
    rec.g[s] = 0
    stack: list[list[Any]] = [[s, 0]]

    def entries() -> list[Entry]:
        return [Entry(c, g=float(rec.g[c])) for c, _ in reversed(stack[-rec.first :] if rec.first else [])]

    if s == goal:
        rec.emit(s, head=f"visit {_p(s)}: it is the goal, stop", line=7, entries=entries(), size=1, g=0, goal=True)
        return
    rec.emit(s, head=f"visit {_p(s)}", line=0, entries=entries(), size=1, g=0)
    while stack:
        top = stack[-1]
        u, k = top
        if k == rec.conn:
            stack.pop()
            rec.dropped.append(u)
            rec.lines.append(3)
            continue
        top[1] = k + 1
        dr, dc = STEPS[k]
        r, c = u[0] + dr, u[1] + dc
        if not (0 <= r < rec.rows and 0 <= c < rec.cols):
            continue
        v = (r, c)
        if not rec.grid[v]:
            rec.walls.append(v)
            rec.lines.append(5)
            continue
        if rec.order[v] >= 0:
            rec.seen.append(v)
            rec.lines.append(5)
            continue
        rec.g[v] = rec.g[u] + 1
        rec.link(v, u)
        stack.append([v, 0])
        rec.added.append(v)
        back = _backed(rec.dropped)
        head = f"visit {_p(v)} from {_p(u)}"
        rec.added = []  # a DFS step adds the cell it visits: say it once
        if v == goal:
            rec.lines.append(6)
            rec.found, rec.end = True, v
            _emit_goal(rec, v, head, entries(), len(stack), back)
            return
        rec.lines += [6, 8]
        rec.emit(
            v, head=head, line=4, entries=entries(), size=len(stack), g=float(rec.g[v]), skips_first=True, prefix=back
        )
    rec.finish("back up to the start")


def _backed(dropped: Sequence[Point]) -> str:
    if not dropped:
        return ""
    if len(dropped) <= 3:
        return f"back up from {_cells(dropped)}"
    return f"back up from {len(dropped)} cells ({_p(dropped[0])} … {_p(dropped[-1])})"


def _random_dfs(rec: _Recorder, gen: np.random.Generator) -> None:
    """Backtracking with a random neighbour order: the same draws as the compiled search."""
    rec.seen_word = "visited already"
    s, goal = rec.start, rec.goal
    rand = gen.random(rec.rows * rec.cols + 1)
    ri = 0
    rec.g[s] = 0
    stack = [s]

    def entries() -> list[Entry]:
        return [Entry(c, g=float(rec.g[c])) for c in reversed(stack[-rec.first :] if rec.first else [])]

    if s == goal:
        rec.emit(s, head=f"visit {_p(s)}: it is the goal, stop", line=7, entries=entries(), size=1, g=0, goal=True)
        return
    rec.emit(s, head=f"visit {_p(s)}", line=0, entries=entries(), size=1, g=0)
    while stack:
        u = stack[-1]
        options = []
        for _, v in rec.neighbours(u):
            if rec.grid[v] and rec.order[v] < 0:
                options.append(v)
        if not options:
            stack.pop()
            rec.dropped.append(u)
            rec.lines.append(4)
            continue
        v = options[int(rand[ri] * len(options))]
        ri += 1
        rec.g[v] = rec.g[u] + 1
        rec.link(v, u)
        back = _backed(rec.dropped)
        head = f"visit {_p(v)} from {_p(u)}, drawn from {_cells(options)}"
        if v == goal:
            rec.found, rec.end = True, v
            rec.lines += [3, 5, 6]
            _emit_goal(rec, v, head, entries(), len(stack), back)
            return
        stack.append(v)
        rec.lines += [3, 6, 8]
        rec.emit(v, head=head, line=5, entries=entries(), size=len(stack), g=float(rec.g[v]), prefix=back)
    rec.finish("back up to the start")


def _heuristic(name: str, goal: Point) -> Callable[[Point], float]:
    """h(cell) computed as the compiled search computes it (the same floating-point steps)."""
    code = HEURISTICS[name]
    diagm2 = math.sqrt(2.0) - 2.0

    def h(v: Point) -> float:
        if code == 0:
            return 0.0
        dr, dc = abs(v[0] - goal[0]), abs(v[1] - goal[1])
        if code == 1:
            return float(dr + dc)
        if code == 2:
            return float(dr + dc) + diagm2 * min(dr, dc)
        if code == 3:
            return math.sqrt(float(dr * dr + dc * dc))
        return float(max(dr, dc))

    return h


def _head(rec: _Recorder, u: Point, mode: int) -> tuple[str, float]:
    """The words for taking ``u`` (mode 0 Dijkstra, 1 A*, 2 greedy), and its key."""
    gu, hu = float(rec.g[u]), float(rec.h[u])
    if mode == 0:
        head, f = f"take {_p(u)}, g = {_fmt(gu)}", gu
    elif mode == 2:
        head, f = f"take {_p(u)}, h = {_fmt(hu)}", hu
    else:
        f = gu + hu
        head = f"take {_p(u)}, f = {_fmt(f)} = g {_fmt(gu)} + h {_fmt(hu)}"
    if rec.dropped:
        head = f"put aside {_cells(rec.dropped)} (closed already); {head}"
    return head, f


def _take(rec: _Recorder, u: Point, mode: int, entries: list[Entry], size: int) -> bool:
    """Record the step that took ``u``; True when it is the goal (the search stops)."""
    head, f = _head(rec, u, mode)
    goal = u == rec.goal
    if goal:
        rec.found, rec.end = True, u
        head = f"{head}: the goal, stop; {rec.goal_words()}"
        line = 4 if mode == 2 else 5
    else:
        line = 2
        rec.lines.append(3 if mode == 2 else 4)
    hu = None if mode == 0 else float(rec.h[u])
    rec.emit(u, head=head, line=line, entries=entries, size=size, g=float(rec.g[u]), h=hu, f=f, goal=goal)
    return goal


def _best_first(rec: _Recorder, cost: NDArray[np.float64], heuristic: str) -> None:
    """A binary heap keyed as the compiled best-first search keys it (greedy, A*, Dijkstra)."""
    mode = {"dijkstra": 0, "astar": 1, "greedy": 2}[rec.algorithm]
    finite = cost[np.isfinite(cost)]
    hscale = float(finite.min()) if finite.size else 1.0
    base = _heuristic(heuristic, rec.goal)
    step_len = [1.0] * 4 + [math.sqrt(2)] * 4
    closed = np.zeros(rec.grid.shape, dtype=bool)
    s = rec.start
    rec.g[s] = 0.0
    if mode != 0:
        rec.h[s] = base(s) * hscale
    heap: list[tuple[float, float, int, Point, float]] = [(0.0, 0.0, 0, s, 0.0)]
    seq = itertools.count(1)  # ties go to the entry added first
    rec.seen_word = "closed already"

    def entry(item: tuple[float, float, int, Point, float]) -> Entry:
        v, gv = item[3], item[4]
        hv = float(rec.h[v])
        stale = bool(closed[v] or gv != rec.g[v])
        if mode == 0:
            return Entry(v, g=gv, f=gv, stale=stale)
        if mode == 2:
            return Entry(v, g=gv, h=hv, f=hv, stale=stale)
        return Entry(v, g=gv, h=hv, f=gv + hv, stale=stale)

    while heap:
        u = heapq.heappop(heap)[3]
        if closed[u]:
            rec.dropped.append(u)
            rec.lines.append(3)
            continue
        closed[u] = True
        if u == rec.goal:
            _take(rec, u, mode, [entry(x) for x in heapq.nsmallest(rec.first, heap)], len(heap))
            return
        gu = float(rec.g[u])
        for k, v in rec.neighbours(u):
            cv = float(cost[v])
            if not (cv < math.inf):
                rec.walls.append(v)
            elif closed[v] or (mode == 2 and rec.g[v] < math.inf):
                rec.seen.append(v)
            elif mode != 2 and not (gu + cv * step_len[k] < rec.g[v]):
                rec.longer.append(v)
            else:
                ng = gu + cv * step_len[k]
                (rec.updated if rec.g[v] < math.inf else rec.added).append(v)
                rec.g[v] = ng
                if mode != 0:  # Dijkstra has no h
                    rec.h[v] = base(v) * hscale
                rec.link(v, u)
                hv = float(rec.h[v])
                key = (ng, 0.0) if mode == 0 else (ng + hv, -ng) if mode == 1 else (hv, 0.0)
                heapq.heappush(heap, (key[0], key[1], next(seq), v, ng))
        rec.lines += _ran(rec, mode)
        _take(rec, u, mode, [entry(x) for x in heapq.nsmallest(rec.first, heap)], len(heap))
    rec.finish("")


def _ran(rec: _Recorder, mode: int) -> list[int]:
    """The skip and add lines of the pseudocode this step ran."""
    lines = []
    if rec.walls or rec.seen:
        lines.append(7 if mode != 2 else 6)
    if rec.longer:
        lines.append(8)
    if rec.added or rec.updated:
        lines += [9, 10] if mode != 2 else [7, 8]
    return lines


def _astar_unit4(rec: _Recorder) -> None:
    """A* on a unit-cost 4-connected grid with Manhattan h, as the compiled two-stack search:
    of equal f the newest entry first; vertical neighbours added last when more rows than
    columns remain to the goal."""
    s = rec.start
    closed = np.zeros(rec.grid.shape, dtype=bool)
    rec.seen_word = "closed already"
    rec.rule = (
        "the smallest f first, the newest on ties; vertical neighbours are added last when more rows "
        "than columns remain to the goal, so they come out first"
    )
    rec.g[s] = 0.0
    rec.h[s] = float(abs(s[0] - rec.goal[0]) + abs(s[1] - rec.goal[1]))
    cur: list[tuple[Point, float]] = [(s, 0.0)]
    nxt: list[tuple[Point, float]] = []

    def entries() -> list[Entry]:
        out = []
        for v, gv in [*reversed(cur), *reversed(nxt)][: rec.first]:
            hv = float(rec.h[v])
            out.append(Entry(v, g=gv, h=hv, f=gv + hv, stale=bool(closed[v] or gv != rec.g[v])))
        return out

    while True:
        while cur:
            u, _ = cur.pop()
            if closed[u]:
                rec.dropped.append(u)
                rec.lines.append(3)
                continue
            closed[u] = True
            if u != rec.goal:
                _open4(rec, u, closed, cur, nxt)
                rec.lines += _ran(rec, 1)
            if _take(rec, u, 1, entries(), len(cur) + len(nxt)):
                return
        if not nxt:
            break
        cur, nxt = nxt, []
    rec.finish("")


def _open4(
    rec: _Recorder, u: Point, closed: NDArray[np.bool_], cur: list[tuple[Point, float]], nxt: list[tuple[Point, float]]
) -> None:
    """Open ``u``'s neighbours: a neighbour closer to the goal keeps f and goes on the current
    stack, any other one adds 2 to f and goes on the next."""
    gr, gc = rec.goal
    gu = float(rec.g[u])
    vertical_last = abs(gr - u[0]) > abs(gc - u[1])
    for k, v in rec.neighbours(u, [2, 3, 0, 1] if vertical_last else [0, 1, 2, 3]):
        if not rec.grid[v]:
            rec.walls.append(v)
        elif closed[v]:
            rec.seen.append(v)
        elif rec.g[v] <= gu + 1:
            rec.longer.append(v)
        else:
            (rec.updated if rec.g[v] < math.inf else rec.added).append(v)
            rec.g[v] = gu + 1
            rec.h[v] = float(abs(v[0] - gr) + abs(v[1] - gc))
            rec.link(v, u)
            closer = (
                (k == 0 and u[0] > gr) or (k == 1 and u[0] < gr) or (k == 2 and u[1] > gc) or (k == 3 and u[1] < gc)
            )
            (cur if closer else nxt).append((v, gu + 1))
