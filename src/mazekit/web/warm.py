"""Getting the rooms' compiled kernels ready before their first request.

numba compiles a kernel the first time it runs and keeps the machine code in its
on-disk cache; later processes load it in well under a second. The first
compile after installing is slow: about 80 s for the Sokoban solver on a 2-core
machine, 60 s for the other four rooms together. Run one after the other in the
server's process, the Sokoban room would be ready only after two and a half
minutes, and a request that compiled the same kernels meanwhile would compete
with the warm-up for the CPU.

:class:`Warming` does the compiling in child processes (:func:`main`, at low
priority), as many at once as the machine has
cores, at most two, and writes numba's cache; then each room's ``WARM_UP`` runs
in the server's process, where it only loads the kernels. The room that takes
longest starts first, on its own worker; the others follow in the navigation
bar's order; a room whose page is opened moves to the front of the queue. The
solver's routes wait for their room (:meth:`Warming.wait`) rather than compile
the same kernels a second time.

With no numba, or ``MAZEKIT_JIT=never``, or no cache to write, the children have
nothing to do, and the hooks run in the server's process as before.
"""

from __future__ import annotations

import importlib
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence

__all__ = ["Warming", "main"]

log = logging.getLogger("mazekit.web")

#: What a room can be: queued, compiling (or loading), ready, or failed (its requests compile what they need).
States = ("waiting", "compiling", "ready", "failed")


def _module(room: str) -> str:
    return f"mazekit.web.api.{room}"


def _run_hook(room: str) -> None:
    hook = getattr(importlib.import_module(_module(room)), "WARM_UP", None)
    if hook is not None:
        hook()


def _child_command(room: str) -> list[str]:
    """The child's command: :func:`main` with the room (``-c`` rather than ``-m``, since the
    package imports this module before ``-m`` would run it)."""
    return [sys.executable, "-c", f"import sys; from mazekit.web.warm import main; sys.exit(main([{room!r}]))"]


def _children_help() -> bool:
    """Whether compiling in a child process fills a cache this process can load from."""
    from .. import _jit

    return bool(sys.executable) and _jit.numba_available() and _jit.get_mode() != "never"


class Warming:
    """Compile (or load from numba's cache) each room's kernels, in the background.

    Parameters
    ----------
    rooms : sequence of (name, cost)
        The rooms in the navigation bar's order, each with its cold compile time in
        seconds (roughly: it only orders the queue). A room's module is
        ``mazekit.web.api.<name>``; its ``WARM_UP`` (if any) is the work.
    workers : int, optional
        Rooms compiled at once. Default: the machine's cores, at most 2.
    processes : bool, optional
        Compile in child processes first (default: when it can help; see the module).
    report : callable, optional
        Called with one line when a room that took more than two seconds is ready.
    """

    def __init__(
        self,
        rooms: Sequence[tuple[str, float]],
        *,
        workers: int | None = None,
        processes: bool | None = None,
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.workers = max(1, workers if workers is not None else min(2, os.cpu_count() or 1))
        self.processes = _children_help() if processes is None else processes
        self._report = report
        queue = [name for name, _ in rooms]
        if self.workers > 1 and rooms:  # the longest gets a worker of its own from the start
            longest = max(rooms, key=lambda r: r[1])[0]
            queue.remove(longest)
            queue.insert(0, longest)
        self._queue = queue
        self._state = dict.fromkeys(queue, "waiting")
        self._done = {name: threading.Event() for name in queue}
        self._lock = threading.Lock()
        self._children: set[subprocess.Popen[bytes]] = set()
        self._stopping = False
        self._threads: list[threading.Thread] = []

    # ------------------------------------------------------------------ asking

    def state(self, room: str) -> str:
        """``waiting``, ``compiling``, ``ready`` or ``failed`` (``ready`` for a room it does not warm)."""
        return self._state.get(room, "ready")

    def is_ready(self, room: str) -> bool:
        """True once the room's warm-up has ended (well or not): its requests need not wait."""
        event = self._done.get(room)
        return event is None or event.is_set()

    def wait(self, room: str, stop: threading.Event | None = None, timeout: float | None = None) -> bool:
        """Block until the room is ready, ``stop`` is set or ``timeout`` passes; True when ready."""
        event = self._done.get(room)
        if event is None:
            return True
        deadline = None if timeout is None else time.monotonic() + timeout
        while not event.wait(0.1):
            if (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() > deadline):
                return False
        return True

    def prefer(self, room: str) -> None:
        """Move a room that is still waiting to the front of the queue (its page was opened)."""
        with self._lock:
            if room in self._queue:
                self._queue.remove(room)
                self._queue.insert(0, room)

    # ------------------------------------------------------------------ running

    def start(self) -> None:
        """Start the workers (daemon threads); returns at once."""
        for i in range(min(self.workers, len(self._queue))):
            thread = threading.Thread(target=self._work, name=f"mazekit-warm-up-{i}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop: no new room starts; running children are ended (the server is shutting down)."""
        with self._lock:
            self._stopping = True
            self._queue.clear()
            children = list(self._children)
        for child in children:
            child.kill()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the workers to finish (for tests and scripts)."""
        for thread in self._threads:
            thread.join(timeout)

    def _next(self) -> str | None:
        with self._lock:
            if self._stopping or not self._queue:
                return None
            room = self._queue.pop(0)
            self._state[room] = "compiling"
            return room

    def _work(self) -> None:
        while (room := self._next()) is not None:
            began = time.perf_counter()
            ok = True
            if self.processes:
                self._compile_in_child(room)
            if not self._stopping:
                try:
                    _run_hook(room)  # loads what the child compiled; compiles what it could not
                except Exception:  # warming is an optimisation: never let it take the server down
                    ok = False
                    log.exception("warming up the %s room failed", room)
            self._state[room] = "ready" if ok else "failed"
            self._done[room].set()
            took = time.perf_counter() - began
            if self._report is not None and ok and took > 2.0 and not self._stopping:
                self._report(f"the {room} room is ready (compiled in {took:.0f} s, once per installation)")

    def _compile_in_child(self, room: str) -> None:
        try:
            child = subprocess.Popen(
                _child_command(room), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except OSError as exc:
            log.warning("cannot start a process to compile the %s room (%s); compiling here", room, exc)
            return
        with self._lock:
            self._children.add(child)
            if self._stopping:
                child.kill()
        _, err = child.communicate()
        with self._lock:
            self._children.discard(child)
        if child.returncode != 0 and not self._stopping:
            last = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            log.warning("compiling the %s room in a child process failed (%s); compiling here", room, last[0])


def main(argv: Sequence[str] | None = None) -> int:
    """Compile the rooms' kernels into numba's cache (a warm-up child's work); 2 for a bad room."""
    rooms = list(sys.argv[1:] if argv is None else argv)
    from .app import ROOMS

    for room in rooms:
        if room not in ROOMS:
            print(f"mazekit warm-up: no room called {room!r} (rooms: {', '.join(ROOMS)})", file=sys.stderr)
            return 2
    try:
        os.nice(10)  # background work: the server and the browser come first
    except (AttributeError, OSError):
        pass
    for room in rooms:
        _run_hook(room)
    return 0
