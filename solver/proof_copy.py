"""df-pn's proof handed to DFS: the exact results on it copied into DFS's table.

The main line (:mod:`solver.principal_variation`) is read by DFS solves on DFS's table.
Where df-pn settled a position that DFS cannot settle in the time it has (the time search
of ``solve --seconds``, ``solve --algo dfpn``), the line's first solve would be the
whole problem again, and the answer would come without its line.  df-pn's table holds
the proof: from the position, every exact entry under a plain key (a result that holds
on every path) is copied, following the winner's move at a win and every reply at a
loss, so that DFS reads the proof df-pn found instead of searching for its own.

An exact entry means the same in both tables (the side to move wins or loses whatever
the path), and the keys are the same function of position, mover and ko master, so a
copied entry is as exact as DFS's own (tests/test_proof_copy.py checks the copies against
DFS's results).  The walk does not go through passes (df-pn keys a node reached by a pass
apart, DFS not always), stops at a node DFS already holds as exact, and keeps each
entry's size class, which the line reads to choose the loser's most stubborn reply.
"""
from __future__ import annotations

import numpy as np

from .board import EMPTY
from .dfpn_layout import V_DELTA, V_MOVE, V_PHI, V_REPD
from .dfs import exact_entry, is_exact
from .jit import kernel
from .movegen import C_AREA, C_CELLS, C_COUNTERS, C_HASH, C_TARGET, C_ZONE_FULL, play_move, undo_move
from .rules import INF_DEPTH, MAX_DEPTH, NO_MOVE
from .table import TABLE_CAPPED, TABLE_COUNT, node_key, table_claim, table_slot
from .zones import store_zone


@kernel
def _copy_from(context, from_keys, from_values, from_work, keys, values, work, color, km, depth):
    """Copy the exact df-pn entry of the node at ``depth`` (``color`` to move) and those below
    it on the proof into DFS's table; returns how many were copied."""
    counters = context[C_COUNTERS]
    cells = context[C_CELLS]
    target = context[C_TARGET]
    key = node_key(context[C_HASH][0], color, km)
    source = table_slot(from_keys, key)
    if source < 0 or from_keys[source] != key or from_values[source, V_REPD] != INF_DEPTH:
        return 0   # not in df-pn's table, or only for one path
    won = from_values[source, V_PHI] == 0
    if not won and from_values[source, V_DELTA] != 0:
        return 0   # working numbers: not proved
    slot = table_slot(keys, key)
    if slot >= 0 and keys[slot] == key and is_exact(values[slot, 0]):
        return 0   # DFS knows it (or the walk has been here)
    nodes = np.int64(1) << (np.int64(from_work[source]) - 1) if from_work[source] > 0 else np.int64(0)
    slot = table_claim(keys, values, work, counters, key, nodes)
    if slot < 0:
        return 0
    move = from_values[source, V_MOVE] if won else NO_MOVE
    values[slot, 0] = exact_entry(color if won else 3 - color, move)
    if values.shape[1] > 1:   # DFS keeps zones (solver.zones): this one is unknown, the universe
        store_zone(context, values, slot, context[C_ZONE_FULL])
    copied = np.int64(1)
    if depth + 1 >= MAX_DEPTH:
        return copied
    if won:
        if move >= 0 and play_move(context, move, color) >= 0:
            if cells[target] != EMPTY:
                copied += _copy_from(context, from_keys, from_values, from_work, keys, values, work,
                                     3 - color, km, depth + 1)
            undo_move(context)
        return copied
    area = context[C_AREA]
    for i in range(area.size):
        p = area[i]
        if cells[p] != EMPTY or play_move(context, p, color) < 0:
            continue
        if cells[target] != EMPTY:
            copied += _copy_from(context, from_keys, from_values, from_work, keys, values, work,
                                 3 - color, km, depth + 1)
        undo_move(context)
    return copied


def copy_proof(solver, color: int, km: int) -> int:
    """Copy df-pn's exact results on the proof from ``solver``'s current position (``color``
    to move, ko master ``km``) into its DFS table; returns the entries copied (0 where
    df-pn has not settled the position).  DFS's table first grows to take every entry df-pn
    holds (within its bound), so that no copy stops half way for room."""
    source, table = solver.tables["dfpn"], solver.tables["dfs"]
    if not source.count:
        return 0
    while not table.capped and 4 * (table.count + source.count) > 3 * table.keys.size:
        table.grow()
    counters = solver.counters
    counters[:] = 0
    counters[TABLE_COUNT] = table.count
    counters[TABLE_CAPPED] = table.capped
    copied = _copy_from(solver.context, source.keys, source.values, source.work, table.keys, table.values,
                        table.work, np.int64(color), np.int64(km), np.int64(len(solver.history)))
    table.count = int(counters[TABLE_COUNT])
    counters[:] = 0
    return int(copied)
