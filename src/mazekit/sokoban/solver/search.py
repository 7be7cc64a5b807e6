"""Push-level search for Sokoban (feature-space and best-first): :func:`solve`.

A search's settings are a :class:`SearchOptions`; the fast mode runs a portfolio
of them (:data:`PORTFOLIO`). One search (:class:`_Search`) prepares the level
(:mod:`.problem`), allocates the node pool, the transposition table and the open
list as NumPy arrays for each direction (forward pushes; in fast mode also
backward pulls), and calls the compiled :func:`~._kernels.search_kernel` in slices
of a few thousand expansions, the two directions in turn, checking the clock, the
memory cap and Ctrl-C between slices. The solution is rebuilt from the parent
links as a list of pushes, then as a LURD string with the player's shortest walks
between pushes.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, get_args

import numpy as np
from numpy.typing import NDArray

from ..._jit import compile_seconds
from ..level import Level
from ..rules import pushes_to_lurd
from . import _kernels as K
from .compiling import compile_in_parts
from .problem import Problem, as_problem

__all__ = [
    "BACKWARD_RELEVANCE",
    "DEFAULT_MEMORY",
    "EXTRA",
    "INFLUENCE_CELLS",
    "MAX_CORES",
    "PORTFOLIO",
    "RELEVANCE",
    "STALL",
    "Progress",
    "Relays",
    "Relevance",
    "SearchOptions",
    "SearchResult",
    "SearchStats",
    "Solution",
    "Stall",
    "influence_table",
    "lurd_of",
    "portfolio_for",
    "search_level",
    "solve",
]

#: Default memory cap of one search, in bytes (4 GiB).
DEFAULT_MEMORY = 4 << 30

Stop = Literal["solved", "unsolvable", "time", "memory", "interrupted"]


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What a search did.

    Attributes
    ----------
    nodes : int
        States stored (the transposition table's size).
    expanded : int
        States expanded.
    time : float
        Wall-clock seconds, compilation included.
    stopped : str
        Why it stopped: ``"solved"``, ``"unsolvable"`` (every reachable state
        was tried), ``"time"``, ``"memory"`` or ``"interrupted"``.
    compile_time : float
        Of ``time``, the seconds spent compiling the search kernel and the kernels
        that prepare the level (or loading them from numba's cache), which the time
        limit does not count.
    """

    nodes: int
    expanded: int
    time: float
    stopped: Stop
    compile_time: float = 0.0


#: A progress callback for :func:`search_level`: ``progress(stats, phase)``, called from the
#: searching thread between slices (``phase`` ``"searching"``, ``stats`` so far, ``stopped``
#: ``"time"``) and just before a slice that compiles the kernel (``"compiling"``). Returning
#: True stops the search as Ctrl-C does (``stopped == "interrupted"``).
Progress = Callable[[SearchStats, Literal["searching", "compiling"]], bool | None]


@dataclass(frozen=True, slots=True)
class Solution:
    """A solution: the LURD string (lower case walks, upper case pushes) and its counts.

    ``optimal`` is True when the search proved that no solution has fewer pushes.
    ``backward_pushes`` says which direction found it: of ``pushes``, the last ones that the
    backward search found (its pulls, reversed); the others are the forward search's.
    """

    lurd: str
    moves: int
    pushes: int
    optimal: bool
    stats: SearchStats = field(compare=False)
    backward_pushes: int = field(default=0, compare=False)


@dataclass(slots=True)
class SearchResult:
    """The outcome of :func:`search_level`: the solution (or None) and the stats either way."""

    solution: Solution | None
    stats: SearchStats


#: Cells times expansions of the first slice when it runs as plain Python (about 0.1 s).
PYTHON_SLICE_CELLS = 1000

#: The most bytes the novelty's table of pairs may take (see ``SearchOptions.novelty``).
NOVELTY_BYTES = 64 << 20

#: Positions one corral-deadlock search may visit at most (and its queue's length).
CORRAL_MAX_NODES = 1024


#: The signs of progress a :class:`Stall` rule can watch.
Signs = Literal["bound", "cells", "either"]


@dataclass(frozen=True, slots=True)
class Stall:
    """When a search of a portfolio stops making progress and yields the rest of its slot to the
    searches after it (``SearchOptions.stall``).

    A search has stalled when it has run ``after`` seconds or more and its last sign of progress
    came before the last ``fraction`` of its time: after 10 s with ``fraction`` 0.5, none since
    5 s. Its signs (``signs``): ``"bound"``, a fall of either direction's lowest stored bound
    (the boxes' distance to the goals, and the backward one's to the start); ``"cells"``, a
    position in a feature cell the direction had reached no position in (FESS's sign: new ground
    in feature space); ``"either"``. They are looked at between slices (every 50 ms or so).

    >>> rule = Stall(fraction=0.5, after=2.0)
    >>> rule.stalled(spent=10.0, last=4.9), rule.stalled(spent=10.0, last=5.1), rule.stalled(spent=1.5, last=0.0)
    (True, False, False)
    """

    signs: Signs = "either"
    fraction: float = 0.5
    after: float = 2.0

    def __post_init__(self) -> None:
        if self.signs not in get_args(Signs):
            raise ValueError(f"Stall.signs must be 'bound', 'cells' or 'either', got {self.signs!r}")
        if isinstance(self.fraction, bool) or not isinstance(self.fraction, (int, float)) or not 0 < self.fraction < 1:
            raise ValueError(f"Stall.fraction must be between 0 and 1, got {self.fraction!r}")
        if isinstance(self.after, bool) or not isinstance(self.after, (int, float)) or not 0 <= self.after < math.inf:
            raise ValueError(f"Stall.after must be a number of seconds >= 0, got {self.after!r}")

    def stalled(self, spent: float, last: float) -> bool:
        """Whether a search that has run ``spent`` seconds, its last sign of progress at ``last``,
        has stalled."""
        return spent >= self.after and spent - last > self.fraction * spent


@dataclass(frozen=True, slots=True)
class Relevance:
    """Relevance cuts (after Rolling Stone's): a forward push far from where the pushes before it
    worked is not tried when the last pushes already switched place often enough
    (``SearchOptions.relevance``; the backward direction's pulls alike with
    ``SearchOptions.backward_relevance``).

    A push is *distant* when the box it pushes stands further than ``reach`` from the cell where
    the push before it left its box, in influence distance (:func:`influence_table`: a walk over
    the floor where a corridor cell costs 0, a cell with three or four floor neighbours 2, any
    other 1; a push of the same box is never distant). A distant push is cut when ``distant`` of
    the ``window - 1`` pushes before it were distant already: a search may switch between parts
    of the level at most ``distant`` times in ``window`` pushes, so the orders in which it could
    interleave work on unrelated parts are not all tried. The advisors' moves are never cut. The
    search is no longer complete. Only levels of at most :data:`INFLUENCE_CELLS` cells (padded)
    get the cuts.

    >>> Relevance(window=8, reach=4)
    Relevance(window=8, distant=1, reach=4)
    """

    window: int = 6
    distant: int = 1
    reach: int = 5

    def __post_init__(self) -> None:
        for name in ("window", "distant", "reach"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TypeError(f"Relevance.{name} must be an int >= 0, got {value!r}")
        if self.window < 2:
            raise ValueError(f"Relevance.window must be 2 or more, got {self.window}")
        if self.distant >= self.window:
            raise ValueError(f"Relevance.distant must be less than the window ({self.window}), got {self.distant}")
        if self.reach > 254:
            raise ValueError(f"Relevance.reach must be at most 254, got {self.reach}")


@dataclass(frozen=True, slots=True)
class Relays:
    """Backward restarts aimed at the forward search's positions (``SearchOptions.relays``).

    After ``lead`` of the search's time, its backward direction no longer pulls towards the
    start: every ``each`` seconds it starts again from the goals, with ``share`` of the time from
    then on (``SearchOptions.backward_share`` before), aimed at a position the forward
    direction has stored (its boxes' cells as the backward goals, its player's region as the
    backward goal's). The position is drawn at random (seeded by ``seed``: the same pool gives the
    same draws) from those at least as deep (pushes from the start) as the median stored one. The
    new backward direction still meets every forward position, so a meet is a whole solution.

    Why: on some levels neither direction finds its way to the other, though a position exists
    that each reaches at once when aimed at it. From the forward positions of XSokoban 90 after
    10 s, 8 of 90 drawn this way are solved in 0.1-1.2 s by a search aimed at them, almost all of
    it backward (89: 3 of 120; ``benchmarks/RESULTS.md``, session 43). The backward direction
    aimed at the start does not get there in 60 s.

    >>> Relays(lead=0.3, each=1.0)
    Relays(lead=0.3, each=1.0, share=0.9, seed=0)
    """

    lead: float = 0.3
    each: float = 1.0
    share: float = 0.9
    seed: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.lead, bool) or not isinstance(self.lead, (int, float)) or not 0 <= self.lead < 1:
            raise ValueError(f"Relays.lead must be a fraction >= 0 and below 1, got {self.lead!r}")
        if isinstance(self.each, bool) or not isinstance(self.each, (int, float)) or not 0 < self.each < math.inf:
            raise ValueError(f"Relays.each must be a number of seconds above 0, got {self.each!r}")
        if isinstance(self.share, bool) or not isinstance(self.share, (int, float)) or not 0 < self.share < 1:
            raise ValueError(f"Relays.share must be between 0 and 1, got {self.share!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise TypeError(f"Relays.seed must be an int >= 0, got {self.seed!r}")


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The settings of one search; the fast mode runs a portfolio of them (:data:`PORTFOLIO`).

    A misspelt or mistyped option fails where it is written (``TypeError`` or
    ``ValueError``). With ``optimal=True`` (A*) only ``corrals`` and the corral test's
    bounds apply: the search is forward only, with no macros and no features.

    Attributes
    ----------
    weight : int
        The key is ``weight * h + g`` (h the bound, g the pushes so far); 1 or more.
    corrals : bool
        PI-corral pruning: when a corral exists, only the pushes into the smallest are tried.
    bidirectional : bool
        A backward search of pulls from the goals runs beside the forward one (only
        when there are as many boxes as goals), in alternating slices, until one
        reaches a state the other holds.
    macros : bool
        Tunnel macros (a box pushed along a one-wide corridor goes to its end) and goal
        macros (a box entering a goal area goes on to the area's next goal).
    strict_packing : bool
        With ``macros``: a box entering a goal area out of its packing order is not
        tried (no longer complete; the backward search goes on alone if the forward
        one runs out).
    fess : bool
        The forward search is a feature-space search (see :func:`solve`); False: plain
        best-first.
    backward_share : float
        The backward search's share of the time, between 0 and 1.
    backward_weight : int
        The backward search's own ``weight`` (0: the same as ``weight``). Off in the portfolio:
        1 in its first search gained XSokoban 26 and lost 11 and 22 (see
        ``benchmarks/RESULTS.md``, session 18).
    corral_nodes : int
        Positions the corral-deadlock test's small search may visit (0: no test; at
        most :data:`CORRAL_MAX_NODES`).
    corral_boxes : int
        Boxes a corral may have for that test.
    corral_grow : int
        Layers of neighbouring boxes added to a corral's fence for that test.
    player_penalty : int
        Added to the backward search's bound, in its key, when the player cannot
        reach the start's player cell.
    move_weight : int
        With ``fess``: each state's key grows by this times the pushes on its way
        that improved no feature (packing, out of plan, connectivity).
    pack_advisor : int
        With ``fess``: the packing advisor's moves (each expansion pushes, for each
        goal area with an unfinished packing order, the box nearest to its next goal
        all the way there) when a lone-box search of at most this many states finds
        the way; 0: off.
    pack_tries : int
        With ``pack_advisor``, forward: the boxes the packing advisor tries for each goal area, nearest
        to the area's next goal first, until one gets there alone (its lone-box search finds the way
        with the other boxes where they stand); 1: the nearest only (a box in its way then leaves the
        area without advice; Festival's advisor looks further). 4 in the first search of
        :data:`PORTFOLIO`: alone, 2 at
        once, at 20 s on XSokoban, 60/90 against 56 with 1 (+21, 37, 38, 48; nothing lost), and from
        half way along XSokoban 24's reference solution 0.9 s against unsolved at 30 s (session 40,
        ``benchmarks/RESULTS.md``).
    conn_advisor : int
        With ``fess``: the connectivity advisor's moves (each expansion pushes each box
        that separates two regions of free floor, alone, to the nearest cell where the
        floor falls into fewer regions) when a lone-box search of at most this many
        states finds one; 0: off.
    hot_advisor : int
        With ``fess``: the hotspot advisor's move (each expansion pushes the box that cuts
        the most others off every goal, alone, to the nearest cell where it cuts off none;
        see ``hot_feature``) when a lone-box search of at most this many states finds one;
        0: off.
    oop_advisor : int
        With ``fess``: the out-of-plan advisor's move (each expansion pushes the first box
        out of plan, on a goal of a goal area past the filled prefix of its packing order,
        alone, to the nearest cell where it is out of plan no more: off the goal areas, or
        on its area's next goal) when a lone-box search of at most this many states finds
        one; 0: off.
    open_advisor : int
        With ``fess`` and ``pack_advisor``: the opener's move (when the packing advisor's box
        cannot reach its goal alone, the first other box on the way it would take were it
        the only box, its cells and the player's behind it, is pushed alone to the nearest
        cell off that way) when lone-box searches of at most this many states find the way
        and the cell; 0: off.
    hot_feature : bool
        With ``fess``: the feature cells count hotspots too (0, 1, 2 or more boxes, each of
        which, were it a wall, would cut another box off its cell from every goal: a box
        in a corridor or a doorway that others must pass).
    room_feature : bool
        With ``fess``: the feature cells count blocked tunnels instead (Festival's room
        connectivity: 0, 1, 2 or more one-wide passages between two rooms with a box off a
        goal in them; see :func:`tunnels`). Not with ``hot_feature``: the two share one axis.
    dead_pairs : bool
        Forward: a table of every position of two boxes alone that can no longer be solved
        is built for the level at the start (pulls from every pair of goals, see
        :func:`pair_table`), and a push that leaves such a pair (the player's cell counts:
        two boxes that close a pocket are one) is not tried. On in the portfolio's first search.
    reach_pairs : bool
        Backward: the same table from the start's side (pushes from every pair of the start's
        boxes, the player on the start, see :func:`pair_table` with ``reach``), and a pull
        that leaves a pair the start cannot lead to is not tried, nor is a goal position
        with one: no solution passes through it. Off in the portfolio: in its first search
        it gained XSokoban 41 and lost 22 (see ``benchmarks/RESULTS.md``, session 15).
    pair_penalty : bool
        Forward, not with ``optimal``: the key's bound grows by the pairs' penalties (boxes in
        each other's way): for two boxes alone, how many more pushes put them on two goals
        (the dead pairs' table keeps that count) than their lone-box distances to two
        different goals say, summed over pairs of boxes each taken once (see
        :func:`~._kernels.pair_penalty_kernel`). Builds the table, whose pruning comes with it.
    box_runs : bool
        With ``fess`` and ``move_weight``: a push of the box the last move moved, on in the
        direction it went, is free, so the weight counts straight runs of one box (closer
        to FESS's moves, which take a box to its new cell at once) that improved no
        feature, not pushes: pushing a box along a line to park it costs one step, however
        far (runs that turn corners too were measured weaker: ``benchmarks/RESULTS.md``).
    backward_fess : bool
        The backward search is a feature-space search too, turned round: its packing counts
        the boxes on the start's box cells (its goals), its connectivity the regions of free
        floor, and its cells take turns as the forward search's do (no advisors, macros or
        move weights backward). It finds openings the forward search does not: on XSokoban
        the pulls that bring boxes back to their start cells are the forward search's moves
        that park them out of the way (see ``benchmarks/RESULTS.md``, session 27). Off in
        :data:`PORTFOLIO`: where the plain backward search runs straight to the start, the
        cells' turns slow that line down (a generated level solved in 0.06 s is not in 10 s).
    backward_rooms : bool
        With ``backward_fess``: the backward direction's feature cells count blocked tunnels
        (as ``room_feature`` does forward: one-wide passages between two rooms with a box in
        them off its start cell), not the forward search's. Gains XSokoban 18 and 77 in the
        second core's first search (``benchmarks/RESULTS.md``, sessions 28 and 29).
    backward_areas : bool
        With ``backward_fess``: the start's box cells in groups (4-connected, two or more) are
        the backward direction's goal areas, each with a filling order for pulls (see
        :func:`start_areas`), so that its feature cells count the filled prefixes of those orders
        and the boxes out of plan, as the forward's count the goal areas'.
    pull_advisor : int
        With ``backward_fess`` and ``backward_areas``: the packing advisor backward (each backward
        expansion pulls, for each start area with an unfinished order, the box nearest its next
        cell all the way there alone) when a lone-box search of at most this many states finds
        the way; 0: off.
    novelty : int
        With ``fess``, forward: a push that makes the position new comes early (after the novelty
        of width-based planning searches): with 1, the moved box stands on a cell no position
        stored at the same packing had a box on; with 2, the moved box and some other box stand on
        two cells no such position had boxes on together. With ``move_weight`` such a push is
        free, as an advisor's move is; without, the new positions go to feature cells of their own
        (a twin of each cell, taking its turn as the others do), so that a few new positions are
        not kept waiting behind a cell's many old ones. The moves that park boxes somewhere new,
        which the openings of the hardest levels need, come early. 0: off. With 2 in the second
        core's last search it gains XSokoban 27 (session 33), in its first 36 and 48 (session 34;
        ``benchmarks/RESULTS.md``). Width 2 keeps a flag per packing and pair of cells (width 1
        where that would pass :data:`NOVELTY_BYTES`).
    novelty_cells : bool
        With ``novelty`` and ``move_weight``: the new positions go to feature cells of their own, as
        they do without move weights, instead of their push being free. With box runs it gains
        XSokoban 32 in the second core's last search (``benchmarks/RESULTS.md``, session 34).
    time_share : float
        In a portfolio run one search after the other (a core's run of them): this search's
        part of the time left is its share over the sum of the shares of it and the searches
        after it, more than 0 (all 1: equal parts). Alone, as with ``options``, it has no effect.
    relevance : Relevance or None
        Forward, not with ``optimal``: relevance cuts (see :class:`Relevance`): a push far from
        where the last pushes worked is cut when they already switched place often enough. None: off.
        On in :data:`PORTFOLIO`'s third search (:data:`RELEVANCE`): XSokoban 47, which no search
        solved before (session 37, ``benchmarks/RESULTS.md``); in the first search the cuts lose
        more levels than they gain.
    backward_relevance : Relevance or None
        The backward direction's relevance cuts: a pull far from where the last pulls left their
        boxes is cut by the same rule (see :class:`Relevance`). A backward direction that runs out
        with cuts made proves nothing: the forward search goes on alone. None: off.
    relays : Relays or None
        With ``bidirectional``: after a lead, the backward direction starts again every few
        seconds aimed at one of the forward direction's positions, not at the start (see
        :class:`Relays`); with ``backward_fess`` its feature cells count the boxes on that
        position's cells (no start areas), and the start's pairs (``reach_pairs``) still prune,
        since every position reached from it is reached from the start. Not with ``optimal``.
        None: off.
    stall : Stall or None
        In a portfolio run one search after the other: when this search stops making progress
        (see :class:`Stall`), it yields the rest of its slot to the searches after it, which share
        it as they share the rest of the time. None: it keeps its whole slot. The last search of
        a run has no one to yield to and keeps its slot. Alone it has no effect.
    """

    weight: int = 10
    corrals: bool = True
    bidirectional: bool = True
    macros: bool = True
    strict_packing: bool = False
    fess: bool = True
    backward_share: float = 0.75
    backward_weight: int = 0
    corral_nodes: int = 64
    corral_boxes: int = 10
    corral_grow: int = 0
    player_penalty: int = 0
    move_weight: int = 0
    pack_advisor: int = 0
    conn_advisor: int = 0
    hot_advisor: int = 0
    oop_advisor: int = 0
    open_advisor: int = 0
    hot_feature: bool = False
    room_feature: bool = False
    dead_pairs: bool = False
    reach_pairs: bool = False
    pair_penalty: bool = False
    box_runs: bool = False
    backward_fess: bool = False
    backward_rooms: bool = False
    backward_areas: bool = False
    pull_advisor: int = 0
    novelty: int = 0
    novelty_cells: bool = False
    pack_tries: int = 1
    time_share: float = 1.0
    stall: Stall | None = None
    relevance: Relevance | None = None
    backward_relevance: Relevance | None = None
    relays: Relays | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise TypeError(f"SearchOptions.{f.name} must be True or False, got {value!r}")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise TypeError(f"SearchOptions.{f.name} must be an int >= 0, got {value!r}")
        if self.weight < 1:
            raise ValueError(f"SearchOptions.weight must be 1 or more, got {self.weight}")
        if not (isinstance(self.backward_share, (int, float)) and 0 < self.backward_share < 1):
            raise ValueError(f"SearchOptions.backward_share must be between 0 and 1, got {self.backward_share!r}")
        if not (
            isinstance(self.time_share, (int, float))
            and not isinstance(self.time_share, bool)
            and 0 < self.time_share < float("inf")
        ):
            raise ValueError(f"SearchOptions.time_share must be a number more than 0, got {self.time_share!r}")
        parts = (("stall", Stall), ("relevance", Relevance), ("backward_relevance", Relevance), ("relays", Relays))
        for name, kind in parts:
            part = getattr(self, name)
            if part is not None and not isinstance(part, kind):
                raise TypeError(f"SearchOptions.{name} must be a {kind.__name__} or None, got {part!r}")
        if self.hot_feature and self.room_feature:
            raise ValueError("SearchOptions.hot_feature and room_feature share one axis of the feature cells: pick one")
        if self.pack_tries < 1:
            raise ValueError(f"SearchOptions.pack_tries must be 1 or more, got {self.pack_tries}")
        if self.novelty > 2:
            raise ValueError(f"SearchOptions.novelty must be 0, 1 or 2, got {self.novelty}")
        if self.corral_nodes > CORRAL_MAX_NODES:
            raise ValueError(f"SearchOptions.corral_nodes must be at most {CORRAL_MAX_NODES}, got {self.corral_nodes}")

    def for_optimal(self) -> SearchOptions:
        """These options as A* runs them: forward only, no macros, no features."""
        return replace(
            self,
            bidirectional=False,
            macros=False,
            strict_packing=False,
            fess=False,
            relevance=None,
            backward_relevance=None,
            relays=None,
        )


#: When a search of the fast mode's portfolios stops making progress: its lowest stored bound
#: (either direction) has not fallen in the last 90% of its time, after 5 s; it then yields the
#: rest of its slot to the searches after it (``SearchOptions.stall``). Replayed from each search's
#: run alone on the 48 XSokoban levels not solved within 2 s (``benchmarks/portfolio_members.py``,
#: session 35): on two cores it gains 32 at 30 s, 27 and 31 at 20 s, and loses none at 20, 30 or
#: 60 s (after 2 s to 8 s alike); new feature cells as the sign, or a shorter 80%, lose levels at
#: 60 s (16, 18). After 2 s it lost Microban II 131 at 10 s, which the second core's first search
#: solves in 2-3 s of its 6.7 after a bound that stopped falling in its first 0.2 s.
STALL = Stall(signs="bound", fraction=0.9, after=5.0)


#: The relevance cuts of the portfolio's third search (:class:`Relevance`): at most one switch to a
#: distant part of the level (influence distance over 5) in 6 pushes. Alone, 2 at once, at 10 s on
#: XSokoban, that search solves 39/90 with them against 36 without (+14, 32, 44, 47, 67, 71, 76, 84;
#: -8, 33, 34, 63, 81, which the first search solves), and XSokoban 47, which no search solved
#: before, in 4 s (session 37, ``benchmarks/RESULTS.md``). In the first search they lose more
#: than they gain.
RELEVANCE = Relevance(window=6, distant=1, reach=5)


#: The relevance cuts of the portfolio's first search's backward direction
#: (``SearchOptions.backward_relevance``): at most one switch in 6 pulls to a part of the level
#: further than 9 in influence distance. Alone, 2 at once, at 20 s on XSokoban, that search solves
#: 56/90 with them as without, +29 (3.7 s), which no search solved before, -15, which the third
#: search solves in 1-2 s (session 38, ``benchmarks/RESULTS.md``). The reach matters as it did
#: forward: with 5 the search solves 26, 29, 35, 38, 41 and 42 but loses 11, 13 and 22, backward
#: solutions that only it solves in its slot; with 7 or 8 none of these.
BACKWARD_RELEVANCE = Relevance(window=6, distant=1, reach=9)


#: The fast mode's portfolio, run one after the other, each with its share of the time left (the
#: first three 1, the fourth 0.6: :data:`RELAYS`, below). The first guides the forward search as
#: FESS does (the packing advisor's moves, with up to four boxes tried for each goal area,
#: ``pack_tries``; cells ordered by the pushes that improved no feature; a weight of 1000 makes
#: that count come first), tests larger corrals (the fence and the boxes beside it),
#: prunes dead pairs, gives the two directions equal time and cuts backward pulls far from where the
#: last ones worked (:data:`BACKWARD_RELEVANCE`). The second tests larger corrals too,
#: gives its forward direction three quarters of the time and penalises backward positions
#: whose player cannot reach the start's player cell; the third weighs the bound 3 instead of
#: 10 and gives the two directions equal time, with larger corrals as well, and cuts pushes far from
#: where the last ones worked when they switched place already (:data:`RELEVANCE`). Each solves
#: XSokoban levels the others do not (see ``benchmarks/RESULTS.md``): a restart with other
#: settings changes the whole order of the search. A solution is nearly always one
#: direction's work, so a direction's share divides the time of the levels it solves.
#:
#: A search that stops making progress yields the rest of its slot to the searches after it
#: (:data:`STALL`), so the shares adapt to the level.
PORTFOLIO: tuple[SearchOptions, ...] = (
    SearchOptions(
        move_weight=1000,
        pack_advisor=400,
        pack_tries=4,
        corral_grow=1,
        backward_share=0.5,
        dead_pairs=True,
        stall=STALL,
        backward_relevance=BACKWARD_RELEVANCE,
    ),
    SearchOptions(corral_grow=1, player_penalty=2, backward_share=0.25, stall=STALL),
    SearchOptions(corral_grow=1, weight=3, backward_share=0.5, stall=STALL, relevance=RELEVANCE),
)

#: The relays of the portfolio's fourth search (:class:`Relays`): after 30% of its time, its backward
#: direction starts again every 0.6 s aimed at one of its forward positions, with 90% of the time.
RELAYS = Relays(lead=0.3, each=0.6)

#: The fourth search of :data:`PORTFOLIO`: the first, its forward direction given 90% of the time
#: until the relays start (so that its positions run deep), then the relays (:data:`RELAYS`), with
#: 0.6 of a share. Alone, one level at a time, 15 s, three seeds: XSokoban 90 in 9.2-12.0 s, 89 once
#: in 14.8 s, levels no search solved before (session 43, ``benchmarks/RESULTS.md``).
PORTFOLIO += (replace(PORTFOLIO[0], backward_share=0.1, stall=None, relays=RELAYS, time_share=0.6),)


#: The settings the second core's first search and its fourth share: the third search of
#: :data:`PORTFOLIO`, without its relevance cuts, turned round. Forward at weight 30 (Microban II 131
#: is a forward direction's at that weight: 1.8-2.1 s against 2.7-4.4 s at 10, session 26), the new
#: positions in feature cells of their own (``novelty`` 2: XSokoban 36 and 48, session 34); backward
#: at weight 3, a feature-space search too (``backward_fess``), its cells counting blocked tunnels
#: (``backward_rooms``), with the start's pairs (``reach_pairs``): XSokoban 18, 35, 77, 85 and 87,
#: which no other search solves (session 29).
_TURNED = replace(
    PORTFOLIO[2],
    relevance=None,
    weight=30,
    backward_weight=3,
    backward_fess=True,
    reach_pairs=True,
    backward_rooms=True,
    novelty=2,
)

#: More searches for the fast mode, on a second core (see :func:`portfolio_for`), one after the
#: other, with 3, 4.5, 5, 6.5, 26, 5 and 10 s of 60 when each uses its whole slot (``time_share``).
#: The four short ones come first: each solves its levels within a few seconds or not at all, and
#: the time a later search yields goes to the searches after it. The ones built from the first
#: search of :data:`PORTFOLIO` try one box for the packing advisor (``pack_tries`` 1), as they were
#: measured, but the fourth and the sixth: four boxes lose 27 in the first, 75 in the second (7.8 s
#: against 3.5) and time on 41 in the last (session 40).
#:
#: 1. The first search of :data:`PORTFOLIO` with a backward weight of 1 and novelty 2: 26 in 0.6-1.5 s
#:    and 27 in 1.2-2.2 s, which no other search solves (alone, 2 at once, sessions 33 and 40).
#: 2. The first search with box runs (``box_runs``): 75 in 3.2-3.8 s (session 26), and 37, which the
#:    first search of :data:`PORTFOLIO` solves too since its packing advisor tries four boxes.
#: 3. :data:`_TURNED` forward only: 36 in 3.5 s and 48 in 1.1 s (9.1 and 1.8 s with 65% of its time
#:    backward, as it had when one search held both directions; session 39).
#: 4. The first search forward only, its feature cells counting blocked tunnels (``room_feature``):
#:    24 in 4.9-5.2 s, which no search solved before; with one box tried by the packing advisor it
#:    is not solved in 20 s (session 40). It keeps its whole slot (``stall`` None).
#: 5. :data:`_TURNED` with 95% of its time backward, where its five levels are solved (session 39:
#:    18 in 14.9 s, 35 11.1, 77 12.0, 85 18.4, 87 13.9, against 23.6, 18.9, 16.2, 26.8 and 18.4 s
#:    with 65%). It keeps its whole slot (``stall`` None): on 87 its bound stops falling before 1 s
#:    and the rule would end it at 6 s.
#: 6. The first search with box runs, the new positions in cells of their own (``novelty_cells``)
#:    and blocked tunnels counted, forward only: 20 in 1.5 s and 32 in 3.1 s, which no other search
#:    solves (without the tunnels 5.6 and 1.2 s; session 40).
#: 7. The first search with its backward cuts at reach 5, not 9, and 90% of its time backward: 41 in
#:    7-9 s (13 s at half); at reach 9 it is not solved, and reach 5 in the first search itself loses
#:    11, 13 and 22, which reach 9 solves (session 38). Last, so it keeps its slot: its bound stops
#:    falling within the first second of 41.
#:
#: Splitting the old first search (65% backward, 40 s) into its two directions freed 10 s for the
#: last (session 39); the sixth's faster 20, with the packing advisor's four boxes and the tunnels,
#: freed most of the fourth's slot (session 40, ``benchmarks/RESULTS.md``).
EXTRA: tuple[SearchOptions, ...] = (
    replace(PORTFOLIO[0], pack_tries=1, backward_weight=1, novelty=2, backward_relevance=None, time_share=0.6),
    replace(PORTFOLIO[0], pack_tries=1, box_runs=True, backward_relevance=None, time_share=0.9),
    replace(_TURNED, bidirectional=False, time_share=1.0),
    replace(PORTFOLIO[0], room_feature=True, bidirectional=False, stall=None, time_share=1.3),
    replace(_TURNED, backward_share=0.95, stall=None, time_share=5.2),
    replace(
        PORTFOLIO[0],
        box_runs=True,
        novelty=2,
        novelty_cells=True,
        room_feature=True,
        bidirectional=False,
        time_share=1.0,
    ),
    replace(
        PORTFOLIO[0],
        pack_tries=1,
        backward_relevance=replace(BACKWARD_RELEVANCE, reach=5),
        backward_share=0.9,
        time_share=2.0,
    ),
)


#: The cores the fast mode's default portfolio can use: one for :data:`PORTFOLIO`, one for
#: :data:`EXTRA`.
MAX_CORES = 2 if EXTRA else 1


def portfolio_for(cores: int) -> tuple[SearchOptions, ...]:
    """The fast mode's searches on ``cores`` cores: :data:`PORTFOLIO` on one, then :data:`EXTRA`
    on a second (see :func:`~.lanes.lane_members`), so that each of :data:`PORTFOLIO`'s searches
    keeps its share of the time it has on one core and a level solved on one core is solved on
    more too.

    >>> len(portfolio_for(1)), portfolio_for(2) == PORTFOLIO + EXTRA
    (4, True)
    """
    return PORTFOLIO + EXTRA if cores > 1 else PORTFOLIO


def _novelty_width(width: int, nb: int, ncells: int) -> int:
    """The novelty's width a level can have: 2 becomes 1 where its table would pass
    :data:`NOVELTY_BYTES`."""
    return 1 if width >= 2 and (nb + 1) * ncells * ncells > NOVELTY_BYTES else width


def _novelty_table(width: int, nb: int, ncells: int) -> np.ndarray:
    """The seen flags of :func:`~._kernels.novelty_kernel`, a byte per packing and cell (width
    1) or pair of cells (width 2); one entry when off."""
    if not width:
        return np.zeros((1, 1, 1), dtype=np.uint8)
    return np.zeros((nb + 1, ncells, ncells if width >= 2 else 1), dtype=np.uint8)


def _cap_for(memory: int, nb: int, box_bytes: int) -> int:
    # pool: boxes + player, parent, g, push, move weight (4 each) + hash (8);
    # table: 2 slots of 4 bytes; heap: 1.5 entries of 12 bytes
    per_node = nb * box_bytes + 20 + 8 + 8 + 18
    return max(16, min(memory // per_node, (1 << 31) - 2))


class _Arrays:
    """The growable search arrays (node pool, table, heap)."""

    def __init__(self, nb: int, box_dtype: type, cap: int) -> None:
        self.nb = nb
        self.box_dtype = box_dtype
        self.cap = 0
        self.pboxes: NDArray[Any] = np.empty((0, nb), dtype=box_dtype)
        self.pplayer = np.empty(0, dtype=np.int32)
        self.pparent = np.empty(0, dtype=np.int32)
        self.pg = np.empty(0, dtype=np.int32)
        self.pacc = np.empty(0, dtype=np.int32)
        self.ppush = np.empty(0, dtype=np.int32)
        self.phash = np.empty(0, dtype=np.int64)
        self.table = np.zeros(1, dtype=np.int32)
        self.hkey = np.empty(0, dtype=np.int64)
        self.hnode = np.empty(0, dtype=np.int32)
        self.mch = np.empty(0, dtype=np.int32)
        self.mkey = np.empty(0, dtype=np.int64)
        self.grow(cap, 0, 0)

    def pool(self) -> K.Pool:
        """The node pool and its table, as the kernels take them."""
        return K.Pool(self.pboxes, self.pplayer, self.pparent, self.pg, self.ppush, self.phash, self.pacc, self.table)

    def frontier(self, croot: NDArray[np.int32]) -> K.Frontier:
        """The open list (heap and feature cells' heaps), as the kernels take it."""
        return K.Frontier(self.hkey, self.hnode, croot, self.mch, self.mkey)

    def grow(self, cap: int, nodes: int, heap: int) -> None:
        def bigger(a: NDArray[Any], n: int) -> NDArray[Any]:
            b = np.empty((n,) + a.shape[1:], dtype=a.dtype)
            b[: a.shape[0]] = a
            return b

        self.pboxes = bigger(self.pboxes, cap)
        self.pplayer = bigger(self.pplayer, cap)
        self.pparent = bigger(self.pparent, cap)
        self.pg = bigger(self.pg, cap)
        self.pacc = bigger(self.pacc, cap)
        self.ppush = bigger(self.ppush, cap)
        self.phash = bigger(self.phash, cap)
        self.mch = bigger(self.mch, 2 * cap)
        self.mkey = bigger(self.mkey, cap)
        hcap = cap + cap // 2 + 8
        self.hkey = bigger(self.hkey, hcap)
        self.hnode = bigger(self.hnode, hcap)
        tsize = 1
        while tsize < 2 * cap:
            tsize *= 2
        if tsize != self.table.shape[0]:
            self.table = np.zeros(tsize, dtype=np.int32)
            K.rehash_kernel.pick(nodes + 1)(self.table, self.phash, nodes)
        self.cap = cap


def _region(prob: Problem, occupied: set[int], start: int) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        x = todo.pop()
        for d in range(4):
            y = x + int(prob.off[d])
            if prob.floor[y] and y not in occupied and y not in seen:
                seen.add(y)
                todo.append(y)
    return seen


def _box_path(
    prob: Problem, others: set[int], box: int, player: int, dest: int, dest_player: int
) -> list[tuple[int, int]]:
    """Pushes ``(cell, direction)`` of one box from ``box`` to ``dest``, the player ending in ``dest_player``'s
    region (named by its smallest cell), the other boxes fixed; breadth-first."""
    start = (box, player)
    prev: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
    todo = deque([start])
    while todo:
        b, pl = todo.popleft()
        region = _region(prob, others | {b}, pl)
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


def _pushes(prob: Problem, arrays: _Arrays, node: int, *, backward: bool = False) -> list[tuple[int, int]]:
    """The moves ``(box cell, direction)`` from the root to ``node``: pushes, or ``backward``
    pulls (a pull in direction ``d`` takes the box from the cell to its neighbour that way)."""
    out: list[tuple[int, int]] = []
    while int(arrays.pparent[node]) >= 0:
        code = int(arrays.ppush[node])
        parent = int(arrays.pparent[node])
        if code >> K.PUSH_MACRO_SHIFT:
            # goal macro: find the pushes again from the parent's position
            before = {int(x) for x in arrays.pboxes[parent]}
            after = {int(x) for x in arrays.pboxes[node]}
            src = (code & K.PUSH_MOVE_MASK) >> 2
            moved = after - before
            dst = moved.pop() if moved else src  # the macro may bring the box back where it was
            others, was, now = before - {src}, int(arrays.pplayer[parent]), int(arrays.pplayer[node])
            if backward:  # pulls src -> dst are the pushes dst -> src played in reverse
                for cell, d in _box_path(prob, others, dst, now, src, was):
                    out.append((cell + int(prob.off[d]), d ^ 1))
            else:
                out.extend(reversed(_box_path(prob, others, src, was, dst, now)))
        else:
            steps = max(1, (code >> K.PUSH_STEPS_SHIFT) & K.PUSH_STEPS_MASK)
            cell, d = (code & K.PUSH_MOVE_MASK) >> 2, code & 3
            step = int(prob.off[d])
            out.extend((cell + s * step, d) for s in reversed(range(steps)))
        node = parent
    out.reverse()
    return out


class _OutOfTime(Exception):
    """The deadline of a preparation step passed."""


def _take_out(
    prob: Problem, boxes: set[int], box: int, area: set[int], deadline: float, push: bool = False
) -> int | None:
    """Fewest pulls (``push``: pushes onto cells not dead) that take ``box`` out of ``area`` among
    ``boxes`` (player anywhere free); None if none.

    Raises :class:`_OutOfTime` once ``time.perf_counter()`` passes ``deadline``.
    """
    starts = []
    for d in range(4):
        x = box + int(prob.off[d])
        if prob.floor[x] and x not in boxes:
            starts.append(min(_region(prob, boxes | {box}, x)))
    seen = {(box, p) for p in starts}
    todo = deque((box, p, 0) for p in set(starts))
    while todo:
        if time.perf_counter() > deadline:
            raise _OutOfTime
        b, pl, n = todo.popleft()
        region = _region(prob, boxes | {b}, pl)
        for d in range(4):
            step = int(prob.off[d])
            if push:
                to, newpl = b + step, b
                ok = b - step in region and bool(prob.floor[to]) and to not in boxes and not prob.dead[to]
            else:
                to, newpl = b + step, b + 2 * step
                ok = to in region and newpl in region
            if ok:
                if to not in area:
                    return n + 1
                key = (to, min(_region(prob, boxes | {to}, newpl)))
                if key not in seen:
                    seen.add(key)
                    todo.append((to, key[1], n + 1))
    return None


def goal_areas(
    prob: Problem, max_goals: int = 64, deadline: float = math.inf, *, start: bool = False
) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]]:
    """Goal areas and their packing orders: ``(garea, forder, fstart)``.

    A goal area is a 4-connected group of goal cells (at least two, at most
    ``max_goals``). Its packing order comes from the finished area backwards:
    over and over, the box with the fewest pulls out of the area (the player
    anywhere free, the other boxes outside ignored) is taken out; the reversed
    sequence is an order in which the goals can be filled. ``garea`` is the
    area of each cell (-1 outside any area with an order), ``forder[fstart[a]:
    fstart[a + 1]]`` area ``a``'s goals in filling order.

    The orders cost a flood per pull tried (a third of a second on the largest
    XSokoban levels); once ``time.perf_counter()`` passes ``deadline`` the areas
    not yet ordered are left without one (the search then runs without their
    packing advice), so that preparing never outlasts the search's time limit.

    With ``start`` the same turned round (:func:`start_areas`): the start's box cells are the
    goals, and boxes leave an area by pushes, so that the order is one for pulls.
    """
    garea = np.full(prob.floor.shape[0], -1, dtype=np.int32)
    goals = {int(g) for g in (prob.boxes if start else prob.goals)}
    seen: set[int] = set()
    orders: list[list[int]] = []
    for g0 in sorted(goals):
        if g0 in seen:
            continue
        comp = {g0}
        todo = [g0]
        while todo:
            x = todo.pop()
            for d in range(4):
                y = x + int(prob.off[d])
                if y in goals and y not in comp:
                    comp.add(y)
                    todo.append(y)
        seen |= comp
        if not 2 <= len(comp) <= max_goals:
            continue
        try:
            taken = _packing_order(prob, comp, deadline, push=start)
        except _OutOfTime:
            break
        if taken is None:
            continue
        for x in comp:
            garea[x] = len(orders)
        orders.append(taken)
    fstart = np.zeros(len(orders) + 1, dtype=np.int64)
    for a, o in enumerate(orders):
        fstart[a + 1] = fstart[a] + len(o)
    forder = np.array([x for o in orders for x in o], dtype=np.int64)
    return garea, forder, fstart


def start_areas(
    prob: Problem, max_cells: int = 64, deadline: float = math.inf
) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]]:
    """The backward direction's goal areas (``backward_areas``): :func:`goal_areas` turned round.

    An area is a 4-connected group of the start's box cells (two to ``max_cells``). Its order
    comes from the start backwards: over and over, the box with the fewest pushes out of the area
    (the player anywhere free, onto cells not dead) is taken out; the reversed sequence is an order
    in which a backward search can pull boxes into the area's cells. Same arrays as
    :func:`goal_areas`.

    >>> from mazekit.sokoban import parse_level
    >>> from mazekit.sokoban.solver import as_problem
    >>> rows = ["#########", "#...    #", "#   $$  #", "#   $  @#", "#       #", "#########"]
    >>> prob = as_problem(parse_level("\\n".join(rows)))
    >>> garea, forder, fstart = start_areas(prob)  # one area: the box below is pulled in first
    >>> [divmod(prob.level_cell(int(x)), 9) for x in forder], fstart.tolist()
    ([(3, 4), (2, 4), (2, 5)], [0, 3])
    """
    return goal_areas(prob, max_cells, deadline, start=True)


def _packing_order(prob: Problem, comp: set[int], deadline: float, push: bool = False) -> list[int] | None:
    """The filling order of the goal area ``comp`` (see :func:`goal_areas`; ``push``: a start area
    filled by pulls); None if it has none."""
    boxes = set(comp)
    taken: list[int] = []
    while boxes:
        best: tuple[int, int] | None = None
        for b in sorted(boxes):
            n = _take_out(prob, boxes - {b}, b, comp, deadline, push)
            if n is not None and (best is None or n < best[0]):
                best = (n, b)
                if n == 1:  # no box comes out in fewer: the first found is the one taken
                    break
        if best is None:
            return None
        taken.append(best[1])
        boxes.remove(best[1])
    return taken[::-1]


def lurd_of(prob: Problem, pushes: list[tuple[int, int]]) -> str:
    """The LURD string of a list of pushes ``(padded box cell, direction)`` from the start: the
    engine's :func:`~mazekit.sokoban.pushes_to_lurd` (shortest walks between pushes)."""
    level = prob.level
    return pushes_to_lurd(level, level.start, [(prob.level_cell(cell), d) for cell, d in pushes])


#: The hotspot table of a search that does not use one.
_NO_HOT = np.zeros((1, 1), dtype=np.uint8)
#: The tunnel labels of a search that does not use them.
_NO_TUNNELS = np.full(1, -1, dtype=np.int32)
#: The dead pairs' table of a search that does not use one, and its cell indices.
_NO_PAIRS = (
    np.zeros((1, 1, 1), dtype=np.uint8),
    np.full(1, -1, dtype=np.int32),
    np.full(1, -1, dtype=np.int32),
    np.zeros((1, 1), dtype=np.int32),
)
#: The influence table of a search without relevance cuts.
_NO_INFLUENCE = np.full((1, 1), 255, dtype=np.uint8)
#: Bytes the dead pairs' table may take (live cells squared times floor cells); a larger
#: level searches without it.
PAIR_TABLE_BYTES = 64 << 20
#: A pair table and its cell indices: ``(alive, lidx, fidx)`` (see :func:`pair_table`).
PairTable = tuple[NDArray[np.uint8], NDArray[np.int32], NDArray[np.int32]]
#: Cells a slice of the pair table's build floods, about (a few milliseconds compiled).
PAIR_SLICE = 1 << 18


class _Direction:
    """One search direction: its static arrays, its growable pool and its scratch space."""

    def __init__(
        self,
        prob: Problem,
        settings: K.Settings,
        max_cap: int,
        roots_boxes: NDArray[np.int64],
        roots_player: list[int],
        dead: NDArray[np.uint8],
        dist: NDArray[np.int32],
        zbox: NDArray[np.int64],
        zpl: NDArray[np.int64],
        areas: tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]] | None = None,
    ) -> None:
        nb = len(prob.boxes)
        ncells = prob.height * prob.width
        box_dtype: type = np.int16 if ncells < 32767 else np.int32
        self.settings = settings
        backward = bool(settings.backward)
        self.max_cap = max(max_cap, len(roots_player) + 16)
        self.arr = _Arrays(nb, box_dtype, min(self.max_cap, max(1 << 14, len(roots_player) + 16)))
        for r, pl in enumerate(roots_player):
            self.arr.pboxes[r] = roots_boxes
            self.arr.pplayer[r] = pl
        self.ctr = np.zeros(K.NCTR, dtype=np.int64)
        self.ctr[K.C_LAB] = 1
        self.ctr[K.C_CAP] = self.arr.cap
        self.ctr[K.C_ROOTS] = len(roots_player)
        nbm = max(nb, 1)
        ng = len(prob.goals)
        nareas = max(1, 0 if areas is None else len(areas[2]) - 1)
        self.scratch = K.Scratch(
            boxat=np.full(ncells, -1, dtype=np.int32),
            mark=np.zeros(ncells, dtype=np.int64),
            mark2=np.zeros(ncells, dtype=np.int64),
            queue=np.empty(ncells, dtype=np.int64),
            cells=np.empty(nb, dtype=np.int64),
            sorted_cells=np.empty(nb, dtype=np.int64),
            fz=np.zeros(nbm, dtype=np.uint8),
            lab=np.zeros(ncells, dtype=np.int64),
            bseen=np.zeros(nbm, dtype=np.int64),
            allow=np.zeros(4 * nbm, dtype=np.uint8),
            pa_box=np.full(nareas, -1, dtype=np.int64),
            pa_tgt=np.full(nareas, -1, dtype=np.int64),
            pa_end=np.empty(nareas, dtype=np.int64),
            pa_move=np.zeros((nareas, 2), dtype=np.int64),
            ca_tgt=np.full(nbm, -1, dtype=np.int64),
            one=np.full(6, -1, dtype=np.int64),
            # the freeze test runs forward only: the backward direction's cache is a token one
            fg=K.frozen_goals_cache(1, 1, 1, most=1) if backward else K.frozen_goals_cache(nb, ng, ncells),
        )
        self.assign = K.Assign(
            u=np.zeros(nbm + 1, dtype=np.int64),
            v=np.zeros(ng + 1, dtype=np.int64),
            p=np.zeros(ng + 1, dtype=np.int64),
            way=np.zeros(ng + 1, dtype=np.int64),
            minv=np.zeros(ng + 1, dtype=np.int64),
            used=np.zeros(ng + 1, dtype=np.uint8),
            u2=np.zeros(nbm + 1, dtype=np.int64),
            v2=np.zeros(ng + 1, dtype=np.int64),
            p2=np.zeros(ng + 1, dtype=np.int64),
            **_duals_cache(nbm, ng),
        )
        self.goal_scratch = K.GoalScratch(
            vis=np.zeros(4 * ncells, dtype=np.int64),
            stamp=np.zeros(1, dtype=np.int64),
            qbox=np.empty(4 * ncells + 1, dtype=np.int64),
            qpl=np.empty(4 * ncells + 1, dtype=np.int64),
            qg=np.empty(4 * ncells + 1, dtype=np.int64),
            mark=np.zeros(ncells, dtype=np.int64),
            out=np.zeros(1, dtype=np.int64),
            want=np.zeros(ncells, dtype=np.uint8),
            qpar=np.empty(4 * ncells + 1, dtype=np.int64),
            empty=np.full(ncells, -1, dtype=np.int32),
            path=np.empty(8 * ncells + 2, dtype=np.int64),
            nov=_novelty_table(settings.novelty, nb, ncells),
        )
        # the corral test runs in the forward search only: the backward one gets placeholders
        self.corral_scratch = _corral_scratch(1, 1, 0, 1) if backward else _corral_scratch(ncells, nbm)
        garea, forder, fstart = _NO_AREAS if areas is None else areas
        self.board = K.Board(
            prob.floor, prob.goalm, prob.goals, dead, dist, prob.off, zbox, zpl, garea, forder, fstart, _NO_HOT,
            _NO_TUNNELS, *_NO_PAIRS, _NO_INFLUENCE,
        )  # fmt: skip
        axes = 2 if settings.novelty_cells else 1  # the new positions' twin cells (see K.expand_kernel)
        self.croot = np.full(axes * (nb + 1) * K.NOOP * K.NHOT * K.NCONN, -1, dtype=np.int32)
        self.budget = 64
        self.done = False

    def cut(self, prob: Problem, rel: Relevance | None) -> K.Settings:
        """Turn this direction's relevance cuts on (``rel``; None: they stay off, as does a level
        too large for the influence table); its settings."""
        if rel is None:
            return self.settings
        influence = _once("influence", prob, lambda: influence_table(prob))
        if influence is not None:
            self.board = self.board._replace(influence=influence)
            self.settings = self.settings._replace(
                relevance_window=rel.window, relevance_distant=rel.distant, relevance_reach=rel.reach
            )
        return self.settings

    def run(self, kernel: Any, other: _Direction | None) -> int:
        """One slice of at most ``budget`` expansions; the kernel's status."""
        pool = self.arr.pool()
        others = pool._replace(table=_EMPTY_TABLE) if other is None else other.arr.pool()
        status = kernel(
            self.board,
            pool,
            self.arr.frontier(self.croot),
            others,
            self.ctr,
            self.settings,
            self.budget,
            self.scratch,
            self.assign,
            self.goal_scratch,
            self.corral_scratch,
        )
        return int(status)

    def grow(self) -> bool:
        """Double the pool; False when the memory cap forbids it."""
        if self.arr.cap >= self.max_cap:
            return False
        self.arr.grow(min(self.max_cap, self.arr.cap * 2), int(self.ctr[K.C_NODES]), int(self.ctr[K.C_HEAP]))
        self.ctr[K.C_CAP] = self.arr.cap
        return True


#: Memory of one direction's duals' cache (see ``K.Assign``), and its bounds in slots.
DUALS_BYTES = 32 << 20
DUALS_SLOTS = (1 << 8, 1 << 16)


def _duals_cache(nb: int, ng: int) -> dict[str, np.ndarray]:
    """The duals' cache of ``K.Assign``: a power of two of slots, as many as fit in
    :data:`DUALS_BYTES` within :data:`DUALS_SLOTS` (empty arrays: only the slots a
    search fills are ever touched)."""
    row = 8 * (nb + 1 + 2 * (ng + 1))
    lo, hi = DUALS_SLOTS
    slots = max(lo, min(hi, 1 << max(0, (DUALS_BYTES // row).bit_length() - 1)))
    return {
        "cnode": np.full(slots, -1, dtype=np.int64),
        "cu": np.empty((slots, nb + 1), dtype=np.int64),
        "cv": np.empty((slots, ng + 1), dtype=np.int64),
        "cp": np.empty((slots, ng + 1), dtype=np.int64),
    }


def _corral_scratch(
    ncells: int, nb: int, max_nodes: int = CORRAL_MAX_NODES, cache: int = 1 << 16
) -> tuple[NDArray[Any], ...]:
    """Scratch space of :func:`~._kernels.corral_deadlock_kernel` (its order is the kernel's) for
    searches of at most ``max_nodes`` positions and a verdict cache of ``cache`` slots (a power of 2)."""
    queue = 16 * max_nodes
    return (
        np.zeros(ncells, dtype=np.int64),  # clab: corral labels
        np.zeros(1, dtype=np.int64),  # cgen: label and stamp counter
        np.zeros(nb, dtype=np.int64),  # bst: box stamps
        np.zeros(nb, dtype=np.int64),  # blist: the corral's boxes
        np.full(ncells, -1, dtype=np.int32),  # sboxat
        np.zeros(ncells, dtype=np.int64),  # smark
        np.zeros((queue, nb), dtype=np.int32),  # qb: queued positions
        np.zeros(queue, dtype=np.int64),  # qp: their players
        np.zeros((max_nodes, nb), dtype=np.int32),  # vb: visited positions
        np.zeros(max_nodes, dtype=np.int64),  # vp: their normalised players
        np.zeros(max(4 * max_nodes, 1), dtype=np.int64),  # vtab: visited table
        np.zeros(max(4 * max_nodes, 1), dtype=np.int64),  # vgen: its generations
        np.zeros(nb, dtype=np.int64),  # scells
        np.zeros(nb, dtype=np.uint8),  # fz2
        np.full(cache, -1, dtype=np.int64),  # ckey: cache keys
        np.zeros(cache, dtype=np.uint8),  # cval: cached verdicts
        np.zeros(4, dtype=np.int64),  # cstat: checks, cache hits, deadlocks
        np.empty(ncells, dtype=np.int64),  # cq: flood queue
    )


_EMPTY_TABLE = np.zeros(1, dtype=np.int32)
_CACHE: dict[str, tuple[Problem, Any]] = {}


#: Pair tables of the last levels seen, by what they depend on (the floor and the goals; for the
#: start's pairs, the start too): the portfolio's searches, later solves of the same level and the
#: playground's board share them.
_PAIR_TABLES: OrderedDict[tuple[object, ...], PairTable] = OrderedDict()
_PAIR_TABLES_KEPT = 16


def dead_pairs(prob: Problem, deadline: float = math.inf, *, reach: bool = False) -> PairTable | None:
    """:func:`pair_table` of ``prob`` (with ``reach``, the start's pairs), kept for the last
    levels seen (a table given up at ``deadline`` is not kept: a later search builds it again)."""
    key: tuple[object, ...] = (prob.width, prob.floor.tobytes(), prob.goalm.tobytes())
    if reach:
        key += (prob.boxes.tobytes(), int(prob.player))
    table = _PAIR_TABLES.get(key)
    if table is None:
        table = pair_table(prob, reach=reach, deadline=deadline)
        if table is None:
            return None
        _PAIR_TABLES[key] = table
        if len(_PAIR_TABLES) > _PAIR_TABLES_KEPT:
            _PAIR_TABLES.popitem(last=False)
    _PAIR_TABLES.move_to_end(key)
    return table


def pair_bounds(prob: Problem, lidx: NDArray[np.int32]) -> NDArray[np.int32]:
    """``m2[lidx[a], lidx[b]]``: the fewest pushes that put lone boxes on ``a`` and ``b`` on two
    different goals, each on its own lone-box distance (:attr:`Problem.dist`; a large number
    when there is no such pair of goals): the bound that :func:`~._kernels.pair_penalty_kernel`
    compares with the pair table's count.

    Two boxes side by side, the player on their goals' side: one must go round the other.

    >>> from mazekit.sokoban import parse_level
    >>> p = Problem.from_level(parse_level("#########\\n#.  $   #\\n#. @$   #\\n#########"))
    >>> alive, lidx, fidx = pair_table(p)
    >>> a, b = lidx[p.boxes]
    >>> int(pair_bounds(p, lidx)[a, b])  # three pushes each
    6
    >>> int(alive[a, b, fidx[p.player]]) - 1, int(alive[a, b, fidx[p.cell(1, 6)]]) - 1  # player left, right
    (10, 6)
    """
    live = np.flatnonzero(lidx >= 0)  # in cell order, which is lidx's
    far = np.int64(BIG_PAIR)
    d = prob.dist[:, live].astype(np.int64)
    d[d < 0] = far
    if d.shape[0] < 2:
        return np.full((len(live), len(live)), far, dtype=np.int32)
    first = d.argmin(axis=0)
    b1 = d[first, np.arange(len(live))]
    d2 = d.copy()
    d2[first, np.arange(len(live))] = far
    b2 = d2.min(axis=0)
    same = first[:, None] == first[None, :]
    apart = b1[:, None] + b1[None, :]
    m2 = np.where(same, np.minimum(b1[:, None] + b2[None, :], b2[:, None] + b1[None, :]), apart)
    out: NDArray[np.int32] = np.minimum(m2, far).astype(np.int32)
    return out


#: What :func:`pair_bounds` gives a pair that no two goals take (no penalty then).
BIG_PAIR = 1 << 20


def _once(name: str, prob: Problem, make: Callable[[], Any]) -> Any:
    """``make()`` for the last problem seen under ``name``: computed once for the portfolio's searches."""
    if name not in _CACHE or _CACHE[name][0] is not prob:
        _CACHE[name] = (prob, make())
    return _CACHE[name][1]


def _areas_of(
    prob: Problem, deadline: float, *, start: bool = False
) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]]:
    """:func:`goal_areas` (``start``: :func:`start_areas`) of the last problem seen, computed once
    for the portfolio's searches."""
    areas: tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]] = _once(
        "start_areas" if start else "areas", prob, lambda: goal_areas(prob, deadline=deadline, start=start)
    )
    return areas


_NO_AREAS = (np.full(1, -1, dtype=np.int32), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))


def _start_as_goals(
    board: K.Board,
    prob: Problem,
    areas: tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]] | None,
    target: NDArray[np.int64],
) -> K.Board:
    """The backward direction's board for its feature cells (``backward_fess``): the box cells of
    ``target`` (the start's, or a relay's forward position) are its goals (the packing feature
    counts the boxes on them), with the goal areas ``areas`` the direction was built with
    (:func:`start_areas`) or none. The pulls themselves read only the board's distances to those
    cells, which are its own."""
    start = np.zeros_like(prob.goalm)
    start[target] = 1
    board = board._replace(goals=target.astype(prob.goals.dtype), goalm=start)
    if areas is None:
        return board._replace(garea=np.full(prob.height * prob.width, -1, dtype=_NO_AREAS[0].dtype))
    return board


def hot_table(prob: Problem) -> NDArray[np.uint8] | None:
    """The hotspot table of :func:`~._kernels.hot_table_kernel` (``hot[x, y]`` 1 when a box on
    ``x`` cuts a lone box on ``y`` off every goal), or None for a level of more than
    :data:`~._kernels.HOT_MAX_CELLS` cells."""
    ncells = prob.height * prob.width
    if ncells > K.HOT_MAX_CELLS:
        return None
    hot = np.zeros((ncells, ncells), dtype=np.uint8)
    K.hot_table_kernel.pick(ncells * ncells)(
        prob.floor, prob.off, prob.goals, hot, np.zeros(ncells, dtype=np.int64), np.empty(ncells, dtype=np.int64)
    )
    return hot


#: The most cells (padded) a level may have for the relevance cuts' influence table (a byte a pair).
INFLUENCE_CELLS = 4096


def influence_table(prob: Problem) -> NDArray[np.uint8] | None:
    """The influence distance between every two floor cells of a level (after Rolling Stone's
    influence; see :class:`Relevance`): ``table[x, y]`` the cheapest walk over the floor from
    ``x`` to ``y`` where entering a corridor cell (floor on two opposite sides only) costs 0, a
    cell with three or four floor neighbours 2 (room to go round) and any other 1; at most 255,
    255 off the floor. None for a level of more than :data:`INFLUENCE_CELLS` cells (padded).

    >>> from mazekit.sokoban import parse_level
    >>> from mazekit.sokoban.solver.problem import as_problem
    >>> prob = as_problem(parse_level("#######\\n#@ $ .#\\n#######"))
    >>> t = influence_table(prob)
    >>> a, b = np.flatnonzero(prob.floor)[[0, -1]]  # the corridor's ends: dead ends, costing 1
    >>> int(t[a, b]), int(t[b, a]), int(t[a, a])    # the corridor between them costs nothing
    (1, 1, 0)
    """
    ncells = prob.height * prob.width
    if ncells > INFLUENCE_CELLS:
        return None
    floor, off = prob.floor, prob.off
    cells = np.flatnonzero(floor)
    near = [floor[cells + d] != 0 for d in off]  # off: the four directions, opposites paired
    count = sum(n.astype(np.int64) for n in near)
    corridor = (count == 2) & ((near[0] & near[1]) | (near[2] & near[3]))
    cost = np.zeros(ncells, dtype=np.int64)
    cost[cells] = np.where(corridor, 0, np.where(count >= 3, 2, 1))
    table = np.full((ncells, ncells), 255, dtype=np.uint8)
    work = [np.empty(ncells, dtype=np.int64) for _ in range(3)]
    K.influence_kernel.pick(ncells * ncells)(floor, off, cost, table, *work)
    return table


def pair_table(prob: Problem, *, reach: bool = False, deadline: float = math.inf) -> PairTable | None:
    """The dead pairs of a level: ``(alive, lidx, fidx)`` where ``alive[lidx[a], lidx[b], fidx[p]]``
    is not 0 when boxes on ``a`` and ``b`` alone, the player on ``p``, can still be pushed onto
    two goals: then it is 1 plus the fewest pushes that takes, at most 255 (see
    :func:`~._kernels.pair_table_kernel`); ``lidx`` is -1 off the live cells
    (floor that is no dead square), ``fidx`` off the floor. None for a level of fewer than
    two live cells, or whose table would take more than :data:`PAIR_TABLE_BYTES`, or
    not done when ``time.perf_counter()`` passes ``deadline`` (numba's compiling apart).

    With ``reach``, the start's pairs instead: not 0 (1 plus the fewest pushes) when two of the
    start's boxes alone can be pushed to ``a`` and ``b`` with the player ending on ``p``'s side (live: the cells some
    start box can be pushed to). A position with a pair that is 0 here is reached by no
    solution (the backward search's pruning).

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> p = Problem.from_level(parse_level("#######\\n#.$  .#\\n#$ #  #\\n#  @  #\\n#######"))
    >>> alive, lidx, fidx = pair_table(p)
    >>> a, b = lidx[p.cell(1, 2)], lidx[p.cell(2, 1)]  # the two boxes close the top-left corner
    >>> # player outside: dead; inside: 1 + 4 pushes (the top box three to the right, the other one up)
    >>> int(alive[a, b, fidx[p.player]]), int(alive[a, b, fidx[p.cell(1, 1)]])
    (0, 5)
    >>> seen, lidx, fidx = pair_table(p, reach=True)  # the start itself; the player cannot get in
    >>> int(seen[a, b, fidx[p.player]]), int(seen[a, b, fidx[p.cell(1, 1)]])
    (1, 0)
    """
    ncells = prob.floor.shape[0]
    if reach:
        dist = np.full((len(prob.boxes), ncells), -1, dtype=np.int32)
        K.push_distances_kernel.pick(ncells * len(prob.boxes))(
            prob.floor, prob.off, prob.boxes, dist, np.empty(ncells, dtype=np.int64)
        )
        live = np.flatnonzero((prob.floor != 0) & (dist >= 0).any(axis=0)).astype(np.int64)
        seedm = np.zeros(ncells, dtype=np.uint8)
        seedm[prob.boxes] = 1
        player, forward = int(prob.player), 1
    else:
        live = np.flatnonzero((prob.floor != 0) & (prob.dead == 0)).astype(np.int64)
        seedm, player, forward = prob.goalm, -1, 0
    floor_cells = np.flatnonzero(prob.floor).astype(np.int64)
    m, nf = len(live), len(floor_cells)
    if m < 2 or m * m * nf > PAIR_TABLE_BYTES:
        return None
    lidx = np.full(ncells, -1, dtype=np.int32)
    lidx[live] = np.arange(m, dtype=np.int32)
    fidx = np.full(ncells, -1, dtype=np.int32)
    fidx[floor_cells] = np.arange(nf, dtype=np.int32)
    alive = np.zeros((m, m, nf), dtype=np.uint8)
    regions = len(_regions(prob, prob.boxes[:0])) + 6  # at most, with two boxes (see the kernel)
    work = K.PairWork(
        prob.floor, prob.off, live, lidx, fidx, floor_cells, seedm, player, forward, alive,
        np.full(ncells, -1, dtype=np.int32), np.zeros(ncells, dtype=np.int64), np.zeros(ncells, dtype=np.int64),
        np.empty(ncells, dtype=np.int64), np.empty(regions * m * m // 2 + 1, dtype=np.int64),
        np.empty(regions, dtype=np.int64), np.zeros(5, dtype=np.int64),
    )  # fmt: skip
    kernel = K.pair_table_kernel.pick(m * m * nf)
    compiled0 = compile_seconds()
    # slices of about PAIR_SLICE floods, so that the clock is read every few milliseconds
    while not kernel(work, max(1, PAIR_SLICE // nf)):
        if time.perf_counter() - (compile_seconds() - compiled0) > deadline:
            return None
    return alive, lidx, fidx


def tunnels(prob: Problem) -> NDArray[np.int32]:
    """Each cell's tunnel between rooms, -1 outside one (Festival's room connectivity).

    A passage cell is a floor cell with walls on both sides along one axis (a doorway or a
    corridor one cell wide); a room, a group of floor cells 4-connected without passage
    cells; a tunnel, a group of passage cells 4-connected that touches two rooms or more.
    Passages that lead into one room only (dead ends, loops back) are not tunnels: a box
    there cuts no room off another.
    """
    floor, off = prob.floor, [int(d) for d in prob.off]
    ncells = floor.shape[0]
    cells = np.flatnonzero(floor)
    passage = np.zeros(ncells, dtype=bool)
    for x in (int(c) for c in cells):
        walls = [floor[x + d] == 0 for d in off]  # off: the four directions, opposites paired
        passage[x] = (walls[0] and walls[1]) or (walls[2] and walls[3])

    def groups(inside: NDArray[np.bool_]) -> NDArray[np.int32]:
        label = np.full(ncells, -1, dtype=np.int32)
        n = 0
        for x0 in (int(c) for c in cells):
            if not inside[x0] or label[x0] >= 0:
                continue
            label[x0] = n
            todo = [x0]
            while todo:
                x = todo.pop()
                for d in off:
                    y = x + d
                    if floor[y] != 0 and inside[y] and label[y] < 0:
                        label[y] = n
                        todo.append(y)
            n += 1
        return label

    room = groups((floor != 0) & ~passage)
    group = groups(passage)
    touches: dict[int, set[int]] = {}
    for x in (int(c) for c in np.flatnonzero(passage)):
        for d in off:
            if room[x + d] >= 0:
                touches.setdefault(int(group[x]), set()).add(int(room[x + d]))
    out = np.full(ncells, -1, dtype=np.int32)
    for t, g in enumerate(sorted(g for g, rooms in touches.items() if len(rooms) >= 2)):
        out[group == g] = t
    return out


def _regions(prob: Problem, boxes: NDArray[np.int64]) -> list[int]:
    """One cell of each region of free floor around ``boxes`` (the backward search's players)."""
    occupied = set(int(b) for b in boxes)
    seen: set[int] = set()
    out = []
    for x0 in (int(x) for x in np.flatnonzero(prob.floor)):
        if x0 in occupied or x0 in seen:
            continue
        out.append(x0)
        seen |= _region(prob, occupied, x0)
    return out


def _min_region_cell(prob: Problem, boxes: NDArray[np.int64], player: int) -> int:
    return min(_region(prob, set(int(b) for b in boxes), player))


class _Search:
    """One search: its directions, run in alternating slices until one reaches a verdict.

    The forward direction pushes from the start; with ``bidirectional`` a backward
    direction pulls from every player region around the filled goals, and each
    looks up its new states in the other's table. A slice is one kernel call of
    ``budget`` expansions; the budgets adapt so that each direction gets its share
    of the time (``fixed_slice`` > 0: that many expansions each, whatever the
    clock says, so that a run does not depend on the machine's speed).
    Preparing keeps to ``deadline`` (a ``time.perf_counter()`` time): the goal
    areas' packing orders are cut short there (see :func:`goal_areas`), and a pair
    table not built by half the time left is given up (see :func:`pair_table`).
    """

    def __init__(
        self, prob: Problem, opts: SearchOptions, optimal: bool, memory: int, deadline: float = math.inf
    ) -> None:
        nb = len(prob.boxes)
        ncells = prob.height * prob.width
        if ncells >= 1 << 18:
            raise ValueError(f"a {prob.height - 2}x{prob.width - 2} level is too large for the solver (< 262144 cells)")
        if optimal:
            opts = opts.for_optimal()
        self.prob, self.opts, self.optimal = prob, opts, optimal
        bidirectional = opts.bidirectional and nb == len(prob.goals) and nb > 0
        macros = 0 if not opts.macros else (2 if opts.strict_packing else 1)
        self.strict = macros == 2
        box_bytes = 2 if ncells < 32767 else 4
        max_cap = _cap_for(int(memory) // (2 if bidirectional else 1), nb, box_bytes)
        rng = np.random.default_rng(0x5EED)
        zbox = rng.integers(0, 1 << 62, size=ncells, dtype=np.int64)
        zpl = rng.integers(0, 1 << 62, size=ncells, dtype=np.int64)
        areas = _areas_of(prob, deadline) if (macros and nb) or opts.fess else None
        hot = hot_table(prob) if opts.fess and (opts.hot_advisor or opts.hot_feature) else None
        if hot is None:  # off, or too large a level: both hotspot options off
            opts = replace(opts, hot_advisor=0, hot_feature=False)
        if not opts.fess:
            opts = replace(opts, room_feature=False)
        novelty = _novelty_width(opts.novelty, nb, ncells) if opts.fess else 0
        settings = K.Settings(
            optimal=int(optimal),
            weight=opts.weight,
            corrals=int(opts.corrals),
            backward=0,
            goal_player=-1,
            macros=macros,
            fess=int(opts.fess),
            corral_nodes=opts.corral_nodes,
            corral_boxes=opts.corral_boxes,
            corral_grow=opts.corral_grow,
            player_penalty=opts.player_penalty,
            move_weight=opts.move_weight,
            pack_advisor=opts.pack_advisor,
            conn_advisor=opts.conn_advisor,
            hot_advisor=opts.hot_advisor,
            oop_advisor=opts.oop_advisor,
            hot_feature=int(opts.hot_feature),
            room_feature=int(opts.room_feature),
            open_advisor=opts.open_advisor if opts.fess else 0,
            pair_penalty=0,
            box_runs=int(opts.box_runs),
            novelty=novelty,  # without move weights the new positions always have cells of their own
            novelty_cells=int(novelty > 0 and (opts.novelty_cells or not opts.move_weight)),
            pack_tries=opts.pack_tries,
            relevance_window=0,
            relevance_distant=0,
            relevance_reach=0,
        )
        self.fwd = _Direction(
            prob, settings, max_cap, prob.boxes, [prob.player], prob.dead, prob.dist, zbox, zpl, areas
        )
        if hot is not None:
            self.fwd.board = self.fwd.board._replace(hot=hot)
        if opts.room_feature:
            self.fwd.board = self.fwd.board._replace(tunnel=tunnels(prob))
        settings = self.fwd.cut(prob, opts.relevance)
        # a table that would take more than half the time left is given up: the search runs without
        tables_by = time.perf_counter() + (deadline - time.perf_counter()) / 2
        penalties = opts.pair_penalty and not optimal  # A* keeps its admissible bound
        pairs = dead_pairs(prob, tables_by) if opts.dead_pairs or penalties else None
        if pairs is not None:
            self.fwd.board = self.fwd.board._replace(pairs=pairs[0], lidx=pairs[1], fidx=pairs[2])
            if penalties:
                self.fwd.board = self.fwd.board._replace(pm2=pair_bounds(prob, pairs[1]))
                self.fwd.settings = settings = settings._replace(pair_penalty=1)
        roots = _regions(prob, prob.goals) if bidirectional else []
        self._backward_by = (max_cap, zbox, zpl, tables_by, deadline, roots)
        # no backward direction when the filled goals leave the player no room
        self.bwd = self._backward(prob.boxes, prob.player) if roots else None
        self.dirs = [self.fwd] if self.bwd is None else [self.fwd, self.bwd]
        self.active = list(self.dirs)
        #: the lowest bound each direction has stored so far and the history of its falls
        #: ``(seconds, direction, bound)``: how the search progresses (read by
        #: ``benchmarks/portfolio_members.py``)
        self.best = [math.inf] * len(self.dirs)
        self.history: list[tuple[float, int, int]] = []
        #: the feature cells each direction has held a position in, as seen between slices (a
        #: best-first direction has none), and the history of their count ``(seconds, direction,
        #: cells)``: FESS's sign of progress, new ground in feature space
        self.cells_seen = [np.zeros(d.croot.shape[0], dtype=bool) for d in self.dirs]
        self.cell_history: list[tuple[float, int, int]] = []
        self.compile_seconds = 0.0
        #: relays (see :class:`Relays`): the backward directions started so far, and the states the
        #: ones replaced had stored and expanded
        self.relays = 0
        self.retired = (0, 0)
        self.next_relay = math.inf

    def _backward(self, target: NDArray[np.int64], player: int, relay: bool = False) -> _Direction:
        """A backward direction: pulls from every player region around the filled goals towards
        the boxes on ``target`` (sorted padded cells) and the player's region of ``player``: the
        start, or (``relay``) a forward position (see :class:`Relays`), whose feature cells have no
        start areas."""
        prob, opts = self.prob, self.opts
        max_cap, zbox, zpl, tables_by, deadline, roots = self._backward_by
        nb, ncells = len(prob.boxes), prob.height * prob.width
        bdist = np.full((nb, ncells), -1, dtype=np.int32)
        K.push_distances_kernel.pick(ncells * nb)(prob.floor, prob.off, target, bdist, np.empty(ncells, dtype=np.int64))
        bdead = ((bdist < 0).all(axis=0) & (prob.floor != 0)).astype(np.uint8)
        areas = opts.backward_fess and opts.backward_areas and not relay
        starts = _areas_of(prob, deadline, start=True) if areas else None
        # the corral test, the macros, the advisors, move weights and the feature cells'
        # fourth axis are forward only (the backward direction has no goal areas: strict
        # packing's goal step read past them); its feature space and tunnels are its own options
        back = self.fwd.settings._replace(
            weight=opts.backward_weight or opts.weight,
            backward=1,
            goal_player=_min_region_cell(prob, target, player),
            fess=int(opts.backward_fess),
            corral_nodes=0,
            macros=0,
            pair_penalty=0,
            box_runs=0,
            novelty=0,
            novelty_cells=0,
            move_weight=0,
            pack_advisor=opts.pull_advisor if starts is not None else 0,
            conn_advisor=0,
            hot_advisor=0,
            oop_advisor=0,
            open_advisor=0,
            hot_feature=0,
            room_feature=int(opts.backward_fess and opts.backward_rooms),
            relevance_window=0,
            relevance_distant=0,
            relevance_reach=0,
        )
        bwd = _Direction(prob, back, max_cap, prob.goals, roots, bdead, bdist, zbox, zpl, starts)
        bwd.cut(prob, opts.backward_relevance)
        if opts.backward_fess:
            bwd.board = _start_as_goals(bwd.board, prob, starts, target)
        if back.room_feature:  # tunnels are the floor's: the same both ways
            bwd.board = bwd.board._replace(tunnel=tunnels(prob))
        seen = dead_pairs(prob, tables_by, reach=True) if opts.reach_pairs else None
        if seen is not None:
            bwd.board = bwd.board._replace(pairs=seen[0], lidx=seen[1], fidx=seen[2])
        return bwd

    def stats(self, elapsed: float, stopped: Stop) -> SearchStats:
        """The statistics so far (both directions)."""
        nodes = sum(int(d.ctr[K.C_NODES]) for d in self.dirs) + self.retired[0]
        return SearchStats(nodes, self.expanded(), elapsed + self.compile_seconds, stopped, self.compile_seconds)

    def expanded(self) -> int:
        """States expanded so far (both directions, the relays' earlier backward ones too)."""
        return sum(int(d.ctr[K.C_EXPANDED]) for d in self.dirs) + self.retired[1]

    def plan_relays(self, time_limit: float | None) -> None:
        """When the first relay comes (``math.inf``: none), for a run of ``time_limit`` seconds."""
        rel = self.opts.relays  # (A*'s options have none: SearchOptions.for_optimal)
        if rel is None or self.bwd is None or time_limit is None:
            self.next_relay = math.inf
        else:
            self.next_relay = rel.lead * time_limit

    def relay_when_due(self, elapsed: float) -> None:
        """A relay (:meth:`relay`) when ``elapsed`` seconds of the run have reached the next one's time."""
        if elapsed >= self.next_relay and self.opts.relays is not None:
            self.relay()
            self.next_relay = elapsed + self.opts.relays.each

    def relay(self) -> None:
        """Start the backward direction again, aimed at a forward position drawn at random from those
        at least as deep as the median stored one (see :class:`Relays`)."""
        fwd, old, rel = self.fwd, self.bwd, self.opts.relays
        assert old is not None and rel is not None
        g = fwd.arr.pg[: int(fwd.ctr[K.C_NODES])]
        deep = np.flatnonzero(g >= np.median(g))
        node = int(np.random.default_rng((rel.seed, self.relays)).choice(deep))
        self.relays += 1
        bwd = self._backward(fwd.arr.pboxes[node].astype(np.int64), int(fwd.arr.pplayer[node]), relay=True)
        self.retired = (
            self.retired[0] + int(old.ctr[K.C_NODES]),
            self.retired[1] + int(old.ctr[K.C_EXPANDED]),
        )
        i = self.dirs.index(old)
        self.dirs[i] = self.bwd = bwd
        self.active = [d for d in self.active if d is not old] + [bwd]
        # the lowest bound and the cells seen so far stay: a stall is a search whose bounds stop
        # falling (or that reaches no new cells), and a new direction's first bounds and cells
        # (towards another position) are no sign of progress

    def verdict(self, cur: _Direction, status: int) -> Stop | None:
        """What one slice's status means for the search (None: go on)."""
        if status == K.SOLVED:
            return "solved"
        if status == K.EXHAUSTED and (
            (cur is self.fwd and self.strict) or cur.ctr[K.C_CUTS] > 0 or (cur is self.bwd and self.relays > 0)
        ):
            # the strict packing order (forward) or a direction's relevance cuts cut every way on,
            # or a relay's backward direction (aimed at a forward position, not the start) ran out:
            # not a proof; the other direction goes on alone (still meeting this one's states), or
            # the search stops as if its time had run out
            self.active.remove(cur)
            return None
        if status == K.EXHAUSTED:
            return "unsolvable"
        if status == K.MEMORY and not cur.grow():
            # this direction is full: the other goes on alone (still meeting its states)
            self.active.remove(cur)
            return None if self.active else "memory"
        return None

    def last_sign(self, signs: Signs) -> float:
        """The seconds at which the search last showed a sign of progress of ``signs`` (0: none yet)."""
        last = 0.0
        if signs in ("bound", "either") and self.history:
            last = self.history[-1][0]
        if signs in ("cells", "either") and self.cell_history:
            last = max(last, self.cell_history[-1][0])
        return last

    def note_progress(self, elapsed: float) -> None:
        """Record a fall of either direction's lowest stored bound, and new feature cells."""
        for i, d in enumerate(self.dirs):
            if d.ctr[K.C_INIT] == 0:
                continue  # no roots yet: its bound is not known (the counter still reads 0)
            b = int(d.ctr[K.C_BEST_H])
            if b < self.best[i]:
                self.best[i] = b
                self.history.append((elapsed, i, b))
            fresh = (d.croot >= 0) & ~self.cells_seen[i]
            if fresh.any():
                self.cells_seen[i] |= fresh
                self.cell_history.append((elapsed, i, int(np.count_nonzero(self.cells_seen[i]))))

    def adapt(self, cur: _Direction, spent: float, slice_seconds: float, fixed_slice: int) -> None:
        """Set the direction's next budget so that its slices take its share of the time."""
        if fixed_slice:
            cur.budget = fixed_slice
            return
        back = self.opts.backward_share if self.relays == 0 or self.opts.relays is None else self.opts.relays.share
        share = back if cur.settings.backward else 1 - back
        want = slice_seconds if len(self.active) == 1 else 2 * slice_seconds * share
        if spent < want / 2:
            cur.budget = min(cur.budget * 2, 1 << 22)
        elif spent > want * 2 and cur.budget > 16:
            cur.budget //= 2

    def run(
        self,
        t0: float,
        time_limit: float | None,
        progress: Progress | None,
        slice_seconds: float,
        fixed_slice: int,
        max_expansions: int | None,
        stall: Stall | None = None,
    ) -> tuple[Stop, _Direction | None]:
        """Slices until a verdict, the time limit, the expansion cap, a ``stall`` (then
        ``"time"``: the search yields its time) or Ctrl-C: ``(why it stopped, the direction that
        found the solution)``."""
        from ..._jit import THRESHOLD

        # a first small slice runs uncompiled (tiny levels need no compiler); the rest compiled
        ncells = self.prob.height * self.prob.width
        kernel = K.search_kernel.pick(ncells)
        if kernel is K.search_kernel.py_func and not fixed_slice:
            # plain Python expands a state in about 0.1 ms a cell: a few states only, so that
            # the time limit is looked at soon (64 on a 1,440-cell level took 10 s)
            for d in self.dirs:
                d.budget = max(1, min(d.budget, PYTHON_SLICE_CELLS // ncells))
        self.plan_relays(time_limit)
        try:
            while self.active:
                for cur in list(self.active):
                    # the first compiled call in a process compiles the kernel (or loads it from
                    # numba's cache): that one-off cost is not charged to the time limit
                    first_compiled = kernel is not K.search_kernel.py_func and not getattr(kernel, "signatures", True)
                    if (
                        first_compiled
                        and progress is not None
                        and progress(self.stats(time.perf_counter() - t0, "time"), "compiling")
                    ):
                        return "interrupted", None
                    ts = time.perf_counter()
                    if first_compiled:
                        compile_in_parts()  # once per installation: the helpers on two cores first
                    status = cur.run(kernel, self.bwd if cur is self.fwd else self.fwd)
                    now = time.perf_counter()
                    if first_compiled:
                        t0 += now - ts
                        self.compile_seconds += now - ts
                    stop = self.verdict(cur, status)
                    if stop is not None:
                        return stop, (cur if stop == "solved" else None)
                    if cur not in self.active:
                        continue
                    if progress is not None and progress(self.stats(time.perf_counter() - t0, "time"), "searching"):
                        return "interrupted", None
                    self.adapt(cur, now - ts, slice_seconds, fixed_slice)
                    self.note_progress(now - t0)
                if time_limit is not None and time.perf_counter() - t0 >= time_limit:
                    break
                self.relay_when_due(time.perf_counter() - t0)
                if stall is not None and stall.stalled(time.perf_counter() - t0, self.last_sign(stall.signs)):
                    break
                if max_expansions is not None and self.expanded() >= max_expansions:
                    break
                kernel = K.search_kernel.pick(THRESHOLD)
        except KeyboardInterrupt:
            return "interrupted", None
        return "time", None

    def pushes(self, winner: _Direction) -> tuple[list[tuple[int, int]], int]:
        """The solution's pushes ``(box cell, direction)``: the forward part, then the
        backward part's pulls reversed; and how many pushes that backward part has."""
        prob, fwd, bwd = self.prob, self.fwd, self.bwd
        meet = int(winner.ctr[K.C_MEET])
        node = int(winner.ctr[K.C_SOLUTION])
        fnode, bnode = (node, meet) if winner is fwd else (meet, node)
        pushes = _pushes(prob, fwd.arr, fnode) if fnode >= 0 else []
        pulls = _pushes(prob, bwd.arr, bnode, backward=True) if bnode >= 0 and bwd is not None else []  # root -> bnode
        for cell, d in reversed(pulls):
            pushes.append((cell + int(prob.off[d]), d ^ 1))
        return pushes, len(pulls)


def _search_one(
    prob: Problem,
    opts: SearchOptions,
    *,
    optimal: bool = False,
    time_limit: float | None = 10.0,
    memory: int = DEFAULT_MEMORY,
    progress: Progress | None = None,
    slice_seconds: float = 0.05,
    fixed_slice: int = 0,
    max_expansions: int | None = None,
    stall: Stall | None = None,
) -> SearchResult:
    """One search with one set of options (see :func:`search_level`), stopping early when it
    stalls (``stall``; in a portfolio ``opts.stall``, not for the last); ``fixed_slice`` and
    ``max_expansions`` make a run independent of the clock (for tests and
    ``benchmarks/solver_trace.py``)."""
    t0 = time.perf_counter()
    deadline = math.inf if time_limit is None else t0 + time_limit
    compiled0 = compile_seconds()
    search = _Search(prob, opts, optimal, memory, deadline)
    search.compile_seconds = compile_seconds() - compiled0  # preparing may compile kernels too
    start = t0 + search.compile_seconds
    stopped, winner = search.run(start, time_limit, progress, slice_seconds, fixed_slice, max_expansions, stall)
    stats = search.stats(time.perf_counter() - t0 - search.compile_seconds, stopped)
    if winner is None:
        return SearchResult(None, stats)
    pushes, backward = search.pushes(winner)
    lurd = lurd_of(prob, pushes)
    return SearchResult(Solution(lurd, len(lurd), len(pushes), optimal, stats, backward), stats)


def search_level(
    level: Level | Problem,
    *,
    time_limit: float | None = 10.0,
    optimal: bool = False,
    memory: int = DEFAULT_MEMORY,
    options: SearchOptions | None = None,
    portfolio: tuple[SearchOptions, ...] | None = None,
    progress: Progress | None = None,
    cores: int = 1,
) -> SearchResult:
    """Run the search; return the solution (or None) with the statistics.

    See :func:`solve` for ``level``, ``time_limit``, ``optimal`` and ``memory``.
    ``options`` runs that one search alone (as does ``optimal``, with the default
    options unless given). Otherwise the fast mode shares the time among the
    searches of ``portfolio`` (default :data:`PORTFOLIO`), run one after the
    other, each with its share of the time left (``SearchOptions.time_share``: equal in
    :data:`PORTFOLIO`), a search that stops making progress yielding the rest of its share to
    the searches after it (``SearchOptions.stall``: :data:`STALL` in the default portfolios, not
    for the last search); it stops at the first that
    solves the level, proves it unsolvable or is interrupted, and with no time
    limit only the first runs.

    ``cores`` above 1 runs the portfolio on that many cores, at most one a search
    (:mod:`.lanes`; :func:`~.lanes.default_cores` gives this machine's), the default
    portfolio widened to :func:`portfolio_for` ``(cores)``: the searches are cut into runs,
    one a core (:func:`~.lanes.lane_members`; the first core runs :data:`PORTFOLIO` as one
    core does, the second :data:`EXTRA`), each core runs its own one after the other with
    the whole time limit, and the first to solve the level stops the others; ``memory`` is divided between them. The
    other cores' searches run in worker processes (``spawn``), so a script that asks for them
    needs the ``if __name__ == "__main__":`` guard. It needs the compiled kernel in numba's
    cache: before the first compile the portfolio runs on one core.

    ``progress`` (a :data:`Progress` callable) is called from the searching
    thread between slices (every 50 ms or so, and before the kernel's first
    compile) with the stats so far, the portfolio's earlier searches included;
    when it returns True the search stops as Ctrl-C stops it
    (``stopped == "interrupted"``, no solution). It does not change what is
    searched.

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> r = search_level(parse_level("#####\\n#@$.#\\n#####"))
    >>> r.stats.stopped, r.solution.lurd
    ('solved', 'R')
    >>> search_level(parse_level("#####\\n#@ $#\\n# . #\\n#####")).stats.stopped
    'unsolvable'
    >>> search_level(parse_level("#####\\n#@$.#\\n#####"), options=SearchOptions(wieght=3))
    Traceback (most recent call last):
    ...
    TypeError: SearchOptions.__init__() got an unexpected keyword argument 'wieght'
    """
    t0 = time.perf_counter()
    compiled0 = compile_seconds()
    prob = as_problem(level)
    if optimal or options is not None:
        one = SearchOptions() if options is None else options
        return _search_one(prob, one, optimal=optimal, time_limit=time_limit, memory=memory, progress=progress)
    if portfolio is not None and not portfolio:
        raise ValueError("the portfolio is empty")
    if not isinstance(cores, int) or isinstance(cores, bool) or cores < 1:
        raise ValueError(f"cores must be a whole number of 1 or more, got {cores!r}")
    if cores > 1 and K.search_kernel.is_cached():
        wide = portfolio_for(cores) if portfolio is None else portfolio
        lanes = min(cores, len(wide) if portfolio is not None else MAX_CORES)  # a given one: a search a core
        if lanes > 1:
            from .lanes import run_lanes

            head = len(PORTFOLIO) if portfolio is None else None  # the first core runs PORTFOLIO as one does
            return run_lanes(
                prob, wide, lanes, first_size=head, time_limit=time_limit, memory=memory, progress=progress
            )
    if portfolio is None:
        portfolio = PORTFOLIO
    total = _Total(t0, progress)
    total.compile_time = compile_seconds() - compiled0  # the first run after installing compiles as_problem's kernels
    res: SearchResult | None = None
    for k, opts in enumerate(portfolio):
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0 - total.compile_time)
        share = None if left is None else _time_slot(left, portfolio[k:])
        if share is not None and share <= 0:
            break
        stall = opts.stall if k < len(portfolio) - 1 and time_limit is not None else None  # the last keeps its slot
        res = _search_one(prob, opts, time_limit=share, memory=memory, progress=total.report(), stall=stall)
        total.add(res.stats)
        if res.stats.stopped not in ("time", "memory") or time_limit is None:
            break
    stats = total.stats()
    if res is None:  # the time ran out while the level was being prepared: no run started
        return SearchResult(None, stats)
    sol = res.solution
    if sol is not None:
        sol = replace(sol, stats=stats)
    return SearchResult(sol, stats)


def _time_slot(left: float, searches: tuple[SearchOptions, ...]) -> float:
    """The seconds the first of ``searches`` gets of the ``left`` seconds that it and the others
    after it share (in a portfolio, each when its turn comes): its ``time_share`` over theirs.

    >>> three = (SearchOptions(time_share=3), SearchOptions(), SearchOptions())
    >>> _time_slot(60.0, three), _time_slot(24.0, three[1:]), round(_time_slot(60.0, PORTFOLIO), 1)
    (36.0, 12.0, 16.7)
    """
    return left * searches[0].time_share / sum(o.time_share for o in searches)


class _Total:
    """The statistics of a portfolio's searches so far, and a progress callback for the next
    that reports them with its own."""

    def __init__(self, t0: float, progress: Progress | None) -> None:
        self.t0, self.progress = t0, progress
        self.nodes = self.expanded = 0
        self.compile_time = 0.0
        self.stopped: Stop = "time"

    def add(self, st: SearchStats) -> None:
        self.nodes += st.nodes
        self.expanded += st.expanded
        self.compile_time += st.compile_time
        self.stopped = "memory" if st.stopped == "time" and self.stopped == "memory" else st.stopped

    def stats(self) -> SearchStats:
        # the compile clock is the process's: while another thread (the playground's warm-up)
        # compiles, a search that waits for it counts that time too; never more than the wall time
        elapsed = time.perf_counter() - self.t0
        return SearchStats(self.nodes, self.expanded, elapsed, self.stopped, min(self.compile_time, elapsed))

    def report(self) -> Progress | None:
        if self.progress is None:
            return None
        progress, n, e, c = self.progress, self.nodes, self.expanded, self.compile_time

        def report(st: SearchStats, phase: Literal["searching", "compiling"]) -> bool | None:
            elapsed = time.perf_counter() - self.t0
            total = SearchStats(n + st.nodes, e + st.expanded, elapsed, "time", min(c + st.compile_time, elapsed))
            return progress(total, phase)

        return report


def solve(
    level: Level | Problem,
    *,
    time_limit: float | None = 10.0,
    optimal: bool = False,
    memory: int = DEFAULT_MEMORY,
    cores: int = 1,
) -> Solution | None:
    """Solve a Sokoban level; return a :class:`Solution` or None.

    Parameters
    ----------
    level : Level or Problem
        An engine level (:mod:`mazekit.sokoban`; read text with
        :func:`~mazekit.sokoban.parse_level`) or a prepared :class:`~.problem.Problem`.
    time_limit : float or None
        Seconds before giving up (None: no limit). The first search in a
        process that needs the compiled kernel compiles it (once per
        installation, about 10 s; later processes load it from numba's cache
        in a fraction of a second): that call is not charged to the limit.
    optimal : bool
        False (fast): a weighted best-first search that returns any solution.
        True: A* with an admissible bound; the solution has the fewest pushes.
    memory : int
        Bytes the search may use for its states (default 4 GiB).
    cores : int
        Cores for the fast mode (see :func:`search_level`): with 2, one core runs
        :data:`PORTFOLIO` as on one core and the other runs seven more searches
        (:data:`EXTRA`), the fifth of them, its long backward search, with 43% of the time.

    Returns
    -------
    Solution or None
        None when no solution was found (unsolvable, or a limit was hit: use
        :func:`search_level` to know which).

    Notes
    -----
    A state is the set of box cells plus the player's region, named by its
    smallest cell; states are kept in a Zobrist-keyed open-addressing table in
    NumPy arrays, the open list is a binary heap in arrays, and the whole loop is
    compiled (numba through :mod:`mazekit._jit`).

    Pruning: no push onto a dead square (from which a lone box reaches no
    goal); no push that freezes a box off a goal (boxes blocked on both axes by
    walls or frozen boxes); no position without a perfect box-goal matching
    (bipartite deadlock); and when a PI-corral exists (a region the player
    cannot reach whose fence boxes can only be pushed into it, all those pushes
    possible now), only the pushes into the smallest such corral are tried.
    Corral deadlocks (forward search): when a push leaves a corral next to the
    pushed box, a small breadth-first search pushes the corral's boxes alone
    (all other boxes taken away, which only makes things easier); if it can
    neither let the player into the corral nor put those boxes on goals, the
    position is dead. Verdicts are cached by the boxes' cells and the
    regions. With ``corral_grow`` (all the portfolio's searches) the boxes
    next to the fence join it (any set of boxes gives a sound test, and a box
    that pins a fence box makes it stronger), and the corrals beside those
    boxes are checked too, since a push can close a corral it does not touch.
    Dead pairs (forward search, ``dead_pairs``): at the start, every pair of
    goals is pulled back to every position of two boxes alone it can come from
    (the player's region included); a push that leaves the pushed box and any
    other in a position not among them is not tried. This catches two boxes that
    close a pocket the player needs, which no freeze test sees. Reach pairs
    (backward, ``reach_pairs``): the same from the start, pushing every pair of
    its boxes on; a pull that leaves a pair the start cannot lead to is not tried.

    Bound: the minimum-cost matching of boxes to goals on lone-box push
    distances (Hungarian method; per child one augmenting path from the
    parent's potentials, O(boxes * goals) instead of a full solve). It is
    admissible and consistent, so ``optimal=True`` (A*, goal tested on
    expansion, forward only, no macros) returns a push-optimal solution.

    Fast mode: a portfolio of four searches (:data:`PORTFOLIO`), the first three with
    1 share of the time each and the fourth 0.6; each is a forward search of pushes and a backward search of pulls
    (from every player region around the filled goals towards the start) run
    in alternating slices (each its share of the time, ``backward_share``: half and half in
    the first and third searches, three quarters forward in the second) and stop
    when one generates a state the other holds. The backward search is
    best-first on ``weight * h + g`` (weight 10). The forward search is a
    *feature-space* search after Shoham and Schaeffer's FESS: each state falls
    in a cell named by three features, its packing (boxes on goals outside
    goal areas, plus the filled prefix of each goal area's packing order), its
    out-of-plan boxes (on goal-area goals past that prefix: none or some) and
    its connectivity (the regions of free floor: 1, 2, 3, 4 or more); the cells
    take turns, each expanding its own best state on ``weight * h + g``, so a
    plateau of look-alike states in one cell cannot starve the cells of more
    packed or better connected positions (this solves Microban 153, where
    the best-first search drowns). The first search of the portfolio adds two
    more of FESS's ideas: a packing advisor, whose move at each expansion pushes
    the box nearest to a goal area's next goal (in its packing order) all the
    way there, and move weights, a cell's states being taken first by the
    number of pushes on their way that improved no feature (an advisor's move,
    or any push that packs a box, leaves fewer closed-off regions or takes a
    box out of plan, is free). ``fess=False`` in :func:`search_level`
    gives the plain best-first forward search. Boxes pushed into one-wide
    corridors go to the end (tunnel macro); a box pushed into a goal area (4-connected goals) whose goals are
    so far filled in its packing order (found by taking boxes out of the full
    area backwards) also gets a child with the box carried on to the next goal
    of the order (goal macro, beside the plain push so the search stays
    complete). The third search of the portfolio makes relevance cuts after
    Rolling Stone's (:data:`RELEVANCE`): a forward push whose box stands far, in
    influence distance, from where the last push left its box is not tried when one
    of the five pushes before it switched place already, so the orders in which
    work on unrelated parts of the level could interleave are not all tried (no
    longer complete: a forward search that runs out with cuts made proves nothing,
    and the backward search goes on). The first search cuts its backward search's
    pulls by the same rule, with a longer reach (:data:`BACKWARD_RELEVANCE`). The fourth
    search is the first with relays (:class:`Relays`): its forward direction runs deep
    first, then its backward direction starts again from the goals every 0.6 s aimed at
    one of the forward direction's positions, drawn at random, instead of the start. The walks
    between pushes are shortest walks,
    but the moves are not minimised overall.

    Examples
    --------
    >>> from mazekit.sokoban import parse_level
    >>> sol = solve(parse_level("#######\\n#@ $ .#\\n#######"), optimal=True)
    >>> sol.lurd, sol.moves, sol.pushes, sol.optimal
    ('rRR', 3, 2, True)
    """
    return search_level(level, time_limit=time_limit, optimal=optimal, memory=memory, cores=cores).solution
