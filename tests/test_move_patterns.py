"""Learned move patterns (solver.patterns): the same under the board's symmetries and a colour
swap, scored as documented, fitted from what DFS records, and never changing a verdict (that
each move's code follows it through sorting and removal: tests/test_move_generation.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE, Solver, load_problem
from solver.board import EMPTY
from solver.movegen import (C_MOVE_CODES, C_MOVES, C_SCORES, R_CHILD, R_CODE, R_COLOR, R_KO_MASTER,
                            R_LOST, R_NODE, R_OUTCOME, R_UNTRIED, R_WON, RECORD_CUTS, RECORD_EVERY, RECORD_ROWS,
                            generate_moves)
from solver.pattern_training import (NODE_STRIDE, chosen_problems, fit, heuristic_scores, labelled_moves,
                                     table_outcomes, training_half)
from solver.patterns import (CAPTURED_LEVELS, OWN_LIBS_LEVELS, PATTERN_SCALE, PATTERNS, TABLE_SIZE,
                             TARGET_LIBS_LEVELS, MovePatterns, code_fields, default_table, learned_weight,
                             move_code, neighbourhood, pattern_classes, transform_pattern)
from solver.reading import board_from_stones
from solver.rules import NO_MOVE, PASS

OWN = Path(__file__).resolve().parents[1] / "sgf-problems"
EYE_SHAPES = sorted((OWN / "eye-shapes").glob("*.sgf"))
BUDGET = 200_000


def random_patterns(seed: int) -> MovePatterns:
    rng = np.random.default_rng(seed)
    _, count = pattern_classes()
    return MovePatterns(rng.normal(0, 2, (2, count)),
                        rng.normal(0, 2, (2, CAPTURED_LEVELS, TARGET_LIBS_LEVELS, OWN_LIBS_LEVELS)))


def test_each_symmetry_permutes_the_neighbourhoods_and_keeps_their_class():
    codes = np.arange(PATTERNS)
    classes, count = pattern_classes()
    images = [transform_pattern(codes, s) for s in range(8)]
    assert len({tuple(image[:64]) for image in images}) == 8, "eight different symmetries"
    for image in images:
        assert np.unique(image).size == PATTERNS
        assert np.array_equal(classes[image], classes)
    # a class is one orbit: classes are fewer than the codes, more than an eighth of them
    assert PATTERNS / 8 < count < PATTERNS


def test_the_neighbourhood_turns_with_the_board_and_ignores_the_colours():
    rng = np.random.default_rng(3)
    size = 7
    stones = rng.choice(np.array([EMPTY, BLACK, WHITE], dtype=np.int8), size=(size, size), p=[0.5, 0.25, 0.25])
    board = board_from_stones(stones)
    points = [(x, y) for y in range(size) for x in range(size)]
    codes = {(x, y, c): neighbourhood(board.cells, board.point(x, y), board.stride, c)
             for x, y in points for c in (BLACK, WHITE)}
    swapped = board_from_stones(np.where(stones > 0, 3 - stones, 0).astype(np.int8))
    for x, y in points:
        assert neighbourhood(swapped.cells, swapped.point(x, y), swapped.stride, WHITE) == codes[x, y, BLACK]
    for symmetry in range(8):
        turned = board_from_stones(transform(stones, symmetry))
        seen = {}
        for x, y in points:
            tx, ty = transform_point(x, y, symmetry, size)
            seen[x, y] = neighbourhood(turned.cells, turned.point(tx, ty), turned.stride, BLACK)
        # one symmetry of the neighbourhood codes maps every point's code to its image's
        matching = [s for s in range(8) if all(transform_pattern(codes[x, y, BLACK], s) == seen[x, y]
                                               for x, y in points)]
        assert matching, symmetry


def test_the_shipped_table_is_symmetric_and_whole():
    table = default_table()
    assert table.shape == (TABLE_SIZE,) and np.isfinite(table).all() and table.any()
    codes = np.arange(PATTERNS)
    for role in (0, 1):
        weights = table[role * PATTERNS:(role + 1) * PATTERNS]
        for s in range(8):
            assert np.array_equal(weights[transform_pattern(codes, s)], weights)


def test_weights_survive_a_round_trip_and_wrong_shapes_are_refused(tmp_path):
    patterns = random_patterns(0)
    patterns.save(tmp_path / "w.npz")
    again = MovePatterns.load(tmp_path / "w.npz")
    assert np.allclose(again.table(), patterns.table(), atol=1e-6)   # stored as float32
    with pytest.raises(ValueError, match="pattern weights"):
        MovePatterns(patterns.pattern_weights[:, :-1], patterns.cross_weights).table()


def ordinary_scores(solver: Solver, color: int) -> list[tuple[float, int]]:
    """(score, code) of the generated moves that neither capture the target, nor make it
    pass-alive, nor repeat a position (their score is the learned or heuristic part alone)."""
    count, _ = generate_moves(solver.context, color, 0, 0, NO_MOVE)
    out = []
    for i in range(count):
        move, score, code = (solver.context[C_MOVES][0][i], solver.context[C_SCORES][0][i],
                             solver.context[C_MOVE_CODES][0][i])
        if move != PASS and abs(score) < 1.0:
            out.append((float(score), int(code)))
    return out


def test_the_score_is_the_squashed_learned_weight_within_the_heuristics_range():
    patterns = random_patterns(1)
    table = patterns.table()
    checked = compared = 0
    for path in EYE_SHAPES:
        problem = load_problem(str(path))
        for color in (BLACK, WHITE):
            scored = ordinary_scores(Solver(problem, move_patterns=patterns), color)
            for score, code in scored:
                weight = learned_weight(table, code)
                assert score == pytest.approx(PATTERN_SCALE * weight / (1 + abs(weight)))
                assert abs(score) < PATTERN_SCALE
            checked += len(scored)
            # the same moves, in the same generation order, scored by the liberty heuristic
            # (with a record, which reads the neighbourhoods, so that the codes are whole)
            plain = ordinary_scores(Solver(problem, move_patterns=False, record_rows=2), color)
            assert [c for _, c in plain] == [c for _, c in scored]
            # without patterns or a record the neighbourhoods are not read: the codes hold
            # the effects alone, and the scores are the same
            unread = ordinary_scores(Solver(problem, move_patterns=False), color)
            assert [c for _, c in unread] == [c & ~(PATTERNS - 1) for _, c in plain]
            assert [s for s, _ in unread] == [s for s, _ in plain]
            # the fitting's copy of the heuristic scores what the move generation scored
            counted = [(s, c) for s, c in plain if code_fields(np.array([c]))["target_libs"][0] < 7]
            assert np.allclose(heuristic_scores(np.array([c for _, c in counted], dtype=np.int64)),
                               [s for s, _ in counted])
            compared += len(counted)
            if len(scored) > 1:
                assert [s for s, _ in plain] != [s for s, _ in scored]
    assert checked > 20 and compared > 20


def own_problems():
    return [load_problem(str(p)) for p in sorted(OWN.glob("*/*.sgf"))]


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_patterns_change_the_nodes_never_the_verdict(algo):
    totals = {True: 0, False: 0}
    for problem in own_problems():
        for to_play in (problem.to_play, 3 - problem.to_play):
            verdicts = {}
            for patterns in (True, False):
                verdict = Solver(problem, move_patterns=patterns).solve(to_play, algo=algo, max_nodes=BUDGET)
                assert verdict.winner is not None, (problem.source, to_play, patterns)
                verdicts[patterns] = verdict
                totals[patterns] += verdict.nodes
            case = (problem.source, to_play, algo)
            assert verdicts[True].winner == verdicts[False].winner, case
            assert (verdicts[True].move is None) == (verdicts[False].move is None), case
    assert totals[True] != totals[False]


def test_patterns_keep_the_verdicts_on_the_shared_sample(shared_problems):
    checked = 0
    for problem in shared_problems:
        plain = Solver(problem, move_patterns=False).solve(problem.to_play, max_nodes=50_000)
        if plain.winner is None:
            continue
        ordered = Solver(problem).solve(problem.to_play, max_nodes=2_000_000)
        assert ordered.winner == plain.winner, problem.source
        checked += 1
    assert checked >= 30


def recorded_solve(problem, to_play):
    solver = Solver(problem, move_patterns=False, record_rows=200_000)
    verdict = solver.solve(to_play, max_nodes=BUDGET)
    assert verdict.winner is not None
    return solver


def test_dfs_records_a_sample_of_the_nodes_it_cuts():
    rows_total = cuts_total = recorded_nodes = 0
    for path in EYE_SHAPES:
        problem = load_problem(str(path))
        for to_play in (problem.to_play, 3 - problem.to_play):
            solver = recorded_solve(problem, to_play)
            rows = solver.record[:solver.record_count[RECORD_ROWS]]
            rows_total += len(rows)
            cuts_total += solver.record_count[RECORD_CUTS]
            for node in np.unique(rows[:, R_NODE]):
                outcomes = rows[rows[:, R_NODE] == node, R_OUTCOME]
                # one move won; those before it lost; the rest were not tried
                assert (outcomes == R_WON).sum() == 1
                won = int(np.flatnonzero(outcomes == R_WON)[0])
                assert (outcomes[:won] == R_LOST).all() and (outcomes[won + 1:] == R_UNTRIED).all()
                recorded_nodes += 1
            # without a record nothing is written, though the cuts are counted
            plain = Solver(problem, move_patterns=False)
            plain.solve(to_play, max_nodes=BUDGET)
            assert plain.record_count[RECORD_ROWS] == 0 and plain.record_count[RECORD_CUTS] > 0
    assert rows_total > 0
    assert cuts_total / (4 * RECORD_EVERY) < recorded_nodes < cuts_total * 4 / RECORD_EVERY


def test_the_labels_agree_with_the_table():
    """A move that won (lost) its node is labelled 1 (0), a move not tried gets its exact
    result in the table or is left out, and where the table has a tried move's result
    exact, it is the same."""
    checked = 0
    for path in EYE_SHAPES:
        problem = load_problem(str(path))
        for to_play in (problem.to_play, 3 - problem.to_play):
            solver = recorded_solve(problem, to_play)
            rows = solver.record[:solver.record_count[RECORD_ROWS]]
            table = solver.tables["dfs"]
            known = table_outcomes(table.keys, table.values, np.ascontiguousarray(rows[:, R_CHILD]).view(np.uint64),
                                    np.ascontiguousarray(rows[:, R_COLOR]),
                                    np.ascontiguousarray(rows[:, R_KO_MASTER]))
            outcome = rows[:, R_OUTCOME]
            assert set(known[outcome == R_WON]) <= {1, -1}
            assert set(known[outcome == R_LOST]) <= {0, -1}
            expected = np.where(outcome == R_WON, 1, np.where(outcome == R_LOST, 0, known))
            nodes, codes, labels = labelled_moves(solver)
            assert np.array_equal(labels, expected[expected >= 0])
            assert np.array_equal(codes, rows[expected >= 0, R_CODE])
            checked += int((known[outcome == R_UNTRIED] >= 0).sum())
    assert checked > 0, "some moves not tried are labelled from the table"


def synthetic_rows(nodes: int, seed: int) -> np.ndarray:
    """Nodes of three moves: the one whose neighbourhood is the mover's stone above (and
    nothing else) wins, two others (empty around, the opponent above) lose."""
    rng = np.random.default_rng(seed)
    winner = move_code(1, True, 0, 3, 2, False)          # own stone above
    losers = [move_code(0, True, 0, 3, 2, False), move_code(2, True, 0, 3, 2, False)]
    rows = []
    for k in range(nodes):
        node = k + (k % 20) * 2 * NODE_STRIDE          # 20 problems, two held out
        order = rng.permutation(3)
        for j in order:
            rows.append((node, winner if j == 0 else losers[j - 1], 1 if j == 0 else 0))
    return np.array(rows, dtype=np.int64)


def test_fitting_learns_the_pattern_that_wins():
    patterns, figures = fit(synthetic_rows(2000, 0), iterations=200)
    table = patterns.table()
    assert learned_weight(table, move_code(1, True, 0, 3, 2, False)) > learned_weight(
        table, move_code(0, True, 0, 3, 2, False))
    assert figures["top_wins_held_out"] == 1.0
    # every move has the same effects, so the liberty heuristic cannot tell them apart
    assert figures["top_wins_heuristic_held_out"] == pytest.approx(1 / 3)
    assert figures["held_out_mixed_nodes"] > 0 and figures["log_loss_held_out"] < 0.2


def test_problems_are_drawn_from_the_training_half_only(tmp_path):
    names = [f"book/{n:03d}" for n in range(200)]
    entries = [{"problem": name, "outcome": "enclosed", "area": 10} for name in names]
    entries.append({"problem": "book/999", "outcome": "unsettled", "area": 10})
    (tmp_path / "enclose.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    half = [n for n in names if training_half(n)]
    assert 60 < len(half) < 140
    excluded = half[0]
    drawn = chosen_problems(tmp_path, 1000, (8, 17), {excluded}, seed=0)
    assert sorted(drawn) == sorted(str(tmp_path / f"{n}.sgf") for n in half[1:])
    assert chosen_problems(tmp_path, 1000, (11, 17), set(), seed=0) == []


def test_nothing_to_fit_is_said_not_crashed_on():
    with pytest.raises(ValueError, match="no labelled moves"):
        fit(np.zeros((0, 3), dtype=np.int64))
