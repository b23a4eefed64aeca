"""Go rules on the compiled board: captures, suicide, undo, hashing."""
import pytest

from solver.board import BLACK, EMPTY, MAX_MOVES, WHITE, Board
from solver.rules import MAX_DEPTH


def setup(rows: list[str]) -> Board:
    board = Board(len(rows))
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c in "XO":
                board.place(x, y, BLACK if c == "X" else WHITE)
    return board


def test_capture_removes_the_block_and_undo_restores_it():
    board = setup(["XO...",
                   ".X...",
                   ".....",
                   ".....",
                   "....."])
    before = int(board.hash[0])
    assert board.play(2, 0, BLACK) == 1
    assert board.get(1, 0) == EMPTY
    board.take_back()
    assert board.get(1, 0) == WHITE and board.get(2, 0) == EMPTY
    assert int(board.hash[0]) == before


def test_suicide_is_illegal_and_leaves_the_board_unchanged():
    board = setup([".X...",
                   "X....",
                   ".....",
                   ".....",
                   "....."])
    before = int(board.hash[0])
    assert board.play(0, 0, WHITE) == -1
    assert board.get(0, 0) == EMPTY and int(board.hash[0]) == before


def test_capturing_is_not_suicide():
    board = setup(["O.O..",
                   "XOX..",
                   ".X...",
                   ".....",
                   "....."])
    # White's stones at (1,1) and (0,0) each have the one liberty (1,0); Black
    # fills it and captures both, although the point has no empty neighbour.
    assert board.play(1, 0, BLACK) == 2
    assert board.get(1, 1) == EMPTY and board.get(0, 0) == EMPTY
    assert board.get(2, 0) == WHITE


def test_liberties_count_shared_liberties_once():
    board = setup(["XX...",
                   ".....",
                   ".....",
                   ".....",
                   "....."])
    assert board.liberties(0, 0) == 3


def test_hash_is_the_same_for_the_same_position_by_different_orders():
    a = setup(["X.O..", ".....", ".....", ".....", "....."])
    b = Board(5)
    b.play(2, 0, WHITE)
    b.play(0, 0, BLACK)
    assert int(a.hash[0]) == int(b.hash[0])


def test_the_board_holds_the_deepest_line_of_ko_captures():
    """A ko taken back and forth MAX_MOVES times on a 4x4 board (the undo stack used to
    hold 4 entries a point, 160 here, and a search 127 moves deep overran it), then
    taken back to the start; one move more is refused, not written past the end."""
    assert MAX_MOVES >= MAX_DEPTH + 2   # the searches' deepest line and its last move
    board = setup([".XO.",
                   "XO.O",
                   ".XO.",
                   "...."])
    before = int(board.hash[0])
    for k in range(MAX_MOVES):
        black = k % 2 == 0
        assert board.play(*((2, 1) if black else (1, 1)), BLACK if black else WHITE) == 1
    with pytest.raises(ValueError, match="take one back"):
        board.play(0, 3, BLACK)
    for _ in range(MAX_MOVES):
        board.take_back()
    assert int(board.hash[0]) == before
    assert (board.get(1, 1), board.get(2, 1)) == (WHITE, EMPTY)
