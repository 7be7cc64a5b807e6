"""What the playground's memory holds after each lesson: ``python benchmarks/probes/server_memory.py``.

Serves the playground in this process (as ``mazekit playground`` does, on 127.0.0.1), makes the
teacher's visit of ``run.py load``, then runs ``--lessons`` Locust lessons (``locust_lesson.py``,
``--users`` students for ``--seconds`` each, one after the other). After the visit and after each
lesson, once the solver runs have ended, it collects garbage, returns freed memory
(``malloc_trim(0)``) and prints: the resident memory, malloc's own account (``mallinfo2``: in use,
free but kept), Python's (``tracemalloc``: traced blocks, when ``--trace``), the server's stores
(finished jobs kept, Minesweeper games), the numba specialisations loaded, the threads, and what
changed since the previous point: the objects by type (``gc.get_objects``) and, with ``--trace``,
the source lines whose live memory changed most. Slow with ``--trace`` (every allocation
recorded); its figures are for finding what grows, not for the results page.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench_load, locust_lesson
sys.path.insert(0, str(HERE.parent.parent / "src"))

import bench_load  # noqa: E402


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks")
    ] + [("keepcost", ctypes.c_size_t)]


def mallinfo() -> dict[str, float]:
    """malloc's account in MiB: ``heap`` (obtained with brk/sbrk and arenas), ``mmapped``, ``used``, ``free``."""
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _Mallinfo2
    m = libc.mallinfo2()
    mib = 1 / 2**20
    return {"heap": m.arena * mib, "mmapped": m.hblkhd * mib, "used": m.uordblks * mib, "free": m.fordblks * mib}


def numba_specialisations() -> set[str]:
    """The compiled (or cache-loaded) specialisations of every numba dispatcher alive: ``module.name(types)``."""
    from numba.core.dispatcher import Dispatcher

    return {
        f"{o.py_func.__module__}.{o.py_func.__qualname__}{tuple(sig)}"
        for o in gc.get_objects()
        if isinstance(o, Dispatcher)
        for sig in o.overloads
    }


def by_type() -> Counter[str]:
    return Counter(type(o).__qualname__ for o in gc.get_objects())


def point(name: str, app: Any, previous: dict[str, Any] | None, trace: bool) -> dict[str, Any]:
    while app.state.jobs.queue.running or app.state.jobs.queue.waiting:
        time.sleep(1)
    time.sleep(3)
    gc.collect()
    from mazekit.web.app import return_freed_memory

    return_freed_memory()
    here: dict[str, Any] = {
        "name": name,
        "rss": (bench_load._rss_kib(os.getpid()) or 0) / 1024,
        "malloc": mallinfo(),
        "kept": len(app.state.jobs),
        "games": len(getattr(app.state, "mines_games", ()) or ()),
        "numba": numba_specialisations(),
        "threads": threading.active_count(),
        "types": by_type(),
        "snapshot": tracemalloc.take_snapshot() if trace else None,
    }
    m = here["malloc"]
    traced = f", traced {tracemalloc.get_traced_memory()[0] / 2**20:.1f} MiB" if trace else ""
    print(
        f"== {name}: rss {here['rss']:.1f} MiB; malloc heap {m['heap']:.1f} used {m['used']:.1f} free {m['free']:.1f} "
        f"mmapped {m['mmapped']:.1f}{traced}; jobs kept {here['kept']}, games {here['games']}, "
        f"numba specialisations {len(here['numba'])}, threads {here['threads']}",
        flush=True,
    )
    if previous is not None:
        for sig in sorted(here["numba"] - previous["numba"]):
            print("   numba, new:", sig[:160])
        grew = here["types"].copy()
        grew.subtract(previous["types"])
        print("   objects by type, change:", ", ".join(f"{k} {v:+d}" for k, v in grew.most_common(12) if v))
        if trace:
            diff = here["snapshot"].compare_to(previous["snapshot"], "lineno")
            for d in diff[:15]:
                print(f"   {d.size_diff / 1024:+9.1f} KiB {d.count_diff:+7d} blocks  {d.traceback}")
    return here


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lessons", type=int, default=3)
    ap.add_argument("--users", type=int, default=30)
    ap.add_argument("--seconds", type=int, default=120, help="each lesson's length")
    ap.add_argument("--trace", action="store_true", help="tracemalloc: the lines whose memory grew")
    args = ap.parse_args(argv)
    if args.trace:
        tracemalloc.start(1)

    import uvicorn

    from mazekit.cli.playground import _bind
    from mazekit.web import Limits, create_app

    sock = _bind("127.0.0.1", 0)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = create_app(Limits(), warm=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", ws="auto"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        bench_load._warm(base)
        app.state.warming.join()  # the rooms' kernels loaded by the server's own warm-up
        last = point("after the teacher's visit", app, None, args.trace)
        with tempfile.TemporaryDirectory(prefix="mazekit-probe-") as tmp:
            for k in range(1, args.lessons + 1):
                t0 = time.time()
                res = bench_load.lesson(base, Path(tmp) / str(k), args.users, args.seconds, hard_seconds=5.0)
                print(f"   lesson {k}: {res['requests']:,} requests in {time.time() - t0:.0f} s", flush=True)
                last = point(f"after lesson {k}", app, last, args.trace)
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
