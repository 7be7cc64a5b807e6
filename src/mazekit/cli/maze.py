"""``mazekit maze``: generate, solve and draw mazes (article 3).

  mazekit maze generate --algorithm prim --size 10x20 --seed 7 [--braid 0.5] [--exit] [--png maze.png]
  mazekit maze solve [FILE] --algorithm astar [--png route.png] [--gif search.gif] [--html search.html]
  mazekit maze render [FILE] --png maze.png | --svg maze.svg

``generate`` prints the maze as 0/1 text (0 free, 1 wall; ``--exit`` marks the
bottom-right cell ``x``): the format ``mazekit path``, ``mazekit universal`` and
``mazekit maze solve`` read, so the commands compose with pipes. ``solve``
prints the route as ``r c`` lines (0-based; ``-1`` and exit status 1 when there
is none). A summary goes to stderr, and for a large maze (over a second) a
line that says what is being done and for how long.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import InputError
from ..grid import Grid, Point, decode_text, format_grid, header_ends, read_grid
from ._io import UsageError, check_outputs, check_range, check_scale, read_input, size_arg, write_files, write_output
from ._progress import Progress

_GENERATORS = (
    "backtracker",
    "prim",
    "simplified-prim",
    "true-prim",
    "kruskal",
    "wilson",
    "aldous-broder",
    "hunt-and-kill",
    "growing-tree",
    "growing-tree-newest",
    "growing-tree-random",
    "eller",
    "binary-tree",
    "sidewinder",
    "division",
    "caves",
)
_SOLVERS = ("dfs-random", "dfs", "greedy", "astar", "bfs", "dijkstra")
MAX_CELLS = 25_000_000


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "maze",
        help="generate, solve and draw mazes (16 generators, 6 solvers, PNG/SVG/GIF/HTML)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    msub = p.add_subparsers(dest="maze_command", metavar="ACTION")

    g = msub.add_parser(
        "generate",
        help="generate a maze and print it as 0/1 text",
        description="Generate a maze; print it as 0/1 text (0 free, 1 wall).",
    )
    g.add_argument("-a", "--algorithm", choices=_GENERATORS, default="backtracker", help="default: backtracker")
    g.add_argument(
        "-s", "--size", default="10x10", metavar="RxC", help="size in cells (caves: in grid squares); default 10x10"
    )
    g.add_argument("--seed", type=int, help="random seed (default: a fresh one, printed on stderr)")
    g.add_argument("--braid", type=float, default=0.0, metavar="F", help="remove this share of dead ends (0..1)")
    g.add_argument("--rooms", type=int, default=0, metavar="N", help="open N rectangular rooms")
    g.add_argument("--exit", action="store_true", help="mark the bottom-right cell as the exit 'x'")
    g.add_argument("-o", "--output", metavar="OUT", help="write the text here (default: stdout)")
    _picture_options(g, gif="an animation of the generation", html="a page replaying the generation")
    g.set_defaults(func=run_generate)

    s = msub.add_parser(
        "solve",
        help="solve a maze: print the route, draw the search",
        description="Solve a maze read as text (0/1, ./#, with optional S/E start and G/x goal).",
    )
    s.add_argument("file", nargs="?", help="maze file (default: stdin)")
    s.add_argument("-a", "--algorithm", choices=_SOLVERS, default="astar", help="default: astar")
    s.add_argument("--start", metavar="R,C", help="start (default: the cell marked S or E, else the first free cell)")
    s.add_argument("--goal", metavar="R,C", help="goal (default: the cell marked G or x, else the last free cell)")
    s.add_argument("--seed", type=int, help="random seed for dfs-random")
    s.add_argument("-c", "--connectivity", type=int, choices=(4, 8), default=4)
    s.add_argument("-o", "--output", metavar="OUT", help="write the route here (default: stdout)")
    _picture_options(s, gif="an animation of the search", html="a page replaying the search")
    s.add_argument("--plain", action="store_true", help="pictures show the route only, not the visited cells")
    s.set_defaults(func=run_solve)

    r = msub.add_parser(
        "render",
        help="draw a maze as PNG or SVG",
        description="Draw a maze read as text; marked S/E and G/x cells are shown.",
    )
    r.add_argument("file", nargs="?", help="maze file (default: stdin)")
    r.add_argument("--png", metavar="FILE", help="write a PNG")
    r.add_argument("--svg", metavar="FILE", help="write an SVG")
    r.add_argument("--scale", type=int, metavar="N", help="pixels per grid square, 1-128 (default: fits about 800 px)")
    r.set_defaults(func=run_render)
    p.set_defaults(func=lambda args: _no_action(p))


def _picture_options(p: argparse.ArgumentParser, *, gif: str, html: str) -> None:
    p.add_argument("--png", metavar="FILE", help="write a PNG picture")
    p.add_argument("--svg", metavar="FILE", help="write an SVG picture")
    p.add_argument("--gif", metavar="FILE", help=f"write {gif} (GIF)")
    p.add_argument("--html", metavar="FILE", help=f"write {html} (self-contained HTML)")
    p.add_argument(
        "--scale", type=int, metavar="N", help="pixels per grid square in pictures, 1-128 (default: fits about 800 px)"
    )


def _no_action(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def _size(text: str) -> tuple[int, int]:
    rows, cols = size_arg(text)
    if rows * cols > MAX_CELLS:
        raise UsageError(f"--size {rows}x{cols} is too large (at most {MAX_CELLS} cells)")
    return rows, cols


def _finish(outputs: list[tuple[str | None, Callable[[str], Any]]], output: str | None, text: str) -> None:
    """Write the pictures and the text answer all or nothing; the text goes to stdout without ``-o``."""
    to_file = output is not None and output != "-"
    write_files([*outputs, (output, _text_writer(text))] if to_file else outputs)
    if not to_file:
        write_output(None, text)


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse unwritable output paths before any work."""
    check_outputs(*(getattr(args, name, None) for name in ("output", "png", "svg", "gif", "html")))


def _text_writer(text: str) -> Callable[[str], None]:
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)

    return write


def run_generate(args: argparse.Namespace) -> int:
    from .. import generate as G

    rows, cols = _size(args.size)
    check_scale(args.scale)
    _check_outputs(args)
    check_range("--braid", args.braid, 0, 1)
    check_range("--rooms", args.rooms, 0)
    plain = args.algorithm in G.PLAIN
    if plain and (args.braid or args.rooms or args.gif or args.html):
        raise UsageError(f"{args.algorithm} makes a plain grid: --braid, --rooms, --gif and --html need a maze")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
    check_range("--seed", seed, 0)
    kind = args.algorithm + (" grid" if plain else " maze")
    # the kernels cannot report, so a thread shows the elapsed time of each step
    with Progress(f"generating a {rows}x{cols} {kind}…") as bar, bar.ticking():
        gen = np.random.default_rng(seed)
        shape = (rows, cols) if plain else (2 * rows + 1, 2 * cols + 1)
        order = None if plain else np.empty(shape, dtype=np.int32)
        maze = base = G.generate(args.algorithm, rows, cols, rng=gen, order=order)
        if args.braid:
            maze = G.braid(maze, args.braid, rng=gen)
        if args.rooms:
            maze = G.rooms(maze, args.rooms, rng=gen)
        text = format_grid(maze)
        exit_cell: Point | None = None
        if args.exit:
            free = np.flatnonzero(maze.ravel())
            if free.size == 0:
                raise UsageError("the grid has no free cell to mark as the exit")
            k = int(free[-1])
            exit_cell = (k // shape[1], k % shape[1])
            lines = text.splitlines(keepends=True)
            r, c = exit_cell
            lines[r] = lines[r][:c] + "x" + lines[r][c + 1 :]
            text = "".join(lines)
        if (args.gif or args.html) and maze is not base:
            bar.say("mazekit maze: --gif/--html show the generation, before braiding and rooms")
        bar.update(label=f"writing the {rows}x{cols} {kind}…")
        outputs = _pictures(
            args,
            maze,
            route=None,
            start=None,
            goal=exit_cell,
            anim_maze=base,
            gen_order=order,
            title=f"Maze generation: {args.algorithm}",
            info=f"{args.algorithm} {rows}x{cols}, seed {seed}",
        )
        with bar.hidden():  # the text may go to the same terminal
            _finish(outputs, args.output, text)
        from ..generate.properties import metrics

        bar.update(label=f"measuring the {rows}x{cols} {kind}…")
        cells = None if plain else True
        summary = metrics(maze, cells=cells).summary()
    print(f"{args.algorithm} {rows}x{cols}, seed {seed}: {summary}", file=sys.stderr)
    return 0


def _pictures(
    args: argparse.Namespace,
    maze: Any,
    *,
    route: Any,
    start: Point | None,
    goal: Point | None,
    anim_maze: Any = None,
    gen_order: Any = None,
    search_order: Any = None,
    heat: bool = True,
    title: str = "",
    info: str = "",
) -> list[tuple[str | None, Callable[[str], Any]]]:
    """The files asked for, as (path, writer(tmp_path)) pairs; nothing is written yet."""
    out: list[tuple[str | None, Callable[[str], Any]]] = []
    if not (args.png or args.svg or args.gif or args.html):
        return out
    from .. import render
    from ..render.maze import _image, rgb_array

    scale = args.scale
    png_order = search_order if heat else None

    def png(tmp: str) -> None:
        img = _image(rgb_array(maze, route, order=png_order, start=start, goal=goal), scale)
        img.save(tmp, format="PNG", optimize=True)

    out.append((args.png, png))
    if args.svg:
        out.append((args.svg, _text_writer(render.maze_svg(maze, route, scale=scale or 10, start=start, goal=goal))))
    anim = maze if anim_maze is None else anim_maze
    if args.gif:
        if gen_order is not None:
            out.append((args.gif, lambda tmp: render.generation_gif(tmp, anim, gen_order, scale=scale)))
        elif search_order is not None:
            out.append(
                (
                    args.gif,
                    lambda tmp: render.search_gif(tmp, maze, search_order, route, scale=scale, start=start, goal=goal),
                )
            )
    if args.html:
        if gen_order is not None:
            page = render.generation_html(anim, gen_order, title=title, info=info)
        else:
            trace = search_order if search_order is not None else np.full(maze.shape, -1, dtype=np.int32)
            page = render.player_html(maze, trace, route, title=title, info=info, start=start, goal=goal)
        out.append((args.html, _text_writer(page)))
    return out


def _cell(text: str, option: str) -> Point:
    parts = [x for x in text.replace(" ", ",").split(",") if x != ""]
    try:
        r, c = (int(x) for x in parts)
    except ValueError:
        raise UsageError(f"{option} must be R,C (two integers), got {text!r}") from None
    return (r, c)


def _ends(grid: Grid, start_opt: str | None, goal_opt: str | None) -> tuple[Point, Point]:
    free = np.flatnonzero(grid.passable.ravel())
    cols = grid.shape[1]
    start = _cell(start_opt, "--start") if start_opt else grid.marked("SE")
    goal = _cell(goal_opt, "--goal") if goal_opt else grid.marked("Gx")
    if start is None or goal is None:
        if free.size == 0:
            raise InputError(0, "the maze has no free cell")
        if start is None:
            start = (int(free[0]) // cols, int(free[0]) % cols)
        if goal is None:
            goal = (int(free[-1]) // cols, int(free[-1]) % cols)
    rows = grid.shape[0]
    for name, (r, c) in (("--start", start), ("--goal", goal)):
        if not (0 <= r < rows and 0 <= c < cols):
            raise UsageError(f"{name} ({r}, {c}) is outside the {rows}x{cols} maze")
    return start, goal


def run_solve(args: argparse.Namespace) -> int:
    from ..search import solve

    check_scale(args.scale)
    _check_outputs(args)
    grid = read_grid(decode_text(read_input(args.file)))
    start, goal = _ends(grid, args.start, args.goal)
    passable = grid.passable.copy()
    passable[start] = True
    result = solve(passable, start, goal, algorithm=args.algorithm, rng=args.seed, connectivity=args.connectivity)
    info = (
        f"{args.algorithm}: "
        + (f"route of {result.length} steps" if result.found else "no route")
        + f", {result.visited} cells visited"
    )
    outputs = _pictures(
        args,
        passable,
        route=result.path if result.found else None,
        start=start,
        goal=goal,
        search_order=result.order,
        heat=not args.plain,
        title=f"Maze search: {args.algorithm}",
        info=info,
    )
    _finish(outputs, args.output, "".join(f"{r} {c}\n" for r, c in result.path.tolist()) if result.found else "-1\n")
    print(info, file=sys.stderr)
    return 0 if result.found else 1


def run_render(args: argparse.Namespace) -> int:
    if not (args.png or args.svg):
        raise UsageError("give --png FILE and/or --svg FILE")
    check_scale(args.scale)
    _check_outputs(args)
    text = decode_text(read_input(args.file))
    grid = read_grid(text)
    start = grid.marked("SE")
    goal = grid.marked("Gx")
    ends = header_ends(text, grid.shape)
    if ends is not None:  # the robot article's header gives the start and the goal
        start = ends[0] if start is None else start
        goal = ends[1] if goal is None else goal
    args.gif = args.html = None
    write_files(_pictures(args, grid.passable, route=None, start=start, goal=goal))
    return 0


def write_grid_pictures(
    png: str | None,
    html: str | None,
    *,
    passable: Any,
    route: Any,
    start: Point | None,
    goal: Point | None,
    order: Any = None,
    marks: dict[Point, str] | None = None,
    title: str = "mazekit",
    info: str = "",
    output: str | None = None,
    text: str = "",
) -> None:
    """Draw a small puzzle's answer (robot, forest) as the articles do: PNG and/or HTML.

    The answer's ``text`` goes to ``output`` (stdout when None), written with the
    pictures all or nothing.
    """
    from .. import render

    free = np.asarray(passable, dtype=bool).copy()
    if start is not None:
        free[start] = True  # the forest's explorer stands on a cell the search treats as blocked
    outputs: list[tuple[str | None, Callable[[str], Any]]] = []
    if png:

        def draw(tmp: str) -> None:
            img = render.draw_grid(free, route, start=start, goal=goal, order=order, marks=marks)
            img.save(tmp, format="PNG", optimize=True)

        outputs.append((png, draw))
    if html:
        page = render.grid_html(free, route, order=order, start=start, goal=goal, marks=marks, title=title, info=info)
        outputs.append((html, _text_writer(page)))
    _finish(outputs, output, text)
