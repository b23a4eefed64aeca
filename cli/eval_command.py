"""``tsumego eval``: the packed network's answer to "is this group safe?", in a Go player's words.

``tsumego eval [--model FILE.tsq|DIR] [--top K] [--json] [--solve [--max-nodes N]] [--end-state]
[--picture out.png|svg [--force]] [--no-symmetries] [--max-area N] FILE.sgf|DIR...``

This module holds the command: its options, the files read and what is printed;
the evaluation is :mod:`model.evaluate`'s, the words :mod:`model.answer_words`',
the picture :mod:`model.picture`'s.  Without ``--model`` it uses the shipped
network (:mod:`model.shipped`).  For each file, one line (folded here)::

    bent-three-corner-kill.sgf: if White plays first: is the black group at M3 safe? network:
    P(safe) = 0.30, probably dies; moves: N1 0.997, K1 0.002, K3 0.001; if Black plays first:
    P(safe) = 1.00

``maybe`` instead of ``probably`` within the unsure band (the network's
``model.json``'s, from ``tsumego card``, else 0.35..0.65) or where the two
answers contradict each other; ``--solve`` adds the exact solver's answer in
``tsumego solve``'s words; ``--json`` one object a file; ``--picture`` the board
as a Go player reads it; ``--group`` a group of a game record, framed as
``solve --group`` frames it (a pass-alive group answered exactly, without a
frame and without the network).  A position ``solve`` refuses is refused with
the same line; the run ends with ``eval: read N = answered A + rejected R``,
exit code 1 if any input was rejected.  Every option and field:
docs/model.md, "Modules" (``tsumego eval``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from model.answer_words import answer_line, json_row
from model.evaluate import (Answer, EvalOptions, answer_position, end_state_text, group_subproblem,
                            load_network, network_unsure_band, stone_safety)
from model.picture import draw_board, picture_title
from pipeline.budgets import EVAL_MAX_NODES
from pipeline.errors import CommandError
from pipeline.game_group import add_group_options
from pipeline.paths import check_output_file
from solver.area import DEFAULT_MAX_AREA
from solver.board import color_letter
from solver.coordinates import go_point


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
                             f"(default: {EVAL_MAX_NODES:,}; 0: none)")
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
    from model.shipped import packed_file

    packed = packed_file(args.model)
    net = load_network(packed, args.end_state)
    options = eval_options(args, network_unsure_band(packed))
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
            if group is not None and group.pass_alive is not None:
                tally.answer()   # an exact answer with no frame: the network, which reads frames, is not asked
                show_pass_alive(path, group, args.json)
                if args.picture:
                    print(f"picture: none for {path}: a pass-alive group has no frame for the network to read",
                          file=sys.stderr, flush=True)
                continue
            sub = load_subproblem(path) if group is None else group_subproblem(group, path)
            # The network only knows enclosed positions: what solve refuses is refused here, in its words.
            search_area(sub.problem(path), args.max_area)
            answer = answer_position(net, path, sub, options, group)
        except (ProblemError, ValueError) as exc:
            tally.reject(path, str(exc))
            continue
        tally.answer()
        show(answer, args.json, options)
        if args.picture:
            draw_picture(net, answer, picture_path(args.picture, path, len(files)), args.json, args.symmetries)
    return tally.close()

def show_pass_alive(path: str, group, json_lines: bool) -> None:
    """A group pass-alive on the game's whole board (:mod:`pipeline.pass_alive`): the exact answer
    for either side first, in ``solve``'s words, and no network."""
    from pipeline.group_answer import answer_words
    from pipeline.pass_alive import standing_answer

    problem, alive = group.problem, group.pass_alive
    words = answer_words(standing_answer(problem.to_play, problem.defender), problem.size, problem.target)
    if json_lines:
        print(json.dumps({"file": path, "to_play": color_letter(problem.to_play),
                          "target": go_point(*problem.target, problem.size), "verdict": words,
                          "pass_alive": alive.points(problem.size), "network": None}), flush=True)
        return
    print(f"{path}: {words}; {alive.why(problem.size, problem.attacker)} (no network: it reads framed groups)",
          flush=True)


def check_options(args) -> None:
    if args.picture and os.path.splitext(args.picture)[1].lower() not in (".png", ".svg"):
        args.parser.error(f"--picture {args.picture}: the name must end in .png or .svg")
    if args.max_nodes is not None and not args.solve:
        args.parser.error("--max-nodes is --solve's budget: give --solve too")
    if args.max_nodes is not None and args.max_nodes < 0:
        args.parser.error("--max-nodes must not be negative")
    if args.top < 0:
        args.parser.error("--top must not be negative")


def eval_options(args, unsure_band: tuple[float, float]) -> EvalOptions:
    """The options of the evaluation; ``unsure_band``, the network's (its model.json's, or the
    fixed one)."""
    return EvalOptions(top=args.top, symmetries=args.symmetries, end_state=args.end_state, solve=args.solve,
                       max_nodes=EVAL_MAX_NODES if args.max_nodes is None else args.max_nodes,
                       max_area=args.max_area, unsure_band=unsure_band)

def draw_picture(net, answer: Answer, picture: str, json_lines: bool, symmetries: bool) -> None:
    """:func:`draw_board` for one answer, then its name (on stderr when stdout holds JSON lines)."""
    os.makedirs(os.path.dirname(os.path.abspath(picture)), exist_ok=True)
    added = () if answer.group is None else answer.group.changes.added
    draw_board(answer.sub, stone_safety(net, answer.sub, symmetries), answer.verdict.moves, picture,
               picture_title(answer), end_state=answer.verdict.end_state, framed=added)
    print(f"picture: {picture}", file=sys.stderr if json_lines else sys.stdout, flush=True)

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

def picture_path(picture: str, sgf_path: str, files: int) -> str:
    if files == 1:
        return picture
    stem, ext = os.path.splitext(picture)
    return f"{stem}-{Path(sgf_path).stem}{ext}"

def show(answer: Answer, json_lines: bool, options: EvalOptions) -> None:
    if json_lines:
        print(json.dumps(json_row(answer)), flush=True)
        return
    print(answer_line(answer, options.max_nodes), flush=True)
    if options.end_state:
        print("each point's most likely owner at the end of the principal variation "
              "(X black, O white, . empty, ? out of every window):",
              *end_state_text(answer.sub, answer.verdict.end_state), sep="\n", flush=True)
