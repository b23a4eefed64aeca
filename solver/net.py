"""Nets (geta, lambda-2 reading): capture by a loose move that leaves no way out.

Are nets "the same detection" as ladders?  They are one order up: a net move is not an atari, but after it every answer of the block's
owner leaves a working ladder (:func:`solver.ladder.ladder_node`).  This
module reads the one-move net on a block with two liberties, attacker to
move:

* net moves: the empty points within distance two of the block that are not
  its liberties (those would be ataris, the ladder's business);
* the owner's answers: passing, every empty point within distance two of the
  block, and the liberties of every attacker block in that zone with at most
  two liberties (capturing or chasing the net stone and the walls).

Answers farther away are assumed not to help; that is the local view a net
has (a ladder breaker placed far away is the ladder reader's concern).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .jit import kernel
from .board import BLACK, EMPTY, WHITE, Board
from .ladder import (CAPTURED, ESCAPED, NO_POINT, UNSETTLED, ladder_node, move_of, outcome_of,
                     pack, play_on, undo_on)
from .reading import (C_BUDGET, C_NODES, R_BLOCK, R_CELLS, R_COUNTERS, R_HASH, R_LIBS, R_ROWS, R_SEEN,
                      R_STACK, R_STRIDE, flood, keep_block, next_seen_stamp, reading_for)

NET_BUDGET = 20000
# (dx, dy) of the points within Manhattan distance two, nearest first.
_ZONE = np.array([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1),
                  (2, 0), (-2, 0), (0, 2), (0, -2)], dtype=np.int64)


@kernel
def _zone(ctx, n, out):
    """Empty points within distance two of the block held in R_BLOCK[:n] into out; returns m."""
    cells = ctx[R_CELLS]
    stride = ctx[R_STRIDE]
    block = ctx[R_BLOCK]
    seen = ctx[R_SEEN]
    size = stride - 2
    stamp = next_seen_stamp(ctx)
    m = 0
    for i in range(n):
        s = block[i]
        x = s % stride
        y = s // stride
        for j in range(_ZONE.shape[0]):
            zx = x + _ZONE[j, 0]
            zy = y + _ZONE[j, 1]
            if zx < 1 or zx > size or zy < 1 or zy > size:
                continue
            z = zy * stride + zx
            if seen[z] != stamp and cells[z] == EMPTY:
                out[m] = z
                m += 1
            seen[z] = stamp
    return m


@kernel
def _add_weak_wall_liberties(ctx, n, out, m):
    """Append the liberties of the zone's attacker blocks with at most two liberties."""
    cells = ctx[R_CELLS]
    stride = ctx[R_STRIDE]
    block = ctx[R_BLOCK]
    seen = ctx[R_SEEN]
    stack = ctx[R_STACK]
    libs = ctx[R_LIBS]
    size = stride - 2
    attacker = 3 - cells[block[0]]
    walls = next_seen_stamp(ctx)
    for i in range(n):
        s = block[i]
        x = s % stride
        y = s // stride
        for j in range(_ZONE.shape[0]):
            zx = x + _ZONE[j, 0]
            zy = y + _ZONE[j, 1]
            if zx < 1 or zx > size or zy < 1 or zy > size:
                continue
            z = zy * stride + zx
            if cells[z] != attacker or seen[z] == walls:
                continue
            nz, kz = flood(ctx, z)
            for t in range(nz):
                seen[stack[t]] = walls
            if kz > 2:
                continue
            for t in range(kz):
                fresh = True
                for u in range(m):
                    if out[u] == libs[t]:
                        fresh = False
                if fresh:
                    out[m] = libs[t]
                    m += 1
    return m


@kernel
def _every_answer_fails(ctx, target, attack, depth):
    """After the net move: does the ladder work whatever the owner answers?"""
    cells = ctx[R_CELLS]
    hashv = ctx[R_HASH]
    n, _ = flood(ctx, target)
    keep_block(ctx, n)
    answers = ctx[R_ROWS][depth]
    m = _add_weak_wall_liberties(ctx, n, answers, _zone(ctx, n, answers))
    defender = np.int64(cells[target])
    for i in range(m):
        before = hashv[0]
        captured = play_on(ctx, answers[i], defender)
        if captured < 0:
            continue
        _, k = flood(ctx, target)
        outcome = ESCAPED
        if k < 3:
            ko = before if captured == 1 else np.uint64(0)
            outcome = outcome_of(ladder_node(ctx, target, attack, ko, depth + 1))
        undo_on(ctx)
        if outcome != CAPTURED:
            return outcome
    return CAPTURED


@kernel
def net_node(ctx, target, attack, depth):
    """pack(CAPTURED, net move) when a one-move net captures the block at ``target``.

    The block has two liberties and the attacker moves; ``attack`` is True
    (passed in so that numba compiles one version of the ladder reader).
    Otherwise pack(ESCAPED or UNSETTLED, NO_POINT).
    """
    cells = ctx[R_CELLS]
    libs = ctx[R_LIBS]
    n, k = flood(ctx, target)
    if k != 2:
        return pack(ESCAPED, NO_POINT)
    first, second = libs[0], libs[1]
    keep_block(ctx, n)
    moves = ctx[R_ROWS][depth]
    m = _zone(ctx, n, moves)
    attacker = 3 - cells[target]
    unsettled = False
    no_ko = np.uint64(0)
    for i in range(m):
        net = moves[i]
        if net == first or net == second or play_on(ctx, net, attacker) < 0:
            continue
        outcome = ESCAPED
        _, k = flood(ctx, target)
        if k == 2:
            # The owner passing must already lose the ladder; then every answer.
            outcome = outcome_of(ladder_node(ctx, target, attack, no_ko, depth + 1))
            if outcome == CAPTURED:
                outcome = _every_answer_fails(ctx, target, attack, depth + 1)
        undo_on(ctx)
        if outcome == CAPTURED:
            return pack(CAPTURED, net)
        if outcome == UNSETTLED:
            unsettled = True
    return pack(UNSETTLED if unsettled else ESCAPED, NO_POINT)


@kernel
def read_net(ctx, target, attack, budget):
    counters = ctx[R_COUNTERS]
    counters[C_NODES] = 0
    counters[C_BUDGET] = budget
    return net_node(ctx, target, attack, np.int64(0))


@dataclass(frozen=True)
class NetResult:
    """``captured`` when a net move exists (``net_move``); ``settled`` False when the budget ran out."""

    captured: bool
    net_move: tuple[int, int] | None
    settled: bool = True
    nodes: int = 0


def net_captures(board: Board, x: int, y: int, budget: int = NET_BUDGET) -> NetResult:
    """Can the attacker, moving first, capture the block at (x, y) with a one-move net?

    Only blocks with exactly two liberties are read (one liberty: it is a
    ladder question; three or more: not a one-move net).
    """
    if board.get(x, y) not in (BLACK, WHITE):
        raise ValueError(f"no stone at {(x, y)}")
    if board.liberties(x, y, cap=3) != 2:
        return NetResult(False, None)
    reading = reading_for(board)
    result = read_net(reading.context, board.point(x, y), True, budget)
    nodes = int(reading.counters[C_NODES])
    outcome = outcome_of(result)
    if outcome != CAPTURED:
        return NetResult(False, None, outcome != UNSETTLED, nodes)
    return NetResult(True, board.xy(int(move_of(result))), True, nodes)
