"""The solver's compiled functions are kernels: no reference counting on the hot path, and
no machine code cached from older sources."""
import importlib
import pkgutil
from pathlib import Path

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

import solver
from solver.jit import prefetch

# Compiled functions that allocate their scratch arrays, so they need numba's
# reference counting; each runs once per position, solve or board, never per node
# (solver.pattern_training.table_outcomes labels a solve's recorded moves once it ends).
ENTRY_POINTS = {"solver.area._area_and_safe", "solver.dfpn.solve", "solver.table.rehash",
                "solver.tactics.tactical_maps", "solver.pattern_training.table_outcomes"}


def compiled_functions():
    for info in pkgutil.iter_modules(solver.__path__, "solver."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == info.name:
                yield f"{info.name}.{name}", value


def test_every_compiled_solver_function_but_the_entry_points_runs_without_reference_counting():
    functions = dict(compiled_functions())
    assert {"solver.dfs.search", "solver.board.play", "solver.dfpn._mid"} <= set(functions)
    assert ENTRY_POINTS <= set(functions)
    counted = sorted(name for name, f in functions.items() if f.targetoptions.get("_nrt", True))
    assert counted == sorted(ENTRY_POINTS)


def test_the_cache_folders_are_where_numba_keeps_the_solvers_code(monkeypatch, tmp_path):
    from numba.core import config
    from numba.core.caching import UserProvidedCacheLocator

    from solver import dfs, jit

    monkeypatch.setattr(config, "CACHE_DIR", "")
    assert jit.cache_folders() == [Path(jit.__file__).resolve().parent / "__pycache__"]
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    locator = UserProvidedCacheLocator.from_function(dfs.search.py_func, dfs.__file__)
    assert Path(locator.get_cache_path()) in jit.cache_folders()


def test_a_stale_cache_is_dropped_and_a_current_one_kept(tmp_path):
    from solver import jit

    folder = tmp_path / "cache"
    folder.mkdir()
    for name in ("dfs.search-1.py311.nbi", "dfs.search-1.py311.1.nbc"):
        (folder / name).write_bytes(b"machine code")
    (folder / "numba-sources.sha256").write_text("an older hash\n")
    jit.drop_stale_cache(folder, "today's hash")
    assert sorted(p.name for p in folder.iterdir()) == ["numba-sources.sha256"]
    assert (folder / "numba-sources.sha256").read_text().strip() == "today's hash"
    (folder / "dfs.search-1.py311.nbi").write_bytes(b"machine code")
    jit.drop_stale_cache(folder, "today's hash")
    assert (folder / "dfs.search-1.py311.nbi").exists()


def test_prefetch_emits_the_processors_prefetch_and_changes_no_value():
    @njit(cache=False)
    def ask_then_sum(table, slots):
        for s in slots:
            prefetch(table, s)
        total = 0
        for s in slots:
            total += table[s]
        return total

    table = np.arange(1 << 12, dtype=np.uint64)
    slots = np.array([5, 4000, 17, 5], dtype=np.int64)
    assert ask_then_sum(table, slots) == 5 + 4000 + 17 + 5
    assert np.array_equal(table, np.arange(1 << 12, dtype=np.uint64))
    machine_code = "\n".join(ask_then_sum.inspect_asm().values())
    assert "prefetch" in machine_code or "prfm" in machine_code   # x86-64, or ARM's name for it
