"""Learned move patterns: the move order's score of a move from its shape.

A move is described by a *code* (int32): the 3x3 neighbourhood of its point
before it is played, seen from the mover (each of the eight neighbours empty,
the mover's stone, the opponent's, or off the board: 16 bits), whether the
mover is the defender, and what the move does (stones captured, the target's
liberties after it, its own block's liberties, whether it captures the
target).  A table of weights gives each neighbourhood, for each role, a weight,
and each combination of role, captures and liberties another; their sum,
squashed into (-PATTERN_SCALE, PATTERN_SCALE), is the move's score in place
of the hand-written liberty heuristic (:mod:`solver.movegen`).

The neighbourhood weights are shared by the eight symmetries of the square
(one weight per class, :func:`pattern_classes`), so the score of a move does
not depend on the board's orientation, and the colours are the mover's and
the opponent's, so it does not depend on which colour the defender is.

The weights are fitted by :mod:`solver.pattern_training` on searches of
enclosed problems (which moves won the nodes the search cut), and shipped as
``move_patterns.npz`` beside this file.  Measured: RESULTS.md, "Learned move
patterns".
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .board import BORDER, EMPTY
from .jit import inline_kernel, kernel

DEFAULT_PATH = Path(__file__).resolve().parent / "move_patterns.npz"

# The code's fields (bit offsets and widths).
PATTERN_BITS = 16            # eight neighbours, two bits each
ROLE_SHIFT = 16              # 1: the mover is the defender
CAPTURED_SHIFT, CAPTURED_LEVELS = 17, 4      # stones captured: 0, 1, 2, 3 or more
TARGET_LIBS_SHIFT, TARGET_LIBS_LEVELS = 19, 8  # the target's liberties after: 0 (captured) .. 7 or more
OWN_LIBS_SHIFT, OWN_LIBS_LEVELS = 22, 4      # the move's block's liberties after: 1, 2, 3, 4 or more
CAPTURES_TARGET_SHIFT = 25

PATTERNS = 1 << PATTERN_BITS
# the neighbour states, seen from the mover
N_EMPTY, N_OWN, N_OPPONENT, N_EDGE = 0, 1, 2, 3
# The weight table's layout: the neighbourhood weights by role, then the combinations
# of role, captures, the target's liberties and the move's own liberties.
CROSS_OFFSET = 2 * PATTERNS
CROSS_SIZE = 2 * CAPTURED_LEVELS * TARGET_LIBS_LEVELS * OWN_LIBS_LEVELS
TABLE_SIZE = CROSS_OFFSET + CROSS_SIZE

# The learned score lies within (-PATTERN_SCALE, PATTERN_SCALE), the range of the
# liberty heuristic it replaces (0.5 + 0.25 + 0.125), so the tiers above it (a hint, a
# known win, the guide's prior and the history counts) keep their places.  Of the
# scales tried, 0.875 took fewer nodes than 1.9 and as many as 0.5 (RESULTS.md,
# "Learned move patterns").
PATTERN_SCALE = 0.875

# The neighbours in code order, as (dx, dy): up, down, left, right, then the diagonals.
NEIGHBOUR_STEPS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))


@kernel
def neighbourhood(cells, p, stride, color):
    """The 16-bit code of the eight neighbours of p (NEIGHBOUR_STEPS order), seen by ``color``."""
    code = 0
    k = 0
    for q in (p - stride, p + stride, p - 1, p + 1,
              p - stride - 1, p - stride + 1, p + stride - 1, p + stride + 1):
        c = cells[q]
        if c == EMPTY:
            state = N_EMPTY
        elif c == BORDER:
            state = N_EDGE
        elif c == color:
            state = N_OWN
        else:
            state = N_OPPONENT
        code |= state << (2 * k)
        k += 1
    return code


@inline_kernel
def move_code(pattern, defender_moves, captured, target_libs, own_libs, captures_target):
    """A move's code: its neighbourhood (:func:`neighbourhood`, before it is played) and
    what it does."""
    return (pattern
            | (1 if defender_moves else 0) << ROLE_SHIFT
            | min(captured, CAPTURED_LEVELS - 1) << CAPTURED_SHIFT
            | min(target_libs, TARGET_LIBS_LEVELS - 1) << TARGET_LIBS_SHIFT
            | (min(max(own_libs, 1), OWN_LIBS_LEVELS) - 1) << OWN_LIBS_SHIFT
            | (1 if captures_target else 0) << CAPTURES_TARGET_SHIFT)


@inline_kernel
def cross_index(code):
    """Index in the table of the code's role, captures and liberties."""
    role = (code >> ROLE_SHIFT) & 1
    captured = (code >> CAPTURED_SHIFT) & (CAPTURED_LEVELS - 1)
    target_libs = (code >> TARGET_LIBS_SHIFT) & (TARGET_LIBS_LEVELS - 1)
    own_libs = (code >> OWN_LIBS_SHIFT) & (OWN_LIBS_LEVELS - 1)
    return CROSS_OFFSET + ((role * CAPTURED_LEVELS + captured) * TARGET_LIBS_LEVELS
                           + target_libs) * OWN_LIBS_LEVELS + own_libs


@inline_kernel
def learned_weight(table, code):
    """The move's summed weight (unsquashed): its neighbourhood's and its effects'."""
    role = (code >> ROLE_SHIFT) & 1
    return table[role * PATTERNS + (code & (PATTERNS - 1))] + table[cross_index(code)]


def code_fields(codes: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of an array of codes, for fitting and for reading them."""
    codes = np.asarray(codes, dtype=np.int64)
    return {
        "pattern": codes & (PATTERNS - 1),
        "role": (codes >> ROLE_SHIFT) & 1,
        "captured": (codes >> CAPTURED_SHIFT) & (CAPTURED_LEVELS - 1),
        "target_libs": (codes >> TARGET_LIBS_SHIFT) & (TARGET_LIBS_LEVELS - 1),
        "own_libs": (codes >> OWN_LIBS_SHIFT) & (OWN_LIBS_LEVELS - 1),
        "captures_target": (codes >> CAPTURES_TARGET_SHIFT) & 1,
    }


def transform_pattern(patterns: np.ndarray, symmetry: int) -> np.ndarray:
    """The neighbourhood codes seen in one of the eight symmetries of the square
    (``symmetry`` 0-7: bit 0 mirrors x, bit 1 mirrors y, bit 2 swaps x and y)."""
    patterns = np.asarray(patterns, dtype=np.int64)
    out = np.zeros_like(patterns)
    for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS):
        if symmetry & 4:
            dx, dy = dy, dx
        if symmetry & 1:
            dx = -dx
        if symmetry & 2:
            dy = -dy
        out |= ((patterns >> (2 * k)) & 3) << (2 * NEIGHBOUR_STEPS.index((dx, dy)))
    return out


@lru_cache(maxsize=1)
def pattern_classes() -> tuple[np.ndarray, int]:
    """Each neighbourhood code's class under the eight symmetries (0 .. count-1), and the
    number of classes."""
    codes = np.arange(PATTERNS, dtype=np.int64)
    smallest = np.min([transform_pattern(codes, s) for s in range(8)], axis=0)
    _, classes = np.unique(smallest, return_inverse=True)
    classes.flags.writeable = False
    return classes, int(classes.max()) + 1


@dataclass
class MovePatterns:
    """Fitted weights: ``pattern_weights`` [role, class] (role 1: the defender moves) and
    ``cross_weights`` [role, captured, target liberties, own liberties]."""
    pattern_weights: np.ndarray
    cross_weights: np.ndarray

    def table(self) -> np.ndarray:
        """The flat float64 table the move order reads (TABLE_SIZE entries)."""
        classes, count = pattern_classes()
        if self.pattern_weights.shape != (2, count):
            raise ValueError(f"pattern weights must be [2, {count}], not {list(self.pattern_weights.shape)}")
        table = np.zeros(TABLE_SIZE, dtype=np.float64)
        table[:PATTERNS] = self.pattern_weights[0][classes]
        table[PATTERNS:2 * PATTERNS] = self.pattern_weights[1][classes]
        table[CROSS_OFFSET:] = np.asarray(self.cross_weights, dtype=np.float64).reshape(-1)
        return table

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, pattern_weights=self.pattern_weights.astype(np.float32),
                            cross_weights=self.cross_weights.astype(np.float32))

    @classmethod
    def load(cls, path: str | Path) -> "MovePatterns":
        """The weights in ``path``; ValueError naming the file when it holds none."""
        try:
            with np.load(path) as data:
                patterns = cls(data["pattern_weights"].astype(np.float64),
                               data["cross_weights"].astype(np.float64).reshape(
                                   2, CAPTURED_LEVELS, TARGET_LIBS_LEVELS, OWN_LIBS_LEVELS))
            patterns.table()   # checks the shapes
        except (OSError, KeyError, ValueError, AttributeError) as exc:
            raise ValueError(f"{path}: not a move patterns file ({exc})") from exc
        return patterns


@lru_cache(maxsize=1)
def default_table() -> np.ndarray:
    """The shipped weights' table, read once and shared by every solver (which only reads it;
    a read-only array would be another type to the compiled searches)."""
    return MovePatterns.load(DEFAULT_PATH).table()
