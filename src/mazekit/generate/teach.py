"""Maze generators step by step, for teaching: the stack, the list of walls, the sets.

:func:`teach_generator` runs a plain-Python copy of the core loop of the backtracker, Prim
(the list-of-walls version), Kruskal, Wilson or Eller, drawing the same random numbers as the
compiled generator, so it carves the same maze in the same order (the tests check both on
generated sizes and seeds). It records one step per cell that joins the maze (per event for
Eller): the cell, the wall opened, what the algorithm's data structure holds then, the line of
:data:`PSEUDOCODE` and a line of narration. The playground's maze room animates it.

Cells are named in cell coordinates ``(i, j)`` (row, column of cells); a cell is the grid
square ``(2i + 1, 2j + 1)``, the wall between two cells the square between them.

>>> walk = teach_generator("backtracker", 2, 2, rng=1)
>>> for step in walk.steps:
...     print(step.text)
start at cell (0, 1); push it
carve from (0, 1) to (0, 0), drawn from (1, 1) and (0, 0); push (0, 0)
carve from (0, 0) to (1, 0), drawn from (1, 0); push (1, 0)
carve from (1, 0) to (1, 1), drawn from (1, 1); push (1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._common import RNG, cells_shape, seed32

__all__ = ["ALGORITHMS", "MAX_CELLS", "PSEUDOCODE", "STRUCTURES", "CarveStep", "Carving", "teach_generator"]

#: The largest maze (in cells) :func:`teach_generator` records: 30 x 30.
MAX_CELLS = 900
#: The generators it knows (keys of :data:`mazekit.generate.GENERATORS`).
ALGORITHMS = ("backtracker", "prim", "kruskal", "wilson", "eller")

#: Textbook pseudocode of each generator's core loop; :attr:`CarveStep.line` counts from 0.
PSEUDOCODE: dict[str, tuple[str, ...]] = {
    "backtracker": (
        "pick a random start cell; visit it",
        "stack ← [start]",
        "while stack is not empty:",
        "  u ← the top of stack",
        "  options ← u's unvisited neighbours",
        "  if options is empty: pop u; continue",
        "  v ← a random cell of options",
        "  carve the wall between u and v; visit v",
        "  push v",
    ),
    "prim": (
        "pick a random start cell; put it in the maze",
        "walls ← the walls round start",
        "while walls is not empty:",
        "  take a random wall (a, b) out of walls",
        "  if b is in the maze already: skip it",
        "  carve the wall; put b in the maze",
        "  add the walls between b and the cells out",
    ),
    "kruskal": (
        "every cell is a set of its own",
        "edges ← every wall between two cells, shuffled",
        "for each wall (a, b) of edges:",
        "  if a and b are in the same set: skip it",
        "  carve the wall",
        "  join the sets of a and b",
        "  stop when one set is left",
    ),
    "wilson": (
        "put a random cell in the maze",
        "for each cell s, in a random order:",
        "  if s is in the maze: skip it",
        "  walk at random from s until the maze;",
        "    on each cell, remember the way it left",
        "  from s, follow the remembered ways:",
        "    carve each cell and wall (loops are gone)",
    ),
    "eller": (
        "for each row:",
        "  give each cell with no set a new set",
        "  for each two neighbours in other sets:",
        "    join them at random (always, last row)",
        "  if the last row: stop",
        "  each set goes down at one cell at least,",
        "    at others at random",
        "  cells that did not go down lose their set",
    ),
}
#: What each generator's data-structure pane shows.
STRUCTURES = {
    "backtracker": "stack",
    "prim": "list of walls",
    "kruskal": "shuffled walls and sets",
    "wilson": "random walk",
    "eller": "the row's sets",
}


@dataclass(frozen=True, slots=True)
class CarveStep:
    """One step of a generator.

    Attributes
    ----------
    at : int
        Its last square's place in the carving order (the compiled generator's ``order``).
    cell : (i, j) or None
        The cell that joined the maze (cell coordinates); None for a step that joins none.
    wall : (r, c) or None
        The grid square opened between two cells, if any.
    size : int
        Entries in the data structure after the step.
    first : tuple of str
        Its first entries, in words (the next out first).
    marks : tuple of (r, c)
        Grid squares the structure holds (the stack, the walls listed, the walk; for Kruskal the
        next walls only), at most 400.
    line : int
        The line of :data:`PSEUDOCODE` the step is about; ``lines`` every line it ran.
    text : str
        The step in one line of words.
    """

    at: int
    cell: tuple[int, int] | None
    wall: tuple[int, int] | None
    size: int
    first: tuple[str, ...]
    marks: tuple[tuple[int, int], ...]
    line: int
    lines: tuple[int, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Carving:
    """A generator's run as :func:`teach_generator` recorded it: ``steps``, and the ``maze`` and
    carving ``order`` the compiled generator returns for the same seed."""

    algorithm: str
    code: tuple[str, ...]
    structure: str
    steps: tuple[CarveStep, ...]
    maze: NDArray[np.bool_]
    order: NDArray[np.int32]


def teach_generator(
    algorithm: str, rows: int, cols: int, *, rng: RNG = None, first: int = 8, max_cells: int = MAX_CELLS
) -> Carving:
    """Record a maze generator's core loop step by step.

    Parameters
    ----------
    algorithm : str
        One of :data:`ALGORITHMS`.
    rows, cols : int
        The maze's size in cells, at most ``max_cells`` cells.
    rng : numpy Generator, int or None
        As the generator takes it: the same seed gives the same maze.
    first : int
        How many entries of the data structure each step keeps.

    Returns
    -------
    Carving

    Raises
    ------
    ValueError
        An unknown generator, a bad size, or a maze larger than ``max_cells`` cells.

    Notes
    -----
    Each copy draws its random numbers as the compiled generator does and makes the same
    choices, so ``Carving.maze`` and ``Carving.order`` equal the generator's. O(N) steps for
    N cells, each keeping at most ``first`` entries and 400 marks.

    Examples
    --------
    >>> from mazekit.generate import kruskal
    >>> walk = teach_generator("kruskal", 3, 4, rng=2)
    >>> bool((walk.maze == kruskal(3, 4, rng=2)).all()), len(walk.steps)
    (True, 11)
    """
    if algorithm not in PSEUDOCODE:
        raise ValueError(f"unknown generator {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    h, w = cells_shape(rows, cols)
    if h * w > max_cells:
        raise ValueError(f"teach_generator records mazes of at most {max_cells} cells; this one has {h}x{w}")
    rec = _Carver(algorithm, h, w, max(0, int(first)))
    gen = np.random.default_rng(rng)
    {"backtracker": _backtracker, "prim": _prim, "kruskal": _kruskal, "wilson": _wilson, "eller": _eller}[algorithm](
        rec, gen
    )
    return Carving(
        algorithm=algorithm,
        code=PSEUDOCODE[algorithm],
        structure=STRUCTURES[algorithm],
        steps=tuple(rec.steps),
        maze=rec.out.astype(bool),
        order=rec.order,
    )


# ------------------------------------------------------------------ recording


def _c(u: int, w: int) -> str:
    return f"({u // w}, {u % w})"


def _cells(us: Sequence[int], w: int) -> str:
    words = [_c(u, w) for u in us]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class _Carver:
    """The grid being carved, its order, and the steps recorded."""

    def __init__(self, algorithm: str, h: int, w: int, first: int) -> None:
        self.algorithm, self.h, self.w, self.first = algorithm, h, w, first
        self.out = np.zeros((2 * h + 1, 2 * w + 1), dtype=np.uint8)
        self.order = np.full(self.out.shape, -1, dtype=np.int32)
        self.step = 0
        self.steps: list[CarveStep] = []
        self.lines: list[int] = []

    def px(self, u: int) -> tuple[int, int]:
        return (2 * (u // self.w) + 1, 2 * (u % self.w) + 1)

    def between(self, a: int, b: int) -> tuple[int, int]:
        (ra, ca), (rb, cb) = self.px(a), self.px(b)
        return ((ra + rb) // 2, (ca + cb) // 2)

    def carve(self, square: tuple[int, int], *, always: bool = True) -> None:
        """Open a square at the next step of the order (``always=False``: only if still a wall)."""
        if always or self.out[square] == 0:
            self.out[square] = 1
            self.order[square] = self.step
            self.step += 1

    def neighbours(self, u: int) -> list[int]:
        """The cells next to ``u``: up, down, left, right (the kernels' order)."""
        i, j = divmod(u, self.w)
        out = []
        if i > 0:
            out.append(u - self.w)
        if i < self.h - 1:
            out.append(u + self.w)
        if j > 0:
            out.append(u - 1)
        if j < self.w - 1:
            out.append(u + 1)
        return out

    def emit(
        self,
        cell: int | None,
        wall: tuple[int, int] | None,
        *,
        line: int,
        text: str,
        entries: Sequence[str],
        size: int,
        marks: Sequence[tuple[int, int]] = (),
    ) -> None:
        self.steps.append(
            CarveStep(
                at=self.step - 1,
                cell=None if cell is None else divmod(cell, self.w),
                wall=wall,
                size=size,
                first=tuple(entries[: self.first]),
                marks=tuple(marks[:400]),
                line=line,
                lines=tuple(sorted(set(self.lines) | {line})),
                text=text,
            )
        )
        self.lines = []


def _backtracker(rec: _Carver, gen: np.random.Generator) -> None:
    h, w = rec.h, rec.w
    start = int(gen.integers(h * w))
    rand = gen.random(2 * h * w)
    visited = np.zeros(h * w, dtype=bool)
    visited[start] = True
    rec.carve(rec.px(start))
    stack = [start]

    def show() -> dict[str, Any]:
        top = stack[::-1]
        return {"entries": [_c(u, w) for u in top], "size": len(stack), "marks": [rec.px(u) for u in top]}

    rec.emit(start, None, line=0, text=f"start at cell {_c(start, w)}; push it", **show())
    ri, popped = 0, []
    while stack:
        u = stack[-1]
        options = [v for v in rec.neighbours(u) if not visited[v]]
        if not options:
            popped.append(stack.pop())
            rec.lines.append(5)
            continue
        v = options[int(rand[ri] * len(options))]
        ri += 1
        visited[v] = True
        wall = rec.between(u, v)
        rec.carve(wall)
        rec.carve(rec.px(v))
        stack.append(v)
        back = f"back up from {_cells(popped, w) if len(popped) <= 3 else f'{len(popped)} cells'}; " if popped else ""
        popped = []
        rec.lines += [3, 4, 7, 8]
        text = f"{back}carve from {_c(u, w)} to {_c(v, w)}, drawn from {_cells(options, w)}; push {_c(v, w)}"
        rec.emit(v, wall, line=6, text=text, **show())


def _prim(rec: _Carver, gen: np.random.Generator) -> None:
    """The list of walls, taken at random and removed by swapping in the last one."""
    h, w = rec.h, rec.w
    start = int(gen.integers(h * w))
    rand = gen.random(4 * h * w + 4)
    inside = np.zeros(h * w, dtype=bool)
    walls: list[tuple[int, int]] = []
    ri, u = 0, start
    inside[u] = True
    rec.carve(rec.px(u))

    def show() -> dict[str, Any]:
        entries = [f"{_c(a, w)}→{_c(b, w)}" for a, b in walls]
        return {"entries": entries, "size": len(walls), "marks": [rec.between(a, b) for a, b in walls]}

    added = [v for v in rec.neighbours(u) if not inside[v]]
    walls += [(u, v) for v in added]
    rec.emit(u, None, line=0, text=f"start at cell {_c(u, w)}; list its {len(added)} walls", **show())
    while True:
        skipped = []
        while walls:
            listed = len(walls)
            k = int(rand[ri] * listed)
            ri += 1
            a, b = walls[k]
            walls[k] = walls[-1]
            walls.pop()
            if not inside[b]:
                break
            skipped.append(b)
            rec.lines.append(4)
        else:
            return
        inside[b] = True
        wall = rec.between(a, b)
        rec.carve(wall)
        rec.carve(rec.px(b))
        added = [v for v in rec.neighbours(b) if not inside[v]]
        walls += [(b, v) for v in added]
        skip = f"drop {len(skipped)} wall{'s' if len(skipped) > 1 else ''} into the maze; " if skipped else ""
        text = (
            f"{skip}take the wall {_c(a, w)}→{_c(b, w)} (at random, 1 of {listed}); "
            f"carve it, {_c(b, w)} joins; list {len(added)} new wall{'' if len(added) == 1 else 's'}"
        )
        rec.lines += [3, 5, 6]
        rec.emit(b, wall, line=3, text=text, **show())


def _kruskal(rec: _Carver, gen: np.random.Generator) -> None:
    """Shuffled walls; union-find with union by size (the kernel's, for the same sets)."""
    h, w = rec.h, rec.w
    n = h * w
    cells = np.arange(n, dtype=np.int64)
    right = cells[cells % w < w - 1]
    down = cells[: n - w] + n
    edges = [int(e) for e in gen.permutation(np.concatenate([right, down]))]
    parent = list(range(n))
    size = [1] * n

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    def ends(e: int) -> tuple[int, int]:
        return (e, e + 1) if e < n else (e - n, e - n + w)

    joined, skipped = 0, 0
    for k, e in enumerate(edges):
        a, b = ends(e)
        ra, rb = find(a), find(b)
        if ra == rb:
            skipped += 1
            rec.lines.append(3)
            continue
        sa, sb = size[ra], size[rb]
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        wall = rec.between(a, b)
        for square in (rec.px(a), wall, rec.px(b)):
            rec.carve(square, always=False)
        joined += 1
        rest = edges[k + 1 :]
        skip = f"skip {skipped} wall{'s' if skipped > 1 else ''} inside a set; " if skipped else ""
        skipped = 0
        text = (
            f"{skip}wall {_c(a, w)}|{_c(b, w)}: sets of {sa} and {sb} cell{'s' if sb > 1 else ''}, "
            f"carve it and join them; {n - joined} set{'s' if n - joined > 1 else ''} left"
        )
        entries = [f"{_c(x, w)}|{_c(y, w)}" for x, y in map(ends, rest)]
        rec.lines += [4, 5]
        rec.emit(
            b,
            wall,
            line=2,
            text=text,
            entries=entries,
            size=len(rest),
            marks=[rec.between(*ends(x)) for x in rest[: rec.first]],
        )
        if joined == n - 1:
            rec.steps[-1] = _with_text(rec.steps[-1], rec.steps[-1].text + ": one set, stop")
            break
    if n == 1:
        rec.out[1, 1] = 1
        rec.order[1, 1] = 0
        rec.step = 1
        rec.emit(0, None, line=0, text="one cell: it is the maze", entries=[], size=0)


def _with_text(step: CarveStep, text: str) -> CarveStep:
    from dataclasses import replace

    return replace(step, text=text)


def _xorshift32(x: int) -> int:
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


def _wilson(rec: _Carver, gen: np.random.Generator) -> None:
    """Loop-erased random walks, with the kernel's xorshift32 draws."""
    h, w = rec.h, rec.w
    n = h * w
    cells = [int(c) for c in gen.permutation(n)]
    x = seed32(gen)
    inside = np.zeros(n, dtype=bool)
    nxt = [0] * n
    inside[cells[0]] = True
    rec.carve(rec.px(cells[0]))
    rec.emit(cells[0], None, line=0, text=f"cell {_c(cells[0], w)} is the maze to begin with", entries=[], size=0)
    for s in cells[1:]:
        if inside[s]:
            continue
        u, moves = s, 0
        while not inside[u]:
            cand = rec.neighbours(u)
            x = _xorshift32(x)
            v = cand[(x * len(cand)) >> 32]
            nxt[u] = v
            u, moves = v, moves + 1
        path, u = [], s
        while not inside[u]:
            path.append(u)
            u = nxt[u]
        path.append(u)  # the maze cell the walk ended on
        for k, u in enumerate(path[:-1]):
            inside[u] = True
            v = nxt[u]
            rec.carve(rec.px(u))
            wall = rec.between(u, v)
            rec.carve(wall)
            rest = path[k + 1 :]
            if k == 0:
                loops = moves - (len(path) - 1)
                erased = f", {loops} of them in loops, erased" if loops else ""
                text = (
                    f"walk from {_c(s, w)}: {moves} move{'s' if moves > 1 else ''} to the maze at "
                    f"{_c(path[-1], w)}{erased}; carve {_c(u, w)} and its wall to {_c(v, w)}"
                )
                rec.lines += [1, 3, 4, 5, 6]
            else:
                text = f"carve {_c(u, w)} and its wall to {_c(v, w)}"
                rec.lines.append(6)
            marks = [rec.px(c) for c in rest]
            rec.emit(
                u, wall, line=6 if k else 3, text=text, entries=[_c(c, w) for c in rest], size=len(rest), marks=marks
            )


def _eller(rec: _Carver, gen: np.random.Generator) -> None:
    """Row by row, one row of set labels, the kernel's coin flips."""
    h, w = rec.h, rec.w
    rand = gen.random(3 * h * w + 4)
    ri = 0
    label = list(range(w))
    nxt_label = w

    def sets(i: int) -> dict[str, Any]:
        groups: dict[int, list[int]] = {}
        for j in range(w):
            groups.setdefault(label[j], []).append(j)
        entries = [
            f"set {lab}: column{'s' if len(js) > 1 else ''} {', '.join(map(str, js))}" for lab, js in groups.items()
        ]
        marks = [(2 * i + 1, 2 * j + 1) for j in range(w)]
        return {"entries": entries, "size": len(groups), "marks": marks}

    for i in range(h):
        last = i == h - 1
        for j in range(w):
            rec.carve((2 * i + 1, 2 * j + 1))
        fresh = "" if i == 0 else " (the cells below a way down keep its set)"
        rec.emit(i * w, None, line=1, text=f"row {i}: every cell without a set gets a new one{fresh}", **sets(i))
        for j in range(w - 1):
            if label[j] == label[j + 1]:
                rec.lines.append(2)
                continue
            join = True if last else bool(rand[ri] < 0.5)
            if not last:
                ri += 1
            if not join:
                continue
            old, new = label[j + 1], label[j]
            label[:] = [new if lab == old else lab for lab in label]
            wall = (2 * i + 1, 2 * j + 2)
            rec.carve(wall)
            why = "the last row joins every set" if last else "the coin says join"
            rec.lines += [2, 3]
            rec.emit(i * w + j + 1, wall, line=3, text=f"join ({i}, {j}) and ({i}, {j + 1}): {why}", **sets(i))
        if last:
            rec.steps[-1] = _with_text(rec.steps[-1], rec.steps[-1].text + "; the last row: stop")
            return
        down, ri = _ways_down(label, rand, ri)
        for j in range(w):
            if down[j]:
                wall = (2 * i + 2, 2 * j + 1)
                rec.carve(wall)
                rec.lines += [5, 6]
                rec.emit(
                    (i + 1) * w + j, wall, line=5, text=f"({i}, {j}) goes down: its set reaches row {i + 1}", **sets(i)
                )
            else:
                label[j] = nxt_label
                nxt_label += 1
                rec.lines.append(7)


def _ways_down(label: list[int], rand: NDArray[np.float64], ri: int) -> tuple[list[bool], int]:
    """Which cells of the row go down: a coin each, then one cell drawn at random in each set
    that has none (the kernel's draws); and the next random number's index."""
    w = len(label)
    down = [False] * w
    count: dict[int, int] = {}
    anydown: set[int] = set()
    for j in range(w):
        count[label[j]] = count.get(label[j], 0) + 1
        down[j] = bool(rand[ri] < 0.5)
        ri += 1
        if down[j]:
            anydown.add(label[j])
    for j in range(w):
        s = label[j]
        if s not in anydown:
            t = int(rand[ri] * count[s])
            ri += 1
            members = [k for k in range(w) if label[k] == s]
            down[members[t]] = True
            anydown.add(s)
    return down, ri
