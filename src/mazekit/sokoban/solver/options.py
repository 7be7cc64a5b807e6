"""The settings of one search: :class:`SearchOptions` and its parts.

Each field says what it does; which searches use it and why is the portfolio's business
(:mod:`.portfolio`), and what they gave is on the results page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Literal, get_args

from ...errors import check_number as _number

__all__ = ["CORRAL_MAX_NODES", "DEFAULT_MEMORY", "Relays", "Relevance", "SearchOptions", "Stall"]

#: Default memory cap of one search, in bytes (4 GiB).
DEFAULT_MEMORY = 4 << 30

#: Positions one corral-deadlock search may visit at most (and its queue's length).
CORRAL_MAX_NODES = 1024

#: The signs of progress a :class:`Stall` rule can watch.
Signs = Literal["bound", "cells", "either"]


@dataclass(frozen=True, slots=True)
class Stall:
    """When a search of a portfolio has stopped making progress and yields the rest of its slot
    to the searches after it.

    It has stalled when it has run ``after`` seconds or more and its last sign of progress came
    before the last ``fraction`` of its time. Signs: ``"bound"``, a fall of either direction's
    lowest stored bound; ``"cells"``, a position in a feature cell the direction had not reached;
    ``"either"``.

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
        _number("Stall", "fraction", self.fraction, 0, 1)
        _number("Stall", "after", self.after, 0, math.inf, open_low=False)

    def stalled(self, spent: float, last: float) -> bool:
        """Whether a search that has run ``spent`` seconds, its last sign of progress at ``last``,
        has stalled."""
        return spent >= self.after and spent - last > self.fraction * spent


@dataclass(frozen=True, slots=True)
class Relevance:
    """Relevance cuts (after Rolling Stone's): a move whose box stands further than ``reach``
    (influence distance) from where the move before it left its box is *distant*; it is cut
    when ``distant`` of the ``window - 1`` moves before it were distant already.

    The search is no longer complete. The advisor's moves are never cut; levels of more than
    :data:`~.prepare.INFLUENCE_CELLS` cells (padded) get no cuts.

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
    """Backward restarts aimed at the forward direction's positions (see :mod:`.relays`).

    After ``lead`` of the search's time, the backward direction starts again from the goals every
    ``each`` seconds, with ``share`` of the time, aimed at a stored forward position drawn at
    random (seeded by ``seed``) from those at least as deep as the median one.

    >>> Relays(lead=0.3, each=1.0)
    Relays(lead=0.3, each=1.0, share=0.9, seed=0)
    """

    lead: float = 0.3
    each: float = 1.0
    share: float = 0.9
    seed: int = 0

    def __post_init__(self) -> None:
        _number("Relays", "lead", self.lead, 0, 1, open_low=False)
        _number("Relays", "each", self.each, 0, math.inf)
        _number("Relays", "share", self.share, 0, 1)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise TypeError(f"Relays.seed must be an int >= 0, got {self.seed!r}")


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The settings of one search; the fast mode runs a portfolio of them (:mod:`.portfolio`).

    A misspelt or mistyped option fails where it is written (``TypeError`` or ``ValueError``).
    With ``optimal=True`` (A*) only ``corrals`` and the corral test's bounds apply: the search
    is forward only, with no macros and no features.

    Attributes
    ----------
    weight : int
        The key is ``weight * h + g`` (h the bound, g the pushes so far); 1 or more.
    corrals : bool
        PI-corral pruning: when a corral exists, only the pushes into the smallest are tried.
    bidirectional : bool
        A backward search of pulls from the goals runs beside the forward one, in alternating
        slices, until one reaches a state the other holds (as many boxes as goals only).
    macros : bool
        Tunnel macros (a box pushed along a one-wide corridor goes to its end) and goal macros
        (a box entering a goal area also goes on to the area's next goal).
    fess : bool
        The forward search is a feature-space search (see :mod:`.kernels.features`); False:
        plain best-first.
    backward_share : float
        The backward direction's share of the time, between 0 and 1.
    backward_weight : int
        The backward direction's own ``weight`` (0: the same as ``weight``).
    corral_nodes : int
        Positions the corral-deadlock test's small search may visit (0: no test; at most
        :data:`CORRAL_MAX_NODES`).
    corral_boxes : int
        Boxes a corral may have for that test.
    corral_grow : int
        Layers of neighbouring boxes added to a corral's fence for that test.
    player_penalty : int
        Added to a backward position's bound, in its key, when the player cannot reach the
        start's player cell.
    move_weight : int
        With ``fess``: a state's key grows by this times the pushes on its way that improved
        no feature.
    pack_advisor : int
        With ``fess``: the packing advisor's moves, when a lone-box search of at most this many
        states finds the way (0: off).
    room_feature : bool
        With ``fess``: the feature cells count the tunnels between rooms that hold a box off a
        goal (0, 1, 2 or more; Festival's room connectivity).
    dead_pairs : bool
        Forward: a push that leaves two boxes in a dead pair (:mod:`mazekit.sokoban.pairs`) is
        not tried.
    reach_pairs : bool
        Backward: a pull that leaves two boxes in a pair the start cannot lead to is not tried.
    box_runs : bool
        With ``move_weight``: a push of the box the last move moved, on in the same direction,
        is free, so the weight counts straight runs of one box rather than pushes.
    backward_fess : bool
        The backward direction is a feature-space search too, its goals the start's box cells
        (no advisors, macros or move weights backward).
    backward_rooms : bool
        With ``backward_fess``: the backward feature cells count blocked tunnels.
    novelty : int
        With ``fess``, forward: a push to a new position (width 1: the moved box on a cell no
        position of the same packing had a box on; 2: with some other box, a new pair of cells)
        is free, or with ``novelty_cells`` goes to a feature cell of its own (0: off).
    novelty_cells : bool
        With ``novelty``: the new positions go to twin feature cells of their own (always so
        without move weights).
    pack_tries : int
        With ``pack_advisor``: the boxes the advisor tries for each goal area, nearest first,
        until one gets to the area's next goal alone.
    time_share : float
        In a portfolio's run, this search's part of the time left is its share over the sum of
        the shares of it and the searches after it (more than 0).
    stall : Stall or None
        In a portfolio's run, when this search stops making progress it yields the rest of its
        slot to the searches after it (None: it keeps its slot).
    relevance : Relevance or None
        Forward, not with ``optimal``: relevance cuts of the pushes (None: off).
    backward_relevance : Relevance or None
        The backward direction's relevance cuts of the pulls (None: off).
    relays : Relays or None
        With ``bidirectional``: the backward direction restarts aimed at forward positions
        (None: off).
    """

    weight: int = 10
    corrals: bool = True
    bidirectional: bool = True
    macros: bool = True
    fess: bool = True
    backward_share: float = 0.75
    backward_weight: int = 0
    corral_nodes: int = 64
    corral_boxes: int = 10
    corral_grow: int = 0
    player_penalty: int = 0
    move_weight: int = 0
    pack_advisor: int = 0
    room_feature: bool = False
    dead_pairs: bool = False
    reach_pairs: bool = False
    box_runs: bool = False
    backward_fess: bool = False
    backward_rooms: bool = False
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
        _number("SearchOptions", "backward_share", self.backward_share, 0, 1)
        _number("SearchOptions", "time_share", self.time_share, 0, math.inf)
        parts = (("stall", Stall), ("relevance", Relevance), ("backward_relevance", Relevance), ("relays", Relays))
        for name, kind in parts:
            part = getattr(self, name)
            if part is not None and not isinstance(part, kind):
                raise TypeError(f"SearchOptions.{name} must be a {kind.__name__} or None, got {part!r}")
        if self.pack_tries < 1:
            raise ValueError(f"SearchOptions.pack_tries must be 1 or more, got {self.pack_tries}")
        if self.novelty > 2:
            raise ValueError(f"SearchOptions.novelty must be 0, 1 or 2, got {self.novelty}")
        if self.corral_nodes > CORRAL_MAX_NODES:
            raise ValueError(f"SearchOptions.corral_nodes must be at most {CORRAL_MAX_NODES}, got {self.corral_nodes}")

    def for_optimal(self) -> SearchOptions:
        """These options as A* runs them: forward only, no macros, no features."""
        return replace(
            self, bidirectional=False, macros=False, fess=False, relevance=None, backward_relevance=None, relays=None
        )
