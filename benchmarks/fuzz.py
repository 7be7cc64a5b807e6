"""Coverage-guided fuzzing of mazekit's readers with atheris (libFuzzer for Python).

    pip install -e '.[fuzz]'                      # atheris
    python benchmarks/fuzz.py --list              # the readers
    python benchmarks/fuzz.py grid --runs 1000000 # one reader: a million inputs
    python benchmarks/fuzz.py --report            # write the "fuzz" section of RESULTS.md

Each reader is a target of ``tests/fuzz/readers.py`` (the table the test suite's
Hypothesis fuzz uses too): it accepts an answer, or the refusal the reader
promises (an ``InputError`` of one line; for the playground's API a 400 with a
one-line error), and raises on anything else. The run starts from the reader's
valid examples (``src/mazekit/examples``, ``tests/data``), keeps its corpus in
``benchmarks/_build/fuzz/corpus/READER`` (so a second run goes on from the
first), and writes its figures (inputs run, time, coverage edges, crashes) to
``benchmarks/_build/fuzz/READER.json``; ``--report`` turns those into the
RESULTS.md section.

mazekit is instrumented (only mazekit: numpy and the standard library are not),
and kernels run as plain Python (``MAZEKIT_JIT=never``): numba cannot compile
the instrumented bytecode, and the fuzzer sees the kernels' branches that way.
``--compiled-kernels`` leaves the ``_kernels`` modules uninstrumented instead and
lets numba compile them: for a reader whose inputs build levels of millions of
cells (the Sokoban reader's run-length rows), where a plain-Python flood of each
takes a second and the fuzzer would spend its time there rather than in the reader.

A crash stops the run (libFuzzer's way) and leaves the input in
``benchmarks/_build/fuzz/crash-*``; ``--keep-going`` records each distinct
failure (its type and the line that raised it) with its first input in
``benchmarks/_build/fuzz/READER.failures`` and goes on.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "_build" / "fuzz"

#: Tokens that help the mutator build each reader's inputs (libFuzzer dictionaries).
TOKENS: dict[str, list[str]] = {
    "common": [
        "\r\n",
        "\n",
        "\r",
        " ",
        "\t",
        "\x00",
        "\xff",
        "\ufeff",
        "99999999",
        "-1",
        "0",
        "1",
        "65536",
        "2147483648",
    ],
    "grid": ["0", "1", ".", "#", "S", "G", "E", "x", "X", "O", "1 0", "99999999 99999999"],
    "robot": ["4 7 1 3 2 6", "99999999 99999999 1 1 1 1", "1001000"],
    "forest": ["5 5", "XXXXX", "XEOOX", "99999999 99999999"],
    "universal": ["x", "0x", "0011010011"],
    "mines": ["5 6 5 1", ".", "*", "..*...", "99999999 99999999 1 1"],
    "sokoban": ["#", "@", "+", "$", "*", ".", "-", "_", "|", "99999", "100000", "; ", "Title: ", "#####", "#@$.#"],
    "assignment": ["#", "@", "o", "x", "^", "v", "<", ">", "####################"],
    "load_levels": ["#", "@", "$", ".", "o", "x", "^", ">", "|", "5#", "####################"],
    "lurd": ["u", "d", "l", "r", "U", "D", "L", "R", " "],
    "api": [
        '"grid"',
        '"start"',
        '"goal"',
        '"text"',
        '"level"',
        '"moves"',
        '"id":"GAME"',
        '"rows"',
        '"cols"',
        '"mines"',
        '"seed"',
        '"algorithm"',
        '"commands"',
        '"method"',
        '"time_limit"',
        '"collection"',
        '"index"',
        '"action"',
        '"cell"',
        '"article"',
        '"example"',
        "null",
        "true",
        "false",
        "NaN",
        "Infinity",
        "1e308",
        "[",
        "]",
        "{",
        "}",
        "\\u0000",
        "\\n",
    ],
}
TOKENS["api_solve"] = TOKENS["api"] + TOKENS["sokoban"]


#: The modules the readers run, imported (and so instrumented) before the fuzzing starts.
INSTRUMENTED = [
    "mazekit.grid",
    "mazekit.search",
    "mazekit.universal",
    "mazekit.minesweeper",
    "mazekit.sokoban",
    "mazekit.sokoban.assignment",
    "mazekit.sokoban.rules",
    "mazekit.cli.forest",
    "mazekit.cli.mines",
    "mazekit.cli.robot",
    "mazekit.cli.sokoban",
]
WEB = [
    "mazekit.web",
    "mazekit.web.api._common",
    "mazekit.web.api.maze",
    "mazekit.web.api.mines",
    "mazekit.web.api.search",
    "mazekit.web.api.sokoban",
    "mazekit.web.api.universal",
]


def _readers() -> object:
    sys.path.insert(0, str(ROOT))
    from tests.fuzz import readers

    return readers


def _kernel_modules() -> list[str]:
    """The modules of mazekit's compiled loops (``mazekit/**/_kernels.py``)."""
    src = ROOT / "src"
    return [".".join(p.relative_to(src).with_suffix("").parts) for p in sorted(src.glob("mazekit/**/_kernels.py"))]


def child(args: argparse.Namespace) -> int:
    """Run atheris in this process (it exits the process when done)."""
    import atheris

    exclude: list[str] = []
    if args.compiled_kernels:
        exclude = _kernel_modules()  # left uninstrumented, so numba can compile them
    else:
        os.environ["MAZEKIT_JIT"] = "never"
    sys.path.insert(0, str(ROOT))
    with atheris.instrument_imports(include=["mazekit"], exclude=exclude):
        for name in INSTRUMENTED + (WEB if args.reader.startswith("api") else []):
            importlib.import_module(name)  # imported here, instrumented; later imports are not
    from tests.fuzz import readers

    target = readers.READERS[args.reader].target
    failures: dict[str, str] = {}
    fail_path = OUT / f"{args.reader}.failures"

    def one(data: bytes) -> None:
        if not args.keep_going:
            target(data)
            return
        try:
            target(data)
        except Exception as exc:  # record each distinct failure once, go on
            frames = [
                f for f in traceback.extract_tb(exc.__traceback__) if "mazekit" in f.filename
            ] or traceback.extract_tb(exc.__traceback__)
            where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}"
            key = f"{type(exc).__name__} at {where}"
            if key not in failures:
                failures[key] = data.hex()
                with open(fail_path, "a") as fh:
                    fh.write(json.dumps({"failure": key, "message": str(exc)[:300], "input": data.hex()}) + "\n")

    if args.reader.startswith("api"):
        readers.api_target(readers.api_seed("/api/search"))  # start the app before the clock
    if args.reader == "api_solve":
        # and the solver: with --compiled-kernels its first run compiles the search (a minute)
        readers.api_solve_target(readers.api_seed(readers.SOLVE))
    argv = [
        sys.argv[0],
        f"-runs={args.runs}",
        f"-max_len={args.max_len}",
        f"-timeout={args.timeout}",
        f"-rss_limit_mb={args.rss_mb}",
        f"-dict={args.dict}",
        f"-artifact_prefix={OUT}/",
        "-print_final_stats=1",
        *([f"-max_total_time={args.max_time}"] if args.max_time else []),
        args.corpus,
        args.seeds,
    ]
    atheris.Setup(argv, one)
    atheris.Fuzz()
    return 0


def _prepare(reader: str) -> tuple[Path, Path, Path]:
    readers = _readers()
    seeds = OUT / "seeds" / reader
    corpus = OUT / "corpus" / reader
    seeds.mkdir(parents=True, exist_ok=True)
    corpus.mkdir(parents=True, exist_ok=True)
    for i, data in enumerate(readers.seeds(reader)):  # type: ignore[attr-defined]
        (seeds / f"seed-{i}").write_bytes(data)
    words = TOKENS["common"] + TOKENS.get(reader, [])
    dictionary = OUT / f"{reader}.dict"
    dictionary.write_text("".join(f'"{_dict_escape(w)}"\n' for w in words))
    return seeds, corpus, dictionary


def _dict_escape(word: str) -> str:
    """A token as libFuzzer's dictionary syntax writes it: printable ASCII, else ``\\xNN``."""
    return "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\x{b:02x}" for b in word.encode())


def parent(args: argparse.Namespace) -> int:
    """Run the fuzzer in a child process and record what it reports."""
    seeds, corpus, dictionary = _prepare(args.reader)
    log_path = OUT / f"{args.reader}.log"
    cmd = (
        [
            sys.executable,
            __file__,
            args.reader,
            "--child",
            f"--runs={args.runs}",
            f"--max-len={args.max_len}",
            f"--timeout={args.timeout}",
            f"--rss-mb={args.rss_mb}",
            f"--dict={dictionary}",
            f"--corpus={corpus}",
            f"--seeds={seeds}",
        ]
        + (["--keep-going"] if args.keep_going else [])
        + (["--compiled-kernels"] if args.compiled_kernels else [])
        + ([f"--max-time={args.max_time}"] if args.max_time else [])
    )
    (OUT / f"{args.reader}.failures").unlink(missing_ok=True)
    t0 = time.time()
    with open(log_path, "wb") as log:
        status = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    seconds = time.time() - t0
    text = log_path.read_text(errors="replace")
    done = re.findall(r"Done (\d+) runs in (\d+) second", text)
    stats = re.findall(r"#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/", text)
    runs = int(done[-1][0]) if done else (int(stats[-1][0]) if stats else 0)
    fail_file = OUT / f"{args.reader}.failures"
    failures = [json.loads(line) for line in fail_file.read_text().splitlines()] if fail_file.exists() else []
    crash = None
    if status != 0:
        m = re.search(r"(Test unit written to \S+)", text)
        tail = "\n".join(text.splitlines()[-40:])
        crash = (m.group(1) if m else "") + "\n" + tail
    record = {
        "reader": args.reader,
        "runs": runs,
        "requested": args.runs,
        "seconds": round(seconds, 1),
        "cov": int(stats[-1][1]) if stats else None,
        "ft": int(stats[-1][2]) if stats else None,
        "corpus": int(stats[-1][3]) if stats else None,
        "status": status,
        "failures": failures,
        "stopped_by_time": bool(args.max_time) and runs < args.runs and status == 0,
        "crash": crash,
        "max_len": args.max_len,
        "kernels": "compiled" if args.compiled_kernels else "python",
        "when": time.strftime("%Y-%m-%d %H:%M"),
        "load": os.getloadavg()[0],
    }
    if not stats:
        print(f"{args.reader}: atheris reported no coverage: mazekit was not instrumented", file=sys.stderr)
        return 1
    (OUT / f"{args.reader}.json").write_text(json.dumps(record, indent=1))
    print(
        f"{args.reader}: {runs} inputs in {seconds:.0f} s, cov {record['cov']}, status {status}, "
        f"{len(failures)} distinct failure(s)" + (f"\n{crash}" if crash else "")
    )
    return 0 if status == 0 and not failures else 1


def report(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(HERE))
    from _harness import machine, write_section

    names = list(_readers().READERS)  # type: ignore[attr-defined]
    rows = []
    for name in names:
        path = OUT / f"{name}.json"
        if not path.exists():
            rows.append(f"| {name} | not run | | | | |")
            continue
        r = json.loads(path.read_text())
        found = (
            "none"
            if not r["failures"] and not r["crash"]
            else "; ".join(f["failure"] for f in r["failures"]) or "a crash (see the log)"
        )
        rate = r["runs"] / r["seconds"] if r["seconds"] else 0
        mark = " (kernels compiled)" if r.get("kernels") == "compiled" else ""
        rows.append(
            f"| {name}{mark} | {r['runs']:,} | {r['seconds'] / 60:.1f} min ({rate:,.0f}/s) | {r['cov']} | "
            f"{r['corpus']} | {found} |"
        )
    body = "\n".join(
        [
            f"Command: `python benchmarks/fuzz.py READER --runs 1000000 --keep-going` for each reader, then "
            f"`python benchmarks/fuzz.py --report`. atheris {_atheris_version()}, inputs up to 4096 bytes, "
            f"mazekit instrumented and its kernels run as plain Python (rows marked *kernels compiled*: "
            f"run with `--compiled-kernels`, the `_kernels` modules left uninstrumented and compiled by numba); "
            f"{machine()}.",
            "",
            "Each input must get an answer or the refusal the reader promises (an `InputError` whose "
            "message is one line; a 400 with a one-line `error` from the API); a hang over "
            "20 s or 2 GB of memory counts as a crash. *edges* is atheris' coverage count (`cov`) at the end; "
            "*corpus* the inputs it kept.",
            "",
            "| reader | inputs | time | edges | corpus | failures left |",
            "| --- | ---: | ---: | ---: | ---: | --- |",
            *rows,
            "",
            args.notes or "",
        ]
    )
    write_section("fuzz", "Fuzzing the readers", body)
    print(body)
    return 0


def _atheris_version() -> str:
    try:
        from importlib.metadata import version

        return version("atheris")
    except Exception:
        return "?"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("reader", nargs="?", help="the reader to fuzz (see --list)")
    p.add_argument("--runs", type=int, default=1_000_000, help="inputs to run (default 1000000)")
    p.add_argument("--max-len", type=int, default=4096, help="longest input in bytes (default 4096)")
    p.add_argument("--timeout", type=int, default=20, help="seconds an input may take (default 20)")
    p.add_argument("--rss-mb", type=int, default=2048, help="memory limit in MB (default 2048)")
    p.add_argument("--max-time", type=int, help="stop after this many seconds even if fewer inputs have run")
    p.add_argument("--keep-going", action="store_true", help="record failures and go on instead of stopping")
    p.add_argument(
        "--compiled-kernels",
        action="store_true",
        help="leave the _kernels modules uninstrumented and compiled (for readers whose inputs build big levels)",
    )
    p.add_argument("--list", action="store_true", help="list the readers")
    p.add_argument("--report", action="store_true", help="write the RESULTS.md section from the recorded runs")
    p.add_argument("--notes", help="a paragraph to put under the table (with --report)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--dict", help=argparse.SUPPRESS)
    p.add_argument("--corpus", help=argparse.SUPPRESS)
    p.add_argument("--seeds", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    if args.child:  # before anything imports mazekit: modules imported earlier are not instrumented
        return child(args)
    if args.list:
        print("\n".join(_readers().READERS))  # type: ignore[attr-defined]
        return 0
    if args.report:
        return report(args)
    if args.reader not in _readers().READERS:  # type: ignore[attr-defined]
        p.error(f"unknown reader {args.reader!r}; see --list")
    return parent(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
