"""Input and output for the commands: read a file or stdin, write atomically."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = [
    "MAX_SCALE",
    "UsageError",
    "action_parser",
    "atomic_path",
    "check_outputs",
    "check_range",
    "check_scale",
    "level_arg",
    "lurd_arg",
    "read_input",
    "renamed_flag",
    "size_arg",
    "stdout_is_tty",
    "write_files",
    "write_output",
]

#: The largest ``--scale`` (pixels per grid square) of every picture the commands draw.
MAX_SCALE = 128


def action_parser(sub: Any, name: str, helptext: str, description: str) -> argparse.ArgumentParser:
    """A command's action ``name``: ``helptext`` in the command's list of actions, ``description``
    (its input and output, as written in the command's docstring) in its own --help."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=helptext, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    return parser


def check_scale(scale: int | None, smallest: int = 1) -> None:
    """``--scale``: pixels per grid square, from ``smallest`` (pictures with text need room) to 128."""
    if scale is not None:
        check_range("--scale", scale, smallest, MAX_SCALE, unit="pixels per square")


class UsageError(Exception):
    """A bad command-line value (reported as one line, exit status 2)."""


def read_input(path: str | None) -> bytes:
    """The bytes of ``path``, or of stdin when ``path`` is None or ``-``."""
    if path is None or path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as fh:
        return fh.read()


@contextlib.contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """Yield a temporary path next to ``path``; rename it into place on success.

    Nothing is left at ``path`` (or beside it) when the block raises; a path
    that cannot be written is refused (:func:`check_outputs`) before the block runs.
    """
    check_outputs(path)
    with _temporary(path) as tmp:
        yield tmp
        _replace(tmp, path)


def _replace(tmp: str, path: str) -> None:
    """Rename ``tmp`` to ``path``; an error names the user's path, not the temporary one."""
    try:
        os.replace(tmp, path)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, path) from None


def check_outputs(*paths: str | None) -> None:
    """Refuse, before any work is done, output paths that cannot be written.

    ``None`` and ``-`` (stdout) are skipped. A path that is a folder, sits in a
    folder that does not exist or cannot be written, or is named twice is one
    :class:`UsageError` naming it.
    """
    seen: set[str] = set()
    for path in paths:
        if path is None or path == "-":
            continue
        full = os.path.abspath(path)
        if full in seen:
            raise UsageError(f"{path} is named for two outputs")
        seen.add(full)
        if os.path.isdir(full):
            raise UsageError(f"{path}: is a folder, not a file")
        folder = os.path.dirname(full)
        if not os.path.isdir(folder):
            raise UsageError(f"{path}: no such folder {os.path.dirname(path) or '.'}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise UsageError(f"{path}: cannot write in {os.path.dirname(path) or '.'}")


def write_files(outputs: Sequence[tuple[str | None, Callable[[str], Any]]]) -> None:
    """Write several files all or nothing: each to a temporary file, then all renamed at the end.

    ``outputs`` are ``(path, writer)`` pairs, ``writer(tmp_path)`` writing one
    file; pairs with no path are skipped. If any writer fails, no file is left.
    """
    wanted = [(path, writer) for path, writer in outputs if path]
    check_outputs(*(path for path, _ in wanted))
    with contextlib.ExitStack() as stack:
        done: list[tuple[str, str]] = []
        for path, writer in wanted:
            tmp = stack.enter_context(_temporary(path))
            writer(tmp)
            done.append((tmp, path))
        for tmp, path in done:
            _replace(tmp, path)


@contextlib.contextmanager
def _temporary(path: str) -> Iterator[str]:
    """A temporary file beside ``path`` (removed on the way out unless renamed)."""
    directory = os.path.dirname(os.path.abspath(path))
    import tempfile  # only when a file is written: keeps start-up short

    fd, tmp = tempfile.mkstemp(prefix=".mazekit-", suffix=os.path.splitext(path)[1], dir=directory)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give what open() would
    try:
        yield tmp
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def write_output(path: str | None, data: str | bytes) -> None:
    """Write to ``path`` atomically, or to stdout when ``path`` is None or ``-``."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if path is None or path == "-":
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(raw)


def stdout_is_tty() -> bool:
    """True when stdout is a terminal and colour is not disabled by ``NO_COLOR``."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def size_arg(text: str, lo: int | None = None, hi: int | None = None) -> tuple[int, int]:
    """``--size RxC`` as ``(R, C)`` (:func:`mazekit.grid.parse_size`), each side from ``lo`` to ``hi``
    when given; a bad one is a usage error.

    >>> size_arg("16x30", 2, 500)
    (16, 30)
    >>> size_arg("1x30", 2, 500)
    Traceback (most recent call last):
    ...
    mazekit.cli._io.UsageError: --size must be between 2x2 and 500x500, got 1x30
    """
    from ..grid import parse_size

    try:
        rows, cols = parse_size(text)
    except ValueError as exc:
        raise UsageError(f"--size {exc}") from None
    if lo is not None and hi is not None and not (lo <= rows <= hi and lo <= cols <= hi):
        raise UsageError(f"--size must be between {lo}x{lo} and {hi}x{hi}, got {rows}x{cols}")
    return rows, cols


def lurd_arg(value: str) -> str:
    """A LURD argument as given, or standard input's moves for ``-``."""
    if value == "-":
        return "".join(sys.stdin.read().split())
    return value


def level_arg(levels: Sequence[Any], which: str) -> int:
    """The 0-based index of ``--level which`` (a number from 1 or a title) in ``levels``; ``all``
    (which ``sokoban solve`` takes) is a usage error that says the command takes one level.

    >>> level_arg([], "all")
    Traceback (most recent call last):
    ...
    mazekit.cli._io.UsageError: --level all: this command takes one level (a number from 1 or a title)
    """
    from ..sokoban.formats import level_index

    if which == "all" and "all" not in [getattr(lv, "title", None) for lv in levels]:
        raise UsageError("--level all: this command takes one level (a number from 1 or a title)")
    try:
        return level_index(levels, which)
    except ValueError as exc:
        raise UsageError(f"--{exc}") from None


def check_range(
    flag: str, value: float, lo: float, hi: float | None = None, *, above: bool = False, unit: str = ""
) -> None:
    """The one range check of the commands' options: ``value`` of ``--flag`` must be at least ``lo``
    (more than ``lo`` with ``above``) and at most ``hi``; else a usage error that says so.

    >>> check_range("--jobs", 0, 1)
    Traceback (most recent call last):
    ...
    mazekit.cli._io.UsageError: --jobs must be at least 1, got 0
    >>> check_range("--braid", 1.5, 0, 1)
    Traceback (most recent call last):
    ...
    mazekit.cli._io.UsageError: --braid must be between 0 and 1, got 1.5
    """
    unit = f" {unit}" if unit else ""
    low_ok = value > lo if above else value >= lo  # NaN fails both
    if low_ok and (hi is None or value <= hi):
        return
    got = f"{value:g}" if isinstance(value, float) else f"{value}"
    if hi is not None:
        raise UsageError(f"{flag} must be between {lo:g} and {hi:g}{unit}, got {got}")
    raise UsageError(f"{flag} must be {'more than' if above else 'at least'} {lo:g}{unit}, got {got}")


class _Renamed(argparse.Action):
    """A flag's old spelling: works as the new one, with one line on stderr saying so."""

    def __init__(self, option_strings: Sequence[str], dest: str, new: str = "", **kwargs: Any) -> None:
        self.new = new
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: str | None = None) -> None:
        print(f"{parser.prog}: {option_string} is now {self.new}; the old name will go", file=sys.stderr)
        setattr(namespace, self.dest, values)


def renamed_flag(parser: Any, old: str, new: str, dest: str, **kwargs: Any) -> None:
    """Let ``old`` keep working as ``new`` (same ``dest``), hidden from the help, with a one-line
    deprecation note on stderr when it is used."""
    parser.add_argument(old, dest=dest, action=_Renamed, new=new, help=argparse.SUPPRESS, **kwargs)
