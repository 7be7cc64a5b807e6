"""Project-wide checks: the public surface is complete, types are strict, imports stay light."""

from __future__ import annotations

import importlib
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mazekit

SRC = Path(mazekit.__file__).parent


def _packages() -> list[str]:
    names = ["mazekit"]
    for info in pkgutil.walk_packages([str(SRC)], prefix="mazekit."):
        if info.ispkg and ".examples" not in info.name:
            names.append(info.name)
    return names


@pytest.mark.parametrize("name", _packages())
def test_every_package_lists_its_public_names(name):
    module = importlib.import_module(name)
    assert hasattr(module, "__all__"), f"{name} has no __all__"
    for public in module.__all__:
        assert hasattr(module, public) or public in getattr(module, "_SUBMODULES", ()), f"{name}.{public}"
    # every public function or class defined in the package's modules is exported
    exported = set(module.__all__)
    for attr, value in vars(module).items():
        if attr.startswith("_") or not callable(value) or isinstance(value, type(pytest)):
            continue
        if getattr(value, "__module__", "").startswith(name + ".") or getattr(value, "__module__", "") == name:
            assert attr in exported, f"{name}.{attr} is public but not in __all__"


def test_importing_mazekit_is_light():
    code = "import sys, mazekit, mazekit.grid, mazekit.search; print(sorted(m for m in ('numba', 'PIL') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_py_typed_is_shipped():
    assert (SRC / "py.typed").exists()


@pytest.mark.skipif(shutil.which("mypy") is None and importlib.util.find_spec("mypy") is None, reason="mypy not installed")
def test_mypy_strict_is_clean():
    root = SRC.parent.parent
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(SRC)],
        capture_output=True, text=True, cwd=root,
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
