"""Compiled play: a whole game to the end by the solver's policy, and the no-guess boards
(see :mod:`._kernels` for the board conventions)."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from .._jit import njit
from ._guess_kernels import choose_kernel, endgame_kernel, fifty_kernel, lookahead_kernel, region_kernel
from ._kernels import BORDER, KNOWN_MINE, MINE, UNKNOWN, probability_kernel, reveal_kernel, simple_kernel


class Field(NamedTuple):
    """A game as the playing kernels see it, padded and flat: ``dens`` the truth (each cell's
    number, ``MINE`` or ``BORDER``), ``know`` what the player sees (changed as it plays),
    ``offsets`` the eight neighbours, ``width`` the padded width, ``height`` the rows,
    ``total_mines`` the board's mines."""

    dens: Any
    know: Any
    offsets: Any
    width: int
    height: int
    total_mines: int


class Policy(NamedTuple):
    """How :func:`solve_kernel` goes on when nothing is proved. ``guess`` False: it stops.
    Else a guess is :func:`lookahead_kernel`'s (``look`` candidates within ``margin`` of the
    safest) or, with ``look`` 0 or when the probabilities took more than ``look_nodes``
    search nodes (a position too costly to look ahead from), :func:`choose_kernel`'s (``tol``).
    When at most ``endgame`` layouts remain, :func:`endgame_kernel` searches for the best
    guess exhaustively (within ``endgame_work`` positions; if it gives up, the look-ahead
    guesses). ``max_nodes`` bounds the probabilities' search. ``skip_dead``: the look-ahead
    passes over dead cells (see :func:`lookahead_kernel`); ``fifty``: a forced coin flip
    (:func:`fifty_kernel`) is taken before any other guess. ``deep`` > 0: a two-ply
    look-ahead over ``deep`` candidates at the second ply, from positions whose
    probabilities took at most ``deep_nodes`` search nodes (small frontiers). ``region``: before
    the look-ahead, an isolated region of at most ``region`` cells whose layouts hold one mine
    count is played by exhaustive search (:func:`region_kernel`); 0: never. ``flips``, ``flip_extra``:
    the look-ahead's allowance for coin flips to come (see :func:`~._flip_kernels.flip_risks`; 0: none)."""

    guess: bool
    tol: float
    max_nodes: int
    look: int
    margin: float
    look_nodes: int
    endgame: int
    endgame_work: int
    skip_dead: bool
    fifty: bool
    deep: int
    deep_nodes: int
    region: int
    flips: float
    flip_extra: int


class Work(NamedTuple):
    """Scratch of :func:`solve_kernel`, one entry a padded cell: ``queue`` (floods), ``safe``
    (proved safe cells), ``mark`` and ``prob`` (each cell's mine probability)."""

    queue: Any
    safe: Any
    mark: Any
    prob: Any


@njit
def proofs_only(max_nodes):  # type: ignore[no-untyped-def]
    """The policy that makes proved moves only and stops when stuck."""
    return Policy(False, 0.0, max_nodes, 0, 0.0, 0, 0, 0, False, False, 0, 0, 0, 0.0, 0)


#: The rule that chose a guess (:func:`guess_kernel`'s ``out[1]``).
BY_SAFEST, BY_LOOKAHEAD, BY_ENDGAME, BY_COIN_FLIP, BY_REGION = 0, 1, 2, 3, 4


@njit
def guess_kernel(know, prob, offsets, width, height, total_mines, policy, info, out):  # type: ignore[no-untyped-def]
    """The cell to open when nothing is proved, as ``policy`` says (see :class:`Policy`).

    ``prob`` and ``info`` are :func:`probability_kernel`'s for ``know``. Writes the
    rule that chose the cell to ``out[1]`` (``BY_*``) and, for the end-game search,
    the chance to win to ``out[2]`` (else -1). Returns the cell.
    """
    out[2] = -1.0
    if policy.fifty:
        g = fifty_kernel(know, prob, offsets, width)
        if g >= 0:
            out[1] = BY_COIN_FLIP
            return g
    if policy.endgame > 0 and info[0] <= math.log(policy.endgame + 0.5):
        if endgame_kernel(know, offsets, total_mines, policy.endgame, policy.endgame_work, out) == 1:
            out[2] = out[1]
            out[1] = BY_ENDGAME
            return int(out[0])
    if policy.region > 0 and policy.endgame > 0:
        if region_kernel(know, offsets, total_mines, policy.endgame, policy.endgame_work, policy.region, out) == 1:
            out[2] = out[1]
            out[1] = BY_REGION
            return int(out[0])
    if policy.look > 0 and info[1] <= policy.look_nodes:
        out[1] = BY_LOOKAHEAD
        deep = policy.deep if info[1] <= policy.deep_nodes else 0
        return lookahead_kernel(
            know,
            prob,
            offsets,
            total_mines,
            policy.max_nodes,
            info[0],
            policy.look,
            policy.margin,
            policy.skip_dead,
            deep,
            width,
            policy.flips,
            policy.flip_extra,
        )
    out[1] = BY_SAFEST
    return choose_kernel(know, prob, offsets, width, height, policy.tol)


@njit
def work_for(n):  # type: ignore[no-untyped-def]
    """Fresh :class:`Work` for ``n`` padded cells."""
    return Work(np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(n, np.int8), np.empty(n, np.float64))


@njit
def solve_kernel(field, first, policy, work):  # type: ignore[no-untyped-def]
    """Play ``field`` from what it shows (opening ``first`` if >= 0) until won, lost or stuck,
    guessing as ``policy`` says (see :class:`Policy`).

    Returns ``(status, guesses, opened)``: status 1 won, -1 lost (a guess hit a mine), 0
    stuck; ``opened`` counts the open cells at the end.
    """
    dens, know, offsets, width, height, total_mines = field
    guess = policy.guess
    max_nodes = policy.max_nodes
    queue, safe, mark, prob = work
    n = know.shape[0]
    safe_cells = 0
    for i in range(n):
        if dens[i] >= 0 and dens[i] != MINE:
            safe_cells += 1
    opened = 0
    for i in range(n):
        if know[i] >= 0:
            opened += 1
    guesses = 0
    info = np.zeros(2, np.float64)
    egout = np.zeros(3, np.float64)
    if first >= 0 and know[first] == UNKNOWN:
        if dens[first] == MINE:
            return -1, 1, opened
        opened += reveal_kernel(dens, know, offsets, first, queue)
    while opened < safe_cells:
        ns, nm = simple_kernel(know, offsets, width, safe, mark)
        if ns > 0:
            for i in range(ns):
                opened += reveal_kernel(dens, know, offsets, safe[i], queue)
            continue
        if nm > 0:
            continue
        probability_kernel(know, offsets, total_mines, prob, max_nodes, info)
        moved = False
        for i in range(n):
            if know[i] == UNKNOWN:
                if prob[i] == 0.0:
                    opened += reveal_kernel(dens, know, offsets, i, queue)
                    moved = True
                elif prob[i] == 1.0:
                    know[i] = KNOWN_MINE
                    moved = True
        if moved:
            continue
        if not guess:
            return 0, guesses, opened
        g = guess_kernel(know, prob, offsets, width, height, total_mines, policy, info, egout)
        guesses += 1
        if dens[g] == MINE:
            return -1, guesses, opened
        opened += reveal_kernel(dens, know, offsets, g, queue)
    return 1, guesses, opened


@njit
def noguess_kernel(mines, protect, offsets, width, height, total_mines, first, rand, max_nodes, max_moves):  # type: ignore[no-untyped-def]
    """Move mines until the board is solved from ``first`` without guessing.

    ``mines`` (uint8, padded) is changed in place; ``protect`` marks cells that
    must stay free (the first-click rule); ``rand`` holds uniform numbers in
    [0, 1) drawn by the wrapper. When the solver gets stuck, a random closed
    cell next to the open area is swapped with a random cell of the other kind
    away from it (a mine leaves the frontier, or a free cell enters it), the
    open numbers are updated, and solving resumes; a board that is finished is
    verified again from scratch. Returns the number of mine moves, or -1 when
    ``max_moves`` or the random numbers ran out.
    """
    n = mines.shape[0]
    dens = np.empty(n, np.int8)
    know = np.empty(n, np.int8)
    work = work_for(n)
    queue = work.queue
    field = Field(dens, know, offsets, width, height, total_mines)
    proofs = proofs_only(max_nodes)
    cand = np.empty(n, np.int64)
    cand2 = np.empty(n, np.int64)
    r = 0
    nr = rand.shape[0]
    moves = 0
    for i in range(n):
        know[i] = BORDER
    for row in range(1, height + 1):
        for col in range(1, width - 1):
            know[row * width + col] = UNKNOWN
    _densities(mines, know, offsets, dens)
    fresh = True
    while True:
        if fresh:
            for i in range(n):
                if know[i] != BORDER:
                    know[i] = UNKNOWN
            fresh = False
            st, _g, _o = solve_kernel(field, first, proofs, work)
        else:
            st, _g, _o = solve_kernel(field, -1, proofs, work)
        if st == 1:
            if moves == 0 or _verified(dens, offsets, width, height, total_mines, first, max_nodes):
                return moves
            fresh = True
            continue
        if moves >= max_moves or r + 2 > nr:
            return -1
        # frontier cells (closed, not proved, next to an open cell) and interior cells
        nf = 0
        ni = 0
        for i in range(n):
            if know[i] != UNKNOWN or protect[i] != 0:
                continue
            edge = False
            for k in range(8):
                if know[i + offsets[k]] >= 0:
                    edge = True
                    break
            if edge:
                cand[nf] = i
                nf += 1
            else:
                cand2[ni] = i
                ni += 1
        if nf == 0:
            return -1
        f = cand[int(rand[r] * nf)]
        r += 1
        want = 0 if mines[f] != 0 else 1  # the kind of cell to swap with
        # partners: interior cells of the other kind, else frontier cells of the other kind
        np_ = 0
        for j in range(ni):
            if mines[cand2[j]] == want:
                queue[np_] = cand2[j]
                np_ += 1
        if np_ == 0:
            for j in range(nf):
                if mines[cand[j]] == want:
                    queue[np_] = cand[j]
                    np_ += 1
        if np_ == 0:
            r += 1
            moves += 1
            continue
        g = queue[int(rand[r] * np_)]
        r += 1
        mines[f] = want
        mines[g] = 1 - want
        moves += 1
        _update_densities(mines, know, offsets, dens, f)
        _update_densities(mines, know, offsets, dens, g)
        # open cells keep showing the truth; newly zero cells spread
        for i in range(n):
            if know[i] >= 0:
                know[i] = dens[i]
        for i in range(n):
            if know[i] == 0:
                for k in range(8):
                    v = i + offsets[k]
                    if know[v] == UNKNOWN:
                        reveal_kernel(dens, know, offsets, v, queue)


@njit
def _densities(mines, know, offsets, dens):  # type: ignore[no-untyped-def]
    n = mines.shape[0]
    for i in range(n):
        if know[i] == BORDER:
            dens[i] = BORDER
        elif mines[i] != 0:
            dens[i] = MINE
        else:
            s = 0
            for k in range(8):
                s += mines[i + offsets[k]]
            dens[i] = s


@njit
def _update_densities(mines, know, offsets, dens, cell):  # type: ignore[no-untyped-def]
    for k in range(9):
        u = cell if k == 8 else cell + offsets[k]
        if dens[u] == BORDER:
            continue
        if mines[u] != 0:
            dens[u] = MINE
        else:
            s = 0
            for j in range(8):
                s += mines[u + offsets[j]]
            dens[u] = s


@njit
def _verified(dens, offsets, width, height, total_mines, first, max_nodes):  # type: ignore[no-untyped-def]
    n = dens.shape[0]
    know = np.empty(n, np.int8)
    for i in range(n):
        know[i] = BORDER if dens[i] == BORDER else UNKNOWN
    work = work_for(n)
    st, _g, _o = solve_kernel(
        Field(dens, know, offsets, width, height, total_mines), first, proofs_only(max_nodes), work
    )
    return st == 1
