"""Task functions for the batch tests: importable by worker processes (``tests.batch.tasks``)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def square(i: int, delay: float = 0.0) -> dict[str, int]:
    time.sleep(delay)
    return {"square": i * i, "pid": os.getpid()}


def die_once(i: int, marks: str) -> dict[str, int]:
    """Kill this worker process the first time task ``i`` runs; succeed the second time."""
    mark = Path(marks) / f"{i}.tried"
    if not mark.exists():
        mark.write_text("x")
        os.kill(os.getpid(), signal.SIGKILL)
    return {"square": i * i}


def always_die(i: int) -> dict[str, int]:
    os.kill(os.getpid(), signal.SIGKILL)
    return {}  # pragma: no cover


def fail(i: int) -> dict[str, int]:
    raise ValueError(f"task {i} does not like its input")


def die_if_zero(i: int) -> dict[str, int]:
    """Task 0 kills its worker every time; the others take a moment (so that they are
    running when it dies) and succeed."""
    if i == 0:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.5)
    return {"square": i * i}
