"""Grid search: mazekit.search beside its peers on the same grids, in one run.

Tasks (4-connectivity, unit steps):

* ``distances``: BFS distance from one source to every cell;
* ``path``: one shortest route between two far-apart cells;
* ``flood``: the region connected to a seed;
* ``label``: connected-component labels of the whole grid.

Grids (fixed seeds): an open grid with about 25 % walls (source and goal at two
opposite corners, forced open) and a perfect maze from
``mazekit.generate.backtracker`` (corner cell to corner cell), ~N x N for each N
of ``--sizes``.

Every peer's answer is checked (distances equal to the C reference's, route valid
and of the optimal length, flood regions equal, label partitions equal up to
renumbering) before it is timed. Warm: median of ``--repeat`` calls, peers
interleaved round by round. Cold: the first call in a fresh process (one
subprocess per peer and grid; imports and the peer's input preparation are not
timed, the call is).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _harness as H
import numpy as np

TASKS = ("distances", "path", "flood", "label")
TASK_TITLES = {
    "distances": "BFS distances from one source to every cell",
    "path": "Single-pair shortest path (corner to corner)",
    "flood": "Flood fill from a seed",
    "label": "Connected-component labelling (4-connectivity)",
}
#: The two sections of RESULTS.md this benchmark writes: key, title, tasks.
SECTIONS = (
    ("search", "Grid search", ("distances", "path")),
    ("flood", "Flood fill and labels", ("flood", "label")),
)
SLOW_CELLS = 1_100_000  # pure-Python peers run only up to this many cells

# --------------------------------------------------------------------------- grids


@dataclass
class Grid:
    kind: str  # "open" or "maze"
    passable: np.ndarray
    source: tuple[int, int]
    goal: tuple[int, int]

    @property
    def name(self) -> str:
        r, c = self.passable.shape
        return f"{self.kind} {r}x{c}"

    @property
    def cells(self) -> int:
        return int(self.passable.size)

    @property
    def key(self) -> str:
        return f"{self.kind}{self.passable.shape[0]}"


def make_grids(sizes: list[int]) -> list[Grid]:
    from mazekit.generate import backtracker

    grids = []
    for n in sizes:
        rng = np.random.default_rng(20240 + n)
        p = rng.random((n, n)) >= 0.25
        p[0, 0] = p[-1, -1] = True
        p[0, 1] = p[-1, -2] = True  # keep the corners out of a walled pocket
        grids.append(Grid("open", np.ascontiguousarray(p), (0, 0), (n - 1, n - 1)))
        h = max(1, (n - 1) // 2)
        m = backtracker(h, h, rng=7 + n)
        grids.append(Grid("maze", np.ascontiguousarray(m), (1, 1), (m.shape[0] - 2, m.shape[1] - 2)))
    return grids


def save_grid(g: Grid) -> Path:
    H.BUILD.mkdir(exist_ok=True)
    path = H.BUILD / f"grid_{g.key}.npz"
    np.savez(path, passable=g.passable, source=np.array(g.source), goal=np.array(g.goal), kind=g.kind)
    return path


def load_grid(path: str) -> Grid:
    z = np.load(path)
    return Grid(str(z["kind"]), z["passable"], tuple(z["source"].tolist()), tuple(z["goal"].tolist()))


# --------------------------------------------------------------------------- C reference


_LIB: Any = None


def clib() -> Any:
    global _LIB
    if _LIB is None:
        lib = ctypes.CDLL(str(H.build_c("cref")))
        i64, ptr = ctypes.c_int64, ctypes.c_void_p
        for fn in ("cref_bfs_distances", "cref_flood_stack", "cref_flood_scan"):
            getattr(lib, fn).argtypes = [ptr, i64, i64, i64, i64, ptr]
            getattr(lib, fn).restype = i64
        lib.cref_bfs_path.argtypes = [ptr, i64, i64, i64, i64, i64, i64, ptr]
        lib.cref_bfs_path.restype = i64
        _LIB = lib
    return _LIB


def c_distances(g: Grid) -> Callable[[], np.ndarray]:
    lib, u8 = clib(), g.passable.view(np.uint8)
    R, C = g.passable.shape

    def call() -> np.ndarray:
        out = np.empty((R, C), dtype=np.int32)
        if lib.cref_bfs_distances(u8.ctypes.data, R, C, *g.source, out.ctypes.data) < 0:
            raise MemoryError
        return out

    return call


def c_path(g: Grid) -> Callable[[], np.ndarray]:
    lib, u8 = clib(), g.passable.view(np.uint8)
    R, C = g.passable.shape

    def call() -> np.ndarray:
        out = np.empty((R * C, 2), dtype=np.int64)
        n = lib.cref_bfs_path(u8.ctypes.data, R, C, *g.source, *g.goal, out.ctypes.data)
        if n < 0:
            raise MemoryError
        return out[:n]

    return call


def c_flood(fn: str) -> Callable[[Grid], Callable[[], np.ndarray]]:
    def setup(g: Grid) -> Callable[[], np.ndarray]:
        lib, u8 = clib(), g.passable.view(np.uint8)
        R, C = g.passable.shape
        f = getattr(lib, fn)

        def call() -> np.ndarray:
            out = np.empty((R, C), dtype=np.uint8)
            if f(u8.ctypes.data, R, C, *g.source, out.ctypes.data) < 0:
                raise MemoryError
            return out.view(bool)

        return call

    return setup


# --------------------------------------------------------------------------- peers
# A peer's setup(grid) prepares its input (not timed) and returns the call to time.


def py_bfs_distances(g: Grid) -> Callable[[], np.ndarray]:
    rows = g.passable.tolist()
    R, C = g.passable.shape

    def call() -> np.ndarray:
        dist = [[-1] * C for _ in range(R)]
        sr, sc = g.source
        dist[sr][sc] = 0
        q = deque([(sr, sc)])
        while q:
            r, c = q.popleft()
            d = dist[r][c] + 1
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < R and 0 <= nc < C and rows[nr][nc] and dist[nr][nc] < 0:
                    dist[nr][nc] = d
                    q.append((nr, nc))
        return np.array(dist, dtype=np.int32)

    return call


def py_bfs_path(g: Grid) -> Callable[[], np.ndarray]:
    rows = g.passable.tolist()
    R, C = g.passable.shape

    def call() -> np.ndarray:
        parent: dict[tuple[int, int], tuple[int, int] | None] = {g.source: None}
        q = deque([g.source])
        while q:
            u = q.popleft()
            if u == g.goal:
                break
            r, c = u
            for v in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= v[0] < R and 0 <= v[1] < C and rows[v[0]][v[1]] and v not in parent:
                    parent[v] = u
                    q.append(v)
        if g.goal not in parent:
            return np.empty((0, 2), dtype=np.int64)
        path = []
        x: tuple[int, int] | None = g.goal
        while x is not None:
            path.append(x)
            x = parent[x]
        return np.array(path[::-1])

    return call


def py_flood(g: Grid) -> Callable[[], np.ndarray]:
    rows = g.passable.tolist()
    R, C = g.passable.shape

    def call() -> np.ndarray:
        seen = [[False] * C for _ in range(R)]
        sr, sc = g.source
        seen[sr][sc] = True
        stack = [(sr, sc)]
        while stack:
            r, c = stack.pop()
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < R and 0 <= nc < C and rows[nr][nc] and not seen[nr][nc]:
                    seen[nr][nc] = True
                    stack.append((nr, nc))
        return np.array(seen, dtype=bool)

    return call


def nx_graph(g: Grid) -> Any:
    import networkx as nx

    R, C = g.passable.shape
    G = nx.Graph()
    idx = np.flatnonzero(g.passable.ravel())
    G.add_nodes_from(idx.tolist())
    flat = g.passable.ravel()
    right = idx[(idx % C < C - 1) & flat[np.minimum(idx + 1, flat.size - 1)]]
    down = idx[(idx + C < flat.size) & flat[np.minimum(idx + C, flat.size - 1)]]
    G.add_edges_from(zip(right.tolist(), (right + 1).tolist(), strict=False))
    G.add_edges_from(zip(down.tolist(), (down + C).tolist(), strict=False))
    return G


def nx_distances(g: Grid) -> Callable[[], np.ndarray]:
    import networkx as nx

    G, (R, C) = nx_graph(g), g.passable.shape

    def call() -> np.ndarray:
        d = nx.single_source_shortest_path_length(G, g.source[0] * C + g.source[1])
        out = np.full(R * C, -1, dtype=np.int32)
        out[np.fromiter(d.keys(), np.int64, len(d))] = np.fromiter(d.values(), np.int32, len(d))
        return out.reshape(R, C)

    return call


def nx_path(g: Grid) -> Callable[[], np.ndarray]:
    import networkx as nx

    G, C = nx_graph(g), g.passable.shape[1]

    def call() -> np.ndarray:
        p = np.array(nx.shortest_path(G, g.source[0] * C + g.source[1], g.goal[0] * C + g.goal[1]))
        return np.stack([p // C, p % C], axis=1)

    return call


def pf_path(g: Grid) -> Callable[[], np.ndarray]:
    from pathfinding.core.grid import Grid as PFGrid
    from pathfinding.finder.a_star import AStarFinder

    grid = PFGrid(matrix=g.passable.astype(np.int8).tolist())
    finder = AStarFinder()

    def call() -> np.ndarray:
        grid.cleanup()
        path, _ = finder.find_path(grid.node(g.source[1], g.source[0]), grid.node(g.goal[1], g.goal[0]), grid)
        return np.array([(n.y, n.x) for n in path], dtype=np.int64).reshape(-1, 2)

    return call


def csr_graph(g: Grid) -> Any:
    from scipy.sparse import csr_array

    R, C = g.passable.shape
    flat = g.passable.ravel()
    idx = np.flatnonzero(flat).astype(np.int32)
    right = idx[(idx % C < C - 1) & flat[np.minimum(idx + 1, flat.size - 1)]]
    down = idx[(idx + C < flat.size) & flat[np.minimum(idx + C, flat.size - 1)]]
    src = np.concatenate([right, down, right + 1, down + C])
    dst = np.concatenate([right + 1, down + C, right, down])
    data = np.ones(src.size, dtype=np.float64)
    return csr_array((data, (src, dst)), shape=(R * C, R * C))


def sp_distances(g: Grid) -> Callable[[], np.ndarray]:
    from scipy.sparse import csgraph

    G, (R, C) = csr_graph(g), g.passable.shape

    def call() -> np.ndarray:
        d = csgraph.shortest_path(G, method="D", unweighted=True, indices=g.source[0] * C + g.source[1])
        return np.where(np.isinf(d), -1, d).astype(np.int32).reshape(R, C)

    return call


def sp_path(g: Grid) -> Callable[[], np.ndarray]:
    from scipy.sparse import csgraph

    G, C = csr_graph(g), g.passable.shape[1]

    def call() -> np.ndarray:
        s, t = g.source[0] * C + g.source[1], g.goal[0] * C + g.goal[1]
        _, pred = csgraph.shortest_path(G, method="D", unweighted=True, indices=s, return_predecessors=True)
        if pred[t] < 0 and t != s:
            return np.empty((0, 2), dtype=np.int64)
        path = [t]
        while path[-1] != s:
            path.append(int(pred[path[-1]]))
        p = np.array(path[::-1])
        return np.stack([p // C, p % C], axis=1)

    return call


def mcp_costs(g: Grid) -> np.ndarray:
    return np.where(g.passable, 1.0, np.inf)


def mcp_distances(g: Grid) -> Callable[[], np.ndarray]:
    from skimage.graph import MCP

    costs = mcp_costs(g)

    def call() -> np.ndarray:
        cum, _ = MCP(costs, fully_connected=False).find_costs([g.source])
        return np.where(np.isinf(cum), -1, cum - 1).astype(np.int32)

    return call


def mcp_path(g: Grid) -> Callable[[], np.ndarray]:
    from skimage.graph import MCP

    costs = mcp_costs(g)

    def call() -> np.ndarray:
        m = MCP(costs, fully_connected=False)
        m.find_costs([g.source], [g.goal])
        return np.array(m.traceback(g.goal), dtype=np.int64)

    return call


def tcod_distances(g: Grid) -> Callable[[], np.ndarray]:
    import tcod.path

    cost = g.passable.astype(np.int32)

    def call() -> np.ndarray:
        dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
        dist[g.source] = 0
        tcod.path.dijkstra2d(dist, cost, 1, 0, out=dist)
        return np.where(dist == np.iinfo(np.int32).max, -1, dist)

    return call


def tcod_path(g: Grid) -> Callable[[], np.ndarray]:
    import tcod.path

    cost = g.passable.astype(np.int32)

    def call() -> np.ndarray:
        return np.asarray(tcod.path.path2d(cost, start_points=[g.source], end_points=[g.goal], cardinal=1, diagonal=0))

    return call


def pyastar_path(g: Grid) -> Callable[[], np.ndarray]:
    import pyastar2d

    weights = np.where(g.passable, np.float32(1), np.float32(np.inf)).astype(np.float32)

    def call() -> np.ndarray:
        p = pyastar2d.astar_path(weights, g.source, g.goal, allow_diagonal=False)
        return np.empty((0, 2), dtype=np.int64) if p is None else p

    return call


def cv_flood(g: Grid) -> Callable[[], np.ndarray]:
    import cv2

    img = g.passable.astype(np.uint8)
    R, C = img.shape
    flags = 4 | cv2.FLOODFILL_MASK_ONLY | cv2.FLOODFILL_FIXED_RANGE | (1 << 8)

    def call() -> np.ndarray:
        mask = np.zeros((R + 2, C + 2), dtype=np.uint8)
        cv2.floodFill(img, mask, (g.source[1], g.source[0]), 0, 0, 0, flags)
        return mask[1:-1, 1:-1].view(bool)

    return call


def skimage_flood(g: Grid) -> Callable[[], np.ndarray]:
    from skimage.segmentation import flood

    img = g.passable.astype(np.uint8)

    def call() -> np.ndarray:
        return flood(img, g.source, connectivity=1)

    return call


def ndi_propagation(g: Grid) -> Callable[[], np.ndarray]:
    from scipy import ndimage

    def call() -> np.ndarray:
        seed = np.zeros(g.passable.shape, dtype=bool)
        seed[g.source] = True
        return ndimage.binary_propagation(seed, mask=g.passable)

    return call


def ndi_label(g: Grid) -> Callable[[], tuple[np.ndarray, int]]:
    from scipy import ndimage

    def call() -> tuple[np.ndarray, int]:
        labels, n = ndimage.label(g.passable)
        return labels, int(n)

    return call


def skimage_label(g: Grid) -> Callable[[], tuple[np.ndarray, int]]:
    from skimage.measure import label

    def call() -> tuple[np.ndarray, int]:
        labels, n = label(g.passable, connectivity=1, return_num=True)
        return labels, int(n)

    return call


def cv_label(g: Grid) -> Callable[[], tuple[np.ndarray, int]]:
    import cv2

    img = g.passable.view(np.uint8)

    def call() -> tuple[np.ndarray, int]:
        n, labels = cv2.connectedComponents(img, connectivity=4, ltype=cv2.CV_32S)
        return labels, int(n) - 1

    return call


def mk_distances(g: Grid) -> Callable[[], np.ndarray]:
    from mazekit.search import bfs_distances

    return lambda: bfs_distances(g.passable, g.source)


def mk_astar(g: Grid) -> Callable[[], np.ndarray]:
    from mazekit.search import astar

    return lambda: astar(g.passable, g.source, g.goal).path


def mk_bfs_path(g: Grid) -> Callable[[], np.ndarray]:
    from mazekit.search import bfs

    return lambda: bfs(g.passable, g.source, g.goal).path


def mk_flood(g: Grid) -> Callable[[], np.ndarray]:
    from mazekit.search import flood

    return lambda: flood(g.passable, g.source)


def mk_label(g: Grid) -> Callable[[], tuple[np.ndarray, int]]:
    from mazekit.search import label

    return lambda: label(g.passable)


@dataclass
class Peer:
    name: str
    setup: Callable[[Grid], Callable[[], Any]]
    max_cells: int | None = None
    mazekit: bool = False
    reference: bool = False
    requires: str = ""  # a module to import; the peer is skipped when it is missing


PEERS: dict[str, list[Peer]] = {
    "distances": [
        Peer("C reference: queue BFS (gcc -O3)", c_distances, reference=True),
        Peer("**mazekit** `bfs_distances`", mk_distances, mazekit=True),
        Peer("tcod `path.dijkstra2d`", tcod_distances, requires="tcod"),
        Peer("scipy `csgraph.shortest_path` (unweighted)", sp_distances, requires="scipy"),
        Peer("scikit-image `graph.MCP.find_costs`", mcp_distances, requires="skimage"),
        Peer("networkx `single_source_shortest_path_length`", nx_distances, SLOW_CELLS, requires="networkx"),
        Peer("plain Python deque BFS", py_bfs_distances, SLOW_CELLS),
    ],
    "path": [
        Peer("C reference: BFS with early exit (gcc -O3)", c_path, reference=True),
        Peer("**mazekit** `astar`", mk_astar, mazekit=True),
        Peer("**mazekit** `bfs` with a goal", mk_bfs_path, mazekit=True),
        Peer("pyastar2d `astar_path`", pyastar_path, requires="pyastar2d"),
        Peer("tcod `path.path2d`", tcod_path, requires="tcod"),
        Peer("scipy `csgraph.shortest_path` + predecessors", sp_path, requires="scipy"),
        Peer("scikit-image `graph.MCP` + traceback", mcp_path, requires="skimage"),
        Peer("networkx `shortest_path` (bidirectional BFS)", nx_path, SLOW_CELLS, requires="networkx"),
        Peer("pathfinding `AStarFinder`", pf_path, SLOW_CELLS, requires="pathfinding"),
        Peer("plain Python deque BFS", py_bfs_path, SLOW_CELLS),
    ],
    "flood": [
        Peer("C reference: stack fill (gcc -O3)", c_flood("cref_flood_stack"), reference=True),
        Peer("C scan-line fill (gcc -O3)", c_flood("cref_flood_scan")),
        Peer("**mazekit** `flood`", mk_flood, mazekit=True),
        Peer("OpenCV `floodFill` (mask only)", cv_flood, requires="cv2"),
        Peer("scikit-image `segmentation.flood`", skimage_flood, requires="skimage"),
        Peer("scipy `ndimage.binary_propagation`", ndi_propagation, requires="scipy"),
        Peer("plain Python stack fill", py_flood, SLOW_CELLS),
    ],
    "label": [
        Peer("scipy `ndimage.label` (reference)", ndi_label, reference=True, requires="scipy"),
        Peer("**mazekit** `label`", mk_label, mazekit=True),
        Peer("OpenCV `connectedComponents`", cv_label, requires="cv2"),
        Peer("scikit-image `measure.label`", skimage_label, requires="skimage"),
    ],
}


def have(module: str) -> bool:
    if not module:
        return True
    try:
        __import__(module)
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- checks


def check(task: str, g: Grid, out: Any, ref: Any) -> str | None:
    """None when ``out`` is a correct answer, else what is wrong."""
    if task == "distances":
        out = np.asarray(out)
        if out.shape != g.passable.shape:
            return f"shape {out.shape}"
        bad = np.count_nonzero(out != ref)
        return f"{bad} distances differ" if bad else None
    if task == "path":
        p = np.asarray(out).reshape(-1, 2)
        want = int(ref[g.goal])
        if want < 0:
            return None if p.shape[0] == 0 else "a route where there is none"
        if p.shape[0] == 0:
            return "no route found"
        if tuple(p[0]) != g.source or tuple(p[-1]) != g.goal:
            return f"route runs {tuple(p[0])} -> {tuple(p[-1])}"
        if not g.passable[p[:, 0], p[:, 1]].all():
            return "route crosses a wall"
        if not (np.abs(np.diff(p, axis=0)).sum(axis=1) == 1).all():
            return "route makes a step that is not to a 4-neighbour"
        if p.shape[0] - 1 != want:
            return f"route of length {p.shape[0] - 1}, shortest is {want}"
        return None
    if task == "flood":
        out = np.asarray(out, dtype=bool)
        bad = np.count_nonzero(out != ref)
        return f"{bad} cells differ" if bad else None
    if task == "label":
        labels, n = out
        rlabels, rn = ref
        labels = np.asarray(labels)
        if n != rn:
            return f"{n} regions, expected {rn}"
        if not np.array_equal(labels != 0, rlabels != 0):
            return "labelled cells differ"
        a = labels[labels != 0].astype(np.int64)
        b = rlabels[rlabels != 0].astype(np.int64)
        pairs = np.unique(a * (int(rn) + 1) + b).size
        if pairs != np.unique(a).size or pairs != np.unique(b).size or pairs != n:
            return "the partition differs"
        return None
    raise ValueError(task)


# --------------------------------------------------------------------------- cold runs


def cold_main(task: str, index: int, grid_path: str) -> None:
    """In a fresh process: set up one peer and time its first call (prints JSON)."""
    g = load_grid(grid_path)
    peer = PEERS[task][index]
    t0 = H.now()
    call = peer.setup(g)
    t1 = H.now()
    first, wall, cpu, _ = H.time_once(call)
    print(json.dumps({"setup": t1 - t0, "first": first, "wall": wall, "cpu": cpu}))


def cold_time(task: str, index: int, grid_path: Path) -> dict[str, float] | None:
    env = dict(os.environ)
    if PEERS[task][index].mazekit:
        # numba's first call would import SciPy (a peer here, not a mazekit
        # dependency) for its BLAS probe: time what a plain install gets
        env["PYTHONPATH"] = os.pathsep.join([str(H.hide_scipy_dir()), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [H.python(), __file__, "--cold", task, str(index), str(grid_path)],
        capture_output=True,
        text=True,
        cwd=str(H.HERE),
        env=env,
    )
    if proc.returncode != 0:
        print(f"    cold run failed: {proc.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    out: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


# --------------------------------------------------------------------------- the run


@dataclass
class Row:
    warm: dict[str, float] = field(default_factory=dict)
    cold: dict[str, float | None] = field(default_factory=dict)
    note: dict[str, str] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)  # every call's wall and CPU time


def run_task(task: str, g: Grid, repeat: int, cold: bool, grid_path: Path, rows: dict[str, Row]) -> None:
    peers = [(i, p) for i, p in enumerate(PEERS[task]) if have(p.requires)]
    calls: dict[str, Callable[[], Any]] = {}
    ref: Any = None
    if task in ("distances", "path"):
        ref = c_distances(g)()
    elif task == "flood":
        ref = c_flood("cref_flood_stack")(g)()
    for _, p in peers:
        row = rows.setdefault(p.name, Row())
        if p.max_cells is not None and g.cells > p.max_cells:
            row.note[g.key] = "skipped (too slow)"
            continue
        call = p.setup(g)
        out = call()
        if task == "label" and ref is None:
            ref = out
        err = check(task, g, out, ref)
        if err is not None:
            raise AssertionError(f"{p.name} on {g.name}: wrong answer: {err}")
        del out
        calls[p.name] = call
    # warm: peers interleaved, one call each per round; slow peers once
    times: dict[str, list[float]] = {name: [] for name in calls}
    raw: dict[str, list[tuple[float, float]]] = {name: [] for name in calls}
    for r in range(repeat):
        for _, p in peers:
            if p.name not in calls or (p.max_cells is not None and r > 0):
                continue
            t, wall, cpu, _ = H.time_once(calls[p.name])
            times[p.name].append(t)
            raw[p.name].append((wall, cpu))
    for name, ts in times.items():
        rows[name].warm[g.key] = H.median(ts)
        rows[name].raw[g.key] = {"warm_wall_cpu": raw[name]}
        print(f"  {task:9s} {g.name:14s} {name:55s} warm {H.fmt_ms(H.median(ts)):>9s}", flush=True)
    calls.clear()
    if cold:
        for i, p in peers:
            if p.name in times and p.max_cells is None:
                c = cold_time(task, i, grid_path)
                rows[p.name].cold[g.key] = None if c is None else c["first"]
                rows[p.name].raw[g.key]["cold"] = c


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}x"


def table(task: str, grids: list[Grid], rows: dict[str, Row], cold: bool) -> str:
    ref = next(p.name for p in PEERS[task] if p.reference)
    head = (
        "| peer | "
        + " | ".join(f"{g.name} warm (x ref) | cold" if cold else f"{g.name} warm (x ref)" for g in grids)
        + " |"
    )
    sep = "|---|" + "---:|" * (len(grids) * (2 if cold else 1))
    lines = [head, sep]
    for p in PEERS[task]:
        if p.name not in rows:
            continue
        row = rows[p.name]
        cells = []
        for g in grids:
            w = row.warm.get(g.key)
            if w is None:
                cells.append(row.note.get(g.key, "not installed"))
                if cold:
                    cells.append("")
                continue
            cells.append(f"{H.fmt_ms(w)} ({ratio(w, rows[ref].warm.get(g.key))})")
            if cold:
                c = row.cold.get(g.key)
                cells.append(H.fmt_ms(c) if c is not None else ("(pure Python)" if p.max_cells else "-"))
        lines.append(f"| {p.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def targets(grids: list[Grid], res: dict[str, dict[str, Row]]) -> list[tuple[str, str]]:
    """The issue's targets, judged on the largest grid of each kind in the run: (task, line)."""
    big = {kind: max(g.cells for g in grids if g.kind == kind) for kind in {g.kind for g in grids}}
    out: list[tuple[str, str]] = []

    def best_peer(task: str, key: str) -> tuple[str, float]:
        rows = res[task]
        cands = [
            (p.name, rows[p.name].warm[key])
            for p in PEERS[task]
            if not p.mazekit and p.name in rows and key in rows[p.name].warm and not p.name.startswith("C ")
        ]
        return min(cands, key=lambda x: x[1])

    def w(task: str, name: str, key: str) -> float:
        return res[task][name].warm[key]

    for g in grids:
        if g.cells != big[g.kind]:
            continue
        k = g.key
        d = w("distances", "**mazekit** `bfs_distances`", k)
        dref = w("distances", PEERS["distances"][0].name, k)
        bn, bt = best_peer("distances", k)
        out.append(
            (
                "distances",
                f"- {g.name}, BFS distances: mazekit / C = **{d / dref:.2f}x** (target <= 1.2x) "
                f"{'PASS' if d <= 1.2 * dref else 'MISS'}; best peer {bn} at {bt / d:.1f}x mazekit's time "
                f"{'PASS' if d < bt else 'MISS'}",
            )
        )
        a = min(w("path", "**mazekit** `astar`", k), w("path", "**mazekit** `bfs` with a goal", k))
        bn, bt = best_peer("path", k)
        out.append(
            (
                "path",
                f"- {g.name}, pair path: mazekit (best of astar/bfs) {H.fmt_ms(a)}; best peer {bn} "
                f"{H.fmt_ms(bt)} = {bt / a:.1f}x mazekit's time {'PASS' if a < bt else 'MISS'}",
            )
        )
        f = w("flood", "**mazekit** `flood`", k)
        fref = min(w("flood", PEERS["flood"][0].name, k), w("flood", PEERS["flood"][1].name, k))
        bn, bt = best_peer("flood", k)
        out.append(
            (
                "flood",
                f"- {g.name}, flood: mazekit / best C fill = **{f / fref:.2f}x** (target <= 1.2x) "
                f"{'PASS' if f <= 1.2 * fref else 'MISS'}; best peer {bn} at {bt / f:.1f}x mazekit's time "
                f"{'PASS' if f < bt else 'MISS'}",
            )
        )
        lab = w("label", "**mazekit** `label`", k)
        sl = w("label", PEERS["label"][0].name, k)
        out.append(
            (
                "label",
                f"- {g.name}, labels: scipy.ndimage.label / mazekit = **{sl / lab:.2f}x** "
                f"{'PASS' if lab < sl else 'MISS'}",
            )
        )
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py search", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", default="1000,4000", help="grid sides, comma-separated (default 1000,4000)")
    ap.add_argument("--repeat", type=int, default=7, help="warm calls per peer (median; default 7)")
    ap.add_argument("--tasks", default=",".join(TASKS), help=f"some of {','.join(TASKS)}")
    ap.add_argument("--quick", action="store_true", help="sizes 300,1000, repeat 3, no cold runs")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold (fresh process) runs")
    ap.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = ap.parse_args(argv)
    if args.quick:
        args.sizes, args.repeat, args.no_cold = "300,1000", 3, True
    sizes = [int(s) for s in args.sizes.split(",") if s]
    tasks = [t for t in args.tasks.split(",") if t]
    for t in tasks:
        if t not in TASKS:
            ap.error(f"unknown task {t!r}")
    cold = not args.no_cold
    load_before = H.load()
    print(f"grid search benchmark; {load_before}", flush=True)
    grids = make_grids(sizes)
    results: dict[str, dict[str, Row]] = {t: {} for t in tasks}
    for g in grids:
        print(f"{g.name}: {g.passable.mean():.1%} open", flush=True)
        gp = save_grid(g)
        for t in tasks:
            run_task(t, g, args.repeat, cold, gp, results[t])
    load_after = H.load()
    head = [
        f"Command: `{H.command_line('benchmarks/run.py', ['search', *argv])}`  ",
        f"Machine: {H.machine()}; {load_before} before, {load_after} after.",
        "",
        "Grids: `open`, about 25% walls (seeded), corner to corner; `maze`, a perfect maze",
        f"(`generate.backtracker`), cell (1, 1) to the opposite corner. Warm: median of {args.repeat} calls,",
        "each min(wall, CPU time) (a shared machine); pure-Python peers one call, on grids up to ~1.1 M",
        "cells. Cold: the first call in a fresh process (numba and its cache loaded; SciPy hidden). The",
        "ratio is to the table's reference row; all times are kept in `benchmarks/_build/search.json`.",
        "",
    ]
    sections = {}
    for key, title, group in SECTIONS:
        body = list(head)
        if all(t in tasks for t in TASKS):
            marks = [line for t, line in targets(grids, results) if t in group]
            body += ["Targets (the largest open grid and maze of this run):", "", *marks, ""]
        for t in group:
            if t in tasks:
                body += [f"### {TASK_TITLES[t]}", "", table(t, grids, results[t], cold), ""]
        if any(t in tasks for t in group):
            sections[key] = (title, "\n".join(body))
    print()
    for title, text in sections.values():
        print(f"## {title}\n\n{text}")
    H.BUILD.mkdir(exist_ok=True)
    dump = {
        t: {name: {"warm": row.warm, "cold": row.cold, "raw": row.raw} for name, row in rows.items()}
        for t, rows in results.items()
    }
    (H.BUILD / "search.json").write_text(
        json.dumps({"command": argv, "load": [load_before, load_after], "results": dump}, indent=1)
    )
    if not args.no_write:
        for key, (title, text) in sections.items():
            H.write_section(key, title, text)
        print(f"\nwritten to {H.RESULTS}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--cold":
        cold_main(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(main(sys.argv[1:]))
