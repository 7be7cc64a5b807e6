"""The search's first compile, in parts, on two cores.

numba compiles the search kernel with every kernel it calls, about 80 s on this
2-core machine from an empty cache, once per installation (numba's disk cache
loads it in well under a second afterwards). Most of that is the helpers: each
compiles on its own, and the search, compiled with its helpers already in the
cache, loads them and takes about 20 s. So the first compile splits: two shares of
the helpers compile at once, each in a child process (:func:`~.warmup.compile_share`),
then the search compiles in the caller, loading them.

In a share's process the search runs as plain Python (:func:`mazekit._jit.plain`)
on the bundled levels with every option on, and calls its share of the helpers
compiled (:func:`mazekit._jit.compile_calls`): a helper compiles for the argument
types of that call, which are the compiled search's. A helper those searches do
not reach compiles with the search.

The search (and so the optimiser's searches) calls :func:`compile_in_parts` before
its first compiled slice; the playground's start-up warm-up runs each share as one
of its steps, and it and ``sokoban solve --jobs`` then call :func:`~.warmup.load_search`.
"""

from __future__ import annotations

import os
import subprocess
import sys

from ... import _jit
from .kernels import expand
from .kernels.corrals import corral_deadlock_kernel
from .kernels.expand import search_kernel
from .kernels.roots import roots_kernel

__all__ = ["FIRST_SHARE", "compile_in_parts", "search_callees", "search_is_cached", "share_command"]

#: The first share: the advisors, the corral test, taking and inserting nodes, tunnels (about
#: 25 s of compiling here); the second is every other kernel the search calls, with the kernels
#: of a search's set-up (about 30 s).
FIRST_SHARE = (
    "corral_deadlock_kernel",
    "pack_advice_kernel",
    "advisor_step_kernel",
    "insert_kernel",
    "take_kernel",
    "pi_corral_kernel",
    "tunnel_kernel",
)


def search_is_cached() -> bool:
    """True when the compiled search will not need compiling (see :meth:`mazekit._jit.Kernel.is_cached`):
    the commands say so before a first compile."""
    return bool(search_kernel.is_cached())


def search_callees() -> set[str]:
    """The kernels the search loop calls by name (those :mod:`.kernels.expand`'s own kernels
    call), where :func:`~.warmup.compile_share` stands them in."""
    own = {n for n, k in vars(expand).items() if isinstance(k, _jit.Kernel) and k.__module__ == expand.__name__}
    names: set[str] = set()
    for name in own:
        code = getattr(expand, name).py_func.__code__
        names.update(n for n in code.co_names if isinstance(getattr(expand, n, None), _jit.Kernel))
    return names - own


def share_command(first: bool) -> list[str]:
    """The command line of a process that compiles a share (at the caller's priority: the caller
    waits on it)."""
    code = f"from mazekit.sokoban.solver.warmup import compile_share\ncompile_share({first})\n"
    return [sys.executable, "-c", code]


def compile_in_parts() -> bool:
    """When the search kernel is not in numba's cache and this machine has two cores or
    more, compile the two shares of its helpers at once in two child processes and wait
    for them; the next search then compiles only the search. True when it ran them.

    A share that fails (no cache to write, say) is left to that compile. Ctrl-C stops
    the children and is raised again."""
    if (os.cpu_count() or 1) < 2 or not sys.executable or _jit.get_mode() == "never" or search_kernel.is_cached():
        return False
    if corral_deadlock_kernel.is_cached() and roots_kernel.is_cached():  # one of each share: done already
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
