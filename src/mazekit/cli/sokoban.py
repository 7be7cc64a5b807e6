"""``mazekit sokoban``: the assignment's simulator, replay, a terminal game and pictures.

Subcommands:

* ``run [FILE] [-o OUT] [--show]``: the assignment (article 5). Input: the
  10x20 map and a line of moves ``^ v < >``; output: the player's ``(x, y)``
  after each move, then WIN, LOSE or END. ``--show`` draws the map on stderr.
* ``replay FILE [--level N] LURD``: play a LURD string on a level; print moves,
  pushes and the final board. Exit 0 when solved, 1 when legal but unsolved,
  2 for bad input or an illegal move.
* ``play FILE [--level N]``: play in the terminal (arrows, u undo, y redo,
  r restart, n/p next/previous level, q quit).
* ``render FILE [--level N] [LURD] --png OUT | --gif OUT``: a picture of a level
  (after LURD), or an animation of LURD.
* ``generate [--size RxC] [--boxes N] [--count N] [--seed S] [-o OUT]``: random levels
  in Boxoban's manner (a room carved by random walks, the boxes pulled back from their
  goals by a random reverse game), solvable by construction, as an XSB collection.

FILE is an XSB level collection (``#@+$*.``, run-length rows accepted) or an
assignment input; levels are numbered from 1 or named by their title.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..errors import InputError
from ..sokoban.formats import load_levels
from ..sokoban.level import Level, State
from ._io import (
    UsageError,
    action_parser,
    atomic_path,
    check_outputs,
    check_range,
    check_scale,
    level_arg,
    lurd_arg,
    read_input,
    size_arg,
    write_output,
)

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_ERROR = 0, 1, 2


class _Intermixed(argparse.ArgumentParser):
    """A parser that lets positionals follow options (``render FILE --level 2 LURD --png OUT``)."""

    _busy = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self._busy:
            return super().parse_known_args(args, namespace)
        self._busy = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._busy = False


def _about(action: str) -> str:
    """The module docstring's item on ``ACTION`` and its note on FILE: the action's own --help."""
    parts = (__doc__ or "").split("\n* ")
    item = next((x for x in parts if x.startswith(f"``{action} ") or x.startswith(f"``{action}``")), "")
    item = item.split("\n\n")[0].replace("\n  ", "\n")
    files = (__doc__ or "").split("\n\n")[-1] if action != "generate" else ""
    return f"mazekit sokoban {item}\n\n{files}".strip() if item else ""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "sokoban",
        help="Sokoban: solve, shorten, generate, replay, play and draw levels; the assignment (article 5)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=lambda args: _usage(p))
    ss = p.add_subparsers(dest="action", metavar="ACTION", parser_class=_Intermixed)

    r = action_parser(ss, "run", "the assignment: play the moves, print (x, y) lines and WIN/LOSE/END", _about("run"))
    r.add_argument("file", nargs="?", help="input file (default: stdin)")
    r.add_argument("-o", "--output", metavar="OUT", help="write the answer here (default: stdout)")
    r.add_argument("--show", action="store_true", help="draw the map after each move on stderr")
    r.set_defaults(func=run_assignment)

    rp = action_parser(
        ss, "replay", "play a LURD string on a level; exit 0 solved, 1 unsolved, 2 illegal", _about("replay")
    )
    rp.add_argument("file", help="level file (XSB collection or assignment input)")
    rp.add_argument("lurd", help="moves in LURD (lower case a move, upper case a push); '-' reads stdin")
    rp.add_argument("--level", "-l", default="1", metavar="N", help="level number (from 1) or title (default 1)")
    rp.add_argument("--lenient", action="store_true", help="ignore the case of the letters")
    rp.set_defaults(func=run_replay)

    pl = action_parser(ss, "play", "play in the terminal", _about("play"))
    pl.add_argument("file", help="level file (XSB collection or assignment input)")
    pl.add_argument(
        "--level", "-l", default="1", metavar="N", help="level number (from 1) or title to start with (default 1)"
    )
    pl.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour: auto (when the terminal has it), always, never",
    )
    pl.add_argument(
        "--no-color", "--no-colour", dest="color", action="store_const", const="never", help=argparse.SUPPRESS
    )  # the old spelling of --color never
    pl.set_defaults(func=run_play)

    rd = action_parser(ss, "render", "a PNG of a level, or a GIF of a solution", _about("render"))
    rd.add_argument("file", help="level file (XSB collection or assignment input)")
    rd.add_argument("lurd", nargs="?", help="moves to play first (PNG) or to animate (GIF)")
    rd.add_argument("--level", "-l", default="1", metavar="N", help="level number (from 1) or title (default 1)")
    out = rd.add_mutually_exclusive_group(required=True)
    out.add_argument("--png", metavar="OUT", help="write a PNG of the final position")
    out.add_argument("--gif", metavar="OUT", help="write an animated GIF of the moves")
    rd.add_argument("--scale", type=int, default=32, metavar="N", help="pixels per grid square, 8-128 (default 32)")
    rd.add_argument("--cell", type=int, dest="scale", help=argparse.SUPPRESS)  # the old name of --scale
    rd.add_argument("--frame-ms", type=int, default=120, help="milliseconds per GIF frame (default 120)")
    rd.set_defaults(func=run_render)

    gn = action_parser(
        ss,
        "generate",
        "random levels in Boxoban's manner, solvable by construction (an XSB collection)",
        _about("generate"),
    )
    gn.add_argument("-s", "--size", default="10x10", metavar="RxC", help="size, walls included (default 10x10)")
    gn.add_argument("-b", "--boxes", type=int, default=4, metavar="N", help="boxes and goals (default 4)")
    gn.add_argument("-n", "--count", type=int, default=1, metavar="N", help="how many levels (default 1)")
    gn.add_argument("--seed", type=int, default=0, help="the first level's seed; the next ones count up (default 0)")
    gn.add_argument("-o", "--output", metavar="OUT", help="write the collection here (default: stdout)")
    gn.set_defaults(func=run_generate)

    from .sokoban_optimise import add_optimise_parser
    from .sokoban_solve import add_solve_parser

    add_solve_parser(ss)
    add_optimise_parser(ss)


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


# ------------------------------------------------------------------- loading


# ---------------------------------------------------------------- generate

#: The most levels one ``sokoban generate`` writes, and the largest side.
MAX_GENERATE = 10_000
MAX_GENERATE_SIDE = 60


def run_generate(args: argparse.Namespace) -> int:
    """Write ``--count`` generated levels as an XSB collection, each with its title and a
    solution (the reverse game's, not the shortest) in a comment."""
    from ..sokoban.formats import format_level
    from ..sokoban.generate import generate_level

    rows, cols = size_arg(args.size, 5, MAX_GENERATE_SIDE)
    check_range("--boxes", args.boxes, 1, rows * cols // 4, unit=f"on a {rows}x{cols} level")
    check_range("--count", args.count, 1, MAX_GENERATE)
    check_outputs(args.output)
    parts_out = [f"; mazekit sokoban generate --size {rows}x{cols} --boxes {args.boxes} --seed {args.seed}\n"]
    for k in range(args.count):
        seed = args.seed + k
        try:
            g = generate_level(rows=rows, cols=cols, boxes=args.boxes, seed=seed)
        except ValueError as exc:
            raise UsageError(f"seed {seed}: {exc} (try fewer boxes or a larger size)") from None
        parts_out.append(f"\n{format_level(g.level)}Title: generated {seed}\n; a solution: {g.solution}\n")
    write_output(args.output, "".join(parts_out))
    return 0


# --------------------------------------------------------------------- run


def run_text(data: bytes | str, *, show: bool = False) -> str:
    """The assignment's output for one input (see ``mazekit sokoban run``).

    >>> from mazekit import examples
    >>> print(run_text(examples.read_text("sokoban/assignment.txt")), end="")
    (16, 6)
    (15, 6)
    (14, 6)
    (13, 6)
    (12, 6)
    (11, 6)
    (10, 6)
    (9, 6)
    (8, 6)
    (7, 6)
    (6, 6)
    (5, 6)
    (4, 6)
    WIN
    """
    from ..sokoban.assignment import simulate
    from ..sokoban.formats import format_assignment_map, parse_assignment, to_xy

    a = parse_assignment(data)
    level = a.level

    def draw(i: int, state: State) -> None:
        sys.stderr.write(f"move {i + 1} {'^v<>'['udlr'.index(a.moves[i])]}\n")
        sys.stderr.write(format_assignment_map(level, state) + "\n")

    if show:
        sys.stderr.write("start\n" + format_assignment_map(level) + "\n")
    sim = simulate(level, a.moves, on_move=draw if show else None)
    lines = [f"({x}, {y})\n" for x, y in (to_xy(level, s.player) for s in sim.states)]
    lines.append(sim.outcome + "\n")
    if show:
        sys.stderr.write(sim.outcome + (f" ({sim.reason})" if sim.reason else "") + "\n")
    return "".join(lines)


def run_assignment(args: argparse.Namespace) -> int:
    check_outputs(args.output)
    answer = run_text(read_input(args.file), show=args.show)
    write_output(args.output, answer)
    return 0


# ------------------------------------------------------------------ replay


def run_replay(args: argparse.Namespace) -> int:
    from ..sokoban.formats import format_level
    from ..sokoban.rules import replay

    levels, _ = load_levels(read_input(args.file))
    level = levels[level_arg(levels, args.level)]
    res = replay(level, lurd_arg(args.lurd), strict=not args.lenient)
    if res.error:
        raise InputError(0, res.error)
    verdict = "solved" if res.solved else "not solved"
    text = f"moves {res.moves}, pushes {res.pushes}: {verdict}\n" + format_level(level, res.state)
    write_output(None, text)
    return EXIT_SOLVED if res.solved else EXIT_UNSOLVED


# ------------------------------------------------------------------ render


def run_render(args: argparse.Namespace) -> int:
    from ..sokoban.rules import positions, replay

    check_scale(args.scale, 8)
    check_range("--frame-ms", args.frame_ms, 10)
    check_outputs(args.png, args.gif)
    levels, moves = load_levels(read_input(args.file))
    level = levels[level_arg(levels, args.level)]
    states: list[State] = [level.start]
    if args.lurd is not None:
        lurd = lurd_arg(args.lurd)
        res = replay(level, lurd)
        if res.error:
            raise InputError(0, res.error)
        states = positions(level, lurd)
    elif moves is not None:
        from ..sokoban.assignment import simulate

        states.extend(simulate(level, moves).states)
    elif args.gif:
        raise UsageError("a GIF needs moves: give a LURD string")
    from ..render.sokoban import save_sokoban_gif, save_sokoban_png

    target = args.png or args.gif
    with atomic_path(target) as tmp:
        if args.png:
            save_sokoban_png(tmp, level, states[-1], cell=args.scale)
        else:
            save_sokoban_gif(tmp, level, states, cell=args.scale, frame_ms=args.frame_ms)
    return 0


# -------------------------------------------------------------------- play


def run_play(args: argparse.Namespace) -> int:
    levels, _ = load_levels(read_input(args.file))
    index = level_arg(levels, args.level)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("play needs a terminal (stdin and stdout must be a tty)")
    import curses

    return int(
        curses.wrapper(
            lambda scr: _play(
                scr, levels, index, args.color == "always" or (args.color == "auto" and not os.environ.get("NO_COLOR"))
            )
        )
    )


_KEYS = {
    "KEY_UP": "u",
    "KEY_DOWN": "d",
    "KEY_LEFT": "l",
    "KEY_RIGHT": "r",
    "k": "u",
    "j": "d",
    "h": "l",
    "l": "r",
}
_HELP = "arrows move  u undo  y redo  r restart  n/p next/previous level  q quit"


def _play(scr: object, levels: list[Level], index: int, colour: bool) -> int:
    """The curses loop: one Game per level, the board redrawn in place."""
    import curses

    from ..sokoban.rules import Game

    stdscr: curses.window = scr  # type: ignore[assignment]
    curses.curs_set(0)
    pairs = _colour_pairs(colour)
    games: dict[int, Game] = {}
    message = ""
    while True:
        game = games.setdefault(index, Game(levels[index]))
        _draw_game(stdscr, levels, index, game, pairs, message)
        message = ""
        try:
            key = stdscr.getkey()
        except curses.error:
            continue
        except KeyboardInterrupt:
            return 0
        if key in ("q", "Q", "\x1b"):
            return 0
        if key in ("n", "KEY_NPAGE"):
            index = min(index + 1, len(levels) - 1)
        elif key in ("p", "KEY_PPAGE"):
            index = max(index - 1, 0)
        else:
            message = _game_key(game, key)


def _colour_pairs(colour: bool) -> dict[str, int]:
    """curses attributes by board character (empty without colour)."""
    import curses

    pairs: dict[str, int] = {}
    if colour and curses.has_colors():
        curses.start_color()
        curses.use_default_colors()
        for i, (ch, fg) in enumerate(
            (
                ("#", curses.COLOR_BLUE),
                ("$", curses.COLOR_YELLOW),
                ("*", curses.COLOR_GREEN),
                (".", curses.COLOR_RED),
                ("@", curses.COLOR_CYAN),
                ("+", curses.COLOR_CYAN),
            ),
            1,
        ):
            curses.init_pair(i, fg, -1)
            pairs[ch] = curses.color_pair(i) | curses.A_BOLD
    return pairs


def _draw_game(stdscr: Any, levels: list[Level], index: int, game: Any, pairs: dict[str, int], message: str) -> None:
    """The header, the board and the help (or the last message) on the screen."""
    import curses

    from ..sokoban.formats import format_level

    stdscr.erase()
    rows, cols = stdscr.getmaxyx()
    title = levels[index].title or str(index + 1)
    head = f"level {index + 1}/{len(levels)} ({title})  moves {game.moves}  pushes {game.pushes}"
    if game.solved:
        head += "  SOLVED! (n for the next level)"
    board = format_level(game.level, game.state).splitlines()
    need_h = len(board) + 4
    need_w = max(len(r) for r in board) + 1
    if rows < need_h or cols < need_w:
        stdscr.addnstr(0, 0, f"terminal too small: need {need_w}x{need_h} (q quits)", max(1, cols - 1))
    else:
        stdscr.addnstr(0, 0, head, cols - 1, curses.A_BOLD)
        for r, line in enumerate(board):
            for c, ch in enumerate(line):
                stdscr.addstr(r + 2, c, ch, pairs.get(ch, 0))
        stdscr.addnstr(len(board) + 3, 0, message or _HELP, cols - 1)
    stdscr.refresh()


def _game_key(game: Any, key: str) -> str:
    """Apply a move, undo, redo or restart key to the game; the message to show (or "")."""
    if key in _KEYS:
        return "" if game.move(_KEYS[key]) else "blocked"
    if key == "u":
        return "" if game.undo() else "nothing to undo"
    if key in ("y", "U", "\x12"):
        return "" if game.redo() else "nothing to redo"
    if key in ("r", "R"):
        game.restart()
    return ""
