"""Fixtures for the playground: an in-process client, a live server, and a real browser.

The browser is Debian's chromium driven by Playwright (no browser download):
``MAZEKIT_CHROMIUM`` overrides its path. Without chromium or Playwright the
browser tests skip, except under CI (``CI`` set), where they fail: CI installs both.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from starlette.testclient import TestClient  # noqa: E402

from mazekit.web import Limits, create_app  # noqa: E402


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A TestClient on a fresh app with the default limits."""
    with TestClient(create_app()) as c:
        yield c


@pytest.fixture
def small_client() -> Iterator[TestClient]:
    """A TestClient on an app with small limits (to hit them cheaply)."""
    limits = Limits(max_body=20_000, max_cells=2_500, max_side=60, solver_seconds=2.0, solver_runs=1, solver_queue=0)
    with TestClient(create_app(limits)) as c:
        yield c


class LiveServer:
    """uvicorn serving the playground on a free 127.0.0.1 port, in a daemon thread."""

    def __init__(self, limits: Limits | None = None) -> None:
        import uvicorn

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(limits, warm=True),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws="auto",
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True, name="playground-test-server")

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the playground server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    pytest.importorskip("uvicorn")
    with LiveServer() as server:
        yield server


def chromium_path() -> str | None:
    """Debian's chromium, or the one ``MAZEKIT_CHROMIUM`` names."""
    path = os.environ.get("MAZEKIT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    return path if path and os.path.exists(path) else None


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless chromium (session-wide)."""
    path = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    if path is None:
        if os.environ.get("CI"):
            raise RuntimeError("chromium not found: apt-get install chromium, or set MAZEKIT_CHROMIUM")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """A fresh page (1280x900); console errors and failed requests fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    pg.on("console", lambda msg: errors.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    pg.set_default_timeout(15_000)
    pg.base = live_server.url  # type: ignore[attr-defined]
    pg.errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert not [e for e in errors if "status of 4" not in e], errors
