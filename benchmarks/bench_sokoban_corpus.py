"""The Sokoban solver on a broad corpus: a fixed seeded sample of levels of many authors.

    python benchmarks/run.py sokoban_corpus                   # 300 levels, 10 s each, 2 at a time
    python benchmarks/run.py sokoban_corpus --all             # the whole corpus (77 minutes here one at a time)
    python benchmarks/run.py sokoban_corpus --no-write        # print only

The sample is drawn from ``../shared/levels/corpus/`` (eight collections; ``SOURCES.md`` there),
stratified by collection: every collection gets at least ``--floor`` levels (all of it when it
has fewer) and the rest is shared in proportion to the collections' sizes, each collection's
levels drawn at random with ``--seed``. The levels are solved through the command a user runs,
``mazekit sokoban solve --results``, one core each (``--jobs 2``: two levels at a time), so that an
interrupted run resumes where it stopped (``--fresh`` starts over). The report gives solved/total
per collection and overall, and the levels gained and lost against the last run kept in
``benchmarks/sokoban_corpus.json`` (``sokoban_corpus_all.json`` for ``--all``; written with the
section, each its own: a level that flips is worth a second run before it is called lost).

To judge a change, run the base and the change as named variants under the same load:
``--variant base`` keeps its own results file (``corpus-300-2026-10s-base.jsonl``; it resumes
too) and writes neither RESULTS.md nor the last run; ``--against base`` prints, per collection,
the levels gained and lost against that variant's results file.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from _harness import BUILD, command_line, load, machine, write_section

HERE = Path(__file__).resolve().parent
LEVELS = Path(os.environ.get("MAZEKIT_LEVELS", HERE.parents[1] / "shared" / "levels"))
CORPUS = LEVELS / "corpus"
#: The last run's outcome level by level, for the sample and for the whole corpus.
LAST = {False: HERE / "sokoban_corpus.json", True: HERE / "sokoban_corpus_all.json"}
#: Bands of a level's boxes, (label, fewest boxes in the band), for the results by boxes.
BOX_BANDS: list[tuple[str, float]] = [("1-6", 0), ("7-10", 7), ("11-15", 11), ("16-25", 16), ("26-40", 26), ("41+", 41)]


def collections() -> dict[str, list[str]]:
    """Each corpus collection (by file stem) and its levels as XSB text, in file order."""
    from mazekit.sokoban import format_level, parse_levels

    out = {}
    for path in sorted(CORPUS.glob("*.xsb")):
        out[path.stem] = [format_level(lv) for lv in parse_levels(path.read_bytes())]
    return out


def allocate(sizes: dict[str, int], total: int, floor: int) -> dict[str, int]:
    """Levels drawn from each collection: at least ``floor`` (or all of a smaller one), the rest
    in proportion to the sizes left, largest remainders first; ``total`` in all (or every level).

    >>> allocate({"a": 1000, "b": 100, "c": 10}, 60, 20)
    {'a': 29, 'b': 21, 'c': 10}
    """
    if total >= sum(sizes.values()):
        return dict(sizes)
    take = {k: min(n, floor) for k, n in sizes.items()}
    left = total - sum(take.values())
    spare = {k: sizes[k] - take[k] for k in sizes}
    pool = sum(spare.values())
    if left > 0 and pool > 0:
        shares = {k: left * spare[k] / pool for k in sizes}
        extra = {k: int(shares[k]) for k in sizes}
        order = sorted(sizes, key=lambda k: shares[k] - extra[k], reverse=True)
        for k in order[: left - sum(extra.values())]:
            extra[k] += 1
        take = {k: take[k] + min(extra[k], spare[k]) for k in sizes}
    return take


def sample(levels: dict[str, list[str]], total: int, floor: int, seed: int) -> list[tuple[str, int, str]]:
    """``(collection, level number from 1, XSB text)`` of the sample, in collection order."""
    import numpy as np

    rng = np.random.default_rng(seed)
    take = allocate({k: len(v) for k, v in levels.items()}, total, floor)
    out = []
    for name, texts in levels.items():
        picked = sorted(rng.choice(len(texts), size=take[name], replace=False).tolist())
        out.extend((name, i + 1, texts[i]) for i in picked)
    return out


def solve(chosen: list[tuple[str, int, str]], args: argparse.Namespace, results: Path) -> dict[tuple[str, int], dict]:
    """Solve the sample through ``mazekit sokoban solve --results``; each level's record."""
    BUILD.mkdir(exist_ok=True)
    xsb = results.with_suffix(".xsb")
    xsb.write_text("\n\n".join(text for _, _, text in chosen) + "\n")
    cmd = [sys.executable, "-m", "mazekit", "sokoban", "solve", str(xsb), "--level", "all"]
    cmd += ["--time-limit", str(args.time_limit), "--jobs", str(args.jobs), "--results", str(results)]
    if args.jobs == 1:
        cmd += ["--cores", "1"]  # one level at a time would otherwise take all the cores
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)  # progress and summary on stderr
    return read_records(chosen, results)


def read_records(chosen: list[tuple[str, int, str]], results: Path) -> dict[tuple[str, int], dict]:
    """Each level's record in a results file of the sample ``chosen``."""
    records: dict[tuple[str, int], dict] = {}
    for line in results.read_text().splitlines():
        rec = json.loads(line)
        if rec.get("status") == "done":
            name, number, _ = chosen[rec["result"]["level"] - 1]
            records[(name, number)] = rec["result"]
    return records


def table(chosen: list[tuple[str, int, str]], records: dict[tuple[str, int], dict]) -> tuple[str, dict[str, bool]]:
    """The per-collection table and each level's outcome (``collection:number`` -> solved)."""
    rows = ["| collection | solved | levels | share |", "|---|---:|---:|---:|"]
    outcome = {f"{n}:{k}": bool(records.get((n, k), {}).get("solved")) for n, k, _ in chosen}
    names = list(dict.fromkeys(n for n, _, _ in chosen))
    for name in names:
        mine = [v for key, v in outcome.items() if key.rsplit(":", 1)[0] == name]
        rows.append(f"| {name} | {sum(mine)} | {len(mine)} | {sum(mine) / len(mine):.0%} |")
    won = sum(outcome.values())
    rows.append(f"| **all** | **{won}** | **{len(outcome)}** | **{won / len(outcome):.1%}** |")
    return "\n".join(rows), outcome


def changes(outcome: dict[str, bool], setting: str, whole: bool) -> str:
    """The levels gained and lost against the last run of the same setting."""
    if not LAST[whole].exists():
        return "No earlier run to compare with."
    last = json.loads(LAST[whole].read_text())
    if last.get("setting") != setting:
        return f"The last run was another setting ({last.get('setting')}): no comparison."
    before = last["levels"]
    gained = sorted(k for k, v in outcome.items() if v and not before.get(k, False))
    lost = sorted(k for k, v in outcome.items() if not v and before.get(k, False))
    return (
        f"Against the last run ({last.get('commit', '?')}): gained {len(gained)}"
        + (f" ({', '.join(gained)})" if gained else "")
        + f", lost {len(lost)}"
        + (f" ({', '.join(lost)})" if lost else "")
        + "."
    )


def results_file(levels: int, args: argparse.Namespace, variant: str | None) -> Path:
    """The results file of a run of ``levels`` levels (a named variant's its own)."""
    name = f"corpus-{levels}-{args.seed}-{args.time_limit:g}s" + (f"-{variant}" if variant else "")
    return BUILD / f"{name}.jsonl"


def against(outcome: dict[str, bool], other: dict[str, bool], name: str) -> str:
    """The levels gained and lost against another variant's outcome, per collection."""
    lines = [f"Against the variant {name!r}: {sum(other.values())} -> {sum(outcome.values())}"]
    for coll in dict.fromkeys(k.rsplit(":", 1)[0] for k in outcome):
        gained = [k for k, v in outcome.items() if k.startswith(coll + ":") and v and not other.get(k, False)]
        lost = [k for k, v in outcome.items() if k.startswith(coll + ":") and not v and other.get(k, False)]
        if gained or lost:
            lines.append(f"  {coll}: gained {', '.join(gained) or '-'}; lost {', '.join(lost) or '-'}")
    return "\n".join(lines)


def commit() -> str:
    proc = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE)
    return proc.stdout.strip() or "unknown"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=300, help="levels in the sample (default 300)")
    ap.add_argument("--all", action="store_true", help="every level of the corpus")
    ap.add_argument("--floor", type=int, default=20, help="at least this many levels a collection (default 20)")
    ap.add_argument("--seed", type=int, default=2026, help="the sample's seed (default 2026)")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds a level (default 10)")
    ap.add_argument("--jobs", type=int, default=2, help="levels at a time, one core each (default 2)")
    ap.add_argument("--fresh", action="store_true", help="start over instead of resuming the results file")
    ap.add_argument("--no-write", action="store_true", help="print only; RESULTS.md and the last run stay")
    ap.add_argument("--variant", help="a named variant: its own results file; implies --no-write")
    ap.add_argument("--against", help="print the levels gained and lost against this variant's results file")
    args = ap.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"sokoban_corpus: no corpus at {CORPUS} (set MAZEKIT_LEVELS)", file=sys.stderr)
        return 2
    if args.sample < 1 or args.floor < 0 or args.time_limit <= 0 or args.jobs < 1:
        print("sokoban_corpus: --sample, --jobs and --time-limit must be positive, --floor at least 0", file=sys.stderr)
        return 2
    levels = collections()
    total = sum(len(v) for v in levels.values()) if args.all else args.sample
    chosen = sample(levels, total, args.floor, args.seed)
    setting = (
        f"{len(chosen)} levels, seed {args.seed}, floor {args.floor}, {args.time_limit:g} s, one core each, "
        f"{args.jobs} at a time"
    )
    results = results_file(len(chosen), args, args.variant)
    if args.fresh and results.exists():
        results.unlink()
    load_before = load()
    t0 = time.perf_counter()
    records = solve(chosen, args, results)
    wall = time.perf_counter() - t0
    body, outcome = table(chosen, records)
    print(body)
    compared = changes(outcome, setting, args.all)
    print(compared)
    if args.against is not None:
        other = results_file(len(chosen), args, args.against)
        if not other.exists():
            print(f"sokoban_corpus: no results file {other}", file=sys.stderr)
            return 2
        print(against(outcome, table(chosen, read_records(chosen, other))[1], args.against))
    if args.no_write or args.variant:
        return 0
    run = {
        "setting": setting,
        "command": command_line("benchmarks/run.py sokoban_corpus", argv),
        "commit": commit(),
        "date": time.strftime("%Y-%m-%d"),
        "load": load_before,
        "minutes": round(wall / 60),
        "compared": compared,
        "levels": outcome,
    }
    LAST[args.all].write_text(json.dumps(run, indent=0) + "\n")
    write_section("sokoban_corpus", "Sokoban solver on a broad corpus", section())
    return 0


def band_of(value: float, bands: list[tuple[str, float]] = BOX_BANDS) -> str:
    """The label of the band ``value`` falls in: the last of ``bands`` ((label, lowest value), in
    rising order) whose lowest value it reaches, the first if none (default: a level's boxes).

    >>> band_of(6), band_of(16), band_of(90)
    ('1-6', '16-25', '41+')
    """
    label = bands[0][0]
    for name, low in bands:
        if value >= low:
            label = name
    return label


def box_bands() -> dict[str, str]:
    """Each corpus level's band of boxes, by ``collection:number``."""
    from mazekit.sokoban import parse_level

    return {
        f"{name}:{k}": band_of(len(parse_level(text).start.boxes))
        for name, texts in collections().items()
        for k, text in enumerate(texts, 1)
    }


def section() -> str:
    """The results page's section: the sample's and the whole corpus's last runs side by side."""
    runs = [json.loads(LAST[w].read_text()) for w in (False, True) if LAST[w].exists()]
    names = sorted({key.rsplit(":", 1)[0] for r in runs for key in r["levels"]})
    heads = ["sample" if len(r["levels"]) < 1000 else "whole corpus" for r in runs]
    rows = ["| collection | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(runs)]

    def cell(levels: dict[str, bool]) -> str:
        won = sum(levels.values())
        return f"{won}/{len(levels)} ({won / len(levels):.0%})" if levels else "-"

    for name in names:
        mine = [{k: v for k, v in r["levels"].items() if k.rsplit(":", 1)[0] == name} for r in runs]
        rows.append(f"| {name} | " + " | ".join(cell(m) for m in mine) + " |")
    rows.append("| **all** | " + " | ".join(f"**{cell(r['levels'])}**" for r in runs) + " |")
    rows += ["", "| boxes | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(runs)]
    band = box_bands()
    for label, _ in BOX_BANDS:
        mine = [{k: v for k, v in r["levels"].items() if band.get(k) == label} for r in runs]
        rows.append(f"| {label} | " + " | ".join(cell(m) for m in mine) + " |")
    lines = [
        f"- {head}: `{r['command']}` at {r['commit']}, {r['date']}, {r['minutes']} min; {r['setting']}; "
        f"{r['load']} before. {r['compared']}"
        for head, r in zip(heads, runs, strict=True)
    ]
    return (
        f"{machine()}. Levels of eight collections (`../shared/levels/corpus/`), solved through "
        "`mazekit sokoban solve --results` at 10 s a level, one core each: by collection, then by the "
        "boxes a level has.\n\n" + "\n".join(rows) + "\n\n" + "\n".join(lines) + "\n"
    )


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
