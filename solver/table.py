"""Transposition tables: open addressing over flat numpy arrays, of bounded size.

A key is a 64-bit Zobrist hash of (stones, side to move, ko master); key 0
marks an empty slot.  Keys are probed linearly from ``key & (size - 1)``, at
most ``PROBES`` slots.

A table grows until it reaches its bound (``Table.max_slots``): a table that
may still grow and fills up (or whose probe run gets too long) raises the
``counters[ABORT]`` flag with ``ABORT_TABLE_FULL``; the caller grows the
table, re-inserts what it holds and restarts the search, which then replays
the stored results quickly.  A table at its bound (``counters[TABLE_CAPPED]``)
instead keeps its load at three quarters by dropping an entry for each new
one: of the first ``CANDIDATES`` entries from the new key's home slot, the
one whose subtree took the fewest nodes.  Dropping is always safe: an entry
only ever saves a search (exact results are path-independent, the rest are
hints and working numbers), so a lost entry costs re-search, never a
different answer.

Each slot keeps the size class of its subtree in ``work``: the bit length of
the nodes the search spent below it, the largest seen for that key.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .jit import inline_kernel, kernel, prefetch

# counters[] slots shared by the searches (RACE_PROOFS: nodes the race count settled).
NODES, MAX_NODES, ABORT, TABLE_COUNT, TAGS, TABLE_CAPPED, RACE_PROOFS = 0, 1, 2, 3, 4, 5, 6
# df-pn's simulations (solver.dfpn._simulate): siblings tried, siblings proved so
SIMULATIONS, SIMULATED = 7, 8
# nodes the no-room rule settled (solver.eye_room)
EYE_ROOM_PROOFS = 9
COUNTERS_SIZE = 10
ABORT_NODE_BUDGET, ABORT_TABLE_FULL, ABORT_TIME_LIMIT = 1, 2, 3

PROBES = 64
# Default bound of one table, in MiB (measured: RESULTS.md, "solve: a default
# node budget and bounded tables").
DEFAULT_MAX_TABLE_MB = 1024
# Entries a full table weighs against each other to make room for a new one.
CANDIDATES = 8

_rng = np.random.default_rng(1234567)
SIDE_KEYS = _rng.integers(1, np.iinfo(np.uint64).max, size=3, dtype=np.uint64, endpoint=True)
KO_MASTER_KEYS = _rng.integers(1, np.iinfo(np.uint64).max, size=3, dtype=np.uint64, endpoint=True)


@inline_kernel
def count_node(counters):
    """Count a node entered; whether the search must stop (its node budget spent now, or an
    abort raised before: the time limit, a full table)."""
    counters[NODES] += 1
    if counters[MAX_NODES] > 0 and counters[NODES] > counters[MAX_NODES]:
        counters[ABORT] = ABORT_NODE_BUDGET
    return counters[ABORT] != 0


@inline_kernel
def node_key(position_hash, color, km):
    """Key of a node: the position, who moves, and who is ko master (km = -1, 0, +1)."""
    key = position_hash ^ SIDE_KEYS[color] ^ KO_MASTER_KEYS[km + 1]
    if key == 0:
        key = np.uint64(1)
    return key


# Mixed into the key of a node reached by a pass: its mover's own pass may end
# the ko master's threats (rules.km_after_pass) where the same position
# reached by a move would not, so the two are different nodes.
_AFTER_PASS = np.uint64(0xC2B2AE3D27D4EB4F)


@inline_kernel
def node_key_after(position_hash, color, km, after_pass):
    """:func:`node_key`, told apart for a node reached by a pass if ``after_pass``."""
    key = node_key(position_hash, color, km)
    return key ^ _AFTER_PASS if after_pass else key


@inline_kernel
def prefetch_slot(keys, values, key):
    """Start loading ``key``'s home slot, its key and its values (:func:`solver.jit.prefetch`):
    df-pn asks for all its children's slots before it reads any, so that their memory
    latencies overlap (RESULTS.md, "df-pn asks for its children's slots at once")."""
    i = np.int64(key & np.uint64(keys.size - 1))
    prefetch(keys, i)
    prefetch(values[i], 0)


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


@inline_kernel
def work_class(nodes):
    """Bit length of ``nodes``: the size class of a subtree."""
    w = 0
    while nodes > 0:
        nodes >>= 1
        w += 1
    return np.uint8(w)


@kernel
def _victim(keys, work, key):
    """Of the first CANDIDATES entries from ``key``'s home slot, the one of least work; -1 if none."""
    mask = keys.size - 1
    i = np.int64(key & np.uint64(mask))
    best = -1
    seen = 0
    for _ in range(PROBES):
        if keys[i] != 0:
            if best < 0 or work[i] < work[best]:
                best = i
            seen += 1
            if seen == CANDIDATES:
                break
        i = (i + 1) & mask
    return best


@kernel
def _remove(keys, values, work, j):
    """Empty slot ``j``, moving later entries of its run back so that every probe still finds its key."""
    mask = keys.size - 1
    hole = j
    k = (j + 1) & mask
    while keys[k] != 0:
        home = np.int64(keys[k] & np.uint64(mask))
        # the entry at k may fill the hole if the hole lies on its probe path
        if ((k - home) & mask) >= ((k - hole) & mask):
            keys[hole] = keys[k]
            for f in range(values.shape[1]):
                values[hole, f] = values[k, f]
            work[hole] = work[k]
            hole = k
        k = (k + 1) & mask
    keys[hole] = 0


@kernel
def table_claim(keys, values, work, counters, key, nodes):
    """Slot for ``key``, inserting it if new; ``nodes`` is what its subtree cost.

    A table that may grow raises the abort flag when it fills up (and returns
    -1 if it is too full to take the key); one at its bound drops an entry to
    make room, and returns -1 only in the rare case where that frees no slot
    on the key's probe path.
    """
    i = table_slot(keys, key)
    w = work_class(nodes)
    if i >= 0 and keys[i] == key:
        if w > work[i]:
            work[i] = w
        return i
    if counters[TABLE_CAPPED] != 0 and (i < 0 or 4 * (counters[TABLE_COUNT] + 1) > 3 * keys.size):
        victim = _victim(keys, work, key)
        if victim >= 0:
            _remove(keys, values, work, victim)
            counters[TABLE_COUNT] -= 1
            i = table_slot(keys, key)
    if i < 0:
        if counters[TABLE_CAPPED] == 0:
            counters[ABORT] = ABORT_TABLE_FULL
        return -1
    keys[i] = key
    work[i] = w
    counters[TABLE_COUNT] += 1
    if counters[TABLE_CAPPED] == 0 and 4 * counters[TABLE_COUNT] > 3 * keys.size:
        counters[ABORT] = ABORT_TABLE_FULL
    return i


@njit(cache=True)  # copies rows of any shape (may allocate): not a kernel
def rehash(old_keys, old_values, old_work, new_keys, new_values, new_work):
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
        new_work[i] = old_work[j]
        n += 1
    return n


class Table:
    """A growable table of ``values`` (``fields`` int64 a slot) keyed by uint64, at most ``max_bytes``.

    ``count`` is the number of entries.  The searches insert through
    :func:`table_claim`, which keeps the count in ``counters[TABLE_COUNT]``;
    the caller hands it over before a search and takes it back after, so it
    is never recounted (a scan of the keys costs more than most solves).
    ``max_slots`` is the largest power of two whose slots fit in ``max_bytes``
    (keys, values and work together; at least 16); ``capped`` says the table
    has reached it.
    """

    def __init__(self, log2_size: int, fields: int = 1, max_bytes: int | None = None):
        slot_bytes = 8 + 8 * fields + 1
        self.max_slots = 1 << 62
        if max_bytes is not None:
            self.max_slots = 1 << max(4, (int(max_bytes) // slot_bytes).bit_length() - 1)
        size = min(1 << log2_size, self.max_slots)
        self.keys = np.zeros(size, dtype=np.uint64)
        self.values = np.zeros((size, fields), dtype=np.int64)
        self.work = np.zeros(size, dtype=np.uint8)
        self.count = 0

    @property
    def capped(self) -> bool:
        return self.keys.size >= self.max_slots

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self.values.nbytes + self.work.nbytes

    def grow(self) -> int:
        """Quadruple the size (up to ``max_slots``) keeping every entry; returns the entry count."""
        keys = np.zeros(min(self.keys.size * 4, self.max_slots), dtype=np.uint64)
        values = np.zeros((keys.size,) + self.values.shape[1:], dtype=self.values.dtype)
        work = np.zeros(keys.size, dtype=np.uint8)
        self.count = rehash(self.keys, self.values, self.work, keys, values, work)
        self.keys, self.values, self.work = keys, values, work
        return self.count

    def __len__(self) -> int:
        return self.count
