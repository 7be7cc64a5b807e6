"""The exceptions the command line reports as one line: bad input, a missing extra.

Every reader in mazekit reports malformed input as an :class:`InputError` that names
the 1-based line of the input where the problem is and says what is wrong. The
command-line tools print it as one line on stderr and exit with status 2.

Valid but impossible tasks (no path, no exit, an unsolvable level) are answers,
not errors: they never raise. A feature whose optional dependency is not
installed (pictures need Pillow) raises :class:`MissingDependency`, which the
command-line tools report the same way.
"""

from __future__ import annotations

__all__ = ["InputError", "MissingDependency"]


class InputError(ValueError):
    """Malformed input, located by its 1-based line number.

    Parameters
    ----------
    line : int
        The 1-based line of the input where the problem was found; 0 when the
        problem is not tied to a line (for example an empty input).
    message : str
        What is wrong, in a few words.

    Examples
    --------
    >>> err = InputError(3, "expected 7 cells, got 6")
    >>> str(err)
    'line 3: expected 7 cells, got 6'
    >>> err.line, err.message
    (3, 'expected 7 cells, got 6')
    """

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}" if line > 0 else message)


class MissingDependency(ImportError):
    """An optional dependency that a feature needs is not installed.

    The message names it and the install command, e.g. ``drawing pictures needs
    Pillow: pip install 'mazekit[render]'``.
    """
