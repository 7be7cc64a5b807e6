"""A one-line progress report on stderr for the commands' long waits (#15 item 8).

Stdout carries the answers, so everything here goes to stderr (or the stream
given). The rules, the same for every command:

* nothing is shown until the work has taken :data:`DELAY` (1 s): quick runs stay silent;
* on a terminal, one line redrawn in place with ``\\r`` (at most every
  :data:`TTY_INTERVAL` seconds) and cleared at the end, so the terminal is left
  as if nothing had been drawn: ``label  done/total unit  pct%  rate/s  ETA m:ss``,
  or ``label  elapsed`` when the total is unknown (a spinner);
* when stderr is not a terminal (a log file, a pipe, a test), a plain line every
  :data:`PLAIN_INTERVAL` (10 s), the first after 10 s (and one when a new step
  starts after that): a log gets a line now and then for long runs and nothing
  for short ones, and never a ``\\r``;
* :meth:`Progress.say` prints a lasting line (``compiling the solver (once per
  installation)…``) at once, whatever the delay, on a terminal or not;
* ``quiet=True`` (the commands' ``--quiet``) silences all of it.

The work runs in the calling thread; Ctrl-C interrupts it as before, and the
``with`` block clears the line on the way out. Work that cannot report (a
compiled kernel) is covered by :meth:`Progress.ticking`, a daemon thread that
redraws the elapsed time while the caller waits.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Self, TextIO

__all__ = ["DELAY", "PLAIN_INTERVAL", "TTY_INTERVAL", "Progress", "duration"]

#: Seconds of work before anything is shown.
DELAY = 1.0
#: Seconds between redraws on a terminal.
TTY_INTERVAL = 0.1
#: Seconds between plain lines when stderr is not a terminal (the first one too).
PLAIN_INTERVAL = 10.0


def duration(seconds: float) -> str:
    """A short duration: ``0.4 s``, ``12 s``, ``3:07``, ``1:02:03``.

    >>> duration(0.42), duration(12.4), duration(187), duration(3723)
    ('0.4 s', '12 s', '3:07', '1:02:03')
    """
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    s = int(seconds + 0.5)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _rate(per_second: float) -> str:
    if per_second >= 100:
        return f"{per_second:,.0f}"
    if per_second >= 10:
        return f"{per_second:.1f}"
    return f"{per_second:.2f}"


def _is_tty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _width(stream: TextIO) -> int:
    try:
        return max(20, os.get_terminal_size(stream.fileno()).columns - 1)
    except (AttributeError, ValueError, OSError):
        return 79


class Progress:
    """One progress line on stderr; see the module docs for when it shows.

    Parameters
    ----------
    label : str
        What is being done: ``"mines bench"``, ``"generating a 5000x5000 maze…"``.
    total : int or None
        The amount of work (None: unknown; the line shows the elapsed time).
    unit : str
        The work's unit, after the counts (``"games"``).
    stream : text stream
        Default ``sys.stderr`` (looked up when the object is made).
    quiet : bool
        Show nothing at all.
    clock : callable
        Seconds, monotonic (tests pass a fake).

    Examples
    --------
    >>> import io
    >>> t = [0.0]
    >>> out = io.StringIO()
    >>> with Progress("work", 100, unit="items", stream=out, clock=lambda: t[0]) as p:
    ...     t[0] = 12.0
    ...     p.update(40)
    >>> out.getvalue()
    'work  40/100 items  40%  3.33/s  ETA 18 s\\n'
    """

    def __init__(
        self,
        label: str,
        total: int | None = None,
        *,
        unit: str = "",
        stream: TextIO | None = None,
        quiet: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.stream: TextIO = sys.stderr if stream is None else stream
        self.quiet = quiet
        self.clock = clock
        self.tty = _is_tty(self.stream)
        self.done = 0
        self.note = ""
        self.share: float | None = None
        self._start = clock()
        self._last = -1e300  # when the line was last drawn
        self._drawn = 0  # characters on the terminal's line now
        self._hidden = 0  # inside hidden() blocks
        self._lock = threading.RLock()

    # ---------------------------------------------------------------- reporting
    def update(
        self, done: int | None = None, *, note: str | None = None, share: float | None = None, label: str | None = None
    ) -> None:
        """Record the work done (and optionally a note, a label, or the share of the
        work done when the units are uneven, for the ETA); redraw if it is time."""
        with self._lock:
            if done is not None:
                self.done = done
            if note is not None:
                self.note = note
            if share is not None:
                self.share = share
            if label is not None and label != self.label:
                self.label = label
                self._last = -1e300  # a new step shows at once
            self._maybe_draw()

    def say(self, text: str) -> None:
        """Print a lasting line now (above the progress line on a terminal)."""
        if self.quiet:
            return
        with self._lock:
            self._clear()
            self.stream.write(text + "\n")
            self.stream.flush()
            self._last = -1e300  # redraw the progress line at the next update
            if self.tty and not self._hidden and self._elapsed() >= DELAY:
                self._draw()

    def close(self) -> None:
        """Clear the line (on a terminal); later updates show nothing."""
        with self._lock:
            self._clear()
            self.quiet = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @contextmanager
    def hidden(self) -> Iterator[Progress]:
        """Clear the line and draw nothing during the ``with`` body (while the
        command writes its answer to stdout, which may be the same terminal)."""
        with self._lock:
            self._clear()
            self._hidden += 1
        try:
            yield self
        finally:
            with self._lock:
                self._hidden -= 1

    @contextmanager
    def ticking(self, interval: float = TTY_INTERVAL) -> Iterator[Progress]:
        """Redraw from a daemon thread while the ``with`` body waits on work that
        cannot report (a compiled kernel); the body's thread is left alone, so
        Ctrl-C reaches it as before."""
        stop = threading.Event()

        def tick() -> None:
            while not stop.wait(interval):
                self.update()

        thread = None
        if not self.quiet:
            thread = threading.Thread(target=tick, name="mazekit-progress", daemon=True)
            thread.start()
        try:
            yield self
        finally:
            stop.set()
            if thread is not None:
                thread.join(1.0)

    # ---------------------------------------------------------------- drawing
    def _elapsed(self) -> float:
        return self.clock() - self._start

    def text(self) -> str:
        """The progress line as it would be drawn now."""
        elapsed = self._elapsed()
        parts = [self.label]
        if self.total is None:
            parts.append(duration(elapsed))
            if self.done:
                parts.append(f"{self.done:,} {self.unit}".rstrip())
        else:
            total = max(self.total, 0)
            share = self.share if self.share is not None else (self.done / total if total else 1.0)
            share = min(max(share, 0.0), 1.0)
            parts.append(f"{self.done:,}/{total:,} {self.unit}".rstrip())
            # with uneven units the share of the work done is not done/total: say which it is
            parts.append(f"{100 * share:.0f}%" + (" of the work" if self.share is not None else ""))
            if self.done == 0:
                parts.append(duration(elapsed))
            elif elapsed > 0:
                parts.append(f"{_rate(self.done / elapsed)}/s")
            if 0 < share < 1:
                parts.append(f"ETA {duration(elapsed * (1 - share) / share)}")
        if self.note:
            parts.append(self.note)
        return "  ".join(parts)

    def _maybe_draw(self) -> None:
        if self.quiet or self._hidden:
            return
        now = self.clock()
        elapsed = now - self._start
        if self.tty:
            if elapsed >= DELAY and now - self._last >= TTY_INTERVAL:
                self._draw()
        elif elapsed >= PLAIN_INTERVAL and now - self._last >= PLAIN_INTERVAL:
            self._last = now
            self.stream.write(self.text() + "\n")
            self.stream.flush()

    def _draw(self) -> None:
        self._last = self.clock()
        line = self.text()[: _width(self.stream)]
        pad = " " * max(0, self._drawn - len(line))
        self.stream.write("\r" + line + pad + ("\b" * len(pad)))
        self.stream.flush()
        self._drawn = len(line)

    def _clear(self) -> None:
        if self.tty and self._drawn:
            self.stream.write("\r" + " " * (self._drawn + 2) + "\r")  # 2 more: a "^C" echoed after it
            self.stream.flush()
            self._drawn = 0
