"""The 8 symmetries of the square, for boards of any size, their points and the windows.

Symmetry ``s`` is ``s // 2`` quarter turns (``np.rot90``: counterclockwise as
printed), then a transpose if ``s`` is odd; 0 is the identity.  The question
"is this group safe?" does not change when the board is turned or mirrored, so
training turns each window by one of them at random (``model.dataset``),
evaluation may average a position's answer over all of them
(``model.predictions``, ``tsumego eval``), and ``tsumego generate`` turns each
drawn problem and recognises turned copies of written ones.  All of them use
this module, so a symmetry's number means the same everywhere.
"""
from __future__ import annotations

import numpy as np

from pipeline.formats.records import WINDOW


def transform(array: np.ndarray, symmetry: int) -> np.ndarray:
    """A square board indexed ``[y, x, ...]`` (stones, planes) under ``symmetry``, as a contiguous array."""
    turned = np.rot90(array, symmetry // 2, axes=(0, 1))
    return np.ascontiguousarray(np.swapaxes(turned, 0, 1) if symmetry % 2 else turned)


def transform_point(x: int, y: int, symmetry: int, size: int) -> tuple[int, int]:
    """Where point (x, y) of a size×size board lands: ``transform(board)[y', x'] == board[y, x]``."""
    for _ in range(symmetry // 2):
        x, y = y, size - 1 - x
    return (y, x) if symmetry % 2 else (x, y)


def _square_symmetries() -> np.ndarray:
    """int32 ``[8, 121]``: row s maps a transformed window's point i to the original's point."""
    grid = np.arange(WINDOW * WINDOW, dtype=np.int32).reshape(WINDOW, WINDOW)
    return np.stack([transform(grid, s).reshape(-1) for s in range(8)])


SYMMETRIES = _square_symmetries()
# INVERSE_SYMMETRIES[s][p]: where the original point p lands under symmetry s
INVERSE_SYMMETRIES = np.argsort(SYMMETRIES, axis=1).astype(np.int32)
# UNDOING[s]: the symmetry that undoes symmetry s
UNDOING = tuple(int(np.flatnonzero((SYMMETRIES[:, SYMMETRIES[s]] == np.arange(WINDOW * WINDOW)).all(axis=1))[0])
                for s in range(8))


def turn(windows: np.ndarray, symmetry: int) -> np.ndarray:
    """Windows ``[S, 11, 11, F]`` under one of the 8 symmetries (0 leaves them as they are)."""
    count, features = windows.shape[0], windows.shape[-1]
    flat = windows.reshape(count, WINDOW * WINDOW, features)
    return flat[:, SYMMETRIES[symmetry]].reshape(windows.shape)
