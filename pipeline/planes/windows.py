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
from numba import njit

from pipeline.planes.board_view import board_view
from pipeline.planes import board_planes
from pipeline.formats.records import END_ALLY, END_EMPTY, END_ENEMY, END_OFF_BOARD, WINDOW
from solver.board import EMPTY

HALF = WINDOW // 2


def window_move(move, centre_y: int, centre_x: int) -> int:
    """``move`` (x, y) as ``row * 11 + col`` in the window centred on a stone; -1 if outside or None."""
    if move is None:
        return -1
    row, col = move[1] - centre_y + HALF, move[0] - centre_x + HALF
    return row * WINDOW + col if 0 <= row < WINDOW and 0 <= col < WINDOW else -1


@njit(cache=True)
def _cut(planes, ys, xs, fill):
    rows, cols, count = planes.shape
    windows = np.full((ys.shape[0], WINDOW, WINDOW, count), fill, dtype=np.uint8)
    for k in range(ys.shape[0]):
        # Window k covers board rows ys[k] - 5 .. ys[k] + 5 and the columns around xs[k] alike.
        for row in range(WINDOW):
            y = ys[k] + row - HALF
            if y < 0 or y >= rows:
                continue
            for col in range(WINDOW):
                x = xs[k] + col - HALF
                if 0 <= x < cols:
                    for plane in range(count):   # (a loop: numba's slice assignment cost 2 µs more)
                        windows[k, row, col, plane] = planes[y, x, plane]
    return windows


def cut_windows(planes: np.ndarray, ys: np.ndarray, xs: np.ndarray, fill: int = 0) -> np.ndarray:
    """uint8 ``[S, 11, 11, F]``: the windows of whole-board ``planes`` centred on (ys[k], xs[k]),
    ``fill`` past the board edge.  (Compiled: numpy's padding and fancy indexing took 19 µs
    a subproblem.)"""
    return _cut(planes, ys, xs, fill)


@njit(cache=True)
def _end_state_windows(end_state, defender, ys, xs):
    rows, cols = end_state.shape
    classes = np.empty((rows, cols, 1), dtype=np.uint8)
    for y in range(rows):
        for x in range(cols):
            point = end_state[y, x]
            classes[y, x, 0] = END_ALLY if point == defender else END_EMPTY if point == EMPTY else END_ENEMY
    return _cut(classes, ys, xs, END_OFF_BOARD)[:, :, :, 0]


def end_state_windows(end_state: np.ndarray, defender: int, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """uint8 ``[S, 11, 11]``: the board at the end (EMPTY/BLACK/WHITE) as ``END_EMPTY``,
    ``END_ALLY`` (``defender``'s stones) and ``END_ENEMY``, cut as :func:`cut_windows` cuts,
    ``END_OFF_BOARD`` past the edge."""
    return _end_state_windows(end_state, defender, ys, xs)


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
    moves = [window_move(best_move, y, x) for y, x in zip(ys.tolist(), xs.tolist())]
    end_state = getattr(sub, "end_state", None)
    end_states = None
    if end_state is not None:
        end_states = end_state_windows(np.asarray(end_state), view.defender, ys, xs)
    return windows, moves, end_states
