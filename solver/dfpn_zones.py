"""Relevance zones in df-pn (``Solver(relevance_zones=True)`` and its options, ``algo="dfpn"``).

The rules are DFS's (:mod:`solver.zones`); df-pn applies them when a node is solved
exactly, from its children's zones kept beside their exact table entries (the words
after :data:`solver.dfpn_layout.VALUE_FIELDS`; all bits set where none is known: a
race claim, an entry evicted, which read back as the universe U):

- a win: the winning child's zone, then the OR rule for its move (:func:`zones.or_zone`);
- a loss: every child's zone in turn (:func:`zones.child_zone_done`), the null move that
  pruned siblings first, then :func:`zones.and_zone`, which covers the moves the
  generator dropped (by the null move or as self-atari; df-pn keeps no exact losses
  apart from its children, so no table lookup);
- a leaf: static life's kept blocks and regions, a capture's target point;
- a node Kawano's simulation proves: the same rules over the entries its replay met.

Pruning (``zone_pruning``): once a child is proved lost for the mover, on every path,
outside its own zone and capturing nothing in it (a null move), each open sibling outside
that zone that captures nothing in it is marked lost as well, unsearched: its child agrees
with the null move's on that zone.  Its proof number 0 leaves the node's disproof number.

The zone table (``zone_table``): a node met for the first time that repeats the contents
of a stored zone is solved at once; its classes are apart from DFS's (df-pn keys a node
reached by a pass apart).  All of it changes effort, never a verdict
(tests/test_dfpn_zones.py: node counts unchanged with zones alone, verdicts with
pruning and the table, and the checker of positions changed outside a proved zone).
"""
from __future__ import annotations

import numpy as np

from .board import EMPTY
from .dfpn_layout import (INFINITE, S_CYCLE, S_DELTA, S_KM, S_PHI, S_PRUNED, S_REPD, S_SOLVED, V_DELTA, V_PHI,
                          VALUE_FIELDS)
from .jit import kernel
from .movegen import (C_CELLS, C_COUNTERS, C_DEPTHS, C_HASH, C_HASHES, C_MOVES, C_TAGS, C_TARGET,
                      C_ZONE_FULL, C_ZONE_TABLE_COUNTS, C_ZONE_WORK, C_ZONES, play_move, undo_move)
from .rules import INF_DEPTH, NO_MOVE, PASS, pack
from .table import TAGS, node_key, node_key_after, table_slot
from .zone_table import ZT_PRUNED, zone_class, zone_table_lookup, zone_table_store
from .zones import (and_zone, captures_in, child_zone_done, node_zone_start, or_zone, pass_alive_zone,
                    zone_add, zone_clear, zone_copy, zone_fill, zone_has, zone_is_full)

# df-pn's zone-table classes, apart from DFS's (zone_table.zone_class is below 32)
_DFPN_CLASSES = 32


@kernel
def dfpn_zone_class(color, km, after_pass):
    return zone_class(color, km, after_pass) + _DFPN_CLASSES


@kernel
def keep_zone(values, slot, z):
    """The zone ``z`` into the entry at ``slot`` (-1: none)."""
    if slot >= 0:
        for w in range(z.size):
            values[slot, VALUE_FIELDS + w] = np.int64(z[w])


@kernel
def no_zone(values, slot):
    """An entry stored without a zone: all bits set, read back as U."""
    if slot >= 0:
        for w in range(VALUE_FIELDS, values.shape[1]):
            values[slot, w] = -1


@kernel
def _entry_zone(context, keys, values, key, mover_wins, z):
    """The zone kept with the entry under ``key`` into ``z``, if it is solved as
    ``mover_wins`` says; whether it is."""
    s = table_slot(keys, key)
    if s < 0 or keys[s] != key or values[s, V_PHI if mover_wins else V_DELTA] != 0:
        return False
    full = context[C_ZONE_FULL]
    for w in range(z.size):
        z[w] = np.uint64(values[s, VALUE_FIELDS + w]) & full[w]
    return True


@kernel
def stored_zone(context, keys, values, key, mover_wins, z):
    """The zone of the entry under ``key`` into ``z``, if it is solved as ``mover_wins`` says
    (the result the caller's proof used; a path result may differ from an exact entry
    stored since); U where there is none."""
    if not _entry_zone(context, keys, values, key, mover_wins, z):
        zone_fill(context, z)


@kernel
def leaf_life_zone(context, values, slot, depth):
    """Static life's zone (:func:`zones.pass_alive_zone`) for the node at ``depth``, kept at
    ``slot``."""
    z = context[C_ZONES][depth]
    pass_alive_zone(context, z)
    keep_zone(values, slot, z)


@kernel
def capture_zone(context, values, slot, depth, move, color):
    """The zone of a node won by capturing the target with ``move`` (not yet played)."""
    z = context[C_ZONES][depth]
    zone_clear(z)
    play_move(context, move, color)
    zone_add(context, z, context[C_TARGET])
    or_zone(context, z, move, color, False)
    undo_move(context)
    keep_zone(values, slot, z)


@kernel
def simulated_win_zone(context, keys, values, slot, depth, move, color, km):
    """The zone of a node Kawano's simulation proved won by ``move`` (not yet played), kept at
    ``slot``: its child's by the OR rule; the child is a capture (the target's point), an
    exact entry (its kept zone) or static life (its kept blocks and regions)."""
    child = context[C_ZONES][depth + 1]
    play_move(context, move, color)
    target = context[C_TARGET]
    captured = context[C_CELLS][target] == EMPTY
    if not captured and not _entry_zone(context, keys, values,
                                        node_key_after(context[C_HASH][0], 3 - color, km, False), False, child):
        pass_alive_zone(context, child)   # static life: U unless Benson keeps the target
    child_zone_done(context, depth, move, color, km, pack(color, INF_DEPTH, NO_MOVE), captured, False)
    undo_move(context)
    keep_zone(values, slot, context[C_ZONES][depth])


@kernel
def simulated_loss_zone(context, keys, values, slot, depth, n, color, km):
    """The zone of a node Kawano's simulation proved lost for ``color`` (each of its ``n``
    moves answered, each child an exact entry), kept at ``slot``: the AND rule over the
    children's kept zones (:func:`zones.and_zone`), as :func:`solved_zone` does."""
    node_zone_start(context, depth)
    moves = context[C_MOVES][depth]
    child = context[C_ZONES][depth + 1]
    opp = 3 - color
    response = pack(opp, INF_DEPTH, NO_MOVE)
    for i in range(n):
        p = moves[i]
        if p == PASS:
            stored_zone(context, keys, values, node_key_after(context[C_HASH][0], opp, km, True), True, child)
            child_zone_done(context, depth, p, color, km, response, False, False)
        else:
            play_move(context, p, color)
            stored_zone(context, keys, values, node_key_after(context[C_HASH][0], opp, km, False), True, child)
            child_zone_done(context, depth, p, color, km, response, False, False)
            undo_move(context)
    and_zone(context, keys, values, depth, color, km, n, False)
    keep_zone(values, slot, context[C_ZONES][depth])


@kernel
def _looped(context, km_i, opp):
    """Whether the pass child ``i`` repeats a pass situation (solver.dfpn._prepare_children)."""
    tag = node_key(context[C_HASH][0], opp, km_i)
    tags = context[C_TAGS]
    for t in range(context[C_COUNTERS][TAGS]):
        if tags[t] == tag:
            return True
    return False


@kernel
def _child_done(context, keys, values, row, i, color, km, depth, won):
    """Child ``i``'s zone (from its entry) folded into the node's working zones."""
    p = context[C_MOVES][depth][i]
    opp = 3 - color
    child = context[C_ZONES][depth + 1]
    km_i = row[i, S_KM]
    response = pack(color if won else opp, row[i, S_REPD], NO_MOVE)
    if p == PASS:
        looped = _looped(context, km_i, opp)
        if not looped:
            stored_zone(context, keys, values, node_key_after(context[C_HASH][0], opp, km_i, True), not won, child)
        child_zone_done(context, depth, p, color, km, response, False, looped)
        return
    stored_zone(context, keys, values, node_key_after(context[C_HASHES][depth][i], opp, km_i, False), not won,
                child)
    play_move(context, p, color)
    captured = context[C_CELLS][context[C_TARGET]] == EMPTY
    child_zone_done(context, depth, p, color, km, response, captured, False)
    undo_move(context)


@kernel
def solved_zone(context, keys, values, row, n, color, km, depth, won, slot):
    """The zone of the node at ``depth``, solved exactly (``won``: by the first child proved
    lost for the opponent), kept at ``slot``."""
    z = context[C_ZONES][depth]
    target = context[C_TARGET]
    if context[C_CELLS][target] == EMPTY:
        zone_clear(z)
        zone_add(context, z, target)
    elif won:
        zone_fill(context, z)
        for i in range(n):
            if row[i, S_DELTA] == 0:
                _child_done(context, keys, values, row, i, color, km, depth, True)
                break
    else:
        node_zone_start(context, depth)
        pruned = False
        for i in range(n):
            if row[i, S_PRUNED] == 2:
                _child_done(context, keys, values, row, i, color, km, depth, False)
        for i in range(n):
            if row[i, S_PRUNED] == 0:
                _child_done(context, keys, values, row, i, color, km, depth, False)
            pruned = pruned or row[i, S_PRUNED] == 1
        and_zone(context, keys, values, depth, color, km, n, False)
        if pruned and not _pruned_covered(context, row, n, color, depth):
            zone_fill(context, z)
    keep_zone(values, slot, z)


@kernel
def _pruned_covered(context, row, n, color, depth):
    """Whether every pruned child lies outside the null move the lost node's zone rests on
    (its entry may have been replaced since the pruning) and captures nothing in it."""
    null = context[C_ZONE_WORK][depth][1]
    moves = context[C_MOVES][depth]
    for i in range(n):
        if row[i, S_PRUNED] == 1 and not _outside(context, null, moves[i], color):
            return False
    return True


@kernel
def _outside(context, z, p, color):
    """Whether the board move ``p`` lies outside ``z`` and, played, captures nothing in it nor
    the target."""
    if zone_has(context, z, p):
        return False
    if play_move(context, p, color) < 0:
        return False
    ok = not captures_in(context, z) and context[C_CELLS][context[C_TARGET]] != EMPTY
    undo_move(context)
    return ok


@kernel
def prune_by_null(context, keys, values, row, n, color, km, depth, only):
    """Mark lost, unsearched, the open children outside a null move's zone (see the module's
    docstring); the null move is a child proved lost on every path that is outside its own
    zone and captures nothing in it, or the defender's pass where it is not ko master: child
    ``only`` (just proved), or the first such of all (``only`` -1, a node's first look at
    its row).  Once a visit has pruned, its row has nothing more to prune.  Returns how many
    it marked."""
    moves = context[C_MOVES][depth]
    hashes = context[C_HASHES][depth]
    null = context[C_ZONE_WORK][depth][1]
    opp = 3 - color
    for i in range(n):
        if row[i, S_PRUNED] == 2:
            return 0
    defender = context[C_CELLS][context[C_TARGET]]
    # the defender's pass is a null move where it is not ko master (zones.child_zone_done)
    pass_null = color == defender and km * (1 if defender == 1 else -1) <= 0
    found = -1
    for i in range(max(only, 0), only + 1 if only >= 0 else n):
        passed = moves[i] == PASS
        if ((pass_null or not passed) and row[i, S_SOLVED] == 1 and row[i, S_PHI] == 0
                and row[i, S_REPD] > depth + 1):
            stored_zone(context, keys, values, node_key_after(hashes[i], opp, row[i, S_KM], passed), True, null)
            if not zone_is_full(context, null) and (passed or _outside(context, null, moves[i], color)):
                found = i
                row[i, S_PRUNED] = 2
                break
    if found < 0:
        return 0
    depths = context[C_DEPTHS][depth]
    marked = 0
    for j in range(n):
        p = moves[j]
        if (row[j, S_SOLVED] == 0 and p != PASS and depths[j] == INF_DEPTH and row[j, S_CYCLE] == INF_DEPTH
                and _outside(context, null, p, color)):
            row[j, S_PHI] = 0
            row[j, S_DELTA] = INFINITE
            row[j, S_REPD] = INF_DEPTH
            row[j, S_SOLVED] = 1
            row[j, S_PRUNED] = 1
            marked += 1
    context[C_ZONE_TABLE_COUNTS][ZT_PRUNED] += marked
    return marked


@kernel
def table_hit(context, depth, color, km, after_pass):
    """The zone table's value (winner | (move + 2) << 8) for the node at ``depth``, its zone
    copied to the depth's; -1 if none."""
    return zone_table_lookup(context, context[C_ZONES][depth], dfpn_zone_class(color, km, after_pass))


@kernel
def table_keep(context, depth, color, km, after_pass, winner, move):
    zone_table_store(context, context[C_ZONES][depth], dfpn_zone_class(color, km, after_pass), winner, move)
