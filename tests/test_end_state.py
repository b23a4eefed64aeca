"""The principal variation and the end state: the solver's line, ``solve --pv``, and the
end states ``solve-all`` writes (replayed, invariant under the board's symmetries)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from cli.main import main
from pipeline.errors import CommandError
from pipeline.expand import TreeSettings, expand_tree
from pipeline.formats.solution_tree import subproblems_of, tree_text
from pipeline.formats.subproblem import Subproblem, load_subproblem, parse_subproblem
from pipeline.solve_all_pipeline import Layout, record_settings
from pipeline.symmetries import transform, transform_point
from solver import BLACK, DEFAULT_MAX_AREA, EMPTY, WHITE, Board, ProblemError, Solver, load_problem, parse_problem
from solver.problem import parse_sgf_point

OWN_PROBLEMS = Path(__file__).resolve().parents[1] / "sgf-problems"
# Small own problems (a few dozen tree nodes each, kos among them, no position shared between them).
RUN_PROBLEMS = ("approach/outside-descent-ko", "ko/corner-eight-ko", "side-shapes/side-cut-live",
                "tesuji/hane-and-placement-kill")
# Own problems with trees of 150 nodes or so and no symmetry of their own (one a ko).
TURNED_PROBLEMS = ("corner-shapes/narrow-corner-live", "ko/side-first-line-ko")

# White's corner group, walled in by Black, with three points of eye space in a row:
# whoever plays the middle point decides it.  White's group is the target.
STRAIGHT_THREE = "(;FF[4]GM[1]SZ[9]PL[{pl}]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]MA[bb])"
# The same group with two separate eyes: alive whoever moves first.
TWO_EYES = "(;FF[4]GM[1]SZ[9]PL[{pl}]AB[ea][eb][ac][bc][cc][dc][ec]AW[ba][da][ab][bb][cb][db]MA[bb])"


def problem_text(template: str, pl: str) -> bytes:
    return template.format(pl=pl).encode()


def replayed(stones: np.ndarray, moves) -> np.ndarray:
    """The board once ``moves`` ((colour, point or "pass")) are played from ``stones`` by the rules."""
    board = Board(stones.shape[0])
    for y, x in zip(*np.nonzero(stones)):
        board.place(int(x), int(y), int(stones[y, x]))
    for color, move in moves:
        if move != "pass":
            assert board.play(*move, color) >= 0, (color, move)
    return board.to_array()


# -- the solver's line ------------------------------------------------------------

@pytest.mark.parametrize("pl", ["B", "W"])
def test_the_line_ends_in_a_capture_when_the_attacker_wins_and_in_two_passes_when_the_defender_wins(pl):
    problem = parse_problem(problem_text(STRAIGHT_THREE, pl))
    solver = Solver(problem)
    verdict = solver.solve(problem.to_play)
    before = solver.board.to_array()
    line = solver.principal_variation(problem.to_play)
    assert line.complete and line.winner == verdict.winner
    assert np.array_equal(solver.board.to_array(), before) and solver.history == []
    assert line.moves[0] == (problem.to_play, verdict.move)   # the winner opens with the solve's move
    assert [color for color, _ in line.moves] == [problem.to_play if i % 2 == 0 else 3 - problem.to_play
                                                  for i in range(len(line.moves))]
    assert np.array_equal(line.stones, replayed(problem.stones, line.moves))
    x, y = problem.target
    if pl == "B":   # Black, the attacker, takes the middle point and captures
        assert verdict.status == "unsafe" and line.captured and line.ended == "capture"
        assert line.moves[-1][0] == problem.attacker and line.stones[y, x] == EMPTY
    else:           # White takes it first and lives
        assert verdict.status == "safe" and not line.captured and line.ended == "passes"
        assert [move for _, move in line.moves[-2:]] == ["pass", "pass"]
        assert line.stones[y, x] == problem.defender
    # the line changes no verdict
    assert solver.solve(problem.to_play).winner == verdict.winner
    assert solver.solve(3 - problem.to_play).winner == Solver(problem).solve(3 - problem.to_play).winner


@pytest.mark.parametrize("pl", ["B", "W"])
def test_a_living_group_passes_and_the_attacker_with_no_move_passes(pl):
    problem = parse_problem(problem_text(TWO_EYES, pl))
    line = Solver(problem).principal_variation(problem.to_play)
    assert line.moves == [(problem.to_play, "pass"), (3 - problem.to_play, "pass")]
    assert line.complete and not line.captured and line.sgf_moves == [f"{pl}[]", f"{'BW'[pl == 'B']}[]"]
    assert np.array_equal(line.stones, problem.stones)


def test_a_line_out_of_budget_or_moves_says_so():
    problem = parse_problem(problem_text(STRAIGHT_THREE, "B"))
    starved = Solver(problem).principal_variation(problem.to_play, max_nodes=1)
    assert not starved.complete and starved.winner is None and starved.moves == []
    assert starved.ended == "node budget"
    cut = Solver(problem).principal_variation(problem.to_play, max_moves=1)
    assert not cut.complete and len(cut.moves) == 1 and cut.winner == problem.attacker
    assert cut.ended == "move cap"


def test_the_line_continues_from_the_moves_played():
    problem = parse_problem(problem_text(STRAIGHT_THREE, "W"))
    solver = Solver(problem)
    assert solver.play(1, 0, problem.attacker)   # Black took the vital point: White is lost
    line = solver.principal_variation(problem.defender)
    assert line.captured and line.complete and len(solver.history) == 1


def store_exact_win(solver, color, point):
    """Write into the DFS table what a solve elsewhere would leave: ``color``, to move in the
    solver's position, wins on every path by ``point`` (the attacker is ko master)."""
    from solver.dfs import _entry
    from solver.solver import ko_master_value
    from solver.table import node_key, table_slot

    table = solver.tables["dfs"]
    key = node_key(solver.board.hash[0], color, ko_master_value("attacker", solver.problem.defender))
    slot = table_slot(table.keys, key)
    table.keys[slot] = key
    table.values[slot, 0] = _entry(1, color, solver.board.point(*point))


def test_a_line_never_plays_a_table_move_that_this_path_forbids():
    """An exact result holds on every path, its move need not: a ko retake found where it
    recreated no position is forbidden to the side that is not ko master where it does."""
    problem = load_problem(str(OWN_PROBLEMS / "ko" / "side-hane-ko.sgf"))
    black, white = problem.attacker, problem.defender
    moves = ((3, 0, black), (3, 1, white), (2, 1, black))   # Black takes the ko at (2, 0)
    solver = Solver(problem)
    for x, y, color in moves:
        assert solver.play(x, y, color)
    before = solver.board.to_array()
    # White's retake at (2, 0) is a legal move that recreates the position before Black's capture.
    assert solver.play(2, 0, white) and int(solver.board.hash[0]) == solver.history[-2]
    solver.take_back()
    # What a solve of this position on another path would store: White wins by the retake.
    store_exact_win(solver, white, (2, 0))
    line = solver.principal_variation(white)
    assert (solver.board.to_array() == before).all()
    assert line.complete and line.winner == white and not line.captured
    assert line.moves[0][0] == white and line.moves[0][1] != (2, 0)
    played = Solver(problem)
    for x, y, color in moves:
        played.play(x, y, color)
    seen = set(played.history) | {int(played.board.hash[0])}
    for color, move in line.moves:   # no position recreated by White, who is not ko master
        if move == "pass":   # (a pass ends the local history the rule looks back on)
            seen = {int(played.board.hash[0])}
            continue
        assert played.play(*move, color)
        assert color != white or int(played.board.hash[0]) not in seen
        seen.add(int(played.board.hash[0]))


def test_a_line_prefers_a_winning_move_that_does_not_lead_back_to_one_of_its_positions():
    """The ko master's table move may retake a ko and so lead back round a cycle with the
    loser's replies: another winning move comes first."""
    problem = load_problem(str(OWN_PROBLEMS / "corner-shapes" / "j-group-wedge-kill.sgf"))
    black, white = problem.attacker, problem.defender
    solver = Solver(problem)
    for x, y, color in ((0, 7, black), (0, 6, white), (1, 8, black)):
        assert solver.play(x, y, color)
    start = int(solver.board.hash[0])
    # White's reply at (0, 8) takes the ko; Black's retake at (0, 7) leads back to the start.
    assert solver.play(0, 8, white)
    assert solver.play(0, 7, black) and int(solver.board.hash[0]) == start
    solver.take_back()
    # A table that has Black win there by the retake.
    store_exact_win(solver, black, (0, 7))
    solver.take_back()
    line = solver.principal_variation(white)
    assert line.moves[0] == (white, (0, 8))
    assert line.moves[1][0] == black and line.moves[1][1] != (0, 7)
    assert line.complete and line.captured and line.winner == black


SHARED_OPEN = Path(__file__).resolve().parents[1] / ".." / "shared" / "sgf-open"


def enclosed_book_problem(relative: str, name: str):
    """A problem of ../shared/sgf-open closed by ``tsumego enclose`` (the test is skipped
    when the folder is not beside the repository)."""
    from pipeline.enclose.outcome import enclose_file

    path = SHARED_OPEN / relative
    if not path.exists():
        pytest.skip("../shared/sgf-open is not beside the repository")
    enclosed = enclose_file(path.read_bytes(), str(path), name, 200_000, 40)
    assert enclosed.sgf is not None, enclosed.record
    return parse_problem(enclosed.sgf.encode(), str(path))


def test_a_loser_s_pass_on_the_line_does_not_turn_the_table_s_wins_into_losses():
    """A book problem whose attacker-first line runs round a ko, the defender passing on the
    way: remembered as the search remembers a pass, that pass let the defender pass again at
    the same position and live where the table's results say the attacker wins, and the
    line ended in a disagreement (solver.principal_variation's doc)."""
    problem = enclosed_book_problem("famous-creations-three-hundred-selections/141.sgf",
                                    "famous-creations 141")
    expansion = expand_tree(problem, problem.attacker, max_nodes=2_000_000, max_subproblems=1)
    root = expansion.root
    assert not root.safe
    line = root.principal_variation
    # the line goes round the ko through the defender's pass and on to the capture
    assert (problem.defender, "pass") in line
    assert replayed(problem.stones, line)[problem.target[1], problem.target[0]] == EMPTY


def test_a_long_ko_fight_on_a_book_problem_ends_within_the_line_s_move_cap():
    """maeda 10k-5k 071, defender first: three moves into the tree, the defender retook a ko
    after each move inside its own area, and a line needed 102 moves on 19 points (four
    times the area plus twenty, the cap before, stopped it at 96).  Since the defender no
    longer fills the target's eyes (solver.movegen.fills_target_eye) the search's order has
    changed and so have the lines read from its table (that 102-move line held no such fill):
    every line still ends, the longest in 46 moves then, in 90 once the attacker's pass was
    left out as ko master (solver.movegen) and in 44 since the moves are ordered by learned
    patterns (solver.patterns), and a line over the old cap again would show here."""
    problem = enclosed_book_problem("maeda-tsumego-collection-10k-5k/071.sgf", "maeda 10k-5k 071")
    expansion = expand_tree(problem, problem.defender, max_nodes=2_000_000, max_subproblems=100)
    lines = []
    pending = [expansion.root]
    while pending:
        node = pending.pop()
        lines.append(node.principal_variation)
        pending.extend(node.children)
    assert len(lines) == 100 and all(lines)
    assert max(len(line) for line in lines) <= 96


# -- tsumego solve --pv -----------------------------------------------------------

def test_solve_pv_prints_the_main_line_and_the_board_at_its_end(tmp_path, capsys):
    path = tmp_path / "straight-three.sgf"
    path.write_bytes(problem_text(STRAIGHT_THREE, "B"))
    assert main(["solve", "--json", "--pv", str(path)]) == 0
    row = json.loads(capsys.readouterr().out)
    # Black's placement at B9 kills at once: the line stops there, though the full line
    # plays the capture out
    assert row["pv"] == [{"color": "B", "move": "B9", "sgf": "ba"}]
    assert row["pv_full_length"] > 1 and row["pv_complete"] is True
    assert (row["move"], row["sgf"]) == ("B9", "ba")
    problem = load_problem(path)
    moves = [(BLACK if m["color"] == "B" else WHITE, parse_sgf_point(m["sgf"])) for m in row["pv"]]
    assert row["final"] == ["".join(".XO"[c] for c in rows) for rows in replayed(problem.stones, moves)]
    assert row["final"][0][1] == "X"

    assert main(["solve", "--pv", str(path)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[1] == (f"  main line: 1. B B9 — the white group is dead "
                       f"({row['pv_full_length'] - 1} more moves play it out)")
    assert text[2].split() == list("ABCDEFGHJ") and text[3].split()[0] == "9"
    assert main(["solve", "--json", str(path)]) == 0
    assert "pv" not in json.loads(capsys.readouterr().out)

    path.write_bytes(problem_text(STRAIGHT_THREE, "W"))
    assert main(["solve", "--pv", str(path)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith(f"{path}: White to play saves the white group at B8: W B9 (proved, ")
    assert text[1].startswith("  main line: 1. W B9 — the white group lives")


# -- solve-all ---------------------------------------------------------------------

def _nodes(node, moves=()):
    """(moves from the root, node) in preorder."""
    yield moves, node
    for child in node.children:
        yield from _nodes(child, moves + ((child.color, child.move),))


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    problems = tmp_path_factory.mktemp("problems")
    for name in RUN_PROBLEMS:
        (problems / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(OWN_PROBLEMS / f"{name}.sgf", problems / f"{name}.sgf")
    out = tmp_path_factory.mktemp("out") / "solve-all"
    assert main(["solve-all", "--problems", str(problems), "--out", str(out), "--no-progress"]) == 0
    return problems, out


def test_every_written_end_state_is_the_tree_s_line_played_out_from_the_file(small_run):
    problems, out = small_run
    lines = {}   # file name -> the principal variation the tree read for that position
    for name in RUN_PROBLEMS:
        problem = load_problem(problems / f"{name}.sgf", require_to_play=False)
        for side in (problem.attacker, problem.defender):
            expansion = expand_tree(problem, side, max_depth=20, min_area=7, max_nodes=2_000_000)
            for moves, node in _nodes(expansion.root):
                position = Subproblem(size=problem.size, stones=replayed(problem.stones, moves),
                                      target=problem.target, to_play=side)
                assert position.name() not in lines
                lines[position.name()] = node.principal_variation
    files = sorted((out / "subproblems").glob("*.sgf"))
    assert sorted(lines) == [path.name for path in files]
    for path in files:
        sub = load_subproblem(path)   # checks that EB/EW agree with TS
        line = lines[path.name]
        assert line[0][0] == sub.to_play
        if sub.safe:
            assert [move for _, move in line[-2:]] == ["pass", "pass"]
        assert np.array_equal(sub.end_state, replayed(sub.stones, line)), path.name


def test_a_fresh_line_from_each_file_ends_as_its_label_says(small_run):
    _, out = small_run
    for path in sorted((out / "subproblems").glob("*.sgf")):
        sub = load_subproblem(path)
        line = Solver(sub.problem(str(path)), max_area=DEFAULT_MAX_AREA).principal_variation(sub.to_play)
        assert line.complete and line.captured == (not sub.safe), path.name


def test_end_states_stay_out_when_turned_off_and_the_setting_is_recorded(tmp_path):
    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "straight-three.sgf").write_bytes(problem_text(STRAIGHT_THREE, "B"))
    out = tmp_path / "out"
    assert main(["solve-all", "--problems", str(problems), "--out", str(out), "--no-progress",
                 "--min-area", "0", "--no-end-state"]) == 0
    assert json.loads((out / "settings.json").read_text())["end_state"] is False
    files = list((out / "subproblems").glob("*.sgf"))
    assert files and all(load_subproblem(path).end_state is None for path in files)
    assert b"PV[" not in (out / "trees" / "straight-three.sgf").read_bytes()
    with pytest.raises(CommandError, match="other settings"):
        record_settings(Layout(str(out)), TreeSettings(max_depth=20, min_area=0, max_nodes=2_000_000,
                                                       max_area=DEFAULT_MAX_AREA, algo="dfs"))


def test_a_tree_line_that_disagrees_with_its_label_is_refused():
    problem = parse_problem(problem_text(STRAIGHT_THREE, "B"))
    text = tree_text(expand_tree(problem, problem.attacker, min_area=0), "straight-three")
    assert "PV[" in text
    root = list(subproblems_of(text.encode()))[0]
    assert root.end_state is not None and not root.safe
    # a line where Black passes twice captures nothing
    broken = re.sub(r"PV(\[[a-s]*\])+", "PV[][]", text, count=1)
    assert broken != text
    with pytest.raises(ProblemError, match="principal variation does not capture the target, but TS"):
        list(subproblems_of(broken.encode()))


def test_a_subproblem_file_reads_its_end_state_back_and_refuses_a_bad_one():
    problem = parse_problem(problem_text(STRAIGHT_THREE, "B"))
    end = problem.stones.copy()
    end[0, 1] = problem.attacker
    sub = Subproblem(size=9, stones=problem.stones, target=problem.target, to_play=problem.to_play,
                     safe=False, end_state=end)
    text = sub.to_sgf()
    assert np.array_equal(parse_subproblem(text.encode()).end_state, end)
    for old, new, message in (("EB[ba]", "EB[ba][zz]", r"EB\[zz\] is off the board"),
                              ("EW[da]", "EW[da][da]", r"EW\[da\] is listed twice in the end state"),
                              ("EB[ba]", "EB[][ba]", r"EB\[\] is an empty list among points")):
        with pytest.raises(ProblemError, match=message):
            parse_subproblem(text.replace(old, new, 1).encode())


# -- invariance ----------------------------------------------------------------------

def swapped(stones: np.ndarray) -> np.ndarray:
    return np.where(stones == EMPTY, EMPTY, 3 - stones).astype(stones.dtype)


def turned_sub(sub: Subproblem, symmetry: int, swap: bool) -> Subproblem:
    """``sub`` under a symmetry, then a colour swap if ``swap``."""
    def stones(array):
        array = transform(array, symmetry)
        return swapped(array) if swap else array

    def point(p):
        return None if p is None else transform_point(*p, symmetry, sub.size)

    return Subproblem(size=sub.size, stones=stones(sub.stones), target=point(sub.target),
                      to_play=3 - sub.to_play if swap else sub.to_play, safe=sub.safe,
                      available_moves=sub.available_moves, best_move=point(sub.best_move),
                      end_state=stones(sub.end_state))


def subproblems(problem, side: int) -> dict[str, Subproblem]:
    text = tree_text(expand_tree(problem, side, max_depth=20, min_area=7, max_nodes=2_000_000), "turned")
    return {sub.name(): sub for sub in subproblems_of(text.encode())}


@pytest.mark.parametrize("name", TURNED_PROBLEMS)
@pytest.mark.parametrize("swap", [False, True])
def test_a_turned_mirrored_or_colour_swapped_problem_gives_the_turned_end_states(name, swap):
    problem = load_problem(OWN_PROBLEMS / f"{name}.sgf", require_to_play=False)
    variants = {(swapped(transform(problem.stones, s)) if w else transform(problem.stones, s)).tobytes()
                for s in range(8) for w in (False, True)}
    assert len(variants) == 16   # no symmetry of its own: each copy is another position
    for side in (problem.attacker, problem.defender):
        original = subproblems(problem, side)
        assert len(original) > 30
        for symmetry in range(8):
            if symmetry == 0 and not swap:
                continue
            stones = transform(problem.stones, symmetry)
            turned = problem.__class__(source="turned", size=problem.size,
                                       stones=swapped(stones) if swap else stones,
                                       target=transform_point(*problem.target, symmetry, problem.size),
                                       to_play=None)
            found = subproblems(turned, 3 - side if swap else side)
            assert len(found) == len(original)
            for sub in original.values():
                expected = turned_sub(sub, symmetry, swap)
                got = found[expected.name()]
                assert (got.safe, got.available_moves, got.best_move) == \
                       (expected.safe, expected.available_moves, expected.best_move)
                assert np.array_equal(got.end_state, expected.end_state), (symmetry, swap)
