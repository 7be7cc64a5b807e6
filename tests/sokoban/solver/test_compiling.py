"""The search's first compile in parts (mazekit.sokoban.solver.compiling)."""

from __future__ import annotations

import sys

import pytest

from mazekit import _jit, examples
from mazekit.sokoban import parse_levels
from mazekit.sokoban.solver import compiling as C
from mazekit.sokoban.solver import search_level
from mazekit.sokoban.solver.kernels import expand
from mazekit.sokoban.solver.kernels.corrals import corral_deadlock_kernel
from mazekit.sokoban.solver.kernels.expand import search_kernel
from mazekit.sokoban.solver.kernels.roots import roots_kernel


def test_the_shares_name_kernels_the_search_calls():
    callees = C.search_callees()
    assert set(C.FIRST_SHARE) < callees and "roots_kernel" in callees and "expand_kernel" not in callees
    assert all(isinstance(getattr(expand, name), _jit.Kernel) for name in callees)


@pytest.fixture
def uncached(monkeypatch):
    """Neither the search nor the shares in the cache; the children's commands recorded."""
    for kernel in (search_kernel, corral_deadlock_kernel, roots_kernel):
        monkeypatch.setattr(kernel, "is_cached", lambda: False)
    monkeypatch.setattr(C.os, "cpu_count", lambda: 2)
    ran: list[bool] = []

    def command(first: bool) -> list[str]:
        ran.append(first)
        return [sys.executable, "-c", "pass"]

    monkeypatch.setattr(C, "share_command", command)
    return ran


def test_compile_in_parts_runs_both_shares_at_once_then_returns(uncached):
    assert C.compile_in_parts() is True
    assert uncached == [True, False]


@pytest.mark.parametrize(
    "why",
    ["one core", "mode never", "search cached", "shares cached"],
)
def test_compile_in_parts_does_nothing_when_it_cannot_help(uncached, monkeypatch, why):
    if why == "one core":
        monkeypatch.setattr(C.os, "cpu_count", lambda: 1)
    elif why == "mode never":
        monkeypatch.setattr(_jit, "get_mode", lambda: "never")
    elif why == "search cached":
        monkeypatch.setattr(search_kernel, "is_cached", lambda: True)
    else:
        monkeypatch.setattr(corral_deadlock_kernel, "is_cached", lambda: True)
        monkeypatch.setattr(roots_kernel, "is_cached", lambda: True)
    assert C.compile_in_parts() is False and uncached == []


def test_ctrl_c_while_waiting_ends_the_children(uncached, monkeypatch):
    killed: list[object] = []

    class Child:
        """A child still running when Ctrl-C comes during the first wait."""

        interrupted = False

        def __init__(self, cmd, **kw):
            pass

        def wait(self):
            if not Child.interrupted:
                Child.interrupted = True
                raise KeyboardInterrupt

        def poll(self):
            return None if self not in killed else -9

        def kill(self):
            killed.append(self)

    monkeypatch.setattr(C.subprocess, "Popen", Child)
    with pytest.raises(KeyboardInterrupt):
        C.compile_in_parts()
    assert len(killed) == 2


def test_the_search_compiles_in_parts_before_its_first_compiled_slice(monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr("mazekit.sokoban.solver.driver.compile_in_parts", lambda: calls.append(1))
    monkeypatch.setattr(search_kernel, "_compiled", None)  # this process compiles (or loads) it again
    level = parse_levels(examples.read_text("sokoban/mazekit.xsb"))[2]
    old = _jit.get_mode()
    _jit.set_mode("always")
    try:
        assert search_level(level, time_limit=30.0).solution is not None
    finally:
        _jit.set_mode(old)
    assert calls == [1]
