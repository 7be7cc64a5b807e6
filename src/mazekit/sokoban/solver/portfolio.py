"""The fast mode's portfolio: which searches run, on which core, with what share of the time.

A restart with other settings changes the whole order of a search, and each of these solves
levels the others do not; the table below is the whole policy, one row a search. A core runs its
searches one after the other, each with its ``share`` over the shares of it and the searches
after it of the time left; a search that stops making progress (:data:`STALL`) yields the rest
of its slot to the ones after it. The first core's run (:data:`PORTFOLIO`) is the whole fast mode
on one core; a second core adds :data:`EXTRA` (see :mod:`.lanes`).

A short time limit (under :data:`SHORT_LIMIT`) cut into many slots leaves each search too little
to get anywhere: then the first core runs the searches with a ``short`` share, with those
shares (:data:`SHORT`), fewer and longer: FESS as on the long run, the plain best-first search,
and the relays' search with a backward player penalty (:data:`WAIT`). How each row was chosen,
and what it gains, is in ``benchmarks/notes/`` and on the results page.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .options import Relays, Relevance, SearchOptions, Stall

__all__ = [
    "BACKWARD_RELEVANCE",
    "EXTRA",
    "MAX_CORES",
    "MEMBERS",
    "PORTFOLIO",
    "RELAYS",
    "RELEVANCE",
    "SHORT",
    "SHORT_LIMIT",
    "STALL",
    "Member",
    "first_core",
    "portfolio_for",
]

#: A search has stalled when its lowest stored bound (either direction) has not fallen in the
#: last 90% of its time, after 5 s.
STALL = Stall(signs="bound", fraction=0.9, after=5.0)
#: Forward cuts: at most one switch in 6 pushes to a part of the level further than 5 away.
RELEVANCE = Relevance(window=6, distant=1, reach=5)
#: Backward cuts: the same over 6 pulls, with a reach of 9.
BACKWARD_RELEVANCE = Relevance(window=6, distant=1, reach=9)
#: After 30% of its time, the backward direction restarts every 0.6 s aimed at a forward position.
RELAYS = Relays(lead=0.3, each=0.6)

#: FESS's guidance (Shoham and Schaeffer): the packing advisor, trying up to four boxes for each
#: goal area, move weights that come first (1000), larger corrals, dead pairs, half the time each way.
FESS = SearchOptions(
    move_weight=1000,
    pack_advisor=400,
    pack_tries=4,
    corral_grow=1,
    backward_share=0.5,
    dead_pairs=True,
    stall=STALL,
)
#: Backward, a position whose player cannot walk to the start's player cell waits (a penalty of 2):
#: its boxes may stand on the start's cells, the player still cut off from the start's region.
WAIT = 2
#: The third search without its cuts, turned round: weight 30 forward with new positions in
#: feature cells of their own; backward a feature-space search at weight 3 counting blocked
#: tunnels, pruned by the start's pairs.
TURNED = SearchOptions(
    corral_grow=1,
    weight=30,
    backward_share=0.5,
    stall=STALL,
    backward_weight=3,
    backward_fess=True,
    reach_pairs=True,
    backward_rooms=True,
    novelty=2,
)


@dataclass(frozen=True, slots=True)
class Member:
    """One search of the portfolio: its core's run (0 first), its share of the time, its
    settings, why it is there, and its share on the first core at a short time limit (0: it
    does not run there; see :data:`SHORT`) with its settings there (None: the same)."""

    core: int
    share: float
    search: SearchOptions
    reason: str
    short: float = 0.0
    short_search: SearchOptions | None = None

    @property
    def options(self) -> SearchOptions:
        """The settings with the share as :attr:`SearchOptions.time_share`."""
        return replace(self.search, time_share=self.share)

    @property
    def short_options(self) -> SearchOptions:
        """The settings at a short time limit, with the short share as
        :attr:`SearchOptions.time_share`."""
        return replace(self.search if self.short_search is None else self.short_search, time_share=self.short)


#: The table: each core's searches in the order they run.
MEMBERS: tuple[Member, ...] = (
    Member(0, 1.0, replace(FESS, backward_relevance=BACKWARD_RELEVANCE),
           "FESS's guidance forward; backward pulls cut far from where the last ones worked",
           short=1.0),
    Member(0, 1.0, SearchOptions(corral_grow=1, player_penalty=2, backward_share=0.25, stall=STALL),
           "plain best-first both ways, mostly forward: another order over the same positions", short=1.2),
    Member(0, 1.0, SearchOptions(corral_grow=1, weight=3, backward_share=0.5, stall=STALL, relevance=RELEVANCE),
           "a low weight and forward relevance cuts: distant work is not interleaved every way"),
    Member(0, 0.6, replace(FESS, backward_relevance=BACKWARD_RELEVANCE, backward_share=0.1, relays=RELAYS, stall=None),
           "relays: the forward direction runs deep, then the backward one aims at its positions",
           short=2.0, short_search=replace(FESS, backward_relevance=BACKWARD_RELEVANCE, backward_share=0.1,
                                           relays=RELAYS, stall=None, player_penalty=WAIT)),
    Member(1, 0.6, replace(FESS, pack_tries=1, backward_weight=1, novelty=2),
           "one box tried by the advisor, a backward weight of 1, new positions first"),
    Member(1, 0.9, replace(FESS, pack_tries=1, box_runs=True),
           "box runs: pushing a box along a line costs one step of the move weight"),
    Member(1, 1.0, replace(TURNED, bidirectional=False),
           "the turned search's forward direction alone"),
    Member(1, 1.3, replace(FESS, room_feature=True, bidirectional=False, stall=None),
           "FESS forward only, feature cells counting blocked tunnels between rooms"),
    Member(1, 5.2, replace(TURNED, backward_share=0.95, stall=None),
           "the turned search, 95% backward: a feature-space search from the goals"),
    Member(1, 1.0, replace(FESS, box_runs=True, novelty=2, novelty_cells=True, room_feature=True, bidirectional=False),
           "box runs, new positions in cells of their own and blocked tunnels, forward only"),
    Member(1, 2.0, replace(FESS, pack_tries=1, backward_relevance=replace(BACKWARD_RELEVANCE, reach=5),
                           backward_share=0.9),
           "90% backward with backward cuts of shorter reach"),
)  # fmt: skip

#: The first core's run: the fast mode on one core.
PORTFOLIO: tuple[SearchOptions, ...] = tuple(m.options for m in MEMBERS if m.core == 0)
#: The second core's run.
EXTRA: tuple[SearchOptions, ...] = tuple(m.options for m in MEMBERS if m.core == 1)
#: The cores the default portfolio can use.
MAX_CORES = 1 + max(m.core for m in MEMBERS)
#: Seconds a level: a core's run at a time limit below this is short (see :data:`SHORT`).
SHORT_LIMIT = 30.0
#: The first core's run at a short time limit: the searches with a short share, in the table's
#: order, each with that share.
SHORT: tuple[SearchOptions, ...] = tuple(m.short_options for m in MEMBERS if m.core == 0 and m.short > 0)


def first_core(time_limit: float | None) -> tuple[SearchOptions, ...]:
    """The first core's run at ``time_limit`` seconds a level (None: no limit):
    :data:`SHORT` below :data:`SHORT_LIMIT`, :data:`PORTFOLIO` otherwise.

    >>> first_core(10.0) == SHORT, first_core(60.0) == first_core(None) == PORTFOLIO
    (True, True)
    """
    return SHORT if time_limit is not None and time_limit < SHORT_LIMIT else PORTFOLIO


def portfolio_for(cores: int, time_limit: float | None = None) -> tuple[SearchOptions, ...]:
    """The fast mode's searches on ``cores`` cores at ``time_limit`` seconds a level: the first
    core's run (:func:`first_core`), then on a second core :data:`EXTRA` (see
    :func:`~.lanes.lane_members`), so that a level solved on one core is solved on more too.

    >>> len(portfolio_for(1)), portfolio_for(2) == PORTFOLIO + EXTRA, len(portfolio_for(1, 10.0))
    (4, True, 3)
    """
    first = first_core(time_limit)
    return first + EXTRA if cores > 1 else first
