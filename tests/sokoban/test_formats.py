"""Reading and writing levels: XSB collections, run-length rows, the assignment's map."""

from __future__ import annotations

import numpy as np
import pytest

from mazekit import examples
from mazekit.errors import InputError
from mazekit.sokoban import (
    Level,
    fake_target,
    format_assignment_map,
    format_level,
    format_levels,
    from_xy,
    parse_assignment,
    parse_level,
    parse_levels,
    replay,
    to_xy,
)
from tests.conftest import DATA
from tests.sokoban.conftest import shared_file

SMALL = """\
; A tiny collection
; with a free-text header

; 1
#####
#@$.#
#####

; 2
  ####
###  #
#.$@ #
######
Title: second
"""


def test_collection_titles_and_shapes():
    levels = parse_levels(SMALL)
    assert [lv.title for lv in levels] == ["1", "second"]
    assert [lv.shape for lv in levels] == [(3, 5), (4, 6)]
    lv = levels[1]
    assert lv.rc(lv.start.player) == (2, 3)
    assert [lv.rc(b) for b in lv.start.boxes] == [(2, 2)]
    assert lv.walls[0].tolist() == [False, False, True, True, True, True]
    # the outside of the level is neither wall nor floor
    assert not lv.floor[0, 0] and not lv.walls[0, 0]


def test_title_line_after_the_level_wins():
    levels = parse_levels("; one\n#####\n#@$.#\n#####\nTitle: The One\n")
    assert levels[0].title == "The One"


@pytest.mark.parametrize("floor", ["-", "_", " "])
def test_floor_characters(floor):
    lv = parse_level(f"######\n#@{floor}$.#\n######")
    assert lv.floor[1, 2] and not lv.walls[1, 2]


def test_player_and_box_on_goal():
    lv = parse_level("#####\n#+*$.#\n######".replace("#+*$.#", "#+*$.#"))
    assert lv.goals[1, 1] and lv.goals[1, 2] and lv.goals[1, 4]
    assert lv.rc(lv.start.player) == (1, 1)
    assert format_level(lv).splitlines()[1] == "#+*$.#"


def test_run_length_rows():
    a = parse_level("4#|#-@$.#|6#")
    assert format_level(a) == "####\n# @$.#\n######\n"
    b = parse_level("####\n# @$.#\n######\n")
    assert np.array_equal(a.walls, b.walls) and a.start == b.start
    # counts may also be used in ordinary multi-line levels
    c = parse_level("5#\n#@$.#\n5#\n")
    assert c.shape == (3, 5)


def test_write_and_read_back(tmp_path):
    levels = parse_levels(SMALL)
    for rle in (False, True):
        again = parse_levels(format_levels(levels, rle=rle))
        assert [x.title for x in again] == [x.title for x in levels]
        for x, y in zip(levels, again, strict=False):
            assert np.array_equal(x.walls, y.walls) and np.array_equal(x.goals, y.goals)
            assert x.start == y.start


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("", 0, "no level found"),
        ("just some text\n; and a comment\n", 0, "no level found"),
        ("####\n#@@#\n####", 2, "second player"),
        ("#####\n#  .#\n#####", 1, "no player"),
        ("#####\n#@ .#\n#####", 1, "no boxes"),
        ("#####\n#@$$.#\n#####", 1, "2 boxes but only 1 goals"),
        ("#####\n#@$.#\n#Z  #\n#####", 3, "unexpected character 'Z' in column 2"),
        ("3#|#@$.#|3", 1, "count 3 at the end"),
        ("\n\n#####\n#@.$#\n#  ##\n##@##", 6, "second player"),
    ],
)
def test_bad_xsb(text, line, words):
    with pytest.raises(InputError) as err:
        parse_levels(text)
    assert err.value.line == line
    assert words in err.value.message


def test_binary_garbage_is_an_input_error():
    with pytest.raises(InputError):
        parse_levels(bytes(range(256)))
    with pytest.raises(InputError, match="NUL"):
        parse_levels(b"#####\n#@$.#\x00\n#####")


def test_parse_level_wants_exactly_one():
    with pytest.raises(InputError, match="expected one level, found 2"):
        parse_level(SMALL)


# ---------------------------------------------------------------- assignment


def test_xy_conversion_matches_the_article():
    lv = Level.build(np.zeros((10, 20)), goals=[(0, 0)], player=(2, 18), boxes=[(3, 18)])
    assert to_xy(lv, lv.start.player) == (18, 7)
    assert to_xy(lv, lv.start.boxes[0]) == (18, 6)
    assert from_xy(lv, (18, 6)) == lv.start.boxes[0]
    assert to_xy(lv, lv.cell((0, 0))) == (0, 9)  # the top row is y = 9


def test_fake_target_rule():
    # the article's table: x4 and x5 both at distance 3 of the diagonal, x5 has the smaller x + y
    targets = [(1, 8), (9, 2), (17, 3), (8, 5), (4, 1)]
    assert fake_target(targets) == 4
    assert fake_target([(3, 3), (0, 0)]) == 1
    # mirror images tie on both rules: the smaller x is fake (our documented choice)
    assert fake_target([(6, 2), (2, 6)]) == 1


def test_assignment_parse_pads_short_lines():
    rows = ["#" * 20, "#@o x x", "#" * 20] + ["#"] * 7
    a = parse_assignment("\n".join(rows) + "\n>\n")
    assert a.level.shape == (10, 20)
    assert a.moves == "r"
    # targets (4, 8) and (6, 8): (6, 8) is nearer the diagonal, so it is the fake one
    assert [to_xy(a.level, g) for g in a.level.goal_cells] == [(4, 8)]
    assert a.level.decoys[1, 6]


def test_assignment_map_round_trip():
    text = (DATA / "sokoban" / "article_push.in").read_text()
    a = parse_assignment(text)
    assert format_assignment_map(a.level) == "".join(line.ljust(20) + "\n" for line in text.splitlines()[:10])


@pytest.mark.parametrize(
    "change, line, words",
    [
        (lambda rows: rows[:7], 8, "missing map row"),
        (lambda rows: rows[:10], 11, "missing the line of moves"),
        (lambda rows: [rows[0] + "#"] + rows[1:], 1, "21 characters, at most 20"),
        (lambda rows: rows[:10] + ["^^x"], 11, "unexpected move 'x' in column 3"),
        (lambda rows: rows + ["more"], 12, "unexpected text after the line of moves"),
        (lambda rows: [rows[0], rows[1].replace(" ", "@", 1)] + rows[2:], 3, "second player"),
        (lambda rows: [r.replace("@", " ") for r in rows], 1, "no player"),
        (lambda rows: [r.replace("o", " ") for r in rows], 1, "no box"),
        (lambda rows: [rows[0], rows[1].replace("x", " ", 1)] + rows[2:], 1, "expected 2 (one more than boxes)"),
        (lambda rows: [rows[0], rows[1].replace(" ", "\t", 1)] + rows[2:], 2, "unexpected character '\\t'"),
    ],
)
def test_bad_assignment(change, line, words):
    rows = (DATA / "sokoban" / "article_push.in").read_text().splitlines()
    with pytest.raises(InputError) as err:
        parse_assignment("\n".join(change(rows)) + "\n")
    assert err.value.line == line, err.value
    assert words in err.value.message


def test_too_many_boxes():
    rows = ["#" * 20, "#@ooooo xxxxxx     #"] + ["#" * 20] * 8
    with pytest.raises(InputError, match="5 boxes, at most 4"):
        parse_assignment("\n".join(rows) + "\n\n")


def test_empty_assignment():
    with pytest.raises(InputError, match="empty input"):
        parse_assignment(b"")


# --------------------------------------------------------- shared collections


@pytest.mark.parametrize(
    "name, count",
    [("microban.xsb", 155), ("microban_ii.xsb", 135), ("xsokoban90.xsb", 90), ("boxoban_hard_000.txt", 1000)],
)
def test_every_shared_level_parses(name, count):
    levels = parse_levels(shared_file(name).read_bytes())
    assert len(levels) == count
    for lv in levels:
        n_boxes = len(lv.start.boxes)
        assert n_boxes >= 1 and n_boxes == len(lv.goal_cells)
        # writing out and reading back gives the same level
        again = parse_level(format_level(lv))
        assert np.array_equal(again.walls, lv.walls[: again.shape[0], : again.shape[1]])
        assert [again.rc(b) for b in again.start.boxes] == [lv.rc(b) for b in lv.start.boxes]


def test_shared_titles():
    micro = parse_levels(shared_file("microban.xsb").read_bytes())
    assert micro[0].title == "1" and micro[153].title == "Take the long way home."
    xs = parse_levels(shared_file("xsokoban90.xsb").read_bytes())
    assert xs[0].title == "screen.01" and xs[89].title == "screen.90"
    box = parse_levels(shared_file("boxoban_hard_000.txt").read_bytes())
    assert box[0].title == "0" and box[999].title == "999" and box[0].shape == (10, 10)


def test_every_reference_solution_wins(xsokoban):
    levels, solutions = xsokoban
    for i, (lv, lurd) in enumerate(zip(levels, solutions, strict=False), 1):
        r = replay(lv, lurd)
        assert r.error == "" and r.solved, (i, r.error)
        assert r.moves == len(lurd) and r.pushes == sum(ch.isupper() for ch in lurd)


def test_bundled_examples_parse():
    names = [n for n in examples.names() if n.startswith("sokoban/")]
    assert "sokoban/assignment.txt" in names
    for n in names:
        if n.endswith(".xsb"):
            assert parse_levels(examples.read_bytes(n))
        else:
            assert parse_assignment(examples.read_bytes(n))
