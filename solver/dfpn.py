"""Depth-first proof-number search (df-pn, Nagai's MID) over the same rules.

Negamax form: at every node ``phi`` is the proof number of "the side to move
wins" and ``delta`` its disproof number; phi(n) = min delta(child) and
delta(n) = sum phi(child).  The table holds (phi, delta, move) for every node
searched.  A solved node (phi or delta 0) whose result does not depend on the
path (see :mod:`solver.rules`) is stored under its key; one whose result does
is stored under its key mixed with a signature of the exact path that leads to
it (and of the solve), so it is reused only when the very same path comes back
— which df-pn's re-searches do all the time.  The working numbers of unsolved
nodes are kept under the path key as well: under these rules a position
reached by two paths may be two different nodes (a pass or ko cycle back to an
ancestor is one), and sharing their numbers lets proof numbers creep up by one
per visit around a cycle without ever settling.  Solved, path-independent
results are what transpositions share.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .board import EMPTY
from .movegen import (C_CELLS, C_COUNTERS, C_DEPTHS, C_HASH, C_HASHES, C_MOVES, C_PATH,
                      C_TAGS, C_TARGET, generate_moves, play_move, sort_moves, undo_move)
from .rules import INF_DEPTH, MAX_DEPTH, NO_MOVE, PASS, km_after_pass, pack
from .table import ABORT, ABORT_NODE_BUDGET, MAX_NODES, NODES, TAGS, node_key, table_claim, table_slot

INFINITE = np.int64(1) << 40
DETOUR = np.int64(16)
# scratch[depth, child, :] fields
S_PHI, S_DELTA, S_SOLVED, S_REPD, S_KM = 0, 1, 2, 3, 4
SCRATCH_FIELDS = 5
# table values
V_PHI, V_DELTA, V_MOVE, V_REPD = 0, 1, 2, 3
VALUE_FIELDS = 4
_PATH_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _child_signature(signature, position):
    """Signature of the path extended by ``position`` (order-sensitive)."""
    return (signature ^ position) * _PATH_MIX + np.uint64(1)  # wraps modulo 2**64


@njit(cache=True)
def _find_solved(keys, values, key, signature):
    """Slot of a stored solution for this node on this path, or -1."""
    for k in (key, key ^ signature):
        s = table_slot(keys, k)
        if s >= 0 and keys[s] == k and (values[s, V_PHI] == 0 or values[s, V_DELTA] == 0):
            return s
    return -1


@njit(cache=True, inline="always")
def _add(a, b):
    s = a + b
    return INFINITE if s > INFINITE else s


@njit(cache=True)
def _prepare_children(context, scratch, n, color, km, depth):
    """Mark terminal children (target captured, pass loops) and each child's km."""
    cells = context[C_CELLS]
    target = context[C_TARGET]
    moves = context[C_MOVES][depth]
    path = context[C_PATH]
    tags = context[C_TAGS]
    counters = context[C_COUNTERS]
    position = context[C_HASH][0]
    defender = cells[target]
    row = scratch[depth]
    for i in range(n):
        p = moves[i]
        row[i, S_SOLVED] = 0
        row[i, S_KM] = km
        if p == PASS:
            path[depth] = position
            next_km = km_after_pass(path, depth, position, color, km)
            row[i, S_KM] = next_km
            tag = node_key(position, 3 - color, next_km)
            for t in range(counters[TAGS]):
                if tags[t] == tag:
                    # the pass repeats a pass situation: the target lives
                    row[i, S_SOLVED] = 1
                    row[i, S_REPD] = depth - 1
                    mover_wins = defender == color
                    row[i, S_PHI] = INFINITE if mover_wins else 0
                    row[i, S_DELTA] = 0 if mover_wins else INFINITE
        else:
            play_move(context, p, color)
            if cells[target] == EMPTY:
                row[i, S_SOLVED] = 1
                row[i, S_REPD] = INF_DEPTH
                row[i, S_PHI] = INFINITE
                row[i, S_DELTA] = 0
            undo_move(context)


@njit(cache=True)
def _mid(context, keys, values, scratch, signature, color, km, depth, th_phi, th_delta):
    """Search until phi >= th_phi or delta >= th_delta; returns (phi, delta, repd, move)."""
    counters = context[C_COUNTERS]
    counters[NODES] += 1
    if counters[MAX_NODES] > 0 and counters[NODES] > counters[MAX_NODES]:
        counters[ABORT] = ABORT_NODE_BUDGET
    if counters[ABORT] != 0:
        return np.int64(1), np.int64(1), 0, NO_MOVE
    position = context[C_HASH][0]
    opp = 3 - color
    key = node_key(position, color, km)
    solved = _find_solved(keys, values, key, signature)
    if solved >= 0:
        return values[solved, V_PHI], values[solved, V_DELTA], values[solved, V_REPD], values[solved, V_MOVE]
    own_key = key ^ signature
    slot = table_slot(keys, own_key)
    hint = NO_MOVE
    if slot >= 0 and keys[slot] == own_key:
        hint = values[slot, V_MOVE]
    if depth > MAX_DEPTH:
        return INFINITE, np.int64(0), 0, NO_MOVE

    n, earliest = generate_moves(context, color, km, depth, hint)
    sort_moves(context, depth, n)
    _prepare_children(context, scratch, n, color, km, depth)
    moves = context[C_MOVES][depth]
    depths = context[C_DEPTHS][depth]
    hashes = context[C_HASHES][depth]
    path = context[C_PATH]
    tags = context[C_TAGS]
    row = scratch[depth]
    child_signature = _child_signature(signature, position)

    phi = INFINITE
    delta = np.int64(0)
    best = -1
    while True:
        phi = INFINITE
        delta = np.int64(0)
        best = -1
        best_phi = INFINITE
        second = INFINITE
        for i in range(n):
            if row[i, S_SOLVED] == 0:
                child_key = node_key(hashes[i], opp, row[i, S_KM])
                c_phi = np.int64(1)
                # Proving through a ko recapture or a pass is rarely the way:
                # such children start with a higher cost, so they come last.
                c_delta = np.int64(1) if depths[i] > depth and moves[i] != PASS else DETOUR
                s = _find_solved(keys, values, child_key, child_signature)
                if s >= 0:
                    row[i, S_SOLVED] = 1
                    row[i, S_REPD] = values[s, V_REPD]
                else:
                    s = table_slot(keys, child_key ^ child_signature)
                if s >= 0 and keys[s] != 0:
                    c_phi = values[s, V_PHI]
                    c_delta = values[s, V_DELTA]
                row[i, S_PHI] = c_phi
                row[i, S_DELTA] = c_delta
            c_phi = row[i, S_PHI]
            c_delta = row[i, S_DELTA]
            delta = _add(delta, c_phi)
            if c_delta < phi:
                second = phi
                phi = c_delta
                best = i
                best_phi = c_phi
            elif c_delta < second:
                second = c_delta
        if phi == 0 or delta == 0 or phi >= th_phi or delta >= th_delta:
            break
        child_th_phi = th_delta - delta + best_phi
        if child_th_phi > INFINITE:
            child_th_phi = INFINITE
        child_th_delta = min(th_phi, second + 1)
        p = moves[best]
        path[depth] = position
        if p == PASS:
            tags[counters[TAGS]] = node_key(position, opp, row[best, S_KM])
            counters[TAGS] += 1
            r_phi, r_delta, r_repd, _ = _mid(context, keys, values, scratch, child_signature, opp,
                                             row[best, S_KM], depth + 1, child_th_phi, child_th_delta)
            counters[TAGS] -= 1
        else:
            play_move(context, p, color)
            r_phi, r_delta, r_repd, _ = _mid(context, keys, values, scratch, child_signature, opp, km,
                                             depth + 1, child_th_phi, child_th_delta)
            undo_move(context)
        if counters[ABORT] != 0:
            return np.int64(1), np.int64(1), 0, NO_MOVE
        row[best, S_PHI] = r_phi
        row[best, S_DELTA] = r_delta
        if r_phi == 0 or r_delta == 0:
            row[best, S_SOLVED] = 1
            row[best, S_REPD] = r_repd

    repd = INF_DEPTH
    move = NO_MOVE
    if phi == 0:
        for i in range(n):
            if row[i, S_DELTA] == 0:
                d = depths[i]
                repd = row[i, S_REPD] if (d > depth and moves[i] != PASS) else d
                move = moves[i]
                break
    elif delta == 0:
        repd = earliest
        for i in range(n):
            if moves[i] != PASS:
                d = depths[i]
                repd = min(repd, row[i, S_REPD] if d > depth else d)
    else:
        move = moves[best] if best >= 0 else NO_MOVE

    solved = phi == 0 or delta == 0
    path_dependent = solved and repd <= depth + 1
    slot = table_claim(keys, counters, key if solved and not path_dependent else own_key)
    if slot >= 0:
        values[slot, V_PHI] = phi
        values[slot, V_DELTA] = delta
        values[slot, V_MOVE] = move
        values[slot, V_REPD] = repd if path_dependent else INF_DEPTH
    return phi, delta, repd, move


@njit(cache=True)
def solve(context, keys, values, scratch, salt, color, km, depth):
    """Prove or disprove that ``color`` wins; the result packed as in DFS.

    ``salt`` differs between solves, so that path-dependent results of one
    solve (whose root may differ) are never read by another.
    """
    phi, delta, repd, move = _mid(context, keys, values, scratch, salt, color, km, depth,
                                  INFINITE - 1, INFINITE - 1)
    winner = color if phi == 0 else 3 - color
    return pack(winner, repd, move if phi == 0 else NO_MOVE)
