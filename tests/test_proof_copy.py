"""df-pn's proof copied into DFS's table (solver.proof_copy): every copy agrees with DFS's own
exact results, DFS then answers from it at once, and the main line read on it is the line of
the same winner, ended as that winner's line ends."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench.proof_copy_check import exact_winners, main as check_folder
from pipeline.time_search import time_search_options
from solver import Solver, load_problem, principal_variation
from solver.proof_copy import copy_proof
from solver.solver import ko_master_value

ROOT = Path(__file__).resolve().parents[1]
# every fifth own problem (the folder sorted), both sides first
PROBLEMS = sorted((ROOT / "sgf-problems").rglob("*.sgf"))[::5]


@pytest.mark.parametrize("path", PROBLEMS, ids=lambda p: p.stem)
def test_the_copies_agree_with_dfs_and_dfs_answers_from_them(path):
    problem = load_problem(path)
    shared = 0
    for first in (1, 2):
        judge = Solver(problem)
        plain = judge.solve(first, max_nodes=2_000_000)
        solver = Solver(problem, **time_search_options())
        proved = solver.solve(first, algo="dfpn", max_nodes=2_000_000)
        if plain.winner is None or proved.winner is None:
            continue
        assert proved.winner == plain.winner
        copied = copy_proof(solver, first, ko_master_value("attacker", solver.defender))
        assert copied >= 1
        copies, own = exact_winners(solver.tables["dfs"]), exact_winners(judge.tables["dfs"])
        both = copies.keys() & own.keys()
        assert all(copies[key] == own[key] for key in both)
        shared += len(both)
        again = solver.solve(first, max_nodes=2_000_000)   # DFS, from the copied root
        assert (again.winner, again.nodes) == (plain.winner, 1)
        assert copy_proof(solver, first, ko_master_value("attacker", solver.defender)) == 0   # known now
    assert shared > 0


@pytest.mark.parametrize("pass_check_nodes", [principal_variation.PASS_CHECK_NODES, 1], ids=["checked", "unchecked"])
@pytest.mark.parametrize("path", PROBLEMS[::2], ids=lambda p: p.stem)
def test_the_line_on_df_pns_proof_has_the_winner_and_ending_of_dfs_s_line(path, pass_check_nodes, monkeypatch):
    """With or without the defender's passes checked, a line of the same winner, ended as its lines end."""
    monkeypatch.setattr(principal_variation, "PASS_CHECK_NODES", pass_check_nodes)
    problem = load_problem(path)
    for first in (1, 2):
        alone = Solver(problem).principal_variation(first, max_nodes=4_000_000)
        solver = Solver(problem, **time_search_options())
        if solver.solve(first, algo="dfpn", max_nodes=2_000_000).winner is None or alone.winner is None:
            continue
        line = solver.principal_variation(first, max_nodes=4_000_000)
        assert line.winner == alone.winner
        assert line.complete and line.captured == (line.winner != solver.defender)
        assert np.array_equal(solver.board.to_array(), problem.stones)   # every move taken back


def test_without_a_df_pn_solve_nothing_is_copied_and_the_line_is_dfs_s():
    problem = load_problem(PROBLEMS[0])
    solver = Solver(problem)
    assert copy_proof(solver, 1, ko_master_value("attacker", solver.defender)) == 0
    assert solver.principal_variation(1).moves == Solver(problem).principal_variation(1).moves


def test_the_check_over_a_folder_counts_shared_results_and_passes(tmp_path, capsys):
    for path in PROBLEMS[:3]:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    assert check_folder(["--problems", str(tmp_path), "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "problems: 3 " in printed and "differ: 0 bad lines: 0" in printed
    assert "shared: 0 " not in printed
