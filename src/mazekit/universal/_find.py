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
from .bounds import PAIR_TABLE_LIMIT, PairBound, _distance_bound, _pair_bound
from .exact import astar_codes, polish_codes
from .heuristic import Interrupted, beam_codes, greedy_codes

__all__ = ["AUTO_EXACT_CELLS", "AUTO_EXACT_NODES", "Method", "UniversalResult", "find"]

Method = Literal["exact", "heuristic", "auto"]

#: ``method="auto"`` tries the exact search on mazes with at most this many free cells...
AUTO_EXACT_CELLS = 600
#: ... and gives it this many set expansions before it falls back to the heuristics.
AUTO_EXACT_NODES = 30_000
#: From this many starts on, ``progress`` also hears when each phase starts.
BIG = 2000
#: Beam searches run by the heuristic mode, as (width, weight); the shortest string wins.
BEAMS: tuple[tuple[int, float], ...] = ((128, 0.1), (128, 0.15), (32, 0.1), (128, 0.2), (128, 0.05), (128, 0.0))


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
        ``"auto"``: exact on small mazes with a budget of
        :data:`AUTO_EXACT_NODES` expansions, heuristic otherwise or after.
    max_length : int, optional
        Only accept strings of at most this many commands.
    time_limit : float, optional
        Seconds; the best string met so far is returned when they run out
        (``complete=False``). Without it the result is deterministic.
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

    lower = dbound
    pb = PairBound(-1, None, False, 0)
    best = greedy_codes(model, farthest=True)
    how = "greedy"
    other = greedy_codes(model, farthest=False)
    if len(other) < len(best):
        best = other
    complete = True
    expanded = 0
    try:
        # 1. Beams (cheap next to the rest): strings, and an upper bound for the exact search.
        candidates: list[NDArray[np.int8]] = []
        for width, weight in BEAMS:
            if len(best) <= lower:
                break
            note(f"beam search (width {width}, weight {weight}); best so far {len(best)}, bound {lower}")
            codes = beam_codes(
                model, width=width, weight=weight, max_length=len(best) * 9 // 8, deadline=deadline, progress=progress
            )
            if codes is not None:
                candidates.append(codes)
                if len(codes) < len(best):
                    best, how = codes, "beam"
        # 2. The pair table: the bound, the exact search's heuristic, the polish.
        note(f"pair bound over {(n + 1) ** 2} pair states")
        pb, table = _pair_bound(model, deadline=deadline)
        lower = max(lower, pb.value)
        # 3. The exact search, for strings shorter than the best one so far.
        if want_exact and table is not None and len(best) > lower:
            limit = len(best) if cap is None else min(len(best), cap + 1)
            out = astar_codes(
                model,
                table,
                limit=limit,
                deadline=deadline,
                progress=progress,
                node_limit=None if method == "exact" else AUTO_EXACT_NODES,
            )
            expanded = out.expanded
            lower = max(lower, out.lower_bound)
            if out.codes is not None:
                best, how = out.codes, "exact"
            if method == "exact":
                complete = out.complete  # for "auto", running out of budget is the plan
        # 4. Otherwise polish the beam strings: an optimal tail for each.
        if table is not None and how != "exact" and method != "exact" and len(best) > lower:
            note(f"polishing {len(candidates)} beam strings (best {len(best)}, bound {lower})")
            for codes in sorted(candidates, key=len):
                if len(best) <= lower:
                    break
                codes = polish_codes(model, table, codes, deadline=deadline)
                if len(codes) < len(best):
                    best, how = codes, "beam"
        if deadline is not None and time.monotonic() > deadline:
            complete = False  # a search stopped early on the deadline
    except Interrupted:
        complete = False
    except KeyboardInterrupt:
        if not interruptible:
            raise
        complete = False
    string = decode(best)
    from ._verify import _verify

    if not _verify(model, string).ok:  # pragma: no cover - a bug, never an answer
        raise AssertionError(f"internal error: the {how} string does not reach the exit from every start")
    found = cap is None or len(best) <= cap
    if not found:
        string, how = "", "none"
        if complete and want_exact:
            lower = max(lower, cap + 1)  # type: ignore[operator]
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
