"""Ladders (lambda-1 reading): can a block be captured by a run of ataris?

The attacker may only play ataris on the block; the block's owner answers by
extending at its last liberty or by capturing an attacker block next to it
that is in atari (the only moves that can save a block in atari).  The block
escapes when it reaches three liberties.  This is exact reading by playing the
moves (:func:`ladder_node`), with two shortcuts (the diagonal scan and the
Zobrist cache proposed for fast ladder checks in tactical planes):

* the **diagonal scan** (:func:`diagonal_scan`): a ladder in its regular
  staircase whose path is empty up to the edge is captured there, which is
  read off the board point by point instead of played (the scan says
  "unclear" for anything else: a stone on the path, a weak wall stone, a
  capture available; the simulation then reads on);
* a **cache** of settled results keyed by the position's Zobrist hash and the
  question (see :mod:`solver.reading`).

Simple ko is respected: a move may not recreate the position before the
opponent's last single-stone capture.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .jit import inline_kernel, kernel
from .board import BLACK, BORDER, EMPTY, WHITE, Board, play, undo
from .reading import (C_BUDGET, C_NODES, C_SCAN_ANSWERS, C_USE_SCAN, MAX_READ_DEPTH, R_BLOCK,
                      R_CELLS, R_COUNTERS, R_HASH, R_LIBS, R_MARK, R_META, R_ROWS, R_SAFE, R_SEEN,
                      R_STACK, R_STRIDE, R_UNDO, R_ZOBRIST, cache_get, cache_put, flood,
                      keep_block, next_seen_stamp, query_key, reading_for)

ESCAPED, CAPTURED, UNSETTLED = 0, 1, 2
NO_POINT = -1
# query kinds for the cache
DEFENDER_TO_MOVE, ATTACKER_TO_MOVE = 0, 1
LADDER_BUDGET = 5000


@inline_kernel
def pack(outcome, move):
    return outcome | ((move + 1) << 2)


@inline_kernel
def outcome_of(result):
    return result & 3


@inline_kernel
def move_of(result):
    return (result >> 2) - 1


@kernel
def play_on(ctx, p, color):
    return play(ctx[R_CELLS], ctx[R_SAFE], ctx[R_MARK], ctx[R_STACK], ctx[R_UNDO], ctx[R_META],
                ctx[R_HASH], ctx[R_ZOBRIST], ctx[R_STRIDE], p, color)


@kernel
def undo_on(ctx):
    undo(ctx[R_CELLS], ctx[R_UNDO], ctx[R_META], ctx[R_HASH], ctx[R_ZOBRIST])


@kernel
def _holds(cells, attacker, p):
    """An attacker stone or the edge: what a ladder runs along."""
    return cells[p] == attacker or cells[p] == BORDER


@kernel
def _wall_liberties_left(ctx, wall, filled_a, filled_b):
    """Liberties the wall block at ``wall`` keeps once empty points filled_a and filled_b are filled."""
    if ctx[R_CELLS][wall] == BORDER:
        return 1 << 20
    mark = ctx[R_MARK]
    _, k = flood(ctx, wall)
    stamp = mark[wall]
    lost = 1 if mark[filled_a] == stamp else 0
    if filled_b != filled_a and mark[filled_b] == stamp:
        lost += 1
    return k - lost


@kernel
def diagonal_scan(ctx, lib, defender):
    """CAPTURED, or UNSETTLED when the scan cannot tell.

    The block is in atari at ``lib``, its owner to move, and no capture can
    save it.  In a regular ladder the extension ``lib`` touches one stone of
    the block (q), one wall point w (attacker stone or edge) at a right angle,
    and two empty points ahead: straight on (F2 = lib + ey) and sideways
    (F1 = lib + ex).  The attacker ataris on F2, the block extends to F1 and
    the pattern repeats with ex and ey swapped, so the run climbs a staircase.
    Every point the run touches is checked: the points ahead must be empty;
    each attacker stone the run plays must have its two outer points (never
    touched later) empty, or one of them on the edge when the run ends within
    two steps, before the block could capture that stone; the wall stones met
    at the first two steps must keep two liberties once the block passes
    them.  When a point ahead is the edge, the last extension has one liberty
    and the block is captured.  Anything else (a stone ahead or beside the
    path) makes the answer unclear.
    """
    cells = ctx[R_CELLS]
    stride = ctx[R_STRIDE]
    attacker = 3 - defender
    q = -1
    for d in (1, -1, stride, -stride):
        if cells[lib + d] == defender:
            if q >= 0:
                return UNSETTLED
            q = lib + d
    if q < 0:
        return UNSETTLED
    ey = lib - q
    side = stride if ey == 1 or ey == -1 else 1
    if _holds(cells, attacker, lib - side):
        ex = side
    elif _holds(cells, attacker, lib + side):
        ex = -side
    else:
        return UNSETTLED
    first_wall = lib - ex
    step = 0
    deadline = 1 << 30  # the run must have ended before it continues at this step
    while True:
        f1 = lib + ex
        f2 = lib + ey
        c1 = cells[f1]
        c2 = cells[f2]
        if c1 == EMPTY and c2 == EMPTY:
            if step >= deadline:
                return UNSETTLED
            outer_a = cells[f2 + ey]
            outer_b = cells[f2 - ex]
            if (outer_a != EMPTY and outer_a != BORDER) or (outer_b != EMPTY and outer_b != BORDER):
                return UNSETTLED
            if outer_a == BORDER and outer_b == BORDER:
                return UNSETTLED
            if outer_a == BORDER or outer_b == BORDER:
                # The atari stone on the edge has one outer liberty: it falls
                # into atari when the block extends next to it, two steps on.
                deadline = min(deadline, step + 2)
            if step == 0:
                second_wall = lib + ex - ey
                if not _holds(cells, attacker, second_wall):
                    return UNSETTLED
                if _wall_liberties_left(ctx, first_wall, lib, f1) < 2:
                    return UNSETTLED
                if _wall_liberties_left(ctx, second_wall, lib, f1) < 2:
                    return UNSETTLED
            lib = f1
            ex, ey = ey, ex
            step += 1
            continue
        ends = ((c1 == EMPTY and c2 == BORDER) or (c1 == BORDER and c2 == EMPTY)
                or (c1 == BORDER and c2 == BORDER))
        if not ends:
            return UNSETTLED
        if step == 0:
            # The extension must not capture the wall: it keeps a liberty.
            if _wall_liberties_left(ctx, first_wall, lib, lib) < 1:
                return UNSETTLED
        return CAPTURED


@kernel
def _capture_moves(ctx, n, attacker, moves, m):
    """Append to moves[m:] the liberty of every attacker block in atari next to the block.

    The block's n stones are in the stack; returns the new count.
    """
    cells = ctx[R_CELLS]
    stride = ctx[R_STRIDE]
    stack = ctx[R_STACK]
    block = ctx[R_BLOCK]
    seen = ctx[R_SEEN]
    libs = ctx[R_LIBS]
    keep_block(ctx, n)
    stamp = next_seen_stamp(ctx)
    for i in range(n):
        s = block[i]
        for q in (s - 1, s + 1, s - stride, s + stride):
            if cells[q] != attacker or seen[q] == stamp:
                continue
            nq, kq = flood(ctx, q)
            for j in range(nq):
                seen[stack[j]] = stamp
            if kq == 1:
                c = libs[0]
                fresh = True
                for j in range(m):
                    if moves[j] == c:
                        fresh = False
                if fresh:
                    moves[m] = c
                    m += 1
    return m


@kernel
def ladder_node(ctx, target, attacker_to_move, ko_hash, depth):
    """The ladder on the block at ``target``: pack(outcome, move).

    With the attacker to move (block with one or two liberties) the move is
    the capturing atari; with the owner to move (block in atari) it is the
    saving move, or the natural extension when nothing saves.  ``ko_hash`` is
    the position a move may not recreate (0 for none).  One self-recursive
    function: numba's cache cannot hold mutually recursive ones.
    """
    counters = ctx[R_COUNTERS]
    counters[C_NODES] += 1
    if counters[C_NODES] > counters[C_BUDGET] or depth >= MAX_READ_DEPTH:
        return pack(UNSETTLED, NO_POINT)
    cells = ctx[R_CELLS]
    hashv = ctx[R_HASH]
    key = query_key(ctx, target, ATTACKER_TO_MOVE if attacker_to_move else DEFENDER_TO_MOVE)
    if ko_hash == 0:
        cached = cache_get(ctx, key)
        if cached >= 0:
            return cached
    defender = cells[target]
    attacker = 3 - defender
    n, k = flood(ctx, target)
    if k >= (3 if attacker_to_move else 2):
        return pack(ESCAPED, NO_POINT)
    libs = ctx[R_LIBS]
    moves = ctx[R_ROWS][depth]
    moves[0] = libs[0]
    moves[1] = libs[1]
    if attacker_to_move:
        m = k
        mover = attacker
        # The attacker wins with one move that works; the owner with one that saves.
        wins, loses = CAPTURED, ESCAPED
    else:
        m = _capture_moves(ctx, n, attacker, moves, 1)
        mover = defender
        wins, loses = ESCAPED, CAPTURED
        if m == 1 and counters[C_USE_SCAN] and diagonal_scan(ctx, moves[0], defender) == CAPTURED:
            counters[C_SCAN_ANSWERS] += 1
            result = pack(CAPTURED, moves[0])
            if ko_hash == 0:
                cache_put(ctx, key, result)
            return result
    unsettled = False
    result = pack(loses, moves[0] if loses == CAPTURED else NO_POINT)
    for i in range(m):
        mv = moves[i]
        before = hashv[0]
        captured = play_on(ctx, mv, mover)
        if captured < 0:
            continue
        if hashv[0] == ko_hash:
            undo_on(ctx)
            continue
        ko = before if captured == 1 else np.uint64(0)
        if cells[target] == EMPTY:
            outcome = CAPTURED
        else:
            _, k = flood(ctx, target)
            # An attacker move that captured stones next to the block and left
            # it two liberties is no atari; an owner's move to three escapes.
            if k >= (2 if attacker_to_move else 3):
                outcome = ESCAPED
            else:
                outcome = outcome_of(ladder_node(ctx, target, not attacker_to_move, ko, depth + 1))
        undo_on(ctx)
        if outcome == wins:
            result = pack(wins, mv)
            break
        if outcome == UNSETTLED:
            unsettled = True
    if outcome_of(result) != wins and unsettled:
        result = pack(UNSETTLED, NO_POINT)
    if ko_hash == 0 and outcome_of(result) != UNSETTLED:
        cache_put(ctx, key, result)
    return result


@kernel
def read_ladder(ctx, target, attacker_to_move, budget):
    """One question from outside the search: fresh node count, no ko history."""
    counters = ctx[R_COUNTERS]
    counters[C_NODES] = 0
    counters[C_BUDGET] = budget
    return ladder_node(ctx, target, attacker_to_move, np.uint64(0), np.int64(0))


@dataclass(frozen=True)
class LadderResult:
    """The ladder on one block.

    ``captured`` is True when the attacker wins (False also when the reading
    was left unsettled, see ``settled``).  ``escape_move`` is the owner's move:
    the saving move when the ladder fails, or the extension that fails when it
    works.  ``atari_move`` is the attacker's atari on the main line: the first
    atari (block with two liberties) or the answer to the extension (block in
    atari); None when the ladder fails.
    """

    captured: bool
    escape_move: tuple[int, int] | None
    atari_move: tuple[int, int] | None
    settled: bool = True
    nodes: int = 0


def ladder_captures(board: Board, x: int, y: int, budget: int = LADDER_BUDGET) -> LadderResult:
    """Does the ladder work against the block at (x, y)?

    A block in atari is read with its owner to move (can it escape?), a block
    with two liberties with the attacker to move (can a ladder start?).
    Blocks with more liberties are not in a ladder.
    """
    if board.get(x, y) not in (BLACK, WHITE):
        raise ValueError(f"no stone at {(x, y)}")
    liberties = board.liberties(x, y, cap=3)
    if liberties == 0:
        raise ValueError(f"the block at {(x, y)} has no liberties: not a legal position")
    reading = reading_for(board)
    ctx = reading.context
    p = board.point(x, y)
    if liberties >= 3:
        return LadderResult(False, None, None)

    def point(q):
        return None if q == NO_POINT else board.xy(int(q))

    if liberties == 2:
        result = read_ladder(ctx, p, True, budget)
        nodes = int(reading.counters[C_NODES])
        if outcome_of(result) != CAPTURED:
            return LadderResult(False, None, None, outcome_of(result) != UNSETTLED, nodes)
        atari = int(move_of(result))
        board.play(*board.xy(atari), 3 - board.get(x, y))
        answer = read_ladder(ctx, p, False, budget)
        board.take_back()
        return LadderResult(True, point(move_of(answer)), point(atari), True, nodes)
    result = read_ladder(ctx, p, False, budget)
    nodes = int(reading.counters[C_NODES])
    escape = int(move_of(result))
    if outcome_of(result) != CAPTURED:
        return LadderResult(False, point(escape), None, outcome_of(result) != UNSETTLED, nodes)
    atari = NO_POINT
    if board.play(*board.xy(escape), board.get(x, y)) >= 0:
        atari = int(move_of(read_ladder(ctx, p, True, budget)))
        board.take_back()
    return LadderResult(True, point(escape), point(atari), True, nodes)
