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

numba's on-disk cache checks only the source file of the function it
compiled, not the files of the kernels that function calls and inlines: after
an edit of ``board.py`` a cached ``dfs.search`` would go on running the old
board.  So the cache is tied to all of the package's sources at once: when
their hash differs from the one the cache was built with, the cached machine
code of the package is removed before anything compiles.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from numba import njit

_PACKAGE = Path(__file__).resolve().parent
_CACHE = _PACKAGE / "__pycache__"
_STAMP = _CACHE / "numba-sources.sha256"


def _sources_hash() -> str:
    digest = hashlib.sha256()
    for source in sorted(_PACKAGE.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()


def _drop_stale_cache() -> None:
    """Remove the package's cached machine code when any of its sources changed since it was built."""
    current = _sources_hash()
    try:
        if _STAMP.read_text().strip() == current:
            return
    except OSError:
        pass
    try:
        _CACHE.mkdir(exist_ok=True)
        for cached in list(_CACHE.glob("*.nbi")) + list(_CACHE.glob("*.nbc")):
            cached.unlink(missing_ok=True)
        _STAMP.write_text(current + "\n")
    except OSError:
        # A read-only install: numba then keeps its cache elsewhere (or none), per its own rules.
        pass


_drop_stale_cache()

#: compiled, cached, no reference counting: for functions that never allocate
kernel = njit(cache=True, _nrt=False)

#: the same, inlined into its callers (tiny helpers on the hottest paths)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
