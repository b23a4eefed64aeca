"""dcnn-eval's planes: who moves, whose stones, sure eyes, liberties, block sizes, the board.

These are the planes dcnn-eval, the original pipeline's network, was trained
on (with the side to move split into two planes), so a model on these alone
can be compared with it.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.planes.board_view import BoardView
from pipeline.planes.registry import plane_group
from solver.board import BLACK, BORDER, EMPTY, WHITE

# Each group below is one compiled call: in numpy, stones, sure_eye, liberties
# and block_size took 7, 35, 5 and 5 µs a subproblem; compiled, about 1 each.


@plane_group(["attacker_first", "defender_first"])
def side_to_move(view: BoardView) -> np.ndarray:
    planes = np.zeros((view.size, view.size, 2), dtype=np.uint8)
    planes[..., 0 if view.attacker_first else 1] = 1
    return planes


@njit(cache=True)
def _stone_planes(stones, defender, target):
    rows, cols = stones.shape
    planes = np.zeros((rows, cols, 3), dtype=np.uint8)
    for y in range(rows):
        for x in range(cols):
            planes[y, x, 0] = stones[y, x] == defender
            planes[y, x, 1] = stones[y, x] == 3 - defender
            planes[y, x, 2] = target[y, x]
    return planes


@plane_group(["ally", "enemy", "target"])
def stones(view: BoardView) -> np.ndarray:
    return _stone_planes(view.stones, view.defender, view.target)


@njit(cache=True)
def _sure_eyes(padded):
    rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
    plane = np.zeros((rows, cols, 1), dtype=np.uint8)
    # How many neighbours of each kind (EMPTY, BLACK, WHITE, BORDER) a point has.
    orthogonal = np.zeros(4, dtype=np.int64)
    diagonal = np.zeros(4, dtype=np.int64)
    for y in range(1, rows + 1):
        for x in range(1, cols + 1):
            if padded[y, x] != EMPTY:
                continue
            orthogonal[:] = 0
            diagonal[:] = 0
            orthogonal[padded[y - 1, x]] += 1
            orthogonal[padded[y + 1, x]] += 1
            orthogonal[padded[y, x - 1]] += 1
            orthogonal[padded[y, x + 1]] += 1
            diagonal[padded[y - 1, x - 1]] += 1
            diagonal[padded[y - 1, x + 1]] += 1
            diagonal[padded[y + 1, x - 1]] += 1
            diagonal[padded[y + 1, x + 1]] += 1
            # In the open one diagonal may be missing; on the edge none.
            needed = 3 if diagonal[BORDER] == 0 else 4
            for color in (BLACK, WHITE):
                if (orthogonal[color] + orthogonal[BORDER] == 4
                        and diagonal[color] + diagonal[BORDER] >= needed):
                    plane[y - 1, x - 1, 0] = 1
    return plane


@plane_group(["sure_eye"])
def sure_eye(view: BoardView) -> np.ndarray:
    """Empty points that are an eye of either side and cannot be made false.

    All orthogonal neighbours are the side's stones (or the edge), and so are
    all diagonal neighbours on the edge, or three of the four in the open:
    the opponent can neither play there nor cut the eye from its wall.
    """
    return _sure_eyes(view.padded)


@njit(cache=True)
def _one_hot_up_to_4(counts):
    """uint8 ``[y, x, 4]``: plane n - 1 marks a count of n, the last one 4 or more; 0 marks none."""
    rows, cols = counts.shape
    planes = np.zeros((rows, cols, 4), dtype=np.uint8)
    for y in range(rows):
        for x in range(cols):
            if counts[y, x] > 0:
                planes[y, x, min(counts[y, x], 4) - 1] = 1
    return planes


@plane_group(["liberties_1", "liberties_2", "liberties_3", "liberties_4+"])
def liberties(view: BoardView) -> np.ndarray:
    return _one_hot_up_to_4(view.liberties)


@plane_group(["size_1", "size_2", "size_3", "size_4+"])
def block_size(view: BoardView) -> np.ndarray:
    return _one_hot_up_to_4(view.block_size)


@plane_group(["ones"])
def ones(view: BoardView) -> np.ndarray:
    """Ones on the board: zero padding past the edge then marks where the board ends."""
    return np.ones((view.size, view.size, 1), dtype=np.uint8)
