"""The Minesweeper room in a real browser: a no-guess game played to a win, flags, shared links."""

from __future__ import annotations

import base64
import re
from typing import Any

import numpy as np


def board_ready(page: Any, moves: int) -> None:
    page.wait_for_function(f"() => document.querySelector('#board').dataset.moves === '{moves}'")


def click_cell(page: Any, r: int, c: int, button: str = "left") -> None:
    box = page.locator("#board").bounding_box()
    cols = int(page.locator("#board").get_attribute("data-cols"))
    cell = box["width"] / cols
    page.mouse.click(box["x"] + (c + 0.5) * cell, box["y"] + (r + 0.5) * cell, button=button)


def moves(page: Any) -> int:
    return int(page.locator("#board").get_attribute("data-moves"))


def test_play_no_guess_game_to_a_win(page: Any) -> None:
    page.goto(f"{page.base}/mines?level=beginner&ng=1&seed=11")
    board_ready(page, 0)
    assert "click any cell" in page.locator("#face").inner_text()
    click_cell(page, 4, 4)
    board_ready(page, 1)
    # flag a proved mine with a right click
    gid = page.locator("#board").get_attribute("data-game")
    probs = page.request.post(f"{page.base}/api/mines/probabilities", data={"id": gid}).json()
    assert probs["mines"] >= 1
    page.locator("#probs").click()
    page.wait_for_selector("#prob-legend:not(.hidden)")
    hint_text = page.locator("#hint-text")
    # the Hint button names a cell; open it (or flag it) until the game is won
    flagged = False
    for _ in range(80):
        if page.locator("#board").get_attribute("data-state") == "won":
            break
        n = moves(page)
        page.locator("#hint").click()
        page.wait_for_function(
            "() => document.querySelector('#hint-text').textContent.startsWith('Open') || "
            "document.querySelector('#hint-text').textContent.startsWith('Flag')"
        )
        m = re.match(r"(Open|Flag) row (\d+), column (\d+)", hint_text.inner_text())
        assert m and "guess" not in hint_text.inner_text(), hint_text.inner_text()
        # under the board, the move alone: the reason is in the panel, not said twice
        assert page.locator("#status").inner_text() == "Hint: " + m.group(0) + "."
        r, c = int(m.group(2)) - 1, int(m.group(3)) - 1
        if not flagged:
            # a right click flags a cell the solver proves a mine
            p = page.request.post(f"{page.base}/api/mines/probabilities", data={"id": gid}).json()
            arr = np.frombuffer(base64.b64decode(p["p"]["data"]), dtype=np.float32).reshape(p["p"]["shape"])
            mr, mc = (int(x) for x in np.argwhere(arr == 1.0)[0])
            click_cell(page, mr, mc, "right")
            board_ready(page, n + 1)
            assert page.locator("#mines-left").inner_text() == "009"
            flagged = True
            continue
        click_cell(page, r, c, "right" if m.group(1) == "Flag" else "left")
        board_ready(page, n + 1)
    assert page.locator("#board").get_attribute("data-state") == "won"
    assert page.locator("#face").inner_text() == "won!"
    assert re.search(r"You won in [\d.]+ s: 3BV \d+", page.locator("#status").inner_text())

    # the link reproduces the game: same board, same state
    url = page.url
    assert "m=o4.4_f" in url and "ng=1" in url and "seed=11" in url
    picture = page.evaluate("() => document.querySelector('#board').toDataURL()")
    other = page.context.new_page()
    other.goto(url)
    board_ready(other, moves(page))
    assert other.locator("#board").get_attribute("data-state") == "won"
    assert other.locator("#board").get_attribute("data-game") != gid
    assert other.evaluate("() => document.querySelector('#board').toDataURL()") == picture
    other.close()


def test_errors_show_and_keys_work(page: Any) -> None:
    page.goto(f"{page.base}/mines?level=custom&rows=3&cols=3&mines=50&seed=1")
    page.wait_for_function("() => document.querySelector('#status').classList.contains('error')")
    # a link whose board cannot be made: a beginner board to play, and the reason, in words
    text = page.locator("#status").inner_text()
    assert "could not be made (Mines must be between 1 and 8, got 50): a beginner board instead" in text, text
    page.wait_for_function("document.querySelector('#board').dataset.rows === '9'")
    page.locator("#level").select_option("beginner")
    board_ready(page, 0)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Space")
    board_ready(page, 1)
    assert page.locator("#board").get_attribute("data-state") in ("playing", "won")
    page.keyboard.press("f")  # on an open cell: nothing changes
    page.keyboard.press("h")
    page.wait_for_function("() => document.querySelector('#hint-text').textContent.length > 0")
    page.locator("#article-run").click()
    page.wait_for_selector("#article-out:not(.hidden)")
    assert page.locator("#article-out").inner_text().startswith("01####")
