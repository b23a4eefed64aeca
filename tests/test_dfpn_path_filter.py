"""df-pn's path-key filter (solver.dfpn._may_hold) never hides an entry stored under a path key.

The filter lets df-pn skip the table probes for path keys it never stored in the solve;
a bit left clear for a key that was stored would make the search miss what that path
found.  After solves of the own problems (ko, seki and large areas among them), each
side first, each ko master, every entry the table holds under a path key (a reliance on
the path, V_REPD below INF_DEPTH) has its bit set, through the table's growth too.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from solver import BLACK, WHITE, Solver, load_problem
from solver.dfpn import _may_hold
from solver.dfpn_layout import V_REPD
from solver.problem import ProblemError
from solver.rules import INF_DEPTH

OWN_PROBLEMS = sorted((Path(__file__).resolve().parents[1] / "sgf-problems").rglob("*.sgf"))


def test_every_path_entry_of_a_solve_has_its_bit():
    path_entries = 0
    for path in OWN_PROBLEMS:
        try:
            problem = load_problem(str(path))
        except ProblemError:
            continue
        for side, ko_master in itertools.product((BLACK, WHITE), ("attacker", "defender")):
            # a small first table, so that solves grow it and carry their entries over
            solver = Solver(problem, table_log2=8)
            solver.solve(side, ko_master=ko_master, algo="dfpn", max_nodes=20_000)
            table = solver.tables["dfpn"]
            held = (table.keys != 0) & (table.values[:, V_REPD] < INF_DEPTH)
            for key in table.keys[held]:
                assert _may_hold(solver.context.path_filter, np.uint64(key)), (path.name, side, ko_master)
            path_entries += int(held.sum())
    assert path_entries > 1_000, path_entries
