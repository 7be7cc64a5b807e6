"""``mazekit playground``: everything mazekit does, live in the browser.

Serves the playground (grid search, mazes, universal escape strings,
Minesweeper, Sokoban) on this machine and opens it in the browser. It listens
on 127.0.0.1 unless told otherwise; Ctrl-C stops it. Needs the ``web`` extra:
``pip install 'mazekit[web]'``.
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
import threading
from types import FrameType
from typing import Any

from ..errors import MissingDependency
from ._io import UsageError, check_range


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "playground",
        help="the playground in the browser: search, mazes, universal strings, Minesweeper, Sokoban",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument(
        "--solver-seconds", type=float, default=30.0, metavar="S", help="time limit of one solver run (default: 30)"
    )
    p.add_argument("--log", choices=("warning", "info", "debug"), default="warning", help="server log level")
    p.set_defaults(func=run)


def _modules() -> None:
    missing = []
    for name in ("starlette", "uvicorn", "websockets"):
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise MissingDependency(f"the playground needs {', '.join(missing)}: pip install 'mazekit[web]'")


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket, so a port in use is one clear line before anything starts."""
    check_range("--port", port, 0, 65535)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise UsageError(f"--host {host!r} is not an address this machine knows: {exc.strerror}") from None
    family, _, proto, _, addr = infos[0]
    # the protocol named (IPPROTO_TCP, not 0) lets asyncio set TCP_NODELAY on each connection: without
    # it an answer sent in two writes waits for the client's delayed ACK, 40 ms a request on a reused one
    sock = socket.socket(family, socket.SOCK_STREAM, proto or socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind(addr)
    except OSError as exc:
        sock.close()
        hint = "; try --port 0 for a free one" if exc.errno in (98, 48, 10048) else ""
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}{hint}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _stop_on_terminate(server: Any) -> None:
    """Make SIGTERM (``kill``, a service manager) and SIGHUP (a closed terminal) end the process as
    Ctrl-C does. uvicorn shuts down gracefully on SIGINT and SIGTERM, then raises the signal again
    with the handler it found: Python's default for SIGTERM ends the process at once, before the
    exit handlers that stop the Sokoban solver's worker processes run, and they were left behind.
    A hang-up asks uvicorn for the same shutdown."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGTERM, _stop)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, lambda signum, frame: server.handle_exit(signal.SIGTERM, frame))


def run(args: argparse.Namespace) -> int:
    _modules()
    import uvicorn

    from ..web import Limits, create_app

    check_range("--solver-seconds", args.solver_seconds, 0, 3600, above=True)
    sock = _bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
        print(
            "mazekit playground: listening on every network interface; anyone who can reach this machine can use it",
            file=sys.stderr,
        )
    url = f"http://{shown}:{port}/"
    app = create_app(Limits(solver_seconds=args.solver_seconds), warm=True, report=_say)
    config = uvicorn.Config(app, log_level=args.log, lifespan="on", ws="auto")
    server = uvicorn.Server(config)
    print(f"mazekit playground: {url}  (Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        _open_browser(url)
    _stop_on_terminate(server)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("mazekit playground: stopped", file=sys.stderr)
    return 0


def _say(line: str) -> None:
    print(f"mazekit playground: {line}", file=sys.stderr, flush=True)


def _open_browser(url: str) -> None:
    """Open ``url`` in a browser when there is one (quietly nothing on a machine with no screen)."""
    import os
    import webbrowser

    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        print("mazekit playground: no display here; open the address above in a browser", file=sys.stderr)
        return
    try:
        if not webbrowser.open(url, new=2):
            print("mazekit playground: no browser found; open the address above", file=sys.stderr)
    except webbrowser.Error:
        print("mazekit playground: no browser found; open the address above", file=sys.stderr)
