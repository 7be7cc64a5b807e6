"""Every room on a phone (390x844) and on a laptop (1280x800): the board keeps its shape and is on
the first screen of a phone (a board too wide for it at a size a finger can tap, Minesweeper's
expert, scrolls sideways in a view that is); on the laptop the controls a room needs while playing
are on screen."""

from __future__ import annotations

import time
from typing import Any

import pytest

# room, its board, the controls used while playing it (on screen at 1280x800)
VIEW = "canvas[data-view='0']"
PLAYER = ["[data-role=play]", "[data-role=step]", "[data-role=back]", "[data-role=position]"]
MINES = "/mines?level=expert&seed=3"
ROOMS = [
    ("/search", VIEW, ["#run", *PLAYER]),
    ("/maze", VIEW, ["#generate", "#solve", *PLAYER]),
    ("/universal", VIEW, ["#compute", "#commands", "#play", *PLAYER]),
    (MINES, "#board", ["#new", "#hint", "#probs", "#hint-text", "#legend"]),
    ("/sokoban", "#board", ["#undo", "#redo", "#restart", "#solve", "#time-limit"]),
]
#: What must fit on a phone's screen: the board, or the view it scrolls in.
FRAME = {MINES: "#board-scroll"}


@pytest.fixture
def sized(browser: Any, live_server: Any) -> Any:
    contexts = []

    def open_at(width: int, height: int, path: str) -> Any:
        phone = width < 500
        ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(live_server.url + path)
        return page

    yield open_at
    for ctx in contexts:
        ctx.close()


def settle(page: Any, board: str, seconds: float = 10.0) -> dict[str, float]:
    """The board's box once the room's requests are done and the board has kept its size and its
    canvas for half a second (a loaded machine can take longer than any fixed wait)."""
    page.wait_for_function(f'document.querySelector("{board}").width > 0')
    page.wait_for_load_state("networkidle")
    last, same, end = None, 0, time.monotonic() + seconds
    while True:
        box = page.locator(board).bounding_box()
        seen = (box, page.eval_on_selector(board, "c => [c.width, c.height]"))
        same = same + 1 if seen == last else 0
        if same >= 3 or time.monotonic() > end:
            return box
        last = seen
        time.sleep(0.15)


@pytest.mark.parametrize(("path", "board", "controls"), ROOMS, ids=[r[0].split("?")[0][1:] for r in ROOMS])
def test_phone_board_keeps_its_shape_on_the_first_screen(sized: Any, path: str, board: str, controls: Any) -> None:
    page = sized(390, 844, path)
    box = settle(page, board)
    natural = page.eval_on_selector(board, "c => c.width / c.height")
    assert box["width"] / box["height"] == pytest.approx(natural, rel=0.03), (box, natural)
    frame = page.locator(FRAME.get(path, board)).bounding_box()
    assert frame["x"] >= 0 and frame["x"] + frame["width"] <= 390 + 0.5, frame
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box


@pytest.mark.parametrize(("path", "board", "controls"), ROOMS, ids=[r[0].split("?")[0][1:] for r in ROOMS])
def test_laptop_controls_on_screen(sized: Any, path: str, board: str, controls: list[str]) -> None:
    page = sized(1280, 800, path)
    settle(page, board)
    for sel in [board, *controls]:
        box = page.locator(sel).first.bounding_box()
        assert box is not None, f"{path}: {sel} is not shown"
        assert box["y"] >= 0 and box["y"] + min(box["height"], 40) <= 800, f"{path}: {sel} at {box}"


@pytest.mark.parametrize(("path", "board", "controls"), ROOMS, ids=[r[0].split("?")[0][1:] for r in ROOMS])
def test_board_refits_when_the_window_changes(sized: Any, path: str, board: str, controls: Any) -> None:
    """A window made narrow and then wide again (a phone turned, a window dragged): the board is
    drawn anew at a size that fits (its canvas made again, not only scaled down by the page), and
    comes back to the size it had, drawn, not blank."""
    page = sized(1280, 800, path)
    wide = settle(page, board)
    pixels = page.eval_on_selector(board, "c => c.width")
    page.set_viewport_size({"width": 390, "height": 700})
    page.wait_for_function(f'document.querySelector("{board}").width !== {pixels}')
    small = settle(page, board)
    frame = page.locator(FRAME.get(path, board)).bounding_box()
    assert frame["x"] >= 0 and frame["x"] + frame["width"] <= 390 + 0.5, frame
    natural = page.eval_on_selector(board, "c => c.width / c.height")
    assert small["width"] / small["height"] == pytest.approx(natural, rel=0.03), (small, natural)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function(f'document.querySelector("{board}").width === {pixels}')
    again = settle(page, board)
    assert again["width"] == pytest.approx(wide["width"], abs=1)
    assert again["height"] == pytest.approx(wide["height"], abs=1)
    colours = page.eval_on_selector(
        board,
        """c => { const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data, seen = new Set();
                  for (let i = 0; i < d.length; i += 4 * 97) seen.add(d[i] * 65536 + d[i + 1] * 256 + d[i + 2]);
                  return seen.size; }""",
    )
    assert colours >= 2, "the board is blank after the refit"


def _swipe(page: Any, x: float, y: float, dx: float) -> None:
    """A finger put down at (x, y), moved ``dx`` px sideways in steps, and lifted (touch events
    through the browser's own input, so that it scrolls as a phone's would)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 11):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx * k / 10, "y": y}]})
        time.sleep(0.02)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_phone_expert_cells_are_big_enough_to_tap(sized: Any) -> None:
    """On a phone the expert board's cells stay 20 px or more: the board scrolls sideways in its
    view, a swipe across it scrolls and opens nothing, a tap opens the cell under the finger."""
    page = sized(390, 844, MINES)
    box = settle(page, "#board")
    assert box["width"] / 30 >= 20, box
    scroller = "#board-scroll"
    assert page.eval_on_selector(scroller, "s => s.scrollWidth > s.clientWidth + 100")
    assert page.locator("#board-note").is_visible(), "nothing says the board scrolls"
    frame = page.locator(scroller).bounding_box()
    cell = box["width"] / 30
    y = frame["y"] + 1.5 * cell
    left = page.locator("#mines-left").inner_text()
    # a short swipe, inside one cell, and a long one across many: the view scrolls, nothing opens
    start = frame["x"] + frame["width"] - 40
    start -= (start - box["x"]) % cell - cell + 1  # the right edge of a cell, less a pixel
    for dx in (-(cell - 2), -200):
        at = page.eval_on_selector(scroller, "s => s.scrollLeft")
        _swipe(page, start, y, dx)
        page.wait_for_function(f'document.querySelector("{scroller}").scrollLeft > {at}')
        time.sleep(0.6)  # longer than a long press: a swipe must not flag either
        assert page.locator("#face").inner_text().startswith("ready"), f"a swipe of {dx} px opened a cell"
        assert page.locator("#mines-left").inner_text() == left, f"a swipe of {dx} px flagged a cell"
    page.touchscreen.tap(frame["x"] + frame["width"] / 2, y)
    page.wait_for_function('!document.querySelector("#face").textContent.startsWith("ready")')
    assert page.locator("#face").inner_text() in ("playing", "won!", "boom: lost")
