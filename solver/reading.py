"""What the tactical readers (ladder, snapback, net) work on: a board plus scratch.

A reader's *context* is a tuple of arrays, like the search's: the board's own
arrays (so readers play and undo with :func:`solver.board.play` / ``undo`` and
keep its Zobrist hash), buffers the readers fill per ply, a direct-mapped
result cache keyed by position hash, and a few counters.  Nothing is allocated
while reading.

:class:`Reading` builds and keeps a context for one :class:`Board`; the Python
APIs of the readers take a ``Board`` and find its ``Reading`` here, so the
cache lives as long as the board does.
"""
from __future__ import annotations

import weakref

import numpy as np

from .jit import kernel
from .board import EMPTY, Board, next_stamp

# context tuple layout
(R_CELLS, R_SAFE, R_MARK, R_STACK, R_UNDO, R_META, R_HASH, R_ZOBRIST, R_STRIDE,
 R_LIBS, R_BLOCK, R_SEEN, R_ROWS, R_CACHE_KEYS, R_CACHE_VALUES, R_COUNTERS) = range(16)

# counters[] slots
(C_NODES,          # nodes of the current query
 C_BUDGET,         # a query that needs more nodes is left unsettled
 C_SEEN_STAMP,     # generation counter of the ``seen`` array
 C_USE_SCAN,       # 1: the ladder reader may answer from the diagonal scan
 C_SCAN_ANSWERS,   # defender nodes the diagonal scan settled
 C_CACHE_LOOKUPS,
 C_CACHE_HITS) = range(7)
COUNTERS_SIZE = 7

# Reading stops this many plies deep (a ladder across a 19×19 board is ~40).
MAX_READ_DEPTH = 160
CACHE_LOG2 = 14

# Far liberties: a wall block of the solver (``safe``) is never captured.
MANY_LIBERTIES = 1 << 20

_rng = np.random.default_rng(60061)
# Query keys: which block is asked about (by one of its stones), which reader, who moves.
POINT_KEYS = _rng.integers(1, np.iinfo(np.uint64).max, size=(21 * 21,), dtype=np.uint64, endpoint=True)
QUERY_KEYS = _rng.integers(1, np.iinfo(np.uint64).max, size=(4,), dtype=np.uint64, endpoint=True)


class Reading:
    """A reader context over ``board``'s arrays (the board is read and played on)."""

    def __init__(self, board: Board):
        # Only the board's arrays are kept: a reference to the board itself would
        # keep it alive forever as a key of the weak dictionary below.
        n = board.cells.size
        self.counters = np.zeros(COUNTERS_SIZE, dtype=np.int64)
        self.counters[C_USE_SCAN] = 1
        self.cache_keys = np.zeros(1 << CACHE_LOG2, dtype=np.uint64)
        self.context = (
            board.cells, board.safe, board.mark, board.stack, board.undo, board.meta,
            board.hash, board.zobrist, board.stride,
            # Points are int64 throughout so that numba compiles each function once.
            np.zeros(n, dtype=np.int64),                        # liberties of the last flood
            np.zeros(n, dtype=np.int64),                        # a block kept across floods
            np.zeros(n, dtype=np.int32),                        # seen stamps
            np.zeros((MAX_READ_DEPTH + 4, n), dtype=np.int64),  # candidate moves per ply
            self.cache_keys,
            np.zeros(1 << CACHE_LOG2, dtype=np.int64),
            self.counters,
        )

    def clear_cache(self) -> None:
        self.cache_keys[:] = 0

    def use_scan(self, on: bool) -> None:
        """Let the ladder reader answer clean ladders by the diagonal scan (default) or not."""
        self.counters[C_USE_SCAN] = int(on)
        self.clear_cache()


_readings: "weakref.WeakKeyDictionary[Board, Reading]" = weakref.WeakKeyDictionary()


def reading_for(board: Board) -> Reading:
    """The board's reader context, created on first use and kept with the board."""
    reading = _readings.get(board)
    if reading is None:
        reading = _readings[board] = Reading(board)
    return reading


def board_from_stones(stones: np.ndarray) -> Board:
    """A board holding ``stones`` (int8 [y, x]) with its hash."""
    board = Board(stones.shape[0])
    for y, x in zip(*np.nonzero(stones)):
        board.place(int(x), int(y), int(stones[y, x]))
    return board


@kernel
def flood(ctx, p):
    """The whole block at p: stones into stack[:n], liberties into libs[:k]; returns (n, k).

    Stones and liberties carry the same fresh ``mark`` stamp (``mark[p]``), so a
    caller can ask whether a point is one of the liberties.  A block holding a
    wall stone reports MANY_LIBERTIES (its listed liberties are then partial).
    """
    cells, safe, mark, stack, meta = ctx[R_CELLS], ctx[R_SAFE], ctx[R_MARK], ctx[R_STACK], ctx[R_META]
    stride = ctx[R_STRIDE]
    libs = ctx[R_LIBS]
    color = cells[p]
    stamp = next_stamp(mark, meta)
    mark[p] = stamp
    stack[0] = p
    n = 1
    k = 0
    i = 0
    walled = False
    while i < n:
        s = stack[i]
        i += 1
        if safe[s]:
            walled = True
        for q in (s - 1, s + 1, s - stride, s + stride):
            if mark[q] == stamp:
                continue
            c = cells[q]
            if c == EMPTY:
                mark[q] = stamp
                libs[k] = q
                k += 1
            elif c == color:
                mark[q] = stamp
                stack[n] = q
                n += 1
    if walled:
        return n, MANY_LIBERTIES
    return n, k


@kernel
def keep_block(ctx, n):
    """Copy the n stones of the last flood (stack[:n]) into the block buffer, which later floods keep."""
    stack = ctx[R_STACK]
    block = ctx[R_BLOCK]
    for i in range(n):  # a loop, not a slice copy: kernels do not allocate
        block[i] = stack[i]


@kernel
def next_seen_stamp(ctx):
    counters = ctx[R_COUNTERS]
    counters[C_SEEN_STAMP] += 1
    if counters[C_SEEN_STAMP] >= 2**31 - 1:
        ctx[R_SEEN][:] = 0
        counters[C_SEEN_STAMP] = 1
    return counters[C_SEEN_STAMP]


@kernel
def query_key(ctx, p, kind):
    """Cache key of a question (``kind``) about the block at p in the current position."""
    key = ctx[R_HASH][0] ^ POINT_KEYS[p] ^ QUERY_KEYS[kind]
    if key == 0:
        key = np.uint64(1)
    return key


@kernel
def cache_get(ctx, key):
    """The stored result for ``key``, or -1."""
    keys = ctx[R_CACHE_KEYS]
    counters = ctx[R_COUNTERS]
    counters[C_CACHE_LOOKUPS] += 1
    i = np.int64(key & np.uint64(keys.size - 1))
    if keys[i] == key:
        counters[C_CACHE_HITS] += 1
        return ctx[R_CACHE_VALUES][i]
    return -1


@kernel
def cache_put(ctx, key, value):
    """Store a settled result; a colliding older entry is simply replaced."""
    keys = ctx[R_CACHE_KEYS]
    i = np.int64(key & np.uint64(keys.size - 1))
    keys[i] = key
    ctx[R_CACHE_VALUES][i] = value
