"""The ``mazekit`` command line: ``main(argv) -> int``; only :func:`run` exits.

Each command lives in its own module with two functions: ``register(sub)``
adds its argparse sub-parser, and ``run(args) -> int`` does the work. Bad input
raises :class:`~mazekit.errors.InputError` (or :class:`UsageError`), and a PNG or
GIF asked for without Pillow installed :class:`~mazekit.errors.MissingDependency`;
:func:`main` turns each into one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence

from ..errors import InputError, MissingDependency
from ._io import UsageError
from ._io import check_range as _check_range

__all__ = ["ARTICLES", "COMMANDS", "UsageError", "build_parser", "main", "plain", "run"]

#: Command name -> module (relative to this package), in the order ``mazekit --help`` lists them:
#: a first look, the tools by what they work on, the playground, then the two article-only commands.
COMMANDS: dict[str, str] = {
    "demo": ".demo",
    "path": ".path",
    "maze": ".maze",
    "universal": ".universal",
    "mines": ".mines",
    "sokoban": ".sokoban",
    "playground": ".playground",
    "robot": ".robot",
    "forest": ".forest",
}

#: The five articles' programs, in the articles' order: the command and what it does, one line each.
ARTICLES: tuple[tuple[str, str], ...] = (
    ("robot", "1, the robot in the maze: shortest route by BFS, 1-based cells"),
    ("forest", "2, escape from the forest: DFS to the border, 0-based cells"),
    ("universal", "3, a universal escape string: one command string for every start"),
    ("mines open", "4, Minesweeper's flood fill: what one click opens"),
    ("sokoban run", "5, the Sokoban assignment: (x, y) after each move, then WIN, LOSE or END"),
)


def _command_list(helps: dict[str, str]) -> str:
    """The commands, one line each, then the articles' programs (for ``mazekit --help``)."""
    tools = [f"  {name:<12} {helps[name]}" for name in COMMANDS if name not in ("robot", "forest")]
    articles = [f"  {cmd:<12} article {what}" for cmd, what in ARTICLES]
    return "\n".join(
        [
            "commands (mazekit COMMAND --help for each):",
            *tools,
            "",
            "the articles' programs, input and output as each article gives them:",
            *articles,
        ]
    )


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``only``, just that command's (a faster start-up)."""
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="mazekit",
        description="Grid worlds: mazes, grid search, flood fill and grid puzzles.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-V", "--version", action="version", version=f"mazekit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS)
    parser.usage = "mazekit [-h] [-V] COMMAND ..."  # after the sub-parsers, whose names it would prefix
    for name, module in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module, __name__).register(sub)
    _plain_help(parser)
    if only is None:
        helps = {action.dest: action.help or "" for action in sub._choices_actions}
        parser.description = f"{parser.description}\n\n{_command_list(helps)}"
    return parser


_ROLE = re.compile(r":(?:func|class|mod|data|attr|meth):`~?([^`]+)`")


def plain(text: str) -> str:
    """Docstring markup as a terminal shows it: ``x`` -> x, :func:`f` -> f, **b** -> b.

    >>> plain("``mazekit path``: see :func:`~mazekit.search.bfs` and **bold**")
    'mazekit path: see mazekit.search.bfs and bold'
    """
    return _ROLE.sub(r"\1", text).replace("``", "").replace("**", "")


def _plain_help(parser: argparse.ArgumentParser) -> None:
    """Strip docstring markup from every description and help line, through the sub-parsers."""
    if parser.description:
        parser.description = plain(parser.description)
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            action.help = plain(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = plain(choice.help)
            for child in set(action.choices.values()):
                _plain_help(child)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    argv = _attach_negative_values(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    prog = _prog_of(parser, argv)
    try:
        if getattr(args, "needs_pillow", False) or getattr(args, "png", None) or getattr(args, "gif", None):
            # fail before any work or output when the pictures asked for cannot be drawn
            from ..render._colors import pil

            pil()
        if getattr(args, "seed", None) is not None:  # --seed means the same in every command
            _check_range("--seed", args.seed, 0)
        status: int = args.func(args)
    except (InputError, UsageError, MissingDependency) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            return 0
        where = f": {exc.filename}" if exc.filename else ""
        print(f"{prog}: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    return status


_NEGATIVE = re.compile(r"-\d[\dx.,]*")


def _attach_negative_values(argv: list[str]) -> list[str]:
    """``-s -5x10`` -> ``-s-5x10`` (``--size -5x10`` -> ``--size=-5x10``): argparse takes a
    value that starts with a dash for an option and answers "expected one argument"; attached,
    the value reaches the option's own check, which says what is wrong with it.

    >>> _attach_negative_values(["maze", "generate", "-s", "-5x10", "--seed", "-1"])
    ['maze', 'generate', '-s-5x10', '--seed=-1']
    """
    out: list[str] = []
    for word in argv:
        prev = out[-1] if out else ""
        if _NEGATIVE.fullmatch(word) and prev.startswith("-") and not _NEGATIVE.fullmatch(prev) and "=" not in prev:
            if prev.startswith("--"):
                out[-1] = f"{prev}={word}"
                continue
            if len(prev) == 2:
                out[-1] = prev + word
                continue
        out.append(word)
    return out


def _prog_of(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str:
    """The full name of the (sub)command run, e.g. ``mazekit sokoban replay``."""
    prog = parser.prog
    for word in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            if subs and not word.startswith("-"):
                break
            continue
        parser = subs[0].choices[word]
        prog = parser.prog
    return prog


def run() -> None:
    """Console-script entry point."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        status = 0
    except KeyboardInterrupt:
        status = 130
    # Keep a closed pipe (``mazekit ... | head``) from raising at exit.
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(status)
