"""The grid-search room's step-by-step panes in a real browser: at step k the highlighted code line,
the open list and the grid agree with mazekit.search.teach's record of the same search."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from mazekit.search.teach import teach


def encode(rows: list[str]) -> str:
    """The room's URL form of a grid (common.js encodeGrid): runs of "w" wall / "f" free."""
    out = []
    for row in rows:
        runs = re.findall(r"((.)\2*)", row)
        out.append("".join(("" if len(m) == 1 else str(len(m))) + ("w" if ch == "1" else "f") for m, ch in runs))
    return "-".join(out)


def random_rows(shape: tuple[int, int], seed: int) -> tuple[np.ndarray, list[str]]:
    passable = np.random.default_rng(seed).random(shape) > 0.28
    return passable, ["".join("0" if x else "1" for x in row) for row in passable]


def pixel(page: Any, r: int, c: int) -> list[int]:
    """The colour drawn at the centre of cell (r, c) of the first view."""
    return page.evaluate(
        """([r, c]) => {
          const cv = document.querySelector("canvas[data-view='0']");
          const rows = +document.querySelector('#rows').value, cols = +document.querySelector('#cols').value;
          const x = Math.floor((c + 0.5) * cv.width / cols), y = Math.floor((r + 0.5) * cv.height / rows);
          return Array.from(cv.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
        }""",
        [r, c],
    )


FREE, WALL, FRONTIER, ADDED = [250, 250, 247], [30, 34, 46], [236, 96, 180], [47, 111, 221]


def close(a: list[int], b: list[int]) -> bool:
    return all(abs(x - y) <= 3 for x, y in zip(a, b, strict=True))


CASES = [("astar", 4, 3), ("bfs", 4, 5), ("dfs", 4, 7), ("dijkstra", 8, 9)]
SEEK = """(k) => { const p = document.querySelector('[data-role=position]');
  p.value = k; p.dispatchEvent(new Event('input')); }"""


@pytest.mark.parametrize(("algorithm", "conn", "seed"), CASES)
def test_the_panes_follow_the_library_trace(page: Any, algorithm: str, conn: int, seed: int) -> None:
    rows, cols = 14, 22
    passable, text = random_rows((rows, cols), seed)
    start, goal = (1, 1), (12, 20)
    passable[start] = passable[goal] = True
    text[1] = text[1][:1] + "0" + text[1][2:]
    text[12] = text[12][:20] + "0" + text[12][21:]
    walk = teach(passable, start, goal, algorithm=algorithm, connectivity=conn)
    query = f"rows={rows}&cols={cols}&grid={encode(text)}&start=1,1&goal=12,20&alg={algorithm}&conn={conn}"
    page.goto(f"{page.base}/search?{query}")
    page.locator("#status.good").wait_for()
    page.keyboard.press("Home")
    ats = [s.at for s in walk.steps]
    t = 0
    for k in sorted({1, 2, 6, len(ats) // 2, ats[-1] + 1}):
        if k == t + 1:
            page.keyboard.press("ArrowRight")
        else:
            page.evaluate(SEEK, k)
        t = k
        index = sum(1 for a in ats if a < t) - 1
        step = walk.steps[index]
        page.wait_for_function(f"document.querySelector('#narration').dataset.step === '{index + 1}'")
        # the code pane: the step's line lit, and only it
        current = page.locator("#code li.current")
        assert current.count() == 1
        assert int(current.get_attribute("data-line")) == step.line
        assert current.inner_text().strip() == walk.code[step.line].strip()
        # the data-structure pane: its size, its first entries in order, the cell taken out
        assert int(page.inner_text("#ds [data-role=size]")) == step.size
        entries = "#ds [data-role=entries] li[data-cell]"
        shown = page.eval_on_selector_all(entries, "els => els.map(e => e.dataset.cell)")
        assert shown == [f"({e.cell[0]}, {e.cell[1]})" for e in step.first]
        assert page.get_attribute("#ds .chip.taken", "data-cell") == f"({step.cell[0]}, {step.cell[1]})"
        assert step.text in page.inner_text("#narration")
        # the grid: the step's cell is drawn visited, the next step's cell not yet
        colour = pixel(page, *step.cell)
        assert not close(colour, FREE) and not close(colour, WALL) and not close(colour, FRONTIER), colour
        if index + 1 < len(walk.steps):
            later = pixel(page, *walk.steps[index + 1].cell)  # not yet visited: free, frontier, or just added
            assert any(close(later, colour) for colour in (FREE, FRONTIER, ADDED)), later


def test_inspector_and_route_to_a_cell(page: Any) -> None:
    grid = "-".join(["10f"] * 8)
    page.goto(f"{page.base}/search?rows=8&cols=10&grid={grid}&start=0,0&goal=7,9&alg=bfs")
    page.locator("#status.good").wait_for()
    page.click("[data-role=instant]")
    page.click("[data-brush=inspect]")
    box = page.locator("canvas[data-view='0']").bounding_box()
    page.mouse.click(box["x"] + 3.5 * box["width"] / 10, box["y"] + 2.5 * box["height"] / 8)  # cell (2, 3)
    text = page.inner_text("#inspect")
    assert "cell (2, 3)" in text and "distance from the start (g): 5" in text and "parent (" in text
    assert "visited at step" in text
    page.click("[data-role=route-to]")
    # the route to it is drawn in blue over the grid
    blue = page.evaluate(
        """() => { const cv = document.querySelector("canvas[data-view='0']");
           const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data; let n = 0;
           for (let i = 0; i < d.length; i += 4)
             if (d[i] < 80 && d[i + 1] > 90 && d[i + 1] < 130 && d[i + 2] > 200) n++;
           return n; }"""
    )
    assert blue > 50


def test_lessons_are_linked_and_load(page: Any) -> None:
    page.goto(f"{page.base}/search")
    links = page.eval_on_selector_all("#lessons a", "els => els.map(e => [e.dataset.lesson, e.getAttribute('href')])")
    assert [name for name, _ in links] == ["bfs", "dfs", "dfs-random", "greedy", "astar", "dijkstra"]
    for name, href in links:
        page.goto(page.base + href)
        page.locator("#status.good").wait_for()
        assert page.locator("#lesson-text").is_visible(), name
        assert page.locator("#code li").count() >= 6
    # each lesson's point, in the figures its text gives
    claims = {
        "bfs": ["BFS: route of 14 steps, 223 cells visited"],
        "dfs": ["DFS: route of 45 steps", "BFS: route of 3 steps"],
        "dfs-random": ["DFS, random order: route of 34 steps, 39 cells visited", "BFS: route of 34 steps, 57 cells"],
        "greedy": ["Greedy best-first: route of 47 steps", "A*: route of 27 steps"],
        "astar": ["A*: route of", "21 cells visited", "Dijkstra: route of"],
        "dijkstra": ["Dijkstra: route of 27 steps", "BFS: route of 17 steps"],
    }
    for name, href in links:
        page.goto(page.base + href)
        page.locator("#status.good").wait_for()
        text = page.inner_text("#status")
        assert all(claim in text for claim in claims[name]), (name, text)
    costs = page.eval_on_selector_all(".view dl", "els => els.map(e => e.textContent)")
    assert "routecost27" in costs[0].replace(" ", "") and "routelength17" in costs[1].replace(" ", "")


def test_large_grids_say_why_there_are_no_panes(page: Any) -> None:
    page.goto(f"{page.base}/search?rows=80&cols=80")
    page.locator("#status.good").wait_for()
    assert "up to 3,600 cells" in page.inner_text("#narration")


@pytest.mark.parametrize("algorithm", ["backtracker", "prim", "kruskal", "wilson", "eller"])
def test_the_maze_room_follows_the_generator(page: Any, algorithm: str) -> None:
    from mazekit.generate.teach import teach_generator

    walk = teach_generator(algorithm, 6, 9, rng=np.random.default_rng(11))
    page.goto(f"{page.base}/maze?alg={algorithm}&rows=6&cols=9&seed=11")
    page.wait_for_selector("#narration[data-step]")
    page.keyboard.press("Home")
    for index in (0, 4, len(walk.steps) - 1):
        step = walk.steps[index]
        page.evaluate(SEEK, step.at + 1)
        page.wait_for_function(f"document.querySelector('#narration').dataset.step === '{index + 1}'")
        assert step.text in page.inner_text("#narration")
        assert int(page.get_attribute("#code li.current", "data-line")) == step.line
        assert int(page.inner_text("#ds [data-role=size]")) == step.size
        shown = page.eval_on_selector_all("#ds [data-role=entries] li", "els => els.map(e => e.textContent)")
        assert shown == list(step.first)
