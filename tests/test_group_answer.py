"""What ``tsumego solve`` says a player: ko said as ko, no move where none is needed.

The positions are composed here, in the upper left corner of a 9×9 board, each
inside a solid black wall; ``swapped`` gives each one in the other colours.

``KO_TO_KILL``: Black D8 takes the white stone at D9 and White can take back
(a ko): Black kills only by winning it; White moving first lives outright::

       A B C D E F
     9 . . X O X X
     8 . O O . O X
     7 O O O O O X
     6 X X X X X X

``KO_TO_LIVE``: White moving first lives only by a ko (W B8, then a ko for the
second eye at B9); Black moving first kills outright::

     9 O X . O O X
     8 . . . O X X
     7 O O O O O X
     6 X X X X X X

``STRAIGHT_THREE`` (no ko): White's straight three on the edge, A9-C9; B9 kills,
or lives, for whoever plays it first.  ``STRAIGHT_FOUR``: the straight four
A9-D9, alive as it stands.  ``IN_ATARI``: the same group with Black on A9-C9,
in atari at D9: dead as it stands.
"""
from __future__ import annotations

import json
import re

import pytest
from sgfmill import sgf

from cli.main import main
from pipeline.group_answer import ALIVE, DEAD, answer_group, answer_words
from solver import Solver, parse_problem
from solver.board import BLACK, WHITE

WALL = "AB[ad][bd][cd][dd][ed][fd][fc]"
KO_TO_KILL = f"(;FF[4]SZ[9]PL[B]{WALL}AB[ca][ea][fa][fb]AW[da][bb][cb][eb][ac][bc][cc][dc][ec]MA[ac])"
KO_TO_LIVE = f"(;FF[4]SZ[9]PL[W]{WALL}AB[ba][fa][eb][fb]AW[aa][da][ea][db][ac][bc][cc][dc][ec]MA[ac])"
STRAIGHT_THREE = "(;FF[4]SZ[9]PL[B]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]MA[ab])"
STRAIGHT_FOUR = "(;FF[4]SZ[9]PL[W]AB[fa][fb][ac][bc][cc][dc][ec][fc]AW[ea][ab][bb][cb][db][eb]MA[ab])"
IN_ATARI = "(;FF[4]SZ[9]PL[B]AB[aa][ba][ca][fa][fb][ac][bc][cc][dc][ec][fc]AW[ea][ab][bb][cb][db][eb]MA[ab])"


def swapped(record: str) -> str:
    """The same position in the other colours, the other side to play."""
    swap = {"AB": "AW", "AW": "AB", "PL[B]": "PL[W]", "PL[W]": "PL[B]"}
    return re.sub(r"AB|AW|PL\[[BW]\]", lambda m: swap[m[0]], record)


def to_play(record: str, side: str) -> str:
    return re.sub(r"PL\[[BW]\]", f"PL[{side}]", record)


def colours(swap: bool) -> dict:
    """The words for the attacker (``A``, ``a``) and the defender (``D``, ``d``)."""
    attacker, defender = ("White", "Black") if swap else ("Black", "White")
    return {"A": attacker, "D": defender, "a": attacker[0], "d": defender[0], "dl": defender.lower()}


def solve_json(tmp_path, capsys, record: str, *options) -> dict:
    path = tmp_path / "problem.sgf"
    path.write_text(record)
    assert main(["solve", "--json", "--no-guide", *options, str(path)]) == 0
    return json.loads(capsys.readouterr().out)


def solve_text(tmp_path, capsys, record: str, *options) -> list[str]:
    path = tmp_path / "problem.sgf"
    path.write_text(record)
    assert main(["solve", "--no-guide", *options, str(path)]) == 0
    return [line.split(": ", 1)[1] if i == 0 else line
            for i, line in enumerate(capsys.readouterr().out.splitlines())]


@pytest.mark.parametrize("swap", [False, True])
def test_a_ko_is_said_as_ko_with_who_must_win_it(tmp_path, capsys, swap):
    c = colours(swap)
    flip = swapped if swap else (lambda record: record)
    row = solve_json(tmp_path, capsys, flip(KO_TO_KILL))
    assert row["verdict"] == (f"{c['A']} to play kills the {c['dl']} group at A7 by ko: {c['a']} D8; "
                              f"ko: {c['A']} must win the ko and needs the ko threats")
    # the label's question (the attacker ko master) is unchanged: the attacker kills
    assert (row["status"], row["ko"], row["standing"], row["move"], row["sgf"]) == (
        "unsafe", c["a"], None, "D8", "db")
    row = solve_json(tmp_path, capsys, flip(KO_TO_LIVE))
    assert row["verdict"] == (f"{c['D']} to play: the {c['dl']} group at A7 lives by ko: {c['d']} B8; "
                              f"ko: {c['D']} must win the ko and needs the ko threats")
    assert (row["status"], row["ko"], row["move"], row["sgf"]) == ("unsafe", c["d"], "B8", "bb")
    # the other side first: no ko decides it
    row = solve_json(tmp_path, capsys, to_play(flip(KO_TO_KILL), c["d"]))
    assert row["verdict"].startswith(f"{c['D']} to play saves the {c['dl']} group at A7: {c['d']} ")
    assert row["ko"] is None and "ko" not in row["verdict"]
    row = solve_json(tmp_path, capsys, to_play(flip(KO_TO_LIVE), c["a"]))
    assert row["verdict"].startswith(f"{c['A']} to play kills the {c['dl']} group at A7: {c['a']} ")
    assert row["ko"] is None and "ko" not in row["verdict"]


@pytest.mark.parametrize("swap", [False, True])
def test_one_ko_master_named_is_the_only_one_asked(tmp_path, capsys, swap):
    c = colours(swap)
    flip = swapped if swap else (lambda record: record)
    row = solve_json(tmp_path, capsys, flip(KO_TO_LIVE), "--ko-master", "attacker")
    assert row["verdict"] == f"{c['D']} to play cannot save the {c['dl']} group at A7: it dies"
    assert row["ko"] is None
    row = solve_json(tmp_path, capsys, flip(KO_TO_KILL), "--ko-master", "defender")
    assert row["verdict"] == f"{c['A']} to play cannot kill the {c['dl']} group at A7: it lives"


@pytest.mark.parametrize("swap", [False, True])
def test_without_a_ko_the_answer_says_none(tmp_path, capsys, swap):
    c = colours(swap)
    flip = swapped if swap else (lambda record: record)
    attacker_first = solve_json(tmp_path, capsys, flip(STRAIGHT_THREE))
    assert attacker_first["verdict"] == f"{c['A']} to play kills the {c['dl']} group at A8: {c['a']} B9"
    defender_first = solve_json(tmp_path, capsys, to_play(flip(STRAIGHT_THREE), c["d"]))
    assert defender_first["verdict"] == f"{c['D']} to play saves the {c['dl']} group at A8: {c['d']} B9"
    for row in (attacker_first, defender_first):
        assert (row["ko"], row["standing"]) == (None, None)
        # the same words as with the attacker named ko master: nothing turns on a ko
        again = solve_json(tmp_path, capsys, flip(STRAIGHT_THREE) if row is attacker_first
                           else to_play(flip(STRAIGHT_THREE), c["d"]), "--ko-master", "attacker")
        assert again["verdict"] == row["verdict"]


def test_the_main_line_of_a_ko_is_the_ko_winners(tmp_path, capsys):
    text = solve_text(tmp_path, capsys, KO_TO_LIVE, "--pv")
    assert text[1].startswith("  main line: 1. W B8 ")
    assert "— the white group lives if White wins the ko" in text[1]
    text = solve_text(tmp_path, capsys, KO_TO_KILL, "--pv")
    assert text[1].startswith("  main line: 1. B D8 ")
    assert "— the white group is dead if Black wins the ko" in text[1]


@pytest.mark.parametrize("swap", [False, True])
def test_a_group_alive_as_it_stands_gets_no_move(tmp_path, capsys, swap):
    c = colours(swap)
    record = swapped(STRAIGHT_FOUR) if swap else STRAIGHT_FOUR
    answer = tmp_path / "answer.sgf"
    row = solve_json(tmp_path, capsys, record, "--pv", "--sgf-out", str(answer))
    assert row["verdict"] == f"{c['D']} to play: the {c['dl']} group at A8 lives as it stands; no move needed"
    assert (row["status"], row["standing"], row["move"], row["sgf"]) == ("safe", ALIVE, "pass", "")
    # the line opens with the pass; the attacker's best try needs no answer either
    assert row["pv"][0] == {"color": c["d"], "move": "pass", "sgf": ""}
    assert row["pv"][1]["color"] == c["a"] and row["pv"][1]["move"] != "pass"
    assert all(move["move"] == "pass" for move in row["pv"] if move["color"] == c["d"])
    first = sgf.Sgf_game.from_bytes(answer.read_bytes()).get_main_sequence()[1]
    assert first.get_move() == (c["d"].lower(), None)
    # the attacker first cannot kill: no move either
    row = solve_json(tmp_path, capsys, to_play(record, c["a"]))
    assert row["verdict"] == f"{c['A']} to play cannot kill the {c['dl']} group at A8: it lives"
    assert row["move"] is None


@pytest.mark.parametrize("swap", [False, True])
def test_a_group_dead_as_it_stands_gets_no_move(tmp_path, capsys, swap):
    c = colours(swap)
    record = swapped(IN_ATARI) if swap else IN_ATARI
    text = solve_text(tmp_path, capsys, record, "--pv")
    assert text[0].startswith(f"{c['A']} to play: the {c['dl']} group at A8 is dead as it stands; "
                              "no move needed (proved, ")
    assert text[1].startswith(f"  main line: 1. {c['a']} pass  2. {c['d']} ")
    assert "— the " + c["dl"] + " group is dead" in text[1]
    row = solve_json(tmp_path, capsys, to_play(record, c["d"]))
    assert row["verdict"] == f"{c['D']} to play cannot save the {c['dl']} group at A8: it dies"


def test_answer_group_asks_only_what_the_answer_needs():
    """The label's solve first; the ko check only where the attacker wins it; the standing
    check only where the side to play wins outright."""
    problem = parse_problem(STRAIGHT_FOUR.encode(), "four.sgf")
    solver = Solver(problem)
    answer = answer_group(solver, WHITE)
    assert (answer.standing, answer.move, answer.ko, answer.winner) == (ALIVE, "pass", False, WHITE)
    assert answer.nodes > answer.verdict.nodes   # two solves: the label's and Black's first
    answer = answer_group(solver, BLACK)
    assert (answer.standing, answer.move, answer.winner) == (None, None, WHITE)
    assert answer.nodes == answer.verdict.nodes  # Black cannot kill: nothing more to ask
    problem = parse_problem(KO_TO_KILL.encode(), "ko.sgf")
    answer = answer_group(Solver(problem), BLACK)
    assert (answer.ko, answer.ko_winner_needed, answer.winner, answer.line_ko_master) == (
        True, "B", BLACK, "attacker")
    answer = answer_group(Solver(problem), BLACK, ko_master="attacker")
    assert (answer.ko, answer.verdict.status) == (False, "unsafe")
    problem = parse_problem(IN_ATARI.encode(), "atari.sgf")
    assert answer_group(Solver(problem), BLACK).standing == DEAD


def test_a_ko_check_out_of_nodes_says_the_answer_holds_if_the_attacker_wins_any_ko():
    """Budgets from the label's solve up: where that solve settles and the one with the
    defender as ko master does not, the answer is the label's, said with its assumption."""
    problem = parse_problem(KO_TO_KILL.encode(), "ko.sgf")
    needed = Solver(problem).solve(BLACK).nodes
    answers = [answer_group(Solver(problem), BLACK, max_nodes=budget) for budget in range(needed, 4 * needed)]
    unsettled = [answer for answer in answers if answer.ko_unsettled]
    assert unsettled and answers[-1].ko   # enough nodes: the ko is found
    for answer in unsettled:
        assert (answer.ko, answer.winner) == (False, BLACK)
        assert answer_words(answer, 9, problem.target) == (
            "Black to play kills the white group at A7: B D8, if Black wins any ko (whether a ko decides it "
            "is not settled within the node budget)")
