"""How the solver's hot path is compiled.

``kernel`` is numba's ``njit`` with the on-disk cache and *without* numba's
reference counting (NRT).  The search hands the board's arrays from one
compiled function to the next on every node, and with reference counting on,
every array passed, unpacked from a tuple or sliced into a row costs an atomic
increment and decrement, which took most of the search time (measured:
RESULTS.md, "Solver: kernels without reference counting").

The price is a rule: a kernel never allocates.  Every scratch array is made in
Python, up front, and passed in; a compiled function that must allocate is an
ordinary ``njit`` entry point that calls kernels.
"""
from __future__ import annotations

from numba import njit

#: compiled, cached, no reference counting: for functions that never allocate
kernel = njit(cache=True, _nrt=False)

#: the same, inlined into its callers (tiny helpers on the hottest paths)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
