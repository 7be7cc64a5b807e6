"""The Sokoban room in a real browser: keys, the Solve button, a pasted assignment, a shared link."""

from __future__ import annotations

from urllib.parse import quote

from mazekit import examples
from tests.conftest import DATA

#: A long run: unsolvable, but only a search to the time limit shows it (see the file).
HARD = (DATA / "sokoban" / "slow.xsb").read_text()

#: Pixels of the board near a colour (JavaScript taking [r, g, b]).
COLOUR_PIXELS = """([r, g, b]) => {
  const cv = document.querySelector('#board'), ctx = cv.getContext('2d');
  const d = ctx.getImageData(0, 0, cv.width, cv.height).data;
  let n = 0;
  const near = (i, v) => Math.abs(d[i] - v) < 30;
  for (let i = 0; i < d.length; i += 4) if (near(i, r) && near(i + 1, g) && near(i + 2, b)) n++;
  return n;
}"""
PURPLE_PIXELS = f"() => ({COLOUR_PIXELS})([142, 68, 173])"
#: The ring around the boxes a deadlock rule names.
STUCK_PIXELS = f"() => ({COLOUR_PIXELS})([200, 0, 90])"

#: Records the solver's line, its bar and the Stop button as they change (in ``window.seen``).
RECORD_RUN = """() => { window.seen = [];
  const line = document.querySelector('#solver-status'), bar = document.querySelector('#solver-bar');
  const note = () => window.seen.push({text: line.textContent, bar: !bar.classList.contains('hidden'),
    value: bar.hasAttribute('value') ? bar.value : null, stop: !document.querySelector('#stop').disabled});
  new MutationObserver(note).observe(line, {childList: true, characterData: true, subtree: true});
  new MutationObserver(note).observe(bar, {attributes: true}); }"""


KEYS = {"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}


def open_level(page, query):
    page.goto(f"{page.base}/sokoban?{query}")
    page.wait_for_selector("#stats dd")


def moves_shown(page):
    return page.locator("#stats dd").first.inner_text()


def press(page, lurd):
    for ch in lurd:
        page.keyboard.press(KEYS[ch.lower()])


def test_solve_a_level_by_keys(page):
    page.add_init_script("localStorage.clear()")
    open_level(page, "c=mazekit&i=3")
    press(page, "LruulDDrdL")
    page.wait_for_function("document.querySelector('#stats dd').textContent === '10'")
    page.keyboard.press("u")  # undo, then redo, then the last push
    page.wait_for_function("document.querySelector('#stats dd').textContent === '9'")
    page.keyboard.press("y")
    page.wait_for_function("document.querySelector('#stats dd').textContent === '10'")
    press(page, "L")
    win = page.locator("#win")
    win.wait_for(state="visible")
    assert "Solved in 11 moves and 5 pushes" in win.inner_text()
    assert "m=LruulDDrdLL" in page.url
    # progress is remembered: the level list marks it, and "next unsolved" skips it
    assert "✓" in page.locator("#level option").nth(3).inner_text()
    page.keyboard.press("r")  # restart is undoable
    page.wait_for_function("document.querySelector('#stats dd').textContent === '0'")
    page.keyboard.press("Control+z")
    page.wait_for_function("document.querySelector('#stats dd').textContent === '11'")


def test_solve_a_level_with_the_solve_button(page):
    open_level(page, "c=mazekit&i=2")
    page.evaluate("""() => { window.solverTexts = [];
      new MutationObserver(() => window.solverTexts.push(document.querySelector('#solver-status').textContent))
        .observe(document.querySelector('#solver-status'), {childList: true, characterData: true, subtree: true}); }""")
    page.click("#solve")
    page.locator("#player-box").wait_for(state="visible", timeout=90_000)
    texts = page.evaluate("window.solverTexts")
    assert any(
        ("solver" in t and "started" in t) or "searching" in t or "preparing" in t or "compiling" in t for t in texts
    ), texts
    assert "solved from the start" in page.locator("#solver-status").inner_text()
    page.click("[data-role=instant]")
    win = page.locator("#win")
    win.wait_for(state="visible")
    assert "every box home" in win.inner_text()
    assert page.locator("#stats dd").nth(2).inner_text() == "2 / 2"
    # take over from the middle of the solution: an arrow key goes on from the position shown
    page.click("[data-role=back]")
    page.keyboard.press("ArrowLeft")
    page.locator("#player-box").wait_for(state="hidden")
    # a run that lasts: the bar fills with the share of the time limit used, then goes
    open_level(page, f"t={quote(HARD)}")
    page.fill("#time-limit", "3")
    page.evaluate(RECORD_RUN)
    page.click("#solve")
    page.wait_for_function("document.querySelector('#solver-bar').value > 0.2", timeout=60_000)
    line = page.locator("#solver-status").inner_text()
    assert "searching:" in line and "s of the 3 s time limit used (it may end sooner)" in line, line
    assert page.locator("#solver-bar").is_visible() and page.locator("#stop").is_enabled()
    page.wait_for_function("!document.querySelector('#solve').disabled", timeout=60_000)
    assert "no solution within the time limit (3 s)" in page.locator("#solver-status").inner_text()
    assert page.locator("#solver-bar").is_hidden()
    assert page.evaluate("document.querySelector('#solver-bar').hasAttribute('value')") is False  # reset
    seen = page.evaluate("window.seen")
    assert any(s["bar"] and s["value"] is None for s in seen), seen  # no measure before the search reports
    values = [s["value"] for s in seen if s["bar"] and s["value"] is not None]
    assert values and values == sorted(values) and values[-1] > 0.5, values  # the bar only moves forward


def test_a_time_limit_above_the_playgrounds_cap_says_how_to_raise_it(browser):
    from mazekit.web import Limits
    from tests.web.conftest import LiveServer

    with LiveServer(Limits(solver_seconds=1.0)) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            pg = context.new_page()
            pg.base = server.url
            open_level(pg, f"t={quote(HARD)}")
            pg.fill("#time-limit", "3")
            pg.click("#solve")
            ended = "document.querySelector('#solver-status').textContent.includes('no solution')"
            pg.wait_for_function(ended, timeout=60_000)
            line = pg.locator("#solver-status").inner_text()
            assert "no solution within the time limit (1 s)" in line, line
            assert "3 s asked, the playground allows 1 s" in line and "--solver-seconds 3" in line, line
            assert pg.input_value("#time-limit") == "1"  # the box shows the limit that ran
        finally:
            context.close()


def test_a_solve_that_waits_shows_its_place_in_the_queue(browser):
    """With the one solver slot held by another browser's run, the room says where its run is in
    the fair queue, then solves when the slot frees."""
    import json
    import os

    from websockets.sync.client import connect

    from mazekit.web import Limits
    from tests.web.conftest import LiveServer

    with LiveServer(Limits(solver_runs=1, solver_seconds=4.0)) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        # no cookie: another client, whose run on a level too hard for the solver holds the slot
        with connect(server.url.replace("http", "ws") + "/api/sokoban/solve") as other:
            try:
                other.send(json.dumps({"level": {"text": HARD}, "time_limit": 4}))
                assert json.loads(other.recv())["position"] == 0
                pg = context.new_page()
                pg.base = server.url
                open_level(pg, "c=mazekit&i=2")
                pg.click("#solve")
                waiting = "document.querySelector('#solver-status').textContent.includes('1st in line')"
                pg.wait_for_function(waiting, timeout=20_000)
                line = pg.locator("#solver-status").inner_text()
                assert line.startswith("waiting for a free solver slot: 1st in line (next)"), line
                assert " s" not in line.split("(next)")[1], line  # no clock while it waits
                shot = os.environ.get("MAZEKIT_SHOTS")
                if shot:  # a picture to look at
                    pg.screenshot(path=os.path.join(shot, "sokoban-queued.png"))
                solved = "document.querySelector('#solver-status').textContent.startsWith('solved')"
                pg.wait_for_function(solved, timeout=60_000)
            finally:
                context.close()


def test_paste_the_assignment_shows_the_fake_target(page):
    open_level(page, "c=mazekit&i=0")
    assert page.evaluate(PURPLE_PIXELS) == 0
    page.click("#paste-box summary")
    page.fill("#paste", examples.read_text("sokoban/assignment.txt"))
    page.click("#load-paste")
    page.wait_for_function("document.querySelector('#board').width > 600")
    note = page.locator("#assignment-note")
    note.wait_for(state="visible")
    assert "fake target" in note.inner_text() and "WIN" in note.inner_text()
    assert "fake target (does not count)" in page.locator(".legend").inner_text()
    assert page.evaluate(PURPLE_PIXELS) > 20
    assert "t=" in page.url


def test_a_dead_position_rings_the_boxes_it_is_about(page):
    # two boxes close the top-left corner, and its goal, with the player outside
    pocket = "#######\n#.$  .#\n#$ #  #\n#  @  #\n#######"
    open_level(page, "t=" + quote(pocket))
    page.wait_for_function("document.querySelector('#status').textContent.includes('cannot be solved')")
    line = page.locator("#status").inner_text()
    assert "two boxes can never both reach goals" in line and "ringed on the board" in line
    assert "ring: the boxes the deadlock is about" in page.locator(".legend").inner_text()
    assert page.evaluate(STUCK_PIXELS) > 20
    # a live level has no ring and no such legend entry
    open_level(page, "c=mazekit&i=0")
    page.wait_for_function("!document.querySelector('#status').textContent.includes('cannot be solved')")
    assert page.evaluate(STUCK_PIXELS) == 0
    assert "ring:" not in page.locator(".legend").inner_text()


def test_a_shared_link_shows_the_same_position(page, browser):
    open_level(page, "c=mazekit&i=1")
    press(page, "rrruul")
    page.wait_for_function("document.querySelector('#stats dd').textContent === '6'")
    url = page.url
    assert "m=rrruul" in url
    picture = page.evaluate("document.querySelector('#board').toDataURL()")
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        p2 = other.new_page()
        errors = []
        p2.on("pageerror", lambda exc: errors.append(str(exc)))
        p2.goto(url)
        p2.wait_for_selector("#stats dd")
        p2.wait_for_function("document.querySelector('#stats dd').textContent === '6'")
        assert p2.evaluate("document.querySelector('#board').toDataURL()") == picture
        assert p2.locator("#level").input_value() == "1"
        assert not errors
    finally:
        other.close()


def test_a_bad_pasted_level_shows_the_error_line(page):
    open_level(page, "c=mazekit&i=0")
    page.click("#paste-box summary")
    page.fill("#paste", "#####\n#@$.#\n#%###\n")
    page.click("#load-paste")
    page.wait_for_function("document.querySelector('#status').classList.contains('error')")
    assert "line 3" in page.locator("#status").inner_text()


def test_shorten_a_hand_solution_then_the_solvers(page):
    # a pasted room solved the long way round (a push right, round, back left, round again)
    page.add_init_script("localStorage.clear()")
    page.goto(f"{page.base}/sokoban")
    page.wait_for_selector("#stats dd")
    page.click("#paste-box summary")
    page.fill("#paste", "#######\n#@ $ .#\n#     #\n#######\n")
    page.click("#load-paste")
    page.wait_for_function("document.querySelector('#title').textContent.startsWith('pasted')")
    press(page, "rRdrruLdlluRR")
    page.locator("#win").wait_for(state="visible")
    page.click("[data-role=shorten-mine]")
    page.wait_for_function("document.querySelector('#solver-status').textContent.startsWith('Your solution')")
    assert page.locator("#player-box").is_visible()
    assert "Your solution: shortened" in page.locator("#solver-status").inner_text()
    assert "13 → 3 moves, 4 → 2 pushes" in page.locator("#solver-status").inner_text()
    assert "the shortened solution: rRR" in page.locator("#lurd").inner_text()
    page.click("[data-role=instant]")
    assert "The shortened solution: 3 moves and 2 pushes" in page.locator("#win").inner_text()
    # shortening it again finds nothing shorter, and says so
    page.click("#shorten")
    page.wait_for_function("document.querySelector('#solver-status').textContent.includes('nothing shorter')")
    assert page.locator("#player-box").is_visible()


def test_solve_then_shorten_shows_a_bar_then_the_shorter_solution(page):
    open_level(page, "c=mazekit&i=2")
    page.click("#solve")
    page.locator("#player-box").wait_for(state="visible", timeout=90_000)
    solver = page.locator("#lurd").inner_text()
    page.evaluate(RECORD_RUN)
    page.click("#shorten")
    page.wait_for_function("document.querySelector('#solver-status').textContent.startsWith('The solver')")
    seen = page.evaluate("window.seen")
    shown = [s for s in seen if s["bar"] and s["stop"]]
    assert shown and any(s["text"].startswith("shortening") for s in shown), seen
    assert page.locator("#solver-bar").is_hidden() and page.locator("#stop").is_disabled()
    line = page.locator("#solver-status").inner_text()
    assert "The solver's solution: shortened in" in line and "→" in line, line
    assert "the shortened solution:" in page.locator("#lurd").inner_text() != solver
    page.click("[data-role=instant]")
    assert "The shortened solution:" in page.locator("#win").inner_text()


# the page's fetch, with the playback frames of a solution answered a second late
SLOW_FRAMES = """
const fetchNow = window.fetch;
window.fetch = async (url, init) => {
  if (String(url).includes('/api/sokoban/state') && init && String(init.body).includes('frames'))
    await new Promise((done) => setTimeout(done, 1000));
  return fetchNow(url, init);
};
"""


def test_the_status_says_shortened_only_once_the_shorter_solution_is_shown(page):
    # on a slow server the status line once said "shortened" while the solution text was still
    # empty, waiting for the playback frames (a CI failure of the test above)
    page.add_init_script(SLOW_FRAMES)
    open_level(page, "c=mazekit&i=2")
    page.click("#solve")
    page.locator("#player-box").wait_for(state="visible", timeout=90_000)
    solver = page.locator("#lurd").inner_text()
    page.click("#shorten")
    page.wait_for_function("document.querySelector('#solver-status').textContent.startsWith('The solver')")
    assert "the shortened solution:" in page.locator("#lurd").inner_text() != solver
    assert page.locator("#player-box").is_visible()


def test_shortening_on_a_short_window_brings_the_bar_and_stop_into_view(page):
    # on a short window the solver's panel (the bar, Stop) may be scrolled out of sight when
    # "Shorten it" is pressed (a key, or a click from a scrolled page): a run brings it back
    page.set_viewport_size({"width": 1000, "height": 300})
    open_level(page, "c=mazekit&i=2")
    page.click("#solve")
    page.locator("#player-box").wait_for(state="visible", timeout=90_000)
    page.evaluate("window.scrollTo(0, 0)")
    in_view = (
        "(sel) => { const b = document.querySelector(sel).getBoundingClientRect();"
        " return b.top >= 0 && b.bottom <= innerHeight; }"
    )
    assert not page.evaluate(in_view, "#solver-status")
    page.evaluate("document.querySelector('#shorten').click()")
    assert page.evaluate(in_view, "#solver-status") and page.evaluate(in_view, "#stop")
    page.wait_for_function("document.querySelector('#solver-status').textContent.startsWith('The solver')")


def test_stop_shortening_keeps_the_best_so_far(page):
    from mazekit.sokoban import format_level, generate_level

    g = generate_level(rows=20, cols=20, boxes=10, seed=1, pulls=1500)  # shortens for many seconds
    open_level(page, f"t={quote(format_level(g.level))}")
    page.fill("#time-limit", "30")  # the server's cap
    page.click("#solve")
    page.locator("#player-box").wait_for(state="visible", timeout=90_000)
    page.evaluate(RECORD_RUN)
    page.click("#shorten")
    # the bar fills with the time limit used, and the line says so beside the best so far
    page.wait_for_function(
        "document.querySelector('#solver-bar').value > 0.01"
        " && /windows shortened[1-9]/.test(document.querySelector('#solver-stats').textContent)",
        timeout=60_000,
    )
    line = page.locator("#solver-status").inner_text()
    assert "s of the 30 s time limit used" in line and "best so far" in line, line
    assert page.locator("#solver-bar").is_visible()
    page.click("#stop")
    page.wait_for_function("document.querySelector('#solver-status').textContent.includes('stopped after')")
    line = page.locator("#solver-status").inner_text()
    assert "the best so far:" in line and "→" in line, line
    assert page.locator("#solver-bar").is_hidden() and page.locator("#solve").is_enabled()
    page.locator("#player-box").wait_for(state="visible")
    assert "the shortened solution:" in page.locator("#lurd").inner_text()
    values = [s["value"] for s in page.evaluate("window.seen") if s["bar"] and s["value"] is not None]
    assert values and values == sorted(values), values  # the bar only moves forward
