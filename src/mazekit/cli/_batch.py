"""What the batch commands share: the options, the progress bar, the Ctrl-C message.

``mazekit sokoban solve``, ``mazekit mines bench`` and ``mazekit universal``
over many mazes run their work through :func:`mazekit.batch.run_batch`:

* ``--jobs N``: N local processes (no Dask needed);
* ``--scheduler ADDRESS``: a running Dask scheduler (``tcp://host:8786``), or
  ``local`` for a LocalCluster on this machine, which ``--workers N`` implies;
* ``--results FILE``: one JSON line per finished task; the same command with
  the same file runs only what is missing;
* ``--retries N``: how often a task whose worker died is tried again.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..batch import BatchOptions, BatchReport, Task, TaskFn, run_batch
from ._io import UsageError, check_range
from ._progress import Progress

__all__ = ["add_batch_options", "batch_options", "run_tasks"]


def add_batch_options(p: argparse.ArgumentParser, *, jobs_default: int = 1, workers_help: str | None = None) -> None:
    """Add ``--jobs``, ``--scheduler``, ``--workers``, ``--results`` and ``--retries``."""
    g = p.add_argument_group("running many tasks")
    g.add_argument(
        "--jobs",
        type=int,
        default=jobs_default,
        metavar="N",
        help=f"local worker processes, no Dask needed (default {jobs_default})",
    )
    g.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a Dask scheduler (tcp://host:8786), or 'local' for a cluster on this machine",
    )
    g.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help=workers_help or "workers of the local Dask cluster (implies --scheduler local)",
    )
    g.add_argument(
        "--results", metavar="FILE", help="keep one JSON line per finished task here; the same command resumes from it"
    )
    g.add_argument(
        "--retries",
        type=int,
        default=2,
        metavar="N",
        help="tries after a worker dies on a task, before it is recorded as failed (default 2)",
    )


def batch_options(
    args: argparse.Namespace, *, warm: Callable[[], Any] | None = None, quiet: bool = False
) -> BatchOptions:
    """The options the command line asked for (checked)."""
    check_range("--jobs", args.jobs, 1)
    if args.workers is not None:
        check_range("--workers", args.workers, 1)
    check_range("--retries", args.retries, 0)
    scheduler = args.scheduler
    if scheduler is None and args.workers is not None:
        scheduler = "local"
    if scheduler is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            if args.scheduler is not None:
                raise UsageError("--scheduler needs Dask: pip install 'mazekit[cluster]'") from None
            if not quiet:
                print(
                    f"Dask is not installed: running {args.workers} local processes (as --jobs {args.workers})",
                    file=sys.stderr,
                )
            return BatchOptions(jobs=args.workers, results=args.results, retries=args.retries, warm=warm)
        if scheduler != "local" and "://" not in scheduler and ":" not in scheduler:
            raise UsageError(f"--scheduler must be 'local' or an address like tcp://host:8786, got {scheduler!r}")
    return BatchOptions(
        jobs=args.jobs, scheduler=scheduler, workers=args.workers, results=args.results, retries=args.retries, warm=warm
    )


def _capped(options: BatchOptions, tasks: int, *, quiet: bool) -> BatchOptions:
    """No more processes on this machine than its cores and the tasks (more only share the cores)."""
    import dataclasses
    import os

    cores = os.cpu_count() or 1
    if options.scheduler == "local":
        want = options.workers or cores
        n = max(1, min(want, cores, tasks))
        if n < want and not quiet:
            print(f"{n} Dask worker(s), not {want}: {cores} core(s), {tasks} task(s)", file=sys.stderr)
        return dataclasses.replace(options, workers=n)
    if options.scheduler is None and options.jobs > 1:
        n = max(1, min(options.jobs, cores, tasks))
        if n < options.jobs and not quiet:
            print(f"{n} worker process(es), not {options.jobs}: {cores} core(s), {tasks} task(s)", file=sys.stderr)
        return dataclasses.replace(options, jobs=n)
    return options


def run_tasks(
    tasks: Sequence[Task],
    fn: TaskFn,
    options: BatchOptions,
    *,
    label: str,
    unit: str,
    solved: Callable[[Mapping[str, Any]], bool] | None = None,
    solved_word: str = "solved",
    quiet: bool = False,
) -> BatchReport:
    """Run the tasks with a progress bar (done/total, solved so far, rate, ETA) on stderr.

    ``solved(result)`` says whether a task's result counts as solved, and ``solved_word``
    what that is called (for the bar's note). After Ctrl-C, one line says what was kept
    and how to resume.
    """
    options = _capped(options, len(tasks), quiet=quiet)
    solved_so_far = 0

    with Progress(label, len(tasks), unit=unit, quiet=quiet) as bar:
        dashboard_said = False

        def progress(report: BatchReport, record: Mapping[str, Any]) -> None:
            nonlocal dashboard_said, solved_so_far
            if report.dashboard and not dashboard_said:
                bar.say(f"Dask dashboard: {report.dashboard}")
                dashboard_said = True
            if record.get("status") == "failed":
                bar.say(f"{record['id']}: failed: {record.get('error', '')}")
            elif solved is not None and solved(record["result"]):
                solved_so_far += 1
            bar.update(report.done, note=f"{solved_word} {solved_so_far}" if solved is not None else None)

        report = run_batch(tasks, fn, options, progress=progress)
    if report.skipped and not quiet:
        print(
            f"{report.skipped} of {report.total} {unit} were already in {options.results}: not run again",
            file=sys.stderr,
        )
    if report.interrupted:
        kept = (
            f"kept in {options.results}; run the same command again to resume"
            if options.results
            else "give --results FILE to keep results and resume"
        )
        print(f"interrupted: {report.done} of {report.total} {unit} done, {kept}", file=sys.stderr)
    return report
