"""Universal escape strings: length beside the lower bounds and beside the article's approach.

``python benchmarks/run.py universal [--strings N] [--seeds K] [--repeat R] [--quick] [--no-write]``

* the article's 10x10 maze: the exact search (a shortest string, proven), cold and
  warm; the article's approach (random 1000-command strings, keep one that passes)
  measured over N seeded strings: how often one passes, and at other lengths;
* generated mazes (``mazekit.generate.backtracker``, exit in the bottom-right cell
  as ``mazekit maze generate --exit`` marks it): 21x21 with ``auto`` (exact when it
  can), 51x51 and 101x101 with the heuristics, string length beside the distance
  and pair lower bounds, and the success rate of random strings 10x as long.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys

import numpy as np
from _harness import command_line, fmt_ms, load, machine, median, python, time_call, write_section


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def random_success(passable, exit, length: int, count: int, seed: int) -> tuple[int, float]:
    """How many of ``count`` random strings of ``length`` free every start; mean fraction freed."""
    from mazekit.universal import _kernels as K
    from mazekit.universal._model import Model

    model = Model(passable, exit)
    gen = np.random.default_rng(seed)
    starts = np.arange(model.n, dtype=np.int32)
    out = np.empty(model.n, dtype=np.int32)
    kern = K.walk_kernel.compiled()
    wins = 0
    freed = 0.0
    for _ in range(count):
        moves = gen.integers(0, 4, size=length, dtype=np.int8)
        kern(model.nxt, moves, starts, out)
        ok = int((out >= 0).sum())
        wins += ok == model.n
        freed += ok / model.n
    return wins, freed / max(count, 1)


COLD = """
import sys, time
from mazekit import examples
from mazekit.universal import find, read_maze
p, e = read_maze(examples.read_text("julia.txt"))
t = time.perf_counter()
r = find(p, e, method="exact")
print(time.perf_counter() - t, len(r.string), r.proven)
"""


def exit_cell(maze) -> tuple[int, int]:
    free = np.flatnonzero(maze.ravel())
    k = int(free[-1])
    return (k // maze.shape[1], k % maze.shape[1])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py universal", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--strings", type=int, default=10000, help="random strings per length (default 10000)")
    ap.add_argument("--seeds", type=int, default=3, help="generated mazes per size (default 3)")
    ap.add_argument("--repeat", type=int, default=5, help="warm repeats on the article's maze")
    ap.add_argument("--quick", action="store_true", help="small counts, one maze per size, no 101x101")
    ap.add_argument("--no-write", action="store_true", help="print only, do not touch RESULTS.md")
    args = ap.parse_args(argv)
    if args.quick:
        args.strings, args.seeds, args.repeat = 500, 1, 2

    from mazekit import examples
    from mazekit.generate import backtracker
    from mazekit.universal import find, read_maze, verify

    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    say(f"Command: `{command_line('benchmarks/run.py universal', argv)}`  ")
    say(f"Machine: {machine()}; {load()}  ")
    say("Every string below was checked by `verify` from every start.")
    say()

    # -------------------------------------------------------------- article's maze
    passable, exit = read_maze(examples.read_text("julia.txt"))
    cold = subprocess.run([python(), "-c", COLD], capture_output=True, text=True, check=True).stdout.split()
    times, res = time_call(lambda: find(passable, exit, method="exact"), args.repeat + 1)
    assert verify(passable, exit, res.string).ok and res.proven
    say("### The article's 10x10 maze (70 starts)")
    say()
    say("| method | length | lower bound | proven shortest | cold | warm |")
    say("|---|---:|---:|---|---:|---:|")
    say(
        f"| exact (A* over position sets, pair bound) | {len(res.string)} | {res.lower_bound} "
        f"(distance {res.distance_bound}, pair {res.pair_bound}) | yes ({res.expanded} sets expanded) | "
        f"{fmt_ms(float(cold[0]))} | {fmt_ms(median(times[1:]))} |"
    )
    heur = find(passable, exit, method="heuristic")
    htimes, heur = time_call(lambda: find(passable, exit, method="heuristic"), args.repeat)
    say(
        f"| heuristic (greedy + beam) | {len(heur.string)} | {heur.lower_bound} | "
        f"{'yes' if heur.proven else 'no'} | - | {fmt_ms(median(htimes))} |"
    )
    say("| the article: random string, retry until one passes | 1000 | - | no | - | - |")
    say()
    say(f"String found: `{res.string}` (U = row - 1, as in the SPEC; the article's code moves down on U).")
    say()
    say(
        f"The article's approach, measured: {args.strings} random strings per length (seeded), "
        "how many free all 70 starts, and the mean share of starts freed."
    )
    say()
    say("| random string length | all 70 freed | 95% interval | mean freed |")
    say("|---:|---:|---|---:|")
    for length in (35, 100, 200, 500, 1000, 2000):
        wins, mean = random_success(passable, exit, length, args.strings, seed=length)
        lo, hi = wilson(wins, args.strings)
        say(
            f"| {length} | {100 * wins / args.strings:.1f}% ({wins}/{args.strings}) | "
            f"{100 * lo:.1f}-{100 * hi:.1f}% | {100 * mean:.1f}% |"
        )
    say()

    # -------------------------------------------------------------- generated mazes
    say("### Generated mazes (recursive backtracker, exit bottom-right)")
    say()
    say(
        "| maze | seed | starts | distance bound | pair bound | lower bound | greedy | result | method "
        "| length / lower bound | time | random strings 10x as long: all freed |"
    )
    say("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    sizes = [(10, "auto"), (25, "heuristic")] + ([] if args.quick else [(50, "heuristic")])
    from mazekit.universal._model import Model
    from mazekit.universal.heuristic import greedy_codes

    for cells, method in sizes:
        for seed in range(1, args.seeds + 1):
            maze = backtracker(cells, cells, rng=seed)
            ex = exit_cell(maze)
            model = Model(maze, ex)
            greedy_len = min(len(greedy_codes(model)), len(greedy_codes(model, farthest=False)))
            t, r = time_call(lambda maze=maze, ex=ex, method=method: find(maze, ex, method=method), 1)
            assert r.found and verify(maze, ex, r.string).ok
            tries = 100 if cells <= 25 else 20
            wins, _ = random_success(maze, ex, 10 * len(r.string), tries, seed=seed)
            tag = f"{r.method}{' (proven)' if r.proven else ''}"
            say(
                f"| {maze.shape[0]}x{maze.shape[1]} {method} | {seed} | {r.starts} | {r.distance_bound} | "
                f"{r.pair_bound} | {r.lower_bound} | {greedy_len} | {len(r.string)} | {tag} | "
                f"{len(r.string) / r.lower_bound:.2f} | "
                f"{fmt_ms(t[0])} | {wins}/{tries} |"
            )
    say()
    say(
        "*greedy*: the shorter of farthest-first and nearest-first (send that robot out by its BFS route, "
        "apply to all, repeat). *lower bound*: the pair bound, raised by the triple bound and by the exact "
        "search's frontier when `auto` ran it (its default budget: 10 s, ended early by a proof). *result*: the "
        "shortest string of the beam searches (up to 1200 starts: over sets scored by the pair bound, widths "
        "64-65536; beyond: width 32-128, score sum(dist) + w * max(dist) * robots), each with its tail "
        "replaced by an optimal one (A* from the set left once at most 2, 3, 4, ... 64 robots remain), or of "
        "the exact search. The quality over many random mazes is in the next section (`universal_quality`)."
    )
    say()
    say(
        "Time is one call in a warm process (kernels compiled), pair table included: on 101x101 the "
        "backward BFS over all 26 million pairs of cells takes about 3-4 s of it."
    )
    if not args.no_write:
        write_section("universal", "Universal escape strings", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
