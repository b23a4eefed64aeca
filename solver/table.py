"""Transposition tables: open addressing over flat numpy arrays.

A key is a 64-bit Zobrist hash of (stones, side to move, ko master); key 0
marks an empty slot.  The table never evicts: an exact result stored once is
relied on for the rest of the solve, so instead of overwriting, a table that
fills up (or whose probe run gets too long) raises the ``counters[ABORT]`` flag
with ``ABORT_TABLE_FULL``; the caller grows the table, re-inserts what it holds
and restarts the search, which then replays the stored results quickly.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .jit import inline_kernel, kernel

# counters[] slots shared by the searches.
NODES, MAX_NODES, ABORT, TABLE_COUNT, TAGS = 0, 1, 2, 3, 4
COUNTERS_SIZE = 5
ABORT_NODE_BUDGET, ABORT_TABLE_FULL = 1, 2

PROBES = 64

_rng = np.random.default_rng(1234567)
SIDE_KEYS = _rng.integers(1, np.iinfo(np.uint64).max, size=3, dtype=np.uint64, endpoint=True)
KO_MASTER_KEYS = _rng.integers(1, np.iinfo(np.uint64).max, size=3, dtype=np.uint64, endpoint=True)


@inline_kernel
def node_key(position_hash, color, km):
    """Key of a node: the position, who moves, and who is ko master (km = -1, 0, +1)."""
    key = position_hash ^ SIDE_KEYS[color] ^ KO_MASTER_KEYS[km + 1]
    if key == 0:
        key = np.uint64(1)
    return key


@kernel
def table_slot(keys, key):
    """Index of ``key`` in the table, or of the empty slot where it would go; -1 if neither."""
    mask = np.uint64(keys.size - 1)
    i = np.int64(key & mask)
    for _ in range(PROBES):
        k = keys[i]
        if k == key or k == 0:
            return i
        i = (i + 1) & (keys.size - 1)
    return -1


@kernel
def table_claim(keys, counters, key):
    """Slot for ``key``, inserting it if new; -1 (and the abort flag) if the table is full."""
    i = table_slot(keys, key)
    if i < 0:
        counters[ABORT] = ABORT_TABLE_FULL
        return -1
    if keys[i] == 0:
        keys[i] = key
        counters[TABLE_COUNT] += 1
        if 4 * counters[TABLE_COUNT] > 3 * keys.size:
            counters[ABORT] = ABORT_TABLE_FULL
    return i


@njit(cache=True)  # copies rows of any shape (may allocate): not a kernel
def rehash(old_keys, old_values, new_keys, new_values):
    """Copy every entry into a larger table; returns the number copied."""
    n = 0
    mask = new_keys.size - 1
    for j in range(old_keys.size):
        key = old_keys[j]
        if key == 0:
            continue
        i = np.int64(key & np.uint64(mask))
        while new_keys[i] != 0:
            i = (i + 1) & mask
        new_keys[i] = key
        new_values[i] = old_values[j]
        n += 1
    return n


class Table:
    """A growable table of ``values`` (any numpy record shape) keyed by uint64.

    ``count`` is the number of entries.  The searches insert through
    :func:`table_claim`, which keeps the count in ``counters[TABLE_COUNT]``;
    the caller hands it over before a search and takes it back after, so it
    is never recounted (a scan of the keys costs more than most solves).
    """

    def __init__(self, log2_size: int, value_shape: tuple = (), value_dtype=np.int64):
        self.keys = np.zeros(1 << log2_size, dtype=np.uint64)
        self.values = np.zeros((1 << log2_size,) + value_shape, dtype=value_dtype)
        self.count = 0

    def grow(self) -> int:
        """Quadruple the size keeping every entry; returns the entry count."""
        keys = np.zeros(self.keys.size * 4, dtype=np.uint64)
        values = np.zeros((keys.size,) + self.values.shape[1:], dtype=self.values.dtype)
        self.count = rehash(self.keys, self.values, keys, values)
        self.keys, self.values = keys, values
        return self.count

    def __len__(self) -> int:
        return self.count
