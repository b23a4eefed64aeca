"""Cut the whole-board planes into 11×11 windows, one centred on each target stone.

The network sees a fixed 11×11 window whatever the board size, as dcnn-eval
(the original pipeline's network) did; a record keeps one window per stone of the target block so training
can pick any of them.  Past the board edge a window is zero in every plane,
the ``ones`` plane included, which is how the network sees the edge.

A subproblem with an end state also gets, for each window, the class of each
point at the end (``END_*`` of :mod:`pipeline.formats.records`: empty, the
target's colour, the other colour, or past the board edge), cut the same way.
"""
from __future__ import annotations

import numpy as np

from pipeline.planes.board_view import board_view
from pipeline.planes import board_planes
from pipeline.formats.records import END_ALLY, END_EMPTY, END_ENEMY, END_OFF_BOARD, WINDOW
from solver.board import EMPTY

HALF = WINDOW // 2
_OFFSETS = np.arange(WINDOW)


def window_move(move, centre_y: int, centre_x: int) -> int:
    """``move`` (x, y) as ``row * 11 + col`` in the window centred on a stone; -1 if outside or None."""
    if move is None:
        return -1
    row, col = move[1] - centre_y + HALF, move[0] - centre_x + HALF
    return row * WINDOW + col if 0 <= row < WINDOW and 0 <= col < WINDOW else -1


def cut_windows(planes: np.ndarray, ys: np.ndarray, xs: np.ndarray, fill: int = 0) -> np.ndarray:
    """uint8 ``[S, 11, 11, F]``: the windows of whole-board ``planes`` centred on (ys[k], xs[k]),
    ``fill`` past the board edge."""
    size = planes.shape[0]
    padded = np.full((size + 2 * HALF, size + 2 * HALF, planes.shape[2]), fill, dtype=np.uint8)
    padded[HALF:HALF + size, HALF:HALF + size] = planes
    # Window k covers padded rows ys[k] .. ys[k] + 10, which are board rows ys[k] - 5 .. ys[k] + 5.
    return padded[(ys[:, None] + _OFFSETS)[:, :, None], (xs[:, None] + _OFFSETS)[:, None, :]]


def end_state_classes(end_state: np.ndarray, defender: int) -> np.ndarray:
    """uint8 ``[y, x]``: the board at the end (EMPTY/BLACK/WHITE) as ``END_EMPTY``, ``END_ALLY``
    (``defender``'s stones) and ``END_ENEMY``."""
    classes = np.full(end_state.shape, END_ENEMY, dtype=np.uint8)
    classes[end_state == defender] = END_ALLY
    classes[end_state == EMPTY] = END_EMPTY
    return classes


def subproblem_windows(sub, groups=None) -> tuple[np.ndarray, list[int]]:
    """uint8 ``[S, 11, 11, F]`` windows (one per target stone, row-major) and each one's move index.

    ``sub`` needs ``stones``, ``target`` and ``to_play``; ``best_move`` is
    used when present (a problem without labels gets -1 moves).
    """
    windows, moves, _ = labelled_windows(sub, groups)
    return windows, moves


def labelled_windows(sub, groups=None) -> tuple[np.ndarray, list[int], np.ndarray | None]:
    """``subproblem_windows`` and each window's end-state classes, uint8 ``[S, 11, 11]``
    (``END_OFF_BOARD`` past the edge), or None when ``sub`` has no ``end_state``."""
    view = board_view(sub)
    ys, xs = np.nonzero(view.target)
    windows = cut_windows(board_planes(view, groups), ys, xs)
    best_move = getattr(sub, "best_move", None)
    moves = [window_move(best_move, int(y), int(x)) for y, x in zip(ys, xs)]
    end_state = getattr(sub, "end_state", None)
    end_states = None
    if end_state is not None:
        classes = end_state_classes(np.asarray(end_state), view.defender)
        end_states = cut_windows(classes[:, :, None], ys, xs, fill=END_OFF_BOARD)[..., 0]
    return windows, moves, end_states
