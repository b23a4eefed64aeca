"""game_group: a group of a game record framed as an enclosed problem, solved, written back.

The games are composed here.  ``GAME`` is a 9×9 two-stone handicap game whose
38 moves include a pass (move 37) and a capture (move 38 takes White's J5);
it ends on ``FINAL``: a white corner group with two eyes (A9, C9: safe), a
white group on the lower edge with a straight three eye space (D1-F1: Black
kills at E1, White lives there), and four white stones at G7-H8 that live in
the game, open to the empty centre, but read dead once framed.
"""
from __future__ import annotations

import re

import numpy as np
import pytest
from sgfmill import sgf

from pipeline import game_group
from pipeline.game_group import framed_group, game_position, solution_sgf
from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE, ProblemError, Solver, parse_problem, search_area
from solver.coordinates import go_point, parse_go_point

GAME = """(;GM[1]FF[4]SZ[9]HA[2]AB[cc][gg]PL[W]
;W[ba];B[ea];W[da];B[eb];W[ab];B[ac];W[bb];B[bc];W[cb];B[dc];W[db];B[ec]
;W[ch];B[bg];W[dh];B[cg];W[eh];B[dg];W[fh];B[eg];W[gh];B[fg];W[ci];B[hg]
;W[gi];B[bh];W[ie];B[hh];W[hb];B[bi];W[gb];B[hi];W[hc];B[if];W[gc];B[id]
;W[];B[he])"""

FINAL = """
. O . O X . . . .
O O O O X . O O .
X X X X X . O O .
. . . . . . . . X
. . . . . . . X .
. . . . . . . . X
. X X X X X X X .
. X O O O O O X .
. X O . . . O X .
"""


def diagram(text: str) -> np.ndarray:
    rows = [line.split() for line in text.strip().splitlines()]
    return np.array([[{".": 0, "X": BLACK, "O": WHITE}[c] for c in row] for row in rows], dtype=np.int8)


def turned(text: str, symmetry: int, size: int = 9) -> str:
    """The record with every point turned by ``symmetry`` (pipeline.symmetries)."""
    def point(match):
        x, y = transform_point(ord(match[1]) - 97, ord(match[2]) - 97, symmetry, size)
        return f"[{chr(97 + x)}{chr(97 + y)}]"
    return re.sub(r"\[([a-s])([a-s])\]", point, text)


def on_19x19(text: str) -> str:
    """The 9×9 game played in the lower left corner of a 19×19 board."""
    return re.sub(r"\[([a-s])([a-s])\]", lambda m: f"[{m[1]}{chr(ord(m[2]) + 10)}]",
                  text.replace("SZ[9]", "SZ[19]"))


def reason(call) -> str:
    with pytest.raises(ProblemError) as caught:
        call()
    return caught.value.reason


@pytest.fixture(scope="module")
def final():
    return game_position(GAME.encode(), source="game.sgf")


def test_position_after_the_last_move(final):
    assert (final.size, final.move_number) == (9, 38)
    assert np.array_equal(final.stones, diagram(FINAL))   # J5 captured by move 38
    assert final.to_play == WHITE                          # the other side of move 38


@pytest.mark.parametrize("move, to_play, black, white, j5", [
    (0, WHITE, 2, 0, 0),          # the handicap stones; move 1 is White's
    (36, WHITE, 20, 18, WHITE),   # move 37 is White's pass
    (37, BLACK, 20, 18, WHITE),   # after the pass, move 38 is Black's
])
def test_position_after_move_n(move, to_play, black, white, j5):
    position = game_position(GAME.encode(), move)
    assert (position.move_number, position.to_play) == (move, to_play)
    assert (np.count_nonzero(position.stones == BLACK), np.count_nonzero(position.stones == WHITE)) == (black, white)
    assert position.stones[4, 8] == j5


@pytest.mark.parametrize("root, to_play", [("PL[W]", WHITE), ("", BLACK)])
def test_side_to_play_of_a_record_without_moves(root, to_play):
    assert game_position(f"(;SZ[9]{root}AB[cc]AW[gg])".encode()).to_play == to_play


def test_a_move_past_the_end_is_refused():
    assert reason(lambda: game_position(GAME.encode(), 39)) == (
        "move 39 is past the end of the game: its main line has 38 moves")


@pytest.mark.parametrize("moves, why", [
    (";W[ee];B[ee]", "move 40 (Black E5) is illegal: the point is occupied"),
    (";W[ee];B[aa]", "move 40 (Black A9) is illegal: suicide, the stone would have no liberty"),
])
def test_an_illegal_move_is_refused(moves, why):
    record = GAME[:-1] + moves + ")"
    assert reason(lambda: game_position(record.encode())) == why
    assert game_position(record.encode(), 39).stones[4, 4] == WHITE   # the moves before it read


@pytest.mark.parametrize("point, why", [
    ("E5", "there is no stone at E5 after move 38: name a stone of the group"),
    ("E10", "E10 is off a 9×9 board"),
])
def test_a_point_without_a_stone_is_refused(final, point, why):
    assert reason(lambda: framed_group(final, point, "game.sgf")) == why


def test_a_group_in_the_open_centre_is_refused():
    position = game_position(b"(;SZ[19];B[pd];W[dp];B[pp];W[dd];B[jj];W[jd];B[jp])")
    assert reason(lambda: framed_group(position, "K10", "game.sgf")) == (
        "the black group at K10 is too open to frame: 12 of the 12 points around its region are "
        "empty, and the frame would fill them with white stones (at most a third may be); try a "
        "group the game has nearly surrounded, or a later move")


@pytest.mark.parametrize("record, point, opened", [
    (GAME, "H8", "4 of the 11"),              # G7-H8, open to the 9×9 board's empty centre
    (on_19x19(GAME), "B9", "5 of the 11"),    # two eyes, open towards the empty 19×19 board
])
def test_a_group_the_frame_would_kill_is_refused(monkeypatch, record, point, opened):
    """Both live in their game; framed anyway, each reads dead whoever starts."""
    position = game_position(record.encode())
    why = reason(lambda: framed_group(position, point, "game.sgf"))
    assert why.startswith(f"the white group at {point} is too open to frame: {opened} points")
    monkeypatch.setattr(game_group, "MAX_OPEN", 1)
    problem = framed_group(position, point, "game.sgf")
    assert [Solver(problem).solve(side).status for side in (BLACK, WHITE)] == ["unsafe", "unsafe"]


def test_a_region_over_the_area_limit_is_refused(final):
    assert reason(lambda: framed_group(final, "J4", "game.sgf", max_area=20)) == (
        "the black group at J4 is too open to frame: its region has 38 empty points, over the 20 "
        "the solver reads; try a group the game has nearly surrounded, or a later move")


def test_a_group_without_a_wall_is_refused():
    """Black's A9 sits in White's eye; White's block around it has one liberty outside (D9)."""
    position = game_position(b"(;SZ[9]AB[aa][db][ac][bc][cc]AW[ca][ab][bb][cb])")
    assert reason(lambda: framed_group(position, "A9", "game.sgf")) == (
        "the black group at A9 cannot be framed: no white block around its region has two "
        "liberties outside it to be the wall; the stones around it are short of liberties "
        "themselves: try one of them")


@pytest.mark.parametrize("point, to_play, status, move", [
    ("B9", "B", "safe", None),        # two eyes: Black cannot kill
    ("B9", "W", "safe", "pass"),      # nor need White answer
    ("E2", "B", "unsafe", "E1"),      # straight three: the vital point kills
    ("E2", "W", "safe", "E1"),        # and lives
])
def test_a_framed_group_is_solved(final, point, to_play, status, move):
    problem = framed_group(final, point, "game.sgf", to_play=to_play)
    assert (problem.size, problem.target, problem.to_play) == (9, parse_go_point(point, 9),
                                                               BLACK if to_play == "B" else WHITE)
    verdict = Solver(problem).solve(problem.to_play)
    shown = verdict.move if verdict.move in (None, "pass") else go_point(*verdict.move, 9)
    assert (verdict.status, shown) == (status, move)


def test_a_group_is_framed_on_the_games_own_19x19_board():
    """The straight three on a 19×19 board, its points the game's: only D1-F1 are searched."""
    problem = framed_group(game_position(on_19x19(GAME).encode()), "E2", "game.sgf", to_play="B")
    assert problem.size == 19
    assert search_area(problem).points == tuple(parse_go_point(p, 19) for p in ("D1", "E1", "F1"))
    verdict = Solver(problem).solve(BLACK)
    assert (verdict.status, go_point(*verdict.move, 19)) == ("unsafe", "E1")


@pytest.mark.parametrize("symmetry", range(8))
def test_a_turned_game_gives_the_same_verdicts(final, symmetry):
    position = game_position(turned(GAME, symmetry).encode())
    assert np.array_equal(position.stones, transform(final.stones, symmetry))
    for point, to_play, status, move in (("B9", BLACK, "safe", None), ("E2", BLACK, "unsafe", "E1"),
                                         ("E2", WHITE, "safe", "E1")):
        here = go_point(*transform_point(*parse_go_point(point, 9), symmetry, 9), 9)
        problem = framed_group(position, here, "game.sgf", to_play=to_play)
        verdict = Solver(problem).solve(to_play)
        expected = None if move is None else transform_point(*parse_go_point(move, 9), symmetry, 9)
        assert (verdict.status, verdict.move) == (status, expected)


def test_the_solution_sgf_holds_the_problem_and_its_lines(final):
    problem = framed_group(final, "E2", "game.sgf", to_play="B")
    solver = Solver(problem)
    line = solver.principal_variation(BLACK)
    assert line.captured and line.moves[0] == (BLACK, parse_go_point("E1", 9))
    lines = [line.moves, [(BLACK, parse_go_point("D1", 9)), (WHITE, parse_go_point("E1", 9)), (BLACK, "pass")]]
    text = solution_sgf(problem, lines, "Black kills at E1 [the vital point]")

    game = sgf.Sgf_game.from_string(text)
    root = game.get_root()
    assert (game.get_size(), root.get("PL"), root.get("C")) == (9, "b", "Black kills at E1 [the vital point]")
    black, white, _ = root.get_setup_stones()
    assert len(black) == np.count_nonzero(problem.stones == BLACK)
    assert len(white) == np.count_nonzero(problem.stones == WHITE)
    assert root.get("MA") == {(1, 4)}                  # E2, sgfmill's (row from the bottom, column)
    read_back = []
    for variation in root:
        moves, node = [], variation
        while True:
            colour, point = node.get_move()
            moves.append((BLACK if colour == "b" else WHITE,
                          "pass" if point is None else (point[1], 8 - point[0])))
            if not len(node):
                break
            node = node[0]
        read_back.append(moves)
    assert read_back == lines

    again = parse_problem(text.encode(), "solution.sgf")   # a problem file the solver reads
    assert np.array_equal(again.stones, problem.stones)
    assert (again.target, again.to_play) == (problem.target, BLACK)


# -- tsumego solve and eval --group ----------------------------------------------------

def test_solve_and_eval_answer_for_a_group_of_a_game(tmp_path, capsys):
    import json

    from cli.main import main

    record = tmp_path / "game.sgf"
    record.write_text(GAME)
    answer = tmp_path / "answer.sgf"
    assert main(["solve", str(record), "--group", "D2", "--to-play", "B", "--json",
                 "--sgf-out", str(answer)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["verdict"], row["sgf"]) == ("Black to play kills the white group at D2: B E1", "ei")
    written = sgf.Sgf_game.from_bytes(answer.read_bytes())
    assert written.get_size() == 9 and written.get_root().get("C") == row["verdict"]
    assert [n.get_move() for n in written.get_main_sequence()[1:]] == [("b", (0, 4))]   # E1, row 0 at the bottom
    # White, the game's next player, lives there
    assert main(["solve", str(record), "--group", "D2"]) == 0
    assert capsys.readouterr().out.startswith(f"{record}: White to play saves the white group at D2: W E1 (")
    assert main(["solve", str(record), "--group", "D2", "--move", "99"]) == 1
    assert "move 99 is past the end of the game" in capsys.readouterr().err

    assert main(["eval", str(record), "--group", "D2", "--to-play", "B", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["target"], row["to_play"]) == ("D2", "B") and 0 <= row["safe"] <= 1


@pytest.mark.parametrize("command", ["solve", "eval"])
def test_move_without_group_is_an_argument_error(tmp_path, command):
    from cli.main import main

    record = tmp_path / "game.sgf"
    record.write_text(GAME)
    with pytest.raises(SystemExit) as exit_:
        main([command, str(record), "--move", "3"])
    assert exit_.value.code == 2


def test_a_problem_file_is_read_at_its_root_with_pl_to_play(tmp_path, capsys):
    """A problem's root variations are its answer, not moves of a game: ``--group`` reads the
    root's position with PL to play, without ``--move 0``."""
    from cli.main import main

    problem = ("(;FF[4]SZ[9]PL[W]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]"
               "(;W[ba])(;W[ca]))")
    position = game_position(problem.encode())
    assert (position.move_number, position.to_play) == (0, WHITE)
    assert position.stones[0, 1] == 0                                # B9: the answer is not played
    assert game_position(problem.encode(), 1).stones[0, 1] == WHITE  # --move still plays it
    record = tmp_path / "problem.sgf"
    record.write_text(problem)
    assert main(["solve", str(record), "--group", "A8", "--no-guide"]) == 0
    assert capsys.readouterr().out.startswith(f"{record}: White to play saves the white group at A8: W B9 (")
    # a game with handicap stones (AB only) and PL[W] is still read to its last move
    assert game_position(GAME.encode()).move_number == 38


# A corner of a game whose straight three the game has nearly closed: E7, on the wall's line,
# is still empty.  The frame fills it with a black stone the game does not have.
OPEN_AT_E7 = "(;FF[4]SZ[9]AB[ea][eb][ac][bc][cc][dc][fd]AW[da][ab][bb][cb][db][ge];B[gg])"


def test_a_framed_answer_lists_the_stones_the_frame_added(tmp_path, capsys):
    import json

    from cli.main import main

    record = tmp_path / "game.sgf"
    record.write_text(OPEN_AT_E7)
    answer = tmp_path / "answer.sgf"
    assert main(["solve", str(record), "--group", "B8", "--no-guide", "--sgf-out", str(answer)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith(f"{record}: White to play saves the white group at B8: W B9 (")
    assert text[1] == "  framed: the frame added 1 black stone the game does not have: E7"
    root = sgf.Sgf_game.from_bytes(answer.read_bytes()).get_root()
    assert root.get("TR") == {(6, 4)}                   # E7, sgfmill's (row from the bottom, column)
    assert "Triangles: stones the frame added, which the game does not have" in root.get("C")
    assert not root.has_property("CR")
    assert main(["solve", str(record), "--group", "B8", "--no-guide", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["frame"] == {"colour": "B", "added": ["E7"], "added_sgf": ["ec"], "removed": [],
                            "removed_sgf": []}
    # a group the game closes itself: nothing added, nothing marked
    record.write_text(GAME)
    assert main(["solve", str(record), "--group", "D2", "--no-guide", "--sgf-out", str(answer), "--force"]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "  framed: the game closes the group itself: the frame added no stone")
    root = sgf.Sgf_game.from_bytes(answer.read_bytes()).get_root()
    assert not root.has_property("TR") and "Triangles" not in root.get("C")


# Five white stones on the second line, Black's wall below them, the first line and F8-J8
# open to the right.  The frame's wall at G9 H9 H8 leaves White too little room: Black kills
# at B9; with those points empty and the wall at J9 J8, White lives.  White first lives in both.
OPEN_EDGE = "(;FF[4]SZ[9]AB[ac][bc][cc][dc][ec][fc][gc][hc][ic]AW[ab][bb][cb][db][eb])"


def test_where_a_wider_frame_changes_the_answer_it_depends_on_the_surroundings(tmp_path, capsys):
    import json

    from cli.main import main

    record = tmp_path / "game.sgf"
    record.write_text(OPEN_EDGE)
    assert main(["solve", str(record), "--group", "A8", "--no-guide"]) == 0
    first, *rest = capsys.readouterr().out.splitlines()
    assert first.startswith(f"{record}: Black to play: the white group at A8 depends on the surroundings (proved, ")
    assert rest == ["  framed: the frame added 3 black stones the game does not have: G9 H9 H8",
                    "  in this frame: Black to play kills the white group at A8: B B9",
                    "  in the wider frame, leaving those points empty: Black to play cannot kill the white "
                    "group at A8: it lives",
                    "  the wider frame: the frame added 2 black stones the game does not have: J9 J8"]
    assert main(["solve", str(record), "--group", "A8", "--no-guide", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["verdict"] == ("Black to play: the white group at A8 depends on the surroundings: in this frame, "
                              "Black to play kills the white group at A8: B B9; in the wider frame, Black to "
                              "play cannot kill the white group at A8: it lives")
    wider = row["wider_frame"]
    assert (wider["agrees"], wider["unchecked"], wider["status"], wider["frame"]["added"]) == (
        False, None, "safe", ["J9", "J8"])
    # White first lives in both frames: the answer stands, checked
    assert main(["solve", str(record), "--group", "A8", "--to-play", "W", "--no-guide"]) == 0
    first, *rest = capsys.readouterr().out.splitlines()
    assert first.startswith(f"{record}: White to play saves the white group at A8: W ")
    assert rest[1] == "  checked: a wider frame, leaving those points empty, gives the same answer"


def test_a_group_the_game_closes_itself_needs_no_second_frame(tmp_path, capsys):
    import json

    from cli.main import main

    record = tmp_path / "game.sgf"
    record.write_text(GAME)
    assert main(["solve", str(record), "--group", "D2", "--no-guide", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["wider_frame"] == {"agrees": None, "unchecked": "the game closes the group itself"}
    assert row["frame"]["added"] == [] and row["verdict"] == "White to play saves the white group at D2: W E1"


def test_eval_shows_the_frame_and_checks_its_proof_against_the_wider_frame(tmp_path, capsys):
    import json

    from cli.main import main

    record = tmp_path / "game.sgf"
    record.write_text(OPEN_EDGE)
    picture = tmp_path / "board.svg"
    assert main(["eval", str(record), "--group", "A8", "--solve", "--json", "--picture", str(picture)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["frame"]["added"] == ["G9", "H9", "H8"]
    assert row["solver"]["wider_frame"]["agrees"] is False
    assert row["solver"]["verdict"].startswith("Black to play: the white group at A8 depends on the surroundings: ")
    text = picture.read_text()
    assert "grey triangles: stones the frame added, which the game does not have" in text
    assert "in the wider frame, Black to play cannot kill the white group at A8: it lives" in text
    assert main(["eval", str(record), "--group", "A8", "--to-play", "W", "--solve"]) == 0
    line = capsys.readouterr().out
    assert "; solver: White to play saves the white group at A8: W " in line
    assert line.rstrip().endswith("; framed: the frame added 3 black stones the game does not have: G9 H9 H8; "
                                  "checked: a wider frame, leaving those points empty, gives the same answer")


@pytest.mark.parametrize("symmetry", [0, 5])
def test_a_pass_alive_group_is_answered_on_the_whole_board_without_a_frame(tmp_path, capsys, symmetry):
    """The corner group of B9 has two eyes, A9 and C9, and lives whatever the rest of the board
    does: Benson's test answers it on the whole board, for either side first, with no frame."""
    import json

    from cli.main import main

    def turn(point: str) -> str:
        return go_point(*transform_point(*parse_go_point(point, 9), symmetry, 9), 9)

    record = tmp_path / "game.sgf"
    record.write_text(turned(GAME, symmetry))
    stone, eyes = turn("B9"), sorted(turn(p) for p in ("A9", "C9"))
    assert main(["solve", str(record), "--group", stone, "--no-guide", "--pv"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith(f"{record}: White to play: the white group at {stone} lives as it stands; "
                              "no move needed (proved, 0 nodes")
    assert text[1].startswith("  pass-alive on the whole board: its eyes at ")
    assert text[1].endswith(" are its own liberties, which Black can never fill; no frame, whatever the "
                            "surroundings")
    assert sorted(re.findall(r"[A-T]\d+", text[1].split("its eyes at ")[1].split(" are ")[0])) == eyes
    assert text[2] == "  main line: none needed"
    assert main(["solve", str(record), "--group", stone, "--no-guide", "--to-play", "B", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["status"], row["move"], row["standing"], row["frame"]) == ("safe", None, None, None)
    assert row["verdict"] == f"Black to play cannot kill the white group at {stone}: it lives"
    assert sorted(eye for region in row["pass_alive"] for eye in region) == eyes
    answer = tmp_path / "answer.sgf"
    assert main(["solve", str(record), "--group", stone, "--no-guide", "--sgf-out", str(answer)]) == 0
    root = sgf.Sgf_game.from_bytes(answer.read_bytes()).get_root()
    assert "Pass-alive on the whole board" in root.get("C") and not root.has_property("TR")
    capsys.readouterr()
    # eval gives the same exact answer, and asks no network of an unframed board
    assert main(["eval", str(record), "--group", stone, "--to-play", "B", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["verdict"], row["network"]) == (f"Black to play cannot kill the white group at {stone}: it lives",
                                                None)
    assert main(["eval", str(record), "--group", stone, "--picture", str(tmp_path / "p.png")]) == 0
    out, err = capsys.readouterr()
    assert "lives as it stands; no move needed; pass-alive on the whole board" in out
    assert "picture: none for" in err and not (tmp_path / "p.png").exists()


def test_only_a_pass_alive_group_goes_without_a_frame(final):
    from pipeline.pass_alive import pass_alive

    assert pass_alive(final.stones, parse_go_point("B9", 9)).eyes == (((0, 0),), ((2, 0),))
    for point in ("C2", "H8", "C7"):   # straight three; open to the centre; Black's wall
        assert pass_alive(final.stones, parse_go_point(point, 9)) is None
    # the same corner on a 19×19 board is open above: its two points are no eyes there
    open_above = game_position(on_19x19(GAME).encode(), source="game.sgf")
    assert pass_alive(open_above.stones, parse_go_point("B9", 19)) is None


def test_to_play_given_stands_where_the_records_pl_cannot_be_read(tmp_path, capsys):
    """A problem record (FINAL set up) whose PL[] is empty: refused for it alone, answered once
    --to-play says who moves."""
    from cli.main import main

    stones = diagram(FINAL)
    points = {colour: "".join(f"[{chr(97 + x)}{chr(97 + y)}]" for y, x in zip(*np.nonzero(stones == colour)))
              for colour in (BLACK, WHITE)}
    record = tmp_path / "problem.sgf"
    record.write_text(f"(;SZ[9]PL[]AB{points[BLACK]}AW{points[WHITE]})")
    assert main(["solve", str(record), "--group", "B9", "--no-guide"]) == 1
    assert "PL[] must be B or W" in capsys.readouterr().err
    assert main(["solve", str(record), "--group", "B9", "--no-guide", "--to-play", "B"]) == 0
    assert capsys.readouterr().out.startswith(
        f"{record}: Black to play cannot kill the white group at B9: it lives (proved, 0 nodes")
