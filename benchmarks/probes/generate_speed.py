"""Every maze generator timed compiled, in one process: run it once per checkout to compare.

    python benchmarks/probes/generate_speed.py                      # this checkout
    python benchmarks/probes/generate_speed.py --src ../other/src   # another checkout's generators

Each generator of ``mazekit.generate.GENERATORS`` makes a ``--size`` maze (seed 1) compiled
(``MAZEKIT_JIT=always``), after a first call that compiles or loads the kernels; a figure is the
process CPU time of one call (steadier than the wall clock on a shared machine), the median and
the best of ``--repeat`` calls, the generators taking turns. With ``--hash`` it also prints a
digest of each maze and its carving order at three sizes and two seeds, plain and compiled: the
same digests in two checkouts mean the same mazes. Used for
``benchmarks/notes/2026-12-06-one-heap.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path
from typing import Any


def digests(generate: Any, names: list[str], plain: frozenset[str]) -> dict[str, str]:
    """name/size/seed -> a digest of the maze and (for a maze) its carving order."""
    import numpy as np

    out: dict[str, str] = {}
    for name in names:
        for rows, cols in ((7, 9), (40, 31), (150, 170)):
            for seed in (0, 1):
                maze = generate(name, rows, cols, rng=seed)
                h = hashlib.sha1(np.ascontiguousarray(maze).tobytes())
                if name not in plain:
                    order = np.full(maze.shape, -1, dtype=np.int32)
                    generate(name, rows, cols, rng=seed, order=order)
                    h.update(order.tobytes())
                out[f"{name} {rows}x{cols} seed {seed}"] = h.hexdigest()[:16]
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, help="the src/ folder of the checkout to measure (default: the installed one)")
    ap.add_argument("--size", type=int, default=1000, help="rows and columns of cells (default 1000)")
    ap.add_argument("--repeat", type=int, default=7, help="timed calls a generator (default 7)")
    ap.add_argument("--hash", action="store_true", help="also print the mazes' digests, plain and compiled")
    args = ap.parse_args(argv)
    if args.src is not None:
        sys.path.insert(0, str(args.src.resolve()))
    from mazekit import _jit
    from mazekit.generate import GENERATORS, PLAIN, generate

    names = list(GENERATORS)
    if args.hash:
        for mode in ("never", "always"):
            _jit.set_mode(mode)  # type: ignore[arg-type]
            for key, digest in digests(generate, names, PLAIN).items():
                print(f"{mode} {key} {digest}")
    _jit.set_mode("always")
    n = args.size
    times: dict[str, list[float]] = {name: [] for name in names}
    for name in names:
        generate(name, n, n, rng=1)
    for _ in range(args.repeat):
        for name in names:
            c = time.process_time()
            generate(name, n, n, rng=1)
            times[name].append(time.process_time() - c)
    import mazekit

    print(f"{Path(mazekit.__file__).parent}: {n}x{n} cells, CPU ms a call (median, best of {args.repeat})")
    for name, ts in times.items():
        ts.sort()
        print(f"{name:22s} {1000 * ts[len(ts) // 2]:8.1f} {1000 * ts[0]:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
