"""Relevance zones in df-pn (solver.dfpn_zones): with zones alone df-pn takes the very nodes
it takes without them; pruning by null moves' zones and the zone table change no verdict
(each side first, each ko master, against the plain DFS); and positions that agree with a
root df-pn proved on its zone, changed outside it, keep their winner when the plain DFS
solves them (research/compiled_zones.py's checker)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from research.compiled_zones import KO_MASTERS, check, positions
from solver import BLACK, WHITE, Solver, load_problem

ROOT = Path(__file__).resolve().parents[1]
PROBLEMS = sorted((ROOT / "sgf-problems").rglob("*.sgf"))
ZONED = {"zones": {"relevance_zones": True}, "pruning": {"zone_pruning": True},
         "table": {"zone_table": True}, "both": {"zone_pruning": True, "zone_table": True}}


@pytest.mark.parametrize("path", PROBLEMS[1::6], ids=lambda p: p.stem)
def test_zones_in_dfpn_change_no_node_and_no_verdict(path):
    problem = load_problem(path)
    for color in (BLACK, WHITE):
        for ko_master in KO_MASTERS:
            judge = Solver(problem).solve(color, ko_master=ko_master, max_nodes=100_000)
            plain = Solver(problem).solve(color, ko_master=ko_master, max_nodes=100_000, algo="dfpn")
            for way, options in ZONED.items():
                found = Solver(problem, **options).solve(color, ko_master=ko_master, max_nodes=1_000_000,
                                                         algo="dfpn")
                if way == "zones":
                    assert (found.winner, found.nodes) == (plain.winner, plain.nodes)
                if judge.winner is not None:
                    assert found.winner == judge.winner, (way, color, ko_master)


def test_dfpn_prunes_and_hits_its_zone_table_on_a_side_of_fifteen_points():
    # the pruned search leaves moves unsearched and takes fewer nodes; the table is used
    problem = load_problem(ROOT / "sgf-problems/large-areas/side-fifteen-points-live-wide.sgf")
    plain = Solver(problem).solve(WHITE, algo="dfpn")
    pruning = Solver(problem, zone_pruning=True)
    pruned = pruning.solve(WHITE, algo="dfpn")
    assert pruned.winner == plain.winner and pruned.nodes < plain.nodes
    assert pruning.zone_state.table_counts[3] > 0
    table = Solver(problem, zone_table=True)
    assert table.solve(WHITE, algo="dfpn").winner == plain.winner
    zones, hits, stores, _ = table.zone_state.table_counts
    assert zones > 0 and hits > 0 and stores > 0


@pytest.mark.parametrize("pruning", [False, True])
def test_positions_changed_outside_a_zone_dfpn_proved_keep_their_winner(pruning):
    rng = random.Random(5)
    zoned = variants = 0
    for path in PROBLEMS[2::9]:
        problem = load_problem(path)
        for color in (BLACK, WHITE):
            for ko_master in KO_MASTERS:
                for cells in positions(problem, color, rng, below=1, walks=2):
                    row = check(problem, color, ko_master, cells, 2, rng, 20_000, pruning, "dfpn")
                    assert row["mismatches"] == [], (path.name, color, ko_master)
                    zoned += row["zone"] is not None
                    variants += row["variants"]
    # not vacuous: zones smaller than the universe were found and re-solved
    assert zoned >= 15 and variants >= 30, (zoned, variants)
