"""Child processes of a process under test, read from Linux's /proc (empty elsewhere)."""

from __future__ import annotations

import time
from pathlib import Path

#: True where the helpers can see processes.
HAS_PROC = Path("/proc/self/task").exists()


def children(pid: int) -> set[int]:
    """The processes ``pid`` started (from any of its threads) and that still run."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out |= {int(x) for x in (task / "children").read_text().split()}
        except OSError:
            pass
    return out


def running(pid: int) -> bool:
    """True while ``pid`` runs (a zombie has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for_children(pid: int, at_least: int = 1, seconds: float = 60.0) -> set[int]:
    """The children of ``pid`` once it has ``at_least`` of them (or what it has after ``seconds``)."""
    found: set[int] = set()
    deadline = time.monotonic() + seconds
    while len(found) < at_least and time.monotonic() < deadline:
        time.sleep(0.2)
        found |= children(pid)
    return found


def assert_all_end(pids: set[int], seconds: float = 10.0) -> None:
    """Every one of ``pids`` ends within ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(running(p) for p in pids), sorted(p for p in pids if running(p))
