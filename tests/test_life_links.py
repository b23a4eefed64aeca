"""Static life with links (solver.life, "Links") against a plain-Python reading and plain search.

A block *linked* to the target shares two of its liberties that touch no third
block; static life then counts it as the target's.  The kernel is checked against
the rule written out plainly on random positions, and every position where links
prove life that Benson alone does not is solved again with links off, each side to
move, both ko masters: the defender must win.  Whole solves agree on and off.
"""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE, Solver
from solver.board import EMPTY
from solver.life import _candidate_eyes
from solver.movegen import C_CELLS, C_IN_AREA, C_LABELS, C_MARK, C_META, C_STACK, C_STRIDE, C_TARGET, target_lives
from solver.problem import Problem, _check_legal
from tests.test_benson import SIZE, in_area_points, parse, random_walks
from tests.test_race import _own_problems

BUDGET = 1_000_000

# rows as in tests/test_benson ('X' defender, '@' target, 'O' attacker); (name, rows, alive by links)
WRITTEN = [
    ("two blocks joined by a diagonal, an eye each", [
        ".X.X.XO",
        "XX.@XXO",
        "OOOOOOO",
    ], True),
    ("the diagonal's second point taken", [
        ".X.X.XO",
        "XXO@XXO",
        "OOOOOOO",
    ], False),
    ("an eyeless target linked to two blocks with an eye each", [
        ".X.@.X.XO",
        "XX.X.XXXO",
        "OOOOOOOOO",
    ], True),
    ("one eye only, the other block eyeless", [
        ".X.XXXO",
        "XX.@XXO",
        "OOOOOOO",
    ], False),
]


def _solver(stones, target, links=True) -> Solver:
    problem = Problem("written", SIZE, np.ascontiguousarray(stones), target, BLACK)
    _check_legal(problem)
    return Solver(problem, life_links=links)


def reference(stones: np.ndarray, target, area: set) -> tuple[bool, int]:
    """(alive by links, candidate eyes) written out plainly: Benson's algorithm over ``area``
    with the blocks linked to the target's counted as its block and no region holding a
    link point vital; the candidates: regions beside that block, enclosed, every empty
    point touching it, no link point in them (life._candidate_eyes's count)."""
    defender = int(stones[target[1], target[0]])

    def neighbours(x, y):
        return [(u, v) for u, v in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if 0 <= u < SIZE and 0 <= v < SIZE]

    def color(p):
        return int(stones[p[1], p[0]])

    def component(start, accept):
        seen, todo = {start}, [start]
        while todo:
            for q in neighbours(*todo.pop()):
                if q not in seen and q in area and accept(q):
                    seen.add(q)
                    todo.append(q)
        return seen

    block_of, blocks = {}, []
    for p in [tuple(target)] + sorted(area):
        if color(p) == defender and p not in block_of:
            for q in component(p, lambda q: color(q) == defender):
                block_of[q] = len(blocks)
            blocks.append(p)
    shared, links = {}, {}
    for p in area:
        near = [q for q in neighbours(*p) if color(q) == defender]
        if color(p) != EMPTY or any(q not in area for q in near):
            continue
        others = {block_of[q] for q in near} - {0}
        if 0 in {block_of[q] for q in near} and len(others) == 1:
            (b,) = others
            shared.setdefault(b, []).append(p)
    link_points = {p for b, points in shared.items() if len(points) >= 2 for p in points}
    linked = {b for b, points in shared.items() if len(points) >= 2}
    block_of = {q: 0 if b in linked else b for q, b in block_of.items()}
    regions, seen, candidates = [], set(), 0
    for p in sorted(area):
        if color(p) == defender or p in seen:
            continue
        region = component(p, lambda q: color(q) != defender)
        seen |= region
        enclosed = all(q in area for r in region for q in neighbours(*r)) and not region & link_points
        bordering = {block_of[q] for r in region for q in neighbours(*r) if q in block_of}
        empties = [r for r in region if color(r) == EMPTY]
        touching = lambda b: all(any(block_of.get(q) == b for q in neighbours(*e)) for e in empties)  # noqa: E731
        vital = {b for b in bordering if touching(b)} if enclosed and empties else set()
        candidates += enclosed and 0 in bordering and touching(0)
        regions.append((bordering, vital))
    kept = set(range(len(blocks)))
    while True:
        still = {b for b in kept if sum(b in v for bordering, v in regions if bordering <= kept) >= 2}
        if still == kept:
            return 0 in kept, candidates
        kept = still


def _defender_wins_plainly(solver: Solver) -> str | None:
    """Why plain search (links off) does not give the defender the win, or None."""
    links = solver.context.race[3]
    solver.context.race[3] = 0
    try:
        for side in (BLACK, WHITE):
            for ko_master in ("attacker", "defender"):
                verdict = solver.solve(side, ko_master=ko_master, max_nodes=BUDGET, table=solver.new_table("dfs", 12))
                if verdict.winner != solver.defender:
                    return f"{side} first, {ko_master} ko master: {verdict.status}"
        return None
    finally:
        solver.context.race[3] = links


@pytest.mark.parametrize("name, rows, alive", WRITTEN, ids=[w[0] for w in WRITTEN])
def test_written_positions_in_every_orientation_and_colour(name, rows, alive):
    for defender in (BLACK, WHITE):
        stones, (x, y) = parse(rows, defender)
        for symmetry in range(8):
            position, target = transform(stones, symmetry), transform_point(x, y, symmetry, SIZE)
            solver = _solver(position, target)
            assert target_lives(solver.context) == alive, (name, defender, symmetry)
            assert not target_lives(_solver(position, target, links=False).context)
            assert reference(position, target, in_area_points(solver))[0] == alive
            if alive:
                assert _defender_wins_plainly(solver) is None, (name, defender, symmetry)


def test_kernel_agrees_with_the_plain_rule_and_every_claim_with_plain_search():
    checked = claims = 0
    wrong = []
    # pockets dense with the defender's stones, where links are met often enough
    for solver, target, area in random_walks(np.random.default_rng(17), 6000, steps=8, fill="...XXXX"):
        position = solver.board.to_array()
        context = solver.context
        context.race[3] = 1     # the walks' solvers are Benson's alone
        alive, candidates = reference(position, target, area)
        assert target_lives(context) == alive, (position.tolist(), target)
        got = _candidate_eyes(context[C_CELLS], context[C_STRIDE], context[C_IN_AREA], context[C_MARK],
                              context[C_META], context[C_STACK], context[C_TARGET], 64, True, context[C_LABELS])
        assert got == candidates, (position.tolist(), target)
        checked += 1
        context.race[3] = 0
        plain = target_lives(context)
        context.race[3] = 1
        if alive and not plain:
            claims += 1
            why = _defender_wins_plainly(solver)
            if why:
                wrong.append((position.tolist(), target, why))
    assert not wrong, wrong[:3]
    assert checked > 20000 and claims >= 40, (checked, claims)


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_own_problems_agree_on_and_off(algo):
    settled = 0
    for problem in _own_problems():
        on, off = Solver(problem), Solver(problem, life_links=False)
        for side in (BLACK, WHITE):
            a = on.solve(side, algo=algo, max_nodes=BUDGET)
            b = off.solve(side, algo=algo, max_nodes=BUDGET)
            assert a.winner == b.winner or None in (a.winner, b.winner), (problem.source, side)
            settled += a.winner is not None and b.winner is not None
    assert settled >= 180
