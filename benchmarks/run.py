"""Run one benchmark: ``python benchmarks/run.py NAME [options]``.

``NAME`` selects ``benchmarks/bench_NAME.py`` (``search``, ``generate``, ...), whose
``main(argv)`` does the work and writes its section of ``benchmarks/RESULTS.md``.
``python benchmarks/run.py --list`` lists them; ``NAME --help`` shows its options.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def available() -> list[str]:
    return sorted(p.stem[len("bench_") :] for p in HERE.glob("bench_*.py"))


def main(argv: list[str]) -> int:
    names = available()
    if not argv or argv[0] in ("-h", "--help", "--list"):
        print(__doc__.strip())
        print("\navailable:", ", ".join(names))
        return 0
    name = argv[0]
    if name not in names:
        print(f"run.py: unknown benchmark {name!r}; choose from {', '.join(names)}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(HERE))
    module = importlib.import_module(f"bench_{name}")
    if inspect.signature(module.main).parameters:
        return int(module.main(argv[1:]))
    sys.argv = [str(HERE / f"bench_{name}.py"), *argv[1:]]  # a main() that reads sys.argv itself
    return int(module.main() or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
