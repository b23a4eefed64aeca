"""The zone table (RZS's RZT): a proved zone's contents prove any position that repeats them.

Each exact result whose zone is smaller than the universe is kept with its zone's
contents (which points of the zone hold which colour), its class (side to move, ko
master, pass state: what a zone's claim is relative to) and its winner and move.  A node
the transposition table does not know tries the ``SCAN_LIMIT`` zones of its class used
last: the position's stones masked by a zone, hashed with the zone's number, found among
the entries, prove the node at once, with that zone.  Agreeing on a zone is transitive,
so a position that agrees with a stored one on its zone has the stored winner, and the
stored move (inside the zone) wins it; like the transposition table's exact entries,
that holds whatever the path, but for the repetitions a new path may add (graph-history
interaction, judged for the table in RESULTS.md §147).  RZS indexes the entries with a
radix tree; here the distinct zones are a list (at most ``MAX_ZONES``; a search that
makes more stores no new ones) with an index by hash and a scan order (a zone stored or
found moves to its front), and the entries a hash table whose full probe run loses its
last entry to a new one.

Slots (``solver.movegen``): ``zone_table`` (the distinct zones, uint64 [zones, words]),
``zone_table_class``, ``zone_table_index``, ``zone_table_order`` and ``zone_table_place``
(each zone's class, the index, the scan order and each zone's place in it),
``zone_table_keys``/``zone_table_values`` (the entries), ``zone_table_counts``
(ZT_ZONES, ZT_HITS, ZT_STORES, ZT_PRUNED) and ``zone_bits`` (the position's black and
white stones over the universe, scratch).
"""
from __future__ import annotations

import numpy as np

from .board import BLACK, WHITE
from .jit import kernel
from .movegen import (C_CELLS, C_ZONE_CELL, C_ZONE_BITS, C_ZONE_TABLE, C_ZONE_TABLE_CLASS, C_ZONE_TABLE_INDEX,
                      C_ZONE_TABLE_ORDER, C_ZONE_TABLE_PLACE,
                      C_ZONE_TABLE_COUNTS, C_ZONE_TABLE_KEYS, C_ZONE_TABLE_VALUES, C_ZONE_FULL)

MAX_ZONES = 1024
ENTRIES_LOG2 = 18
# the zones a lookup tries, those of its class used last (a hit or a store moves a zone to
# the front): trying every zone cost more than the nodes it saved
SCAN_LIMIT = 16
PROBES = 8
# ZT_PRUNED: the loser's moves a null move's zone pruned (solver.zones.zone_prunes), kept
# here with the table's counts (zone_table_counts exists whenever zones are on)
ZT_ZONES, ZT_HITS, ZT_STORES, ZT_PRUNED = 0, 1, 2, 3
COUNTS_SIZE = 4

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@kernel
def _mix(x):
    x ^= x >> np.uint64(30)
    x *= _M1
    x ^= x >> np.uint64(27)
    x *= _M2
    x ^= x >> np.uint64(31)
    return x


@kernel
def zone_class(color, km, after_pass):
    return color + 4 * (km + 1) + (16 if after_pass else 0)


@kernel
def position_bits(context):
    """The position's black and white stones over the universe, into ``zone_bits``."""
    bits = context[C_ZONE_BITS]
    cells = context[C_CELLS]
    universe = context[C_ZONE_CELL]
    for w in range(bits.shape[1]):
        bits[0, w] = np.uint64(0)
        bits[1, w] = np.uint64(0)
    for b in range(universe.size):
        c = cells[universe[b]]
        if c == BLACK:
            bits[0, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
        elif c == WHITE:
            bits[1, b >> 6] |= np.uint64(1) << np.uint64(b & 63)


@kernel
def _contents_key(context, i):
    """The hash of zone i's number and the position's stones in it (``zone_bits`` filled)."""
    z = context[C_ZONE_TABLE][i]
    bits = context[C_ZONE_BITS]
    h = _mix(np.uint64(i + 1) * _GOLDEN)
    for w in range(z.size):
        h = _mix(h ^ (bits[0, w] & z[w]))
        h = _mix(h ^ (bits[1, w] & z[w]) ^ _GOLDEN)
    if h == np.uint64(0):
        h = np.uint64(1)
    return h


@kernel
def _to_front(order, place_of, j):
    """Move the zone at place j of the scan order to its front."""
    i = order[j]
    for k in range(j, 0, -1):
        order[k] = order[k - 1]
        place_of[order[k]] = k
    order[0] = i
    place_of[i] = 0


@kernel
def zone_table_lookup(context, zone, klass):
    """The stored value (winner | (move + 2) << 8) of a zone of class ``klass`` whose
    contents this position repeats, its zone copied into ``zone``; -1 if none.  Only the
    ``SCAN_LIMIT`` zones of the class used last are tried (the scan order puts a zone in
    front when it is stored or found)."""
    counts = context[C_ZONE_TABLE_COUNTS]
    if counts[ZT_ZONES] == 0:
        return -1
    classes = context[C_ZONE_TABLE_CLASS]
    order = context[C_ZONE_TABLE_ORDER]
    keys = context[C_ZONE_TABLE_KEYS]
    values = context[C_ZONE_TABLE_VALUES]
    mask = keys.size - 1
    position_bits(context)
    tried = 0
    for place in range(counts[ZT_ZONES]):
        i = order[place]
        if classes[i] != klass:
            continue
        tried += 1
        if tried > SCAN_LIMIT:
            break
        key = _contents_key(context, i)
        j = np.int64(key & np.uint64(mask))
        for _ in range(PROBES):
            if keys[j] == key:
                z = context[C_ZONE_TABLE][i]
                for w in range(zone.size):
                    zone[w] = z[w]
                counts[ZT_HITS] += 1
                _to_front(order, context[C_ZONE_TABLE_PLACE], place)
                return values[j]
            if keys[j] == np.uint64(0):
                break
            j = (j + 1) & mask
    return -1


@kernel
def _zone_number(context, zone, klass):
    """The number of ``zone`` among the distinct zones of its class, added if new, put in
    front of the scan order; -1 when the list is full.  Found through an index keyed by the
    zone's hash, so that a store never scans the list."""
    counts = context[C_ZONE_TABLE_COUNTS]
    zones = context[C_ZONE_TABLE]
    classes = context[C_ZONE_TABLE_CLASS]
    index = context[C_ZONE_TABLE_INDEX]
    h = _mix(np.uint64(klass + 1) * _GOLDEN)
    for w in range(zone.size):
        h = _mix(h ^ zone[w])
    mask = index.shape[0] - 1
    j = np.int64(h & np.uint64(mask))
    while index[j, 0] != 0:
        i = index[j, 1]
        if classes[i] == klass:
            same = True
            for w in range(zone.size):
                if zones[i, w] != zone[w]:
                    same = False
                    break
            if same:
                _to_front(context[C_ZONE_TABLE_ORDER], context[C_ZONE_TABLE_PLACE],
                          context[C_ZONE_TABLE_PLACE][i])
                return i
        j = (j + 1) & mask
    i = counts[ZT_ZONES]
    if i >= zones.shape[0]:
        return -1
    for w in range(zone.size):
        zones[i, w] = zone[w]
    classes[i] = klass
    index[j, 0] = 1
    index[j, 1] = i
    order = context[C_ZONE_TABLE_ORDER]
    order[i] = i
    counts[ZT_ZONES] = i + 1
    _to_front(order, context[C_ZONE_TABLE_PLACE], i)
    return i


@kernel
def zone_table_store(context, zone, klass, winner, move):
    """Keep an exact result's zone and contents (a zone of the whole universe claims
    nothing and is not kept)."""
    full = context[C_ZONE_FULL]
    smaller = False
    for w in range(zone.size):
        if zone[w] != full[w]:
            smaller = True
    if not smaller:
        return
    i = _zone_number(context, zone, klass)
    if i < 0:
        return
    position_bits(context)
    key = _contents_key(context, i)
    keys = context[C_ZONE_TABLE_KEYS]
    values = context[C_ZONE_TABLE_VALUES]
    mask = keys.size - 1
    j = np.int64(key & np.uint64(mask))
    for _ in range(PROBES - 1):
        if keys[j] == key or keys[j] == np.uint64(0):
            break
        j = (j + 1) & mask
    keys[j] = key
    values[j] = winner | ((move + 2) << 8)
    context[C_ZONE_TABLE_COUNTS][ZT_STORES] += 1
