"""Which kinds of corpus level the solver misses: a results file of ``run.py sokoban_corpus`` cut
by what a level is.

``python benchmarks/probes/corpus_misses.py [--all] [--variant NAME] [--collection sven_1623]``

reads the results file of the sample (or with ``--all`` of the whole corpus; a named variant's
with ``--variant``) and prints, for three measures of a level, solved/total in bands of it: its
boxes; the share of its boxes that start on goals (the "picture" levels, whose boxes must leave
their goals and come back, start near 100%); and its largest goal area (4-connected goals, the
areas the feature-space search packs in order). ``--collection`` keeps one collection's levels.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from mazekit.search import label

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench_sokoban_corpus import BOX_BANDS, band_of, collections, read_records, results_file, sample  # noqa: E402

#: Each measure: its name and its bands, (label, lowest value in the band), in rising order.
BANDS: dict[str, list[tuple[str, float]]] = {
    "boxes": BOX_BANDS,
    "boxes on goals at the start": [("none", 0), ("under 50%", 1e-9), ("50-90%", 0.5), ("90%+", 0.9)],
    "largest goal area": [("1 (goals apart)", 0), ("2-8", 2), ("9-16", 9), ("17-32", 17), ("33-64", 33), ("65+", 65)],
}


def largest_area(goals: NDArray[np.bool_]) -> int:
    """The most goals in one 4-connected group of the goal cells ``goals`` (a mask)."""
    labels, n = label(goals)
    return int(np.bincount(labels.ravel())[1:].max()) if n else 0


def measures(text: str) -> dict[str, float]:
    """A level's value of each measure of :data:`BANDS`."""
    from mazekit.sokoban import parse_level

    level = parse_level(text)
    goals = {int(g) for g in level.goal_cells}
    boxes = {int(b) for b in level.start.boxes}
    return {
        "boxes": len(boxes),
        "boxes on goals at the start": len(boxes & goals) / max(1, len(boxes)),
        "largest goal area": largest_area(level.goals),
    }


def report(rows: list[tuple[dict[str, float], bool]], name: str) -> str:
    """One measure's table: solved, levels and share in each band, with the misses."""
    counts: dict[str, list[int]] = {label: [0, 0] for label, _ in BANDS[name]}
    for values, solved in rows:
        label = band_of(values[name], BANDS[name])
        counts[label][0] += solved
        counts[label][1] += 1
    lines = [f"| {name} | solved | levels | share | missed |", "|---|---:|---:|---:|---:|"]
    for label, (won, total) in counts.items():
        if total:
            lines.append(f"| {label} | {won} | {total} | {won / total:.0%} | {total - won} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="the whole corpus's results file, not the sample's")
    ap.add_argument("--variant", help="a named variant's results file")
    ap.add_argument("--collection", help="only this collection's levels (its file stem, e.g. sven_1623)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--floor", type=int, default=20)
    ap.add_argument("--sample", type=int, default=300)
    ap.add_argument("--time-limit", type=float, default=10.0)
    args = ap.parse_args(argv)
    levels = collections()
    total = sum(len(v) for v in levels.values()) if args.all else args.sample
    chosen = sample(levels, total, args.floor, args.seed)
    path = results_file(len(chosen), args, args.variant)
    if not path.exists():
        print(f"corpus_misses: no results file {path} (run benchmarks/run.py sokoban_corpus first)", file=sys.stderr)
        return 2
    if args.collection is not None and args.collection not in levels:
        print(f"corpus_misses: no collection {args.collection!r} (one of {', '.join(levels)})", file=sys.stderr)
        return 2
    records = read_records(chosen, path)
    rows = [
        (measures(text), bool(records.get((name, number), {}).get("solved")))
        for name, number, text in chosen
        if args.collection in (None, name) and (name, number) in records
    ]
    won = sum(solved for _, solved in rows)
    print(f"{path.name}: {won}/{len(rows)} solved" + (f" ({args.collection})" if args.collection else ""))
    for name in BANDS:
        print()
        print(report(rows, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
