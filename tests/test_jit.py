"""mazekit._jit's tools for splitting a first compile: compile_calls and plain."""

from __future__ import annotations

import numpy as np
import pytest

from mazekit import _jit
from mazekit._jit import compile_calls, njit, plain


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
