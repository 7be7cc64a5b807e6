"""The probes here import ``bench_sokoban`` from their own folder: this hands them the benchmark
one folder up (``benchmarks/bench_sokoban.py``, and through it ``_harness``), loaded once."""

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
del sys.modules[__name__]
sys.modules[__name__] = importlib.import_module(__name__)
