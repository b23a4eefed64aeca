"""``tsumego eval``: the packed network's answer to "is this group safe?", in a Go player's words.

``tsumego eval [--model FILE.tsq|DIR] [--top K] [--json] [--solve [--max-nodes N]] [--end-state]
[--picture out.png|svg [--force]] [--no-symmetries] [--max-area N] FILE.sgf|DIR...``

Without ``--model`` it uses the network shipped in the repository
(``model/networks/conv-books/model-5bit.tsq``, :mod:`model.shipped`);
``--model`` names a packed file or a model folder (its ``model-5bit.tsq``).
A folder among the inputs stands for every ``*.sgf`` below it, sorted; a
folder without any is a bad input (:mod:`pipeline.batch`, as ``solve``).

For each file it cuts the windows of the target block (``pipeline.planes.windows``),
evaluates them with the numpy evaluator and prints, in Go coordinates
(:mod:`solver.coordinates`, ``C17``: column letter without I, row counted
from the bottom) and colours in words, one line (folded here)::

    bent-three-corner-kill.sgf: if White plays first: is the black group at M3 safe? network:
    P(safe) = 0.30, probably dies; moves: N1 0.997, K1 0.002, K3 0.001; if Black plays first:
    P(safe) = 1.00

the probability that the target is safe with PL moving first (the mean over
the block's windows), said with ``tsumego solve``'s verbs (lives, dies), PL's
K most likely moves (each window's move head mapped back to the board and
averaged), the network's answer with the other side first, then the file's own label (``TS``)
in words if it has one (``file's label: unsafe``).  P(safe) is also averaged over
the 8 symmetries of each window unless ``--no-symmetries``: that scored
higher on the records of problems the network never saw (measured:
RESULTS.md, "Dense network on the reference problems" and "The shipped
network, longer and with the reference problems").

The line says ``maybe lives (unsure: ...)`` instead of ``probably lives``
when P(safe) as printed (two decimals) lies within ``UNSURE_BELOW..UNSURE_ABOVE``
or when the two answers contradict each other (:func:`why_unsure`).
``--solve`` proves every answer with the exact solver (PL first, ``--max-nodes``
a file) and adds its answer in ``tsumego solve``'s words
(:mod:`pipeline.group_answer`: ko said as ko, no move where none is needed),
``solver: White to play kills the black group at M3: W N1 (proved, ...), as
the network said``, or ``solver: unknown within N nodes`` when the budget runs
out: the network's answer then stands.

``--json`` prints one object a file instead: ``file``, ``to_play`` (``B`` or
``W``, as ``solve --json``), ``target`` (``M3``) and ``target_sgf`` (``lk``),
``safe``, ``safe_other_first``, ``unsure`` (true or false) and
``unsure_why``, ``label`` (``TS``: 1, 0 or null), ``moves`` (``{"move":
"N1", "sgf": "mm", "p": 0.997}``, best first), with ``--end-state`` the
``end_state`` rows and with ``--solve`` ``solver`` (``status``, ``move``,
``sgf``, ``verdict``, ``ko``, ``standing``, ``nodes``, ``seconds``, ``nodes_total``,
``seconds_total``, as ``solve --json``; the move null where PL has no winning one,
``pass``/``""`` where none is needed).

A bad file gets one error line naming it; the others are still evaluated.
A position ``tsumego solve`` refuses (an open wall, a search area over
``--max-area``) is refused with the same line: the network was trained on
enclosed positions only.  The run ends with one line on stderr, ``eval: read
N = answered A + rejected R``, and the exit code is 1 when any input was
rejected.

``--end-state`` (a network with the end-state head) also prints the board at
the end as the network sees it: each point's most likely owner once the
principal variation is played out (each window's answer mapped back to the
board, averaged over the windows that reach the point), beside the board now,
Go coordinates on the edges; with ``--json`` it is the ``end_state`` rows
(top row first).

``--picture`` draws each board as a Go player reads it (:func:`draw_board`),
the part around the stones and moves only: black and white stones, Go coordinates on the four sides, the target
block's stones marked with a blue square, a halo around every stone coloured
by the network's belief that its block survives when PL moves first, the
title's question asked of every block (green safe, red dead; the colorbar
says so), PL's best moves numbered
1, 2, 3, and the question with the network's (and the solver's) answer as the
title.  With ``--end-state``, what the network expects to change by the end:
a square in a colour on each point that colour holds at the end but not now,
a cross on each stone gone.  It prints ``picture: PATH`` (on stderr with
``--json``, so that stdout stays JSON lines).  With several files, each
picture is named ``<picture stem>-<file stem>.<ext>``; two files of one stem
are refused before any evaluation, and so is a picture that exists already,
unless ``--force``; missing folders on its way are created.

With ``--group`` the line (and ``--json``'s ``frame``) lists the stones the
frame added, the picture marks them with grey triangles, and ``--solve``
checks its proof against a wider frame (:mod:`pipeline.frame_check`), saying
where the group depends on the surroundings.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path

import numpy as np

from pipeline.errors import CommandError
from pipeline.formats.records import END_STATE_CLASSES, WINDOW
from pipeline.game_group import add_group_options
from pipeline.paths import check_output_file
from solver.area import DEFAULT_MAX_AREA
from solver.board import BLACK, EMPTY, WHITE
from solver.coordinates import GO_COLUMNS, go_point

HALF = WINDOW // 2

# The network answers "safe" at P(safe) >= 0.5, its best threshold on the records
# (RESULTS.md, "P(safe)'s threshold").  Within 0.15 of it the answer is too near a coin
# toss to take on trust: a player should read it out, or ask the solver (--solve).  The
# edges are a judgement; on the 97 own problems (sgf-problems/, shipped network, 8
# symmetries) it was right on 10 of the 18 answers inside the band, 62 of the 79 outside.
UNSURE_BELOW, UNSURE_ABOVE = 0.35, 0.65

# --solve's node budget a file: a tenth of solve's (pipeline.cli.DEFAULT_SOLVE_MAX_NODES),
# so that eval stays a quick look; the own problems need 32,000 nodes at most.
DEFAULT_EVAL_MAX_NODES = 1_000_000

COLOUR_NAME = {BLACK: "Black", WHITE: "White"}


def register(commands) -> None:
    parser = commands.add_parser("eval", help="the packed network's answer and moves on SGF files, "
                                              "in Go coordinates")
    parser.add_argument("inputs", nargs="+", metavar="FILE.sgf|DIR",
                        help="problem or subproblem files; a folder stands for every *.sgf below it")
    parser.add_argument("--model", help="packed network (.tsq, tsumego quantize) or a model folder (its "
                                        "model-5bit.tsq) (default: the shipped network, "
                                        "model/networks/conv-books)")
    parser.add_argument("--top", type=int, default=3,
                        help="how many of PL's moves to print and number on the picture (default: %(default)s)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per line instead of the text line (default: off)")
    parser.add_argument("--solve", action="store_true",
                        help="also prove each answer with the exact solver, PL moving first (default: off)")
    parser.add_argument("--max-nodes", type=int, default=None, metavar="N",
                        help="--solve's node budget a file; past it the solver's answer is 'unknown' "
                             f"(default: {DEFAULT_EVAL_MAX_NODES:,}; 0: none)")
    parser.add_argument("--picture", help="draw each board to this .png or .svg (with several files, "
                                          "one picture each, named after the file) (default: none)")
    parser.add_argument("--force", action="store_true",
                        help="let --picture overwrite existing files (default: off)")
    parser.add_argument("--symmetries", action=argparse.BooleanOptionalAction, default=True,
                        help="average P(safe) over the 8 symmetries of each window (8 times the work; "
                             "right more often on problems the network never saw) (default: on)")
    parser.add_argument("--end-state", action="store_true",
                        help="also print (and with --picture draw) each point's most likely owner at the "
                             "end of the principal variation (a network with the end-state head) "
                             "(default: off)")
    add_group_options(parser)
    parser.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                        help="reject positions whose search area has more empty points, as solve does "
                             "(default: %(default)s)")
    parser.set_defaults(run=run)


@dataclasses.dataclass
class Verdict:
    """The network's answer for one position."""

    safe: float                               # P(target safe), PL moving first
    stone_safe: list[float]                   # per target stone, row-major
    moves: list[tuple[tuple[int, int], float]]  # ((x, y), probability), best first
    # EMPTY/BLACK/WHITE [y, x]: each point's most likely owner at the end, -1 where no
    # window reaches; None unless asked of a network with the end-state head
    end_state: np.ndarray | None = None


@dataclasses.dataclass
class Answer:
    """Everything eval says about one file."""

    path: str
    sub: object                    # the Subproblem read from it
    verdict: Verdict               # the network's, PL moving first
    safe_other_first: float        # the network's P(safe), the other side moving first
    unsure: str | None             # why the network's answer is not to be trusted, or None
    proof: object | None = None    # the solver's pipeline.group_answer.GroupAnswer, with --solve
    group: object | None = None    # with --group, the pipeline.game_group.GameGroup framed
    check: object | None = None    # with --group --solve, the wider frame's pipeline.frame_check.FrameCheck


def evaluate_position(net, sub, top: int, symmetries: bool = False, end_state: bool = False) -> Verdict:
    """Evaluate the target block of ``sub`` (any object with stones, target, to_play).

    With ``symmetries`` each stone's P(safe) is the mean over its window turned
    by the 8 symmetries of the square; the moves come from the windows as they are,
    and so does the end state (``end_state``, for a network with that head).
    """
    from pipeline.planes import plane_names
    from pipeline.formats.records import plane_indices
    from pipeline.planes.windows import subproblem_windows

    windows, _ = subproblem_windows(sub)
    # The network may have been trained on some of the planes only: pick its own, in its order.
    windows = windows[..., plane_indices(plane_names(), net.planes)]
    stone_safe, move_probs, end_state_probs = net.evaluate_all(windows)
    if symmetries:
        stone_safe = net.safe_over_symmetries(windows, stone_safe)
    return Verdict(float(stone_safe.mean()), [float(p) for p in stone_safe],
                   best_moves(sub, move_probs, top),
                   end_state_owners(sub, end_state_probs) if end_state and end_state_probs is not None else None)


def other_side_first(sub):
    """The same position with the other side to move (no labels: they hold for PL first)."""
    return dataclasses.replace(sub, to_play=3 - sub.to_play, best_move=None, safe=None)


def shown(probability: float) -> float:
    """A probability as the text prints it (two decimals): the unsure band and the answer's
    side of one half are read on it, so that the words never contradict the number."""
    return round(probability, 2)


def says_safe(probability: float) -> bool:
    """Whether the network's P(safe) answers yes (:data:`UNSURE_BELOW` and above are read on
    the shown value, as every word about it)."""
    return shown(probability) >= 0.5


def why_unsure(sub, safe: float, safe_other_first: float) -> str | None:
    """Why the network's P(safe) with PL first is not to be trusted, in words; None when it is.

    Near 0.5 it is a coin toss.  And having the move never hurts in this game, so P(safe) with
    the attacker first above P(safe) with the defender first, on the other side of 0.5, is the
    network contradicting itself (the other way round is an unsettled group: whoever moves
    first wins, as in every own problem).
    """
    if UNSURE_BELOW <= shown(safe) <= UNSURE_ABOVE:
        return f"P(safe) within {UNSURE_BELOW}..{UNSURE_ABOVE}"
    tx, ty = sub.target
    defender = int(sub.stones[ty, tx])
    defender_first, attacker_first = ((safe, safe_other_first) if sub.to_play == defender
                                      else (safe_other_first, safe))
    if says_safe(attacker_first) and not says_safe(defender_first):
        return (f"it says safe with {COLOUR_NAME[3 - defender]} (the attacker) first, "
                f"P(safe) = {attacker_first:.2f}, but not with {COLOUR_NAME[defender]} (the defender) "
                f"first, P(safe) = {defender_first:.2f}")
    return None


def on_board(sub, window_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sum [y, x, ...], windows [y, x])``: the windows' values (``[S, 11, 11, ...]``, one window
    per target stone) summed on the board, and how many windows reach each point."""
    size = sub.stones.shape[0]
    total = np.zeros((size, size) + window_values.shape[3:])
    reached = np.zeros((size, size), dtype=np.int64)
    ys, xs = np.nonzero(target_block(sub))
    for values, y, x in zip(window_values, ys, xs):
        # Window rows/cols 0..10 are board rows y-5..y+5 and cols x-5..x+5.
        top_row, left = y - HALF, x - HALF
        rows = slice(max(top_row, 0), min(top_row + WINDOW, size))
        cols = slice(max(left, 0), min(left + WINDOW, size))
        total[rows, cols] += values[rows.start - top_row:rows.stop - top_row,
                                    cols.start - left:cols.stop - left]
        reached[rows, cols] += 1
    return total, reached


def end_state_owners(sub, end_state_probs: np.ndarray) -> np.ndarray:
    """int8 ``[y, x]``: EMPTY, BLACK or WHITE, each point's most likely owner at the end (the
    windows' end-state heads ``[S, 121, 3]`` averaged), -1 where no window reaches."""
    total, reached = on_board(sub, end_state_probs.reshape(-1, WINDOW, WINDOW, END_STATE_CLASSES))
    tx, ty = sub.target
    defender = int(sub.stones[ty, tx])
    colour_of_class = np.array([EMPTY, defender, 3 - defender], dtype=np.int8)   # END_EMPTY, END_ALLY, END_ENEMY
    owners = colour_of_class[total.argmax(axis=-1)]
    owners[reached == 0] = -1
    return owners


# the end state as text; -1: a point no window reaches
END_STATE_GLYPHS = {-1: "?", EMPTY: ".", BLACK: "X", WHITE: "O"}


def end_state_rows(owners: np.ndarray) -> list[str]:
    """The end state, one string a row (``END_STATE_GLYPHS``), for ``--json``."""
    return ["".join(END_STATE_GLYPHS[int(v)] for v in row) for row in owners]


def end_state_text(sub, owners: np.ndarray) -> list[str]:
    """The board now and the end state side by side, Go coordinates on the edges (column letters
    above, row numbers from the bottom on the left): ``X`` black, ``O`` white, ``.`` empty,
    ``?`` a point no window reaches; the target lower case, now."""
    glyph = END_STATE_GLYPHS
    size = sub.stones.shape[0]
    columns = GO_COLUMNS[:size]
    tx, ty = sub.target
    lines = ["   " + "now".ljust(size + 2) + "end", "   " + columns + "  " + columns]
    for y, end in enumerate(end_state_rows(owners)):
        now = [glyph[int(v)] for v in sub.stones[y]]
        if y == ty:
            now[tx] = now[tx].lower()
        lines.append(f"{size - y:>2} " + "".join(now) + "  " + end)
    return lines


def move_board(sub, move_probs: np.ndarray) -> np.ndarray:
    """float64 ``[y, x]``: the windows' move heads (``[S, 121]``, one window per target
    stone) summed on the board and divided by the number of windows."""
    board, _ = on_board(sub, move_probs.reshape(-1, WINDOW, WINDOW))
    board /= len(move_probs)
    return board


def best_moves(sub, move_probs: np.ndarray, top: int) -> list[tuple[tuple[int, int], float]]:
    """Average the windows' move heads on the board; the ``top`` empty points."""
    size = sub.stones.shape[0]
    board = move_board(sub, move_probs)
    board[sub.stones != 0] = -1
    order = np.argsort(-board, axis=None, kind="stable")[:top]
    return [((int(i % size), int(i // size)), float(board.flat[i])) for i in order if board.flat[i] >= 0]


def target_block(sub) -> np.ndarray:
    """bool ``[y, x]``: the stones of the block holding ``sub.target``."""
    from pipeline.planes.regions import label_blocks

    blocks, _, _ = label_blocks(np.ascontiguousarray(sub.stones, dtype=np.int8))
    x, y = sub.target
    return blocks == blocks[y, x]


def stone_safety(net, sub, symmetries: bool = False) -> np.ndarray:
    """float ``[y, x]``: on every stone, the network's P(its block survives, PL moving first),
    the question the title answers for the target, asked of every block (the mean over the
    block's windows, so one value a block); NaN on empty points."""
    from pipeline.planes.regions import label_blocks

    stones = np.ascontiguousarray(sub.stones, dtype=np.int8)
    blocks, _, _ = label_blocks(stones)
    safety = np.full(stones.shape, np.nan)
    for label in range(int(blocks.max()) + 1):
        ys, xs = np.nonzero(blocks == label)
        block_sub = dataclasses.replace(sub, target=(int(xs[0]), int(ys[0])), best_move=None)
        safety[ys, xs] = evaluate_position(net, block_sub, top=0, symmetries=symmetries).safe
    return safety


def run(args) -> int:
    from pipeline.batch import Tally, input_files
    from pipeline.formats.subproblem import load_subproblem
    from pipeline.game_group import check_group_options, framed_game_group
    from pipeline.warm_up import warm_up_planes, warm_up_solver
    from solver import ProblemError, search_area

    check_options(args)
    check_group_options(args)
    files, rejected = input_files(args.inputs)
    if args.picture:
        check_pictures(args.picture, files, args.force)
    net = load_network(args)
    tally = Tally("eval")
    for path, reason in rejected:
        tally.reject(path, reason)
    # machine code loads (or compiles, said on stderr) here, never inside a file's answer
    warm_up_planes()
    if args.solve:
        warm_up_solver(say=lambda line: print(line, file=sys.stderr, flush=True))
    for path in files:
        try:
            group = None if args.group is None else framed_game_group(path, args)
            sub = load_subproblem(path) if group is None else group_subproblem(group, path)
            # The network only knows enclosed positions: what solve refuses is refused here, in its words.
            search_area(sub.problem(path), args.max_area)
            answer = answer_position(net, path, sub, args, group)
        except (ProblemError, ValueError) as exc:
            tally.reject(path, str(exc))
            continue
        tally.answer()
        show(answer, args)
        if args.picture:
            draw_picture(net, answer, picture_path(args.picture, path, len(files)), args.json, args.symmetries)
    return tally.close()


def group_subproblem(group, path: str):
    """``--group``: the game record's group framed (a :class:`pipeline.game_group.GameGroup`),
    unlabelled."""
    from pipeline.formats.subproblem import Subproblem

    problem = group.problem
    return Subproblem(size=problem.size, stones=problem.stones, target=problem.target,
                      to_play=problem.to_play, source=path)


def draw_picture(net, answer: Answer, picture: str, json_lines: bool, symmetries: bool) -> None:
    """:func:`draw_board` for one answer, then its name (on stderr when stdout holds JSON lines)."""
    os.makedirs(os.path.dirname(os.path.abspath(picture)), exist_ok=True)
    added = () if answer.group is None else answer.group.changes.added
    draw_board(answer.sub, stone_safety(net, answer.sub, symmetries), answer.verdict.moves, picture,
               picture_title(answer), end_state=answer.verdict.end_state, framed=added)
    print(f"picture: {picture}", file=sys.stderr if json_lines else sys.stdout, flush=True)


def check_options(args) -> None:
    if args.picture and os.path.splitext(args.picture)[1].lower() not in (".png", ".svg"):
        args.parser.error(f"--picture {args.picture}: the name must end in .png or .svg")
    if args.max_nodes is not None and not args.solve:
        args.parser.error("--max-nodes is --solve's budget: give --solve too")
    if args.max_nodes is not None and args.max_nodes < 0:
        args.parser.error("--max-nodes must not be negative")
    if args.top < 0:
        args.parser.error("--top must not be negative")
    if args.max_nodes is None:
        args.max_nodes = DEFAULT_EVAL_MAX_NODES


def check_pictures(picture: str, files: list[str], force: bool) -> None:
    """Refuse, before any evaluation, a picture that exists (unless ``force``) or two files that
    would be drawn to one picture (one stem in two folders)."""
    drawn: dict[str, str] = {}
    for path in files:
        out = picture_path(picture, path, len(files))
        if out in drawn:
            raise CommandError(f"--picture {picture}: {drawn[out]} and {path} would both be drawn to {out}",
                               code=2)
        drawn[out] = path
        check_output_file(out, "--picture", force)


def load_network(args):
    """The packed network ``--model`` names (or the shipped one), checked against the planes
    this code computes and against ``--end-state``."""
    from model.numpy_net import NumpyNet
    from model.shipped import packed_file
    from pipeline.planes import plane_names
    from pipeline.formats.records import plane_indices

    args.model = packed_file(args.model)
    try:
        net = NumpyNet.load(args.model)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{args.model}: cannot load the network ({exc})") from exc
    try:
        plane_indices(plane_names(), net.planes)
    except ValueError as exc:
        raise CommandError(f"{args.model}: cannot feed the network: {exc}; "
                           "retrain it on fresh features") from exc
    if args.end_state and not net.end_state:
        raise CommandError(f"{args.model}: the network has no end-state head (trained with "
                           "--end-state-weight 0, on records without end states, or before the head)")
    return net


def answer_position(net, path: str, sub, args, group=None) -> Answer:
    """The network's answer with PL first and with the other side first, and with ``--solve``
    the solver's proof, checked against a wider frame for a group of a game (``group``, as
    ``tsumego solve --group`` checks it: :mod:`pipeline.frame_check`)."""
    verdict = evaluate_position(net, sub, args.top, args.symmetries, args.end_state)
    other = evaluate_position(net, other_side_first(sub), 0, args.symmetries).safe
    proof = prove(sub, path, args.max_nodes, args.max_area) if args.solve else None
    check = None
    if proof is not None and group is not None:
        from pipeline.frame_check import check_wider_frame
        from pipeline.group_answer import EACH

        check = check_wider_frame(group, proof, EACH, args.max_area, {}, max_nodes=args.max_nodes)
    return Answer(path, sub, verdict, other, why_unsure(sub, verdict.safe, other), proof, group, check)


def prove(sub, path: str, max_nodes: int, max_area: int):
    """The exact solver's answer, PL moving first, as ``tsumego solve`` gives it
    (:class:`pipeline.group_answer.GroupAnswer`: the label's verdict, ko said as ko)."""
    from pipeline.group_answer import answer_group
    from solver import Solver

    return answer_group(Solver(sub.problem(path), max_area=max_area), sub.to_play, max_nodes=max_nodes)


def show(answer: Answer, args) -> None:
    if args.json:
        print(json.dumps(json_row(answer)), flush=True)
        return
    print(answer_line(answer, args.max_nodes), flush=True)
    if args.end_state:
        print("each point's most likely owner at the end of the principal variation "
              "(X black, O white, . empty, ? out of every window):",
              *end_state_text(answer.sub, answer.verdict.end_state), sep="\n", flush=True)


def question(sub) -> str:
    """``if White plays first: is the black group at M3 safe?``: the one question the line, the
    title and the halos answer."""
    tx, ty = sub.target
    defender = int(sub.stones[ty, tx])
    return (f"if {COLOUR_NAME[sub.to_play]} plays first: is the {COLOUR_NAME[defender].lower()} group at "
            f"{go_point(tx, ty, sub.size)} safe?")


def leaning(answer: Answer) -> str:
    """The network's answer in ``tsumego solve``'s verbs: ``probably dies``, ``maybe lives`` (unsure)."""
    verb = "lives" if says_safe(answer.verdict.safe) else "dies"
    return f"probably {verb}" if answer.unsure is None else f"maybe {verb}"


def network_answer(answer: Answer) -> str:
    """``P(safe) = 0.30, probably dies``, and why unsure when it is."""
    unsure = "" if answer.unsure is None else f" (unsure: {answer.unsure})"
    return f"P(safe) = {answer.verdict.safe:.2f}, {leaning(answer)}{unsure}"


def other_side_answer(answer: Answer) -> str:
    """``if Black plays first: P(safe) = 0.90``: the network's other answer, which the unsure
    check reads too."""
    return f"if {COLOUR_NAME[3 - answer.sub.to_play]} plays first: P(safe) = {answer.safe_other_first:.2f}"


def solver_answer(answer: Answer, max_nodes: int) -> str:
    """``White to play kills the black group at M3: W N1 (proved, 93 nodes, 0.08 s), as the
    network said``, in ``tsumego solve``'s words; or unknown."""
    from pipeline.group_answer import answer_words

    proof = answer.proof
    if proof.verdict.status == "unknown":
        return (f"unknown within {nodes(max_nodes)} ({proof.seconds:.2f} s): the network's answer stands"
                + (", unsure" if answer.unsure else ""))
    cost = f"{nodes(proof.nodes)}, {proof.seconds:.2f} s"
    # the network learnt the label's question, where the attacker wins any ko
    agrees = (proof.verdict.status == "safe") == says_safe(answer.verdict.safe)
    ko = ", which reads a ko as the attacker's" if proof.ko else ""
    if answer.check is not None and answer.check.agrees_with(proof) is False:
        return f"{proved_words(answer)} (proved, {cost})"   # the network read one frame only
    return (f"{proved_words(answer)} (proved, {cost}), "
            f"{'as' if agrees else 'not what'} the network said{ko}")


def proved_words(answer: Answer) -> str:
    """The solver's answer in ``tsumego solve``'s words; for a group of a game whose wider frame
    answers otherwise, both frames' answers (``... depends on the surroundings: ...``)."""
    from pipeline.frame_check import depends_words
    from pipeline.group_answer import answer_words

    sub, check = answer.sub, answer.check
    if check is not None and check.agrees_with(answer.proof) is False:
        return depends_words(answer.proof, check, sub.size, sub.target)
    return answer_words(answer.proof, sub.size, sub.target)


def nodes(count: int) -> str:
    return f"{count:,} node{'' if count == 1 else 's'}"


def answer_line(answer: Answer, max_nodes: int) -> str:
    sub = answer.sub
    moves = ", ".join(f"{go_point(*point, sub.size)} {p:.3f}" for point, p in answer.verdict.moves) or "-"
    line = (f"{answer.path}: {question(sub)} network: {network_answer(answer)}; moves: {moves}; "
            f"{other_side_answer(answer)}")
    if sub.safe is not None:
        line += f"; file's label: {'safe' if sub.safe else 'unsafe'}"
    if answer.proof is not None:
        line += f"; solver: {solver_answer(answer, max_nodes)}"
    if answer.group is not None:
        line += f"; framed: {answer.group.changes.words(sub.size)}"
        if answer.check is not None and answer.check.agrees_with(answer.proof):
            line += "; checked: a wider frame, leaving those points empty, gives the same answer"
    return line


def json_row(answer: Answer) -> dict:
    from solver.board import color_letter
    from solver.problem import sgf_point

    sub, verdict = answer.sub, answer.verdict
    row = {"file": answer.path, "to_play": color_letter(sub.to_play),
           "target": go_point(*sub.target, sub.size), "target_sgf": sgf_point(*sub.target),
           "safe": round(verdict.safe, 4), "safe_other_first": round(answer.safe_other_first, 4),
           "unsure": answer.unsure is not None, "unsure_why": answer.unsure,
           "label": None if sub.safe is None else int(sub.safe),
           "moves": [{"move": go_point(*point, sub.size), "sgf": sgf_point(*point), "p": round(p, 4)}
                     for point, p in verdict.moves]}
    if verdict.end_state is not None:
        row["end_state"] = end_state_rows(verdict.end_state)
    if answer.proof is not None:
        from pipeline.group_answer import answer_fields

        row["solver"] = answer_fields(answer.proof, sub.size, sub.target)
    if answer.group is not None:
        from pipeline.frame_check import check_fields, frame_fields

        row["frame"] = frame_fields(answer.group.changes, sub.size)
        if answer.check is not None:
            row["solver"]["verdict"] = proved_words(answer)
            row["solver"]["wider_frame"] = check_fields(answer.proof, answer.check, sub.size, sub.target)
    return row


def picture_path(picture: str, sgf_path: str, files: int) -> str:
    if files == 1:
        return picture
    stem, ext = os.path.splitext(picture)
    return f"{stem}-{Path(sgf_path).stem}{ext}"


def picture_title(answer: Answer) -> list[str]:
    """The picture's title lines: the file, the question, the network's and the solver's answers
    (the solver's in ``tsumego solve``'s words, a line at each ``; ``)."""
    lines = [Path(answer.path).name, question(answer.sub),
             f"network: P(safe) = {answer.verdict.safe:.2f}, {leaning(answer)}; {other_side_answer(answer)}"]
    proof = answer.proof
    if proof is not None:
        if proof.verdict.status == "unknown":
            lines.append("solver: unknown, out of nodes")
        else:
            words = proved_words(answer).replace(": in this frame, ", "; in this frame, ").split("; ")
            lines.extend([f"solver: {words[0]}", *words[1:]])
    return lines


# Star points (hoshi) as Go boards print them, by board size: the lines they stand on;
# on 9×9 and 13×13 only the four corner ones and the centre.
STAR_LINES = {9: (2, 4, 6), 13: (3, 6, 9), 19: (3, 9, 15)}
TARGET_MARK = "#1565ff"        # blue: apart from the halos' red-to-green
FRAMED_MARK = "#8c8c8c"        # grey on either colour of stone: the frame's, not the game's
SAFETY_COLOURS = "RdYlGn"      # red dead, yellow unsure, green safe


def draw_board(sub, safety: np.ndarray, moves, path: str, title: list[str],
               end_state: np.ndarray | None = None, framed=()) -> None:
    """The board as a Go player reads it: the stones, Go coordinates on the four sides, a halo
    around every stone coloured by ``safety`` (one value a block, :func:`stone_safety`; red 0
    to green 1, the colorbar says what it is), a blue square on each stone of the target
    block, ``moves`` numbered 1, 2, ... on translucent stones of PL's colour, and ``title``
    (lines) above.  With ``end_state`` (the owners of :func:`end_state_owners`), a square
    in the owner's colour on each point a colour holds at the end where it does not now,
    and a grey cross on each stone gone at the end.  ``framed``: the points of the stones a
    frame added, which the game does not have, each marked with a grey triangle.  Only the
    part of the board around the stones is shown (:func:`view_box`)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    box = view_box(sub.stones, moves)
    width, height = box[1] - box[0] + 1, box[3] - box[2] + 1
    # An SVG keeps its words as text, which a reader can select and search.
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig, ax = plt.subplots(figsize=(0.45 * max(width, 7) + 1, 0.45 * height + 0.25 * len(title) + 1.6))
        draw_grid(ax, sub.stones.shape[0], box)
        draw_stones(ax, sub.stones, safety)
        mark_target(ax, sub)
        number_moves(ax, moves, sub.to_play)
        if end_state is not None:
            mark_end_state(ax, sub.stones, end_state)
        mark_framed(ax, framed)
        ax.set_title("\n".join(title), fontsize=8, pad=16)
        add_legend(fig, ax, moves, sub.to_play, end_state is not None, bool(framed))
        fig.savefig(path, dpi=150, bbox_inches="tight",
                    metadata={"Date": None} if path.endswith(".svg") else None)
        plt.close(fig)


def mark_framed(ax, points) -> None:
    """A grey triangle on each stone a frame added: unlike the game's stones, an assumption."""
    for x, y in points:
        ax.plot(x, y, marker="^", markersize=7, color=FRAMED_MARK, zorder=5)


def add_legend(fig, ax, moves, to_play: int, end_state: bool, framed: bool = False) -> None:
    """The halos' colorbar, saying what they are, and under it what the marks are."""
    import matplotlib

    colours = matplotlib.cm.ScalarMappable(matplotlib.colors.Normalize(0, 1), SAFETY_COLOURS)
    colorbar = fig.colorbar(colours, ax=ax, orientation="horizontal", fraction=0.05, pad=0.08, aspect=25)
    colorbar.set_label(f"halo: P(block survives if {COLOUR_NAME[to_play]} plays first)", fontsize=7)
    colorbar.ax.tick_params(labelsize=6)
    legend = "blue squares: the target group"
    if moves:
        legend += f"; 1-{len(moves)}: {COLOUR_NAME[to_play]}'s likely moves (network)"
    if end_state:
        legend += "\nsmall squares: who holds the point at the end; crosses: stones gone (network)"
    if framed:
        legend += "\ngrey triangles: stones the frame added, which the game does not have"
    colorbar.ax.text(0.5, -3.2, legend, transform=colorbar.ax.transAxes, ha="center", va="top", fontsize=7)


# How many lines the picture shows around the stones and moves: enough to see the
# shape's surroundings, as a problem book's diagram does.
VIEW_MARGIN = 2


def view_box(stones: np.ndarray, moves) -> tuple[int, int, int, int]:
    """``(x0, x1, y0, y1)``: the part of the board the picture shows, inclusive; the stones'
    and moves' bounding box and ``VIEW_MARGIN`` lines around, within the board."""
    size = stones.shape[0]
    ys, xs = np.nonzero(stones)
    xs = [*xs.tolist(), *(x for (x, _), _ in moves)]
    ys = [*ys.tolist(), *(y for (_, y), _ in moves)]
    if not xs:
        return 0, size - 1, 0, size - 1
    return (max(min(xs) - VIEW_MARGIN, 0), min(max(xs) + VIEW_MARGIN, size - 1),
            max(min(ys) - VIEW_MARGIN, 0), min(max(ys) + VIEW_MARGIN, size - 1))


def draw_grid(ax, size: int, box: tuple[int, int, int, int]) -> None:
    """The wooden board, its lines and star points, and Go coordinates on all four sides, as
    far as ``box`` (:func:`view_box`): lines cut at its sides where the board goes on."""
    x0, x1, y0, y1 = box
    ax.set_facecolor("#dcb35c")
    for i in range(size):
        ax.plot([0, size - 1], [i, i], color="k", lw=0.7, zorder=1)
        ax.plot([i, i], [0, size - 1], color="k", lw=0.7, zorder=1)
    for x, y in star_points(size):
        ax.plot(x, y, "o", color="k", markersize=3, zorder=1)
    # half a line of wood past the board's edge; the lines run on past a cut side
    ax.set_xlim(x0 - (0.7 if x0 == 0 else 0.5), x1 + (0.7 if x1 == size - 1 else 0.5))
    ax.set_ylim(y1 + (0.7 if y1 == size - 1 else 0.5), y0 - (0.7 if y0 == 0 else 0.5))   # row 0 at the top
    ax.set_xticks(range(x0, x1 + 1), list(GO_COLUMNS[x0:x1 + 1]))
    ax.set_yticks(range(y0, y1 + 1), [str(size - y) for y in range(y0, y1 + 1)])
    ax.tick_params(length=0, labelsize=7, top=True, labeltop=True, right=True, labelright=True)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_aspect("equal")


def star_points(size: int) -> list[tuple[int, int]]:
    lines = STAR_LINES.get(size, ())
    points = [(x, y) for x in lines for y in lines]
    return points if size == 19 else [(x, y) for x, y in points if (x == y) or (x + y == size - 1)]


def draw_stones(ax, stones: np.ndarray, safety: np.ndarray) -> None:
    """Black and white stones, each in a halo of its block's safety colour."""
    import matplotlib
    import matplotlib.pyplot as plt

    cmap = matplotlib.colormaps[SAFETY_COLOURS]
    for y, x in zip(*np.nonzero(stones)):
        ax.add_patch(plt.Circle((x, y), 0.5, facecolor=cmap(safety[y, x]), edgecolor="none", zorder=2))
        black = stones[y, x] == BLACK
        ax.add_patch(plt.Circle((x, y), 0.36, facecolor="black" if black else "white",
                                edgecolor="black" if black else "#333333", lw=1, zorder=3))


def mark_target(ax, sub) -> None:
    """A blue square on each stone of the target block, rimmed in white on black stones."""
    import matplotlib.pyplot as plt

    for y, x in zip(*np.nonzero(target_block(sub))):
        ax.add_patch(plt.Rectangle((x - 0.14, y - 0.14), 0.28, 0.28, facecolor=TARGET_MARK,
                                   edgecolor="white" if sub.stones[y, x] == BLACK else "none", lw=0.8, zorder=4))


def number_moves(ax, moves, to_play: int) -> None:
    """The moves, best first, as numbered translucent stones of the colour to play."""
    import matplotlib.pyplot as plt
    from matplotlib import patheffects

    black = to_play == BLACK
    # the number outlined in the other colour, legible on an end-state square too
    outline = [patheffects.withStroke(linewidth=2, foreground="black" if black else "white")]
    for number, ((x, y), _) in enumerate(moves, start=1):
        ax.add_patch(plt.Circle((x, y), 0.4, facecolor="black" if black else "white", alpha=0.55,
                                edgecolor="black", lw=1, ls="--", zorder=4))
        ax.text(x, y, str(number), ha="center", va="center", fontsize=8, fontweight="bold",
                color="white" if black else "black", path_effects=outline, zorder=7)


def mark_end_state(ax, stones: np.ndarray, end_state: np.ndarray) -> None:
    """Only the changes: where the board at the end differs from the board now."""
    import matplotlib.pyplot as plt

    for y, x in zip(*np.nonzero((end_state >= 0) & (end_state != stones))):
        owner = int(end_state[y, x])
        if owner == EMPTY:
            ax.plot([x - 0.25, x + 0.25], [y - 0.25, y + 0.25], color="dimgrey", lw=2, zorder=6)
            ax.plot([x - 0.25, x + 0.25], [y + 0.25, y - 0.25], color="dimgrey", lw=2, zorder=6)
        else:
            ax.add_patch(plt.Rectangle((x - 0.2, y - 0.2), 0.4, 0.4, facecolor="black" if owner == BLACK else "white",
                                       edgecolor="dimgrey", lw=1, zorder=6))
