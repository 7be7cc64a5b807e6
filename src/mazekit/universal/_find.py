"""One entry point: :func:`find` a universal escape string, exact or heuristic."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..grid import Point
from ._model import Model, decode
from .bounds import PAIR_TABLE_LIMIT, PairBound, _distance_bound, _pair_bound, _triple_table
from .exact import astar_codes, polish_codes
from .heuristic import Interrupted, beam_codes, greedy_codes, pair_beam_codes

__all__ = ["AUTO_EXACT_CELLS", "AUTO_EXACT_NODES", "AUTO_TIME_LIMIT", "Method", "UniversalResult", "find"]

Note = Callable[[str], None]

Method = Literal["exact", "heuristic", "auto"]

#: ``method="auto"`` tries the exact search on mazes with at most this many free cells...
AUTO_EXACT_CELLS = 600
#: ... and gives it this many set expansions before it falls back to the heuristics.
AUTO_EXACT_NODES = 30_000
#: ``method="auto"`` without a ``time_limit`` improves its string for up to this many seconds
#: (it stops as soon as the string is proven shortest); running out of it is the plan, not
#: an interruption (``complete`` stays True).
AUTO_TIME_LIMIT = 10.0
#: From this many starts on, ``progress`` also hears when each phase starts.
BIG = 2000
#: Beam searches run by the heuristic mode, as (width, weight); the shortest string wins.
BEAMS: tuple[tuple[int, float], ...] = ((128, 0.1), (128, 0.15), (32, 0.1), (128, 0.2), (128, 0.05), (128, 0.0))
#: Beam searches scored by the pair bound (mazes with the pair table and at most
#: :data:`PAIR_BEAM_CELLS` starts), as (width, weight): the first row always, the
#: widening rows while time remains (all of them when there is no time limit).
#: A larger weight favours progress (``sum(dist)``) over the pair bound; no one weight
#: suits every maze (with a small one the beam can wander at a constant bound).
PAIR_WEIGHTS: tuple[float, ...] = (0.5, 2.0, 8.0, 32.0)
PAIR_BEAMS: tuple[tuple[int, float], ...] = ((64, 0.5), (64, 32.0)) + tuple((256, w) for w in PAIR_WEIGHTS)
PAIR_BEAMS_WIDER: tuple[tuple[int, float], ...] = tuple((1024, w) for w in PAIR_WEIGHTS) + ((4096, 0.5), (4096, 8.0))
#: With a time limit, the widening goes on (x4 each round) up to this width.
PAIR_BEAM_MAX_WIDTH = 1 << 16
#: Largest number of starts for the pair-scored beams (their cost grows with the square).
PAIR_BEAM_CELLS = 1200
#: Big mazes (sum(dist) beams): with a time limit the widening goes on up to this width.
SUM_BEAM_MAX_WIDTH = 8192
#: With a time limit, the share of the time left that the wide beams may use before
#: the exact search gets the rest (to raise the lower bound or prove the string shortest).
BEAM_SHARE = 0.35


@dataclass(frozen=True, slots=True, eq=False)
class UniversalResult:
    """A universal escape string and what is known about its length.

    Attributes
    ----------
    string : str
        The commands (``""`` when none was found, or when there is no start).
    found : bool
        True when ``string`` takes the robot out from every start.
    lower_bound : int
        No universal string is shorter (-1 when none exists at all).
    proven : bool
        True when ``string`` is proven shortest (its length equals the bound).
    method : str
        What produced the string: ``"exact"``, ``"beam"``, ``"greedy"`` or ``"none"``.
    distance_bound, pair_bound : int
        The two static lower bounds (see :mod:`mazekit.universal.bounds`);
        ``pair_bound`` is -1 when the search was interrupted before it.
    pair_bound_exhaustive : bool
        False when the pair bound came from a sample of pairs.
    starts : int
        Free cells other than the exit (the article's N).
    stuck : ndarray (k, 2)
        ``(r, c)`` of the free cells that cannot reach the exit at all; when
        there are any, no universal string exists.
    complete : bool
        False when a time limit or an interrupt cut the search short.
    expanded : int
        Sets expanded by the exact search (0 if it did not run).
    """

    string: str
    found: bool
    lower_bound: int
    proven: bool
    method: str
    distance_bound: int
    pair_bound: int
    pair_bound_exhaustive: bool
    starts: int
    stuck: NDArray[np.intp]
    complete: bool
    expanded: int

    @property
    def length(self) -> int:
        """``len(string)``, or -1 when no string was found."""
        return len(self.string) if self.found else -1


def find(  # noqa: C901 - the method choice and the anytime loop; issue #18 reworks this search
    passable: ArrayLike,
    exit: Point,
    *,
    method: Method = "auto",
    max_length: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[str], None] | None = None,
    interruptible: bool = False,
) -> UniversalResult:
    """Find one command string that takes the robot out from every free cell.

    Parameters
    ----------
    passable : array_like of bool, shape (R, C)
        True where a cell is free.
    exit : (r, c)
        The exit (exactly one).
    method : {"auto", "exact", "heuristic"}
        ``"exact"``: A* over sets of positions, a shortest string proven
        shortest (needs the full pair table: at most
        :data:`~mazekit.universal.bounds.PAIR_TABLE_LIMIT` pair states).
        ``"heuristic"``: farthest-first greedy and beam searches, the shortest
        string they meet; the tail of each beam string (once few robots are
        left) is replaced by an optimal one found by a short exact search.
        ``"auto"``: anytime: greedy strings, beam searches over sets of
        robots scored by the pair bound (each string's tail made optimal), the
        exact search with a budget of :data:`AUTO_EXACT_NODES` expansions,
        then, while time remains, wider beams and the exact search pruned by
        the best string's length (it raises the lower bound, or proves the
        string shortest, which ends the run).
    max_length : int, optional
        Only accept strings of at most this many commands.
    time_limit : float, optional
        Seconds; the best string met so far is returned when they run out
        (``complete=False``). Default: :data:`AUTO_TIME_LIMIT` for
        ``"auto"`` (ended early when the string is proven shortest), none for
        the others. Without a time limit ``"heuristic"`` and ``"exact"`` are
        deterministic.
    progress : callable, optional
        Called with a line of text about once a second during long searches.
    interruptible : bool
        Return the best string so far on KeyboardInterrupt instead of raising.

    Returns
    -------
    UniversalResult

    Notes
    -----
    Every string returned has been checked by :func:`verify`. The greedy string
    always exists when every cell can reach the exit: each round takes the
    farthest remaining robot out, so at most ``n * max distance`` commands. The
    exact search starts with the heuristic string as its upper bound, so when
    it finds nothing shorter that string is proven shortest.

    Examples
    --------
    >>> res = find([[1, 1, 1], [1, 0, 1]], (0, 1))
    >>> res.string, res.proven, res.lower_bound
    ('URL', True, 3)
    >>> find([[1, 0, 1]], (0, 0)).stuck.tolist()
    [[0, 2]]
    """
    if method not in ("exact", "heuristic", "auto"):
        raise ValueError(f"method must be 'exact', 'heuristic' or 'auto', got {method!r}")
    if max_length is not None and (not isinstance(max_length, (int, np.integer)) or max_length < 0):
        raise ValueError(f"max_length must be a non-negative integer, got {max_length!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    default_budget = method == "auto" and time_limit is None
    if default_budget:
        time_limit = AUTO_TIME_LIMIT
    deadline = None if time_limit is None else time.monotonic() + float(time_limit)
    model = Model(passable, exit)
    n = model.n
    stuck = model.stuck()
    dbound = _distance_bound(model)
    if stuck.size:
        return UniversalResult("", False, -1, False, "none", -1, -1, True, n, stuck, True, 0)
    if n == 0:
        return UniversalResult("", True, 0, True, "exact", 0, 0, True, 0, stuck, True, 0)
    small = (n + 1) ** 2 <= PAIR_TABLE_LIMIT
    if method == "exact" and not small:
        raise ValueError(
            f"the exact search needs the pair table of {(n + 1) ** 2} states, more than "
            f"{PAIR_TABLE_LIMIT}: use method='heuristic' for a maze with {n} free cells"
        )
    want_exact = method == "exact" or (method == "auto" and small and n <= AUTO_EXACT_CELLS)
    cap = None if max_length is None else int(max_length)

    def note(line: str) -> None:  # phase messages, for mazes big enough to take seconds
        if progress is not None and n >= BIG:
            progress(line)

    search = _Search(model, lower=dbound, deadline=deadline, progress=progress, note=note)
    try:
        search.run(method=method, want_exact=want_exact, cap=cap, timed=deadline is not None)
    except Interrupted:
        search.complete = default_budget  # the default budget running out is the plan
    except KeyboardInterrupt:
        if not interruptible:
            raise
        search.complete = False
    if deadline is not None and time.monotonic() > deadline and not search.done and not default_budget:
        search.complete = False  # a search stopped early on the caller's deadline
    best, how, lower, pb, complete = search.best, search.how, search.lower, search.pb, search.complete
    expanded = search.expanded
    string = decode(best)
    from ._verify import _verify

    if not _verify(model, string).ok:  # pragma: no cover - a bug, never an answer
        raise AssertionError(f"internal error: the {how} string does not reach the exit from every start")
    found = cap is None or len(best) <= cap
    if not found:
        string, how = "", "none"  # (a complete exact search below cap + 1 raised the bound to it)
    return UniversalResult(
        string=string,
        found=found,
        lower_bound=lower,
        proven=found and len(best) <= lower,
        method=how,
        distance_bound=dbound,
        pair_bound=pb.value,
        pair_bound_exhaustive=pb.exhaustive,
        starts=n,
        stuck=stuck,
        complete=complete,
        expanded=expanded,
    )


class _Search:
    """The anytime search behind :func:`find`: the best string so far and the best bound."""

    def __init__(self, model: Model, *, lower: int, deadline: float | None, progress: Note | None, note: Note) -> None:
        self.model = model
        self.lower = lower
        self.deadline = deadline
        self.progress = progress
        self.note = note
        self.pb = PairBound(-1, None, False, 0)
        self.table: NDArray[np.int32] | None = None
        self.triples: NDArray[np.int16] | None = None
        self.polish_budget = 8_000  # sets per tail; more once the compiled search (triples) is on
        self.best = greedy_codes(model, farthest=True)
        self.how = "greedy"
        self.offer(greedy_codes(model, farthest=False), "greedy")
        self.complete = True
        self.expanded = 0
        self.candidates: list[NDArray[np.int8]] = []

    @property
    def done(self) -> bool:
        return len(self.best) <= self.lower

    def left(self) -> float:
        return float("inf") if self.deadline is None else self.deadline - time.monotonic()

    def offer(self, codes: NDArray[np.int8] | None, how: str) -> None:
        if codes is not None and (len(codes) < len(self.best) or (how == "exact" and len(codes) == len(self.best))):
            self.best, self.how = codes, how

    def run(self, *, method: Method, want_exact: bool, cap: int | None, timed: bool) -> None:
        n = self.model.n
        if not (n + 1) ** 2 <= PAIR_TABLE_LIMIT or n > PAIR_BEAM_CELLS:
            self.sum_beams()  # big mazes: the cheap beams first, as the pair table takes seconds
        # The pair table: the bound, the beams' score, the exact search's heuristic, the polish.
        self.note(f"pair bound over {(n + 1) ** 2} pair states")
        self.pb, self.table = _pair_bound(self.model, deadline=self.deadline)
        self.lower = max(self.lower, self.pb.value)
        if self.table is not None and want_exact:
            self.note(f"triple bound over {(n + 1) ** 3} triple states")
            self.triples = _triple_table(self.model)
            if self.triples is not None:
                self.polish_budget = 40_000
                view = self.triples.reshape(n + 1, n + 1, n + 1)[:n, :n, :n]
                self.lower = max(self.lower, int(view.max()))
        if self.table is None or n > PAIR_BEAM_CELLS:
            self.polish()
            if timed:
                self.wider_sum_beams()
            return
        self.pair_beams(PAIR_BEAMS)
        node_limit = None if method == "exact" else AUTO_EXACT_NODES
        if want_exact:
            self.exact(cap, node_limit=node_limit, strict=method == "exact")
        if method == "exact" or self.done:
            return
        if timed:  # widen the beams for a share of the time left, then the exact search has the rest
            share = self.left() * BEAM_SHARE
            stop = time.monotonic() + share
            width = PAIR_BEAMS_WIDER[0][0]
            while not self.done and time.monotonic() < stop and width <= PAIR_BEAM_MAX_WIDTH:
                self.pair_beams(tuple((width, w) for w in PAIR_WEIGHTS), until=stop)
                width *= 4
            if want_exact and not self.done:
                self.exact(cap, node_limit=None, strict=False)
        else:
            self.pair_beams(PAIR_BEAMS_WIDER)

    def sum_beams(self) -> None:
        """The beams scored by ``sum(dist)`` (no pair table needed)."""
        for width, weight in BEAMS:
            if self.done:
                break
            self.note(f"beam search (width {width}, weight {weight}); best so far {len(self.best)}, bound {self.lower}")
            codes = beam_codes(
                self.model,
                width=width,
                weight=weight,
                max_length=len(self.best) * 9 // 8,
                deadline=self.deadline,
                progress=self.progress,
            )
            if codes is not None:
                self.candidates.append(codes)
            self.offer(codes, "beam")

    def wider_sum_beams(self) -> None:
        """Big mazes, while time remains: wider ``sum(dist)`` beams, each string polished."""
        width = 4 * BEAMS[0][0]
        while not self.done and width <= SUM_BEAM_MAX_WIDTH:
            for weight in (0.1, 0.2, 0.15, 0.05):
                if self.done:
                    break
                self.note(f"beam search (width {width}, weight {weight}); best so far {len(self.best)}")
                codes = beam_codes(
                    self.model, width=width, weight=weight, max_length=len(self.best), deadline=self.deadline
                )
                if codes is not None and self.table is not None:
                    codes = polish_codes(self.model, self.table, codes, deadline=self.deadline)
                self.offer(codes, "beam")
            width *= 4

    def pair_beams(self, plan: tuple[tuple[int, float], ...], until: float | None = None) -> None:
        """Beams scored by the pair bound, each string polished (an optimal tail)."""
        assert self.table is not None
        for width, weight in plan:
            if self.done or (until is not None and time.monotonic() > until):
                break
            self.note(f"pair beam (width {width}); best so far {len(self.best)}, bound {self.lower}")
            try:
                codes = pair_beam_codes(
                    self.model,
                    self.table,
                    width=width,
                    weight=weight,
                    limit=len(self.best),
                    deadline=until or self.deadline,
                    triples=self.triples,
                )
            except Interrupted:
                if self.left() <= 0:
                    raise
                break  # this round's share of the time is up; the exact search has the rest
            if codes is not None:
                codes = polish_codes(
                    self.model,
                    self.table,
                    codes,
                    deadline=self.deadline,
                    triples=self.triples,
                    budget=self.polish_budget,
                )
            self.offer(codes, "beam")

    def exact(self, cap: int | None, *, node_limit: int | None, strict: bool) -> None:
        """A* for a string shorter than the best one (its length prunes the search).

        With ``strict`` (method="exact") it looks for a string no longer than the best
        one, so that the answer is the exact search's own (deterministic) string.
        """
        assert self.table is not None
        if self.done and not strict:
            return
        # method="exact" returns the exact search's own string (so one length above the best)
        limit = len(self.best) + (1 if strict else 0)
        limit = limit if cap is None else min(limit, cap + 1)
        self.note(f"exact search below {limit}, bound {self.lower}")
        out = astar_codes(
            self.model,
            self.table,
            limit=limit,
            deadline=self.deadline,
            progress=self.progress,
            node_limit=node_limit,
            triples=self.triples,
        )
        self.expanded += out.expanded
        self.lower = max(self.lower, out.lower_bound)
        self.offer(out.codes, "exact")
        if strict:
            self.complete = out.complete  # for "auto", running out of budget is the plan

    def polish(self) -> None:
        """An optimal tail for each beam string."""
        if self.table is None or self.done:
            return
        self.note(f"polishing {len(self.candidates)} beam strings (best {len(self.best)}, bound {self.lower})")
        for codes in sorted(self.candidates, key=len):
            if self.done:
                break
            self.offer(polish_codes(self.model, self.table, codes, deadline=self.deadline), "beam")
