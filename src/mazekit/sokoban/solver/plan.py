"""From options to what the kernels read: each direction's :class:`~.kernels.state.Settings`.

A pure step: the options of one search and a few facts of the level in, integers out. What
one direction does not use is 0 (off) in its settings.
"""

from __future__ import annotations

from .directions import NOVELTY_BYTES
from .kernels.state import Settings
from .options import SearchOptions

__all__ = ["backward_settings", "forward_settings", "novelty_width"]


def novelty_width(width: int, nb: int, ncells: int) -> int:
    """The novelty's width a level can have: 2 becomes 1 where its table of pairs would pass
    :data:`~.directions.NOVELTY_BYTES`."""
    return 1 if width >= 2 and (nb + 1) * ncells * ncells > NOVELTY_BYTES else width


def forward_settings(opts: SearchOptions, optimal: bool, nb: int, ncells: int) -> Settings:
    """The forward direction's settings for ``opts`` (``optimal``: A*, whose options are
    :meth:`SearchOptions.for_optimal`'s) on a level of ``nb`` boxes and ``ncells`` cells.

    >>> s = forward_settings(SearchOptions(fess=False, room_feature=True, novelty=2), False, 3, 100)
    >>> s.fess, s.room_feature, s.novelty  # no feature space: no feature cells, no novelty
    (0, 0, 0)
    """
    novelty = novelty_width(opts.novelty, nb, ncells) if opts.fess else 0
    return Settings(
        optimal=int(optimal),
        weight=opts.weight,
        corrals=int(opts.corrals),
        backward=0,
        goal_player=-1,
        macros=int(opts.macros),
        fess=int(opts.fess),
        corral_nodes=opts.corral_nodes,
        corral_boxes=opts.corral_boxes,
        corral_grow=opts.corral_grow,
        player_penalty=opts.player_penalty,
        move_weight=opts.move_weight,
        pack_advisor=opts.pack_advisor,
        room_feature=int(opts.room_feature and opts.fess),
        box_runs=int(opts.box_runs),
        novelty=novelty,
        # without move weights the new positions always have cells of their own
        novelty_cells=int(novelty > 0 and (opts.novelty_cells or not opts.move_weight)),
        pack_tries=opts.pack_tries,
        relevance_window=0,
        relevance_distant=0,
        relevance_reach=0,
    )


def backward_settings(forward: Settings, opts: SearchOptions, goal_player: int) -> Settings:
    """The backward direction's settings beside the forward ones: pulls towards the region of
    ``goal_player`` (its least cell). The corral test, the macros, the advisor, move weights and
    novelty are forward only; the backward feature space and its tunnels are options of their own."""
    return forward._replace(
        weight=opts.backward_weight or opts.weight,
        backward=1,
        goal_player=goal_player,
        fess=int(opts.backward_fess),
        corral_nodes=0,
        macros=0,
        box_runs=0,
        novelty=0,
        novelty_cells=0,
        move_weight=0,
        pack_advisor=0,
        room_feature=int(opts.backward_fess and opts.backward_rooms),
        relevance_window=0,
        relevance_distant=0,
        relevance_reach=0,
    )
