"""Levels with their idle boxes frozen: does a level of many boxes on goals solve when the boxes
far from the work cannot move?

``python benchmarks/probes/frozen_boxes.py LEVELS.xsb --min-share 0.5 --reach 1 2 3 5 --out DIR``

For each level of ``LEVELS.xsb`` whose share of boxes on goals at the start is at least
``--min-share``, and each reach ``d``, writes ``DIR/frozen-d{d}.xsb``: the level with every box on
a goal that is more than ``d`` steps (over the floor, boxes ignored) from a box off its goal or an
empty goal turned into a wall (the goal with it). A solution of such a level is a solution of the
original: the frozen boxes never move, and the grid is the same. Solve the files with
``mazekit sokoban solve DIR/frozen-d2.xsb --time-limit 3 --jobs 2 --results R``; a title reads
``original title|d|frozen N``.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

from mazekit.sokoban.formats import format_level, parse_levels

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def frozen(text: str, reach: int) -> tuple[str, int]:
    """The level ``text`` (XSB rows) with the boxes on goals beyond ``reach`` as walls, and how many."""
    rows = [list(r) for r in text.split("\n") if r]
    width = max(len(r) for r in rows)
    for r in rows:
        r.extend(" " * (width - len(r)))
    work = [(y, x) for y, r in enumerate(rows) for x, c in enumerate(r) if c in "$.+"]
    dist = dict.fromkeys(work, 0)
    todo = collections.deque(work)
    while todo:
        y, x = todo.popleft()
        for dy, dx in STEPS:
            n = (y + dy, x + dx)
            if 0 <= n[0] < len(rows) and 0 <= n[1] < width and rows[n[0]][n[1]] != "#" and n not in dist:
                dist[n] = dist[(y, x)] + 1
                todo.append(n)
    count = 0
    for y, r in enumerate(rows):
        for x, c in enumerate(r):
            if c == "*" and dist.get((y, x), reach + 1) > reach:
                r[x] = "#"
                count += 1
    return "\n".join("".join(r).rstrip() for r in rows), count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("levels", type=Path)
    ap.add_argument("--min-share", type=float, default=0.5, help="least share of boxes on goals at the start")
    ap.add_argument("--reach", type=int, nargs="+", default=[1, 2, 3, 5])
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    chosen = []
    for level in parse_levels(args.levels.read_text()):
        text = format_level(level)
        boxes = text.count("$") + text.count("*")
        if boxes and text.count("*") / boxes >= args.min_share:
            chosen.append((level.title, text))
    args.out.mkdir(parents=True, exist_ok=True)
    for d in args.reach:
        with open(args.out / f"frozen-d{d}.xsb", "w") as f:
            for title, text in chosen:
                level, count = frozen(text, d)
                f.write(f"{level}\nTitle: {title}|{d}|frozen {count}\n\n")
    print(f"{len(chosen)} levels, reaches {args.reach}: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
