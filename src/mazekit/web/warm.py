"""Getting the rooms' compiled kernels ready before their first request.

numba compiles a kernel the first time it runs and keeps the machine code in its
on-disk cache; later processes load it in well under a second. The first
compile after installing is slow: about 80 s for the Sokoban solver on a 2-core
machine, 60 s for the other four rooms together. Run one after the other in the
server's process, the Sokoban room would be ready only after two and a half
minutes, and a request that compiled the same kernels meanwhile would compete
with the warm-up for the CPU.

:class:`Warming` does the compiling in child processes (:func:`main`, at the server's
priority), as many at once as the machine has cores, at most two, and writes
numba's cache; then each room's ``WARM_UP`` runs in the server's process, where it
only loads the kernels. The room that takes longest starts first; the others
follow in the navigation bar's order; a room whose page is opened moves to the
front of the queue. A room may split its first compile into ``WARM_PARTS``:
independent parts, compiled at once on the free workers, before its ``WARM_UP``
(the Sokoban room's are the two shares of the search's helpers, see
:mod:`mazekit.sokoban.solver.compiling`). The solver's routes wait for their room
(:meth:`Warming.wait`) rather than compile the same kernels a second time.

The children are not niced: someone soon waits on them (the room's first request), and on a
shared machine a low priority would hand the CPU to every other busy process meanwhile, so
that the first request waits several times as long. The server itself stays quick to
answer, since it sleeps between requests and the kernel's scheduler runs a waking process
first.

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

from .. import _jit

__all__ = ["Warming", "main"]

log = logging.getLogger("mazekit.web")


def _module(room: str) -> str:
    return f"mazekit.web.api.{room}"


def _run_hook(room: str, part: int | None = None) -> None:
    """The room's ``WARM_UP``, or its ``WARM_PARTS[part]``."""
    module = importlib.import_module(_module(room))
    hook = getattr(module, "WARM_UP", None) if part is None else module.WARM_PARTS[part]
    if hook is not None:
        hook()


def _child_command(room: str, part: int | None = None) -> list[str]:
    """The child's command: :func:`main` with the room (``-c`` rather than ``-m``, since the
    package imports this module before ``-m`` would run it)."""
    args = [room] if part is None else [room, str(part)]
    return [sys.executable, "-c", f"import sys; from mazekit.web.warm import main; sys.exit(main({args!r}))"]


def _children_help() -> bool:
    """Whether compiling in a child process fills a cache this process can load from."""
    return bool(sys.executable) and _jit.numba_available() and _jit.get_mode() != "never"


class Warming:
    """Compile (or load from numba's cache) each room's kernels, in the background.

    Parameters
    ----------
    rooms : sequence of (name, cost, parts)
        The rooms in the navigation bar's order, each with its cold compile time in
        seconds (roughly: it only orders the queue) and how many ``WARM_PARTS`` it
        has. A room's module is ``mazekit.web.api.<name>``; its ``WARM_UP`` (if any)
        is the work.
    workers : int, optional
        Rooms compiled at once. Default: the machine's cores, at most 2.
    processes : bool, optional
        Compile in child processes first (default: when it can help; see the module).
    report : callable, optional
        Called with one line when a room that took more than two seconds is ready.
    """

    def __init__(
        self,
        rooms: Sequence[tuple[str, float, int]],
        *,
        workers: int | None = None,
        processes: bool | None = None,
        report: Callable[[str], None] | None = None,
    ) -> None:
        self.workers = max(1, workers if workers is not None else min(2, os.cpu_count() or 1))
        self.processes = _children_help() if processes is None else processes
        self._report = report
        queue = [name for name, _, _ in rooms]
        if self.workers > 1 and rooms:  # the longest starts first
            longest = max(rooms, key=lambda r: r[1])[0]
            queue.remove(longest)
            queue.insert(0, longest)
        self._queue = queue
        self._state = dict.fromkeys(queue, "waiting")
        self._done = {name: threading.Event() for name in queue}
        # the parts not started yet (none without children: they only fill the cache), and running
        self._parts = {name: list(range(parts if self.processes else 0)) for name, _, parts in rooms}
        self._running = dict.fromkeys(queue, 0)
        self._began: dict[str, float] = {}
        self._t0 = time.perf_counter()
        self._lock = threading.Lock()
        self._turn = threading.Condition(self._lock)  # a part ended: its room's last step may start
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
        self._t0 = time.perf_counter()
        for i in range(min(self.workers, len(self._queue))):
            thread = threading.Thread(target=self._work, name=f"mazekit-warm-up-{i}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop: no new step starts; running children are ended; nothing waits for a room any
        more (the server is shutting down)."""
        with self._lock:
            self._stopping = True
            self._queue.clear()
            self._turn.notify_all()
            children = list(self._children)
        for event in self._done.values():
            event.set()
        for child in children:
            child.kill()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the workers to finish (for tests and scripts)."""
        for thread in self._threads:
            thread.join(timeout)

    def _next(self) -> tuple[str, int | None] | None:
        """The next step: a room's part, or a room's last step once its parts have ended;
        waits while the only rooms left wait for parts running on other workers."""
        with self._lock:
            while not self._stopping and self._queue:
                for room in self._queue:
                    if self._parts[room]:
                        self._running[room] += 1
                        return self._start(room, self._parts[room].pop(0))
                    if self._running[room] == 0:
                        self._queue.remove(room)
                        return self._start(room, None)
                self._turn.wait()
            return None

    def _start(self, room: str, part: int | None) -> tuple[str, int | None]:
        self._state[room] = "compiling"
        self._began.setdefault(room, time.perf_counter())
        return room, part

    def _work(self) -> None:
        while (step := self._next()) is not None:
            room, part = step
            if part is not None:
                self._compile_in_child(room, part)
                with self._lock:
                    self._running[room] -= 1
                    self._turn.notify_all()
            else:
                self._finish(room)

    def _finish(self, room: str) -> None:
        """The room's last step: its ``WARM_UP`` in a child, then here (loading what the child
        compiled, compiling what it could not), every kernel run compiled whatever its input's
        size: in ``"auto"`` mode the hooks' tiny inputs would run as plain Python and load
        nothing, and the first large request of a lesson would load the kernel instead."""
        ok = True
        if self.processes:
            self._compile_in_child(room)
        if not self._stopping:
            try:
                with _jit.compiled_here():  # tiny inputs too: they load the kernels a big request runs
                    _run_hook(room)
            except Exception:  # warming is an optimisation: never let it take the server down
                ok = False
                log.exception("warming up the %s room failed", room)
        self._state[room] = "ready" if ok else "failed"
        took = time.perf_counter() - self._began[room]
        with self._lock:
            self._done[room].set()
            last = all(event.is_set() for event in self._done.values())
        if self._report is None or self._stopping:
            return
        # A compile takes tens of seconds; loading compiled kernels a second or two. Only a room
        # that compiled is named; the end of the warm-up is said once, for every room alike.
        if ok and took > COMPILED_SECONDS:
            self._report(f"the {room} room is ready (its kernels compiled in {took:.0f} s, once per installation)")
        if last:
            self._report(f"every room is ready ({time.perf_counter() - self._t0:.0f} s after the start)")

    def _compile_in_child(self, room: str, part: int | None = None) -> None:
        try:
            child = subprocess.Popen(
                _child_command(room, part), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
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


#: A room's warm-up longer than this compiled its kernels (loading them from the cache is quicker).
COMPILED_SECONDS = 8.0


def main(argv: Sequence[str] | None = None) -> int:
    """A warm-up child's work: ``ROOM`` runs the room's ``WARM_UP``, ``ROOM PART`` its
    ``WARM_PARTS[PART]``, compiling into numba's cache. One line and 2 for bad arguments."""
    args = list(sys.argv[1:] if argv is None else argv)
    from .rooms import ROOMS

    room, part = (args + [""])[:2] if 1 <= len(args) <= 2 else ("", "")
    if room not in ROOMS:
        print(f"mazekit warm-up: expected ROOM [PART], ROOM one of {', '.join(ROOMS)}; got {args}", file=sys.stderr)
        return 2
    parts = len(getattr(importlib.import_module(_module(room)), "WARM_PARTS", ()))
    if part and not (part.isdigit() and int(part) < parts):
        print(f"mazekit warm-up: the {room} room has {parts} parts; got part {part!r}", file=sys.stderr)
        return 2
    _jit.set_mode("always")  # compile even the hooks' tiny inputs (in "auto" they would run as plain Python)
    _run_hook(room, int(part) if part else None)
    return 0
