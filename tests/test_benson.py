"""Static life (solver.life): Benson's pass-alive check on written and random positions.

Each written position is read in its eight orientations and with the colours
swapped; the kernel is also checked against a plain-Python Benson on random
positions reached by random play inside the search area, and the searches
must agree that a pass-alive target lives.
"""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE, ProblemError, Solver
from solver.board import EMPTY
from solver.life import _candidate_eyes
from solver.movegen import (C_CELLS, C_IN_AREA, C_MARK, C_META, C_MOVES, C_STACK, C_STRIDE, C_TARGET,
                            generate_moves, target_lives)
from solver.problem import Problem, _check_legal
from solver.rules import NO_MOVE

SIZE = 9

# 'X' defender, '@' the target (a defender stone), 'O' attacker, '.' empty;
# rows from the top, the rest of the 9×9 board empty.  Each wall of 'O' has
# liberties outside the search area.  (name, rows, pass-alive)
POSITIONS = [
    ("two eyes in the corner, a third point touching the wall", [
        ".X.X.O",
        "XX@XXO",
        "OOOOOO",
    ], True),
    ("two eyes on the edge", [
        "..OX.X.XO",
        "..OXX@XXO",
        "..OOOOOOO",
    ], True),
    ("two eyes in the middle of the board", [
        ".......",
        ".OOOOO.",
        ".OX@XO.",
        ".OX.XO.",
        ".OXXXO.",
        ".OX.XO.",
        ".OXXXO.",
        ".OOOOO.",
    ], True),
    ("two eyes, one of them two points", [
        "..X.XO",
        "X@XXXO",
        "XXOOOO",
        "OOO...",
    ], True),
    ("two blocks sharing their three eyes", [
        ".X.XO",
        "X.XXO",
        "@XXOO",
        "OOOO.",
    ], True),
    ("an attacker stone inside an eye whose empty points all touch the block", [
        ".XO.XO",
        "X@XXXO",
        "XXOOOO",
        "OOO...",
    ], True),
    ("one eye and a false eye on the edge", [
        "X.X.XO",
        "XOX@XO",
        "XOOOOO",
        "OO....",
    ], False),
    ("one eye, and an eye shared with a block whose other eye is shared with a block in atari", [
        ".X.X.XO",
        "X@XOXXO",
        "OOOOOOO",
    ], False),
    ("seki: two liberties shared with an attacker block", [
        ".OO.XO",
        "XX@XXO",
        "OOOOOO",
    ], False),
    ("a big eye with inside points the block does not touch", [
        "....XO",
        "....XO",
        "..O.XO",
        "XXXXXO",
        "X.X@XO",
        "XXXXXO",
        "OOOOOO",
    ], False),
    ("an eye beside the wall is not vital", [
        ".X.O",
        "XX@O",
        "OOOO",
    ], False),
]


def parse(rows, defender=BLACK):
    """(stones, target) of a written position; ``defender`` the colour of X and @."""
    attacker = 3 - defender
    stones = np.zeros((SIZE, SIZE), dtype=np.int8)
    target = None
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            stones[y, x] = {".": EMPTY, "X": defender, "@": defender, "O": attacker}[ch]
            if ch == "@":
                target = (x, y)
    return stones, target


def solver_for(stones, target, to_play=BLACK) -> Solver:
    problem = Problem("written", SIZE, np.ascontiguousarray(stones), target, to_play)
    _check_legal(problem)
    return Solver(problem)


def orientations(rows):
    """Every orientation and colour of a written position: (stones, target)."""
    for defender in (BLACK, WHITE):
        stones, (x, y) = parse(rows, defender)
        for symmetry in range(8):
            yield transform(stones, symmetry), transform_point(x, y, symmetry, SIZE)


def in_area_points(solver: Solver) -> set[tuple[int, int]]:
    """The search area with the target block's stones: where the static check looks."""
    points = set(solver.area.points)
    x, y = solver.problem.target
    return points | set(solver.board.block(x, y))


def reference_pass_alive(stones: np.ndarray, target, area: set) -> bool:
    """Benson's algorithm written out plainly over ``stones`` [y, x], restricted to ``area``."""
    size = stones.shape[0]
    defender = int(stones[target[1], target[0]])

    def neighbours(x, y):
        for u, v in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= u < size and 0 <= v < size:
                yield u, v

    def component(start, accept):
        seen, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for q in neighbours(*p):
                if q not in seen and q in area and accept(q):
                    seen.add(q)
                    todo.append(q)
        return seen

    is_defender = lambda p: stones[p[1], p[0]] == defender   # noqa: E731
    block_of, blocks = {}, []
    for p in sorted(area):
        if is_defender(p) and p not in block_of:
            block = component(p, is_defender)
            for q in block:
                block_of[q] = len(blocks)
            blocks.append(block)
    regions, seen = [], set()
    for p in sorted(area):
        if not is_defender(p) and p not in seen:
            region = component(p, lambda q: not is_defender(q))
            seen |= region
            enclosed = all(q in area for r in region for q in neighbours(*r))
            bordering = {block_of[q] for r in region for q in neighbours(*r) if q in block_of}
            empties = [r for r in region if stones[r[1], r[0]] == EMPTY]
            vital = set()
            if enclosed and empties:
                vital = {b for b in bordering
                         if all(any(block_of.get(q) == b for q in neighbours(*e)) for e in empties)}
            regions.append((bordering, vital))
    kept = set(range(len(blocks)))
    while True:
        healthy = [vital for bordering, vital in regions if bordering <= kept]
        still = {b for b in kept if sum(b in vital for vital in healthy) >= 2}
        if still == kept:
            break
        kept = still
    return block_of[target] in kept


@pytest.mark.parametrize("name, rows, alive", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_written_position_in_every_orientation_and_colour(name, rows, alive):
    for stones, target in orientations(rows):
        solver = solver_for(stones, target)
        assert target_lives(solver.context) == alive
        assert reference_pass_alive(stones, target, in_area_points(solver)) == alive


@pytest.mark.parametrize("name, rows, alive", [p for p in POSITIONS if p[2]], ids=[p[0] for p in POSITIONS if p[2]])
def test_a_pass_alive_target_lives_whoever_starts(name, rows, alive):
    stones, target = parse(rows)
    for algo in ("dfs", "dfpn"):
        for to_play in (BLACK, WHITE):
            for ko_master in ("attacker", "defender"):
                verdict = solver_for(stones, target).solve(to_play, ko_master=ko_master, algo=algo)
                assert verdict.status == "safe"


def test_a_defender_move_that_makes_life_is_the_only_move_generated():
    # a three-point eye space: the middle point makes two eyes
    stones, target = parse([
        "...XO",
        "X@XXO",
        "OOOOO",
    ])
    solver = solver_for(stones, target)
    count, _ = generate_moves(solver.context, BLACK, 0, 0, NO_MOVE)
    assert count == 1
    assert solver.board.xy(int(solver.context[C_MOVES][0][0])) == (1, 0)
    assert solver.solve(BLACK).move == (1, 0)
    assert solver.solve(WHITE).status == "unsafe"
    count, _ = generate_moves(solver.context, WHITE, 0, 0, NO_MOVE)
    assert count == 4   # the attacker's three moves and a pass


def random_pockets(rng, count, heights=(2, 6), fill="..XXXO"):
    """Corner pockets walled by a two-line attacker band, filled at random (as in test_symmetry):
    ``heights`` the range of their rows, ``fill`` the odds of each inside point ('.' empty,
    'X' defender, 'O' attacker)."""
    for _ in range(count):
        w, h = int(rng.integers(3, 7)), int(rng.integers(*heights))
        defender = int(rng.choice([BLACK, WHITE]))
        attacker = 3 - defender
        stones = np.zeros((SIZE, SIZE), dtype=np.int8)
        for y in range(h + 2):
            for x in range(w + 2):
                if x >= w or y >= h:
                    stones[y, x] = attacker
        inside = rng.choice([{".": EMPTY, "X": defender, "O": attacker}[c] for c in fill], size=w * h)
        for i, c in enumerate(inside):
            stones[i // w, i % w] = c
        tx, ty = int(rng.integers(0, w)), int(rng.integers(0, h))
        stones[ty, tx] = defender
        yield stones, (tx, ty)


def random_walks(rng, count, steps=12):
    """Random pockets and a random walk of legal moves in each one's search area (captures
    included): (solver, target, area) at every step, read before the walk goes on."""
    for stones, target in random_pockets(rng, count):
        try:
            solver = solver_for(stones, target)
        except ProblemError:
            continue
        area = in_area_points(solver)
        for _ in range(steps):
            yield solver, target, area
            moves = solver.moves()
            order = rng.permutation(len(moves))
            color = int(rng.choice([BLACK, WHITE]))
            if not any(solver.play(*moves[i], color) for i in order) or solver.target_captured():
                break


def test_kernel_agrees_with_the_plain_benson_on_random_positions():
    checked = alive = 0
    for solver, target, area in random_walks(np.random.default_rng(7), 600):
        position = solver.board.to_array()
        got = target_lives(solver.context)
        assert got == reference_pass_alive(position, target, area), (position, target)
        checked += 1
        alive += got
    assert checked > 2000
    assert alive > 100


def reference_candidate_eyes(stones: np.ndarray, target, area: set) -> int:
    """The regions beside the target block, within ``area``, that are enclosed and whose
    empty points all touch the block, counted plainly (life._candidate_eyes's filter)."""
    size = stones.shape[0]
    defender = int(stones[target[1], target[0]])

    def neighbours(x, y):
        return [(u, v) for u, v in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if 0 <= u < size and 0 <= v < size]

    def color(p):
        return int(stones[p[1], p[0]])

    block, todo = {tuple(target)}, [tuple(target)]
    while todo:
        for q in neighbours(*todo.pop()):
            if q not in block and color(q) == defender:
                block.add(q)
                todo.append(q)
    starts = {q for p in block for q in neighbours(*p) if color(q) != defender and q in area}
    seen, found = set(), 0
    for start in starts:
        if start in seen:
            continue
        region, todo = {start}, [start]
        while todo:
            for q in neighbours(*todo.pop()):
                if q in area and color(q) != defender and q not in region:
                    region.add(q)
                    todo.append(q)
        seen |= region
        enclosed = all(q in area for p in region for q in neighbours(*p))
        touching = all(any(q in block for q in neighbours(*p)) for p in region if color(p) == EMPTY)
        found += enclosed and touching
    return found


def test_the_candidate_eyes_filter_counts_as_a_plain_flood_does():
    # the filter stops a region's flood at its first point that rules it out, and a later
    # flood meeting such a region's points stops too: the count must not change
    checked = with_candidates = 0
    for solver, target, area in random_walks(np.random.default_rng(11), 400):
        context = solver.context
        expected = reference_candidate_eyes(solver.board.to_array(), target, area)
        got = _candidate_eyes(context[C_CELLS], context[C_STRIDE], context[C_IN_AREA], context[C_MARK],
                              context[C_META], context[C_STACK], context[C_TARGET], 64)
        assert got == expected, (solver.board.to_array().tolist(), target)
        checked += 1
        with_candidates += got >= 2
    assert checked > 1500
    assert with_candidates > 100
