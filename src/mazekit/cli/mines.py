"""``mazekit mines``: Minesweeper (article 4): the flood-fill opening, a game, the solver benchmark.

``mazekit mines open [FILE]``: input a line ``R C r c`` (rows, columns and the
clicked cell, 1-based), then R rows of ``.`` (no mine) and ``*`` (mine).
Output: R rows, each open cell as its density digit (0-8) and each closed cell
as ``#``; the single line ``BOOM`` when the clicked cell is a mine.

``mazekit mines hint [FILE]``: input a line ``R C M`` (rows, columns, mines),
then R rows of ``#`` (closed), ``F`` (flagged) and ``0``-``8`` (open). Output:
the solver's move (1-based) and its reason, e.g. ``open row 3, column 4: the
best guess: safe 82%, and opens an area 40% of the time; ...``.

``mazekit mines play``: a terminal game (cursor keys or hjkl move, space or
Enter opens, f flags, c chords (opening a number chords too), ? shows the
solver's hint, n new game, q quits); the time, 3BV and 3BV/s show at the end.

``mazekit mines bench``: the solver's win rates beside the published best
(the table on stdout; a progress line on stderr for runs over a second,
``--quiet`` for none). ``--workers`` is capped at the cores and at the work.

``mazekit mines render [FILE] -o OUT.png``: a PNG of the board after the click
(input as for ``open``); ``--reveal`` shows the mines; a click on a mine shows
them all, the one hit on red. Needs Pillow (the ``render`` extra).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ._batch import add_batch_options, batch_options, run_tasks
from ._io import (
    UsageError,
    action_parser,
    atomic_path,
    check_outputs,
    check_range,
    check_scale,
    read_input,
    renamed_flag,
    size_arg,
    write_output,
)
from ._progress import Progress

if TYPE_CHECKING:
    from ..minesweeper import Game


def _about(action: str) -> str:
    """The module docstring's paragraph on ``mazekit mines ACTION``: the action's own --help."""
    for para in (__doc__ or "").split("\n\n"):
        if para.startswith(f"``mazekit mines {action}"):
            return para
    return ""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "mines",
        help="Minesweeper: flood-fill opening (article 4), a terminal game, the solver benchmark",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    msub = p.add_subparsers(dest="mines_command", metavar="ACTION")
    p.set_defaults(func=lambda args: _no_action(p))

    o = action_parser(msub, "open", "open a cell of a given board (the article's flood fill)", _about("open"))
    o.add_argument("file", nargs="?", help="input file (default: stdin)")
    o.add_argument("-o", "--output", metavar="OUT", help="write the answer here (default: stdout)")
    o.set_defaults(func=run_open)

    h = action_parser(msub, "hint", "the solver's move on a position, with its reason", _about("hint"))
    h.add_argument("file", nargs="?", help="input file (default: stdin)")
    h.add_argument("-o", "--output", metavar="OUT", help="write the answer here (default: stdout)")
    h.set_defaults(func=run_hint)

    g = action_parser(msub, "play", "play in the terminal", _about("play"))
    g.add_argument("--board", dest="level", choices=["beginner", "intermediate", "expert"], help="a classic board")
    renamed_flag(g, "--level", "--board", "level", choices=["beginner", "intermediate", "expert"])
    g.add_argument("--size", metavar="RxC", help="rows x columns, e.g. 16x30")
    g.add_argument("--mines", type=int, help="number of mines (with --size)")
    g.add_argument("--no-guess", action="store_true", help="a board that logic alone solves")
    g.add_argument("--seed", type=int, help="random seed (the same seed and first click give the same board)")
    g.add_argument(
        "--first-click",
        choices=["safe", "zero"],
        default="safe",
        help="safe: the first click is never a mine; zero: it always opens an area",
    )
    g.set_defaults(func=run_play)

    b = action_parser(msub, "bench", "the solver's win rates beside the published best", _about("bench"))
    b.add_argument("--games", type=int, default=10000, help="games per board and rule (default 10000)")
    b.add_argument(
        "--board",
        action="append",
        choices=["beginner", "intermediate", "expert"],
        help="a board to play (repeatable; default all three)",
    )
    b.add_argument(
        "--first-click",
        action="append",
        choices=["safe", "zero"],
        dest="rules",
        help="a first-click rule (repeatable; default both)",
    )
    b.add_argument("--seed", type=int, default=0, help="seed of the boards (default 0)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_batch_options(b, jobs_default=2)
    b.set_defaults(func=run_bench)

    rd = action_parser(msub, "render", "a PNG of a board after a click (input as for open)", _about("render"))
    rd.add_argument("file", nargs="?", help="input file (default: stdin)")
    rd.add_argument("-o", "--output", metavar="OUT.png", required=True, help="the PNG to write")
    rd.add_argument(
        "--scale",
        type=int,
        default=24,
        metavar="N",
        help="pixels per grid square, 8-128: the digits need room (default 24)",
    )
    rd.add_argument("--reveal", action="store_true", help="show every mine")
    rd.set_defaults(func=run_render, needs_pillow=True)


def _no_action(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


# ------------------------------------------------------------------ open
def run_open(args: argparse.Namespace) -> int:
    from ..minesweeper.text import open_text

    check_outputs(args.output)
    write_output(args.output, open_text(read_input(args.file)))
    return 0


def hint_text(data: bytes | str) -> str:
    """``mines hint``'s answer for one position: the move (1-based) and its reason.

    >>> print(hint_text("1 2 1\\n1#\\n"), end="")
    flag row 1, column 2: mine: the 1 at row 1, column 1 has exactly 1 closed neighbour: it must be a mine.
    >>> print(hint_text("1 3 1\\n1F#\\n")[:45])
    open row 1, column 3: safe: no layout of mine
    """
    from ..minesweeper import hint, with_proved_flags
    from ..minesweeper.text import parse_view

    view, mines, flags = parse_view(data)
    closed = int((view < 0).sum())
    if mines > closed:
        raise InputError(1, f"{mines} mines do not fit in the {closed} closed cells")
    try:
        h = hint(with_proved_flags(view, mines, flags), mines)
    except ValueError as exc:  # no layout agrees with the numbers
        raise InputError(1, str(exc)) from None
    if h.move is None:
        return h.reason + "\n"
    r, c = h.move.cell
    return f"{h.move.kind} row {r + 1}, column {c + 1}: {h.reason}\n"  # the only 1-based code


def run_hint(args: argparse.Namespace) -> int:
    check_outputs(args.output)
    write_output(args.output, hint_text(read_input(args.file)))
    return 0


def run_render(args: argparse.Namespace) -> int:
    check_scale(args.scale, 8)
    check_outputs(args.output)
    from ..minesweeper.text import parse_open

    board, seed = parse_open(read_input(args.file))
    from ..render.minesweeper import draw_minesweeper

    if board.mines[seed]:
        img = draw_minesweeper(board, hit=seed, scale=args.scale)
    else:
        img = draw_minesweeper(board, board.open(seed), reveal=args.reveal, scale=args.scale)
    with atomic_path(args.output) as tmp:
        img.save(tmp, format="PNG")
    return 0


# ------------------------------------------------------------------ play
def game_size(args: argparse.Namespace) -> tuple[int, int, int]:
    """(rows, cols, mines) from --level or --size/--mines."""
    from ..minesweeper import LEVELS, mine_room

    if args.level and (args.size or args.mines is not None):
        raise UsageError("give either --board or --size/--mines, not both")
    if args.size:
        rows, cols = size_arg(args.size, 2, 500)
        mines = args.mines if args.mines is not None else max(1, rows * cols * 10 // 64)
    elif args.mines is not None:
        raise UsageError("--mines needs --size")
    else:
        rows, cols, mines = LEVELS[args.level or "beginner"]
    room = mine_room(rows, cols, args.first_click)
    check_range("--mines", mines, 1, room, unit=f"for a {rows}x{cols} board")
    return rows, cols, mines


def run_play(args: argparse.Namespace) -> int:
    rows, cols, mines = game_size(args)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise UsageError("play needs a terminal")
    import curses

    from ..minesweeper import Game

    seeds = [args.seed]

    def new_game() -> Game:
        seed = seeds[-1]
        seeds.append(None if seed is None else seed + 1)  # 'n' gives the next seed's board
        return Game(rows, cols, mines, first_click=args.first_click, no_guess=args.no_guess, rng=seed)

    summary: list[str] = []
    curses.wrapper(lambda scr: _tui(scr, new_game, summary))
    if summary:
        print(summary[-1])
    return 0


_KEYS_HELP = "arrows/hjkl move  space open  f flag  c chord  ? hint  n new  q quit"
GENERATING = "generating a no-guess board…"
GENERATING_COMPILING = "generating a no-guess board… (the first time also compiles, once per installation)"


def no_guess_message(rows: int, cols: int, mines: int) -> str:
    """What the game shows while it lays out a no-guess board: the compile is
    mentioned when a kernel the layout will run compiled is not in numba's cache:
    the solver that checks the board (compiled once the plain-Python work adds up,
    which a 16x30 board's first attempts do), and the generator's loop when the
    board is large enough to run it compiled from the start (its work is
    :func:`~mazekit.minesweeper.noguess.noguess_work`)."""
    from .._jit import THRESHOLD
    from ..minesweeper import _play_kernels as P
    from ..minesweeper.noguess import noguess_work

    big = noguess_work(rows, cols, mines) >= THRESHOLD
    cached = P.solve_kernel.is_cached() and (not big or P.noguess_kernel.is_cached())
    return GENERATING if cached else GENERATING_COMPILING


def _say_waiting(scr: Any, game: Game) -> None:  # pragma: no cover - by hand in tmux
    """Put the no-guess wait on the screen before the blocking call (status and foot lines)."""
    height, width = scr.getmaxyx()
    foot = min(height - 1, 3 + game.rows)

    def show(text: str) -> None:
        scr.move(0, 0)
        scr.clrtoeol()
        scr.addnstr(0, 0, f"mines {game.mines_left:>4}  time {0.0:6.1f}  generating", width - 1)
        scr.move(foot, 0)
        scr.clrtoeol()
        scr.addnstr(foot, 0, text, width - 1)
        scr.refresh()

    show(GENERATING)
    message = no_guess_message(
        game.rows, game.cols, game.n_mines
    )  # imports numba the first time: the line above is up already
    if message != GENERATING:
        show(message)


def _tui(scr: Any, new_game: Callable[[], Game], summary: list[str]) -> None:  # pragma: no cover - by hand in tmux
    import curses

    from ..minesweeper import result_line

    curses.curs_set(0)
    scr.keypad(True)
    scr.timeout(200)
    _mines_colours()
    cursor_keys = _cursor_keys()
    game = new_game()
    cursor = (0, 0)
    message = ""
    while True:
        _draw_board(scr, game, cursor, message)
        key = scr.getch()
        if key == -1:
            continue
        message = ""
        if key in (ord("q"), 27):
            return
        if key in cursor_keys:
            dr, dc = cursor_keys[key]
            cursor = (min(max(cursor[0] + dr, 0), game.rows - 1), min(max(cursor[1] + dc, 0), game.cols - 1))
        elif key == ord("n"):
            game = new_game()
        elif not game.over:
            cursor, message = _game_key(scr, game, key, cursor)
        if game.over and not message:
            message = result_line(game)
            summary.append(message)


def _cursor_keys() -> dict[int, tuple[int, int]]:
    """Arrow keys and hjkl: the step each moves the cursor."""
    import curses

    return {
        curses.KEY_UP: (-1, 0),
        curses.KEY_DOWN: (1, 0),
        curses.KEY_LEFT: (0, -1),
        curses.KEY_RIGHT: (0, 1),
        ord("k"): (-1, 0),
        ord("j"): (1, 0),
        ord("h"): (0, -1),
        ord("l"): (0, 1),
    }


def _mines_colours() -> None:
    """A colour pair per digit (1-9) and one for flags and mines (10)."""
    import curses

    if not curses.has_colors():
        return
    curses.start_color()
    curses.use_default_colors()
    palette = [
        curses.COLOR_WHITE,
        curses.COLOR_BLUE,
        curses.COLOR_GREEN,
        curses.COLOR_RED,
        curses.COLOR_MAGENTA,
        curses.COLOR_YELLOW,
        curses.COLOR_CYAN,
        curses.COLOR_WHITE,
        curses.COLOR_WHITE,
    ]
    for i, col in enumerate(palette):
        curses.init_pair(i + 1, col, -1)
    curses.init_pair(10, curses.COLOR_RED, -1)


def _draw_board(scr: Any, game: Game, cursor: tuple[int, int], message: str) -> None:
    """The header, the board (the cursor's cell reversed) and the footer."""
    import curses

    from ..minesweeper import result_line

    scr.erase()
    height, width = scr.getmaxyx()
    status = {"ready": "ready", "playing": "playing", "won": "WON", "lost": "BOOM"}[game.state]
    scr.addnstr(0, 0, f"mines {game.mines_left:>4}  time {game.elapsed:6.1f}  {status}", width - 1)
    colours = curses.has_colors()
    for i, row in enumerate(game.text().splitlines()):
        if 2 + i >= height - 2:
            break
        for j, ch in enumerate(row):
            if 2 * j + 1 >= width:
                break
            attr = 0
            if ch.isdigit() and colours:
                attr = curses.color_pair(int(ch) + 1) | (curses.A_BOLD if ch != "0" else curses.A_DIM)
                ch = "." if ch == "0" else ch
            elif ch in "F*" and colours:
                attr = curses.color_pair(10) | curses.A_BOLD
            if (i, j) == cursor:
                attr |= curses.A_REVERSE
            scr.addstr(2 + i, 2 * j, ch, attr)
    foot = message or (result_line(game) if game.over else _KEYS_HELP)
    scr.addnstr(min(height - 1, 3 + game.rows), 0, foot, width - 1)
    scr.refresh()


def _game_key(scr: Any, game: Game, key: int, cursor: tuple[int, int]) -> tuple[tuple[int, int], str]:
    """Open, chord, flag or hint at the cursor; the cursor (a hint moves it) and the message."""
    import curses

    if key in (ord(" "), ord("\n"), curses.KEY_ENTER, ord("o")):
        if game.board is None and game.no_guess:
            _say_waiting(scr, game)  # the first click lays out the board: seconds, not a frozen screen
        if game.opened[cursor]:
            game.chord(cursor)
        else:
            game.open(cursor)
    elif key == ord("f"):
        game.toggle_flag(cursor)
    elif key == ord("c"):
        game.chord(cursor)
    elif key == ord("?"):
        from ..minesweeper import hint

        h = hint(game)
        if h.move is not None:
            return h.move.cell, f"hint: {h.move.kind} here: {h.reason}"
    return cursor, ""


# ------------------------------------------------------------------ bench
COMPILING = "compiling the solver (once per installation)…"


def run_bench(args: argparse.Namespace) -> int:
    check_range("--games", args.games, 1)
    from ..minesweeper.bench import (
        bench,
        format_table,
        solver_is_cached,
        warm_up,
        worker_count,
    )

    levels = tuple(dict.fromkeys(args.board or ["beginner", "intermediate", "expert"]))
    rules = tuple(dict.fromkeys(args.rules or ["safe", "zero"]))
    opts = batch_options(args, warm=warm_up, quiet=args.quiet)
    if not solver_is_cached() and opts.scheduler in (None, "local"):
        # compiled here once, before the workers start (each would compile it again)
        with Progress("compiling", quiet=args.quiet) as wait, wait.ticking():
            wait.say(COMPILING)
            warm_up()
    if opts.scheduler is not None or opts.results is not None:
        return _bench_batch(args, opts, levels, rules)
    workers = worker_count(opts.jobs, args.games)
    if workers < opts.jobs and not args.quiet:
        print(
            f"mazekit mines bench: {workers} worker(s), not {opts.jobs}: "
            f"{os.cpu_count() or 1} core(s), {args.games} game(s) a board",
            file=sys.stderr,
        )
    with Progress("mines bench", args.games * len(levels) * len(rules), unit="games", quiet=args.quiet) as bar:
        rows = bench(
            args.games,
            levels=levels,
            rules=rules,
            seed=args.seed,
            workers=workers,
            progress=lambda done, total, share: bar.update(done, share=share),
        )
    sys.stdout.write(format_table(rows))
    return 0


def bench_task(level: str, rule: str, start: int, stop: int, seed: int) -> dict[str, Any]:
    """Games ``start..stop-1`` of one board (runs on a worker): the record its results line holds."""
    import time

    from ..minesweeper.bench import play_games

    t0 = time.perf_counter()
    wins, guesses = play_games(level, rule, start, stop, seed)  # type: ignore[arg-type]
    return {
        "level": level,
        "rule": rule,
        "games": stop - start,
        "wins": int(wins),
        "guesses": int(guesses),
        "seconds": round(time.perf_counter() - t0, 4),
    }


def _bench_batch(args: argparse.Namespace, opts: Any, levels: tuple[str, ...], rules: tuple[str, ...]) -> int:
    """The games as tasks of 250 through mazekit.batch (Dask or local processes; resumable)."""
    from ..batch import Task
    from ..minesweeper.bench import CHUNK, BenchRow, format_table

    tasks = [
        Task(
            f"{level}-{rule}-seed{args.seed}-games{a}-{min(a + CHUNK, args.games)}",
            (level, rule, a, min(a + CHUNK, args.games), args.seed),
        )
        for level in levels
        for rule in rules
        for a in range(0, args.games, CHUNK)
    ]
    report = run_tasks(tasks, bench_task, opts, label="mines bench", unit="tasks of games", quiet=args.quiet)
    rows = []
    for level in levels:
        for rule in rules:
            recs = [
                report.records[t.id]["result"]
                for t in tasks
                if t.args[:2] == (level, rule) and report.records.get(t.id, {}).get("status") == "done"
            ]
            if recs:
                rows.append(
                    BenchRow(
                        level,
                        rule,
                        sum(r["games"] for r in recs),
                        sum(r["wins"] for r in recs),
                        sum(r["guesses"] for r in recs),
                        sum(r["seconds"] for r in recs),
                    )
                )
    sys.stdout.write(format_table(rows))
    if not args.quiet:
        print("ms/game: the time each task spent playing, summed (not the wall time)", file=sys.stderr)
    if report.interrupted:
        return 130
    return 0 if report.failed == 0 and all(t.id in report.records for t in tasks) else 1
