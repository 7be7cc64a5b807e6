"""Every figure the README quotes is read from ``benchmarks/RESULTS.md``, so the two cannot drift.

Each check reads a figure from one section of the results page (between its BEGIN/END markers),
builds the phrase the README must hold from it, and looks for that phrase in the README (white
space collapsed). When a benchmark is run again and its figure changes, the README's phrase no
longer matches and the check names both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
README = ROOT / "README.md"


def section(key: str) -> str:
    """The text of one section of the results page, between its markers."""
    text = RESULTS.read_text()
    begin, end = f"<!-- BEGIN {key} -->", f"<!-- END {key} -->"
    assert begin in text and end in text, f"RESULTS.md has no section {key!r}"
    return text.split(begin, 1)[1].split(end, 1)[0]


def readme() -> str:
    return " ".join(README.read_text().split())


def row(key: str, first: str) -> list[str]:
    """The cells of the table row of section ``key`` whose first cell is ``first``."""
    for line in section(key).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in section {key!r}")


def num(pattern: str, key: str) -> float:
    """The number captured by ``pattern`` in section ``key``."""
    m = re.search(pattern, section(key))
    assert m, f"{pattern!r} not found in section {key!r}"
    return float(m.group(1).replace(",", ""))


def seconds(cell: str) -> float:
    """A time cell of the results page (``2.58 ms``, ``1.28 s``) in seconds."""
    value, unit = cell.split()[:2]
    return float(value) * (1e-3 if unit == "ms" else 1.0)


def span(values: list[float], fmt: str = "{:.1f}") -> str:
    """``lo-hi`` of the values as the README writes a range (one value when they round alike)."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return lo if lo == hi else f"{lo}-{hi}"


def solved(collection: str) -> str:
    return row("sokoban", collection)[1]


def sokoban() -> list[str]:
    one_core = re.search(r"xsokoban \*\*(\d+/90)\*\*", section("sokoban"))
    assert one_core, "the one-core XSokoban figure is missing from the Sokoban section"
    return [
        f"Microban {solved('microban')} and Microban II {solved('microban_ii')} at 10 s per level",
        f"Boxoban hard {solved('boxoban')}",
        f"XSokoban {solved('xsokoban')} at 60 s per level on two cores ({one_core.group(1)} on one",
        f"all {solved('generated').split('/')[0]} at 10x10 with 4 boxes and {solved('generated_large').split('/')[0]}"
        " of 100 at 20x20",
        f"XSokoban's solved levels take a median {row('sokoban', 'xsokoban')[6].removesuffix(' s')} s here",
    ]


def optimiser() -> list[str]:
    def cut(first: str) -> float:
        return abs(float(re.search(r"\((-[\d.]+)%\)", row("optimise", first)[4])[1]))  # type: ignore[index]

    xs = row("optimise", "XSokoban's reference solutions (shared, not optimal)")
    micro = "the solver's on Microban (fast mode, 10 s)"
    gen = "the generator's (200 levels, 10x10, 4 boxes)"
    return [
        f"solver's Microban solutions lose {cut(micro):.0f}% of their moves, the generator's {cut(gen):.0f}%",
        f"XSokoban that come with the shared collections {cut(xs[0])}% ({xs[2]} of {xs[1]} shortened)",
    ]


def minesweeper() -> list[str]:
    boards = ("beginner 9x9/10", "intermediate 16x16/40", "expert 30x16/99")

    def cells(board: str, rule: str) -> list[str]:
        for line in section("mines").splitlines():
            found = [c.strip() for c in line.strip().strip("|").split("|")]
            if found[:2] == [board, rule]:
                return found
        raise AssertionError(f"no {board} {rule} row")

    def rate(board: str, rule: str) -> str:
        return str(Decimal(cells(board, rule)[3].rstrip("%")).quantize(Decimal("0.1"), ROUND_HALF_UP))

    def best(board: str, rule: str) -> str:
        return cells(board, rule)[5].split(" (")[0].rstrip("%")  # "41% (JSMinesweeper)"

    expert, small = cells(boards[2], "safe")[2], cells(boards[0], "safe")[2]  # games (both seeds)
    return [
        f"({expert} expert games per rule, {small} beginner and intermediate) it wins "
        + " / ".join(f"{rate(b, 'safe')}%" for b in boards)
        + " (safe first click in the corner) and "
        + " / ".join(f"{rate(b, 'zero')}%" for b in boards)
        + " (first click opening an area at (2, 2))",
        "beside the best published "
        + " / ".join(best(b, "safe") for b in boards)
        + "% and "
        + " / ".join(best(b, "zero") for b in boards)
        + "%",
    ]


def minesweeper_peer() -> list[str]:
    """The two solvers on the same boards, both seeds together (the section's first table)."""

    def rates(rule: str) -> tuple[str, str]:
        for line in section("mines_peer").splitlines():
            found = [c.strip() for c in line.strip().strip("|").split("|")]
            if found[1:3] == [rule, "61, 1206"]:
                pair = [Decimal(found[i].split("%")[0]).quantize(Decimal("0.1"), ROUND_HALF_UP) for i in (4, 5)]
                return str(pair[0]), str(pair[1])
        raise AssertionError(f"no {rule} row of both seeds")

    (ours_s, peer_s), (ours_z, peer_z) = rates("safe"), rates("zero")
    return [f"wins {peer_s}% and {peer_z}%, mazekit {ours_s}% and {ours_z}%"]


def sokoban_corpus() -> list[str]:
    """The whole corpus (the last column of the section's tables): all levels, the levels of up
    to 10 boxes (two bands together) and those of more than 40."""

    def whole(first: str) -> tuple[int, int]:
        got, total = row("sokoban_corpus", first)[2].strip("*").split()[0].split("/")
        return int(got), int(total)

    solved_all, total_all = whole("**all**")
    small = [whole("1-6"), whole("7-10")]
    s_got, s_total = sum(g for g, _ in small), sum(t for _, t in small)
    big_got, big_total = whole("41+")
    return [
        f"{solved_all:,} of the {total_all:,} levels of eight other authors' collections at 10 s on one core",
        f"all but {s_total - s_got} of the {s_total:,} levels of up to 10 boxes, {big_got} of the {big_total} of more",
    ]


def universal() -> list[str]:
    r10, r12, r16 = (row("universal_quality", f"{n}x{n}") for n in (10, 12, 16))
    assert r10[5].startswith("100/100") and r12[5].startswith("100/100"), "not every 10x10 or 12x12 string proved"
    return [
        f"it proves every string shortest within 10 s (median {r10[6]} and {r12[6]})",
        f"on 16x16, {r16[5].split('/')[0]} of 100, the median length / lower bound {r16[3]} and the worst {r16[4]}",
    ]


def playground() -> list[str]:
    api = [seconds(row("web", alg)[2]) * 1000 for alg in ("bfs", "astar", "dijkstra", "dfs")]
    fps = num(r"watched for \d+ s: ([\d.]+) frames/s", "web")
    page = num(r"DOMContentLoaded (\d+) ms", "web")
    return [
        f"`/search` loads in {page:.0f} ms",
        f"`/api/search` on a 300x300 grid answers in {span(api, '{:.0f}')} ms",
        f"the animation holds {fps:.0f} frames/s",
    ]


def first_run() -> list[str]:
    solve = row("first_run", "`mazekit sokoban solve slow.xsb --time-limit 3` (38 boxes), wall")
    at10 = row("first_run", "playground: a Solve asked 10 s after the start, answered at")

    def s(cell: str) -> str:
        return f"{seconds(cell):.0f} s"

    # columns: before and after, idle, then before and after beside two busy processes
    return [
        f"a Solve asked 10 s after the start answers at {s(at10[2])}; at {s(at10[4])} with two other busy"
        f" processes on the machine, against {s(at10[3])} when the warm-up ran at a low priority",
        f"38-box level from an empty cache: {s(solve[2])} wall, {s(solve[4])} beside two busy processes",
    ]


def startup() -> list[str]:
    robot = row("startup", "`python -m mazekit robot < robot_example.in`")
    numpy_ = row("startup", "`python -c 'import numpy'`")
    forests = [
        float(cells[1].removesuffix(" s"))
        for line in section("startup").splitlines()
        if "SciPy hidden" in line and (cells := [c.strip() for c in line.strip().strip("|").split("|")])
    ]
    assert forests, "no forest rows in the start-up section"
    return [
        f"runs in {float(robot[1].removesuffix(' s')):.2f} s for the whole process"
        f" ({float(numpy_[1].removesuffix(' s')):.2f} s of it importing NumPy)",
        f"a 2000x2000 forest in {span(forests)} s",
    ]


def search() -> list[str]:
    def target(key: str, grid: str, what: str, pattern: str) -> float:
        for line in section(key).splitlines():
            if line.startswith(f"- {grid}, {what}"):
                m = re.search(pattern, line)
                assert m, (pattern, line)
                return seconds(m.group(1)) * 1000 if " ms" in m.group(1) else float(m.group(1))
        raise AssertionError(f"no target line {grid}, {what} in {key!r}")

    grids = ("open 4000x4000", "maze 3999x3999")
    bfs = target("search", grids[0], "BFS distances", r"mazekit / C = \*\*([\d.]+)x")
    tcod = [target("search", g, "BFS distances", r"at ([\d.]+)x mazekit") for g in grids]
    ours = [target("search", g, "pair path", r"astar/bfs\) ([\d.]+ m?s)") for g in grids]
    peer = [target("search", g, "pair path", r"`astar_path` ([\d.]+ m?s)") for g in grids]
    flood = [target("flood", g, "flood", r"best C fill = \*\*([\d.]+)x") for g in grids]
    cv = [target("flood", g, "flood", r"at ([\d.]+)x mazekit") for g in grids]
    lab = [target("flood", g, "labels", r"mazekit = \*\*([\d.]+)x") for g in grids]
    colds = [
        seconds(row(key, name)[i])
        for key, names in (("search", ("**mazekit** `bfs_distances`",)), ("flood", ("**mazekit** `flood`",)))
        for name in names
        for i in (2, 4, 6, 8)
    ]
    return [
        f"| BFS distances to every cell | {bfs:.2f}x the C loop's time | tcod: {span(tcod)}x slower than mazekit |",
        f"| single-pair shortest path | {ours[0]:.0f} ms (open), {ours[1]:.0f} ms (maze) | "
        f"pyastar2d: {peer[0]:.0f} ms, {peer[1]:.0f} ms |",
        f"| flood fill | {span(flood, '{:.2f}')}x the C fill | OpenCV `floodFill`: {span(cv)}x slower |",
        f"| labelling | {span(lab)}x faster than `scipy.ndimage.label` |",
        f"pay for loading numba, {span(colds)} s",
    ]


def generation() -> list[str]:
    cells = row("generate", "backtracker")
    head = next(line for line in section("generate").splitlines() if line.startswith("| algorithm"))
    column = [c.strip() for c in head.strip().strip("|").split("|")].index("1000x1000")
    return [f"a 1000x1000-cell backtracker maze takes {seconds(cells[column]) * 1000:.0f} ms"]


CHECKS: dict[str, Callable[[], list[str]]] = {
    "sokoban": sokoban,
    "optimise": optimiser,
    "mines": minesweeper,
    "mines_peer": minesweeper_peer,
    "sokoban_corpus": sokoban_corpus,
    "universal_quality": universal,
    "web": playground,
    "first_run": first_run,
    "startup": startup,
    "search and flood": search,
    "generate": generation,
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_the_readme_quotes_the_results_page(name: str) -> None:
    text = readme()
    missing = [phrase for phrase in CHECKS[name]() if phrase not in text]
    assert not missing, f"README.md does not say what benchmarks/RESULTS.md's {name} section does: {missing}"


def test_every_solved_count_the_readme_quotes_is_checked() -> None:
    """A new "N/90"-style figure in the README needs a check above."""
    checked = " ".join(phrase for check in CHECKS.values() for phrase in check())
    quoted = set(re.findall(r"\b\d+/(?:90|135|155|1000)\b", readme()))
    assert quoted, "the README quotes no solved counts: is this test still reading it?"
    assert quoted <= set(re.findall(r"\b\d+/\d+\b", checked)), quoted


def test_a_changed_figure_is_caught(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The check fails when the results page says another figure than the README."""
    now = solved("xsokoban")
    other = f"{int(now.split('/')[0]) - 1}/90"
    page = tmp_path / "RESULTS.md"
    page.write_text(RESULTS.read_text().replace(f"| xsokoban | {now} |", f"| xsokoban | {other} |"))
    monkeypatch.setitem(globals(), "RESULTS", page)
    phrases = sokoban()
    assert f"XSokoban {other} at 60 s" in " ".join(phrases)
    assert any(phrase not in readme() for phrase in phrases)
