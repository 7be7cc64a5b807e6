"""The playground app as a whole: pages, static files, the API index, limits, the command."""

from __future__ import annotations

import json
import platform
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from mazekit.sokoban.solver.lanes import default_cores
from mazekit.web.api._common import ApiError, Limits, read_body
from mazekit.web.app import ROOMS, STATIC
from tests.procs import HAS_PROC, assert_all_end, children


@pytest.mark.parametrize("path", ["/", *[f"/{room}" for room in ROOMS]])
def test_every_page_is_served(client: Any, path: str) -> None:
    res = client.get(path)
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("text/html")
    assert "<title>" in res.text
    for ref in re.findall(r'(?:src|href)="(/static/[^"]+)"', res.text):
        assert client.get(ref).status_code == 200, ref


def test_every_module_import_resolves(client: Any) -> None:
    for js in (STATIC / "js").glob("*.js"):
        for ref in re.findall(r'from "\./([^"]+)"', js.read_text()):
            assert (STATIC / "js" / ref).is_file(), f"{js.name} imports missing {ref}"


def test_nothing_is_fetched_from_outside() -> None:
    for f in STATIC.rglob("*"):
        if f.suffix in (".html", ".js", ".css"):
            text = f.read_text()
            assert not re.search(r"""(?:src|href|url|import|fetch)\s*\(?\s*["']?(?:https?:)?//""", text), f


def test_unknown_pages_and_routes(client: Any) -> None:
    assert client.get("/nowhere").status_code == 404
    res = client.get("/api/nowhere")
    assert res.status_code == 404 and "error" in res.json()
    res = client.get("/api/search")
    assert res.status_code == 405 and res.json()["error"] == "GET is not allowed on /api/search"
    assert client.get("/static/../app.py").status_code == 404


def test_api_index_lists_the_routes(client: Any) -> None:
    got = client.get("/api").json()
    paths = {r["path"] for r in got["routes"]}
    assert {"/api/search", "/api/article"} <= paths
    assert got["limits"]["max_cells"] == Limits().max_cells
    # the WebSockets are listed too, beside their blocking POST forms, and marked as such
    kinds = {(r["path"], r["websocket"]): r for r in got["routes"]}
    for path in ("/api/sokoban/solve", "/api/sokoban/optimise"):
        socket, post = kinds[path, True], kinds[path, False]
        assert socket["methods"] == [] and "(WebSocket)" in socket["about"] and socket["about"].endswith("."), socket
        assert post["methods"] == ["POST"]
    assert [r["path"] for r in got["routes"] if r["websocket"]] == ["/api/sokoban/solve", "/api/sokoban/optimise"]
    assert all(r["methods"] for r in got["routes"] if not r["websocket"])


def test_body_limit(small_client: Any) -> None:
    res = small_client.post("/api/search", content=b"{" + b" " * 30_000 + b"}")
    assert res.status_code == 400 and "limit" in res.json()["error"]


def test_read_body_messages() -> None:
    with pytest.raises(ApiError, match="nested too deeply|malformed"):
        read_body(b"[" * 50_000, Limits())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    "how", [signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])]
)
def test_playground_command_serves_and_stops_on_ctrl_c_or_terminate(how: signal.Signals) -> None:
    """Ctrl-C, SIGTERM (kill, a service manager) and SIGHUP (a closed terminal) stop the server the
    same way, and the Sokoban solver's worker processes (started by a solve on two cores) end with it."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mazekit", "playground", "--no-browser", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    started: set[int] = set()
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith(f"mazekit playground: http://127.0.0.1:{port}/"), line
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/search", timeout=5) as res:
                    assert res.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        slow = (Path(__file__).resolve().parents[1] / "data" / "sokoban" / "slow.xsb").read_text()
        ask = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/sokoban/solve",
            data=json.dumps({"level": {"text": slow}, "time_limit": 1}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(ask, timeout=300) as res:  # the first solve may compile
            assert json.loads(res.read())["solved"] is False
        started = children(proc.pid)
        if HAS_PROC and default_cores() > 1:
            assert started  # the second core's worker (and the pool's resource tracker)
        proc.send_signal(how)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "stopped" in err
    assert_all_end(started)


def test_playground_port_in_use_is_one_line(capsys: Any) -> None:
    from mazekit.cli import main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        assert main(["playground", "--no-browser", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err


def test_playground_connections_send_at_once() -> None:
    """Each accepted connection has Nagle's algorithm off: an answer written as headers then body
    would otherwise wait for the client's delayed acknowledgement (40 ms on Linux) on a reused
    connection. asyncio turns it off only for sockets made with the TCP protocol named."""
    import asyncio

    from mazekit.cli.playground import _bind

    listener = _bind("127.0.0.1", 0)
    port = listener.getsockname()[1]
    seen: list[int] = []

    async def serve() -> None:
        def made(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            conn = writer.get_extra_info("socket")
            seen.append(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(made, sock=listener)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            for _ in range(100):
                if seen:
                    break
                await asyncio.sleep(0.01)
            writer.close()

    asyncio.run(serve())
    assert seen and seen[0] != 0


def test_playground_without_the_web_extra(monkeypatch: Any, capsys: Any) -> None:
    from mazekit.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["playground", "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'mazekit[web]'" in err and err.count("\n") == 1


def test_the_server_caps_malloc_arenas_unless_told(monkeypatch: Any) -> None:
    from mazekit.web.app import fewer_malloc_arenas

    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert fewer_malloc_arenas() is False  # the environment's setting stands
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert fewer_malloc_arenas() is glibc
