"""A group of a real game as an enclosed problem: the position after move N, the group framed.

``enclose`` frames a book corner; this frames any group of a game record the
same way (:func:`pipeline.enclose.frame.enclose`, its default reach), so that
the exact solver can answer "is this group safe?" in the middle of a game.
The problem stays on the game's own board, so its points keep the game's Go
coordinates: the solver reads only the search area, whatever the board's size.

A frame closes the group's region with the attacker's stones, so it can only
be trusted where the game has nearly closed it already: a group that could
still run to the open board, or whose region is more than the solver reads,
is refused with the reason and what to try (docs/enclose.md, "A group of a
real game").
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
from sgfmill import boards

from pipeline.enclose.frame import ORTHOGONAL, Frame, enclose, on_board
from pipeline.enclose.question import NO_WALL, TOO_LARGE, size_up
from pipeline.formats.sgf_writer import escape_text, game_tree, node, stone_points
from pipeline.pass_alive import PassAlive, pass_alive
from solver import BLACK, DEFAULT_MAX_AREA, EMPTY, WHITE, Problem, ProblemError, sgf_point
from solver.board import color_letter, color_of_letter
from solver.coordinates import go_point, parse_go_point
from solver.problem import point_list, point_of, read_sgf, shown, single_value

# At most this share of the points beside the group's region may be empty in the game, for the
# frame to fill with new wall stones: a group more open could still run out or make its eyes
# there, and the frame would read it as dead.  Two groups of tests/test_game_group.py that live
# in their game and read dead whoever starts once framed are open on 4 and 5 of 11 points; the
# loosest book problem enclose frames (tests/open-problems/loose-side-live) is open on 11 of 31.
MAX_OPEN = Fraction(1, 3)

COLOR_NAME = {BLACK: "black", WHITE: "white"}
SIDE_NAME = {BLACK: "Black", WHITE: "White"}


@dataclass(frozen=True)
class GamePosition:
    """The position after ``move_number`` moves of a game's main line (passes count as moves)."""

    source: str
    size: int
    stones: np.ndarray      # [y, x]: EMPTY, BLACK or WHITE
    to_play: int
    move_number: int


def game_position(path_or_bytes: str | Path | bytes, move_number: int | None = None,
                  source: str | None = None, player_given: bool = False) -> GamePosition:
    """The position after move ``move_number`` (None: the main line's last move) of an SGF game.

    The root's (and every node's) ``AB AW AE`` are placed, the main line's ``B``/``W``
    moves played with their captures.  The side to play is the colour of the next move
    in the record, else the other side of the last one played, else ``PL``, else Black.
    A problem file (:func:`is_problem_record`) is read at its root, ``PL`` to play,
    unless ``move_number`` says otherwise: its moves are the answer's.
    A move number past the end, or an illegal move on the way (an occupied point,
    suicide), raises :class:`ProblemError` naming the move and its point.  With
    ``player_given`` (the side to play said elsewhere, ``--to-play``) ``PL`` is not read.
    """
    if isinstance(path_or_bytes, bytes):
        data, source = path_or_bytes, source or "<sgf>"
    else:
        source = source or str(path_or_bytes)
        try:
            data = Path(path_or_bytes).read_bytes()
        except OSError as exc:
            raise ProblemError(source, f"cannot read the file ({exc.strerror})") from None
    game = read_sgf(data, source)
    size = game.get_size()
    at_problem_root = move_number is None and is_problem_record(game.get_root())
    if at_problem_root:
        move_number = 0
    if move_number is not None and move_number < 0:
        raise ProblemError(source, f"move {move_number} is not a move number: 0 is the setup, 1 the first move")
    board = boards.Board(size)
    played, last, following = 0, None, None
    for sgf_node in game.get_main_sequence():
        move = node_move(sgf_node, size, source)
        if move is not None and played == move_number:
            following = move[0]
            break
        setup = [{(size - 1 - y, x) for x, y in point_list(sgf_node, prop, size, source)}
                 for prop in ("AB", "AW", "AE")]
        board.apply_setup(*setup)
        if move is None:
            continue
        played += 1
        color, point = last = move
        if point is not None:
            play(board, played, color, point, source)
    if move_number is not None and played < move_number:
        raise ProblemError(source, f"move {move_number} is past the end of the game: "
                                   f"its main line has {played} moves")
    if player_given:   # the caller's side stands, whatever PL says
        to_play = following or (3 - last[0] if last is not None else BLACK)
    elif at_problem_root:
        to_play = color_of_letter(recorded_player(game.get_root(), source))
    elif following is not None:
        to_play = following
    elif last is not None:
        to_play = 3 - last[0]
    else:
        to_play = color_of_letter(recorded_player(game.get_root(), source) or "B")
    stones = np.zeros((size, size), dtype=np.int8)
    for color, (row, col) in board.list_occupied_points():
        stones[size - 1 - row, col] = BLACK if color == "b" else WHITE
    return GamePosition(source=source, size=size, stones=stones, to_play=to_play, move_number=played)


def is_problem_record(root) -> bool:
    """Whether a record is a problem rather than a game: its root sets stones of both colours
    and says who plays (``PL``), as a problem's diagram does; a game starts from an empty board
    or from handicap stones, all black."""
    return all(root.has_property(prop) for prop in ("PL", "AB", "AW"))


def node_move(sgf_node, size: int, source: str) -> tuple[int, tuple[int, int] | None] | None:
    """(colour, (x, y) or None for a pass) of a node's move; None for a node without one."""
    colours = [c for c in ("B", "W") if sgf_node.has_property(c)]
    if not colours:
        return None
    if len(colours) > 1:
        raise ProblemError(source, "a node holds both B[] and W[]")
    raw = single_value(sgf_node.get_raw_list(colours[0]), colours[0], source)
    if raw == b"" or (raw == b"tt" and size <= 19):    # a pass (``tt`` in FF[3])
        return color_of_letter(colours[0]), None
    return color_of_letter(colours[0]), point_of(raw, colours[0], size, source)


def play(board: boards.Board, number: int, color: int, point: tuple[int, int], source: str) -> None:
    """Move ``number`` on sgfmill's board (row 0 at the bottom), captures taken; an illegal move
    raises ProblemError."""
    x, y = point
    size = board.side
    row = size - 1 - y
    named = f"move {number} ({SIDE_NAME[color]} {go_point(x, y, size)})"
    if board.get(row, x) is not None:
        raise ProblemError(source, f"{named} is illegal: the point is occupied")
    board.play(row, x, "b" if color == BLACK else "w")
    if board.get(row, x) is None:     # sgfmill takes a self-captured block off
        raise ProblemError(source, f"{named} is illegal: suicide, the stone would have no liberty")


def recorded_player(root, source: str) -> str | None:
    """The root's ``PL`` as ``B`` or ``W``, None when absent."""
    if not root.has_property("PL"):
        return None
    raw = single_value(root.get_raw_list("PL"), "PL", source).strip().upper()
    if raw not in (b"B", b"W"):
        raise ProblemError(source, f"PL[{shown(raw)}] must be B or W")
    return raw.decode()


def side(to_play: str | int | None, position: GamePosition) -> int:
    """BLACK or WHITE from ``B``/``W`` (either case), the colour itself, or None (the game's)."""
    if to_play is None:
        return position.to_play
    if isinstance(to_play, str) and to_play.strip().upper() in ("B", "W"):
        return color_of_letter(to_play.strip().upper())
    if to_play in (BLACK, WHITE):
        return int(to_play)
    raise ProblemError(position.source, f"the side to play must be B or W, not {to_play!r}")


def open_share(stones: np.ndarray, frame: Frame) -> tuple[int, int]:
    """(open, border): the points beside the region (orthogonally), and how many of them are
    empty in the game: the frame fills those with new wall stones."""
    size = stones.shape[0]
    border = {(x + dx, y + dy) for x, y in frame.region for dx, dy in ORTHOGONAL
              if on_board(size, x + dx, y + dy) and (x + dx, y + dy) not in frame.region}
    return sum(1 for x, y in border if stones[y, x] == EMPTY), len(border)


def group_target(position: GamePosition, group: str, source: str) -> tuple[int, int]:
    """(x, y) of the stone at Go coordinate ``group``; a point off the board or empty raises
    :class:`ProblemError`."""
    try:
        target = parse_go_point(group, position.size)
    except ValueError as exc:
        raise ProblemError(source, str(exc)) from None
    if position.stones[target[1], target[0]] == EMPTY:
        raise ProblemError(source, f"there is no stone at {go_point(*target, position.size)} after move "
                                   f"{position.move_number}: name a stone of the group")
    return target


def framed_group(position: GamePosition, group: str, source: str, to_play: str | int | None = None,
                 max_area: int = DEFAULT_MAX_AREA) -> Problem:
    """The group holding the stone at Go coordinate ``group`` as an enclosed :class:`Problem`.

    The target's region is framed as ``enclose`` frames a book problem (one frame, its
    default reach) on the game's own board; ``to_play`` (None: the game's next side)
    moves first.  A point off the board or empty, or a group too open to frame (more
    than ``MAX_OPEN`` of the points beside its region are empty, no attacker block can
    be the wall, or the search area has more than ``max_area`` empty points) raises
    :class:`ProblemError`, its reason saying what to try.
    """
    size = position.size
    target = group_target(position, group, source)
    name = go_point(*target, size)
    defender = int(position.stones[target[1], target[0]])
    attacker = 3 - defender
    what = f"the {COLOR_NAME[defender]} group at {name}"
    frame = enclose(position.stones, target)
    problem = Problem(source=source, size=size, stones=frame.stones, target=target,
                      to_play=side(to_play, position))
    open_points, border = open_share(position.stones, frame)
    if open_points > MAX_OPEN * border:
        raise ProblemError(source, f"{what} is too open to frame: {open_points} of the {border} points "
                                   f"around its region are empty, and the frame would fill them with "
                                   f"{COLOR_NAME[attacker]} stones (at most a third may be); try a group "
                                   f"the game has nearly surrounded, or a later move")
    verdict, area, _ = size_up(problem, frame, max_area)
    if verdict == NO_WALL:
        raise ProblemError(source, f"{what} cannot be framed: no {COLOR_NAME[attacker]} block around "
                                   "its region has two liberties outside it to be the wall; the stones "
                                   "around it are short of liberties themselves: try one of them")
    if verdict == TOO_LARGE:
        raise ProblemError(source, f"{what} is too open to frame: its region has {area} empty points, "
                                   f"over the {max_area} the solver reads; try a group the game has "
                                   "nearly surrounded, or a later move")
    return problem


@dataclass(frozen=True)
class FrameChanges:
    """What a frame changed on the game's board, which every framed answer assumes."""

    added: tuple[tuple[int, int], ...]     # the wall's stones, on points empty in the game
    removed: tuple[tuple[int, int], ...]   # the defender's stones outside it, left without a liberty
    colour: int                            # the added stones' colour: the attacker's

    def words(self, size: int) -> str:
        """``the frame added 3 white stones the game does not have: F19 C15 C16``, and
        ``; it took off black A1`` where it took stones off."""
        def points(found) -> str:
            return " ".join(go_point(x, y, size) for x, y in found)

        if not self.added and not self.removed:
            return "the game closes the group itself: the frame added no stone"
        plural = "" if len(self.added) == 1 else "s"
        words = (f"the frame added {len(self.added)} {COLOR_NAME[self.colour]} stone{plural} the game "
                 f"does not have: {points(self.added)}")
        if self.removed:
            words += f"; it took off {COLOR_NAME[3 - self.colour]} {points(self.removed)}"
        return words


def frame_changes(position: GamePosition, problem: Problem) -> FrameChanges:
    """The stones ``problem`` (a frame of ``position``) has and the game does not, and the reverse,
    each in reading order (top row first)."""
    before, after = position.stones, problem.stones
    def changed(where) -> tuple[tuple[int, int], ...]:
        return tuple((int(x), int(y)) for y, x in zip(*np.nonzero(where)))

    return FrameChanges(added=changed((before == EMPTY) & (after != EMPTY)),
                        removed=changed((before != EMPTY) & (after == EMPTY)),
                        colour=problem.attacker)


# The SGF marks of what a frame changed (FrameChanges), and what the comment says of them.
ADDED_MARK, REMOVED_MARK = "TR", "CR"
MARKS_SAID = ("Triangles: stones the frame added, which the game does not have; circles: stones "
              "of the game the frame took off.  The answer holds for the framed position.")


def solution_sgf(problem: Problem, lines: list[list[tuple[int, tuple[int, int] | str]]],
                 comment: str, changes: FrameChanges | None = None) -> str:
    """The framed problem as SGF (``SZ PL AB AW MA C``) with each line a variation from the root.

    A line is a list of (colour, (x, y) or ``"pass"``), as
    :attr:`solver.principal_variation.PrincipalVariation.moves`; a pass is ``B[]``/``W[]``.
    With ``changes``, the frame's stones are marked (``TR``, ``CR`` on the points it took
    stones off) and the comment says so.
    """
    stones = problem.stones
    marks = []
    if changes is not None and (changes.added or changes.removed):
        comment = f"{comment}\n\n{MARKS_SAID}"
        marks = [(ADDED_MARK, [sgf_point(*p) for p in changes.added]),
                 (REMOVED_MARK, [sgf_point(*p) for p in changes.removed])]
    root = node([("FF", ["4"]), ("GM", ["1"]), ("SZ", [str(problem.size)]),
                 ("GN", [escape_text(problem.properties["GN"])] if "GN" in problem.properties else []),
                 ("C", [escape_text(comment)] if comment else []),
                 ("PL", [color_letter(problem.to_play)] if problem.to_play else []),
                 ("AB", stone_points(stones, BLACK)), ("AW", stone_points(stones, WHITE)),
                 ("MA", [sgf_point(*problem.target)]), *marks])
    variations = [game_tree([node([(color_letter(color), ["" if move == "pass" else sgf_point(*move)])])
                             for color, move in line]) for line in lines if line]
    return game_tree([root], variations, line_per_variation=True) + "\n"


def add_group_options(parser) -> None:
    """``--group``, ``--move`` and ``--to-play``, for the commands that answer about a group
    (``solve``, ``eval``): their files are then game records."""
    parser.add_argument("--group", metavar="POINT",
                        help="the files are game records: answer for the group holding the stone at "
                             "this Go coordinate (e.g. D4), framed as enclose frames a book corner")
    parser.add_argument("--move", type=int, metavar="N",
                        help="with --group: the position after move N (default: the last move; "
                             "for a problem file, with AB, AW and PL at its root, the root)")
    parser.add_argument("--to-play", choices=("B", "W"),
                        help="with --group: who moves first (default: the game's next player)")


def check_group_options(args) -> None:
    if args.group is None and (args.move is not None or args.to_play is not None):
        args.parser.error("--move and --to-play choose a game's position: give --group too")


def wider_frame(position: GamePosition, problem: Problem, changes: FrameChanges,
                max_area: int) -> tuple[Problem | None, str]:
    """(the group framed again with the points ``problem``'s frame filled left empty, its wall one
    step further out, or None, why not).  Those points are the defender's to play as much as
    the attacker's there, where the first frame gave them to the attacker.  A frame that added
    nothing, or one the solver cannot read (no wall, more than ``max_area`` empty points), is
    no check."""
    if not changes.added:
        return None, "the game closes the group itself"
    frame = enclose(position.stones, problem.target, keep=frozenset(changes.added))
    wider = Problem(source=problem.source, size=problem.size, stones=frame.stones, target=problem.target,
                    to_play=problem.to_play)
    verdict, area, _ = size_up(wider, frame, max_area)
    if verdict == NO_WALL:
        return None, "no wall closes the wider frame"
    if verdict == TOO_LARGE:
        return None, f"the wider frame holds {area} empty points, over the {max_area} the solver reads"
    return wider, ""


@dataclass(frozen=True)
class GameGroup:
    """A group of a game framed: the problem, what its frame changed, and the position it came from."""

    problem: Problem
    changes: FrameChanges
    position: GamePosition
    pass_alive: PassAlive | None = None   # alive on the whole board: the problem is the game's, unframed


def group_problem(path: str, args) -> Problem:
    """The problem ``--group``, ``--move`` and ``--to-play`` ask of the game record at ``path``."""
    return framed_game_group(path, args).problem


def framed_game_group(path: str, args) -> GameGroup:
    """:func:`group_problem`, with what its frame changed on the game's board."""
    position = game_position(path, args.move, source=path, player_given=args.to_play is not None)
    return position_group(position, args.group, path, args.to_play, args.max_area)


def position_group(position: GamePosition, group: str, source: str, to_play: str | int | None = None,
                   max_area: int = DEFAULT_MAX_AREA) -> GameGroup:
    """The group at Go coordinate ``group`` of ``position``: pass-alive on the whole board, with no
    frame (:mod:`pipeline.pass_alive`), else framed (:func:`framed_group`)."""
    target = group_target(position, group, source)
    alive = pass_alive(position.stones, target)
    if alive is not None:   # no frame, nothing assumed
        problem = Problem(source=source, size=position.size, stones=position.stones.copy(), target=target,
                          to_play=side(to_play, position))
        return GameGroup(problem, frame_changes(position, problem), position, alive)
    problem = framed_group(position, group, source, to_play=to_play, max_area=max_area)
    return GameGroup(problem, frame_changes(position, problem), position)
