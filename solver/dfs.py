"""Depth-first search with a transposition table: the reference algorithm.

Each node asks "can ``color`` (to move) win?", where the attacker wins by
capturing the target block and the defender by keeping it.  The rules for
repetitions, passes and ko masters are in :mod:`solver.rules`; results that do
not depend on the path are stored in the table as exact, the others as hints
for move ordering.

What a result relies on (its ``repd``, :mod:`solver.rules`): a win, on what its
winning child relies on; a loss, on the least of all its children's.  A
child's is what its subtree relied on, the path position it repeats, or the
earlier pass a pass loop repeats (:func:`solver.rules.pass_loop_depth`),
passes included.  Counting a pass child's reliance as nothing, or a pass loop
as relying on its parent only, would store as exact a result that holds on
one path only, and the verdict would then depend on the order the moves are
tried in (tests/test_guided_solver.py, the ko order).
"""
from __future__ import annotations

import numpy as np

from .jit import inline_kernel, kernel
from .board import EMPTY
from .eye_room import static_capture
from .movegen import (C_CELLS, C_COUNTERS, C_CUTOFFS, C_DEPTHS, C_HASH, C_HASHES, C_MOVES, C_PATH,
                      C_SCORES, C_SIBLING, C_SEARCH_OPTIONS, C_TAGS, C_TARGET, KNOWN_WIN,
                      generate_moves, play_move, record_cut, remove_move, sort_moves, target_lives, undo_move)
from .race import NO_CLAIM
from .rules import (INF_DEPTH, MAX_DEPTH, NO_MOVE, PASS, km_after_pass, move_of, pack,
                    pass_loop_depth, repd_of, sign, winner_of)
from .table import (ABORT, NODES, TAGS, count_node, node_key, node_key_after, table_claim,
                    table_slot)
from .zones import (and_zone, child_zone_done, leaf_zone, load_zone, node_zone_start, store_zone, zone_fill,
                    zone_prunes)
from .movegen import C_LIFE_RULED_OUT, C_ZONE_STATE, C_ZONES
from .zone_table import zone_class, zone_table_lookup, zone_table_store

# table value (one field): bit 0 exact, bits 1-2 winner, bits 8.. move + 2
_EXACT = 1


@inline_kernel
def _entry(exact, winner, move):
    return exact | (winner << 1) | ((move + 2) << 8)


@inline_kernel
def exact_entry(winner, move):
    """A table value for a result that holds on every path (:mod:`solver.proof_copy` writes them)."""
    return _entry(_EXACT, winner, move)


@inline_kernel
def is_exact(entry):
    return entry & _EXACT != 0


@kernel
def _lookup(keys, values, key):
    i = table_slot(keys, key)
    if i < 0 or keys[i] == 0:
        return 0
    return values[i, 0]


@kernel
def _known(context, keys, values, work, key, entry, reuse, depth, color, km, after_pass):
    """A result the tables give at once: an exact entry, or (the zone table on) a stored
    zone's contents repeated, then kept as an exact entry; -1 if none."""
    zoned = context[C_SEARCH_OPTIONS][3]
    zone = context[C_ZONES][depth]
    if entry & _EXACT and reuse:
        if zoned:
            load_zone(context, values, table_slot(keys, key), zone)
        return pack((entry >> 1) & 3, INF_DEPTH, (entry >> 8) - 2)
    if zoned != 2 or not reuse:
        return -1
    found = zone_table_lookup(context, zone, zone_class(color, km, after_pass))
    if found < 0:
        return -1
    winner = found & 3
    move = (found >> 8) - 2
    slot = table_claim(keys, values, work, context[C_COUNTERS], key, 1)
    if slot >= 0:
        values[slot, 0] = _entry(_EXACT, winner, move)
        store_zone(context, values, slot, zone)
    return pack(winner, INF_DEPTH, move)


@kernel
def _twin_hint(keys, values, twin_key, color):
    """The move that won the twin position for ``color``, if the table holds one."""
    twin = _lookup(keys, values, twin_key)
    if twin != 0 and (twin >> 1) & 3 == color:
        return (twin >> 8) - 2
    return NO_MOVE


@kernel
def _drop_known_losses(context, keys, values, depth, n, color, km, reuse):
    """Drop the moves whose child the table holds as an exact loss for ``color``; score the
    others the table knows (a known win first, a hint's loss last).  Returns the count."""
    moves = context[C_MOVES][depth]
    scores = context[C_SCORES][depth]
    hashes = context[C_HASHES][depth]
    opp = 3 - color
    i = 0
    while i < n:
        if moves[i] != PASS:
            child = _lookup(keys, values, node_key(hashes[i], opp, km))
            if child != 0:
                child_winner = (child >> 1) & 3
                if child & _EXACT and child_winner == opp and reuse:
                    n = remove_move(context, depth, n, i)
                    continue
                scores[i] += KNOWN_WIN if child_winner == color else -1.0
        i += 1
    return n


@kernel
def search(context, keys, values, work, color, km, depth):
    """The result (see :func:`solver.rules.pack`) of the node at ``depth``."""
    # one type signature for the recursive _search (numba's cache mishandles several)
    return _search(context, keys, values, work, color, km, depth, np.int64(0))


@kernel
def _search(context, keys, values, work, color, km, depth, life_ruled_out):
    """:func:`search`; ``life_ruled_out``: the parent's generation found the target not pass-alive here."""
    counters = context[C_COUNTERS]
    stop = count_node(counters)
    first_node = counters[NODES]
    if stop:
        return pack(0, 0, NO_MOVE)
    cells = context[C_CELLS]
    target = context[C_TARGET]
    position = context[C_HASH][0]
    path = context[C_PATH]
    opp = 3 - color
    # A node reached by a pass is another node only when its mover's pass would end
    # the ko master's threats; otherwise it plays as the same position reached by a
    # move.  Sharing those entries saves DFS 7% of its nodes on the reference problems
    # (make check-dfpn); df-pn took 54% more nodes with it, and keeps them all apart.
    after_pass = km_after_pass(path, depth, position, color, km) != km
    key = node_key_after(position, color, km, after_pass)
    entry = _lookup(keys, values, key)
    # the judge of graph-history interaction reuses no result (Solver(reuse_exact=False))
    reuse = context[C_SEARCH_OPTIONS][2] != 0
    zoned = context[C_SEARCH_OPTIONS][3] != 0     # relevance zones (solver.zones)
    zone = context[C_ZONES][depth]
    known = _known(context, keys, values, work, key, entry, reuse, depth, color, km, after_pass)
    if known >= 0:
        return known
    defender = cells[target]
    attacker = 3 - defender
    if color == attacker and life_ruled_out == 0 and target_lives(context):
        # static life: the defender wins whatever the path (solver.life)
        slot = table_claim(keys, values, work, counters, key, 1)
        if slot >= 0:
            values[slot, 0] = _entry(_EXACT, defender, NO_MOVE)
        if zoned:
            leaf_zone(context, values, slot, zone, True)
        return pack(defender, INF_DEPTH, NO_MOVE)
    if depth > MAX_DEPTH:
        if zoned:
            zone_fill(context, zone)
        return pack(opp, 0, NO_MOVE)
    claim = static_capture(context, color, km, depth)
    if claim != NO_CLAIM:
        # the race count or no room for two eyes: the attacker captures the target whatever the path
        slot = table_claim(keys, values, work, counters, key, 1)
        if slot >= 0:
            values[slot, 0] = _entry(_EXACT, attacker, claim)
        if zoned:
            leaf_zone(context, values, slot, zone, False)   # no zone argument for the count yet
        return pack(attacker, INF_DEPTH, claim)
    hint = (entry >> 8) - 2 if entry != 0 else NO_MOVE
    # Kawano's simulation, as a hint: the move that won the position this one answers to in the subtree of a
    # sibling already refuted (its moves played after the sibling's move); a refutation often holds move for move
    sibling = context[C_SIBLING]
    delta = sibling[depth]
    if hint == NO_MOVE and delta != 0:
        hint = _twin_hint(keys, values, node_key_after(position ^ delta, color, km, after_pass), color)

    n, earliest = generate_moves(context, color, km, depth, hint)
    life_ruled_out_below = np.int64(context[C_LIFE_RULED_OUT][depth])   # for the board moves' children
    n = _drop_known_losses(context, keys, values, depth, n, color, km, reuse)
    sort_moves(context, depth, n)
    moves = context[C_MOVES][depth]
    depths = context[C_DEPTHS][depth]
    hashes = context[C_HASHES][depth]
    if zoned:
        node_zone_start(context, depth)

    tags = context[C_TAGS]
    mindepth = earliest
    result = -1
    hinting = context[C_SEARCH_OPTIONS][0] != 0
    refuted = False
    refuted_hash = position
    for i in range(n):
        p = moves[i]
        d = depths[i]
        if context[C_SEARCH_OPTIONS][4] != 0 and d == INF_DEPTH and zone_prunes(context, depth, p, color):
            continue
        path[depth] = position
        child_hash = position if p == PASS else hashes[i]
        if hinting:
            # the first refuted child is the one its siblings answer to; before it, the
            # children answer to what this node answers to
            sibling[depth + 1] = child_hash ^ refuted_hash if refuted else delta
        if p == PASS:
            if color == attacker and km * sign(attacker) > 0 and mindepth > depth + 1:
                # The pass comes last: every board move has lost, relying on nothing of the
                # path, so no earlier pass situation met again was used, and the pass loses
                # too (solver.movegen, the attacker's pass); the loss is exact without it.
                if zoned:
                    context[C_ZONE_STATE][depth][1] = 1   # no zone argument for the skip yet
                break
            next_km = km_after_pass(path, depth, position, color, km)
            tag = node_key(position, opp, next_km)
            looped = False
            for t in range(counters[TAGS]):
                if tags[t] == tag:
                    looped = True
            if looped:
                # Both sides pass again in the same situation: the target lives,
                # which relies on the earlier pass.
                response = pack(defender, pass_loop_depth(path, depth, position), NO_MOVE)
            else:
                tags[counters[TAGS]] = tag
                counters[TAGS] += 1
                response = _search(context, keys, values, work, opp, next_km, depth + 1, np.int64(0))
                counters[TAGS] -= 1
            if zoned and counters[ABORT] == 0:
                child_zone_done(context, depth, p, color, km, response, False, looped)
        else:
            play_move(context, p, color)
            captured_target = cells[target] == EMPTY
            if captured_target:
                response = pack(attacker, INF_DEPTH, NO_MOVE)
            else:
                response = _search(context, keys, values, work, opp, km, depth + 1, life_ruled_out_below)
            if zoned and counters[ABORT] == 0:
                child_zone_done(context, depth, p, color, km, response, captured_target, False)
            undo_move(context)
        if counters[ABORT] != 0:
            return pack(0, 0, NO_MOVE)
        # A child relies on what its subtree relied on and, if it repeats a
        # position of the path, on that position; a pass child too (its loops
        # and ko threats are the path's).
        if winner_of(response) == color:
            if p != PASS:
                context[C_CUTOFFS][color, p] += 1.0
                record_cut(context, depth, n, i, color, km)
            result = pack(color, min(d, repd_of(response)), p)
            break
        mindepth = min(mindepth, d, repd_of(response))
        if not refuted:
            refuted = True
            refuted_hash = child_hash
    if result < 0:
        result = pack(opp, mindepth, NO_MOVE)
        if zoned:
            and_zone(context, keys, values, depth, color, km, n, True)

    exact = 1 if repd_of(result) > depth + 1 else 0
    slot = table_claim(keys, values, work, counters, key, counters[NODES] - first_node + 1)
    if slot >= 0:
        values[slot, 0] = _entry(exact, winner_of(result), move_of(result))
        if zoned:
            store_zone(context, values, slot, zone)
    if exact and context[C_SEARCH_OPTIONS][3] == 2:
        zone_table_store(context, zone, zone_class(color, km, after_pass), winner_of(result), move_of(result))
    return result
