"""The search's first compile, in parts, on two cores.

numba compiles the search kernel with every kernel it calls, about 80 s on this
2-core machine from an empty cache, once per installation (numba's disk cache
loads it in well under a second afterwards). Most of that is the helpers: each
compiles on its own, and the search, compiled with its helpers already in the
cache, loads them and takes about 20 s. So the first compile splits: two shares of
the helpers compile at once, each in a child process (:func:`compile_share`),
then the search compiles in the caller, loading them.

In a share's process the search runs as plain Python (:func:`mazekit._jit.plain`)
on the bundled levels with every option on, and calls its share of the helpers
compiled (:func:`mazekit._jit.compile_calls`): a helper compiles for the argument
types of that call, which are the compiled search's. A helper those searches do
not reach compiles with the search.

The search (and so the optimiser's searches) calls :func:`compile_in_parts` before
its first compiled slice; the playground's start-up warm-up runs each share as one
of its steps, and it and ``sokoban solve --jobs`` then call :func:`load_search`.
"""

from __future__ import annotations

import os
import subprocess
import sys

from ... import _jit, examples
from ..level import Level
from . import _kernels as K

__all__ = ["FIRST_SHARE", "compile_in_parts", "compile_share", "load_search", "search_callees", "share_command"]

#: The first share: the advisors, the corral test, taking and inserting nodes, tunnels (about
#: 25 s of compiling here); the second is every other kernel the search calls, with the kernels
#: of a search's set-up (about 30 s).
FIRST_SHARE = (
    "corral_deadlock_kernel",
    "hot_advice_kernel",
    "oop_advice_kernel",
    "conn_advice_kernel",
    "pack_advice_kernel",
    "advisor_step_kernel",
    "insert_kernel",
    "take_kernel",
    "pi_corral_kernel",
    "tunnel_kernel",
)


def search_callees() -> set[str]:
    """The kernels the search kernel and its expansion call by name (but not the expansion)."""
    names: set[str] = set()
    for caller in (K.search_kernel, K.expand_kernel):
        names.update(n for n in caller.py_func.__code__.co_names if isinstance(getattr(K, n, None), _jit.Kernel))
    return names - {"expand_kernel"}


def _bundled() -> list[Level]:
    """The bundled levels (small: their searches take milliseconds)."""
    from ..formats import parse_levels

    return parse_levels(examples.read_text("sokoban/mazekit.xsb"))


def compile_share(first: bool) -> None:
    """Compile one share of the search's helpers into numba's cache (see the module). The
    second share also compiles the set-up's kernels (mode ``always``). Meant for a process
    of its own: it sets the mode for its run."""
    from .search import SearchOptions, search_level

    every = SearchOptions(
        move_weight=1000,
        pack_advisor=400,
        conn_advisor=400,
        hot_advisor=400,
        oop_advisor=400,
        open_advisor=400,
        room_feature=True,
        dead_pairs=True,
        reach_pairs=True,
        pair_penalty=True,
        box_runs=True,
        backward_fess=True,
        backward_areas=True,
        pull_advisor=400,
        novelty=2,
        corral_grow=1,
        player_penalty=2,
    )
    share = set(FIRST_SHARE) if first else search_callees() - set(FIRST_SHARE)
    mode = _jit.get_mode()
    _jit.set_mode("never" if first else "always")
    try:
        with _jit.plain(K.search_kernel), _jit.compile_calls(vars(K), sorted(share)):
            for level in _bundled():
                search_level(level, time_limit=30.0, options=every)
    finally:
        _jit.set_mode(mode)


def load_search() -> None:
    """Load the compiled search from numba's cache, or compile it the first time of an
    installation (in parts, see :func:`compile_in_parts`): a search of the first bundled
    level on the compiled path (a tiny level's search would otherwise run as plain Python)."""
    from .search import search_level

    K.search_kernel.compiled()
    search_level(_bundled()[0], time_limit=30.0)


def share_command(first: bool) -> list[str]:
    """The command line of a process that compiles a share (at low priority)."""
    code = (
        "import os, sys\n"
        "try:\n    os.nice(10)\nexcept (AttributeError, OSError):\n    pass\n"
        f"from mazekit.sokoban.solver.compiling import compile_share\ncompile_share({first})\n"
    )
    return [sys.executable, "-c", code]


def compile_in_parts() -> bool:
    """When the search kernel is not in numba's cache and this machine has two cores or
    more, compile the two shares of its helpers at once in two child processes and wait
    for them; the next search then compiles only the search. True when it ran them.

    A share that fails (no cache to write, say) is left to that compile. Ctrl-C stops
    the children and is raised again."""
    if (os.cpu_count() or 1) < 2 or not sys.executable or _jit.get_mode() == "never" or K.search_kernel.is_cached():
        return False
    if K.corral_deadlock_kernel.is_cached() and K.roots_kernel.is_cached():  # one of each share: done already
        return False
    children = [
        subprocess.Popen(
            share_command(first), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for first in (True, False)
    ]
    try:
        for child in children:
            child.wait()
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    return True
