"""df-pn's first numbers at other costs (``Solver(first_numbers=...)``, ``eye_space_cost``):
the order and the effort change, the verdicts never do.  The own problems, each side first,
each ko master; the eye space's count on a written position."""
from __future__ import annotations

import itertools

from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE, Solver
from solver.dfpn import EYE_SPACE_COST, LIBERTY_COST, RANK_COST
from solver.eye_space import interior_taken, mark_interior
from tests.test_race import SIZE, _own_problems, _parse, _solver


def _same_winners(problems, options: list[dict]) -> tuple[int, int]:
    """Each own problem, side first and ko master solved by df-pn under each of ``options``
    (Solver keywords): the winners agree.  Returns (cases settled every way, cases whose
    node counts differ)."""
    settled = moved = 0
    for problem in problems:
        for side, ko_master in itertools.product((BLACK, WHITE), ("attacker", "defender")):
            verdicts = [Solver(problem, **kw).solve(side, ko_master=ko_master, algo="dfpn", max_nodes=300_000)
                        for kw in options]
            winners = {v.winner for v in verdicts} - {None}
            assert len(winners) <= 1, (problem.source, side, ko_master, [v.winner for v in verdicts])
            settled += all(v.winner is not None for v in verdicts)
            moved += len({v.nodes for v in verdicts}) > 1
    return settled, moved


def test_other_costs_change_the_nodes_never_the_verdict():
    problems = _own_problems()
    settled, moved = _same_winners(problems, [
        {"first_numbers": costs} for costs in ((RANK_COST, LIBERTY_COST), (RANK_COST // 4, LIBERTY_COST * 4),
                                               (RANK_COST * 4, LIBERTY_COST // 4))])
    # the costs reach the search (the node counts move), and the cases are settled, not skipped
    assert settled >= 4 * len(problems) - 8 and moved >= 2 * len(problems), (settled, moved)


def test_the_default_costs_are_the_constants():
    solver = Solver(_own_problems()[0])
    assert list(solver.context.search_options[5:7]) == [RANK_COST, LIBERTY_COST]


def test_eye_space_changes_the_nodes_never_the_verdict():
    """Tsumego Explorer's evaluation (solver.eye_space) in the first numbers, on and off."""
    problems = _own_problems()
    settled, moved = _same_winners(problems, [{"eye_space_cost": cost} for cost in (0, EYE_SPACE_COST)])
    assert settled >= 4 * len(problems) - 8 and moved >= len(problems), (settled, moved)


# X defender, @ target, O attacker: the interior is the two points on the left (the one
# beside the attacker's stone is not); (point, by the attacker, points taken)
EYE_SPACE_ROWS = ["..X@.O",
                  "XXXXOO",
                  "OOOOO."]
TAKEN = [((1, 0), True, 2), ((1, 0), False, 1), ((0, 0), True, 2), ((4, 0), True, 0), ((4, 0), False, 0)]


def test_the_interior_and_what_a_stone_takes_in_every_orientation_and_colour():
    for defender in (BLACK, WHITE):
        stones, (tx, ty) = _parse(EYE_SPACE_ROWS, defender)
        for symmetry in range(8):
            solver = _solver(transform(stones, symmetry), transform_point(tx, ty, symmetry, SIZE))
            stamp, interior = mark_interior(solver.context)
            assert interior == 2, (defender, symmetry)
            for (x, y), by_attacker, taken in TAKEN:
                p = solver.board.point(*transform_point(x, y, symmetry, SIZE))
                assert interior_taken(solver.context, stamp, p, by_attacker) == taken, (x, y, by_attacker, symmetry)
