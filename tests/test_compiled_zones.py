"""Relevance zones in the compiled DFS (solver.zones, ``Solver(relevance_zones=True)``): the
search with zones takes the very nodes of the one without and finds the same verdicts;
the zone table (solver.zone_table) and pruning by null moves' zones change no verdict;
the leaf zones on written positions; and positions that agree with a proved root on its
zone, changed outside it, have the same winner when the plain search solves them
(research/compiled_zones.py's checker, on a sample of the project's problems, with
pruning and without)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from research.compiled_zones import KO_MASTERS, check, positions
from solver import BLACK, WHITE, Solver, load_problem
from tests.test_relevance_zones import written_problem

ROOT = Path(__file__).resolve().parents[1]
PROBLEMS = sorted((ROOT / "sgf-problems").rglob("*.sgf"))


@pytest.mark.parametrize("path", PROBLEMS[::12], ids=lambda p: p.stem)
def test_zones_change_no_node_and_no_verdict(path):
    problem = load_problem(path)
    for color in (BLACK, WHITE):
        for ko_master in KO_MASTERS:
            plain = Solver(problem).solve(color, ko_master=ko_master, max_nodes=30_000)
            zoned = Solver(problem, relevance_zones=True).solve(color, ko_master=ko_master, max_nodes=30_000)
            assert (zoned.winner, zoned.move, zoned.nodes) == (plain.winner, plain.move, plain.nodes)


@pytest.mark.parametrize("path", PROBLEMS[5::10], ids=lambda p: p.stem)
def test_the_zone_table_changes_no_verdict(path):
    problem = load_problem(path)
    for color in (BLACK, WHITE):
        for ko_master in KO_MASTERS:
            plain = Solver(problem).solve(color, ko_master=ko_master, max_nodes=30_000)
            if plain.winner is None:
                continue
            solver = Solver(problem, zone_table=True)
            found = solver.solve(color, ko_master=ko_master, max_nodes=300_000)
            assert found.winner == plain.winner, (color, ko_master)


@pytest.mark.parametrize("path", PROBLEMS[3::10], ids=lambda p: p.stem)
def test_pruning_by_null_moves_changes_no_verdict(path):
    # the loser's moves outside a null move's zone left unsearched: the same winner as the
    # plain search, each side first, each ko master, with the zone table and without
    problem = load_problem(path)
    for color in (BLACK, WHITE):
        for ko_master in KO_MASTERS:
            plain = Solver(problem).solve(color, ko_master=ko_master, max_nodes=30_000)
            if plain.winner is None:
                continue
            for table in (False, True):
                found = Solver(problem, zone_pruning=True, zone_table=table).solve(
                    color, ko_master=ko_master, max_nodes=300_000)
                assert found.winner == plain.winner, (color, ko_master, table)


def test_pruning_leaves_moves_unsearched_where_a_null_move_is_proved():
    # a side of fifteen points: lost nodes meet null moves with moves outside their zones,
    # and the pruned search takes fewer nodes than the one that searches them
    problem = load_problem(ROOT / "sgf-problems/large-areas/side-fifteen-points-live-wide.sgf")
    zoned = Solver(problem, relevance_zones=True).solve(WHITE)
    solver = Solver(problem, zone_pruning=True)
    found = solver.solve(WHITE)
    assert found.winner == zoned.winner
    assert solver.zone_state.table_counts[3] > 0
    assert found.nodes < zoned.nodes


def test_the_zone_table_proves_positions_by_their_zones():
    # on a problem where zones are found, lookups that repeat a zone's contents do occur
    # and the search takes fewer nodes than without
    problem = load_problem(ROOT / "sgf-problems/approach/stop-the-cutting-stone-live.sgf")
    plain = Solver(problem).solve(WHITE)
    solver = Solver(problem, zone_table=True)
    found = solver.solve(WHITE)
    zones, hits, stores, _ = solver.zone_state.table_counts
    assert found.winner == plain.winner
    assert zones > 0 and hits > 0 and stores > 0
    assert found.nodes < plain.nodes


@pytest.mark.parametrize("defender", [BLACK, WHITE])
def test_a_pass_alive_target_has_its_blocks_and_eyes_as_zone(defender):
    # two real eyes on the left; the open points on the right do not matter
    problem = written_problem([".@.@.O...", "@@@@.O...", "OOOOOO..."], defender)
    solver = Solver(problem, relevance_zones=True)
    verdict = solver.solve(3 - defender)
    assert verdict.winner == defender
    zone = solver.root_zone()
    assert zone is not None
    assert {(0, 0), (2, 0), (1, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1)} <= set(zone)
    assert (4, 0) not in zone and (4, 1) not in zone


@pytest.mark.parametrize("defender", [BLACK, WHITE])
def test_a_target_in_atari_is_captured_with_a_zone_of_its_block_and_neighbours(defender):
    # the target in atari at a1's right; the points far from it play no part
    problem = written_problem(["@.X..O...", "OOOOOO..."], defender)
    # the race count settles it at once, and its claims have no zone of their own yet
    assert Solver(problem, relevance_zones=True).solve(3 - defender).nodes == 1
    solver = Solver(problem, relevance_zones=True, race=False)
    verdict = solver.solve(3 - defender)
    assert verdict.winner == 3 - defender and verdict.move == (1, 0)
    assert solver.root_zone() == [(0, 0), (1, 0)]     # the wall below is outside the universe


def test_positions_changed_outside_a_proved_zone_keep_their_winner():
    rng = random.Random(7)
    zoned = variants = 0
    for path in PROBLEMS[::8]:
        problem = load_problem(path)
        for color in (BLACK, WHITE):
            for ko_master in KO_MASTERS:
                for cells in positions(problem, color, rng, below=2, walks=2):
                    row = check(problem, color, ko_master, cells, 2, rng, 20_000)
                    assert row["mismatches"] == [], (path.name, color, ko_master)
                    zoned += row["zone"] is not None
                    variants += row["variants"]
    # the check is not vacuous: zones smaller than the universe were found and re-solved
    assert zoned >= 20 and variants >= 40, (zoned, variants)


def test_zones_found_while_pruning_keep_their_winner():
    # the same check with the zoned search pruning: its zones rest on moves it never
    # searched, and each position's own verdict is the plain search's too
    rng = random.Random(11)
    zoned = variants = 0
    for path in PROBLEMS[4::10]:
        problem = load_problem(path)
        for color in (BLACK, WHITE):
            for ko_master in KO_MASTERS:
                for cells in positions(problem, color, rng, below=1, walks=2):
                    row = check(problem, color, ko_master, cells, 2, rng, 20_000, pruning=True)
                    assert row["mismatches"] == [], (path.name, color, ko_master)
                    zoned += row["zone"] is not None
                    variants += row["variants"]
    assert zoned >= 15 and variants >= 30, (zoned, variants)
