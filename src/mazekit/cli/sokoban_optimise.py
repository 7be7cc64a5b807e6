"""``mazekit sokoban optimise``: shorten a solution of a Sokoban level.

Reads a level and a LURD solution of it (from the solver, a generator or a
player), and prints the shortened solution on stdout, one line. The optimiser
runs the solver's A* over windows of the solution and keeps what is shorter
(see :mod:`mazekit.sokoban.solver.optimise`): by default fewer moves first, then
pushes; ``--metric pushes`` counts pushes first. The result is replayed by the
engine before it is printed and is never longer than the input.

A summary goes to stderr (moves and pushes before and after, windows shortened,
the time), with a status line while it works; ``--quiet`` silences stderr but
for errors. Ctrl-C stops it with the best solution so far (printed; exit 130).
A solution that is not one (an illegal move, or boxes left off the goals) is
refused in one line, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import InputError
from ..sokoban.formats import load_levels
from ._io import check_outputs, check_range, level_arg, lurd_arg, read_input, write_output
from ._progress import Progress

__all__ = ["add_optimise_parser", "run_optimise"]


def add_optimise_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """Add the ``optimise`` sub-command to the ``sokoban`` command's sub-parsers."""
    p = sub.add_parser(
        "optimise",
        aliases=["optimize"],
        help="shorten a solution (fewer moves, or pushes, with the solver's A* over windows of it)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="level file (XSB collection or assignment input)")
    p.add_argument("lurd", help="a solution in LURD (lower case a move, upper case a push); '-' reads stdin")
    p.add_argument("--level", "-l", default="1", metavar="N", help="level number (from 1) or title (default 1)")
    p.add_argument("--metric", choices=("moves", "pushes"), default="moves", help="what counts first (default moves)")
    p.add_argument("--time-limit", type=float, default=10.0, metavar="S", help="seconds to spend (default 10)")
    p.add_argument("-o", "--output", metavar="OUT", help="write the solution here (default: stdout)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.set_defaults(func=run_optimise)
    parser: argparse.ArgumentParser = p
    return parser


def run_optimise(args: argparse.Namespace) -> int:
    from ..sokoban import _kernels as EK
    from ..sokoban.solver.compiling import search_is_cached
    from ..sokoban.solver.optimise import optimise
    from .sokoban_solve import COMPILING

    check_range("--time-limit", args.time_limit, 0, above=True, unit="seconds")
    check_outputs(args.output)
    levels, _ = load_levels(read_input(args.file))
    level = levels[level_arg(levels, args.level)]
    lurd = lurd_arg(args.lurd)
    bar = Progress("optimising", quiet=args.quiet)
    before = len("".join(ch for ch in lurd if not ch.isspace()))

    def hook(status: Any) -> None:
        # the best so far first (a narrow terminal cuts the line's end), then where the sweep is
        bar.update(
            note=f"best so far {status.moves:,} moves, {status.pushes:,} pushes (from {before:,} moves)"
            f"  sweep {status.sweep}, windows of {status.window} pushes, at push {status.at + 1} of {status.of}"
        )

    with bar, bar.ticking():
        if not (search_is_cached() and EK.vicinity_kernel.is_cached()):
            bar.say(COMPILING)
        try:
            res = optimise(level, lurd, metric=args.metric, time_limit=args.time_limit, progress=hook)
        except ValueError as exc:
            raise InputError(0, f"the solution: {exc}") from None
    write_output(args.output, res.lurd + "\n")
    if not args.quiet:
        whys = {"done": "every window searched to the end", "time": "time limit", "interrupted": "interrupted"}
        why = whys[res.stopped]
        print(
            f"moves {res.before_moves} -> {res.moves}, pushes {res.before_pushes} -> {res.pushes} "
            f"({res.improvements} window(s) shortened, {res.searches} searched, {res.time:.1f} s"
            f"{_compiling(res.compile_time)}; stopped: {why})",
            file=sys.stderr,
        )
    return 130 if res.stopped == "interrupted" else 0


def _compiling(seconds: float) -> str:
    """The part of the time spent compiling, when it shows."""
    return f", {seconds:.1f} s of it compiling (once per installation)" if seconds >= 0.5 else ""
