"""The one exception for bad input.

Every reader in mazekit reports malformed input as an :class:`InputError` that names
the 1-based line of the input where the problem is and says what is wrong. The
command-line tools print it as one line on stderr and exit with status 2.

Valid but impossible tasks (no path, no exit, an unsolvable level) are answers,
not errors: they never raise.
"""

from __future__ import annotations

__all__ = ["InputError"]


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
