"""Input and output for the commands: read a file or stdin, write atomically."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator

__all__ = ["UsageError", "read_input", "write_output", "atomic_path", "stdout_is_tty"]


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

    Nothing is left at ``path`` (or beside it) when the block raises.
    """
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(errno.ENOENT, "no such folder for the output", path)
    import tempfile  # only when a file is written: keeps start-up short

    fd, tmp = tempfile.mkstemp(prefix=".mazekit-", suffix=os.path.splitext(path)[1], dir=directory)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give what open() would
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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
