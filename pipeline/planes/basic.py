"""dcnn-eval's planes: who moves, whose stones, sure eyes, liberties, block sizes, the board.

These are the planes dcnn-eval, the original pipeline's network, was trained
on (with the side to move split into two planes), so a model on these alone
can be compared with it.
"""
from __future__ import annotations

import numpy as np

from pipeline.planes.board_view import BoardView
from pipeline.planes.registry import plane_group
from solver.board import BLACK, BORDER, EMPTY, WHITE

# Row n is the one-hot code of a count n, the last column meaning "4 or more".
_ONE_HOT_UP_TO_4 = np.vstack([np.zeros((1, 4), np.uint8), np.eye(4, dtype=np.uint8)])
_OCTAL_DIGIT = np.zeros(4, dtype=np.int16)
_OCTAL_DIGIT[[BLACK, WHITE, BORDER]] = [1, 8, 64]


@plane_group(["attacker_first", "defender_first"])
def side_to_move(view: BoardView) -> np.ndarray:
    planes = np.zeros((view.size, view.size, 2), dtype=np.uint8)
    planes[..., 0 if view.attacker_first else 1] = 1
    return planes


@plane_group(["ally", "enemy", "target"])
def stones(view: BoardView) -> np.ndarray:
    return np.stack([view.ally, view.enemy, view.target], axis=-1).view(np.uint8)


@plane_group(["sure_eye"])
def sure_eye(view: BoardView) -> np.ndarray:
    """Empty points that are an eye of either side and cannot be made false.

    All orthogonal neighbours are the side's stones (or the edge), and so are
    all diagonal neighbours on the edge, or three of the four in the open:
    the opponent can neither play there nor cut the eye from its wall.
    """
    # Each point counts as one octal digit of its kind, so one sum over the
    # neighbours counts black stones, white stones and edge points at once.
    digits = _OCTAL_DIGIT[view.padded]
    orthogonal = digits[:-2, 1:-1] + digits[2:, 1:-1] + digits[1:-1, :-2] + digits[1:-1, 2:]
    diagonal = digits[:-2, :-2] + digits[:-2, 2:] + digits[2:, :-2] + digits[2:, 2:]
    orthogonal_edge, diagonal_edge = orthogonal >> 6, diagonal >> 6
    # In the open one diagonal may be missing; on the edge none.
    needed = 4 - (diagonal_edge == 0)
    eye = np.zeros((view.size, view.size), dtype=bool)
    for shift in (0, 3):     # black, white
        eye |= ((((orthogonal >> shift) & 7) + orthogonal_edge == 4)
                & (((diagonal >> shift) & 7) + diagonal_edge >= needed))
    eye &= view.stones == EMPTY
    return eye[..., None].view(np.uint8)


@plane_group(["liberties_1", "liberties_2", "liberties_3", "liberties_4+"])
def liberties(view: BoardView) -> np.ndarray:
    return _ONE_HOT_UP_TO_4[np.minimum(view.liberties, 4)]


@plane_group(["size_1", "size_2", "size_3", "size_4+"])
def block_size(view: BoardView) -> np.ndarray:
    return _ONE_HOT_UP_TO_4[np.minimum(view.block_size, 4)]


@plane_group(["ones"])
def ones(view: BoardView) -> np.ndarray:
    """Ones on the board: zero padding past the edge then marks where the board ends."""
    return np.ones((view.size, view.size, 1), dtype=np.uint8)
