"""The SGF writer: property order kept, text escaped, and sgfmill reads back what it wrote."""
import numpy as np
from sgfmill import sgf, sgf_grammar

from pipeline.formats.sgf_writer import (collection, escape_text, game_tree, node, properties_text,
                                         stone_points)
from solver.board import BLACK, WHITE


def test_a_closing_bracket_and_a_backslash_are_escaped():
    assert escape_text("a]b") == "a\\]b"
    assert escape_text("a\\b") == "a\\\\b"
    assert escape_text("\\]") == "\\\\\\]"
    assert escape_text("plain [text]: 1+1") == "plain [text\\]: 1+1"


def test_properties_keep_the_given_order_and_one_without_values_is_left_out():
    text = properties_text([("SZ", ["9"]), ("PL", ["W"]), ("AB", []), ("AW", ["aa", "ba"]), ("GN", [""])])
    assert text == "SZ[9]PL[W]AW[aa][ba]GN[]"
    assert node([("B", [""])]) == ";B[]"


def test_stones_are_listed_row_by_row():
    stones = np.zeros((5, 5), dtype=np.int8)
    stones[0, 3] = stones[1, 0] = stones[0, 1] = BLACK
    stones[2, 2] = WHITE
    assert stone_points(stones, BLACK) == ["ba", "da", "ab"]
    assert stone_points(stones, WHITE) == ["cc"]


def test_stones_are_named_as_one_point_at_a_time_names_them():
    from solver.problem import sgf_point

    rng = np.random.default_rng(3)
    for size in (1, 2, 5, 9, 13, 19, 26, 27):
        stones = rng.integers(0, 3, (size, size)).astype(np.int8)
        for color in (BLACK, WHITE):
            expected = [sgf_point(int(x), int(y)) for y, x in zip(*np.nonzero(stones == color))]
            assert stone_points(stones, color) == expected
            assert all(type(point) is str for point in stone_points(stones, color))
    assert stone_points(np.zeros((9, 9), np.int8), BLACK) == []


def test_variations_on_their_own_lines_or_on_the_root_line():
    moves = [game_tree([node([("B", ["aa"])]), node([("W", ["bb"])])]), game_tree([node([("B", ["cc"])])])]
    root = node([("FF", ["4"]), ("SZ", ["5"])])
    assert game_tree([root], moves) == "(;FF[4]SZ[5](;B[aa];W[bb])(;B[cc]))"
    assert game_tree([root], moves, line_per_variation=True) == "(;FF[4]SZ[5]\n(;B[aa];W[bb])\n(;B[cc]))"
    assert collection(["(;FF[4])", "(;FF[4])"]) == "(;FF[4])\n(;FF[4])\n"


def test_sgfmill_reads_back_the_values_and_the_tree():
    name = "odd]name\\with [brackets]"
    root = node([("FF", ["4"]), ("GM", ["1"]), ("SZ", ["5"]), ("GN", [escape_text(name)]),
                 ("C", [escape_text("a comment\\ ending in ]")]), ("PL", ["B"]),
                 ("AB", ["aa", "ba"]), ("AW", ["ab"]), ("MA", ["ab"])])
    line = game_tree([node([("B", ["bb"]), ("TS", ["1"])]), node([("W", ["cc"])])])
    branch = game_tree([node([("B", [""])])])
    text = collection([game_tree([root], [line, branch], line_per_variation=True)])

    game = sgf.Sgf_game.from_bytes(text.encode())
    top = game.get_root()
    assert top.get("GN") == name
    assert top.get("C") == "a comment\\ ending in ]"
    assert top.get("PL") == "b"
    assert top.get("AB") == {(4, 0), (4, 1)} and top.get("AW") == {(3, 0)}
    first, second = top
    assert first.get_move() == ("b", (3, 1)) and first.get("TS") == "1"
    assert [child.get_move() for child in first] == [("w", (2, 2))]
    assert second.get_move() == ("b", None) and len(second) == 0

    # Two game trees in one file, as the solution tree files hold them.
    both = collection([game_tree([root]), game_tree([node([("FF", ["4"]), ("SZ", ["5"])])])])
    trees = sgf_grammar.parse_sgf_collection(both.encode())
    assert len(trees) == 2 and trees[1].sequence[0]["SZ"] == [b"5"]
