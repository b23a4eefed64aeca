"""The solver's compiled functions are kernels: no reference counting on the hot path."""
import importlib
import pkgutil

from numba.core.registry import CPUDispatcher

import solver

# Compiled functions that allocate their scratch arrays, so they need numba's
# reference counting; each runs once per position, solve or board, never per node.
ENTRY_POINTS = {"solver.area._area_and_safe", "solver.dfpn.solve", "solver.table.rehash",
                "solver.tactics.tactical_maps"}


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
