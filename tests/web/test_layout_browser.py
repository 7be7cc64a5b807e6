"""Every room on a phone (390x844) and on a laptop (1280x800): the board keeps its shape and is on
the first screen of a phone; on the laptop the controls a room needs while playing are on screen."""

from __future__ import annotations

import time
from typing import Any

import pytest

# room, its board, the controls used while playing it (on screen at 1280x800)
VIEW = "canvas[data-view='0']"
PLAYER = ["[data-role=play]", "[data-role=step]", "[data-role=back]", "[data-role=position]"]
ROOMS = [
    ("/search", VIEW, ["#run", *PLAYER]),
    ("/maze", VIEW, ["#generate", "#solve", *PLAYER]),
    ("/universal", VIEW, ["#compute", "#commands", "#play", *PLAYER]),
    ("/mines?level=expert&seed=3", "#board", ["#new", "#hint", "#probs", "#hint-text", "#legend"]),
    ("/sokoban", "#board", ["#undo", "#redo", "#restart", "#solve", "#time-limit"]),
]


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
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, box
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
    assert small["x"] >= 0 and small["x"] + small["width"] <= 390 + 0.5, small
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
