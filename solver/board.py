"""Go rules over a flat, padded board: the compiled hot path of the solver.

A board of size N is stored as a 1-D ``int8`` array of (N + 2)² cells with a
one-cell border, so the four neighbours of point ``p`` are ``p ± 1`` and
``p ± stride`` without bounds checks.  Everything the search touches per node
(play, undo, captures, suicide, liberty counts, Zobrist hashing) lives here as
numba-compiled functions over a :class:`Board`'s arrays; Python objects stay at
the edges.

Stones of the attacker's outer wall are marked *safe*: they have liberties the
search never fills (outside the search area), so a flood fill that reaches one
can stop at once — the wall is never captured.
"""
from __future__ import annotations

import functools

import numpy as np

from .jit import inline_kernel, kernel

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
# SGF's letters for the two colours (PL[B], B[xy], AW...); every text output uses them too.
_LETTER_OF_COLOR = {BLACK: "B", WHITE: "W"}
_COLOR_OF_LETTER = {"B": BLACK, "W": WHITE}
MAX_SIZE = 19
ZOBRIST_SEED = 20171017

# Moves the board holds at once (played and not taken back).  The searches stop at
# rules.MAX_DEPTH moves deep, a principal variation too (tests/test_board.py checks
# the room).  Each move held keeps its point, its capture count and the stones it
# captured on the undo stack; a stone is captured at most once after it is placed,
# so m moves take at most 2m + (stones at the start + m) entries: 3 * MAX_MOVES + the
# board's points.  The compiled code does not check bounds, so the room must be
# there: an undo stack of 4 entries a point (272 on a 6x6 board) was overrun, and
# the heap corrupted, when a random move order took DFS deep through ko captures.
MAX_MOVES = 256

# meta[] slots: small mutable integers shared by the compiled functions.
META_STAMP = 0      # generation counter for the ``mark`` array
META_UNDO_TOP = 1   # height of the undo stack
META_SIZE = 2


def opponent(color: int) -> int:
    return 3 - color


def color_letter(color: int) -> str:
    """``B`` or ``W``; a KeyError for anything but BLACK or WHITE."""
    return _LETTER_OF_COLOR[color]


def color_of_letter(letter: str) -> int:
    """BLACK or WHITE for an upper-case ``B`` or ``W``; a KeyError for anything else."""
    return _COLOR_OF_LETTER[letter]


@functools.lru_cache(maxsize=None)
def _zobrist_table(cells: int) -> np.ndarray:
    """One table per board size, shared by every Board of that size (never written)."""
    rng = np.random.default_rng(ZOBRIST_SEED)
    return rng.integers(1, np.iinfo(np.uint64).max, size=(2, cells), dtype=np.uint64, endpoint=True)


class Board:
    """A padded board with the scratch arrays the compiled kernels need.

    ``cells`` holds EMPTY/BLACK/WHITE/BORDER; ``safe`` marks uncapturable wall
    stones; ``hash`` is a one-element uint64 array (so compiled code can update
    it in place) holding the Zobrist hash of the stones.
    """

    def __init__(self, size: int):
        if not 1 <= size <= MAX_SIZE:
            raise ValueError(f"board size {size} is outside 1..{MAX_SIZE}")
        self.size = size
        self.stride = size + 2
        n = self.stride * self.stride
        self.cells = np.full(n, BORDER, dtype=np.int8)
        for y in range(size):
            start = (y + 1) * self.stride + 1
            self.cells[start:start + size] = EMPTY
        self.safe = np.zeros(n, dtype=np.uint8)
        self.mark = np.zeros(n, dtype=np.int32)
        self.stack = np.zeros(n, dtype=np.int32)
        # Each move pushes its captured stones, their count and the point (MAX_MOVES).
        self.undo = np.zeros(3 * MAX_MOVES + n, dtype=np.int32)
        self.meta = np.zeros(META_SIZE, dtype=np.int64)
        self.hash = np.zeros(1, dtype=np.uint64)
        self.zobrist = _zobrist_table(n)

    # -- coordinates ---------------------------------------------------------
    def point(self, x: int, y: int) -> int:
        """Flat index of the point in column x, row y (0-based, y from the top)."""
        return (y + 1) * self.stride + (x + 1)

    def xy(self, p: int) -> tuple[int, int]:
        return p % self.stride - 1, p // self.stride - 1

    # -- state ---------------------------------------------------------------
    def place(self, x: int, y: int, color: int) -> None:
        """Put a stone without applying the rules (for setting up positions)."""
        p = self.point(x, y)
        if self.cells[p] != EMPTY:
            self.hash[0] ^= self.zobrist[self.cells[p] - 1, p]
        self.cells[p] = color
        self.hash[0] ^= self.zobrist[color - 1, p]

    def get(self, x: int, y: int) -> int:
        return int(self.cells[self.point(x, y)])

    def play(self, x: int, y: int, color: int) -> int:
        """Play by the rules; returns stones captured, or -1 if illegal.  A ValueError
        when the board already holds MAX_MOVES moves."""
        if self.meta[META_UNDO_TOP] + 2 + self.cells.size > self.undo.size:
            raise ValueError(f"the board holds {MAX_MOVES} moves already: take one back first")
        return play(self.cells, self.safe, self.mark, self.stack, self.undo,
                    self.meta, self.hash, self.zobrist, self.stride,
                    self.point(x, y), color)

    def take_back(self) -> None:
        undo(self.cells, self.undo, self.meta, self.hash, self.zobrist)

    def liberties(self, x: int, y: int, cap: int = 1 << 20) -> int:
        return count_liberties(self.cells, self.safe, self.mark, self.stack,
                               self.meta, self.stride, self.point(x, y), cap)

    def block(self, x: int, y: int) -> list[tuple[int, int]]:
        """The stones of the block at (x, y)."""
        n = collect_block(self.cells, self.mark, self.stack, self.meta,
                          self.stride, self.point(x, y))
        return sorted(self.xy(int(p)) for p in self.stack[:n])

    def to_array(self) -> np.ndarray:
        """The stones as a size×size int8 array indexed [y, x]."""
        grid = self.cells.reshape(self.stride, self.stride)
        return grid[1:-1, 1:-1].copy()

    def __str__(self) -> str:
        glyph = {EMPTY: ".", BLACK: "X", WHITE: "O"}
        return "\n".join("".join(glyph[int(c)] for c in row) for row in self.to_array())


@inline_kernel
def next_stamp(mark, meta):
    meta[META_STAMP] += 1
    if meta[META_STAMP] >= 2**31 - 1:
        mark[:] = 0
        meta[META_STAMP] = 1
    return meta[META_STAMP]


@inline_kernel
def stone_beside(cells, p, stride, color):
    """Whether a stone of ``color`` stands beside p."""
    return (cells[p - 1] == color or cells[p + 1] == color or cells[p - stride] == color
            or cells[p + stride] == color)


@kernel
def scan_block(cells, safe, mark, stack, meta, stride, p):
    """Flood-fill the block at p into ``stack``.

    Returns -1 as soon as the block is found to have a liberty (or to contain a
    safe wall stone); otherwise the number of stones, all in stack[:n].
    """
    color = cells[p]
    stamp = next_stamp(mark, meta)
    mark[p] = stamp
    stack[0] = p
    n = 1
    i = 0
    while i < n:
        s = stack[i]
        i += 1
        if safe[s]:
            return -1
        for q in (s - 1, s + 1, s - stride, s + stride):
            c = cells[q]
            if c == EMPTY:
                return -1
            if c == color and mark[q] != stamp:
                mark[q] = stamp
                stack[n] = q
                n += 1
    return n


@kernel
def collect_block(cells, mark, stack, meta, stride, p):
    """All stones of the block at p into stack[:n]; returns n."""
    color = cells[p]
    stamp = next_stamp(mark, meta)
    mark[p] = stamp
    stack[0] = p
    n = 1
    i = 0
    while i < n:
        s = stack[i]
        i += 1
        for q in (s - 1, s + 1, s - stride, s + stride):
            if cells[q] == color and mark[q] != stamp:
                mark[q] = stamp
                stack[n] = q
                n += 1
    return n


@kernel
def count_liberties(cells, safe, mark, stack, meta, stride, p, cap):
    """Liberties of the block at p, counting stops at ``cap``.

    A block holding a safe wall stone counts as having ``cap`` liberties.
    """
    color = cells[p]
    stamp = next_stamp(mark, meta)
    mark[p] = stamp
    stack[0] = p
    n = 1
    i = 0
    libs = 0
    while i < n:
        s = stack[i]
        i += 1
        if safe[s]:
            return cap
        for q in (s - 1, s + 1, s - stride, s + stride):
            if mark[q] == stamp:
                continue
            c = cells[q]
            if c == EMPTY:
                mark[q] = stamp
                libs += 1
                if libs >= cap:
                    return cap
            elif c == color:
                mark[q] = stamp
                stack[n] = q
                n += 1
    return libs


@kernel
def play(cells, safe, mark, stack, undo_stack, meta, hashv, zobrist, stride, p, color):
    """Play ``color`` at p: captures, no suicide, Zobrist update, undo record.

    Returns the number of stones captured, or -1 (board unchanged) when the
    point is occupied or the move is suicide.  Repetition (ko) is the search's
    business: it depends on the path and on who is ko master.
    """
    if cells[p] != EMPTY:
        return -1
    opp = 3 - color
    cells[p] = color
    top = meta[META_UNDO_TOP]
    captured = 0
    for q in (p - 1, p + 1, p - stride, p + stride):
        if cells[q] != opp:
            continue
        n = scan_block(cells, safe, mark, stack, meta, stride, q)
        if n < 0:
            continue
        for i in range(n):
            s = stack[i]
            cells[s] = EMPTY
            hashv[0] ^= zobrist[opp - 1, s]
            undo_stack[top] = s
            top += 1
        captured += n
    if captured == 0 and scan_block(cells, safe, mark, stack, meta, stride, p) >= 0:
        cells[p] = EMPTY
        return -1
    hashv[0] ^= zobrist[color - 1, p]
    undo_stack[top] = captured
    undo_stack[top + 1] = p
    meta[META_UNDO_TOP] = top + 2
    return captured


@kernel
def undo(cells, undo_stack, meta, hashv, zobrist):
    """Take back the last move made with :func:`play`."""
    top = meta[META_UNDO_TOP]
    p = undo_stack[top - 1]
    captured = undo_stack[top - 2]
    top -= 2
    color = cells[p]
    opp = 3 - color
    cells[p] = EMPTY
    hashv[0] ^= zobrist[color - 1, p]
    for _ in range(captured):
        top -= 1
        s = undo_stack[top]
        cells[s] = opp
        hashv[0] ^= zobrist[opp - 1, s]
    meta[META_UNDO_TOP] = top
