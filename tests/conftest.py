"""Shared fixtures: JIT mode switching and Hypothesis profiles."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mazekit import _jit

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

DATA = Path(__file__).parent / "data"
#: The shared level collections beside the checkout (tests that need them skip without them).
SHARED = Path(__file__).resolve().parents[2] / "shared"


@contextlib.contextmanager
def jit_mode(mode: _jit.Mode) -> Iterator[None]:
    """Run a block with kernels forced compiled ("always") or interpreted ("never")."""
    old = _jit.get_mode()
    _jit.set_mode(mode)
    try:
        yield
    finally:
        _jit.set_mode(old)


@pytest.fixture
def data_dir() -> Path:
    return DATA
