"""The tactical pass: every reader on every block of a position, as whole-board maps.

What the feature planes need is not one answer but all of them: which stones
a ladder captures, where a block in atari escapes, where a throw-in is a
snapback, which stones a net captures.  :func:`tactical_maps` walks the blocks
once in compiled code and asks each reader the question that fits the block:

============  ===========================  ====================================
liberties     reader                       marks
============  ===========================  ====================================
1             ladder, owner to move        the block (captured) or its escape
2             ladder, attacker to move     the block (captured)
2             net, when the ladder fails   the block (captured)
2             snapback, opponent throws in the throw-in points
============  ===========================  ====================================
"""
from __future__ import annotations

import threading

import numpy as np
from numba import njit

from .jit import kernel
from .board import BLACK, EMPTY, WHITE, Board
from .ladder import CAPTURED, ESCAPED, LADDER_BUDGET, ladder_node, move_of, outcome_of
from .net import NET_BUDGET, net_node
from .reading import C_BUDGET, C_NODES, R_CELLS, R_COUNTERS, R_STACK, R_STRIDE, flood, reading_for
from .snapback import throw_in_snapbacks

MAPS = ("ladder_captured", "ladder_escape", "snapback_point", "net_captured")
LADDER_CAPTURED, LADDER_ESCAPE, SNAPBACK, NET_CAPTURED = range(4)


@kernel
def _start_query(ctx, budget):
    counters = ctx[R_COUNTERS]
    counters[C_NODES] = 0
    counters[C_BUDGET] = budget


@njit(cache=True)  # allocates its scratch: an entry point, not a kernel
def tactical_maps(ctx, out, attack, ladder_budget, net_budget, with_nets):
    """Fill out (uint8 [4, size, size], zeroed) with the maps named in MAPS.

    ``attack`` is True, passed in so that numba compiles one version of the
    readers (a literal would make it compile another).
    """
    cells = ctx[R_CELLS]
    stride = ctx[R_STRIDE]
    stack = ctx[R_STACK]
    done = np.zeros(cells.size, dtype=np.uint8)
    stones = np.empty(cells.size, dtype=np.int64)
    throw_ins = np.empty(cells.size, dtype=np.int64)
    # Non-literal constants: numba compiles a callee again for literal arguments.
    no_ko = np.uint64(0)
    zero = np.int64(0)
    for p in range(cells.size):
        color = cells[p]
        if (color != BLACK and color != WHITE) or done[p]:
            continue
        n, k = flood(ctx, p)
        stones[:n] = stack[:n]
        for i in range(n):
            done[stones[i]] = 1
        if k == 0 or k > 2:
            continue  # no liberty: an illegal position, nothing to read
        _start_query(ctx, ladder_budget)
        result = ladder_node(ctx, p, attack if k == 2 else not attack, no_ko, zero)
        outcome = outcome_of(result)
        if outcome == CAPTURED:
            for i in range(n):
                s = stones[i]
                out[LADDER_CAPTURED, s // stride - 1, s % stride - 1] = 1
        elif outcome == ESCAPED and k == 1:
            e = move_of(result)
            out[LADDER_ESCAPE, e // stride - 1, e % stride - 1] = 1
        if k != 2:
            continue
        if with_nets and outcome == ESCAPED:
            _start_query(ctx, net_budget)
            if outcome_of(net_node(ctx, p, attack, zero)) == CAPTURED:
                for i in range(n):
                    s = stones[i]
                    out[NET_CAPTURED, s // stride - 1, s % stride - 1] = 1
        m = throw_in_snapbacks(ctx, p, 3 - color, throw_ins, zero)
        for i in range(m):
            t = throw_ins[i]
            out[SNAPBACK, t // stride - 1, t % stride - 1] = 1


def board_maps(board: Board, with_nets: bool = True) -> np.ndarray:
    """uint8 [4, size, size]: the maps of MAPS for the position on ``board``."""
    out = np.zeros((len(MAPS), board.size, board.size), dtype=np.uint8)
    tactical_maps(reading_for(board).context, out, True, LADDER_BUDGET, NET_BUDGET, with_nets)
    return out


# One board per size and thread, reused from position to position: its cache
# carries over (entries are keyed by the whole position's hash, so they stay
# true), and a multi-threaded runner never shares one between two readings.
_boards = threading.local()


@kernel
def _load(cells, stride, zobrist, hashes, stones):
    """Put ``stones`` on the board's cells with their hash; False, the board untouched, when a
    value is not EMPTY, BLACK or WHITE.  (Compiled: in numpy the check and the hash took 16 µs
    of a position's 37 in the tactical planes.)"""
    size = stones.shape[0]
    for y in range(size):
        for x in range(size):
            color = stones[y, x]
            if color != EMPTY and color != BLACK and color != WHITE:
                return False
    position = np.uint64(0)
    for y in range(size):
        for x in range(size):
            p = (y + 1) * stride + x + 1
            color = stones[y, x]
            cells[p] = color
            if color != EMPTY:
                position ^= zobrist[color - 1, p]
    hashes[0] = position
    return True


def _board_of_size(size: int) -> Board:
    """This thread's reused board of this size."""
    boards = getattr(_boards, "by_size", None)
    if boards is None:
        boards = _boards.by_size = {}
    board = boards.get(size)
    if board is None:
        board = boards[size] = Board(size)
    return board


def load_stones(stones: np.ndarray) -> Board:
    """This thread's reused board of this size, holding ``stones`` (int8 [y, x]) and their hash."""
    if stones.dtype != np.int8:   # (checked before the cast, which could wrap a wrong value onto a colour)
        if np.any((stones != EMPTY) & (stones != BLACK) & (stones != WHITE)):
            raise ValueError("stones must hold only EMPTY, BLACK and WHITE")
        stones = stones.astype(np.int8)
    board = _board_of_size(stones.shape[0])
    if not _load(board.cells, board.stride, board.zobrist, board.hash, np.ascontiguousarray(stones)):
        raise ValueError("stones must hold only EMPTY, BLACK and WHITE")
    return board


def stones_maps(stones: np.ndarray, with_nets: bool = True) -> np.ndarray:
    """The tactical maps of a position given as stones (int8 [y, x], EMPTY/BLACK/WHITE)."""
    if stones.ndim != 2 or stones.shape[0] != stones.shape[1]:
        raise ValueError(f"stones must be a square [size, size] array, not {stones.shape}")
    return board_maps(load_stones(stones), with_nets)
