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
code of the package is removed before anything compiles.  That holds in each
folder numba may keep it in: ``__pycache__`` beside the sources and, when
``NUMBA_CACHE_DIR`` is set, the package's own folder there (a stale kernel was
once run that way: RESULTS.md, "The attacker's pass while it is ko master").
The feature planes' package ties its cache the same way (``tie_cache_to_sources``).

Recursion stays inside one kernel: two cached kernels that call each other
(``search`` calling a helper that calls ``search``) compile and run in the
process that compiled them, but the machine code loaded from the cache by
the next process crashes with a segmentation fault.  A helper on such a loop
is an ``inline_kernel``, so the loop is ``search`` calling itself (RESULTS.md,
"DFS spreading its effort over the first moves").
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils, config
from numba.core.caching import UserProvidedCacheLocator
from numba.extending import intrinsic

_PACKAGE = Path(__file__).resolve().parent
_STAMP_NAME = "numba-sources.sha256"


def _sources_hash(package: Path = _PACKAGE) -> str:
    digest = hashlib.sha256()
    for source in sorted(package.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_folders(package: Path = _PACKAGE) -> list[Path]:
    """The folders numba may keep a package's machine code in: ``__pycache__`` beside the
    sources, and the package's folder under ``NUMBA_CACHE_DIR`` when that is set (numba's
    ``UserProvidedCacheLocator``, which then comes first)."""
    folders = [package / "__pycache__"]
    if config.CACHE_DIR:
        subpath = UserProvidedCacheLocator.get_suitable_cache_subpath(str(package / "__init__.py"))
        folders.append(Path(config.CACHE_DIR) / subpath)
    return folders


def drop_stale_cache(folder: Path, current: str) -> None:
    """Remove the cached machine code in ``folder`` unless it was built from the sources whose
    hash is ``current``; then record ``current`` there."""
    stamp = folder / _STAMP_NAME
    try:
        if stamp.read_text().strip() == current:
            return
    except OSError:
        pass
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for cached in list(folder.glob("*.nbi")) + list(folder.glob("*.nbc")):
            cached.unlink(missing_ok=True)
        stamp.write_text(current + "\n")
    except OSError:
        # A read-only install: numba then keeps its cache elsewhere (or none), per its own rules.
        pass


def tie_cache_to_sources(package: Path) -> None:
    """Drop a package's cached machine code when any of its sources changed since it was built.

    For every package whose compiled functions call compiled functions of its other modules
    (the solver, the feature planes); call it when the package is imported, before any of
    its functions runs."""
    current = _sources_hash(package)
    for folder in cache_folders(package):
        drop_stale_cache(folder, current)


tie_cache_to_sources(_PACKAGE)

#: compiled, cached, no reference counting: for functions that never allocate; without the
#: GIL, so that a watchdog thread can stop a search at its time limit (solver.time_limit)
kernel = njit(cache=True, _nrt=False, nogil=True)

#: the same, inlined into its callers (tiny helpers on the hottest paths)
inline_kernel = njit(cache=True, _nrt=False, inline="always")


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the processor to bring ``array[index]`` into its cache, without waiting for it
    (``llvm.prefetch``): a search about to read several table slots at random asks for all of
    them first, so that their memory latencies overlap.  No effect on any value."""
    if not isinstance(array, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        at = context.cast(builder, args[1], signature.args[1], types.intp)
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [at], wraparound=False,
                                           boundscheck=False)
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]), "llvm.prefetch.p0")
        # a read (0), kept in every cache level (3), of data (1)
        builder.call(function, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


#: the entry points every solve calls, as numba names their cache index (``<module>.<function>-<line>``)
ENTRY_POINTS = ("dfs.search", "dfpn.solve", "principal_variation.follow")


def kernels_compiled() -> bool:
    """Whether machine code for the solver's entry points is cached (and so only loads):
    a stale cache was removed above, so any index left belongs to today's sources."""
    return all(any(any(folder.glob(f"{name}-*.nbi")) for folder in cache_folders())
               for name in ENTRY_POINTS)
