"""The capturing-race count (solver.race) against plain search.

The count is a proof only where its preconditions hold, so every claim it
makes is checked here against the search with the count switched off: the
counting rule against a brute-force solve of the abstract race, written races
a player counts out (in their eight orientations and both colours), the
kernel's numbers against a plain-Python count, thousands of races made at
random and small enough to read to the end, and the verdicts of whole solves
with the count on and off, on generated positions, the reference problems
and the project's own problems.
"""
from __future__ import annotations

import functools
import itertools
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE, ProblemError, Solver, load_problem
from solver.board import EMPTY
from solver.dfpn import RACE_LEAD_COST
from solver.problem import Problem, _check_legal
from solver.race import NO_OPPONENT, attacker_wins_race
from tests.test_benson import random_pockets

SIZE = 9
OWN_PROBLEMS = Path(__file__).resolve().parents[1] / "sgf-problems"
BUDGET = 2_000_000


# -- the counting rule against the abstract race --------------------------------------------

@functools.lru_cache(maxsize=None)
def _abstract_attacker_to_move(x, e, s, y):
    """Can the attacker, never passing, capture T first?  ``y``: the opponent's liberties not
    shared with T.  Each side fills one liberty a move; the defender escapes by capturing the
    opponent; suicide is illegal."""
    t_libs = x + e + s
    if x > 0 and (t_libs == 1 or _abstract_defender_to_move(x - 1, e, s, y)):
        return True
    if s > 0 and (t_libs == 1 or (y + s - 1 > 0 and _abstract_defender_to_move(x, e, s - 1, y))):
        return True
    return e > 0 and t_libs == 1      # the eye is filled only as the capture


@functools.lru_cache(maxsize=None)
def _abstract_defender_to_move(x, e, s, y):
    """Does the attacker win whatever the defender does (it may also pass)?"""
    t_libs, o_libs = x + e + s, y + s
    replies = [(x, e, s, y)]                                    # a pass, or a move elsewhere
    if y > 0:
        if o_libs == 1:
            return False                                        # captures the opponent
        replies.append((x, e, s, y - 1))
    if s > 0:
        if o_libs == 1:
            return False
        if t_libs > 1:
            replies.append((x, e, s - 1, y))
    if x > 0 and t_libs > 1:
        replies.append((x - 1, e, s, y))                        # fills its own liberty
    if e > 0 and t_libs > 1:
        replies.append((x, e - 1, s, y))
    return all(_abstract_attacker_to_move(*reply) for reply in replies)


def test_the_counting_rule_is_the_abstract_race_with_one_opponent():
    checked = 0
    for x, e, s, y in itertools.product(range(9), (0, 1), range(9), range(12)):
        if x + e + s == 0 or y + s == 0:
            continue
        assert attacker_wins_race(x, e, s, y + s, True) == _abstract_attacker_to_move(x, e, s, y), (x, e, s, y)
        assert attacker_wins_race(x, e, s, y + s, False) == _abstract_defender_to_move(x, e, s, y), (x, e, s, y)
        checked += 1
    assert checked > 1500


def test_the_counting_rule_as_players_state_it():
    # three liberties each, none shared: whoever moves first wins
    assert attacker_wins_race(3, 0, 0, 3, True) and not attacker_wins_race(3, 0, 0, 3, False)
    # an eye is one more liberty to fill
    assert not attacker_wins_race(2, 1, 0, 2, True) and attacker_wins_race(2, 1, 0, 3, True)
    # no eyes, two shared liberties and one outside liberty each: seki, not a capture
    assert not attacker_wins_race(1, 0, 2, 3, True) and not attacker_wins_race(1, 0, 2, 3, False)
    # two shared liberties: without an eye the opponent needs three liberties in all, against
    # an eye five (the shared liberties count for the eye)
    assert not attacker_wins_race(0, 0, 2, 2, True) and attacker_wins_race(0, 0, 2, 3, True)
    assert not attacker_wins_race(0, 1, 2, 4, True) and attacker_wins_race(0, 1, 2, 5, True)
    # no opponent: nothing to capture, T dies
    assert attacker_wins_race(6, 1, 0, NO_OPPONENT, False)


# -- written races ----------------------------------------------------------------------

# 'X' defender, '@' the target, 'O' attacker, '.' empty; rows from the top of a 9x9 board
# whose other points are empty, so the attacker's outer stones are wall.  (name, rows,
# the count's (x, e, s, y) or None where its preconditions fail, proved with the attacker
# to move, proved with the defender to move)
WRITTEN = [
    ("no eye and nothing to capture: dead whoever moves first", [
        "X@XXO",
        "...OO",
        "OOOO.",
    ], (3, 0, 0, NO_OPPONENT), True, True),
    ("one eye and nothing to capture: an eye is one more liberty", [
        ".X@XO",
        "XXX.O",
        "OOOOO",
    ], (1, 1, 0, NO_OPPONENT), True, True),
    ("two shared liberties against three: the attacker to move wins the race", [
        ".O.XO",
        "OO.XO",
        "XX@XO",
        "OOOOO",
    ], (0, 0, 2, 3), True, False),
    ("eye against no eye: the shared liberties count for the eye", [
        ".O.X.XO",
        "OO.XXXO",
        "XX@XOOO",
        "OOOOO..",
    ], (0, 1, 2, 3), False, False),
    ("open room behind an outside liberty, every point of it beside the wall: counted in x", [
        "X@X.O",
        "OO..O",
        "OOOOO",
    ], (3, 0, 0, NO_OPPONENT), True, True),
    ("open room reaching points beside no wall stone: no count", [
        "@.OOOO",
        ".....O",
        "O....O",
        "O....O",
        "OOOOOO",
    ], None, False, False),
    ("a liberty beside another defender block: T could connect, no count", [
        "X@X.XO",
        "OOO.XO",
        "..OOOO",
    ], None, False, False),
]


def _parse(rows, defender):
    attacker = 3 - defender
    stones = np.zeros((SIZE, SIZE), dtype=np.int8)
    target = None
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            stones[y, x] = {".": EMPTY, "X": defender, "@": defender, "O": attacker}[ch]
            if ch == "@":
                target = (x, y)
    return stones, target


def _solver(stones, target, race=True) -> Solver:
    problem = Problem("race", SIZE, np.ascontiguousarray(stones), target, BLACK)
    _check_legal(problem)
    return Solver(problem, race=race)


@pytest.mark.parametrize("name, rows, numbers, first, second", WRITTEN, ids=[w[0] for w in WRITTEN])
def test_written_race_in_every_orientation_and_colour(name, rows, numbers, first, second):
    for defender in (BLACK, WHITE):
        stones, (tx, ty) = _parse(rows, defender)
        attacker = 3 - defender
        for symmetry in range(8):
            solver = _solver(transform(stones, symmetry), transform_point(tx, ty, symmetry, SIZE))
            by_attacker, by_defender = solver.race_count(attacker), solver.race_count(defender)
            if numbers is not None:
                assert (by_attacker.x, by_attacker.e, by_attacker.s, by_attacker.y) == numbers, name
            assert by_attacker.proved == first and by_defender.proved == second, (name, defender, symmetry)
            plain = _solver(transform(stones, symmetry), transform_point(tx, ty, symmetry, SIZE), race=False)
            if first:
                assert plain.solve(attacker).winner == attacker
            if second:
                assert plain.solve(defender).winner == attacker


# -- races made at random ---------------------------------------------------------------

def _pockets(rng, count):
    """Corner pockets walled by a two-line attacker band, as many attacker stones inside as
    defender ones."""
    return random_pockets(rng, count, heights=(2, 5), fill="..XXOO")


def _walled_corner(rng, widths, height, right, below):
    """A width drawn from ``widths`` (low, high), a defender colour drawn, and a board whose
    open top-left corner of width × ``height`` points is walled by ``right`` columns of
    attacker stones beside it and ``below`` rows under it: (width, defender, attacker, stones)."""
    w = int(rng.integers(*widths))
    defender = int(rng.choice([BLACK, WHITE]))
    attacker = 3 - defender
    stones = np.zeros((SIZE, SIZE), dtype=np.int8)
    stones[:height + below, :w + right] = attacker
    stones[:height, :w] = EMPTY
    return w, defender, attacker, stones


def _races(rng, count):
    """A defender block and an attacker block side by side on the second line of a walled
    corner strip, the first and third lines filled at random."""
    for _ in range(count):
        w, defender, attacker, stones = _walled_corner(rng, (4, 8), 3, right=2, below=2)
        k = int(rng.integers(1, w))
        stones[1, :w] = [defender if x < k else attacker for x in range(w)]
        for y in (0, 2):
            stones[y, :w] = rng.choice([EMPTY, EMPTY, EMPTY, defender, attacker], size=w)
        yield stones, (0, 1)


def _room_races(rng, count):
    """A defender block beside an attacker block on the second line of a walled corner strip,
    with open room under the defender's block (the third and fourth lines, walled off from
    the attacker block's side by a column of wall stones) and the first line and the lines
    under the attacker block filled at random."""
    for _ in range(count):
        w, defender, attacker, stones = _walled_corner(rng, (6, 9), 4, right=1, below=2)
        k = int(rng.integers(3, w - 1))
        stones[0, :w] = rng.choice([EMPTY, EMPTY, EMPTY, defender, attacker], size=w)
        stones[1, :k] = defender
        stones[1, k:w - 1] = attacker
        stones[2:4, k - 1] = attacker
        stones[2, :k - 1] = rng.choice([EMPTY, EMPTY, EMPTY, attacker], size=k - 1)
        stones[3, :k - 1] = rng.choice([EMPTY, EMPTY, attacker], size=k - 1)
        stones[2, k:w] = rng.choice([EMPTY, EMPTY, defender], size=w - k)
        stones[3, k:w] = rng.choice([EMPTY, defender, attacker], size=w - k)
        yield stones, (0, 1)


def _deep_rooms(rng, count):
    """A defender block on the first line of a walled corner strip, three lines of room under
    it, mostly open, so that some of the room is beside no wall stone."""
    for _ in range(count):
        w, defender, attacker, stones = _walled_corner(rng, (4, 8), 4, right=1, below=2)
        k = int(rng.integers(2, w))
        stones[0, :k] = defender
        stones[0, k:w] = rng.choice([EMPTY, attacker], size=w - k)
        stones[1:4, :w] = rng.choice([EMPTY, EMPTY, attacker], size=(3, w))
        yield stones, (0, 0)


def _positions(rng, stones, target):
    """The position and those after a few random moves inside its search area."""
    try:
        _check_legal(Problem("race", SIZE, stones, target, BLACK))
        solver = _solver(stones, target)
    except ProblemError:
        return
    yield stones
    for _ in range(3):
        played = 0
        for _ in range(int(rng.integers(1, 8))):
            moves = solver.moves()
            if not moves:
                break
            if solver.play(*moves[int(rng.integers(len(moves)))], int(rng.choice([BLACK, WHITE]))):
                played += 1
                if solver.target_captured():
                    solver.take_back()
                    played -= 1
                    break
        yield solver.board.to_array()
        for _ in range(played):
            solver.take_back()


def _reference_count(stones, safe, target, attacker_to_move):
    """The count written out plainly (solver.race's preconditions and rule, at the root of a
    solve): (proved, x, e, s, y, blocks), the numbers -1 where a precondition fails."""
    size = stones.shape[0]
    defender = int(stones[target[1], target[0]])
    attacker = 3 - defender

    def neighbours(p):
        x, y = p
        return [(u, v) for u, v in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if 0 <= u < size and 0 <= v < size]

    def color(p):
        return int(stones[p[1], p[0]])

    def block(p):
        seen, todo = {p}, [p]
        while todo:
            for q in neighbours(todo.pop()):
                if q not in seen and color(q) == color(p):
                    seen.add(q)
                    todo.append(q)
        return frozenset(seen)

    def liberties(stones_of):
        return {q for r in stones_of for q in neighbours(r) if color(q) == EMPTY}

    t = block(target)
    group = [t]                       # T, then every defender block beside a liberty of the group
    while True:
        stones_of = set().union(*group)
        more = {block(u) for q in liberties(stones_of) for u in neighbours(q)
                if color(u) == defender and u not in stones_of}
        if not more:
            break
        group += sorted(more, key=min)
    libs = liberties(stones_of)
    is_wall = lambda b: any(safe[y, x] for x, y in b)   # noqa: E731
    opponents = {block(q) for r in stones_of for q in neighbours(r)
                 if color(q) == attacker and not is_wall(block(q))}
    opponent_stones = set().union(*opponents) if opponents else set()
    failed = (False, -1, -1, -1, -1, -1, -1)
    x = e = s = 0
    room_seeds = []
    for p in libs:
        near = neighbours(p)
        beyond = [q for q in near if color(q) == EMPTY and q not in libs]
        attackers = [q for q in near if color(q) == attacker]
        if any(q not in opponent_stones and not is_wall(block(q)) for q in attackers):
            return failed
        if any(q in opponent_stones for q in attackers):
            if beyond:
                return failed
            s += 1
        elif attackers:
            x += 1
            room_seeds += beyond
        elif all(color(q) == defender for q in near):
            e += 1
        else:
            return failed
    if e > 1:
        return failed
    # the room: open points reached from the outside liberties through open points, each
    # beside a wall stone and beside no stone but the wall's
    room, todo = set(), room_seeds
    while todo:
        u = todo.pop()
        if u not in room:
            room.add(u)
            todo += [q for q in neighbours(u) if color(q) == EMPTY and q not in libs]
    for u in room:
        near = neighbours(u)
        attackers = [q for q in near if color(q) == attacker]
        if any(color(q) == defender for q in near) or not attackers:
            return failed
        if any(not is_wall(block(q)) for q in attackers):
            return failed
    x += len(room)
    y = min((len(liberties(b)) for b in opponents), default=NO_OPPONENT)
    return (attacker_wins_race(x, e, s, y, attacker_to_move, len(group) > 1 or bool(room)), x, e, s, y,
            len(group), len(room))


def _kind(count) -> str:
    opponents = "no opponent" if count.y == NO_OPPONENT else ("shared" if count.s else "opponent")
    group = ", connected" if count.blocks > 1 else ""
    room = ", room" if count.room > 0 else ""
    return f"{opponents}, {'eye' if count.e else 'no eye'}{group}{room}"


@functools.lru_cache(maxsize=1)
def _random_claims():
    """Every claim of the count on the random positions, checked against the search without it:
    (claims by kind and side, disagreements, positions whose count differs from the plain
    one's, positions counted)."""
    rng = np.random.default_rng(2026)
    claims, wrong, unlike, counted = Counter(), [], [], 0
    sources = itertools.chain(_pockets(rng, 1200), _races(rng, 1200), _room_races(rng, 600),
                              _deep_rooms(rng, 600))
    for stones, target in sources:
        for position in _positions(rng, np.ascontiguousarray(stones), target):
            try:
                plain = _solver(position, target, race=False)
            except ProblemError:
                continue
            attacker = plain.problem.attacker
            safe = plain.area.safe
            for side in (BLACK, WHITE):
                count = plain.race_count(side)
                counted += 1
                numbers = (count.proved, count.x, count.e, count.s, count.y, count.blocks, count.room)
                if numbers != _reference_count(position, safe, target, side == attacker):
                    unlike.append((position.tolist(), target, side, numbers))
                if not count.proved:
                    continue
                claims[(_kind(count), "attacker" if side == attacker else "defender")] += 1
                if plain.solve(side, max_nodes=BUDGET).winner != attacker:
                    wrong.append((position.tolist(), target, side, "verdict"))
                elif side == attacker:
                    # the count's move wins too
                    assert plain.play(*count.move, side)
                    if not plain.target_captured() and plain.solve(3 - side, max_nodes=BUDGET).winner != attacker:
                        wrong.append((position.tolist(), target, side, "move"))
                    plain.take_back()
    return claims, wrong, unlike, counted


def test_the_count_is_the_plain_one_on_random_positions():
    _, _, unlike, counted = _random_claims()
    assert not unlike
    assert counted >= 10000


def test_the_count_is_the_plain_one_in_the_reference_problems_walls(shared_problems):
    # their walls are long chains of stones, only some of them with a liberty outside
    rng = np.random.default_rng(5)
    counted = 0
    for problem in shared_problems:
        try:
            solver = Solver(problem, race=False)
        except ProblemError:
            continue
        for _ in range(6):
            played = 0
            for _ in range(int(rng.integers(0, 12))):
                moves = solver.moves()
                if not moves or not solver.play(*moves[int(rng.integers(len(moves)))], int(rng.choice([1, 2]))):
                    continue
                played += 1
                if solver.target_captured():
                    solver.take_back()
                    played -= 1
                    break
            position = solver.board.to_array()
            for side in (BLACK, WHITE):
                count = solver.race_count(side)
                expected = _reference_count(position, solver.area.safe, problem.target, side == problem.attacker)
                numbers = (count.proved, count.x, count.e, count.s, count.y, count.blocks, count.room)
                assert numbers == expected, (problem.source, side)
                counted += 1
            for _ in range(played):
                solver.take_back()
    assert counted >= 800


def test_every_claim_on_random_races_is_the_searchs_verdict():
    claims, wrong, _, _ = _random_claims()
    assert not wrong
    assert sum(claims.values()) >= 3000


def test_random_races_exercise_every_rule():
    claims, _, _, _ = _random_claims()
    by_kind = Counter()
    for (kind, side), n in claims.items():
        by_kind[kind] += n
        by_kind[side] += n
    for kind in list(by_kind):
        if kind.endswith(", room"):
            by_kind["room"] += by_kind[kind]
    for kind in ("no opponent, no eye", "no opponent, eye", "opponent, no eye", "opponent, eye",
                 "shared, no eye", "attacker", "defender", "room"):
        assert by_kind[kind] >= 20, (kind, dict(claims))


def test_whole_solves_of_random_races_agree_on_and_off():
    rng = np.random.default_rng(61)
    cases = 0
    for stones, target in itertools.chain(_pockets(rng, 150), _races(rng, 150)):
        try:
            on, off = _solver(stones, target), _solver(stones, target, race=False)
        except ProblemError:
            continue
        for algo in ("dfs", "dfpn"):
            for side in (BLACK, WHITE):
                for ko_master in ("attacker", "defender", "none"):
                    a = on.solve(side, ko_master=ko_master, algo=algo, max_nodes=BUDGET)
                    b = off.solve(side, ko_master=ko_master, algo=algo, max_nodes=BUDGET)
                    assert a.winner == b.winner, (stones.tolist(), target, side, ko_master, algo)
                    cases += a.winner is not None
    assert cases >= 2000


# -- reference and own problems ---------------------------------------------------------

def _random_problems(rng, pockets, races):
    """The problems of ``pockets`` random pockets and ``races`` random races that have a closed wall."""
    problems = []
    for stones, target in itertools.chain(_pockets(rng, pockets), _races(rng, races)):
        try:
            problems.append(_solver(stones, target).problem)
        except ProblemError:
            continue
    return problems


def _own_problems():
    problems = []
    for path in sorted(OWN_PROBLEMS.rglob("*.sgf")):
        try:
            problems.append(load_problem(path))
        except ProblemError:
            continue
    return problems


def _agree_on_and_off(problems, budget):
    settled = proofs = 0
    for problem in problems:
        on, off = Solver(problem), Solver(problem, race=False)
        for side in (BLACK, WHITE):
            a = on.solve(side, max_nodes=budget)
            b = off.solve(side, max_nodes=budget)
            assert a.winner == b.winner or None in (a.winner, b.winner), (problem.source, side)
            settled += a.winner is not None and b.winner is not None
            proofs += on.race_proofs
    return settled, proofs


def test_reference_problems_agree_on_and_off(shared_problems):
    settled, proofs = _agree_on_and_off(shared_problems, 1_000_000)
    assert settled >= 150 and proofs > 0


def test_own_problems_agree_on_and_off():
    problems = _own_problems()
    settled, proofs = _agree_on_and_off(problems, 1_000_000)
    assert settled >= 2 * len(problems) - 4 and proofs > 0


# -- df-pn's first numbers from the race lead ---------------------------------------------------

def test_dfpn_race_lead_numbers_change_the_order_never_the_verdict():
    rng = np.random.default_rng(62)
    settled = reordered = 0
    for stones, target in itertools.chain(_pockets(rng, 40), _races(rng, 40)):
        try:
            problem = Problem("race", SIZE, np.ascontiguousarray(stones), target, BLACK)
            _check_legal(problem)
            with_lead, without = Solver(problem, race_lead_cost=RACE_LEAD_COST), Solver(problem)
        except ProblemError:
            continue
        for side in (BLACK, WHITE):
            for ko_master in ("attacker", "defender"):
                a = with_lead.solve(side, ko_master=ko_master, algo="dfpn", max_nodes=BUDGET)
                b = without.solve(side, ko_master=ko_master, algo="dfpn", max_nodes=BUDGET)
                assert a.winner == b.winner, (stones.tolist(), target, side, ko_master)
                settled += a.winner is not None
                reordered += a.nodes != b.nodes
    for problem in _own_problems():
        with_lead, without = Solver(problem, race_lead_cost=RACE_LEAD_COST), Solver(problem)
        for side in (BLACK, WHITE):
            a = with_lead.solve(side, algo="dfpn", max_nodes=300_000)
            b = without.solve(side, algo="dfpn", max_nodes=300_000)
            assert a.winner == b.winner or None in (a.winner, b.winner), (problem.source, side)
            settled += a.winner is not None and b.winner is not None
            reordered += a.nodes != b.nodes
    assert settled >= 400 and reordered >= 50
