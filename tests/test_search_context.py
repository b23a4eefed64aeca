"""The search state's slots: declared once by name (movegen.CONTEXT_SLOTS), each index
constant derived from that list, the state built complete, and no slot read by a bare
number anywhere."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from solver import Solver, load_problem, movegen
from solver.movegen import CONTEXT_SLOTS, SearchContext

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "pipeline", "model", "bench", "research", "tests")
# the slots that hold a row per depth beside the generated moves
ROWS_BESIDE_MOVES = ("moves", "scores", "depths", "hashes", "target_liberties", "move_codes",
                     "opponent_liberties")


def small_solver() -> Solver:
    return Solver(load_problem(sorted((ROOT / "sgf-problems").glob("eye-shapes/*.sgf"))[0]))


def test_each_slot_is_named_once():
    assert len(set(CONTEXT_SLOTS)) == len(CONTEXT_SLOTS)
    assert all(re.fullmatch(r"[a-z][a-z_]*", slot) for slot in CONTEXT_SLOTS)
    assert SearchContext._fields == CONTEXT_SLOTS


def test_the_index_constants_are_the_slots_positions():
    for index, slot in enumerate(CONTEXT_SLOTS):
        assert getattr(movegen, f"C_{slot.upper()}") == index, slot
    # no index constant without its slot (one left from a slot renamed or removed)
    constants = {name for name in vars(movegen) if name.startswith("C_")}
    assert constants == {f"C_{slot.upper()}" for slot in CONTEXT_SLOTS}


def test_the_solver_builds_every_slot():
    context = small_solver().context
    assert isinstance(context, SearchContext)
    assert len(context) == len(CONTEXT_SLOTS)
    for slot, value in zip(CONTEXT_SLOTS, context):
        assert isinstance(value, (np.ndarray, int)), slot
        assert getattr(context, slot) is value
    shapes = {getattr(context, slot).shape for slot in ROWS_BESIDE_MOVES}
    assert len(shapes) == 1, shapes


def test_a_missing_or_unknown_slot_is_refused():
    slots = dict(zip(CONTEXT_SLOTS, small_solver().context))
    del slots["sibling"]
    with pytest.raises(TypeError):
        SearchContext(**slots)
    with pytest.raises(TypeError):
        SearchContext(**slots, sibling=np.zeros(1, dtype=np.uint64), siblings=np.zeros(1))


def test_no_slot_is_read_by_a_bare_number():
    # the path was once read by its position (11), which the next slot added would have moved
    bare = re.compile(r"\b(?:context|ctx)\s*\)?\s*\[\s*-?\d")
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1) if bare.search(line)]
    assert found == []
