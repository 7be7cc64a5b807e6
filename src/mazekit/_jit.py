"""The single place that touches numba.

Kernels are plain Python functions decorated with :func:`njit`. The decorator does
not import numba: it returns a :class:`Kernel` that runs the *same source* either
as plain Python (tiny inputs, where importing numba and loading the compiled code
would cost more than the work) or compiled by numba with an on-disk cache.

The choice is made per call by :meth:`Kernel.pick`, from the amount of work the
caller announces (usually the number of cells):

* mode ``"auto"`` (default): compiled once the kernel has been compiled in this
  process, or when the work reaches :data:`THRESHOLD`, or when the work done in
  plain Python by all kernels so far has added up to it;
* mode ``"always"`` / ``"never"``: always compiled / never compiled.

Set the mode with the environment variable ``MAZEKIT_JIT`` (``auto``, ``always``,
``never``) or with :func:`set_mode`. The threshold can be set with
``MAZEKIT_JIT_THRESHOLD``.

A kernel may call another kernel: when it is compiled, the names of other kernels
in its globals are replaced by their compiled versions. numba checks a cached kernel
against its own source file only; a kernel here is compiled anew when the file of a
kernel it calls (however deep) is newer than its cache.

A large kernel is written as a sequence of *steps* (:func:`step`): kernels compiled without
numba's reference counting, which LLVM inlines into their caller, so that naming a part of a
hot loop costs nothing. A plain kernel handed ten arrays costs 20-50 ns a call (numba 0.68: the
arrays' reference counts and their fields passed one by one), more than a small step's work.
A kernel that a hot loop calls is best a step too, however large, and so is the loop's own
kernel when it makes no array: each reference count is an atomic instruction (the Sokoban
search's kernels are all steps for this reason). numba compiles a kernel called from a step
without reference counting as well (the caller's setting is passed on), so a kernel that makes
arrays cannot be called from a step.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import types
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "THRESHOLD",
    "Kernel",
    "compile_calls",
    "compile_seconds",
    "compiled_here",
    "get_mode",
    "njit",
    "numba_available",
    "plain",
    "set_mode",
    "step",
]

Mode = Literal["auto", "always", "never"]

_mode: Mode = "auto"
_env = os.environ.get("MAZEKIT_JIT", "auto").strip().lower()
if _env in ("auto", "always", "never"):
    _mode = _env  # type: ignore[assignment]

#: Work (cells) from which a call compiles rather than interprets.
THRESHOLD: int = int(os.environ.get("MAZEKIT_JIT_THRESHOLD", "40000"))

_lock = threading.RLock()
_here = threading.local()  # ``always``: this thread's calls run compiled (see :func:`compiled_here`)
_python_work = 0  # work done uncompiled in this process, all kernels together
_compile_clock: Any = None  # the listener of numba's compile events, once a kernel is compiled


def compile_seconds() -> float:
    """Seconds numba has spent compiling (or loading from its cache) kernels in this
    process so far, nested compiles counted once. Time limits subtract what a piece of
    work spent here, so that the first run after installing is not cut short."""
    return 0.0 if _compile_clock is None else _compile_clock.total


def _start_compile_clock() -> None:
    """Listen to numba's ``numba:compile`` events (once per process)."""
    global _compile_clock
    from numba.core import event

    class Clock(event.Listener):
        def __init__(self) -> None:
            self.total = 0.0
            self.local = threading.local()

        def on_start(self, ev: Any) -> None:
            depth = getattr(self.local, "depth", 0)
            if depth == 0:
                self.local.t0 = time.perf_counter()
            self.local.depth = depth + 1

        def on_end(self, ev: Any) -> None:
            self.local.depth -= 1
            if self.local.depth == 0:
                with _lock:
                    self.total += time.perf_counter() - self.local.t0

    _compile_clock = Clock()
    event.register("numba:compile", _compile_clock)  # type: ignore[no-untyped-call,unused-ignore]


def set_mode(mode: Mode) -> None:
    """Choose when kernels run compiled: ``"auto"``, ``"always"`` or ``"never"``."""
    global _mode
    if mode not in ("auto", "always", "never"):
        raise ValueError(f"mode must be 'auto', 'always' or 'never', got {mode!r}")
    _mode = mode


def get_mode() -> Mode:
    """The current mode (see :func:`set_mode`)."""
    return _mode


def numba_available() -> bool:
    """True when numba can be imported."""
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover - numba is a hard dependency
        return False
    return True


class Kernel:
    """A kernel function that runs compiled or interpreted from one source.

    Attributes
    ----------
    py_func : callable
        The plain Python function (the reference implementation).
    calls_python, calls_compiled : int
        How many times :meth:`pick` chose each path; tests use these to check
        that large inputs really run compiled.
    """

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self._options = options
        self._compiled: Any = None
        self._plain = False  # see plain()
        self.calls_python = 0
        self.calls_compiled = 0

    def __repr__(self) -> str:
        state = "compiled" if self._compiled is not None else "not compiled"
        return f"<mazekit kernel {self.__module__}.{self.__name__} ({state})>"

    @property
    def is_compiled(self) -> bool:
        """True once the numba version exists in this process."""
        return self._compiled is not None

    def is_cached(self) -> bool:
        """True when the compiled version will not need compiling: it has run in this
        process, or numba's on-disk cache holds it for this source and this machine.

        False means the first compiled call compiles (seconds for a large kernel),
        and the commands say so first. Reads the cache index only (it neither
        compiles nor makes :meth:`pick` choose the compiled path); an index that
        cannot be read back (see :meth:`_cache_unreadable`) will be compiled anew;
        when numba's internals cannot be reached it answers True (nothing to announce).
        """
        if self._compiled is not None and self._compiled.signatures:
            return True
        if self._cache_is_stale():
            return False
        try:
            import hashlib

            from numba.core.registry import cpu_target

            load = self._cache_file()._load_index
            magic = cpu_target.target_context.codegen().magic_tuple()
            code = hashlib.sha256(self.py_func.__code__.co_code).hexdigest()
        except Exception:  # noqa: BLE001  # pragma: no cover - numba's internals moved
            return True
        try:
            index = load()
        except Exception:  # noqa: BLE001  # an unpickling error of any kind
            return False
        return any(key[1] == magic and key[2][0] == code for key in index)

    def compiled(self) -> Any:
        """The numba dispatcher (compiled, or loaded from the cache, on first use)."""
        if self._compiled is None:
            with _lock:
                if self._compiled is None:
                    self._compiled = self._compile()
        return self._compiled

    def _callees(self) -> dict[str, Kernel]:
        """The kernels this kernel's code names (the ones it calls)."""
        func = self.py_func
        return {name: k for name in func.__code__.co_names if isinstance(k := func.__globals__.get(name), Kernel)}

    def _sources(self) -> set[str]:
        """The source files of this kernel and of every kernel it calls, however deep."""
        seen: set[int] = set()
        files: set[str] = set()
        todo = [self]
        while todo:
            kernel = todo.pop()
            if id(kernel) in seen:
                continue
            seen.add(id(kernel))
            files.add(kernel.py_func.__code__.co_filename)
            todo.extend(kernel._callees().values())
        return files

    def _cache_file(self) -> Any:
        """numba's on-disk cache of this kernel (``cache=True``), found as numba finds it."""
        from numba.core import caching

        locator: Any = caching.FunctionCache  # the locator numba itself uses for cache=True
        return locator(self.py_func)._cache_file

    def _cache_index(self) -> Path:
        """The index file of numba's on-disk cache of this kernel."""
        return Path(self._cache_file()._index_path)

    def _cache_is_stale(self) -> bool:
        """True when numba's cache of this kernel is older than a source file of a kernel it
        calls. numba checks a cached kernel against its own file only, so a kernel calling one
        of another file would go on running the callee's old code once that file changed."""
        try:
            index = self._cache_index()
            if not index.exists():
                return False
            written = index.stat().st_mtime
            return any(os.stat(f).st_mtime > written for f in self._sources())
        except Exception:  # noqa: BLE001  # pragma: no cover - numba's internals moved, or no file
            return False

    def _cache_unreadable(self) -> bool:
        """True when numba's cache index of this kernel cannot be read back, as when a type it
        was compiled for (a named tuple of its arguments) was renamed or removed since in a
        file the kernel does not call. numba reads the whole index before it compares the
        kernel's source, so it would stop every call with that error instead of compiling."""
        try:
            if not self._cache_index().exists():
                return False
            load = self._cache_file()._load_index
        except Exception:  # noqa: BLE001  # pragma: no cover - numba's internals moved
            return False
        try:
            load()
        except Exception:  # noqa: BLE001  # an unpickling error of any kind
            return True
        return False

    def _drop_stale_cache(self) -> None:
        """Forget numba's cache of this kernel when :meth:`_cache_is_stale` or
        :meth:`_cache_unreadable`: it compiles anew."""
        if self._cache_is_stale() or self._cache_unreadable():
            with contextlib.suppress(OSError):
                self._cache_index().unlink()

    def _compile(self) -> Any:
        import numba

        if _compile_clock is None:
            _start_compile_clock()

        func = self.py_func
        kernels = self._callees()
        if kernels:
            # Rebind calls to other kernels to their compiled versions.
            glb = dict(func.__globals__)
            for name, kern in kernels.items():
                glb[name] = kern.compiled()
            new = types.FunctionType(func.__code__, glb, func.__name__, func.__defaults__, func.__closure__)
            new.__qualname__ = func.__qualname__
            new.__module__ = func.__module__
            func = new
        opts: dict[str, Any] = {"cache": True, "nogil": True}
        opts.update(self._options)
        if opts["cache"]:
            self._drop_stale_cache()
        return numba.njit(**opts)(func)

    def pick(self, work: int) -> Callable[..., Any]:
        """Return the function to call for a task of size ``work``.

        Parameters
        ----------
        work : int
            A measure of the task, normally the number of grid cells involved.
        """
        global _python_work
        if _mode == "never" or self._plain:
            self.calls_python += 1
            return self.py_func
        if (
            _mode == "always"
            or self._compiled is not None
            or work >= THRESHOLD
            or _python_work >= THRESHOLD
            or getattr(_here, "always", False)
        ):
            self.calls_compiled += 1
            compiled: Callable[..., Any] = self.compiled()
            return compiled
        _python_work += work
        self.calls_python += 1
        return self.py_func

    def __call__(self, *args: Any) -> Any:
        """Call the plain Python version (inside other kernels, or in tests)."""
        return self.py_func(*args)


def njit(func: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Mark ``func`` as a kernel; see the module docs. Options go to ``numba.njit``.

    Examples
    --------
    >>> @njit
    ... def total(a):
    ...     s = 0
    ...     for x in a:
    ...         s += x
    ...     return s
    >>> total.py_func([1, 2, 3])
    6
    >>> total.calls_compiled
    0
    """
    if func is None:
        return lambda f: Kernel(f, options)
    return Kernel(func, options)


def step(func: Callable[..., Any] | None = None, **options: Any) -> Any:
    """Mark ``func`` as a step of a larger kernel: a kernel compiled without numba's reference
    counting (``_nrt=False``), so that LLVM can inline it and calling it costs what its lines
    would cost written into the caller.

    A step reads and writes the arrays it is handed, and may hand them on to other kernels; it
    makes no array (numba refuses to compile one that does) and returns none it was not handed.
    LLVM inlines a small step whose own calls hand on few arrays. A step with loops of its own is
    left a call (some 20-50 ns with a few arrays); when that matters, put the loop that calls it
    in a step too and mark the callee ``@step(inline="always")``: numba then writes its body into
    the caller, which counts no references either.

    Examples
    --------
    >>> @step
    ... def bump(a, i):
    ...     a[i] += 1
    ...     return a[i]
    >>> bump.py_func([1, 2], 1)
    3
    """
    return njit(func, **{"_nrt": False, **options})


class _CompiledCalls(Kernel):
    """Stands for a kernel in its module while :func:`compile_calls` runs: called from plain
    Python it runs compiled; a kernel compiled meanwhile that calls it gets the real one."""

    def __init__(self, kernel: Kernel) -> None:
        super().__init__(kernel.py_func, kernel._options)
        self._kernel = kernel

    def compiled(self) -> Any:
        return self._kernel.compiled()

    def __call__(self, *args: Any) -> Any:
        return self._kernel.compiled()(*args)


@contextlib.contextmanager
def compile_calls(namespace: MutableMapping[str, Any], names: Iterable[str]) -> Iterator[None]:
    """Within the block, calls from kernels running as plain Python to the kernels ``names``
    of ``namespace`` (their module's globals) run compiled, so each compiles on its first
    call, for that call's argument types, and is written to numba's cache.

    This splits a large kernel's first compile over processes: each runs the caller as
    plain Python (see :func:`plain`) on a small input and compiles a share of its callees;
    the caller, compiled last, loads them from the cache instead of compiling them again.
    """
    saved = {}
    for name in names:
        kernel = namespace[name]
        if not isinstance(kernel, Kernel):
            raise TypeError(f"{name} is not a kernel")
        saved[name] = kernel
        namespace[name] = _CompiledCalls(kernel)
    try:
        yield
    finally:
        namespace.update(saved)


@contextlib.contextmanager
def compiled_here() -> Iterator[None]:
    """Within the block, the kernels this thread calls run compiled whatever the size of their
    input (unless the mode is ``"never"``); other threads' calls are chosen as before.

    A warm-up needs it: it runs each kernel on a tiny input, which in ``"auto"`` mode runs as
    plain Python and loads nothing, so that the first large request would load (or compile)
    the kernel instead. :func:`set_mode` would change every thread's calls.

    >>> with compiled_here():
    ...     pass
    """
    before = getattr(_here, "always", False)
    _here.always = True
    try:
        yield
    finally:
        _here.always = before


@contextlib.contextmanager
def plain(*kernels: Kernel) -> Iterator[None]:
    """Within the block, :meth:`Kernel.pick` chooses the plain Python version of these kernels
    whatever the mode (the callers of :func:`compile_calls`)."""
    for kernel in kernels:
        kernel._plain = True
    try:
        yield
    finally:
        for kernel in kernels:
            kernel._plain = False
