"""mazekit._jit's tools: steps (kernels without reference counts), and compile_calls and plain for
splitting a first compile."""

from __future__ import annotations

import re
import threading

import numpy as np
import pytest

from mazekit import _jit
from mazekit._jit import compile_calls, njit, plain, step


@njit
def _leaf(a, k):  # type: ignore[no-untyped-def]
    return a[k] * 2


@njit
def _middle(a):  # type: ignore[no-untyped-def]
    s = 0
    for k in range(a.shape[0]):
        s += _leaf(a, k)
    return s


@njit
def _top(a):  # type: ignore[no-untyped-def]
    return _middle(a) + 1


#: The kernels themselves (within compile_calls the module's names stand for stand-ins).
LEAF, MIDDLE, TOP = _leaf, _middle, _top


def test_compile_calls_compiles_the_named_callees_of_a_plain_caller():
    a = np.arange(5, dtype=np.int64)
    _top, _middle, _leaf = TOP, MIDDLE, LEAF
    with plain(_top), compile_calls(globals(), ["_middle"]):
        assert _top.pick(10**9) is _top.py_func  # plain whatever the work
        assert _top.pick(10**9)(a) == 21
        assert _middle.is_compiled and _leaf.is_compiled  # _middle's compile took its callee with it
        assert not _top.is_compiled
    assert globals()["_middle"] is _middle  # put back
    assert _top.pick(10**9) is _top.compiled()  # the caller compiles (loading the callees) afterwards
    assert _top.compiled()(a) == 21
    assert (_middle.compiled().signatures, _leaf.compiled().signatures) == (
        _middle.compiled().signatures[:1],
        _leaf.compiled().signatures[:1],
    )  # one signature each: the plain caller's call had the compiled caller's types


def test_compile_calls_refuses_a_name_that_is_not_a_kernel():
    with pytest.raises(TypeError, match="np is not a kernel"), compile_calls(globals(), ["np"]):
        pass
    assert globals()["np"] is np


def test_plain_ends_with_its_block_even_on_an_error():
    with pytest.raises(RuntimeError), plain(_leaf):
        assert _leaf.pick(10**9) is _leaf.py_func
        raise RuntimeError
    assert _jit.get_mode() == "never" or _leaf.pick(10**9) is not _leaf.py_func


@step(cache=False)
def _mix(a, b, c, d, e, f, g, h, i, x):  # type: ignore[no-untyped-def]
    """A step of a few branches handed nine arrays (a plain kernel such as this is not inlined)."""
    if a[x] > 3:
        b[x] += 1
        if c[x] == 0:
            d[x] = e[x] + f[x]
    elif g[x] < 2:
        h[x] = i[x] - a[x]
    return b[x]


@njit(cache=False)
def _mix_all(a, b, c, d, e, f, g, h, i):  # type: ignore[no-untyped-def]
    total = 0
    for x in range(a.shape[0]):
        total += _mix(a, b, c, d, e, f, g, h, i, x)
    return total


@step(cache=False)
def _makes_an_array(n):  # type: ignore[no-untyped-def]
    return np.zeros(n).sum()


def test_a_step_gives_the_same_results_compiled_and_plain():
    rng = np.random.default_rng(5)
    arrays = [rng.integers(0, 6, 300) for _ in range(9)]
    before = [a.copy() for a in arrays]
    copies = [a.copy() for a in arrays]
    assert _mix_all.compiled()(*arrays) == _mix_all.py_func(*copies)
    assert all(np.array_equal(a, b) for a, b in zip(arrays, copies, strict=True))
    assert not np.array_equal(arrays[1], before[1])  # the step wrote through the arrays it was handed


def _calls(kernel, caller: str, nargs: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The functions that ``kernel``'s compiled code (its LLVM module) calls from ``caller``."""
    dispatcher = kernel.compiled()
    dispatcher(*[np.zeros(4, dtype=np.int64) for _ in range(nargs)])
    library = dispatcher.overloads[dispatcher.signatures[0]].library
    module = str(getattr(library, "_final_module", ""))
    if not module:  # pragma: no cover - numba's internals moved
        pytest.skip("numba's compiled module is not at hand")
    defined = {}
    for part in module.split("\ndefine ")[1:]:
        name = re.search(r'@"?([^"(]+)', part)
        if name and "cpython" not in name.group(1) and "cfunc" not in name.group(1):
            defined[name.group(1)] = part
    body = next(part for name, part in defined.items() if caller in name)
    return re.findall(r'call [^@\n]*@"?([^"(\n]+)', body)


#: :func:`_mix` as a plain kernel: the same body, compiled as a function of its own.
_mix_kernel = njit(cache=False)(_mix.py_func)


@njit(cache=False)
def _mix_kernel_all(a, b, c, d, e, f, g, h, i):  # type: ignore[no-untyped-def]
    total = 0
    for x in range(a.shape[0]):
        total += _mix_kernel(a, b, c, d, e, f, g, h, i, x)
    return total


def test_a_step_is_inlined_into_its_caller():
    # the same body as a plain kernel stays a call of its own (the check can see a call) ...
    assert [c for c in _calls(_mix_kernel_all, "_mix_kernel_all", 9) if "_mix" in c and "_mix_kernel_all" not in c]
    # ... and as a step no call of it is left: its lines are the caller's
    assert not [c for c in _calls(_mix_all, "_mix_all", 9) if "_mix" in c and "_mix_all" not in c]


def test_a_step_that_makes_an_array_is_refused():
    from numba.core.errors import TypingError

    with pytest.raises(TypingError):
        _makes_an_array.compiled()(3)


def test_a_kernel_compiles_anew_when_a_kernel_it_calls_changed_in_another_file(tmp_path):
    """numba's cache checks a kernel against its own file only; mazekit's kernels check the files
    of the kernels they call too, so an edit to a callee is never run stale."""
    import os
    import subprocess
    import sys
    import time

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    callee = "from mazekit._jit import njit\n\n\n@njit\ndef leaf(x):\n    return x + {}\n"
    (pkg / "leaf.py").write_text(callee.format(1))
    (pkg / "top.py").write_text(
        "from mazekit._jit import njit\nfrom .leaf import leaf\n\n\n@njit\ndef top(x):\n    return leaf(x) * 10\n"
    )
    run = [sys.executable, "-c", "from pkg.top import top; print(top.compiled()(1), top.is_cached())"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))
    first = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout.split()
    again = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert first == again == ["20", "True"]  # compiled, then loaded from the cache
    time.sleep(0.05)
    (pkg / "leaf.py").write_text(callee.format(2))
    later = time.time() + 2
    os.utime(pkg / "leaf.py", (later, later))  # surely newer than the cache, whatever the clock's grain
    check = [sys.executable, "-c", "from pkg.top import top; print(top.is_cached())"]
    assert subprocess.run(check, env=env, capture_output=True, text=True, check=True).stdout.split() == ["False"]
    after = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert after == ["30", "True"]


def test_a_kernel_compiles_anew_when_a_type_it_was_compiled_for_is_gone(tmp_path):
    """numba reads a kernel's whole cache index before it compares the source, so an index that
    names a type since renamed (a named tuple defined in a file the kernel does not call) would
    stop the call with an unpickling error; mazekit's kernels drop such an index and compile."""
    import os
    import subprocess
    import sys

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    shape = "from typing import NamedTuple\n\n\nclass {}(NamedTuple):\n    a: int\n    b: int\n"
    (pkg / "shapes.py").write_text(shape.format("Pair"))
    (pkg / "use.py").write_text("from mazekit._jit import njit\n\n\n@njit\ndef total(p):\n    return p.a + p.b\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), *sys.path]))

    def run(name: str) -> list[str]:
        code = f"from pkg.shapes import {name}; from pkg.use import total; print(total.compiled()({name}(1, 2)))"
        return subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.split()

    assert run("Pair") == ["3"]  # compiled and cached for pkg.shapes.Pair
    (pkg / "shapes.py").write_text(shape.format("Couple"))  # Pair is gone; use.py is unchanged
    check = [sys.executable, "-c", "from pkg.use import total; print(total.is_cached())"]
    assert subprocess.run(check, env=env, capture_output=True, text=True, check=True).stdout.split() == ["False"]
    assert run("Couple") == ["3"]
    assert subprocess.run(check, env=env, capture_output=True, text=True, check=True).stdout.split() == ["True"]


@njit(cache=False)
def _plus_one(a):  # type: ignore[no-untyped-def]
    return a[0] + 1


@njit(cache=False)
def _plus_two(a):  # type: ignore[no-untyped-def]
    return a[0] + 2


def test_compiled_here_runs_this_threads_tiny_calls_compiled_and_no_other_threads(monkeypatch):
    from tests.conftest import jit_mode

    monkeypatch.setattr(_jit, "_python_work", 0)  # no work done uncompiled yet: tiny calls run plain
    with jit_mode("auto"):
        assert not _plus_one.is_compiled and _plus_one.pick(1) is _plus_one.py_func
        other: list[object] = []
        with _jit.compiled_here():
            assert _plus_one.pick(1) is _plus_one.compiled()  # a warm-up's tiny input loads the kernel
            worker = threading.Thread(target=lambda: other.append(_plus_two.pick(1)))
            worker.start()
            worker.join()
        assert other == [_plus_two.py_func]  # another thread's calls are chosen as before
        assert _plus_two.pick(1) is _plus_two.py_func  # and this thread's, after the block
    with jit_mode("never"), _jit.compiled_here():
        assert _plus_two.pick(1) is _plus_two.py_func  # "never" wins
