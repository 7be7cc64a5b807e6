# mypy: allow-untyped-defs, allow-untyped-calls
"""Compiled loops of the maze generators that work row by row or region by region (Eller's,
the binary tree, the sidewinder, recursive division), and of the cave and braid passes.

The grid conventions are those of :mod:`._kernels` (cells at odd pixels, random numbers drawn
by the wrapper so that a seed gives the same maze compiled or not).
"""

from __future__ import annotations

import numpy as np

from .._jit import njit


@njit
def eller_kernel(h, w, rand, out, order):
    """Eller's algorithm, one row at a time with one row of set labels.

    ``rand`` holds at least 3*h*w floats.
    """
    W = 2 * w + 1
    rec = order.shape[0] > 0
    step = 0
    ri = 0
    label = np.empty(w, dtype=np.int64)
    count = np.zeros(h * w + w, dtype=np.int64)
    down = np.zeros(w, dtype=np.uint8)
    anydown = np.zeros(h * w + w, dtype=np.uint8)
    nxt_label = 0
    for j in range(w):
        label[j] = nxt_label
        nxt_label += 1
    for i in range(h):
        last = i == h - 1
        row = (2 * i + 1) * W
        for j in range(w):
            p = row + 2 * j + 1
            out[p] = 1
            if rec:
                order[p] = step
            step += 1
        # join neighbours in the row
        for j in range(w - 1):
            if label[j] == label[j + 1]:
                continue
            join = last
            if not last:
                join = rand[ri] < 0.5
                ri += 1
            if join:
                old = label[j + 1]
                new = label[j]
                for k in range(w):
                    if label[k] == old:
                        label[k] = new
                p = row + 2 * j + 2
                out[p] = 1
                if rec:
                    order[p] = step
                step += 1
        if last:
            break
        # at least one way down per set
        for j in range(w):
            count[label[j]] += 1
            d = rand[ri] < 0.5
            ri += 1
            down[j] = 1 if d else 0
            if d:
                anydown[label[j]] = 1
        for j in range(w):
            s = label[j]
            if anydown[s] == 0 and count[s] > 0:
                # choose one member of the set at random
                t = int(rand[ri] * count[s])
                ri += 1
                for k in range(w):
                    if label[k] == s:
                        if t == 0:
                            down[k] = 1
                            break
                        t -= 1
                anydown[s] = 1
        for j in range(w):
            count[label[j]] = 0
            anydown[label[j]] = 0
        for j in range(w):
            if down[j] == 1:
                p = row + W + 2 * j + 1
                out[p] = 1
                if rec:
                    order[p] = step
                step += 1
            else:
                label[j] = nxt_label
                nxt_label += 1
    return ri


@njit
def binary_tree_kernel(h, w, rand, out, order):
    """Binary tree: every cell opens north or east (the top row runs east, the
    right column runs north)."""
    W = 2 * w + 1
    rec = order.shape[0] > 0
    step = 0
    for i in range(h):
        for j in range(w):
            p = (2 * i + 1) * W + 2 * j + 1
            out[p] = 1
            if rec:
                order[p] = step
            step += 1
            north = i > 0
            east = j < w - 1
            q = -1
            if north and east:
                q = p - W if rand[i * w + j] < 0.5 else p + 1
            elif north:
                q = p - W
            elif east:
                q = p + 1
            if q >= 0:
                out[q] = 1
                if rec:
                    order[q] = step
                step += 1
    return step


@njit
def sidewinder_kernel(h, w, rand, out, order):
    """Sidewinder: each row is cut into runs going east; every run opens north
    from one of its cells, chosen at random. The top row is one run.

    ``rand`` holds at least 2*h*w floats.
    """
    W = 2 * w + 1
    rec = order.shape[0] > 0
    step = 0
    ri = 0
    for i in range(h):
        run_start = 0
        for j in range(w):
            p = (2 * i + 1) * W + 2 * j + 1
            out[p] = 1
            if rec:
                order[p] = step
            step += 1
            at_east = j == w - 1
            close = at_east
            if i > 0 and not at_east:
                close = rand[ri] < 0.5
                ri += 1
            if i > 0 and close:
                k = run_start + int(rand[ri] * (j - run_start + 1))
                ri += 1
                q = (2 * i) * W + 2 * k + 1
                out[q] = 1
                if rec:
                    order[q] = step
                step += 1
                run_start = j + 1
            elif not at_east:
                out[p + 1] = 1
                if rec:
                    order[p + 1] = step
                step += 1
    return ri


@njit
def division_kernel(h, w, rand, out, order):
    """Recursive division with an explicit stack of chambers.

    ``out`` starts with the whole inside open; each division draws a wall
    across a chamber with one gap. ``order`` gets the step at which each wall
    pixel was placed. ``rand`` holds at least 3*h*w floats.
    """
    W = 2 * w + 1
    rec = order.shape[0] > 0
    step = 0
    ri = 0
    cap = 2 * h * w + 4
    sr = np.empty(cap, dtype=np.int64)
    sc = np.empty(cap, dtype=np.int64)
    sh = np.empty(cap, dtype=np.int64)
    sw = np.empty(cap, dtype=np.int64)
    sr[0] = 0
    sc[0] = 0
    sh[0] = h
    sw[0] = w
    sp = 1
    while sp > 0:
        sp -= 1
        r0 = sr[sp]
        c0 = sc[sp]
        rh = sh[sp]
        rw = sw[sp]
        if rh < 2 or rw < 2:
            continue
        if rw < rh:
            horizontal = True
        elif rw > rh:
            horizontal = False
        else:
            horizontal = rand[ri] < 0.5
            ri += 1
        if horizontal:
            k = 1 + int(rand[ri] * (rh - 1))
            g = int(rand[ri + 1] * rw)
            ri += 2
            prow = 2 * (r0 + k) * W
            for pc in range(2 * c0, 2 * (c0 + rw) + 1):
                if pc == 2 * (c0 + g) + 1:
                    continue
                if out[prow + pc] == 1:
                    out[prow + pc] = 0
                    if rec:
                        order[prow + pc] = step
                    step += 1
            sr[sp] = r0
            sc[sp] = c0
            sh[sp] = k
            sw[sp] = rw
            sr[sp + 1] = r0 + k
            sc[sp + 1] = c0
            sh[sp + 1] = rh - k
            sw[sp + 1] = rw
        else:
            k = 1 + int(rand[ri] * (rw - 1))
            g = int(rand[ri + 1] * rh)
            ri += 2
            pcol = 2 * (c0 + k)
            for pr in range(2 * r0, 2 * (r0 + rh) + 1):
                if pr == 2 * (r0 + g) + 1:
                    continue
                if out[pr * W + pcol] == 1:
                    out[pr * W + pcol] = 0
                    if rec:
                        order[pr * W + pcol] = step
                    step += 1
            sr[sp] = r0
            sc[sp] = c0
            sh[sp] = rh
            sw[sp] = k
            sr[sp + 1] = r0
            sc[sp + 1] = c0 + k
            sh[sp + 1] = rh
            sw[sp + 1] = rw - k
        sp += 2
    return ri


@njit
def cave_step_kernel(src, dst, rows, cols, birth, survive):
    """One cellular-automaton step on a flattened rows x cols grid (1 = rock).

    A rock cell stays rock with at least ``survive`` rock neighbours out of 8; an
    open cell turns to rock with at least ``birth``. Outside the grid is rock.
    """
    for r in range(rows):
        for c in range(cols):
            k = 0
            for dr in range(-1, 2):
                rr = r + dr
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    cc = c + dc
                    if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                        k += 1
                    elif src[rr * cols + cc] == 1:
                        k += 1
            i = r * cols + c
            if src[i] == 1:
                dst[i] = 1 if k >= survive else 0
            else:
                dst[i] = 1 if k >= birth else 0


@njit
def braid_kernel(h, w, dead, k, rand, out):
    """Remove up to ``k`` dead ends, visiting the cells of ``dead`` in order.

    A cell still a dead end opens a wall to a neighbour, preferring a neighbour
    that is itself a dead end (which removes two at once). Returns the number of
    dead ends removed.
    """
    W = 2 * w + 1
    cand = np.empty(4, dtype=np.int64)
    pref = np.empty(4, dtype=np.int64)
    removed = 0
    ri = 0
    for t in range(dead.shape[0]):
        if removed >= k:
            break
        u = dead[t]
        ui = u // w
        uj = u - ui * w
        pu = (2 * ui + 1) * W + 2 * uj + 1
        deg = out[pu - W] + out[pu + W] + out[pu - 1] + out[pu + 1]
        if deg != 1:
            continue
        m = 0
        mp = 0
        for d in range(4):
            if d == 0:
                if ui == 0:
                    continue
                q = pu - 2 * W
            elif d == 1:
                if ui == h - 1:
                    continue
                q = pu + 2 * W
            elif d == 2:
                if uj == 0:
                    continue
                q = pu - 2
            else:
                if uj == w - 1:
                    continue
                q = pu + 2
            if out[(pu + q) // 2] == 1:
                continue
            cand[m] = q
            m += 1
            if out[q - W] + out[q + W] + out[q - 1] + out[q + 1] == 1:
                pref[mp] = q
                mp += 1
        if m == 0:
            continue
        if mp > 0:
            q = pref[int(rand[ri] * mp)]
            removed += 2
        else:
            q = cand[int(rand[ri] * m)]
            removed += 1
        ri += 1
        out[(pu + q) // 2] = 1
    return removed
