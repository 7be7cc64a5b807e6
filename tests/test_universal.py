"""Universal escape strings: verify against a plain simulation, exact against brute force,
heuristics always valid, bounds below the optimum, compiled = interpreted, the CLI."""

from __future__ import annotations

import io
import sys
import time
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mazekit import examples
from mazekit import universal as U
from mazekit.cli import main
from mazekit.errors import InputError
from mazekit.generate import backtracker
from mazekit.universal import _kernels as K
from mazekit.universal._model import Model, decode, encode
from mazekit.universal.bounds import _pair_bound, _pair_table, _predecessors, _triple_table
from mazekit.universal.exact import astar_codes, polish_codes
from mazekit.universal.heuristic import beam_codes, greedy_codes, pair_beam_codes
from tests.conftest import jit_mode
from tests.strategies import mazes

STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
# The article's example strings, written for its Julia code (where U moves down).
ARTICLE_43 = "RRRLDUUURRRUUURRRRLLLRRUULDDDDRRRRDDDRRRUUU"
ARTICLE_200 = (
    "RDRRRDLRLUULURUDUUDLLLLLULLUDRRURDLDLULLRLUUUDURUUUULRUDUURUUDLRLLULRLUDRRLRRULLDULRRRRULRLLD"
    "ULRLDRUDURDRUUDUUDDDDDLURRRRDRDURRRDDLLDUURRRLDRUDLRLLRDDRLRRRDDLLLRUURDRLURDLLUULLLLUURLLULUD"
    "ULDDLDLLRLDUD"
)


def julia():
    return U.read_maze(examples.read_text("julia.txt"))


# ------------------------------------------------------------ plain-Python references


def simulate(passable, exit, string, start):
    """The robot, one command at a time, exactly as the task states it."""
    rows, cols = passable.shape
    r, c = start
    if (r, c) == exit:
        return True
    for ch in string:
        dr, dc = STEP[ch]
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols and passable[nr, nc]:
            r, c = nr, nc
        if (r, c) == exit:
            return True
    return False


def brute_force_optimum(passable, exit, starts=None):
    """BFS over sets of positions: the length of a shortest universal string (None if none)."""
    rows, cols = passable.shape
    start = (
        frozenset((r, c) for r in range(rows) for c in range(cols) if passable[r, c] and (r, c) != exit)
        if starts is None
        else frozenset(starts)
    )
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        cur, d = queue.popleft()
        if not cur:
            return d
        for dr, dc in STEP.values():
            nxt = set()
            for r, c in cur:
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and passable[nr, nc]:
                    r, c = nr, nc
                if (r, c) != exit:
                    nxt.add((r, c))
            fz = frozenset(nxt)
            if fz not in seen:
                seen.add(fz)
                queue.append((fz, d + 1))
    return None


def solvable(passable, exit):
    return not Model(passable, exit).stuck().size


# ------------------------------------------------------------ verify


@given(mazes(6), st.text(alphabet="UDLR", max_size=30))
def test_verify_matches_the_plain_simulation(maze, string):
    passable, exit = maze
    v = U.verify(passable, exit, string)
    rows, cols = passable.shape
    starts = [(r, c) for r in range(rows) for c in range(cols) if passable[r, c] and (r, c) != exit]
    ok = [simulate(passable, exit, string, s) for s in starts]
    assert v.total == len(starts)
    assert v.reached == sum(ok)
    assert [tuple(p) for p in v.failed.tolist()] == [s for s, good in zip(starts, ok, strict=False) if not good]
    for s, good in zip(starts, ok, strict=False):
        assert (v.steps[s] >= 0) == good
        if good:
            assert simulate(passable, exit, string[: v.steps[s]], s)
            assert not simulate(passable, exit, string[: v.steps[s] - 1], s)


def test_the_articles_numbers():
    passable, exit = julia()
    assert passable.shape == (10, 10) and exit == (2, 4)
    assert U.verify(passable, exit, "").total == 70  # "from 70"
    swap = str.maketrans("UD", "DU")  # the article's code moves down on U
    assert str(U.verify(passable, exit, ARTICLE_43.translate(swap))) == "10 test completed from 70"
    assert str(U.verify(passable, exit, ARTICLE_200.translate(swap))) == "41 test completed from 70"


def test_verify_rejects_other_characters():
    with pytest.raises(ValueError, match="'x' at position 3"):
        U.verify([[1, 1]], (0, 0), "LRx")


def test_encode_decode_round_trip():
    assert decode(encode("UDLRRL")) == "UDLRRL"


# ------------------------------------------------------------ exact and bounds


@settings(max_examples=40)
@given(mazes(4))
def test_exact_is_the_brute_force_optimum_and_bounds_stay_below(maze):
    passable, exit = maze
    best = brute_force_optimum(passable, exit)
    res = U.find(passable, exit, method="exact")
    if best is None:
        assert not res.found and res.stuck.size and res.lower_bound == -1
        return
    assert res.found and res.proven and len(res.string) == best
    assert U.verify(passable, exit, res.string).ok
    assert res.distance_bound <= res.pair_bound <= best
    assert U.distance_bound(passable, exit) == res.distance_bound
    assert U.pair_bound(passable, exit).value == res.pair_bound
    sampled = U.pair_bound(passable, exit, sample=3)
    assert sampled.value <= res.pair_bound


@settings(max_examples=30)
@given(mazes(4), st.data())
def test_exact_from_a_subset_of_starts_and_polish(maze, data):
    passable, exit = maze
    assume(solvable(passable, exit))
    model = Model(passable, exit)
    assume(model.n > 0)  # a start besides the exit
    chosen = sorted(set(data.draw(st.lists(st.integers(0, model.n - 1), min_size=1, max_size=4))))
    table = _pair_table(model)
    out = astar_codes(model, table, limit=10**6, cells=np.array(chosen))
    starts = [tuple(model.cells[i]) for i in chosen]
    assert out.complete and len(out.codes) == brute_force_optimum(passable, exit, starts)
    greedy = greedy_codes(model)
    polished = polish_codes(model, table, greedy)
    assert len(polished) <= len(greedy)
    assert U.verify(passable, exit, decode(polished)).ok


def test_article_maze_exact_optimum_is_35_and_fast():
    passable, exit = julia()
    U.find(passable, exit, method="exact")  # compile / load the cache
    t = time.perf_counter()
    res = U.find(passable, exit, method="exact")
    elapsed = time.perf_counter() - t
    assert len(res.string) == 35 and res.proven and res.method == "exact"
    assert (res.distance_bound, res.pair_bound) == (20, 31)
    assert U.verify(passable, exit, res.string).ok
    assert elapsed < 1.0, elapsed
    auto = U.find(passable, exit)  # a pair-scored beam finds a 35, the exact search proves it
    assert len(auto.string) == 35 and auto.proven and U.verify(passable, exit, auto.string).ok
    assert U.find(passable, exit).string == auto.string  # deterministic without a time limit


def test_max_length_below_the_optimum_is_a_proven_no():
    passable, exit = julia()
    res = U.find(passable, exit, method="exact", max_length=34)
    assert not res.found and res.string == "" and res.lower_bound == 35
    ok = U.find(passable, exit, max_length=35)
    assert ok.found and len(ok.string) == 35


def test_pair_distances_table():
    passable, exit = julia()
    pd = U.pair_distances(passable, exit)
    free = np.argwhere(passable)
    sub = pd[free[:, 0], free[:, 1]][:, free[:, 0], free[:, 1]]
    assert (sub == sub.T).all() and sub.min() >= 0
    from mazekit.search import bfs_distances

    dist = bfs_distances(passable, exit)
    assert (np.diag(sub) == dist[passable]).all()
    assert sub.max() == 31 and pd[exit][exit] == 0
    assert (pd[~passable] == -1).all()


def test_stuck_cells_are_an_answer():
    passable = np.array([[1, 1, 0, 1], [1, 1, 0, 1]], dtype=bool)
    for method in ("exact", "heuristic", "auto"):
        res = U.find(passable, (0, 0), method=method)
        assert not res.found and res.length == -1
        assert res.stuck.tolist() == [[0, 3], [1, 3]]
    assert U.distance_bound(passable, (0, 0)) == -1
    assert U.pair_bound(passable, (0, 0)).value == -1


def test_no_start_at_all():
    res = U.find([[1]], (0, 0))
    assert res.found and res.string == "" and res.starts == 0 and res.proven


def test_bad_arguments():
    with pytest.raises(ValueError, match="method"):
        U.find([[1, 1]], (0, 0), method="fast")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="outside"):
        U.find([[1, 1]], (3, 0))
    with pytest.raises(ValueError, match="max_length"):
        U.find([[1, 1]], (0, 0), max_length=-1)


# ------------------------------------------------------------ heuristics


@settings(max_examples=40)
@given(mazes(7))
def test_heuristic_strings_always_verify(maze):
    passable, exit = maze
    assume(solvable(passable, exit))
    res = U.find(passable, exit, method="heuristic")
    assert res.found and U.verify(passable, exit, res.string).ok
    assert res.lower_bound <= len(res.string)
    model = Model(passable, exit)
    for far in (True, False):
        assert U.verify(passable, exit, decode(greedy_codes(model, farthest=far))).ok


@settings(max_examples=40)
@given(mazes(5), st.sampled_from([1, 4, 16]), st.sampled_from([0.0, 0.5, 32.0]), st.booleans())
def test_pair_beam_strings_verify_and_never_beat_the_optimum(maze, width, weight, with_triples):
    passable, exit = maze
    assume(solvable(passable, exit))
    model = Model(passable, exit)
    assume(model.n > 0)
    best = brute_force_optimum(passable, exit)
    table = _pair_table(model)
    triples = _triple_table(model) if with_triples else None
    kw = {"width": width, "weight": weight, "triples": triples}
    codes = pair_beam_codes(model, table, limit=len(greedy_codes(model)) + 1, **kw)
    if codes is not None:
        assert len(codes) >= best and U.verify(passable, exit, decode(codes)).ok
    # nothing shorter than the optimum exists: with it as the limit the beam finds nothing
    assert pair_beam_codes(model, table, limit=best, **kw) is None


@settings(max_examples=25, deadline=None)
@given(mazes(5))
def test_anytime_auto_is_valid_and_its_bound_is_below_the_optimum(maze):
    passable, exit = maze
    assume(solvable(passable, exit))
    best = brute_force_optimum(passable, exit)
    res = U.find(passable, exit, time_limit=2.0)
    assert res.found and U.verify(passable, exit, res.string).ok
    assert res.lower_bound <= best <= len(res.string)
    assert res.proven == (len(res.string) == res.lower_bound)


def test_anytime_default_narrows_the_gap_on_a_12x12_braided_maze():
    bench = str(Path(__file__).resolve().parent.parent / "benchmarks")
    sys.path.insert(0, bench)
    try:
        from bench_universal_quality import make_maze
    finally:
        sys.path.remove(bench)
    passable, exit, kind = make_maze(12, 1)
    assert kind == "braided"
    res = U.find(passable, exit, time_limit=3.0)
    assert res.found and U.verify(passable, exit, res.string).ok
    assert len(res.string) <= 1.15 * res.lower_bound, (len(res.string), res.lower_bound)


def test_heuristic_on_a_generated_maze():
    maze = backtracker(12, 12, rng=3)
    exit = (1, 1)
    res = U.find(maze, exit, method="heuristic")
    assert res.found and res.method in ("beam", "greedy")
    assert U.verify(maze, exit, res.string).ok
    assert res.pair_bound <= len(res.string)
    assert res.pair_bound >= res.distance_bound
    again = U.find(maze, exit, method="heuristic")
    assert again.string == res.string  # deterministic


def test_time_limit_still_answers():
    maze = backtracker(20, 20, rng=5)
    res = U.find(maze, (1, 1), method="heuristic", time_limit=0.01)
    assert res.found and U.verify(maze, (1, 1), res.string).ok


def test_exact_refuses_a_maze_too_big_for_the_pair_table(monkeypatch):
    from mazekit.universal import _find as find_mod
    from mazekit.universal import bounds

    monkeypatch.setattr(bounds, "PAIR_TABLE_LIMIT", 10)
    monkeypatch.setattr(find_mod, "PAIR_TABLE_LIMIT", 10)
    maze = backtracker(5, 5, rng=1)
    with pytest.raises(ValueError, match="heuristic"):
        U.find(maze, (1, 1), method="exact")
    res = U.find(maze, (1, 1))  # auto: sampled pair bound, heuristics
    assert res.found and not res.pair_bound_exhaustive
    assert res.distance_bound <= res.pair_bound <= len(res.string)
    assert U.verify(maze, (1, 1), res.string).ok


# ------------------------------------------------------------ compiled = interpreted


def _kernel_outputs(passable, exit):
    model = Model(passable, exit)
    n1 = model.n + 1
    out = {}
    moves = encode("URDLLDRUUL" * 3)
    steps = np.empty(model.n, dtype=np.int32)
    K.walk_kernel.pick(1)(model.nxt, moves, np.arange(model.n, dtype=np.int32), steps)
    out["walk"] = steps.tolist()
    pos = np.arange(model.n, dtype=np.int32)
    sizes = np.empty(len(moves), dtype=np.int64)
    count = K.run_set_kernel.pick(1)(model.nxt, moves, pos, model.n, np.zeros(n1, dtype=np.int32), sizes)
    out["run_set"] = (sorted(pos[:count].tolist()), sizes.tolist())
    table = _pair_table(model)
    out["pairs"] = table.tolist()
    if model.n and not model.stuck().size:
        out["greedy"] = greedy_codes(model).tolist()
        beam = beam_codes(model, width=4, weight=0.1, max_length=4 * len(out["greedy"]) + 4)
        out["beam"] = None if beam is None else beam.tolist()
        pbeam = pair_beam_codes(model, table, width=4, weight=0.5, limit=len(out["greedy"]) + 1)
        out["pair_beam"] = None if pbeam is None else pbeam.tolist()
        res = astar_codes(model, table, limit=10**6)
        out["exact"] = None if res.codes is None else res.codes.tolist()
        pb = _pair_bound(model, sample=4)[0]
        out["sampled"] = pb.value
        words = np.zeros((model.n + 63) // 64, dtype=np.uint64)
        words[0] = np.uint64(1)
        ow = np.empty((4, len(words)), dtype=np.uint64)
        oh = np.empty(4, dtype=np.int64)
        K.expand_kernel.pick(1)(model.nxt, table, words, ow, oh, np.empty(n1, dtype=np.int32))
        out["expand"] = (ow.tolist(), oh.tolist())
    return out


@settings(max_examples=15)
@given(mazes(5))
def test_compiled_kernels_match_the_plain_python(maze):
    passable, exit = maze
    with jit_mode("never"):
        slow = _kernel_outputs(passable, exit)
    with jit_mode("always"):
        fast = _kernel_outputs(passable, exit)
    assert slow == fast


def test_big_inputs_run_compiled():
    maze = backtracker(15, 15, rng=2)
    before = (K.pair_bfs_kernel.calls_compiled, K.pair_beam_kernel.calls_compiled, K.walk_kernel.calls_compiled)
    res = U.find(maze, (1, 1), method="heuristic")
    U.verify(maze, (1, 1), res.string)
    after = (K.pair_bfs_kernel.calls_compiled, K.pair_beam_kernel.calls_compiled, K.walk_kernel.calls_compiled)
    assert all(a > b for a, b in zip(after, before, strict=False))
    passable, exit = julia()
    n_before = (K.astar_kernel.calls_compiled, K.triple_bfs_kernel.calls_compiled)
    U.find(passable, exit, method="exact")
    n_after = (K.astar_kernel.calls_compiled, K.triple_bfs_kernel.calls_compiled)
    assert all(a > b for a, b in zip(n_after, n_before, strict=True))


# ------------------------------------------------------------ reading mazes


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("00\n01\n", 0, "no exit"),
        ("0x\nx1\n", 2, "2 exits"),
        ("0x\n011\n", 2, "expected 2 cells"),
        ("0x\n0#\n", 2, "unexpected character '#'"),
        ("", 0, "empty input"),
    ],
)
def test_read_maze_errors(text, line, words):
    with pytest.raises(InputError, match=words) as info:
        U.read_maze(text)
    assert info.value.line == line


def test_the_bundled_example_is_the_articles_maze():
    text = examples.read_text("julia.txt")
    assert text.splitlines()[0] == "0011010011" and text.splitlines()[2] == "0110x00000"
    assert len(text.splitlines()) == 10 and text.endswith("\n")


# ------------------------------------------------------------ command line


@pytest.fixture
def cli(monkeypatch, capsysbinary):
    def run(argv, stdin=b""):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        status = main(argv)
        out, err = capsysbinary.readouterr()
        return status, out.decode(), err.decode()

    return run


def test_cli_default_is_the_articles_maze(cli):
    status, out, err = cli(["universal"])
    assert status == 0
    string = out.splitlines()[0]
    assert len(string) == 35 and set(string) <= set("UDLR")
    assert "length 35, lower bound 35" in err and "proven shortest" in err
    status, out, _ = cli(["universal", "--verify", "-"], stdin=out.encode())
    assert status == 0 and out == "70 test completed from 70\n"


def test_cli_verify_the_articles_strings(cli):
    status, out, err = cli(["universal", "--verify", ARTICLE_43, "--swap-ud"])
    assert status == 1 and out == "10 test completed from 70\n"
    assert "still inside" in err
    status, out, _ = cli(["universal", "--verify", ARTICLE_200, "--swap-ud", "-q"])
    assert (status, out) == (1, "41 test completed from 70\n")


def test_cli_file_heuristic_and_limits(cli, tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("000\n0x0\n011\n")
    status, out, err = cli(["universal", str(path), "--heuristic"])
    assert status == 0 and U.verify(*U.read_maze(path.read_text()), out.strip()).ok
    status, out, err = cli(["universal", "--max-length", "30"])
    assert status == 1 and out == "\n" and "proven: every string needs at least" in err
    assert 31 <= int(err.split("at least")[1].split(")")[0]) <= 35  # the optimum is 35
    status, out, err = cli(["universal", str(path), "--exact", "-o", str(tmp_path / "s.txt")])
    assert status == 0 and out == "" and (tmp_path / "s.txt").read_text().strip()


@pytest.mark.parametrize(
    "stdin, words",
    [
        (b"00\n01\n", "no exit"),
        (b"0x\nx1\n", "2 exits"),
        (b"0x\n0a\n", "unexpected character 'a'"),
        (b"0x0\n01\n", "expected 3 cells"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(cli, stdin, words):
    status, out, err = cli(["universal", "-"], stdin=stdin)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err


def test_cli_bad_values(cli):
    assert cli(["universal", "--verify", "UDX"])[0] == 2
    assert cli(["universal", "--max-length", "-3"])[0] == 2
    assert cli(["universal", "--time-limit", "0"])[0] == 2


def test_cli_no_string(cli):
    status, out, err = cli(["universal", "-"], stdin=b"0x1\n110\n")
    assert status == 1 and "cannot reach the exit" in err and "1,2" in err


def test_interrupt_returns_the_best_string_so_far(monkeypatch):
    from mazekit.universal import _find as find_mod

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(find_mod, "pair_beam_codes", boom)
    maze = backtracker(12, 12, rng=4)
    res = U.find(maze, (1, 1), method="heuristic", interruptible=True)
    assert res.found and not res.complete and res.method == "greedy"
    assert U.verify(maze, (1, 1), res.string).ok
    with pytest.raises(KeyboardInterrupt):
        U.find(maze, (1, 1), method="heuristic")


def test_cli_interrupt_prints_the_string_and_exits_130(cli, monkeypatch, tmp_path):
    from mazekit.universal import _find as find_mod

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(find_mod, "pair_beam_codes", boom)
    path = tmp_path / "m.txt"
    maze = backtracker(6, 6, rng=1)
    rows = ["".join("0" if v else "1" for v in row) for row in maze]
    rows[1] = rows[1][:1] + "x" + rows[1][2:]
    path.write_text("\n".join(rows) + "\n")
    status, out, err = cli(["universal", str(path), "--heuristic"])
    assert status == 130 and "interrupted" in err
    assert U.verify(*U.read_maze(path.read_text()), out.strip()).ok


# ------------------------------------------------------------ the triple bound


@settings(max_examples=30, deadline=None)
@given(mazes(4))
def test_triple_bound_between_the_pair_bound_and_the_optimum(maze):
    passable, exit = maze
    assume(solvable(passable, exit))
    best = brute_force_optimum(passable, exit)
    model = Model(passable, exit)
    assume(model.n > 0)
    tb = U.triple_bound(passable, exit)
    assert U.pair_bound(passable, exit).value <= tb <= best
    table = _pair_table(model)
    triples = _triple_table(model)
    out = astar_codes(model, table, limit=10**6, triples=triples)
    assert out.complete and len(out.codes) == best
    assert U.verify(passable, exit, decode(out.codes)).ok
    cut = astar_codes(model, table, limit=10**6, triples=triples, node_limit=0)
    assert cut.lower_bound <= best


def _triple_outputs(passable, exit):
    model = Model(passable, exit)
    n1 = model.n + 1
    pstart, plist = _predecessors(model.nxt)
    td = np.full(n1**3, -1, dtype=np.int16)
    K.triple_bfs_kernel.pick(1)(pstart, plist, n1, td, np.empty(n1**3, dtype=np.int32))
    pd = _pair_table(model)
    words = np.zeros((model.n + 63) // 64, dtype=np.uint64)
    words[:] = np.uint64(2**64 - 1)
    ow = np.empty((4, len(words)), dtype=np.uint64)
    oh = np.empty(4, dtype=np.int64)
    if model.n and not model.stuck().size:
        words[-1] = np.uint64((1 << (model.n - 64 * (len(words) - 1))) - 1)
        K.expand3_kernel.pick(1)(model.nxt, pd, td, words, ow, oh, np.empty(n1, dtype=np.int32), 10**6)
        exact = astar_codes(model, pd, limit=10**4, triples=td)  # astar_kernel, compiled or not as the mode says
        cut = astar_codes(model, pd, limit=10**4, triples=td, node_limit=3)
        sub = astar_codes(model, pd, limit=10**4, triples=td, cells=np.array([0, model.n - 1]))
        runs = [(None if r.codes is None else r.codes.tolist(), r.lower_bound, r.complete) for r in (exact, cut, sub)]
        beam = pair_beam_codes(model, pd, width=4, weight=0.5, limit=4 * model.n + 4, triples=td)
        runs.append(None if beam is None else beam.tolist())
        return td.tolist(), ow.tolist(), oh.tolist(), runs
    return td.tolist()


@settings(max_examples=15)
@given(mazes(4))
def test_compiled_triple_kernels_match_the_plain_python(maze):
    passable, exit = maze
    with jit_mode("never"):
        slow = _triple_outputs(passable, exit)
    with jit_mode("always"):
        fast = _triple_outputs(passable, exit)
    assert slow == fast


def test_big_maze_path_widens_the_sum_beams_while_time_remains(monkeypatch):
    from mazekit.universal import _find as find_mod

    monkeypatch.setattr(find_mod, "PAIR_BEAM_CELLS", 10)  # this maze takes the big-maze path
    monkeypatch.setattr(find_mod, "SUM_BEAM_MAX_WIDTH", 2048)
    maze = backtracker(7, 7, rng=2)
    plain = U.find(maze, (1, 1), method="heuristic")
    res = U.find(maze, (1, 1), time_limit=1.5)
    assert res.found and U.verify(maze, (1, 1), res.string).ok
    assert len(res.string) <= len(plain.string) and res.lower_bound <= len(res.string)
