"""Compiled counting of the coin flips that may lie ahead: pairs of closed cells (or 2x2
squares) that no number may ever tell apart, and the look-ahead's allowance for them (see
:mod:`._kernels` for the board conventions)."""

from __future__ import annotations

import math

import numpy as np

from .._jit import njit
from ._kernels import KNOWN_MINE, UNKNOWN, probability_kernel


@njit
def _flip_cells(kind, a, width, cells):  # type: ignore[no-untyped-def]
    """The cells of a possible coin flip: ``cells[:ns]`` the closed cells that may hide
    it, ``cells[4:4 + nd]`` the cells that tell its two layouts apart. Returns ``(ns, nd)``.

    ``kind`` 0: the pair ``a, a + 1`` (told apart by the columns on either side); 1:
    the pair ``a, a + width`` (the rows above and below); 2: the square ``a, a + 1,
    a + width, a + width + 1`` with its mines on one diagonal or the other (the four
    cells diagonally beyond its corners)."""
    if kind == 0:
        cells[0] = a
        cells[1] = a + 1
        for r in range(3):
            cells[4 + r] = a - 1 + (r - 1) * width
            cells[7 + r] = a + 2 + (r - 1) * width
        return 2, 6
    if kind == 1:
        cells[0] = a
        cells[1] = a + width
        for r in range(3):
            cells[4 + r] = a - width + r - 1
            cells[7 + r] = a + 2 * width + r - 1
        return 2, 6
    cells[0] = a
    cells[1] = a + width + 1
    cells[2] = a + 1
    cells[3] = a + width
    cells[4] = a - width - 1
    cells[5] = a - width + 2
    cells[6] = a + 2 * width - 1
    cells[7] = a + 2 * width + 2
    return 4, 4


@njit
def _overfull(know, offsets, c):  # type: ignore[no-untyped-def]
    """True when a number next to ``c`` (just marked as a mine) sees more mines than it
    shows. The counting skips a number with no closed cell left beside it, so a placement
    of mines made by hand is checked here."""
    for k in range(8):
        u = c + offsets[k]
        if know[u] < 0:
            continue
        mines = 0
        for j in range(8):
            if know[u + offsets[j]] == KNOWN_MINE:
                mines += 1
        if mines > know[u]:
            return True
    return False


@njit
def _flip_chance(know, prob, offsets, width, total_mines, max_nodes, base_logz, kind, a, cells, prob2, floor):  # type: ignore[no-untyped-def]
    """The chance that the possible coin flip ``kind, a`` (see :func:`_flip_cells`) is one:
    every cell that could tell its two layouts apart is a mine, and its closed cells hold
    one layout or the other. Nothing opened later can then decide it. 0 when an open cell
    already tells them apart, and when a rough estimate (the cells taken as independent)
    puts it under ``floor``. ``cells`` and ``prob2`` are scratch; ``know`` is restored."""
    ns, nd = _flip_cells(kind, a, width, cells)
    for i in range(ns):
        if cells[i] < 0 or cells[i] >= know.shape[0] or know[cells[i]] != UNKNOWN:
            return 0.0
    half = ns // 2
    rough = 1.0
    for i in range(half):
        rough *= prob[cells[i]] * (1.0 - prob[cells[half + i]])
    for i in range(4, 4 + nd):
        x = know[cells[i]]
        if x >= 0:
            return 0.0
        if x == UNKNOWN:
            rough *= prob[cells[i]]
    if 2.0 * rough < floor:
        return 0.0
    # count the layouts with the cells around and one layout's mines placed
    for i in range(4, 4 + nd):
        if know[cells[i]] == UNKNOWN:
            know[cells[i]] = KNOWN_MINE
        else:
            cells[i] = -1
    for i in range(half):
        know[cells[i]] = KNOWN_MINE
    info = np.zeros(2, np.float64)
    bad = False
    for i in range(4 + nd):
        if (i < half or i >= 4) and cells[i] >= 0:
            bad = bad or _overfull(know, offsets, cells[i])
    st = 2 if bad else probability_kernel(know, offsets, total_mines, prob2, max_nodes, info)
    z = 0.0
    if st != 2:
        # layouts with the other cells safe: all of them, less those with a mine on the last
        z = math.exp(info[0] - base_logz) * (1.0 - prob2[cells[ns - 1]])
        if ns == 4:
            # (a square) ... less those with a mine on the first of the two, the last safe
            know[cells[2]] = KNOWN_MINE
            st = (
                2
                if _overfull(know, offsets, cells[2])
                else probability_kernel(know, offsets, total_mines, prob2, max_nodes, info)
            )
            know[cells[2]] = UNKNOWN
            if st != 2:
                z -= math.exp(info[0] - base_logz) * (1.0 - prob2[cells[3]])
    for i in range(half):
        know[cells[i]] = UNKNOWN
    for i in range(4, 4 + nd):
        if cells[i] >= 0:
            know[cells[i]] = UNKNOWN
    return min(1.0, max(0.0, 2.0 * z))


@njit
def _flips_near(c, width, anchors):  # type: ignore[no-untyped-def]
    """Every possible coin flip (``kind, a`` rows of ``anchors``, see :func:`_flip_cells`)
    that has ``c`` among its cells or among the cells that tell it apart. Returns how many."""
    m = 0
    for a in (c - 1, c):
        anchors[m, 0] = 0
        anchors[m, 1] = a
        m += 1
    for a in (c - width, c):
        anchors[m, 0] = 1
        anchors[m, 1] = a
        m += 1
    for a in (c, c - 1, c - width, c - width - 1):
        anchors[m, 0] = 2
        anchors[m, 1] = a
        m += 1
    for dr in range(-1, 2):
        for a in (c + 1 - dr * width, c - 2 - dr * width):
            anchors[m, 0] = 0
            anchors[m, 1] = a
            m += 1
        for a in (c + width - dr, c - 2 * width - dr):
            anchors[m, 0] = 1
            anchors[m, 1] = a
            m += 1
    for a in (c + width + 1, c + width - 2, c - 2 * width + 1, c - 2 * width - 2):
        anchors[m, 0] = 2
        anchors[m, 1] = a
        m += 1
    return m


@njit
def flip_risks(know, prob, offsets, width, total_mines, max_nodes, base_logz, cand, nc, weight, extra, margin, keep):  # type: ignore[no-untyped-def]
    """The look-ahead's allowance for coin flips that may lie ahead; returns the candidates' count.

    A pair of closed cells (or a 2x2 square with its mines on a diagonal) whose
    neighbours that see only some of its cells are all mines is a coin flip that must
    be taken some day. For each such possible flip near a candidate, its chance ``q``
    is counted exactly; a guess at one of its cells, or at a cell that could show
    a number telling its layouts apart, settles it now, while any other guess leaves
    it to cost ``q / 2`` later. ``keep[j]`` receives, for candidate ``j``, the product
    of ``1 - weight * q / 2`` over the flips it leaves unsettled. Up to ``extra`` cells
    of these flips join the candidates (``cand`` must have room) when the allowance
    could make up for their risk: their safety is within ``margin`` of the safest
    cell's, times ``1 - weight * q / 2``."""
    n = know.shape[0]
    pats = np.empty((24 * nc, 2), np.int64)
    anchors = np.empty((24, 2), np.int64)
    seen = np.zeros((3, n), np.bool_)
    npat = 0
    for j in range(nc):
        na = _flips_near(cand[j], width, anchors)
        for t2 in range(na):
            kind, a = anchors[t2, 0], anchors[t2, 1]
            if 0 <= a < n and not seen[kind, a]:  # an anchor off the board holds no flip
                seen[kind, a] = True
                pats[npat, 0] = kind
                pats[npat, 1] = a
                npat += 1
    cells = np.empty(10, np.int64)
    prob2 = np.empty(n, np.float64)
    qs = np.zeros(npat, np.float64)
    for t in range(npat):
        qs[t] = _flip_chance(
            know, prob, offsets, width, total_mines, max_nodes, base_logz, pats[t, 0], pats[t, 1], cells, prob2, 1e-3
        )
    if extra > 0:
        safest = 0.0
        for j in range(nc):
            safest = max(safest, 1.0 - prob[cand[j]])
        added = 0
        for t in range(npat):
            if qs[t] <= 0.0:
                continue
            ns, nd = _flip_cells(pats[t, 0], pats[t, 1], width, cells)
            for i in range(ns):
                c = cells[i]
                if added >= extra or 1.0 - prob[c] < (safest - margin) * (1.0 - weight * qs[t] / 2.0):
                    continue
                new = True
                for j in range(nc):
                    new = new and cand[j] != c
                if new:
                    cand[nc] = c
                    nc += 1
                    added += 1
    for j in range(nc):
        keep[j] = 1.0
    for t in range(npat):
        if qs[t] <= 0.0:
            continue
        ns, nd = _flip_cells(pats[t, 0], pats[t, 1], width, cells)
        for j in range(nc):
            settles = False
            for i in range(ns):
                settles = settles or cells[i] == cand[j]
            for i in range(4, 4 + nd):
                settles = settles or cells[i] == cand[j]
            if not settles:
                keep[j] *= 1.0 - weight * qs[t] / 2.0
    return nc
