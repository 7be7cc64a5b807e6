"""The playground's speed: page load, ``/api/search`` on a 300x300 grid, animation frame rate.

``python benchmarks/run.py web`` starts the playground (uvicorn on a free
127.0.0.1 port, in this process), then measures, in one run:

* **page load** from a warm server: a fresh browser context (empty cache) opens
  ``/search`` in Debian's chromium; navigation start to the load event, and to
  the first search drawn on the canvas (the page runs one at start);
* **/api/search** on a 300x300 grid (25% walls, seed 1, corner to corner): the
  HTTP round trip on a kept-alive connection, trace included (two packed int32
  arrays), beside the same search called in-process (the library alone) and
  beside the same answer with the trace as nested JSON lists (what the packed
  form replaces: its size and encoding time);
* **animation** of that search at 300x300: frames per second while the player
  runs, and the time spent in each frame's callback (a full redraw of 90,000
  cells plus overlays), over 4 seconds.

Needs the ``web`` and ``test`` extras and chromium (``apt-get install chromium``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import shutil
import socket
import statistics
import sys
import threading
import time
from typing import Any

from _harness import command_line, fmt_ms, load, machine, write_section

SIDE = 300


def _grid(side: int, seed: int) -> list[str]:
    import numpy as np

    rng = np.random.default_rng(seed)
    walls = rng.random((side, side)) < 0.25
    walls[0, 0] = walls[-1, -1] = False
    return ["".join("1" if w else "0" for w in row) for row in walls]


class Server:
    def __init__(self) -> None:
        import uvicorn

        from mazekit.web import create_app

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.server = uvicorn.Server(
            uvicorn.Config(create_app(warm=True), host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def bench_api(port: int, repeat: int) -> list[tuple[str, float, float, float, int, float, int]]:
    """Per algorithm: (name, API median s, library median s, visited, packed bytes, lists encode s, lists bytes)."""
    import numpy as np

    from mazekit.search import solve
    from mazekit.web.api.search import trace

    rows = _grid(SIDE, 1)
    passable = np.array([[ch == "0" for ch in row] for row in rows])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    out = []
    for algorithm in ("bfs", "astar", "dijkstra", "dfs"):
        body = json.dumps({"grid": rows, "start": [0, 0], "goal": [SIDE - 1, SIDE - 1], "algorithm": algorithm})
        times, size, answer = [], 0, {}
        for i in range(repeat + 1):
            t0 = time.perf_counter()
            conn.request("POST", "/api/search", body, {"Content-Type": "application/json"})
            res = conn.getresponse()
            data = res.read()
            if i:
                times.append(time.perf_counter() - t0)
            assert res.status == 200, data[:200]
            size, answer = len(data), json.loads(data)
        lib = []
        for i in range(repeat + 1):
            t0 = time.perf_counter()
            result = solve(passable, (0, 0), (SIDE - 1, SIDE - 1), algorithm=algorithm)
            if i:
                lib.append(time.perf_counter() - t0)
        assert result.length == answer["length"], (algorithm, result.length, answer["length"])
        packed = trace(result)
        lists = {k: v for k, v in answer.items() if k not in ("order", "discovered")}
        enc = []
        for _ in range(max(3, repeat // 3)):
            t0 = time.perf_counter()
            as_lists = json.dumps({**lists, "order": result.order.tolist(), "discovered": _disc_lists(packed)})
            enc.append(time.perf_counter() - t0)
        out.append(
            (
                algorithm,
                statistics.median(times),
                statistics.median(lib),
                answer["visited"],
                size,
                statistics.median(enc),
                len(as_lists),
            )
        )
    conn.close()
    return out


def _disc_lists(packed: dict[str, Any]) -> Any:
    import base64

    import numpy as np

    rec = packed["discovered"]
    return (
        np.frombuffer(base64.b64decode(rec["data"]), dtype=np.dtype(rec["dtype"]).newbyteorder("<"))
        .reshape(rec["shape"])
        .tolist()
    )


def _browser(p: Any) -> Any:
    path = os.environ.get("MAZEKIT_CHROMIUM") or shutil.which("chromium")
    if not path:
        raise SystemExit("run.py web: chromium not found (apt-get install chromium)")
    return p.chromium.launch(
        executable_path=path,
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
        ],
    )


FRAMES = """
window.__frames = []; window.__work = [];
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => raf((ts) => {
  const t0 = performance.now(); cb(ts); window.__work.push(performance.now() - t0); window.__frames.push(ts);
});
"""

DRAWN = """
new Promise((resolve) => {
  const check = () => document.querySelector('#status.good') ? resolve(performance.now()) : setTimeout(check, 2);
  check();
})
"""


def bench_page(base: str, repeat: int) -> tuple[list[float], list[float], list[float]]:
    """Load-event times, first-search-drawn times and DOMContentLoaded times (s) of /search."""
    from playwright.sync_api import sync_playwright

    loads, drawn, dcl = [], [], []
    with sync_playwright() as p:
        browser = _browser(p)
        for i in range(repeat + 1):
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            page = ctx.new_page()
            page.goto(f"{base}/search", wait_until="load")
            first = page.evaluate(DRAWN)
            nav = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])")
            entry = json.loads(nav)
            if i:  # the first visit warms the server's file cache and compiled search
                loads.append(entry["loadEventEnd"] / 1000)
                dcl.append(entry["domContentLoadedEventEnd"] / 1000)
                drawn.append(first / 1000)
            ctx.close()
        browser.close()
    return loads, drawn, dcl


def bench_animation(base: str, seconds: float) -> dict[str, float]:
    """Frames per second and per-frame callback time while a 300x300 BFS trace plays."""
    from playwright.sync_api import sync_playwright

    from mazekit.grid import format_grid  # noqa: F401  (mazekit importable: the same environment)

    rows = _grid(SIDE, 1)
    encoded = "-".join(_runs(row) for row in rows)
    url = f"{base}/search?rows={SIDE}&cols={SIDE}&grid={encoded}&start=0,0&goal={SIDE - 1},{SIDE - 1}&alg=bfs"
    with sync_playwright() as p:
        browser = _browser(p)
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.add_init_script(FRAMES)
        page.goto(url)
        page.wait_for_selector("#status.good", timeout=60_000)
        page.evaluate("document.querySelector('[data-role=speed]').value = '60'")  # 1000 steps/s
        page.evaluate("document.querySelector('[data-role=speed]').dispatchEvent(new Event('input'))")
        page.click("[data-role=play]") if page.get_attribute("[data-role=play]", "aria-pressed") == "false" else None
        page.evaluate("window.__frames = []; window.__work = [];")
        time.sleep(seconds)
        frames = page.evaluate("window.__frames")
        work = page.evaluate("window.__work")
        playing = page.get_attribute("[data-role=play]", "aria-pressed") == "true"
        browser.close()
    span = (frames[-1] - frames[0]) / 1000 if len(frames) > 1 else float("nan")
    intervals = sorted(b - a for a, b in zip(frames, frames[1:], strict=False))
    return {
        "fps": (len(frames) - 1) / span,
        "work_p50": statistics.median(work) / 1000,
        "work_p95": sorted(work)[int(0.95 * (len(work) - 1))] / 1000,
        "interval_p95": intervals[int(0.95 * (len(intervals) - 1))] / 1000,
        "frames": float(len(frames)),
        "still_playing": float(playing),
    }


def _runs(row: str) -> str:
    out, i = [], 0
    while i < len(row):
        j = i
        while j < len(row) and row[j] == row[i]:
            j += 1
        out.append(f"{j - i if j - i > 1 else ''}{'w' if row[i] == '1' else 'f'}")
        i = j
    return "".join(out)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="run.py web", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=4.0, help="how long the animation is watched")
    ap.add_argument("--no-write", action="store_true", help="print only, do not touch RESULTS.md")
    args = ap.parse_args(argv)
    started = load()
    t_all = time.perf_counter()
    with Server() as server:
        base = f"http://127.0.0.1:{server.port}"
        api = bench_api(server.port, args.repeat)
        loads, drawn, dcl = bench_page(base, max(5, args.repeat // 2))
        anim = bench_animation(base, args.seconds)
    lines = [
        f"`{command_line('run.py web', argv)}`; {machine()}, Python {platform.python_version()}, headless Chromium "
        f"(Debian's, `--disable-gpu`); {time.perf_counter() - t_all:.0f} s in all; {started} at the start, "
        f"{load()} at the end.",
        "",
        "**Page load** (`/search` from a warm server, a fresh browser context each time, "
        f"median of {len(loads)}): DOMContentLoaded {fmt_ms(statistics.median(dcl))}, load event "
        f"{fmt_ms(statistics.median(loads))} (goal: under 300 ms); first search drawn on the canvas "
        f"{fmt_ms(statistics.median(drawn))} (the page runs an A* search at start: its request and drawing included).",
        "",
        f"**`/api/search` on a {SIDE}x{SIDE} grid** (25% walls, corner to corner; median of {args.repeat} after one "
        "warm-up; the HTTP round trip on a kept-alive loopback connection, JSON parsing, the search and both "
        "trace arrays packed as base64 int32 included). Beside it, in the same run: the library call alone, "
        "and the same answer with the two trace arrays as nested JSON lists (what the packed form replaces).",
        "",
        "| algorithm | cells visited | /api/search | library call alone | answer size (packed) "
        "| nested lists: encode only | nested lists: size |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, t_api, t_lib, visited, size, t_enc, size_lists in api:
        lines.append(
            f"| {name} | {visited:,} | {fmt_ms(t_api)} | {fmt_ms(t_lib)} | {size / 1024:.0f} KiB | "
            f"{fmt_ms(t_enc)} | {size_lists / 1024:.0f} KiB |"
        )
    lines += [
        "",
        f"Goal: under 50 ms. **Animation** of the BFS trace on the {SIDE}x{SIDE} grid at 1,000 steps/s, watched for "
        f"{args.seconds:g} s: {anim['fps']:.1f} frames/s ({anim['frames']:.0f} frames; 95th-percentile interval "
        f"{fmt_ms(anim['interval_p95'])}); each frame's callback (a full redraw of {SIDE * SIDE:,} cells, the "
        f"overlay and the stats) took {fmt_ms(anim['work_p50'])} median, {fmt_ms(anim['work_p95'])} at the 95th "
        "percentile, against the 16.7 ms a 60 Hz frame allows.",
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("web", "Playground", body)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
