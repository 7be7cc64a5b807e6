"""The duals' cache: a child's matching, kept when the child is stored, is the one its
expansion starts from instead of solving the matching again (``Assign``)."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mazekit.sokoban import generate_level
from mazekit.sokoban.solver import PORTFOLIO, Search, SearchOptions, as_problem, directions
from mazekit.sokoban.solver.kernels.bound import (
    child_bound_kernel,
    hungarian_kernel,
    keep_duals_kernel,
    load_duals_kernel,
)
from mazekit.sokoban.solver.kernels.state import BIG, C_DUALS, C_EXPANDED, C_NODES
from mazekit.sokoban.solver.kernels.store import sort_child_kernel
from tests.conftest import jit_mode
from tests.strategies import sokoban_levels


@st.composite
def moved_boxes(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int, int]:
    """A distance table (goals x cells, -1 unreachable), sorted box cells, a box and a free cell
    to move it to."""
    nb = draw(st.integers(1, 6))
    ng = draw(st.integers(nb, nb + 2))
    ncells = draw(st.integers(nb + 1, 12))
    flat = draw(st.lists(st.integers(-1, 15), min_size=ng * ncells, max_size=ng * ncells))
    dist = np.array(flat, dtype=np.int32).reshape(ng, ncells)
    cells = np.array(sorted(draw(st.sets(st.integers(0, ncells - 1), min_size=nb, max_size=nb))), dtype=np.int64)
    i = draw(st.integers(0, nb - 1))
    to = draw(st.sampled_from([c for c in range(ncells) if c not in set(cells.tolist())]))
    return dist, cells, i, to


def _arrays(nb: int, ng: int) -> dict[str, np.ndarray]:
    z = {name: np.zeros(nb + 1, dtype=np.int64) for name in ("u", "u2", "U")}
    z.update({name: np.zeros(ng + 1, dtype=np.int64) for name in ("v", "p", "v2", "p2", "V", "P", "way", "minv")})
    z["used"] = np.zeros(ng + 1, dtype=np.uint8)
    return z


def _solve(cells: np.ndarray, dist: np.ndarray) -> int:
    a = _arrays(len(cells), dist.shape[0])
    return int(hungarian_kernel(cells, dist, a["u"], a["v"], a["p"], a["way"], a["minv"], a["used"]))


@settings(max_examples=300, deadline=None)
@given(moved_boxes())
def test_a_kept_matching_is_an_optimal_one_for_the_sorted_child(case):
    """Keep a child's matching (rows in the child's order) and load it back (rows sorted): its
    potentials are feasible and tight on the matched pairs, and every grandchild's bound from it is
    the bound a matching solved from scratch gives."""
    dist, cells, i, to = case
    nb, ng = len(cells), dist.shape[0]
    a = _arrays(nb, ng)
    work = (a["way"], a["minv"], a["used"])
    hungarian_kernel(cells, dist, a["u"], a["v"], a["p"], *work)
    child = cells.copy()
    child[i] = to
    h = child_bound_kernel(i + 1, child, dist, a["u"], a["v"], a["p"], a["u2"], a["v2"], a["p2"], *work)
    ordered = np.empty_like(child)
    r = sort_child_kernel(child, ordered, i, to)
    assert list(ordered) == sorted(child) and ordered[r] == to
    assert min(h, BIG) == min(_solve(ordered, dist), BIG)
    if h >= BIG:
        return  # never stored: the search prunes it
    cnode = np.full(4, -1, dtype=np.int64)
    cu, cv, cp = (np.zeros((4, n + 1), dtype=np.int64) for n in (nb, ng, ng))
    keep_duals_kernel(2, 9, i + 1, r + 1, a["u2"], a["v2"], a["p2"], cnode, cu, cv, cp)
    assert cnode[2] == 9
    U, V, P = a["U"], a["V"], a["P"]
    load_duals_kernel(2, cu, cv, cp, U, V, P)
    assert sorted(P[1:][P[1:] > 0].tolist()) == list(range(1, nb + 1))
    for j in range(1, ng + 1):
        for row in range(1, nb + 1):
            d = int(dist[j - 1, ordered[row - 1]])
            slack = (BIG if d < 0 else d) - U[row] - V[j]
            assert slack >= 0 and (P[j] != row or slack == 0), (j, row)
    free = [c for c in range(dist.shape[1]) if c not in set(ordered.tolist())]
    for b in range(nb):
        for c in free:
            grand = ordered.copy()
            grand[b] = c
            a2 = _arrays(nb, ng)
            got = child_bound_kernel(b + 1, grand, dist, U, V, P, a2["u2"], a2["v2"], a2["p2"], *work)
            assert min(got, BIG) == min(_solve(grand, dist), BIG), (b, c)


def _run(level, opts: SearchOptions, slots: int, cap: int):
    """A search in fixed slices with a duals' cache of ``slots`` slots: (what it did, its hits)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(directions, "DUALS_SLOTS", (slots, slots))
        search = Search(as_problem(level), opts, False, 1 << 26)
        assert all(d.assign.cnode.shape == (slots,) for d in search.directions)
    stop, winner = search.run(time.perf_counter(), None, None, 0.05, 16, cap)
    pushes = None if winner is None else search.pushes(winner)
    did = (stop, [int(d.ctr[C_NODES]) for d in search.directions], [int(d.ctr[C_EXPANDED]) for d in search.directions])
    return (did, pushes), sum(int(d.ctr[C_DUALS]) for d in search.directions)


@settings(max_examples=25, deadline=None)
@given(sokoban_levels(sides=(4, 7), border=True, wall_percent=15, max_boxes=3), st.sampled_from(PORTFOLIO))
def test_the_cache_changes_no_search(level, opts):
    """One slot (the last node stored) or many: the same nodes, expansions and solution."""
    with jit_mode("never"):
        one, _ = _run(level, opts, 1, 400)
        many, _ = _run(level, opts, 1 << 10, 400)
    assert one == many


@pytest.mark.parametrize("member", range(len(PORTFOLIO)))
def test_the_cache_changes_no_search_of_a_larger_level_and_is_used(member):
    level = generate_level(rows=14, cols=14, boxes=7, seed=2).level
    with jit_mode("always"):
        one, few = _run(level, PORTFOLIO[member], 1, 3000)
        many, hits = _run(level, PORTFOLIO[member], 1 << 12, 3000)
    assert one == many
    assert hits > few and hits > 0


def test_a_child_bound_with_more_goals_than_boxes_is_the_least():
    """Three boxes, five goals: the goal box 1 leaves kept its potential, and the one augmenting
    path from the parent's matching gave 1 where the least matching costs 0 (found by the test
    above); with more goals than boxes the child's matching is solved afresh."""
    dist = np.zeros((5, 12), dtype=np.int32)
    dist[:4, :2] = 1
    cells = np.array([0, 1, 2], dtype=np.int64)
    a = _arrays(3, 5)
    work = (a["way"], a["minv"], a["used"])
    assert hungarian_kernel(cells, dist, a["u"], a["v"], a["p"], *work) == 1
    child = np.array([3, 1, 2], dtype=np.int64)
    assert child_bound_kernel(1, child, dist, a["u"], a["v"], a["p"], a["u2"], a["v2"], a["p2"], *work) == 0
