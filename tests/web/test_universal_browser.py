"""The Universal escape room in a real browser: compute, play to the end, type, edit, share a link."""

from __future__ import annotations

from typing import Any

ANSWER = "DLDLLLULUUUDRDRDDDRRUUUURUURULLDLLL"


def open_room(page: Any, query: str = "") -> None:
    page.goto(f"{page.base}/universal{query}")
    page.wait_for_function("document.querySelector('#freed').textContent.includes('of 70 freed')")


def test_compute_and_play_to_the_end(page: Any) -> None:
    open_room(page)
    assert page.inner_text("#freed").startswith("0 of 70 freed")
    page.keyboard.press("Enter")  # Compute
    page.wait_for_function("document.querySelector('#commands').value.length === 35")
    answer = page.inner_text("#answer-stats")
    assert "proven shortest" in answer and "35" in answer
    page.wait_for_function("document.querySelector('[data-role=position-text]').textContent.includes('/ 35')")
    page.click("[data-role=instant]")
    page.locator("#status.good").filter(has_text="70 of 70 freed").wait_for()
    assert "70 of 70" in page.inner_text("#walk-stats")
    assert page.inner_text("#freed").startswith("70 of 70 freed")
    assert f"cmd={page.input_value('#commands')}" in page.url


def test_typing_counts_live_and_refuses_other_letters(page: Any) -> None:
    open_room(page)
    page.fill("#commands", ANSWER[:20])
    page.wait_for_function("!document.querySelector('#freed').textContent.startsWith('0 of')")
    k = int(page.inner_text("#freed").split()[0])
    assert 0 < k < 70
    page.fill("#commands", ANSWER[:20] + "Q")
    page.locator("#status.error").wait_for()
    assert "'Q' at position 21" in page.inner_text("#status")
    page.fill("#commands", ANSWER)
    page.wait_for_function("document.querySelector('#freed').textContent.startsWith('70 of 70')")
    assert "error" not in (page.get_attribute("#status", "class") or "")


def test_edit_a_wall_and_move_the_exit(page: Any) -> None:
    open_room(page)
    box = page.locator("canvas.grid").bounding_box()
    cell = box["width"] / 10
    page.mouse.click(box["x"] + 9.5 * cell, box["y"] + 0.5 * cell)  # (0, 9) is an obstacle: now free
    page.wait_for_function("document.querySelector('#freed').textContent.includes('of 71 freed')")
    page.click("[data-brush=exit]")
    page.mouse.click(box["x"] + 0.5 * cell, box["y"] + 9.5 * cell)  # (9, 0) was an obstacle: now the exit
    page.wait_for_function("new URLSearchParams(location.search).get('exit') === '9,0'")
    page.click("#compute")
    page.wait_for_function("document.querySelector('#answer-stats').textContent.includes('length')")
    page.click("[data-role=instant]")
    page.locator("#status.good").filter(has_text="freed").wait_for()


def test_shared_link_shows_the_same_state(page: Any) -> None:
    open_room(page)
    page.fill("#commands", ANSWER)
    page.click("#play")
    page.wait_for_function("document.querySelector('[data-role=position-text]').textContent.includes('/ 35')")
    url = page.url
    assert "grid=" in url and "exit=2%2C4" in url and f"cmd={ANSWER}" in url
    page.goto(url)
    page.locator("#status.good").filter(has_text="70 of 70 freed").wait_for()
    assert page.input_value("#commands") == ANSWER
    assert "35 of 35" in page.inner_text("#walk-stats")


def test_generated_maze_with_a_border_exit(page: Any) -> None:
    open_room(page)
    page.fill("#g-rows", "3")
    page.fill("#g-cols", "4")
    page.select_option("#g-exit", "border")
    page.click("#load-gen")
    page.wait_for_function("new URLSearchParams(location.search).get('exit') === '5,8'")
    # 12 cells and 11 passages between them: 23 starts, the exit in the wall beside the corner cell
    page.wait_for_function("document.querySelector('#freed').textContent.includes('of 23 freed')")
    assert "23 starts" in page.inner_text("#status")


def test_a_time_limit_above_the_playgrounds_cap_says_how_to_raise_it(browser: Any) -> None:
    """The server cuts the time limit to its --solver-seconds; when the search ran out of that
    time the answer says what was asked, what the playground allows and the flag that raises it."""
    from mazekit.web import Limits
    from tests.web.conftest import LiveServer

    with LiveServer(Limits(solver_seconds=0.2)) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            pg = context.new_page()
            pg.base = server.url
            open_room(pg)
            # a 10x15-cell maze: its strings are hundreds of commands long, far from proven in 0.2 s
            # (the article's maze is proven in a fraction of a second on a warm server)
            pg.fill("#g-rows", "10")
            pg.fill("#g-cols", "15")
            pg.click("#load-gen")
            pg.wait_for_function("!document.querySelector('#freed').textContent.includes('of 70 freed')")
            pg.fill("#time-limit", "5")
            pg.click("#compute")
            pg.wait_for_function("document.querySelector('#answer-stats').textContent.includes('length')")
            found_by = pg.inner_text("#answer-stats")
            assert "time limit reached (5 s asked, 0.2 s allowed)" in found_by, found_by
            pg.wait_for_function("!document.querySelector('#status').textContent.startsWith('searching')")
            line = pg.inner_text("#status")
            assert "5 s asked, the playground allows 0.2 s" in line and "--solver-seconds 5" in line, line
        finally:
            context.close()


def test_no_cap_note_when_the_limit_asked_is_allowed(page: Any) -> None:
    open_room(page)
    page.fill("#time-limit", "5")
    page.click("#compute")
    page.wait_for_function("document.querySelector('#answer-stats').textContent.includes('length')")
    assert "asked" not in page.inner_text("#answer-stats") and "asked" not in page.inner_text("#status")
