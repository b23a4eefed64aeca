"""df-pn's first numbers at other costs (``Solver(first_numbers=...)``): the order and the
effort change, the verdicts never do.  The own problems, each side first, each ko master."""
from __future__ import annotations

import itertools

from solver import BLACK, WHITE, Solver
from solver.dfpn import LIBERTY_COST, RANK_COST
from tests.test_race import _own_problems


def test_other_costs_change_the_nodes_never_the_verdict():
    settled = moved = 0
    problems = _own_problems()
    for problem in problems:
        for side, ko_master in itertools.product((BLACK, WHITE), ("attacker", "defender")):
            verdicts = [Solver(problem, first_numbers=costs).solve(side, ko_master=ko_master, algo="dfpn",
                                                                     max_nodes=300_000)
                        for costs in ((RANK_COST, LIBERTY_COST), (RANK_COST // 4, LIBERTY_COST * 4),
                                      (RANK_COST * 4, LIBERTY_COST // 4))]
            winners = {v.winner for v in verdicts} - {None}
            assert len(winners) <= 1, (problem.source, side, ko_master, [v.winner for v in verdicts])
            settled += all(v.winner is not None for v in verdicts)
            moved += len({v.nodes for v in verdicts}) > 1
    # the costs reach the search (the node counts move), and the cases are settled, not skipped
    assert settled >= 4 * len(problems) - 8 and moved >= 2 * len(problems), (settled, moved)


def test_the_default_costs_are_the_constants():
    solver = Solver(_own_problems()[0])
    assert list(solver.context.search_options[5:7]) == [RANK_COST, LIBERTY_COST]
