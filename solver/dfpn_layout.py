"""df-pn's layouts, shared by :mod:`solver.dfpn` and :mod:`solver.dfpn_zones`."""
from __future__ import annotations

import numpy as np

# A proof or disproof sets a number to INFINITE.  Sums of working numbers
# count a shared subtree once per path into it and can grow exponentially with
# depth, so they stop just below, at LARGE: only a real proof reaches INFINITE.
INFINITE = np.int64(1) << 40
LARGE = INFINITE - 1

# scratch[depth, child, :] fields: the child's numbers, whether it is solved,
# its reliance depth, its ko master, depth + 1 of the stack entry holding its
# key (INF_DEPTH if none), whether its numbers live under its path key, and whether
# a null move's zone pruned it (1) or it is that null move (2) (solver.dfpn_zones).
S_PHI, S_DELTA, S_SOLVED, S_REPD, S_KM, S_CYCLE, S_ON_PATH_KEY, S_PRUNED = 0, 1, 2, 3, 4, 5, 6, 7
SCRATCH_FIELDS = 8
# table values: numbers, best move, reliance depth (INF_DEPTH under a plain key); with
# relevance zones on, the zone's words follow (an exact entry's; all bits set: none known)
V_PHI, V_DELTA, V_MOVE, V_REPD = 0, 1, 2, 3
VALUE_FIELDS = 4
