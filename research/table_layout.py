"""What one row a slot would save a table lookup: random lookups of keys that are there,
keys and values in two arrays (as :mod:`solver.table` keeps them) against one array whose
row holds a slot's key and numbers (one cache line).

    python -m research.table_layout [--lookups 2000000] [--sizes 20,24,25]

Prints nanoseconds a lookup, the best of three passes, for tables of 2**size slots.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit


@njit(cache=False)
def _two_arrays(keys, values, probes):
    mask = np.uint64(keys.size - 1)
    total = 0
    for key in probes:
        i = np.int64(key & mask)
        total += values[i, 0] + values[i, 1] if keys[i] == key else 1
    return total


@njit(cache=False)
def _one_row(rows, probes):
    mask = np.uint64(rows.shape[0] - 1)
    total = 0
    for key in probes:
        i = np.int64(key & mask)
        total += np.int64(rows[i, 1]) + np.int64(rows[i, 2]) if rows[i, 0] == key else 1
    return total


def _best_seconds(function, *args) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        function(*args)
        best = min(best, time.perf_counter() - started)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lookups", type=int, default=2_000_000)
    parser.add_argument("--sizes", default="20,24,25", help="log2 of the slots, comma-separated")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(1)
    print("| slots | MiB (two arrays) | ns a lookup, two arrays | one row a slot |")
    print("|---|---:|---:|---:|")
    for log2 in map(int, args.sizes.split(",")):
        slots = 1 << log2
        # every key at its home slot: a lookup is one probe, as in a table a quarter empty
        keys = rng.integers(1, 1 << 62, size=slots, dtype=np.uint64) & ~np.uint64(slots - 1)
        keys |= np.arange(slots, dtype=np.uint64)
        values = rng.integers(0, 100, size=(slots, 4), dtype=np.int64)
        rows = np.zeros((slots, 8), dtype=np.uint64)
        rows[:, 0] = keys
        rows[:, 1:5] = values.astype(np.uint64)
        probes = keys[rng.integers(0, slots, size=args.lookups)]
        _two_arrays(keys, values, probes[:10])
        _one_row(rows, probes[:10])
        apart = _best_seconds(_two_arrays, keys, values, probes) / args.lookups * 1e9
        together = _best_seconds(_one_row, rows, probes) / args.lookups * 1e9
        print(f"| 2^{log2} | {(keys.nbytes + values.nbytes) >> 20:,} | {apart:.1f} | {together:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
