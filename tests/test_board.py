"""Go rules on the compiled board: captures, suicide, undo, hashing."""
from solver.board import BLACK, EMPTY, WHITE, Board


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
