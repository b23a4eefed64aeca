"""The 8 symmetries of the square as permutations of a window's 121 points.

Training turns each window by one of them at random (``model.dataset``), and
evaluation may average a position's answer over all of them
(``model.predictions``, ``tsumego eval``): the question "is this group
safe?" does not change when the board is turned or mirrored.
"""
from __future__ import annotations

import numpy as np

from pipeline.formats.records import WINDOW


def _square_symmetries() -> np.ndarray:
    """int32 ``[8, 121]``: row s maps a transformed window's point i to the original's point.

    The 8 symmetries of the square: ``s // 2`` quarter turns, then a transpose
    if ``s`` is odd, applied to the grid of point indices; row 0 is the identity.
    """
    grid = np.arange(WINDOW * WINDOW, dtype=np.int32).reshape(WINDOW, WINDOW)
    images = []
    for k in range(4):
        turned = np.rot90(grid, k)
        images += [turned.reshape(-1), turned.T.reshape(-1)]
    return np.stack(images)


SYMMETRIES = _square_symmetries()
# INVERSE_SYMMETRIES[s][p]: where the original point p lands under symmetry s
INVERSE_SYMMETRIES = np.argsort(SYMMETRIES, axis=1).astype(np.int32)


def turn(windows: np.ndarray, symmetry: int) -> np.ndarray:
    """Windows ``[S, 11, 11, F]`` under one of the 8 symmetries (0 leaves them as they are)."""
    count, features = windows.shape[0], windows.shape[-1]
    flat = windows.reshape(count, WINDOW * WINDOW, features)
    return flat[:, SYMMETRIES[symmetry]].reshape(windows.shape)
