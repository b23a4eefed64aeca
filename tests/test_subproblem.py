"""The subproblem SGF contract: deterministic text, content-hash names, labels read back."""
import numpy as np
import pytest

from pipeline.formats.subproblem import Subproblem, load_subproblem, parse_subproblem
from solver import ProblemError, parse_problem
from solver.board import BLACK, WHITE

# White's target at ba inside a thick black wall; Black to move.
POSITION = (b"(;FF[4]SZ[9]PL[B]AB[da][db][dc][cc][bc][ac][ea][eb][ec][ed][dd][cd][bd][ad]"
            b"AW[ba][bb][cb]MA[ba])")


def labelled(**changes) -> Subproblem:
    problem = parse_problem(POSITION, "position.sgf")
    fields = dict(size=problem.size, stones=problem.stones, target=problem.target,
                  to_play=problem.to_play, safe=False, available_moves=4, best_move=(0, 1),
                  source="corner/white-dies")
    fields.update(changes)
    return Subproblem(**fields)


def test_labels_survive_a_round_trip():
    sub = labelled()
    back = parse_subproblem(sub.to_sgf().encode(), "sub.sgf")
    assert back.safe is False and back.available_moves == 4 and back.best_move == (0, 1)
    assert back.source == "corner/white-dies" and back.target == (1, 0) and back.to_play == BLACK
    assert np.array_equal(back.stones, sub.stones)
    assert back.to_sgf() == sub.to_sgf()


def test_the_text_carries_the_seed_annotations():
    text = labelled().to_sgf()
    assert "TS[0]" in text and "DS[0]" in text and "AS[4]" in text and "TR[ab]" in text
    assert "MA[ba]" in text and "PL[B]" in text and "GN[corner/white-dies]" in text
    assert "DS[1]" in labelled(to_play=WHITE).to_sgf()


def test_the_name_hashes_the_position_not_the_labels_or_source():
    a = labelled()
    assert a.name() == labelled(source="elsewhere", safe=True, best_move=None).name()
    assert a.name() != labelled(to_play=WHITE).name()
    stones = a.stones.copy()
    stones[8, 8] = WHITE
    assert a.name() != labelled(stones=stones).name()
    assert len(a.name()) == len("0123456789abcdef.sgf")


def test_a_source_with_brackets_is_escaped():
    sub = labelled(source="odd]name\\x")
    assert parse_subproblem(sub.to_sgf().encode(), "s.sgf").source == "odd]name\\x"


def test_unlabelled_problem_files_read_as_subproblems(tmp_path):
    path = tmp_path / "problem.sgf"
    path.write_bytes(POSITION)
    sub = load_subproblem(path)
    assert sub.safe is None and sub.available_moves is None and sub.best_move is None


@pytest.mark.parametrize("label, reason", [
    (b"TS[2]", "TS[2] must be 0 or 1"),
    (b"AS[x]", "AS[x] is not an integer"),
    (b"TR[ba]", "TR[ba] is on an occupied point"),
    (b"TR[zz]", "TR[zz] is off the board"),
    (b"AS[-1]", "AS[-1] is not a count of available moves (0 to the 64 empty points)"),
    (b"AS[7][8]", "AS[7][8] has more than one value"),
    (b"TS[0][1]", "TS[0][1] has more than one value"),
    (b"TS[ 1]", "TS[ 1] must be 0 or 1"),
    (b"TR[ca][da]", "TR[ca][da] has more than one value"),
    (b"TS[1]TR[ca]", "TR[ca] is a winning move, but TS[1] says PL[B] loses"),
    (b"DS[1]", "DS[1] disagrees with PL[B] and MA[ba] (PL is the attacker)"),
])
def test_bad_labels_name_the_file_and_the_reason(label, reason):
    with pytest.raises(ProblemError) as info:
        parse_subproblem(POSITION.replace(b"MA[ba]", b"MA[ba]" + label), "bad.sgf")
    assert str(info.value) == f"bad.sgf: {reason}"


def test_an_unreadable_file_is_named(tmp_path):
    with pytest.raises(ProblemError, match="missing.sgf: cannot read the file"):
        load_subproblem(tmp_path / "missing.sgf")
