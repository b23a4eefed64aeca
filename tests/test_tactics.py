"""Tactical readers on the written collection, under all eight board symmetries.

Every case of ``tests/tactics_positions.py`` is read as drawn and in its
seven other orientations (rotations and reflections), so each ladder is read
running in the four diagonal directions and both turning senses.  A random
position test checks the diagonal scan against plain simulation, and the
whole-board pass against the readers one by one.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.symmetries import transform, transform_point
from solver.board import BLACK, EMPTY, WHITE
from solver.ladder import ladder_captures
from solver.net import net_captures
from solver.reading import C_SCAN_ANSWERS, board_from_stones, reading_for
from solver.snapback import snapback_points
from solver.tactics import LADDER_CAPTURED, LADDER_ESCAPE, MAPS, NET_CAPTURED, SNAPBACK, stones_maps
from tactics_positions import LADDERS, NETS, SNAPBACKS

ALL_CASES = LADDERS + SNAPBACKS + NETS


def oriented(case):
    """(board, point transform) for each of the 8 orientations of the case (``pipeline.symmetries``)."""
    for symmetry in range(8):
        def point_of(p, symmetry=symmetry):
            return None if p is None else transform_point(*p, symmetry, case.size)
        yield board_from_stones(transform(case.stones(), symmetry)), point_of


def test_the_collection_covers_every_kind_of_case():
    names = {case.name for case in ALL_CASES}
    assert len(names) == len(ALL_CASES) >= 40
    assert len(LADDERS) >= 20 and len(SNAPBACKS) >= 8 and len(NETS) >= 6
    assert any(c.captured for c in NETS) and any(not c.captured for c in NETS)
    assert any(c.marked("*") for c in SNAPBACKS) and any(not c.marked("*") for c in SNAPBACKS)


@pytest.mark.parametrize("case", LADDERS, ids=lambda c: c.name)
def test_ladder(case):
    for board, point_of in oriented(case):
        before = (board.cells.copy(), int(board.hash[0]))
        result = ladder_captures(board, *point_of(case.target))
        assert result.settled
        assert result.captured == case.captured
        if case.marked("e"):
            assert result.escape_move in [point_of(p) for p in case.marked("e")]
        if case.marked("a"):
            assert result.atari_move in [point_of(p) for p in case.marked("a")]
        if not case.captured:
            assert result.atari_move is None
        assert np.array_equal(board.cells, before[0]) and int(board.hash[0]) == before[1]


@pytest.mark.parametrize("case", SNAPBACKS, ids=lambda c: c.name)
def test_snapback(case):
    for board, point_of in oriented(case):
        expected = {point_of(p) for p in case.marked("*")}
        assert set(snapback_points(board, case.color)) == expected
        # The thrower's opponent has none in these positions.
        assert snapback_points(board, 3 - case.color) == []


@pytest.mark.parametrize("case", NETS, ids=lambda c: c.name)
def test_net(case):
    for board, point_of in oriented(case):
        result = net_captures(board, *point_of(case.target))
        assert result.settled
        assert result.captured == case.captured
        if case.captured:
            assert result.net_move in [point_of(p) for p in case.marked("n")]
        else:
            assert result.net_move is None


def test_the_scan_settles_clean_ladders_without_playing_them():
    case = next(c for c in LADDERS if c.name == "ladder-northeast-in-atari")
    board = board_from_stones(case.stones())
    reading = reading_for(board)
    with_scan = ladder_captures(board, *case.target)
    reading.use_scan(False)
    without_scan = ladder_captures(board, *case.target)
    assert with_scan.captured and without_scan.captured
    assert with_scan.nodes == 1 and without_scan.nodes > 10
    assert reading.counters[C_SCAN_ANSWERS] > 0


def test_readers_reject_a_point_without_a_stone():
    board = board_from_stones(np.zeros((9, 9), dtype=np.int8))
    with pytest.raises(ValueError, match=r"no stone at \(2, 3\)"):
        ladder_captures(board, 2, 3)
    with pytest.raises(ValueError, match=r"no stone at \(2, 3\)"):
        net_captures(board, 2, 3)
    with pytest.raises(ValueError, match="BLACK or WHITE"):
        snapback_points(board, EMPTY)


def test_pass_maps_agree_with_the_readers_on_the_collection():
    for case in ALL_CASES:
        stones = case.stones()
        maps = stones_maps(stones)
        assert maps.shape == (len(MAPS), case.size, case.size)
        board = board_from_stones(stones)
        x, y = case.target if case.kind != "snapback" else (None, None)
        throw_ins = set(snapback_points(board, BLACK)) | set(snapback_points(board, WHITE))
        assert {(int(x), int(y)) for y, x in zip(*np.nonzero(maps[SNAPBACK]))} == throw_ins
        if case.kind == "ladder":
            assert bool(maps[LADDER_CAPTURED, y, x]) == case.captured
            escape = ladder_captures(board, x, y).escape_move
            if board.liberties(x, y, cap=3) == 1 and not case.captured:
                assert maps[LADDER_ESCAPE, escape[1], escape[0]] == 1
        if case.kind == "net":
            laddered = ladder_captures(board, x, y).captured
            assert bool(maps[LADDER_CAPTURED, y, x]) == laddered
            assert bool(maps[NET_CAPTURED, y, x]) == (case.captured and not laddered)


@st.composite
def random_positions(draw):
    """Legal positions, a tenth to a half full, with no block lacking liberties.

    Sparse boards hold many clean ladders (the scan answers), dense ones many
    captures and broken paths (it must not).
    """
    size = draw(st.sampled_from([9, 13]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    fill = draw(st.sampled_from([0.1, 0.2, 0.3, 0.45]))
    stones = rng.choice([EMPTY, BLACK, WHITE], size=(size, size), p=[1 - fill, fill / 2, fill / 2])
    board = board_from_stones(stones.astype(np.int8))
    # Remove blocks without liberties (random fills make some).
    for y in range(size):
        for x in range(size):
            if board.get(x, y) != EMPTY and board.liberties(x, y, cap=1) == 0:
                stones[y, x] = EMPTY
    return stones.astype(np.int8)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(random_positions())
def test_the_diagonal_scan_agrees_with_simulation_on_random_positions(stones):
    scanned = board_from_stones(stones)
    simulated = board_from_stones(stones)
    reading_for(simulated).use_scan(False)
    size = stones.shape[0]
    for y in range(size):
        for x in range(size):
            if stones[y, x] == EMPTY or scanned.liberties(x, y, cap=1) == 0:
                continue
            a = ladder_captures(scanned, x, y)
            b = ladder_captures(simulated, x, y)
            assert (a.captured, a.escape_move, a.atari_move) == (b.captured, b.escape_move, b.atari_move)


def test_tactical_planes_are_registered_and_follow_the_readers():
    from types import SimpleNamespace

    from pipeline.planes import board_planes, group_named, plane_names

    assert [n for n in plane_names() if n in MAPS] == list(MAPS)
    group = [group_named("tactics")]
    by_name = {case.name: case for case in ALL_CASES}
    for name, plane, point in (("ladder-northeast-in-atari", "ladder_captured", None),
                               ("ladder-northeast-breaker", "ladder_escape", "e"),
                               ("snapback-one-sided", "snapback_point", "*"),
                               ("net-center", "net_captured", None)):
        case = by_name[name]
        stones = case.stones()
        target = case.target if case.kind != "snapback" else tuple(map(int, np.argwhere(stones)[0][::-1]))
        planes = board_planes(SimpleNamespace(stones=stones, target=target, to_play=BLACK), group)
        where = case.marked(point) if point else [case.target]
        marked = {(int(x), int(y)) for y, x in zip(*np.nonzero(planes[..., MAPS.index(plane)]))}
        assert set(where) <= marked
        # The colour-swapped position has the same planes.
        swapped = np.where(stones == EMPTY, EMPTY, 3 - stones).astype(np.int8)
        twin = board_planes(SimpleNamespace(stones=swapped, target=target, to_play=WHITE), group)
        assert np.array_equal(planes, twin)
