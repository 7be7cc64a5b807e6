"""Getting the compiled search ready: one share of its first compile (:func:`compile_share`, run
in a child process by :func:`~.compiling.compile_in_parts`), and :func:`load_search`, which
loads it from numba's cache (or compiles it, the first time of an installation).
"""

from __future__ import annotations

from ... import _jit, examples
from ..formats import parse_levels
from ..level import Level
from .compiling import FIRST_SHARE, search_callees
from .kernels import expand
from .options import SearchOptions
from .search import search_level

__all__ = ["compile_share", "load_search"]

#: Every part of the search on, so that a share's searches reach every helper.
EVERY = SearchOptions(
    move_weight=1000,
    pack_advisor=400,
    room_feature=True,
    dead_pairs=True,
    reach_pairs=True,
    box_runs=True,
    backward_fess=True,
    novelty=2,
    corral_grow=1,
    player_penalty=2,
)


def _bundled() -> list[Level]:
    """The bundled levels (small: their searches take milliseconds)."""
    return parse_levels(examples.read_text("sokoban/mazekit.xsb"))


def compile_share(first: bool) -> None:
    """Compile one share of the search's helpers into numba's cache (see
    :mod:`.compiling`). The second share also compiles the set-up's kernels (mode
    ``always``). Meant for a process of its own: it sets the mode for its run."""
    share = set(FIRST_SHARE) if first else search_callees() - set(FIRST_SHARE)
    mode = _jit.get_mode()
    _jit.set_mode("never" if first else "always")
    try:
        with _jit.plain(expand.search_kernel), _jit.compile_calls(vars(expand), sorted(share)):
            for level in _bundled():
                search_level(level, time_limit=30.0, options=EVERY)
    finally:
        _jit.set_mode(mode)


def load_search() -> None:
    """Load the compiled search from numba's cache, or compile it the first time of an
    installation (in parts, see :func:`~.compiling.compile_in_parts`): a search of the first
    bundled level on the compiled path (a tiny level's search would otherwise run as plain
    Python)."""
    expand.search_kernel.compiled()
    search_level(_bundled()[0], time_limit=30.0)
