"""bench.gotools_check: the GoTools reader on a problem written here, and GoTools' own
verdicts on a sample of its database (``../shared/gotools``, skipped when absent)."""
from __future__ import annotations

from pathlib import Path

import pytest

from bench.gotools_check import (Collection, GoToolsError, check_problem, expectations, logical_lines, main,
                                 parse_collection, parse_line, point_letters, questions)
from solver import BLACK, WHITE

GOTOOLS = Path(__file__).resolve().parents[1] / ".." / "shared" / "gotools"

# Three problems written for this test (in the database's CR LF lines): a white corner
# group with a two-point eye, marked twice on one block, its position and a solution line
# continued; two marked blocks with ko statuses; and one whose stone is off the board.
SAMPLE = "\r\n".join([
    "           a test collection",
    "3 problems",
    "$ P100",
    "?CA?AB?BB?CBADAADB\\",
    "AACABCACCADC[BB]\\",
    "[CA]",
    "A+d#3 3 1 0.00 2 ?? 0 255 :BAAA:",
    "?+d#1 3 1 0.00 2 ?? 0 255 :AA\\",
    "BA:",
    "?-d#1 3 1 0.00 2 ?? 0 255 :BA@@:",
    "",
    "$ P101",
    "?BA?AB?BB?DA?DB?EBACAACBAACABCACCADCAECAFCAFBAFA[BB][DA]",
    "?+l#5 3 1 0.00 3 ?? 0 255 :AA:",
    "?+l2d#5 3 1 40.00 4 ?? 0 255 :EACA:",
    "A+d12l#7 3 1 0.00 6 ?? 0 255 :AAEA@@AA:",
    "",
    "$ P102",
    "?ZZAAB[ZZ]",
    "A+d#1 3 1 0.00 2 ?? 0 255 :AA:",
    "",
])


def test_continued_lines_join():
    assert logical_lines("ab\\\r\ncd\\\r\nef\r\ngh\n") == ["abcdef", "gh"]


def test_parser_reads_stones_marks_and_lines():
    collection = parse_collection(SAMPLE, "sample")
    assert isinstance(collection, Collection)
    assert (collection.header, collection.count, collection.read) == ("a test collection", 3, 3)
    first, second = collection.problems
    assert first.name == "sample:P100"
    assert first.stones[:2] == ((2, 0, WHITE), (0, 1, WHITE))
    assert (3, 2, BLACK) in first.stones and len(first.stones) == 10
    assert first.marks == ((1, 1), (2, 0))
    assert [(line.side, line.good, line.kind) for line in first.lines] == [
        (BLACK, True, "d"), (WHITE, True, "d"), (WHITE, False, "d")]
    assert first.lines[1].moves == ("AA", "BA")
    assert first.lines[2].moves == ("BA", "@@")
    # a side's verdict is its first line
    assert {side: line.status for side, line in first.verdicts().items()} == {BLACK: "d", WHITE: "d"}
    _, l2d, d12l = second.lines
    assert (l2d.first, l2d.threats, l2d.last, l2d.kind, l2d.status) == ("l", 2, "d", "lNd", "l2d")
    assert (d12l.side, d12l.good, d12l.kind, d12l.threats) == (BLACK, True, "dNl", 12)
    assert d12l.shown == "A+d12l :AAEA@@AA:"
    assert {side: line.kind for side, line in second.verdicts().items()} == {WHITE: "l", BLACK: "dNl"}
    assert collection.faults == [("102", "point ZZ is off a 19×19 board")]


@pytest.mark.parametrize("text, reason", [
    ("?+x#1 :AA:", "not side"),
    ("?+l1l#1 :AA:", "turns into itself"),
    ("A+d#1 3 1 0.00 2 ?? 0 255 :ABC:", "not pairs"),
])
def test_bad_solution_lines_are_refused(text, reason):
    with pytest.raises(GoToolsError, match=reason):
        parse_line(text)


def test_a_file_without_its_count_line_is_refused():
    with pytest.raises(GoToolsError, match="problems"):
        parse_collection("header\n$ P1\n?AA[AA]\n", "bad")


def test_expectations_follow_the_ko_masters():
    assert expectations("d", several=False) == [("attacker", "unsafe")]
    assert expectations("l", several=False) == [("defender", "safe")]
    for kind in ("lNd", "dNl"):
        assert expectations(kind, several=False) == [("attacker", "unsafe"), ("defender", "safe")]
        assert expectations(kind, several=True) == [("attacker", "unsafe")]
    assert expectations("l", several=True) == []
    assert expectations("d", several=True, unimplied=True) == [("attacker", "unsafe"), ("defender", None)]
    assert expectations("l", several=False, unimplied=True) == [("defender", "safe"), ("attacker", None)]
    assert expectations("l", several=True, unimplied=True) == []


def test_one_block_marked_twice_is_one_target_and_the_solver_agrees():
    first, second = parse_collection(SAMPLE, "sample").problems
    asked, reasons = questions(first)
    assert reasons == []
    assert [(point_letters(*q.target), q.side, q.ko_master, q.expected) for q in asked] == [
        ("BB", BLACK, "attacker", "unsafe"), ("BB", WHITE, "attacker", "unsafe")]
    assert all(q.problem.size == 19 and q.problem.defender == WHITE for q in asked)
    outcome = check_problem(first, max_nodes=100_000, seconds=5)
    assert outcome.skipped is None
    assert [(a.status, a.agrees) for a in outcome.answers] == [("unsafe", True), ("unsafe", True)]
    # two blocks marked: White first lives (says nothing of either block), Black first
    # kills by ko (each block unsafe with the attacker as ko master)
    asked, reasons = questions(second)
    assert [(point_letters(*q.target), q.side, q.ko_master, q.expected) for q in asked] == [
        ("BB", BLACK, "attacker", "unsafe"), ("DA", BLACK, "attacker", "unsafe")]
    assert reasons == ["several marked blocks, ? first l: nothing said of one block"]


def test_a_sample_of_the_database_agrees(capsys):
    if not GOTOOLS.is_dir():
        pytest.skip("../shared/gotools (GoTools' problems) is not beside the repository")
    code = main(["--gotools", str(GOTOOLS), "--sample", "40", "--seed", "1", "--max-nodes", "200000",
                 "--seconds", "5"])
    out = capsys.readouterr().out
    assert "disagreements: 0" in out, out
    assert code == 0
    total = next(line for line in out.splitlines() if line.startswith("| all |"))
    read, checked, skipped, asked, agree, disagree, unsettled = (int(cell) for cell in total.split("|")[2:9])
    assert read == 40 and read == checked + skipped
    assert asked == agree + disagree + unsettled and asked > 0 and agree > 0


def test_a_question_goes_to_tsumego_js_on_the_position_cut_to_its_board():
    """A disagreement is put to tsumego.js (peer_status) on the corner cut to its 16×16 board: on
    the first question of the collection's first level file that the solver settles, the cut
    position gives tsumego.js's answer, and it is the solver's."""
    if not GOTOOLS.is_dir():
        pytest.skip("../shared/gotools (GoTools' problems) is not beside the repository")
    from bench.gotools_check import level_files, peer_status, read_collection
    from bench.peer import tsumego_js

    try:
        tsumego_js.ensure_installed()
    except tsumego_js.PeerUnavailable as exc:
        pytest.skip(f"tsumego.js is not available: {exc}")
    problems = read_collection(level_files(GOTOOLS)[0]).problems
    answer = next(a for p in problems for a in check_problem(p, max_nodes=200_000, seconds=5).answers if a.settled)
    problem = next(p for p in problems if p.id == answer.id)
    assert peer_status(problem, answer) == answer.status
