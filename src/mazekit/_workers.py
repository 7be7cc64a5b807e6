"""What every worker process of mazekit's pools does at its start (the Sokoban solver's lanes,
the local batches)."""

from __future__ import annotations

import multiprocessing
import os
import threading

__all__ = ["end_with_parent"]


def _wait_for_parent() -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()  # the parent's sentinel: readable once it has ended
        os._exit(0)


def end_with_parent() -> None:
    """End this worker as soon as the process that started it ends, however it ends (killed, or
    a SIGTERM that skips its exit handlers): otherwise an orphan would finish its task and then
    wait for work forever. A daemon thread waits for the parent; call it in a pool's initializer."""
    threading.Thread(target=_wait_for_parent, name="end-with-parent", daemon=True).start()
