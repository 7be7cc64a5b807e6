"""``python -m mazekit``."""

from mazekit.cli import run

run()
