# ruff: noqa: B023  (each lambda is called within its own loop turn)
"""The kernels that use mazekit._heap, timed in one process: run it once per source tree to compare.

    PYTHONPATH=OLD/src python benchmarks/probes/heap_kernels.py > old.json
    PYTHONPATH=src python benchmarks/probes/heap_kernels.py > new.json

Compiled (MAZEKIT_JIT=always), each call timed in process CPU time (the machine is shared),
median of 5 after a first call; prints one JSON line. Dijkstra on a random-cost open grid and a
maze, A* 8-connected, greedy best-first, and the true-Prim generator. Used for
``benchmarks/notes/2026-12-06-one-heap.md``.
"""

import json
import time

import numpy as np

from mazekit import _jit

_jit.set_mode("always")
from mazekit.generate import generate  # noqa: E402
from mazekit.search import astar, dijkstra, greedy  # noqa: E402

rng = np.random.default_rng(0)
out = {}


def t(name, fn, rep):
    fn()
    ts = []
    for _ in range(rep):
        c = time.process_time()
        fn()
        ts.append(time.process_time() - c)
    out[name] = float(np.median(ts))


for n in (1000, 2000):
    open_ = rng.random((n, n)) > 0.25
    open_[0, 0] = open_[-1, -1] = True
    cost = np.where(open_, 1.0 + rng.random((n, n)), np.inf)
    maze = generate("backtracker", n // 2, n // 2, rng=1)
    m = maze.shape[0] - 2
    t(f"dijkstra open {n}", lambda: dijkstra(cost, (0, 0), (n - 1, n - 1)), 5)
    t(f"dijkstra maze {n}", lambda: dijkstra(np.where(maze, 1.0, np.inf), (1, 1), (m, m)), 5)
    t(f"astar 8-conn open {n}", lambda: astar(cost, (0, 0), (n - 1, n - 1), connectivity=8), 5)
    t(f"greedy open {n}", lambda: greedy(open_, (0, 0), (n - 1, n - 1)), 5)
for n in (300, 1000):
    t(f"true-prim {n}x{n}", lambda: generate("true-prim", n, n, rng=1), 5)
print(json.dumps(out))
