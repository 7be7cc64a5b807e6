"""The grid-search room in a real browser (Debian's chromium through Playwright)."""

from __future__ import annotations

from typing import Any

from mazekit import examples
from mazekit.cli.forest import solve_text as forest_text
from mazekit.cli.robot import solve_text as robot_text


def open_room(page: Any, query: str = "") -> None:
    page.goto(f"{page.base}/search{query}")
    page.wait_for_selector("canvas[data-view='0']")


def cell_xy(page: Any, r: int, c: int, view: int = 0) -> tuple[float, float]:
    box = page.locator(f"canvas[data-view='{view}']").bounding_box()
    rows, cols = page.evaluate("[+document.querySelector('#rows').value, +document.querySelector('#cols').value]")
    return box["x"] + (c + 0.5) * box["width"] / cols, box["y"] + (r + 0.5) * box["height"] / rows


def wait_done(page: Any) -> None:
    page.locator("#status.good").wait_for()
    page.click("[data-role=instant]")


def test_draw_walls_then_search(page: Any) -> None:
    open_room(page)
    page.fill("#rows", "12")
    page.fill("#cols", "20")
    page.click("#empty")
    page.select_option("#alg", "bfs")
    # start (6, 2) and goal (6, 17) on an empty grid: 15 steps
    page.click("#run")
    wait_done(page)
    assert "route of 15 steps" in page.inner_text("#status")
    # drag a wall across column 10, rows 0-11 (the pointer path crosses every cell)
    x, y0 = cell_xy(page, 0, 10)
    _, y1 = cell_xy(page, 11, 10)
    page.mouse.move(x, y0)
    page.mouse.down()
    page.mouse.move(x, y1, steps=4)
    page.mouse.up()
    page.wait_for_function("document.querySelector('#status').textContent.includes('no route')")
    assert "grid=" in page.url
    # erase one cell of the wall: the search re-runs by itself and goes round through the gap
    page.click("[data-brush=erase]")
    x, y = cell_xy(page, 0, 10)
    page.mouse.click(x, y)
    page.wait_for_function("document.querySelector('#status').textContent.includes('route of 27 steps')")


def test_side_by_side_and_player(page: Any) -> None:
    open_room(page)
    page.select_option("#alg", "bfs")
    page.select_option("#alg2", "astar")
    page.click("#run")
    page.locator("#status.good").wait_for()
    assert page.locator("canvas[data-view='1']").is_visible()
    text = page.inner_text("#status")
    assert "BFS: route of" in text and "A*: route of" in text
    lengths = [int(part.split("route of ")[1].split()[0]) for part in text.split(" · ")]
    assert lengths[0] == lengths[1]  # both shortest
    page.click("[data-role=play]")  # pause
    page.keyboard.press("Home")
    assert page.inner_text("[data-role=position-text]").startswith("step 0 /")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("[data-role=position-text]").startswith("step 2 /")
    page.keyboard.press("End")
    total = page.inner_text("[data-role=position-text]").split("/")[1].strip()
    assert page.inner_text("[data-role=position-text]") == f"step {total} / {total}"


def test_articles_show_their_exact_output(page: Any) -> None:
    open_room(page)
    page.click("#robot")
    page.locator("#article-out:not(.hidden)").wait_for()
    assert page.inner_text("#article-out").strip() == robot_text(examples.read_text("robot.txt")).strip()
    assert "article=robot" in page.url
    page.click("#forest")
    page.wait_for_function("document.querySelector('#status').textContent.includes('Article 2')")
    assert page.inner_text("#article-out").strip() == forest_text(examples.read_text("forest.txt")).strip()


def test_a_shared_link_reproduces_the_view(page: Any, browser: Any) -> None:
    open_room(page)
    page.fill("#rows", "10")
    page.fill("#cols", "14")
    page.click("#random")
    page.select_option("#alg", "dijkstra")
    page.select_option("#conn", "8")
    page.click("[data-brush=weight]")
    x, y = cell_xy(page, 3, 3)
    page.mouse.click(x, y)
    page.click("#run")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Dijkstra:')")
    first = page.inner_text("#status")
    url = page.url
    other = browser.new_context().new_page()
    try:
        other.goto(url)
        other.wait_for_function("document.querySelector('#status').classList.contains('good')")
        assert other.inner_text("#status") == first
        assert other.input_value("#alg") == "dijkstra" and other.input_value("#conn") == "8"
    finally:
        other.context.close()


def test_bad_grid_from_a_link_is_answered_not_crashed(page: Any) -> None:
    open_room(page, "?rows=3&cols=3&grid=000-0z0-000&start=9,9")
    page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    assert page.locator("canvas[data-view='0']").is_visible()
