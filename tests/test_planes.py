"""Feature planes on hand-made positions, their symmetries, and the 11×11 windows.

Positions are drawn as text: ``X`` black, ``O`` white, ``.`` empty, and the
target stone in lower case (``x`` or ``o``); row 0 is the top of the board.
"""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pipeline.planes import GROUP_MODULES, PLANE_GROUPS, board_planes, group_named, plane_names
from pipeline.formats.subproblem import Subproblem
from pipeline.planes.windows import subproblem_windows
from pipeline.symmetries import transform, transform_point
from solver.board import BLACK, EMPTY, WHITE

GLYPH = {".": EMPTY, "X": BLACK, "O": WHITE, "x": BLACK, "o": WHITE}


def position(rows: str, to_play: int = BLACK, best_move=None) -> Subproblem:
    lines = rows.split()
    stones = np.array([[GLYPH[c] for c in line] for line in lines], dtype=np.int8)
    (ty, tx), = [(y, x) for y, line in enumerate(lines) for x, c in enumerate(line) if c in "xo"]
    return Subproblem(size=len(lines), stones=stones, target=(tx, ty), to_play=to_play,
                      best_move=best_move, source="hand/made")


def plane(sub: Subproblem, name: str) -> np.ndarray:
    return board_planes(sub)[..., plane_names().index(name)]


def points(mask: np.ndarray) -> set:
    """The (x, y) points where a plane is set."""
    return {(int(x), int(y)) for y, x in zip(*np.nonzero(mask))}


# A white corner group with two one-point eyes at aa and ca, walled in by black.
TWO_EYES = """
    .O.OX..
    OOOOX..
    XXoOX..
    ..XXX..
    .......
    .......
    .......
"""
# The same group with the eye at ca filled: one eye left.
ONE_EYE = """
    .OOOX..
    OOOOX..
    XXoOX..
    ..XXX..
    .......
    .......
    .......
"""


# -- the registry ---------------------------------------------------------------

def test_the_registry_lists_every_plane_once_in_module_order():
    names = plane_names()
    assert len(names) == len(set(names))
    assert names[:15] == ["attacker_first", "defender_first", "ally", "enemy", "target", "sure_eye",
                          "liberties_1", "liberties_2", "liberties_3", "liberties_4+",
                          "size_1", "size_2", "size_3", "size_4+", "ones"]
    modules = [g.module for g in PLANE_GROUPS]
    assert modules == sorted(modules, key=GROUP_MODULES.index)
    sub = position(TWO_EYES)
    assert board_planes(sub).shape == (7, 7, len(names))
    assert board_planes(sub).dtype == np.uint8


def test_the_order_does_not_depend_on_which_module_is_imported_first():
    # A fresh interpreter importing a group module before the registry.
    script = "import pipeline.planes.benson; from pipeline.planes import plane_names; print(plane_names())"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == str(plane_names())


def test_a_group_from_a_module_not_in_the_list_is_refused():
    from pipeline.planes import plane_group

    def stray(view):
        return np.zeros((view.size, view.size, 1), np.uint8)

    with pytest.raises(ValueError, match="GROUP_MODULES"):
        plane_group(["stray"])(stray)


# -- dcnn-eval's planes (pipeline/planes/basic.py) ----------------------------------

def test_side_to_move_planes_follow_the_attacker():
    white_target = position(TWO_EYES, to_play=BLACK)
    assert plane(white_target, "attacker_first").all()
    assert not plane(white_target, "defender_first").any()
    defender_moves = position(TWO_EYES, to_play=WHITE)
    assert plane(defender_moves, "defender_first").all()
    assert not plane(defender_moves, "attacker_first").any()


def test_ally_enemy_and_target_planes():
    sub = position("""
        .O.X.
        .oXX.
        O..X.
        .....
        ....O
    """)
    assert points(plane(sub, "ally")) == {(1, 0), (1, 1), (0, 2), (4, 4)}
    assert points(plane(sub, "enemy")) == {(3, 0), (2, 1), (3, 1), (3, 2)}
    # Only the target's own block, not the other white stones.
    assert points(plane(sub, "target")) == {(1, 0), (1, 1)}


def test_a_sure_eye_in_the_corner_and_a_false_one():
    corner = position("""
        .X...
        xX...
        .....
        .....
        .....
    """)
    assert points(plane(corner, "sure_eye")) == {(0, 0)}
    false_eye = position("""
        .X...
        xO...
        .....
        .....
        .....
    """)
    # The diagonal point is white: black's corner eye can be made false.
    assert not plane(false_eye, "sure_eye").any()


def test_sure_eyes_on_the_edge_and_in_the_open():
    sub = position("""
        X.x..
        XXX..
        ..OOO
        ..O.O
        ..XOO
    """, to_play=WHITE)
    # ba: black on both sides and on both on-board diagonals.  dd: white all
    # round, with three white diagonals and one black, which is allowed.
    assert points(plane(sub, "sure_eye")) == {(1, 0), (3, 3)}
    one_bad_diagonal = position("""
        .....
        .XOO.
        .O.O.
        .OOO.
        ..o..
    """)
    two_bad_diagonals = position("""
        .....
        .XOX.
        .O.O.
        .OOO.
        ..o..
    """)
    assert points(plane(one_bad_diagonal, "sure_eye")) == {(2, 2)}
    assert points(plane(two_bad_diagonals, "sure_eye")) == set()
    edge_with_enemy_diagonal = position("""
        XX.X.
        .XXO.
        .....
        ..o..
        .....
    """)
    assert not plane(edge_with_enemy_diagonal, "sure_eye").any()


def test_liberty_planes_count_the_block_liberties():
    sub = position("""
        .....
        .xX..
        .OO..
        .....
        O.OOO
    """)
    # xX: black block bb-cb with liberties ba ca da ab... (b1 c1 d1 a2 d2): 5 -> 4+
    # The white pair bc-cc has ac dc bd cd and the black stones above: 4 liberties;
    # the lone white stone at ae has ad and be: 2; ce-de-ee has be cd dd ed: 4.
    assert points(plane(sub, "liberties_4+")) == {(1, 1), (2, 1), (1, 2), (2, 2), (2, 4), (3, 4), (4, 4)}
    assert points(plane(sub, "liberties_2")) == {(0, 4)}
    edge = position("""
        oX.X.
        .....
        .....
        .....
        .....
    """)
    # aa in atari at ab; ba has ca and bb; da has ca, ea and db.
    assert points(plane(edge, "liberties_1")) == {(0, 0)}
    assert points(plane(edge, "liberties_2")) == {(1, 0)}
    assert points(plane(edge, "liberties_3")) == {(3, 0)}


def test_block_size_planes():
    sub = position("""
        x.OO.
        ..O..
        XX...
        .....
        OOOOO
    """)
    assert points(plane(sub, "size_1")) == {(0, 0)}
    assert points(plane(sub, "size_2")) == {(0, 2), (1, 2)}
    assert points(plane(sub, "size_3")) == {(2, 0), (3, 0), (2, 1)}
    assert points(plane(sub, "size_4+")) == {(x, 4) for x in range(5)}


def test_the_ones_plane_covers_the_board_and_windows_see_the_edge_as_zeros():
    sub = position("""
        .......
        .......
        ..o....
        .......
        ...X...
        .......
        .......
    """)
    assert plane(sub, "ones").all()
    (window,), _ = subproblem_windows(sub)
    # Centred on cc: window rows and columns 0..2 and 10 are off the 7×7 board.
    ones = window[..., plane_names().index("ones")]
    assert ones[3:10, 3:10].all()
    assert not ones[:3].any() and not ones[10].any() and not ones[:, :3].any() and not ones[:, 10].any()
    assert not window[:3].any() and not window[10].any() and not window[:, :3].any()


# -- the added planes -----------------------------------------------------------

def test_eye_candidates_have_no_opponent_neighbour():
    sub = position("""
        .O.X.
        OO.XX
        .o...
        .....
        X....
    """)
    ally = points(plane(sub, "ally_can_be_eye"))
    enemy = points(plane(sub, "enemy_can_be_eye"))
    assert (0, 0) in ally and (0, 0) not in enemy
    assert (2, 0) not in ally and (2, 0) not in enemy      # between white ba and black da
    assert (4, 0) in enemy and (4, 0) not in ally
    assert (2, 3) in ally and (2, 3) in enemy              # open space could be anyone's
    assert all(sub.stones[y, x] == EMPTY for x, y in ally | enemy)


@pytest.mark.parametrize("space,centre", [
    (["aa", "ba", "ca"], "ba"),                      # straight three
    (["aa", "ba", "ab"], "aa"),                      # bent three
    (["aa", "ba", "ca", "bb"], "ba"),                # pyramid four
    (["ba", "ab", "bb", "cb", "bc"], "bb"),          # crossed five
    (["aa", "ba", "ab", "bb", "cb"], "bb"),          # bulky five
    (["ba", "ab", "bb", "cb", "bc", "cc"], "bb"),    # rabbity six
    (["aa", "ba", "ca", "da"], None),                # straight four: alive
    (["aa", "ba", "ab", "bb"], None),                # square four: no vital point
    (["aa", "ba"], None),                            # too small to matter
])
def test_nakade_centre_of_an_enclosed_eye_space(space, centre):
    size = 7
    stones = np.full((size, size), EMPTY, dtype=np.int8)
    inside = [(ord(p[0]) - 97, ord(p[1]) - 97) for p in space]
    for x, y in inside:
        for u, v in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= u < size and 0 <= v < size and (u, v) not in inside:
                stones[v, u] = WHITE
    # The outside stays open: empty points beyond the white wall.
    wall = list(zip(*np.nonzero(stones)))
    sub = Subproblem(size=size, stones=stones, target=(int(wall[0][1]), int(wall[0][0])), to_play=BLACK)
    expected = set() if centre is None else {(ord(centre[0]) - 97, ord(centre[1]) - 97)}
    assert points(plane(sub, "nakade_centre")) == expected


def test_nakade_centre_counts_opponent_stones_in_the_eye_space():
    sub = position("""
        X.XO...
        OOOO...
        ..o....
        .......
        .......
        .......
        .......
    """)
    # Black stones at aa and ca sit in white's straight-three eye space aa-ca.
    assert points(plane(sub, "nakade_centre")) == {(1, 0)}


def test_benson_marks_a_two_eyed_block_and_not_a_one_eyed_one():
    alive = position(TWO_EYES)
    white_group = {(1, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1), (2, 2), (3, 2)}
    assert points(plane(alive, "benson_alive")) == white_group
    one_eye = position(ONE_EYE)
    assert not plane(one_eye, "benson_alive").any()


def test_benson_needs_every_empty_point_of_an_eye_to_be_a_liberty():
    # A big eye whose centre (bb, cc...) touches no white stone is not vital.
    big_eye = position("""
        ...O.O
        ...OOO
        ...O..
        OOOO..
        ......
        o.....
    """)
    assert points(plane(big_eye, "benson_alive")) == set()
    two_small = position("""
        .O.O..
        OOOO..
        o.....
        ......
        ......
        ......
    """)
    assert points(plane(two_small, "benson_alive")) == {(1, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1),
                                                        (0, 2)}


def test_benson_shares_eyes_between_blocks():
    # Two white blocks (top, left) share the eyes at aa and cb: both are alive together.
    sub = position("""
        .OO...
        O.O...
        OO....
        ......
        ......
        o.....
    """)
    white = position("""
        .OX...
        OXO...
        OO....
        ......
        ......
        o.....
    """)
    assert points(plane(sub, "benson_alive")) == {(1, 0), (2, 0), (2, 1), (0, 1), (0, 2), (1, 2)}
    assert not plane(white, "benson_alive").any()


def test_euler_planes_count_holes_with_the_edge_as_a_wall():
    sub = position(TWO_EYES)
    le0 = points(plane(sub, "euler<=0"))
    le1 = points(plane(sub, "euler<=-1"))
    white_group = {(1, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1), (2, 2), (3, 2)}
    black_wall = {(4, 0), (4, 1), (4, 2), (4, 3), (3, 3), (2, 3), (0, 2), (1, 2)}
    # White wraps two eyes (E = -1); black's wall, corner to edge, wraps the
    # problem (E = 0): ab-bc joins it only diagonally (8-connected).
    assert white_group <= le1 and white_group <= le0
    assert black_wall <= le0 and not (black_wall & le1)
    loose = position("""
        ......
        .X....
        ......
        ...o..
        ......
        ......
    """)
    assert not plane(loose, "euler<=0").any()
    ring = position("""
        ......
        .XXX..
        .X.X..
        .XXX..
        ......
        ....o.
    """)
    assert points(plane(ring, "euler<=0")) == {(x, y) for x in (1, 2, 3) for y in (1, 2, 3)} - {(2, 2)}
    assert not plane(ring, "euler<=-1").any()


# -- symmetries -----------------------------------------------------------------

def transformed(sub: Subproblem, symmetry: int) -> Subproblem:
    """The subproblem under one of the 8 symmetries of ``pipeline.symmetries``."""
    def point(p):
        return None if p is None else transform_point(*p, symmetry, sub.size)

    return Subproblem(size=sub.size, stones=transform(sub.stones, symmetry),
                      target=point(sub.target), to_play=sub.to_play, best_move=point(sub.best_move),
                      source=sub.source)


def window_move(move: int, symmetry: int) -> int:
    """A window's move index (row * 11 + column; -1: none) under ``symmetry``."""
    if move < 0:
        return -1
    x, y = transform_point(move % 11, move // 11, symmetry, 11)
    return y * 11 + x


def hand_made():
    return [position(TWO_EYES), position(ONE_EYE, to_play=WHITE), position("""
        ...O.O
        .X.OOO
        ...O..
        OOOO.X
        X.....
        o..X..
    """, best_move=(1, 4))]


def test_planes_commute_with_the_eight_symmetries(shared_problems):
    subs = hand_made() + [Subproblem(size=p.size, stones=p.stones, target=p.target, to_play=p.to_play)
                          for p in shared_problems[:40]]
    for sub in subs:
        planes = board_planes(sub)
        for symmetry in range(8):
            assert np.array_equal(board_planes(transformed(sub, symmetry)), transform(planes, symmetry)), \
                (sub.source, symmetry)


def test_planes_are_the_same_after_a_colour_swap(shared_problems):
    for p in shared_problems[:40]:
        sub = Subproblem(size=p.size, stones=p.stones, target=p.target, to_play=p.to_play)
        swapped = np.where(p.stones == EMPTY, EMPTY, 3 - p.stones).astype(np.int8)
        twin = Subproblem(size=p.size, stones=swapped, target=p.target, to_play=3 - p.to_play)
        assert np.array_equal(board_planes(sub), board_planes(twin)), p.source


def test_windows_and_moves_follow_the_symmetries():
    sub = hand_made()[2]
    windows, moves = subproblem_windows(sub)
    for symmetry in range(8):
        other_windows, other_moves = subproblem_windows(transformed(sub, symmetry))
        # Stones come in row-major order, which a symmetry permutes: match by content.
        for window, move in zip(windows, moves):
            expected = transform(window, symmetry)
            expected_move = window_move(move, symmetry)
            assert any(np.array_equal(expected, w) and m == expected_move
                       for w, m in zip(other_windows, other_moves)), symmetry


# -- windows ----------------------------------------------------------------------

def test_one_window_per_target_stone_centred_on_it_with_the_move_index():
    sub = position("""
        .......
        .......
        ..xX...
        ..X....
        .......
        .......
        .......
    """, best_move=(4, 2))
    windows, moves = subproblem_windows(sub)
    # The target block is cc, dc, cd, in row-major order.
    assert windows.shape == (3, 11, 11, len(plane_names()))
    target = plane_names().index("target")
    for window, (x, y) in zip(windows, [(2, 2), (3, 2), (2, 3)]):
        assert window[5, 5, target] == 1
        # The window's (row, col) is board (y - 5 + row, x - 5 + col).
        assert np.array_equal(window[5 - y:5 - y + 7, 5 - x:5 - x + 7], board_planes(sub))
    # ec is 2 columns right of cc, 1 right of dc, 2 right and 1 up of cd.
    assert moves == [5 * 11 + 7, 5 * 11 + 6, 4 * 11 + 7]


def test_a_move_outside_the_window_or_missing_is_minus_one():
    stones = np.zeros((15, 15), np.int8)
    stones[0, 0] = stones[0, 7] = WHITE
    sub = Subproblem(size=15, stones=stones, target=(0, 0), to_play=BLACK, best_move=(14, 14))
    assert subproblem_windows(sub)[1] == [-1]
    assert subproblem_windows(Subproblem(size=15, stones=stones, target=(0, 0), to_play=BLACK))[1] == [-1]


def test_windows_of_a_problem_without_labels(shared_problems):
    problem = shared_problems[0]
    windows, moves = subproblem_windows(problem)
    assert windows.shape[0] == int(board_planes(problem)[..., plane_names().index("target")].sum())
    assert set(moves) == {-1}


def test_a_subset_of_groups_gives_their_planes_only():
    sub = position(TWO_EYES)
    groups = [group_named("stones"), group_named("benson_alive")]
    planes = board_planes(sub, groups)
    full = board_planes(sub)
    names = plane_names()
    assert np.array_equal(planes, full[..., [names.index(n) for n in ("ally", "enemy", "target",
                                                                       "benson_alive")]])
