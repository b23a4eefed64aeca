"""solve --seconds's search (pipeline.time_search): DFS for a share of the time, then df-pn with
enclose's time knowledge; the same verdicts as plain DFS, the main line stopped with the time."""
from __future__ import annotations

import json
import sys
import time
from argparse import Namespace
from pathlib import Path

import numpy as np
import pytest

from pipeline import time_search
from pipeline.enclose.question import TIME_OPTIONS
from pipeline.solve_command import search_of
from pipeline.time_search import TIME_SEARCH, solve_in_time, time_search_options
from solver import Solver, load_problem, parse_problem
from solver.principal_variation import TIME_LIMIT_ENDING

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_time_limit import EASY, HARD, OVERRUN  # noqa: E402

OWN = sorted((Path(__file__).resolve().parents[1] / "sgf-problems").glob("*/*.sgf"))[::12]


def test_the_search_is_dfs_unless_seconds_and_no_algo_name_the_time_search():
    assert search_of(Namespace(algo=None, seconds=None)) == ("dfs", {})
    assert search_of(Namespace(algo=None, seconds=10.0)) == (TIME_SEARCH, TIME_OPTIONS)
    assert search_of(Namespace(algo="dfpn", seconds=10.0)) == ("dfpn", {})
    assert search_of(Namespace(algo="dfs", seconds=None)) == ("dfs", {})
    assert time_search_options() is not TIME_OPTIONS   # a caller's edit leaves enclose's alone


@pytest.mark.parametrize("path", OWN, ids=lambda p: p.stem)
def test_dfs_reads_none_of_the_time_searchs_knowledge(path):
    """The first part of the time search is plain DFS: the same move in the same nodes."""
    problem = load_problem(path)
    for side in (1, 2):
        plain = Solver(problem).solve(side, max_nodes=2_000_000)
        knowing = Solver(problem, **time_search_options()).solve(side, max_nodes=2_000_000)
        assert (knowing.winner, knowing.move, knowing.nodes) == (plain.winner, plain.move, plain.nodes)


@pytest.mark.parametrize("side", [1, 2])
def test_a_problem_dfs_settles_in_its_share_is_answered_as_dfs_answers_it(side):
    plain = Solver(parse_problem(EASY)).solve(side)
    timed = solve_in_time(Solver(parse_problem(EASY), **time_search_options()), side,
                          cpu_until=time.thread_time() + 30)
    assert plain.winner is not None
    assert (timed.winner, timed.move, timed.nodes) == (plain.winner, plain.move, plain.nodes)


@pytest.mark.parametrize("side", [1, 2])
def test_past_dfs_s_share_df_pn_settles_it_with_the_same_winner(side, monkeypatch):
    monkeypatch.setattr(time_search, "DFS_SHARE", 0.0)   # DFS's time is over before it starts
    plain = Solver(parse_problem(EASY)).solve(side)
    solver = Solver(parse_problem(EASY), **time_search_options())
    alone = Solver(parse_problem(EASY), **time_search_options()).solve(side, algo="dfpn")
    timed = solve_in_time(solver, side, cpu_until=time.thread_time() + 30)
    assert timed.winner == plain.winner == alone.winner
    # DFS stopped at its root counts that node
    assert timed.nodes - alone.nodes in (0, 1) and timed.move == alone.move


def test_without_a_time_limit_it_is_dfs_alone():
    plain = Solver(parse_problem(EASY)).solve(1, max_nodes=1_000_000)
    timed = solve_in_time(Solver(parse_problem(EASY), **time_search_options()), 1, max_nodes=1_000_000)
    assert (timed.winner, timed.move, timed.nodes) == (plain.winner, plain.move, plain.nodes)


def test_a_long_time_search_stops_near_its_limit_unsettled():
    solver = Solver(parse_problem(HARD), **time_search_options())
    for algo in ("dfs", "dfpn"):   # both compiled before the clock starts
        solver.solve(1, algo=algo, max_nodes=1000)
    solver = Solver(parse_problem(HARD), **time_search_options())
    started = time.thread_time()
    verdict = solve_in_time(solver, 1, cpu_until=started + 0.5)
    spent = time.thread_time() - started
    assert verdict.winner is None and verdict.status == "unknown"
    assert 0.5 <= spent < 0.5 + 2 * OVERRUN


def test_a_main_line_stops_at_its_time_limit_and_says_so():
    """A line whose first solve (DFS, on a cold table) cannot finish in its time."""
    solver = Solver(parse_problem(HARD))
    solver.principal_variation(1, max_nodes=1000)   # compiled before the clock starts
    solver = Solver(parse_problem(HARD))
    started = time.thread_time()
    line = solver.principal_variation(1, cpu_until=started + 0.3)
    spent = time.thread_time() - started
    assert line.winner is None and not line.complete and line.moves == []
    assert line.ended == TIME_LIMIT_ENDING == "time limit"
    assert 0.3 <= spent < 0.3 + OVERRUN


def test_a_line_without_a_first_move_is_said_so_and_claims_no_status():
    from pipeline.group_answer import GroupAnswer
    from pipeline.solve_command import add_main_line
    from solver.principal_variation import PrincipalVariation
    from solver.solver import Verdict

    problem = parse_problem(HARD)

    class Stalled:
        def principal_variation(self, color, ko_master, max_nodes, cpu_until):
            assert cpu_until is not None
            return PrincipalVariation(moves=[], stones=np.array(problem.stones), captured=False, complete=False,
                                      winner=None, nodes=10, ended="time limit")

    verdict = Verdict(to_play=1, winner=1, move=(4, 4), defender=2, nodes=10, seconds=1.0)
    answer = GroupAnswer(verdict, False, False, None, (4, 4), "defender", 10, 1.0)
    row = {"status": verdict.status}
    text = add_main_line(row, Stalled(), problem, answer, Namespace(max_nodes=0), time.thread_time())
    assert text == "  main line: none (its first solve, by DFS, ran out of time)"
    assert row["pv"] == [] and row["pv_complete"] is False
    # an answer not settled has no line to read, and says what stopped it
    unknown = Verdict(to_play=1, winner=None, move=None, defender=2, nodes=10, seconds=1.0)
    answer = GroupAnswer(unknown, False, False, None, None, "attacker", 10, 1.0, "10 s")
    text = add_main_line({"status": "unknown"}, None, problem, answer, Namespace(max_nodes=0), time.thread_time())
    assert text == "  main line: none (the solve ran out of 10 s)"


def test_solve_seconds_answers_a_small_problem_as_dfs_does(capsys):
    from cli.main import main

    path = str(OWN[0])
    assert main(["solve", "--seconds", "20", "--json", "--pv", "--no-guide", path]) == 0
    timed = json.loads(capsys.readouterr().out.splitlines()[0])
    assert main(["solve", "--algo", "dfs", "--seconds", "20", "--json", "--pv", "--no-guide", path]) == 0
    plain = json.loads(capsys.readouterr().out.splitlines()[0])
    for key in ("status", "verdict", "move", "ko", "standing", "nodes", "pv"):
        assert timed[key] == plain[key]
