"""The Mazes room in a real browser: generate, watch the carving finish, solve, share a link."""

from __future__ import annotations

from typing import Any


def stat(page: Any, name: str) -> str:
    return page.evaluate(
        """(name) => { const dts = [...document.querySelectorAll('#maze-stats dt')];
        const dt = dts.find((d) => d.textContent === name); return dt ? dt.nextElementSibling.textContent : null; }""",
        name,
    )


def test_generate_carve_and_solve(page: Any) -> None:
    page.goto(f"{page.base}/maze")
    page.wait_for_selector("canvas[data-view='0']")
    page.select_option("#alg", "kruskal")
    page.fill("#rows", "8")
    page.fill("#cols", "12")
    page.fill("#seed", "5")
    page.press("#seed", "Enter")
    page.wait_for_function("document.querySelector('[data-role=position-text]').textContent.includes('/ 191')")
    page.click("[data-role=instant]")
    page.wait_for_function("document.querySelector('#status').textContent.includes('carved 191 squares')")
    assert stat(page, "squares carved") == "191"
    assert page.inner_text("[data-role=position-text]") == "square 191 / 191"
    assert "alg=kruskal" in page.url and "seed=5" in page.url
    page.select_option("#solver", "bfs")
    page.keyboard.press("s")
    page.locator("#status.good").filter(has_text="BFS").wait_for()
    page.click("[data-role=instant]")
    text = page.inner_text("#status")
    assert "route of" in text
    assert stat(page, "BFS route") is not None and "solved=1" in page.url


def test_a_braided_carving_counts_steps_not_squares(page: Any) -> None:
    # the last step of a braided maze opens every braided wall at once: a step is not a square
    page.goto(f"{page.base}/maze?alg=kruskal&rows=8&cols=12&seed=5&braid=0.5")
    page.wait_for_function("document.querySelector('[data-role=position-text]').textContent.includes('/ 192')")
    page.click("[data-role=instant]")
    page.wait_for_function("document.querySelector('#status').textContent.includes('carved in 192 steps')")
    assert "(the last one opens the braided walls)" in page.inner_text("#status")
    assert stat(page, "carving steps") == "192" and stat(page, "squares carved") is None
    assert page.inner_text("[data-role=position-text]") == "carving step 192 / 192"
    page.keyboard.press("s")
    page.locator("#status.good").filter(has_text="route").wait_for()
    assert page.inner_text("[data-role=position-text]").startswith("step ")


def test_caves_has_no_carving(page: Any) -> None:
    page.goto(f"{page.base}/maze?alg=caves&rows=30&cols=40&seed=2")
    page.wait_for_function("document.querySelector('#status').textContent.includes('no carving order')")
    assert stat(page, "squares carved") is None


def test_bad_size_shows_the_api_error(page: Any) -> None:
    page.goto(f"{page.base}/maze?rows=900&cols=900")
    page.locator("#status.error").wait_for()
    assert "too big" in page.inner_text("#status")


def test_shared_link_reproduces_maze_and_solve(page: Any) -> None:
    page.goto(f"{page.base}/maze?alg=wilson&rows=10&cols=14&seed=9&braid=0.5&solver=astar&solved=1")
    page.locator("#status.good").filter(has_text="A*").wait_for()
    first = page.evaluate("document.querySelector('canvas.grid').toDataURL()")
    status = page.inner_text("#status")
    page.reload()
    page.locator("#status.good").filter(has_text="A*").wait_for()
    assert page.inner_text("#status") == status
    assert page.evaluate("document.querySelector('canvas.grid').toDataURL()") == first
    assert page.input_value("#braid") == "0.5" and page.input_value("#solver") == "astar"
