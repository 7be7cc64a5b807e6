"""``mazekit universal``: one command string that frees the robot from any start (article 3).

The maze is rows of ``0`` (free), ``1`` (obstacle) and one ``x`` (the exit), the
format ``mazekit maze generate --exit`` prints; without FILE it is the article's
10x10 maze. Prints the string alone on the first line of stdout, and its length,
the lower bound and whether it is proven shortest on stderr. ``--verify STRING``
runs a given string from every start instead (``-`` reads it from stdin) and
prints the article's line ``k test completed from N``. Here ``U`` is up (row - 1),
as in the SPEC; the article's Julia code moves down on ``U``, so check its strings
with ``--swap-ud`` (its ``RRRLDUUU...`` example then gives its "10 test completed from 70").

Exit status: 0 for a string (or a string that frees every start), 1 when no
string exists (cells that cannot reach the exit are listed, 0-based ``r,c``) or
none within ``--max-length``, or when a verified string misses starts; 2 for bad
input; 130 after Ctrl-C (the best string found so far is still printed).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..grid import decode_text
from ._batch import add_batch_options, batch_options, run_tasks
from ._io import UsageError, check_outputs, check_range, read_input, write_output

#: U <-> D: the article's code moves the robot down on U (its rows grow upwards in the
#: commands), so its strings are checked here with ``--swap-ud``.
_SWAP = str.maketrans("UD", "DU")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "universal",
        help="a universal escape string for a maze with one exit (article 3)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "file", nargs="*", help="maze file, '-' for stdin (default: the article's maze); several files run as a batch"
    )
    how = p.add_mutually_exclusive_group()
    how.add_argument(
        "--exact",
        action="store_const",
        dest="method",
        const="exact",
        help="shortest string, proven shortest (A* over sets of positions)",
    )
    how.add_argument(
        "--heuristic",
        action="store_const",
        dest="method",
        const="heuristic",
        help="greedy and beam search, for big mazes",
    )
    p.add_argument("--max-length", type=int, metavar="N", help="accept only strings of at most N commands")
    p.add_argument("--time-limit", type=float, metavar="S", help="stop after S seconds with the best string so far")
    p.add_argument("--verify", metavar="STRING", help="check STRING from every start instead of searching")
    p.add_argument(
        "--swap-ud", action="store_true", help="read and write U as down and D as up, as the article's Julia code does"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no summary or progress on stderr")
    p.add_argument("-o", "--output", metavar="OUT", help="write the answer here (default: stdout)")
    g = p.add_argument_group("a batch over many mazes (one line per maze: name, length, lower bound, verdict, string)")
    g.add_argument("--generate", type=int, metavar="N", help="N generated mazes instead of files")
    g.add_argument("--size", default="10x10", metavar="RxC", help="their size in cells (default 10x10)")
    g.add_argument("--algorithm", default="backtracker", metavar="NAME", help="their generator (default backtracker)")
    g.add_argument("--braid", type=float, default=0.0, metavar="F", help="remove this share of dead ends")
    g.add_argument("--seed", type=int, default=0, help="the first maze's seed; maze i uses seed + i (default 0)")
    add_batch_options(p)
    p.set_defaults(func=run, method="auto")


def _load(path: str | None):  # type: ignore[no-untyped-def]
    from ..universal import read_maze

    if path is None:
        from .. import examples

        return read_maze(examples.read_text("julia.txt"))
    return read_maze(decode_text(read_input(path)))


def _cells(points: list[list[int]], limit: int = 20) -> str:
    shown = " ".join(f"{r},{c}" for r, c in points[:limit])
    more = f" (and {len(points) - limit} more)" if len(points) > limit else ""
    return shown + more


def run(args: argparse.Namespace) -> int:
    check_outputs(args.output)
    if args.generate is not None or len(args.file) > 1:
        return run_batch_form(args)
    args.file = args.file[0] if args.file else None
    if args.max_length is not None:
        check_range("--max-length", args.max_length, 0)
    if args.time_limit is not None:
        check_range("--time-limit", args.time_limit, 0, above=True, unit="seconds")
    if args.verify is not None:
        if args.verify == "-" and args.file == "-":
            raise UsageError("--verify - and the maze cannot both come from stdin")
        string = args.verify
        if string == "-":
            string = decode_text(sys.stdin.buffer.read())
        string = "".join(string.split())
        bad = [ch for ch in string if ch not in "UDLR"]
        if bad:
            raise UsageError(f"--verify: {bad[0]!r} at position {string.index(bad[0]) + 1}: commands are U, D, L, R")
        if args.swap_ud:
            string = string.translate(_SWAP)
        passable, exit = _load(args.file)
        return _verify(passable, exit, string, args)
    passable, exit = _load(args.file)
    return _find(passable, exit, args)


def _verify(passable, exit, string: str, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    from ..universal import verify

    verdict = verify(passable, exit, string)
    write_output(args.output, f"{verdict}\n")
    if not verdict.ok and not args.quiet:
        print(f"still inside after {len(string)} commands, from: {_cells(verdict.failed.tolist())}", file=sys.stderr)
    return 0 if verdict.ok else 1


def _find(passable, exit, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    from ..universal import find

    started = time.monotonic()

    def progress(line: str) -> None:
        if not args.quiet:
            print(f"mazekit universal: {line}", file=sys.stderr, flush=True)

    try:
        res = find(
            passable,
            exit,
            method=args.method,
            max_length=args.max_length,
            time_limit=args.time_limit,
            progress=progress,
            interruptible=True,
        )
    except ValueError as exc:  # a maze too big for --exact
        raise UsageError(str(exc).replace("method='heuristic'", "--heuristic")) from None
    elapsed = time.monotonic() - started
    interrupted = not res.complete and (args.time_limit is None or elapsed < args.time_limit)
    if res.stuck.size:
        write_output(args.output, "\n")
        stuck = res.stuck.tolist()
        print(
            f"no universal string: {len(stuck)} of {res.starts} free cells cannot reach the exit "
            f"(r,c from 0): {_cells(stuck)}",
            file=sys.stderr,
        )
        return 1
    if not res.found:
        write_output(args.output, "\n")
        if res.lower_bound > (args.max_length or 0) and res.complete and args.method != "heuristic":
            why = f"proven: every string needs at least {res.lower_bound}"
        else:
            why = f"lower bound {res.lower_bound}"
        print(f"no string of at most {args.max_length} commands found ({why})", file=sys.stderr)
        return 130 if interrupted else 1
    write_output(args.output, (res.string.translate(_SWAP) if args.swap_ud else res.string) + "\n")
    if not args.quiet:
        if res.proven:
            verdict = "proven shortest"
        else:
            verdict = f"not proven shortest (gap {len(res.string) - res.lower_bound})"
        if res.pair_bound < 0:
            pair = "pair bound not computed"
        else:
            pair = f"pair bound {res.pair_bound}" + ("" if res.pair_bound_exhaustive else " sampled")
        detail = f"{res.method}" + (f", {res.expanded} sets expanded" if res.expanded else "")
        stop = ""
        if not res.complete:
            stop = ", interrupted" if interrupted else ", time limit reached"
        print(
            f"length {len(res.string)}, lower bound {res.lower_bound} (distance bound {res.distance_bound}, "
            f"{pair}), {verdict} [{detail}, {res.starts} starts, {elapsed:.2f} s{stop}]",
            file=sys.stderr,
        )
    return 130 if interrupted else 0


# ------------------------------------------------------------------ batch form


def maze_task(source: tuple[Any, ...], method: str, time_limit: float, max_length: int | None) -> dict[str, Any]:
    """One maze of a batch (runs on a worker): ``source`` is ``("text", maze)`` or
    ``("generate", algorithm, rows, cols, seed, braid)``; returns a JSON-able record."""
    import numpy as np

    from ..universal import find, read_maze

    if source[0] == "text":
        passable, exit = read_maze(source[1])
    else:
        from ..generate import GENERATORS, braid

        _, algorithm, rows, cols, seed, braid_share = source
        gen = np.random.default_rng(int(seed))
        passable = GENERATORS[str(algorithm)](int(rows), int(cols), rng=gen)
        if float(braid_share):
            passable = braid(passable, float(braid_share), rng=gen)
        free = np.flatnonzero(passable.ravel())
        k = int(free[-1])
        exit = (k // passable.shape[1], k % passable.shape[1])
    started = time.monotonic()
    res = find(passable, exit, method=method, max_length=max_length, time_limit=time_limit)  # type: ignore[arg-type]
    return {
        "found": bool(res.found),
        "string": res.string,
        "length": len(res.string) if res.found else None,
        "lower_bound": int(res.lower_bound),
        "proven": bool(res.proven),
        "starts": int(res.starts),
        "stuck": int(res.stuck.shape[0]),
        "complete": bool(res.complete),
        "method": res.method,
        "seconds": round(time.monotonic() - started, 3),
    }


def _warm_universal() -> None:
    maze_task(("generate", "backtracker", 3, 3, 0, 0.0), "auto", 5.0, None)


def _batch_sources(args: argparse.Namespace) -> list[tuple[str, tuple[Any, ...]]]:
    """(task id, source) for every maze of the batch."""
    import hashlib

    if args.generate is not None:
        from .maze import _size

        if args.file:
            raise UsageError("give maze files or --generate N, not both")
        check_range("--generate", args.generate, 1, 1_000_000)
        from ..generate import GENERATORS, PLAIN

        if args.algorithm not in GENERATORS or args.algorithm in PLAIN:
            mazes = ", ".join(g for g in GENERATORS if g not in PLAIN)
            raise UsageError(f"--algorithm must be one of {mazes}, got {args.algorithm!r}")
        check_range("--braid", args.braid, 0, 1)
        rows, cols = _size(args.size)
        return [
            (
                f"{args.algorithm}-{rows}x{cols}-braid{args.braid:g}-seed{args.seed + i}",
                ("generate", args.algorithm, rows, cols, args.seed + i, args.braid),
            )
            for i in range(args.generate)
        ]
    out = []
    from ..universal import read_maze

    for path in args.file:
        text = decode_text(read_input(path))
        read_maze(text)  # bad input is reported now, naming the file, before any work
        digest = hashlib.sha1(text.encode()).hexdigest()[:12]
        out.append((f"{path}#{digest}", ("text", text)))
    return out


def run_batch_form(args: argparse.Namespace) -> int:
    """Many mazes: one line each on stdout, a summary on stderr; resumable with --results."""
    from ..batch import Task
    from ..errors import InputError

    if args.verify is not None:
        raise UsageError("--verify checks one maze; give one file")
    sources: list[tuple[str, tuple[Any, ...]]] = []
    try:
        sources = _batch_sources(args)
    except InputError as exc:
        raise InputError(exc.line, str(exc).split(": ", 1)[-1]) from None
    time_limit = args.time_limit if args.time_limit is not None else 10.0
    tasks = [Task(tid, (src, args.method, time_limit, args.max_length)) for tid, src in sources]
    opts = batch_options(args, warm=_warm_universal, quiet=args.quiet)
    report = run_tasks(
        tasks,
        maze_task,
        opts,
        label="universal",
        unit="mazes",
        quiet=args.quiet,
        solved=lambda r: bool(r.get("found")),  # "proven shortest" is in the summary
        solved_word="strings found",
    )
    lines, ratios, proven, seconds = [], [], 0, 0.0
    for task in tasks:
        rec = report.records.get(task.id)
        if rec is None or rec.get("status") != "done":
            why = "not run" if rec is None else f"failed: {rec.get('error', '')}"
            lines.append(f"{task.id}\t-\t-\t{why}\t")
            continue
        r = rec["result"]
        seconds += float(r.get("seconds", 0.0))
        if not r["found"]:
            verdict = "stuck" if r["stuck"] else "none"
            lines.append(f"{task.id}\t-\t{r['lower_bound']}\t{verdict}\t")
            continue
        proven += bool(r["proven"])
        if r["lower_bound"] > 0:
            ratios.append(r["length"] / r["lower_bound"])
        verdict = "proven" if r["proven"] else f"gap {r['length'] - r['lower_bound']}"
        string = r["string"].translate(_SWAP) if args.swap_ud else r["string"]
        lines.append(f"{task.id}\t{r['length']}\t{r['lower_bound']}\t{verdict}\t{string}")
    write_output(args.output, "\n".join(lines) + "\n")
    if not args.quiet:
        done = sum(1 for t in tasks if report.records.get(t.id, {}).get("status") == "done")
        if ratios:
            ratios.sort()
            med = (
                ratios[len(ratios) // 2]
                if len(ratios) % 2
                else (ratios[len(ratios) // 2 - 1] + ratios[len(ratios) // 2]) / 2
            )
            shape = f"length / lower bound: median {med:.3f}, worst {ratios[-1]:.3f}; "
        else:
            shape = ""
        print(
            f"{done} of {len(tasks)} mazes: {shape}proven shortest {proven}; "
            f"{seconds:.1f} s of search, {report.wall:.1f} s wall",
            file=sys.stderr,
        )
    if report.interrupted:
        return 130
    return 0 if all(report.records.get(t.id, {}).get("status") == "done" for t in tasks) else 1
