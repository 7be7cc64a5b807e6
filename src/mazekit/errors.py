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

import math

__all__ = ["InputError", "MissingDependency", "check_number"]


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


def check_number(
    owner: str, name: str, value: object, low: float, high: float = math.inf, *, open_low: bool = True
) -> None:
    """The one range check of the library's option records: raise ``ValueError`` unless ``value``
    is a number (not a bool) in ``(low, high)`` (``[low, high)`` with ``open_low`` False).

    >>> check_number("SolverOptions", "margin", -0.5, 0, 2, open_low=False)
    Traceback (most recent call last):
    ...
    ValueError: SolverOptions.margin must be a number at least 0 and below 2, got -0.5
    """
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok:
        ok = (low < value if open_low else low <= value) and value < high  # type: ignore[operator]
    if not ok:
        where = f"{'above' if open_low else 'at least'} {_shown(low)}" + (
            "" if high == math.inf else f" and below {_shown(high)}"
        )
        raise ValueError(f"{owner}.{name} must be a number {where}, got {value!r}")


def _shown(x: float) -> str:
    """A bound as a reader writes it: ``2,147,483,648``, ``0.5``."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"
