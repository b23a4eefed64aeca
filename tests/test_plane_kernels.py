"""The compiled plane groups against the numpy formulas they replaced, array for array.

Each reference below is the group as it was written in numpy (with the
labelling kernels called from Python), kept here only to hold the compiled
group to it: the same dtype, shape and values on the own problems' positions
(each root and the positions after the attacker's first moves, both sides to
play) and on random boards, the windows and end states included.
"""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.formats.records import END_ALLY, END_EMPTY, END_ENEMY, END_OFF_BOARD, WINDOW
from pipeline.formats.subproblem import Subproblem
from pipeline.planes import PLANE_GROUPS, board_planes
from pipeline.planes.benson import _alive
from pipeline.planes.board_view import board_view
from pipeline.planes.regions import _DX4, _DX8, _DY4, _DY8, _label, label_blocks, regions_around, unique_cut_points
from pipeline.planes.windows import labelled_windows
from solver.board import BLACK, BORDER, EMPTY, WHITE
from solver.ladder import LADDER_BUDGET
from solver.net import NET_BUDGET
from solver.reading import reading_for
from solver.tactics import _board_of_size, tactical_maps
from tests.own_positions import own_positions

_ONE_HOT_UP_TO_4 = np.vstack([np.zeros((1, 4), np.uint8), np.eye(4, dtype=np.uint8)])
_OCTAL_DIGIT = np.zeros(4, dtype=np.int16)
_OCTAL_DIGIT[[BLACK, WHITE, BORDER]] = [1, 8, 64]


def reference_view(sub) -> dict:
    stones = np.ascontiguousarray(sub.stones, dtype=np.int8)
    tx, ty = sub.target
    blocks, sizes, liberties = label_blocks(stones)
    padded = np.full((stones.shape[0] + 2, stones.shape[1] + 2), BORDER, dtype=np.int8)
    padded[1:-1, 1:-1] = stones
    defender = int(stones[ty, tx])
    return dict(size=stones.shape[0], stones=stones, defender=defender, attacker=3 - defender,
                to_play=int(sub.to_play), target=blocks == blocks[ty, tx], blocks=blocks,
                block_size=sizes[blocks], liberties=liberties[blocks], padded=padded)


def regions(view, color):
    return _label(view["stones"] != color, _DY4, _DX4)


def side_to_move(view):
    planes = np.zeros((view["size"], view["size"], 2), dtype=np.uint8)
    planes[..., 0 if view["to_play"] == view["attacker"] else 1] = 1
    return planes


def stones(view):
    return np.stack([view["stones"] == view["defender"], view["stones"] == view["attacker"],
                     view["target"]], axis=-1).view(np.uint8)


def sure_eye(view):
    digits = _OCTAL_DIGIT[view["padded"]]
    orthogonal = digits[:-2, 1:-1] + digits[2:, 1:-1] + digits[1:-1, :-2] + digits[1:-1, 2:]
    diagonal = digits[:-2, :-2] + digits[:-2, 2:] + digits[2:, :-2] + digits[2:, 2:]
    orthogonal_edge, diagonal_edge = orthogonal >> 6, diagonal >> 6
    needed = 4 - (diagonal_edge == 0)
    eye = np.zeros((view["size"], view["size"]), dtype=bool)
    for shift in (0, 3):
        eye |= ((((orthogonal >> shift) & 7) + orthogonal_edge == 4)
                & (((diagonal >> shift) & 7) + diagonal_edge >= needed))
    eye &= view["stones"] == EMPTY
    return eye[..., None].view(np.uint8)


def liberties(view):
    return _ONE_HOT_UP_TO_4[np.minimum(view["liberties"], 4)]


def block_size(view):
    return _ONE_HOT_UP_TO_4[np.minimum(view["block_size"], 4)]


def ones(view):
    return np.ones((view["size"], view["size"], 1), dtype=np.uint8)


def eye_candidates(view):
    padded = view["padded"]
    planes = np.empty((view["size"], view["size"], 2), dtype=bool)
    for k, other in enumerate((view["attacker"], view["defender"])):
        foreign = padded == other
        planes[..., k] = (view["stones"] == EMPTY) & ~(foreign[:-2, 1:-1] | foreign[2:, 1:-1]
                                                       | foreign[1:-1, :-2] | foreign[1:-1, 2:])
    return planes.view(np.uint8)


def nakade_centre(view):
    plane = np.zeros((view["size"], view["size"]), dtype=np.uint8)
    for color in (view["defender"], view["attacker"]):
        plane |= unique_cut_points(*regions(view, color), 3, 6)
    return plane[..., None]


def benson_alive(view):
    def alive_blocks(color):
        if not (view["stones"] == color).any():
            return np.zeros(view["stones"].shape, dtype=bool)
        labels, sizes = regions(view, color)
        return _alive(view["stones"], color, view["blocks"], labels, len(sizes) - 1)
    alive = alive_blocks(view["defender"]) | alive_blocks(view["attacker"])
    return alive[..., None].view(np.uint8)


def euler(view):
    def euler_numbers(color):
        groups, sizes = _label(view["stones"] == color, _DY8, _DX8)
        per_group = np.append(2 - regions_around(groups, len(sizes) - 1), 2)
        return per_group[groups]
    number = np.minimum(euler_numbers(view["defender"]), euler_numbers(view["attacker"]))
    return np.stack([number <= 0, number <= -1], axis=-1).view(np.uint8)


def tactics(view):
    board = _board_of_size(view["size"])
    grid = board.cells.reshape(board.stride, board.stride)
    grid[1:-1, 1:-1] = view["stones"]
    occupied = np.flatnonzero(board.cells == BLACK), np.flatnonzero(board.cells == WHITE)
    board.hash[0] = (np.bitwise_xor.reduce(board.zobrist[0, occupied[0]], initial=np.uint64(0))
                     ^ np.bitwise_xor.reduce(board.zobrist[1, occupied[1]], initial=np.uint64(0)))
    out = np.zeros((4, board.size, board.size), dtype=np.uint8)
    tactical_maps(reading_for(board).context, out, True, LADDER_BUDGET, NET_BUDGET, True)
    return np.moveaxis(out, 0, -1)


REFERENCE = {f.__name__: f for f in (side_to_move, stones, sure_eye, liberties, block_size, ones, eye_candidates,
                                     nakade_centre, benson_alive, euler, tactics)}


def cut_windows(planes, ys, xs, fill=0):
    size = planes.shape[0]
    half = WINDOW // 2
    offsets = np.arange(WINDOW)
    padded = np.full((size + 2 * half, size + 2 * half, planes.shape[2]), fill, dtype=np.uint8)
    padded[half:half + size, half:half + size] = planes
    return padded[(ys[:, None] + offsets)[:, :, None], (xs[:, None] + offsets)[:, None, :]]


def reference_windows(sub):
    view = reference_view(sub)
    planes = np.concatenate([REFERENCE[g.name](view) for g in PLANE_GROUPS], axis=-1)
    ys, xs = np.nonzero(view["target"])
    windows = cut_windows(planes, ys, xs)
    end_states = None
    if sub.end_state is not None:
        end_state = np.asarray(sub.end_state)
        classes = np.full(end_state.shape, END_ENEMY, dtype=np.uint8)
        classes[end_state == view["defender"]] = END_ALLY
        classes[end_state == EMPTY] = END_EMPTY
        end_states = cut_windows(classes[:, :, None], ys, xs, fill=END_OFF_BOARD)[..., 0]
    return planes, windows, end_states


def own_subproblems():
    for _, path, problem, solver, _ in own_positions(every=1):
        if solver.target_captured():
            continue
        for to_play in (BLACK, WHITE):
            yield Subproblem(size=problem.size, stones=solver.board.to_array(), target=problem.target,
                             to_play=to_play, source=path.stem, end_state=problem.stones)


def random_subproblems(count, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        size = int(rng.integers(5, 14))
        board = rng.choice([EMPTY, BLACK, WHITE], size=(size, size), p=rng.dirichlet([2, 1, 1])).astype(np.int8)
        ys, xs = np.nonzero(board)
        if len(ys) == 0:
            continue
        k = int(rng.integers(len(ys)))
        end_state = rng.choice([EMPTY, BLACK, WHITE], size=(size, size)).astype(np.int8)
        yield Subproblem(size=size, stones=board, target=(int(xs[k]), int(ys[k])),
                         to_play=int(rng.choice([BLACK, WHITE])), source="random", end_state=end_state)


def assert_same(actual, expected, what):
    assert actual.dtype == expected.dtype and actual.shape == expected.shape, what
    np.testing.assert_array_equal(actual, expected, err_msg=what)


def test_every_group_has_its_numpy_reference():
    assert [g.name for g in PLANE_GROUPS] == list(REFERENCE)


@pytest.mark.parametrize("positions", ["own", "random"])
def test_compiled_groups_windows_and_end_states_equal_the_numpy_formulas(positions):
    subs = list(own_subproblems()) if positions == "own" else list(random_subproblems(400))
    assert len(subs) > 300
    for sub in subs:
        view = board_view(sub)
        expected_view = reference_view(sub)
        for name in ("target", "blocks", "block_size", "liberties", "padded"):
            assert_same(getattr(view, name), expected_view[name], f"{sub.source}: the view's {name}")
        for group in PLANE_GROUPS:
            assert_same(group.compute(view), REFERENCE[group.name](expected_view), f"{sub.source}: {group.name}")
        planes, windows, end_states = reference_windows(sub)
        assert_same(board_planes(sub), planes, f"{sub.source}: all planes")
        actual_windows, _, actual_end_states = labelled_windows(sub)
        assert_same(actual_windows, windows, f"{sub.source}: windows")
        assert_same(actual_end_states, end_states, f"{sub.source}: end states")
