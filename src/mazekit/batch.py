"""Running many tasks: in this process, in local worker processes, or on a Dask cluster.

A batch is a list of :class:`Task` (a stable id and the arguments of one call)
and a function that runs one task and returns a JSON-able dict. :func:`run_batch`
sends the tasks to workers and appends one JSON line per finished task to a
results file, flushed as each finishes; run again with the same file, it runs
only the tasks the file does not hold yet. Tables are built from the file, so a
run that was interrupted and resumed ten times reports like a run that was not.

Where the tasks run (:class:`BatchOptions`):

* ``jobs=1`` (default): here, one after the other;
* ``jobs=N``: N local worker processes (no Dask needed); a worker that dies
  loses only its running tasks, which are retried in a fresh pool;
* ``scheduler="local"``: a Dask ``LocalCluster`` of ``workers`` processes on
  this machine; ``scheduler="tcp://host:8786"``: a running Dask scheduler
  (``dask scheduler`` / ``dask worker`` on the machines). Dask restarts a killed
  worker under its nanny and reruns its task elsewhere.

A task that keeps killing its worker (out of memory, a crash) is tried
``retries + 1`` times, then recorded as failed with the reason. (Locally, a
worker's death stops every task of the pool; those that were running beside
it run again one at a time, so that only the task that dies alone is charged.) Dask has no task
timeout: the tasks enforce their own time and memory limits (the Sokoban
solver's ``time_limit`` and ``memory``). Workers are long-lived and load the
compiled kernels once; ``warm`` runs first on one worker per host (numba's disk
cache is not safe to fill from several processes at once), then on the others.

>>> import tempfile, os
>>> from mazekit.batch import BatchOptions, Task, run_batch
>>> tasks = [Task(f"sq-{i}", (i,)) for i in range(4)]
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "results.jsonl")
...     first = run_batch(tasks[:2], _square, BatchOptions(results=path))
...     again = run_batch(tasks, _square, BatchOptions(results=path))
>>> first.ran, again.ran, again.skipped, [again.records[t.id]["result"]["square"] for t in tasks]
(2, 2, 2, [0, 1, 4, 9])
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

__all__ = [
    "BatchOptions",
    "BatchReport",
    "Task",
    "read_results",
    "run_batch",
]

TaskFn = Callable[..., Mapping[str, Any]]
Progress = Callable[["BatchReport", "Mapping[str, Any]"], None]


@dataclass(frozen=True, slots=True)
class Task:
    """One unit of work: a stable ``id`` (the key in the results file) and the call's ``args``."""

    id: str
    args: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """Where and how a batch runs.

    Attributes
    ----------
    jobs : int
        Local worker processes when no scheduler is given (1: in this process).
    scheduler : str or None
        ``"local"`` (a Dask LocalCluster on this machine) or a Dask scheduler's
        address (``"tcp://host:8786"``); None: no Dask.
    workers : int or None
        Worker processes of the LocalCluster (default: the CPU count).
    results : str or None
        The JSON-lines results file (appended to, and read to resume).
    retries : int
        How many more times a task whose worker died is tried before it is
        recorded as failed.
    warm : callable or None
        Loads the compiled kernels; run once per worker before the tasks.
    """

    jobs: int = 1
    scheduler: str | None = None
    workers: int | None = None
    results: str | None = None
    retries: int = 2
    warm: Callable[[], Any] | None = None


@dataclass(slots=True)
class BatchReport:
    """What a run did, and every record known (from the results file and this run)."""

    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    total: int = 0
    skipped: int = 0
    ran: int = 0
    failed: int = 0
    interrupted: bool = False
    dashboard: str | None = None
    wall: float = 0.0

    @property
    def done(self) -> int:
        """Tasks with a record (done or failed), from the file or this run."""
        return self.skipped + self.ran


def read_results(path: str | None) -> dict[str, dict[str, Any]]:
    """The records of a results file by task id (a torn last line is ignored; a later line wins)."""
    records: dict[str, dict[str, Any]] = {}
    if path is None or not os.path.exists(path):
        return records
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a crash: that task runs again
            if isinstance(rec, dict) and isinstance(rec.get("id"), str):
                records[rec["id"]] = rec
    return records


class _Sink:
    """Appends records to the results file, one flushed line each (or keeps them in memory)."""

    def __init__(self, path: str | None) -> None:
        self._fh: IO[str] | None = None
        if path is not None:
            self._fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
            if self._fh.tell() > 0:
                self._end_torn_line(path)

    def _end_torn_line(self, path: str) -> None:
        with open(path, "rb") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                assert self._fh is not None
                self._fh.write("\n")

    def write(self, record: Mapping[str, Any]) -> None:
        if self._fh is not None:
            self._fh.write(json.dumps(record, separators=(",", ":")) + "\n")
            self._fh.flush()
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()


def run_batch(
    tasks: Sequence[Task],
    fn: TaskFn,
    options: BatchOptions | None = None,
    *,
    progress: Progress | None = None,
) -> BatchReport:
    """Run ``fn(*task.args)`` for every task not already in the results file.

    Parameters
    ----------
    tasks : sequence of Task
        The work; ids must be unique.
    fn : callable
        A module-level function (workers import it) returning a JSON-able dict.
    options : BatchOptions
        Where to run and where to keep the results.
    progress : callable, optional
        ``progress(report, record)`` after each finished task (in this process).

    Returns
    -------
    BatchReport
        With ``interrupted=True`` when Ctrl-C stopped it: every finished task
        is in the results file, and the same call resumes.
    """
    options = options or BatchOptions()
    ids = [t.id for t in tasks]
    if len(set(ids)) != len(ids):
        raise ValueError("task ids must be unique")
    report = BatchReport(total=len(tasks))
    known = read_results(options.results)
    report.records.update({k: v for k, v in known.items() if k in set(ids)})
    todo = [t for t in tasks if report.records.get(t.id, {}).get("status") != "done"]
    report.skipped = len(tasks) - len(todo)
    sink = _Sink(options.results)
    t0 = time.perf_counter()

    def finish(record: dict[str, Any]) -> None:
        sink.write(record)
        report.records[record["id"]] = record
        report.ran += 1
        report.failed += record["status"] == "failed"
        if progress is not None:
            progress(report, record)

    try:
        if not todo:
            pass
        elif options.scheduler is not None:
            _run_dask(todo, fn, options, finish, report)
        elif options.jobs > 1 and len(todo) > 1:
            _run_pool(todo, fn, options, finish)
        else:
            _run_here(todo, fn, options, finish)
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        sink.close()
        report.wall = time.perf_counter() - t0
    return report


def _record(task: Task, result: Mapping[str, Any], attempts: int, seconds: float) -> dict[str, Any]:
    return {"id": task.id, "status": "done", "attempts": attempts, "seconds": round(seconds, 3), "result": dict(result)}


def _failure(task: Task, reason: str, attempts: int) -> dict[str, Any]:
    return {"id": task.id, "status": "failed", "attempts": attempts, "error": reason}


def _timed(fn: TaskFn, args: tuple[Any, ...]) -> tuple[Mapping[str, Any], float]:
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def _run_here(
    todo: Sequence[Task], fn: TaskFn, options: BatchOptions, finish: Callable[[dict[str, Any]], None]
) -> None:
    if options.warm is not None:
        options.warm()
    for task in todo:
        try:
            result, secs = _timed(fn, task.args)
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # a task's own error is its record, not the end of the batch
            finish(_failure(task, f"{type(exc).__name__}: {exc}", 1))
            continue
        finish(_record(task, result, 1, secs))


def _init_worker(warm: Callable[[], Any] | None) -> None:
    import signal

    from ._workers import end_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    end_with_parent()  # a parent killed mid-batch leaves no worker behind
    if warm is not None:
        warm()  # load the compiled kernels (the parent filled the cache) before the first task is timed


def _run_pool(
    todo: Sequence[Task], fn: TaskFn, options: BatchOptions, finish: Callable[[dict[str, Any]], None]
) -> None:
    """Local worker processes; a dead worker breaks the pool: its tasks go to a fresh one.

    A death is charged to a task only when it ran alone: when the pool breaks with
    several tasks running (the pool stops them all), each of them runs next in a
    pool of one worker, so that a task beside the one that died is not charged for it.
    """
    if options.warm is not None:
        options.warm()  # fill the compiled-kernel cache once, before the workers read it
    runs = {t.id: 0 for t in todo}
    deaths = {t.id: 0 for t in todo}
    pending, suspects = list(todo), list[Task]()
    while pending or suspects:
        alone = bool(suspects)  # the suspects first, one at a time
        batch, width = (suspects, 1) if alone else (pending, options.jobs)
        if alone:
            suspects = []
        else:
            pending = []
        in_flight, not_started = _pool_round(batch, fn, width, options, runs, finish)
        pending.extend(not_started)
        if len(in_flight) != 1:
            suspects.extend(in_flight)  # which of them died is not known
            continue
        task = in_flight[0]
        deaths[task.id] += 1
        n = deaths[task.id]
        if n <= options.retries:
            suspects.append(task)
        else:
            why = f"its worker process died {n} time{'s' * (n != 1)} (killed, or out of memory)"
            finish(_failure(task, why, runs[task.id]))


def _pool_round(
    tasks: Sequence[Task],
    fn: TaskFn,
    width: int,
    options: BatchOptions,
    runs: dict[str, int],
    finish: Callable[[dict[str, Any]], None],
) -> tuple[list[Task], list[Task]]:
    """Run ``tasks`` in a pool of ``width`` workers until all are recorded or a worker dies:
    ``(the tasks running when it died, the tasks not started)``."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context("spawn")
    jobs = min(width, len(tasks))
    queue = list(tasks)
    with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init_worker, initargs=(options.warm,)) as pool:
        running: dict[Any, Task] = {}
        try:
            while queue or running:
                while queue and len(running) < jobs:
                    task = queue[0]
                    running[pool.submit(_timed, fn, task.args)] = task  # raises when the pool broke
                    queue.pop(0)
                    runs[task.id] += 1
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    _settle(fut, running[fut], runs, finish)  # a broken pool raises: the task stays
                    del running[fut]
        except BrokenProcessPool:
            # a worker died (killed, out of memory): what the pool was running is tried again
            in_flight = []
            for fut, task in running.items():
                if fut.done() and not isinstance(fut.exception(), BrokenProcessPool):
                    _settle(fut, task, runs, finish)
                else:
                    in_flight.append(task)
            return in_flight, queue
        except KeyboardInterrupt:
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()
            raise
    return [], []


def _settle(fut: Any, task: Task, attempts: Mapping[str, int], finish: Callable[[dict[str, Any]], None]) -> None:
    """Record a finished future: its result, or its task's own error (a broken pool is re-raised)."""
    from concurrent.futures.process import BrokenProcessPool

    exc = fut.exception()
    if isinstance(exc, BrokenProcessPool):
        raise exc
    if exc is not None:
        finish(_failure(task, f"{type(exc).__name__}: {exc}", attempts[task.id]))
        return
    result, secs = fut.result()
    finish(_record(task, result, attempts[task.id], secs))


def _one_per_host(client: Any) -> tuple[list[str], list[str]]:
    """Worker addresses: one per host, and the others."""
    first: dict[str, str] = {}
    rest = []
    for addr, info in sorted(client.scheduler_info()["workers"].items()):
        host = info.get("host", addr)
        if host in first:
            rest.append(addr)
        else:
            first[host] = addr
    return list(first.values()), rest


@contextlib.contextmanager
def _client(options: BatchOptions) -> Iterator[Any]:
    """A Dask client: on a LocalCluster of our own, or on the scheduler named."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the install
        from .errors import MissingDependency

        raise MissingDependency("--scheduler needs Dask: pip install 'mazekit[cluster]'") from exc
    with dask.config.set(
        {"distributed.scheduler.allowed-failures": max(0, options.retries), "distributed.worker.daemon": False}
    ):
        if options.scheduler == "local":
            n = options.workers or os.cpu_count() or 1
            cluster = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
                silence_logs=50,
            )
            try:
                with Client(cluster) as client:
                    yield client
            finally:
                cluster.close()
        else:
            with Client(options.scheduler, timeout=30) as client:
                yield client


def _run_dask(
    todo: Sequence[Task],
    fn: TaskFn,
    options: BatchOptions,
    finish: Callable[[dict[str, Any]], None],
    report: BatchReport,
) -> None:
    from distributed import as_completed
    from distributed.client import FutureCancelledError

    with _client(options) as client:
        report.dashboard = client.dashboard_link
        if options.warm is not None:
            first, rest = _one_per_host(client)
            client.run(options.warm, workers=first)
            if rest:
                client.run(options.warm, workers=rest)
        by_key: dict[str, Task] = {}
        futures = []
        for task in todo:
            fut = client.submit(_timed, fn, task.args, key=f"mazekit-{task.id}-{os.getpid()}", pure=False)
            by_key[fut.key] = task
            futures.append(fut)
        try:
            for fut in as_completed(futures):
                task = by_key[fut.key]
                try:
                    result, secs = fut.result()
                except FutureCancelledError:
                    continue
                except Exception as exc:
                    finish(_failure(task, _dask_reason(exc, options.retries), options.retries + 1))
                else:
                    finish(_record(task, result, 1, secs))
                fut.release()  # a lost worker must not make Dask recompute results already saved
        except KeyboardInterrupt:
            client.cancel(futures)
            raise


def _dask_reason(exc: BaseException, retries: int) -> str:
    name = type(exc).__name__
    if name == "KilledWorker":
        return f"its worker died {retries + 1} times (killed, or out of memory)"
    return f"{name}: {exc}"


def _square(i: int) -> dict[str, int]:
    """A task for the examples and tests."""
    return {"square": i * i}
