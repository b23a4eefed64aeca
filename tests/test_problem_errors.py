"""Every way a problem file can be unusable gets one clear message naming it."""
import pytest

from solver import ProblemError, Solver, parse_problem
from solver.area import search_area

# A small enclosed corner: White's target at ba inside a thick black wall.
GOOD = (b"(;FF[4]SZ[9]PL[B]AB[da][db][dc][cc][bc][ac][ea][eb][ec][ed][dd][cd][bd][ad]"
        b"AW[ba][bb][cb]MA[ba])")


def error_of(data: bytes, **kwargs) -> str:
    with pytest.raises(ProblemError) as info:
        problem = parse_problem(data, "problem.sgf")
        search_area(problem, **kwargs)
    assert str(info.value).startswith("problem.sgf: ")
    return info.value.reason


def test_the_good_problem_loads_and_solves():
    problem = parse_problem(GOOD, "problem.sgf")
    verdict = Solver(problem).solve(problem.to_play)
    assert verdict.status in ("safe", "unsafe")


def test_unparsable_sgf():
    assert "not a valid SGF" in error_of(b"(;FF[4]SZ[9]AB[aa")


def test_missing_target():
    assert "no MA[]" in error_of(GOOD.replace(b"MA[ba]", b""))


def test_target_on_an_empty_point():
    assert "MA[aa] is on an empty point" in error_of(GOOD.replace(b"MA[ba]", b"MA[aa]"))


def test_missing_player():
    assert "no PL[]" in error_of(GOOD.replace(b"PL[B]", b""))


def test_empty_or_bad_player():
    assert "no PL[] property (or an empty one)" in error_of(GOOD.replace(b"PL[B]", b"PL[]"))
    assert "PL[X] must be B or W" in error_of(GOOD.replace(b"PL[B]", b"PL[X]"))


def test_an_empty_player_is_no_player_where_none_is_needed():
    from solver import parse_problem

    assert parse_problem(GOOD.replace(b"PL[B]", b"PL[]"), "good", require_to_play=False).to_play is None


def test_board_larger_than_19():
    assert "larger than 19" in error_of(GOOD.replace(b"SZ[9]", b"SZ[21]"))


def test_illegal_position():
    # a white stone at aa surrounded by black stones at ab and ba... with no liberties
    data = b"(;FF[4]SZ[9]PL[B]AB[ba][ab]AW[aa]MA[aa])"
    assert "no liberties" in error_of(data)


def test_point_in_both_colours():
    assert "both in AB and AW" in error_of(GOOD.replace(b"AW[ba]", b"AW[da][ba]"))


def test_open_wall():
    # a lone white stone on an empty board: no black wall at all
    assert "open wall" in error_of(b"(;FF[4]SZ[9]PL[B]AB[ii]AW[ee]MA[ee])")


def test_area_too_large():
    assert "exceeds the limit of 2" in error_of(GOOD, max_area=2)


def test_stub_on_an_occupied_point():
    assert "SQ[da] stub is on an occupied point" in error_of(GOOD.replace(b"MA[ba]", b"MA[ba]SQ[da]"))


@pytest.mark.parametrize("change, reason", [
    ((b")", b"(;B[zz]))"), "root variation B[zz] is off the board"),
    ((b")", b"(;W[a]))"), "root variation W[a] is not a point"),
    ((b")", b"(;B[aa]W[ab]))"), "a root variation holds both B[] and W[]"),
    ((b"PL[B]", b"PL[B]GN[a][b]"), "GN[a][b] has more than one value"),
    ((b"PL[B]", b"PL[B]PL[W]"), "PL[B][W] has more than one value"),
    ((b"SZ[9]", b"SZ[3]"), "AB[da] is off the board"),
    ((b"SZ[9]", b"SZ[x]"), "SZ[x] is not a board size"),
    ((b"MA[ba]", b"MA[zz]"), "MA[zz] is off the board"),
    ((b"MA[ba]", b"MA[ba]SQ[zz]"), "SQ[zz] is off the board"),
    ((b"AB[da]", b"AB[ da]"), "AB[ da] is not a point"),
    ((b"SZ[9]", b"SZ[9]CA[UTF-8]GN[\xff]"), "GN[\\xff] is not text in the file's encoding (UTF-8)"),
    ((b"SZ[9]", b"SZ[9]CA[bogus]"), "CA[bogus] is not a known text encoding"),
])
def test_every_property_read_is_checked_and_named(change, reason):
    old, new = change
    data = GOOD[:-1] + new if old == b")" else GOOD.replace(old, new)
    assert error_of(data) == reason


def test_a_pass_and_a_compressed_point_list_are_read():
    data = GOOD.replace(b"AB[da][db][dc]", b"AB[da:dc]")[:-1] + b"(;B[])(;B[ca]))"
    problem = parse_problem(data, "problem.sgf")
    assert problem.first_moves == ((2, 0),)
    assert problem.stones.tobytes() == parse_problem(GOOD, "problem.sgf").stones.tobytes()
