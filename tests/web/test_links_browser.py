"""Links that ask a room for something it cannot do: every room opens something playable and
says what it left out; room messages speak of the room, not of API fields."""

from __future__ import annotations

from typing import Any

import pytest


def status_of(page: Any) -> str:
    page.wait_for_function("document.querySelector('#status').textContent.length > 0")
    return page.inner_text("#status")


def test_minesweeper_bad_seed_and_moves_still_give_a_board(page: Any) -> None:
    page.goto(f"{page.base}/mines?level=expert&seed=zz&m=o99.99_x1.1")
    page.wait_for_function("document.querySelector('#board').dataset.state === 'ready'")
    assert page.get_attribute("#board", "data-rows") == "16" and page.get_attribute("#board", "data-cols") == "30"
    text = status_of(page)
    assert "seed=zz is not a whole number" in text and "Click any cell to start" in text
    assert page.inner_text("#mines-left") == "099"
    # moves that do not fit the board of a good seed: the board, without them
    page.goto(f"{page.base}/mines?level=expert&seed=5&m=o99.99")
    page.wait_for_function("document.querySelector('#board').dataset.state === 'ready'")
    assert "moves could not be replayed" in status_of(page)


def test_search_bad_sizes_say_so(page: Any) -> None:
    page.goto(f"{page.base}/search?rows=abc&cols=-5")
    page.locator("#status.error").wait_for()
    text = page.inner_text("#status")
    assert "rows=abc is not a whole number from 2 to 300" in text and "cols=-5" in text
    assert "route of" in text  # and the default grid was searched


def test_maze_bad_generator_says_so(page: Any) -> None:
    page.goto(f"{page.base}/maze?alg=nope&rows=-3")
    page.locator(".link-note").wait_for()
    text = page.inner_text(".link-note")
    assert 'generator "nope"' in text and "rows=-3" in text
    page.wait_for_function("document.querySelector('#maze-stats').textContent.includes('20 × 30')")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("c=nope&i=99", 'collection "nope" is not one of mazekit, assignment'),
        ("c=mazekit&i=99", "There is no level 100: collection 'mazekit' has 5 levels"),
    ],
)
def test_sokoban_bad_level_names_what_the_link_asked(page: Any, query: str, words: str) -> None:
    page.goto(f"{page.base}/sokoban?{query}")
    page.locator("#status.error").wait_for()
    text = page.inner_text("#status")
    assert words in text and "'level." not in text
    assert page.locator("#board").bounding_box()["height"] > 50  # a level to play


def test_universal_reads_lower_case_commands(page: Any) -> None:
    page.goto(f"{page.base}/universal")
    page.wait_for_function("document.querySelector('#status').textContent.includes('70 starts')")
    page.click("#commands")
    page.keyboard.type("uurrdd")
    assert page.input_value("#commands") == "UURRDD"
    page.wait_for_function("document.querySelector('#freed').textContent.includes('of 70 freed')")
    assert "error" not in (page.get_attribute("#status", "class") or "")
