"""Copies of a problem across folders: found under the board's symmetries and a colour swap,
inside an enclosed problem's wall, kept in one fold; bad files get their line."""
import json
from pathlib import Path

import numpy as np

from model.folds import assign_folds, read_together
from cli.main import main
from pipeline.enclose.reader import read_open_problem
from pipeline.problem_list import read_problem_list
from pipeline.same_position import (Position, contained_share, copies, copies_of, enclosed_masks, groups,
                                    open_key, swapped)
from pipeline.symmetries import transform
from solver import load_problem

OPEN = Path(__file__).parent / "open-problems"
LETTERS = "abcdefghijklmnopqrs"


def open_stones(name: str) -> np.ndarray:
    path = OPEN / f"{name}.sgf"
    return read_open_problem(path.read_bytes(), str(path)).stones


def points(stones: np.ndarray, color: int) -> str:
    return "".join(f"[{LETTERS[x]}{LETTERS[y]}]" for y, x in zip(*np.nonzero(stones == color)))


def open_sgf(stones: np.ndarray, move: str = "aa") -> str:
    return f"(;FF[4]SZ[19]PL[B]AB{points(stones, 1)}AW{points(stones, 2)}(;B[{move}]))"


def enclosed_sgf(stones: np.ndarray, target: str) -> str:
    return f"(;FF[4]SZ[{stones.shape[0]}]PL[B]AB{points(stones, 1)}AW{points(stones, 2)}MA[{target}])"


def walled(stones: np.ndarray, wall: list[tuple[int, int]], size: int = 9) -> np.ndarray:
    """The corner of an open problem on a size×size board, with White stones added at ``wall``."""
    board = stones[:size, :size].copy()
    for x, y in wall:
        assert board[y, x] == 0
        board[y, x] = 2
    return board


def test_a_turned_and_recoloured_copy_has_the_same_key_and_another_problem_does_not():
    stones = open_stones("corner-kill-bent-three")
    for symmetry in range(8):
        assert open_key(transform(swapped(stones), symmetry)) == open_key(stones)
    assert open_key(open_stones("corner-kill-bulky-five")) != open_key(stones)


def test_an_open_problem_is_found_inside_its_enclosed_form_and_not_inside_another():
    stones = open_stones("book-move-fails-edge")       # White's corner group, Black around it
    enclosed = walled(swapped(stones), [(5, 0), (5, 1), (5, 2), (5, 3), (0, 5), (1, 5)])
    enclosed = transform(enclosed, 3)                   # turned on its board too
    share = contained_share(stones, enclosed_masks(enclosed))
    assert share == np.count_nonzero(stones) / np.count_nonzero(enclosed)
    assert share >= 0.5
    assert contained_share(open_stones("side-kill-straight-three"), enclosed_masks(enclosed)) == 0.0


def test_copies_and_groups_join_the_problems_that_share_a_position():
    kill = open_stones("corner-kill-bent-three")
    other = open_stones("corner-live-bulky-five")
    enclosed = walled(kill, [(6, 0), (6, 1)])
    pairs = copies([Position("books/1", kill), Position("books/2", other),
                    Position("reprint/7", transform(swapped(kill), 5))],
                   [Position("ref/3", enclosed)])
    assert sorted(pairs) == sorted([("books/1", "reprint/7", "same stones"),
                                    ("ref/3", "books/1", "in the enclosed problem"),
                                    ("ref/3", "reprint/7", "in the enclosed problem")])
    assert groups(pairs) == [["books/1", "ref/3", "reprint/7"]]
    # a small shape inside a large problem is another problem
    big = walled(kill, [(x, 8) for x in range(9)] + [(8, y) for y in range(8)])
    assert copies([Position("books/1", kill)], [Position("ref/4", big)], min_share=0.9) == []


def test_groups_stay_in_one_fold_and_no_groups_deal_as_before():
    counts = {"a": 500, "b": 400, "c": 90, "d": 80, "e": 70, "f": 60, "g": 5, "h": 1}
    alone = assign_folds(counts, 3)
    assert assign_folds(counts, 3, []) == alone
    assert alone["a"] != alone["h"] and alone["b"] != alone["g"] and alone["a"] != alone["b"]
    fold_of = assign_folds(counts, 3, [["a", "h", "not-in-the-records"], ["b", "c"], ["c", "g"]])
    assert fold_of["a"] == fold_of["h"]
    assert fold_of["b"] == fold_of["c"] == fold_of["g"]
    assert sorted(fold_of) == sorted(counts)


def copied_kill(tmp_path: Path, symmetry: int) -> tuple[Path, Path, str]:
    """Folders ``books`` (a/1.sgf: the bent-three kill, a/2.sgf: it under ``symmetry``) and
    ``problems`` (7.sgf: it inside a wall), and 7.sgf's text."""
    books, problems = tmp_path / "books", tmp_path / "problems"
    (books / "a").mkdir(parents=True)
    problems.mkdir()
    kill = open_stones("corner-kill-bent-three")
    (books / "a" / "1.sgf").write_text(open_sgf(kill, "ba"))
    (books / "a" / "2.sgf").write_text(open_sgf(transform(kill, symmetry), "sr"))
    enclosed = enclosed_sgf(walled(kill, [(6, 0), (6, 1)]), "bb")
    (problems / "7.sgf").write_text(enclosed)
    return books, problems, enclosed


def test_same_positions_command_writes_groups_and_names_each_bad_file(tmp_path, capsys):
    books, problems, enclosed = copied_kill(tmp_path, 2)
    (books / "a" / "3.sgf").write_text("(;FF[4]SZ[13]PL[B]AB[aa]AW[bb](;B[cc]))")    # not 19×19
    (problems / "8.sgf").write_text(enclosed.replace("MA[bb]", ""))   # no target
    assert load_problem(problems / "7.sgf").size == 9
    out = tmp_path / "same.json"
    code = main(["same-positions", "--open", str(books), "--enclosed", str(problems), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{books / 'a' / '3.sgf'}: board size 13" in err
    assert f"{problems / '8.sgf'}: no MA[]" in err
    assert "read 5 files = 2 open-board + 1 enclosed + 2 rejected" in err
    found = json.loads(out.read_text())
    assert found["groups"] == [["7", "a/1", "a/2"]]
    assert read_together(str(out)) == [["7", "a/1", "a/2"]]


def test_copies_of_held_out_problems_are_the_others_of_their_groups():
    joined = [["7", "a/1", "a/2"], ["8", "b/1"], ["c/1", "c/2"]]
    assert copies_of(joined, {"7"}) == ["a/1", "a/2"]
    assert copies_of(joined, {"7", "a/2", "b/1"}) == ["8", "a/1"]
    assert copies_of(joined, {"9"}) == []


def test_the_command_lists_the_copies_of_held_out_problems(tmp_path, capsys):
    books, problems, _ = copied_kill(tmp_path, 5)
    (books / "a" / "3.sgf").write_text(open_sgf(open_stones("corner-kill-bulky-five")))   # another shape
    held_out = tmp_path / "held-out.txt"
    held_out.write_text("7\n")
    listed = tmp_path / "copies.txt"
    code = main(["same-positions", "--open", str(books), "--enclosed", str(problems), "--out",
                 str(tmp_path / "same.json"), "--held-out", str(held_out), "--copies-out", str(listed)])
    assert code == 0
    assert read_problem_list(str(listed)) == ["a/1", "a/2"]
    assert "2 problems copy one of the 1 held out" in capsys.readouterr().err
