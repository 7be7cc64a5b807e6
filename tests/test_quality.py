"""Project-wide checks: the public surface is complete, types are strict, imports stay light."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
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


def _ruf022_key(name: str) -> tuple[int, list[tuple[int, int | str]]]:
    """The order ruff's RUF022 wants in ``__all__`` ("isort-style"): SCREAMING_CASE constants, then
    CamelCase names, then the rest; within each group a natural sort (runs of digits compare as
    numbers, everything else by ASCII code, so case-sensitive)."""
    if len(name) > 1 and name.upper() == name != name.lower():
        group = 0
    elif name[:1].isupper():
        group = 1
    else:
        group = 2
    return group, [(0, int(run)) if run.isdigit() else (1, run) for run in re.findall(r"\d+|\D+", name)]


def _unsorted_dunder_alls(root: Path) -> list[str]:
    """Every ``__all__ = [...]`` (or ``+=``, or annotated) under ``root`` that is not in RUF022 order,
    as "path:line: names in the wanted order"; one that is not a literal list of strings counts too."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets, value = [node.target], node.value
            else:
                continue
            if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                continue
            where = f"{path.relative_to(root.parent).as_posix()}:{node.lineno}"
            items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else []
            names = [e.value for e in items if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if not isinstance(value, (ast.List, ast.Tuple)) or len(names) != len(items):
                problems.append(f"{where}: not a literal list of strings")
                continue
            if names != sorted(names, key=_ruf022_key):
                problems.append(f"{where}: {sorted(names, key=_ruf022_key)}")
    return problems


def test_every_dunder_all_is_sorted():
    """Each ``__all__`` in src/ is sorted as ruff's RUF022 wants (``ruff check --select RUF022 --fix``
    sorts them)."""
    problems = _unsorted_dunder_alls(SRC)
    assert not problems, "__all__ not sorted (RUF022):\n" + "\n".join(problems)


def test_the_sorted_dunder_all_check_finds_unsorted_ones(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "good.py").write_text(
        '__all__ = ["MAX_2", "MAX_10", "Board", "Kernel", "_private", "board_2", "board_10", "solve"]\n'
        'if True:\n    __all__ += ["a", "b"]\n'
    )
    (pkg / "bad.py").write_text('__all__: list[str] = ["solve", "Board"]\n')
    (pkg / "ascii.py").write_text('__all__ = ("Kernel", "THRESHOLD")\n')  # ASCII order, but constants come first
    (pkg / "late.py").write_text('__all__ = ["a"]\n__all__ += ["c", "b"]\n')
    (pkg / "built.py").write_text('__all__ = sorted(["b", "a"])\n')
    assert _unsorted_dunder_alls(pkg) == [
        "pkg/ascii.py:1: ['THRESHOLD', 'Kernel']",
        "pkg/bad.py:1: ['Board', 'solve']",
        "pkg/built.py:1: not a literal list of strings",
        "pkg/late.py:2: ['b', 'c']",
    ]


def test_importing_mazekit_is_light():
    code = (
        "import sys, mazekit, mazekit.grid, mazekit.search; "
        "print(sorted(m for m in ('numba', 'PIL') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_py_typed_is_shipped():
    assert (SRC / "py.typed").exists()


@pytest.mark.skipif(
    shutil.which("mypy") is None and importlib.util.find_spec("mypy") is None, reason="mypy not installed"
)
def test_mypy_strict_is_clean():
    root = SRC.parent.parent
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(SRC)],
        capture_output=True,
        text=True,
        cwd=root,
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


def test_ruff_lint_and_format_are_clean() -> None:
    """ruff check and ruff format --check pass on src, tests and benchmarks (pyproject's [tool.ruff])."""
    import os
    import shutil
    import subprocess
    import sys

    if shutil.which("ruff") is None and not os.environ.get("CI"):
        import pytest

        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    root = Path(__file__).resolve().parents[1]
    for args in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        proc = subprocess.run(
            [sys.executable, "-m", "ruff", *args, "src", "tests", "benchmarks"],
            cwd=root,
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]
