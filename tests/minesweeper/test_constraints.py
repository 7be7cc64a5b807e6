"""The constraint builder shared by the probability and end-game kernels.

:func:`~mazekit.minesweeper._kernels.constraints_kernel` is compared with a plain
Python reference (on arbitrary small views and on real positions the solver
gets stuck in), and its compiled path with its ``py_func`` path.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.minesweeper import _guess_kernels as G
from mazekit.minesweeper import _kernels as K
from mazekit.minesweeper import generate, next_move
from mazekit.minesweeper.solver import _Padded
from tests.conftest import jit_mode

Cell = tuple[int, int]
#: (variables, interior, known mines, constraints as (need, variables), constraints of each variable)
Built = tuple[list[Cell], int, int, list[tuple[int, list[Cell]]], dict[Cell, list[int]]]


def _reference(view: np.ndarray, frontier_only: bool) -> Built:
    """The variables and constraints of ``view``, written plainly (row-major order)."""
    rows, cols = view.shape

    def around(r: int, c: int) -> list[Cell]:
        return [
            (r + dr, c + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
        ]

    cells = [(r, c) for r in range(rows) for c in range(cols)]
    closed = [p for p in cells if view[p] == K.UNKNOWN]
    variables = [p for p in closed if not frontier_only or any(view[q] >= 0 for q in around(*p))]
    constraints = []
    for p in cells:
        if view[p] >= 0:
            unknown = [q for q in around(*p) if view[q] == K.UNKNOWN]
            if unknown:
                flagged = sum(view[q] == K.KNOWN_MINE for q in around(*p))
                constraints.append((int(view[p]) - flagged, sorted(unknown)))
    on: dict[Cell, list[int]] = {p: [] for p in variables}
    for c, (_, unknown) in enumerate(constraints):
        for q in unknown:
            on[q].append(c)
    known = int((view == K.KNOWN_MINE).sum())
    return variables, len(closed) - len(variables), known, constraints, on


Run = tuple[tuple[int, int, int, int], np.ndarray, np.ndarray, np.ndarray, _Padded]


def _run(kernel: object, view: np.ndarray, frontier_only: bool) -> Run:
    pp = _Padded(view)
    n = pp.know.shape[0]
    # a sentinel everywhere: the compiled and interpreted paths must write the same entries
    index = np.full((2, n), 777, np.int64)
    counts = np.full((3, n), 777, np.int64)
    links = np.full((2, n, 8), 777, np.int64)
    ret = kernel(pp.know, pp.offsets, frontier_only, index, counts, links)  # type: ignore[operator]
    return tuple(int(x) for x in ret), index, counts, links, pp  # type: ignore[return-value]


def _decode(
    ret: tuple[int, int, int, int], index: np.ndarray, counts: np.ndarray, links: np.ndarray, pp: _Padded
) -> Built:
    nv, nc, interior, known = ret
    variables = [pp.point(int(i)) for i in index[1, :nv]]
    for j, p in enumerate(variables):
        assert index[0, (p[0] + 1) * pp.width + p[1] + 1] == j
    assert (index[0] >= -1).all() and (index[0] < nv).all()
    assert int((index[0] >= 0).sum()) == nv
    constraints = [(int(counts[0, c]), sorted(variables[j] for j in links[0, c, : counts[1, c]])) for c in range(nc)]
    on = {p: [int(c) for c in links[1, j, : counts[2, j]]] for j, p in enumerate(variables)}
    return variables, interior, known, constraints, on


def _check(view: np.ndarray) -> None:
    for frontier_only in (True, False):
        expected = _reference(view, frontier_only)
        slow = _run(K.constraints_kernel.py_func, view, frontier_only)
        assert _decode(*slow) == expected
        fast = _run(K.constraints_kernel.compiled(), view, frontier_only)
        assert fast[0] == slow[0]
        for a, b in zip(fast[1:4], slow[1:4], strict=True):
            np.testing.assert_array_equal(a, b)


@st.composite
def any_views(draw: st.DrawFn) -> np.ndarray:
    """Small views with any mix of closed cells, known mines and numbers (consistent or not)."""
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 6))
    values = st.sampled_from([K.UNKNOWN, K.UNKNOWN, K.UNKNOWN, K.KNOWN_MINE, 0, 1, 1, 2, 2, 3, 4, 8])
    cells = draw(st.lists(values, min_size=rows * cols, max_size=rows * cols))
    return np.array(cells, dtype=np.int8).reshape(rows, cols)


@settings(max_examples=200, deadline=None)
@given(any_views())
def test_constraints_match_a_plain_reference(view: np.ndarray) -> None:
    _check(view)


def _open(view: np.ndarray, dens: np.ndarray, cell: Cell) -> None:
    """Open ``cell`` on ``view`` and spread from zeros."""
    rows, cols = view.shape
    todo = [cell]
    while todo:
        r, c = todo.pop()
        if view[r, c] != K.UNKNOWN:
            continue
        view[r, c] = dens[r, c]
        if dens[r, c] == 0:
            todo += [
                (r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if 0 <= r + dr < rows and 0 <= c + dc < cols
            ]


def _stuck_views(rows: int, cols: int, mines: int, seeds: range) -> list[np.ndarray]:
    """The views from which the solver must guess, along games it plays."""
    out = []
    for seed in seeds:
        board = generate(rows, cols, mines, click=(0, 0), rng=seed)
        dens = board.density()
        view = np.full(board.shape, K.UNKNOWN, np.int8)
        _open(view, dens, (0, 0))
        while (mv := next_move(view, mines)) is not None:
            if mv.guess:
                out.append(view.copy())
            if mv.kind == "flag":
                view[mv.cell] = K.KNOWN_MINE
            elif board.mines[mv.cell]:
                break
            else:
                _open(view, dens, mv.cell)
    return out


@pytest.mark.parametrize(("rows", "cols", "mines"), [(9, 9, 10), (16, 16, 40)])
def test_constraints_of_real_positions(rows: int, cols: int, mines: int) -> None:
    views = _stuck_views(rows, cols, mines, range(12))
    assert len(views) >= 5
    for view in views:
        _check(view)


def test_the_kernels_run_the_compiled_builder() -> None:
    """Compiling a kernel compiles the builder it calls, and both paths give the same answers."""
    view = np.array([[1, -1, -1], [1, -1, -1], [-1, 2, -1]], np.int8)
    pp = _Padded(view)
    n = pp.know.shape[0]
    for mode in ("never", "always"):
        with jit_mode(mode):
            before = K.probability_kernel.calls_compiled
            prob = np.empty(n)
            logz = np.zeros(2)
            K.probability_kernel.pick(n)(pp.know, pp.offsets, 3, prob, 1000, logz)
            assert K.probability_kernel.calls_compiled == before + (mode == "always")
        if mode == "never":
            slow = (prob.copy(), logz.copy())
    assert K.constraints_kernel.is_compiled
    np.testing.assert_array_equal(prob, slow[0])
    np.testing.assert_array_equal(logz, slow[1])
    out_fast, out_slow = np.zeros(2), np.zeros(2)
    assert G.endgame_kernel.compiled()(pp.know, pp.offsets, 3, 100, 10_000, out_fast) == G.endgame_kernel.py_func(
        pp.know, pp.offsets, 3, 100, 10_000, out_slow
    )
    np.testing.assert_array_equal(out_fast, out_slow)
