"""How the solver's hot path is compiled.

``kernel`` is numba's ``njit`` with the on-disk cache and *without* numba's
reference counting (NRT).  The search hands the board's arrays from one
compiled function to the next on every node, and with reference counting on,
every array passed, unpacked from a tuple or sliced into a row costs an atomic
increment and decrement: on the reference problems those took about 70% of the
search time (the same solves ran 3.3 times faster without them, node for node).

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
