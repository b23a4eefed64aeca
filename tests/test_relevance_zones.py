"""The relevance-zone prototype (research/relevance_zones.py, docs/relevance_zones.md):
its leaf zones and OR dilation on written positions, pruning and the zone table that
leave the verdicts as they were, the soundness checker finding no position that agrees
with a proved node on its zone and has another winner, and the path-safe table free of
the graph-history interaction the plain table meets on a ko."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from research.relevance_zones import PASS, Game, Search, check_zones, stored_results_contradicted
from solver import BLACK, WHITE, Solver, load_problem
from solver.board import EMPTY
from solver.problem import Problem, _check_legal

ROOT = Path(__file__).resolve().parents[1]
SIZE = 9


def written_problem(rows, defender=BLACK, target=None) -> Problem:
    """'@' the target, 'X' defender, 'O' attacker, '.' empty, rows from the top-left."""
    stones = np.zeros((SIZE, SIZE), dtype=np.int8)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            stones[y, x] = {".": EMPTY, "@": defender, "X": defender, "O": 3 - defender}[ch]
            if ch == "@" and target is None:
                target = (x, y)
    problem = Problem("written", SIZE, stones, target, defender)
    _check_legal(problem)
    return problem


def game_of(rows, defender=BLACK, target=None) -> Game:
    return Game(written_problem(rows, defender, target))


def mask(game, *points):
    return game.mask(game.board.point(x, y) for x, y in points)


# the target in atari beside a defender stone and two empty points the capture never touches
CAPTURE = ["@..X.O", "OOOOOO"]
# two real eyes beside an open region (it touches the wall: not vital)
ALIVE = [".@.@.O.", "@@@@.O.", "OOOOOO."]


@pytest.mark.parametrize("defender", [BLACK, WHITE])
def test_a_capture_leaves_the_captured_block_and_the_capturing_move(defender):
    game = game_of(["@.X..O", "OOOOOO"], defender)
    winner, zone = Search(game, "prune").solve(game.attacker)
    assert winner == game.attacker
    assert zone == mask(game, (0, 0), (1, 0))     # the target's point and the move
    assert zone != game.full


@pytest.mark.parametrize("defender", [BLACK, WHITE])
def test_a_pass_alive_target_has_its_blocks_and_vital_regions_as_zone(defender):
    game = game_of(ALIVE, defender)
    block = [(1, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1)]
    assert game.benson_zone() == mask(game, (0, 0), (2, 0), *block)
    for color in (BLACK, WHITE):
        winner, zone = Search(game, "prune").solve(color)
        assert winner == defender
        assert zone == mask(game, (0, 0), (2, 0), *block)   # the open region left out


def test_the_or_rule_gives_the_loser_block_a_liberty_in_the_zone():
    game = game_of(CAPTURE)
    move = game.board.point(2, 0)
    captured = game.play(move, game.attacker)
    assert captured == []
    # the child's zone holds the defender stone beside the move: its last liberty joins
    zone = game.or_zone(move, captured, mask(game, (3, 0)), game.attacker)
    assert zone == mask(game, (2, 0), (3, 0), (4, 0))
    # a winning pass keeps the target block and two liberties
    game.undo(move, captured)
    alive = game_of(ALIVE)
    assert alive.or_zone(PASS, [], 0, alive.defender) == mask(alive, (0, 0), (2, 0), (1, 0), (3, 0),
                                                              (0, 1), (1, 1), (2, 1), (3, 1))


OWN = ["approach/mend-the-gap-live.sgf", "approach/corner-block-live.sgf",
       "approach/outside-descent-ko.sgf", "approach/close-the-second-line-live.sgf",
       "approach/block-the-first-line-live.sgf"]


@pytest.mark.parametrize("name", OWN)
def test_pruning_leaves_the_verdicts_and_the_checker_finds_no_mismatch(name):
    problem = load_problem(ROOT / "sgf-problems" / name)
    game = Game(problem)
    start = game.snapshot()
    for color in (BLACK, WHITE):
        game.restore(start)
        plain = Search(game, "plain")
        expected, _ = plain.solve(color)
        for virtual_pass, zone_table in ((False, False), (True, False), (False, True)):
            game.restore(start)
            zones = Search(game, "zones")
            assert zones.solve(color)[0] == expected
            assert zones.stats.nodes == plain.stats.nodes      # computed, never used
            game.restore(start)
            pruned = Search(game, "prune", record=True, virtual_pass=virtual_pass, zone_table=zone_table)
            assert pruned.solve(color)[0] == expected
            game.restore(start)
            counts = check_zones(game, pruned.stats.recorded, samples=8, variants=3,
                                 rng=random.Random(5))
            assert counts["mismatches"] == []


def test_a_null_move_prunes_the_moves_outside_its_zone():
    problem = load_problem(ROOT / "sgf-problems" / "approach/corner-block-live.sgf")
    game = Game(problem)
    start = game.snapshot()
    plain = Search(game, "plain")
    expected, _ = plain.solve(problem.to_play)
    game.restore(start)
    pruned = Search(game, "prune")
    assert pruned.solve(problem.to_play)[0] == expected
    assert pruned.stats.pruned > 0
    assert pruned.stats.nodes < plain.stats.nodes


def test_the_zone_table_proves_positions_that_repeat_a_stored_zones_contents():
    problem = load_problem(ROOT / "sgf-problems" / "approach/outside-descent-ko.sgf")
    game = Game(problem)
    start = game.snapshot()
    plain = Search(game, "plain", path_safe=True)
    expected, _ = plain.solve(BLACK)
    game.restore(start)
    pruned = Search(game, "prune", path_safe=True)
    assert pruned.solve(BLACK)[0] == expected
    game.restore(start)
    table = Search(game, "prune", path_safe=True, zone_table=True)
    assert table.solve(BLACK)[0] == expected
    assert table.stats.zone_hits > 0 and table.stats.nodes < pruned.stats.nodes


def test_the_path_safe_table_is_free_of_graph_history_interaction_on_a_ko():
    """The ko problem where the plain table's reuse, blind to the path, stores results
    another path contradicts and turns the root's answer: the path-safe table stores none,
    and the plain, pruned and virtual-pass searches agree with the solver."""
    problem = load_problem(ROOT / "sgf-problems" / "ko/rectangular-six-one-liberty-ko.sgf")
    game = Game(problem)
    start = game.snapshot()
    blind = Search(game, "plain", record=True)
    blind_winner, _ = blind.solve(BLACK)
    assert stored_results_contradicted(game, blind) > 0     # the check can fail
    game.restore(start)
    safe = Search(game, "plain", record=True, path_safe=True)
    expected, _ = safe.solve(BLACK)
    assert stored_results_contradicted(game, safe) == 0
    assert blind_winner != expected
    assert expected == Solver(problem).solve(BLACK, ko_master="none", algo="dfs").winner
    for virtual_pass in (False, True):
        game.restore(start)
        pruned = Search(game, "prune", virtual_pass=virtual_pass, path_safe=True)
        assert pruned.solve(BLACK)[0] == expected
