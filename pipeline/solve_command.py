"""``tsumego solve``: the solver's exact answer for problem files, in a Go player's words.

``tsumego solve [--algo dfs|dfpn] [--ko-master each|attacker|defender|none] [--max-nodes N] [--seconds S]
[--max-table-mb M] [--guide FILE.tsq|DIR | --no-guide] [--guide-fade N] [--no-race] [--no-sibling-hints]
[--json] [--pv] [--sgf-out FILE [--force]] FILE_OR_DIR...`` prints one line per problem::

    gop-5522.sgf: Black to play kills the white group at C17: B G19 (proved, 12,620 nodes, 0.07 s)

in Go coordinates (:mod:`solver.coordinates`), a ko said as ko and no move
given where none is needed (:mod:`pipeline.group_answer`); ``--json`` gives one object per
line with the SGF points beside them.  ``--pv`` adds the main line, numbered:
the solver's principal variation (:mod:`solver.principal_variation`) cut where
the status is settled (:mod:`solver.main_line`), and the board at its end.
The search's moves are ordered by a packed network (:mod:`model.guide`), the
shipped one unless ``--guide`` names another or ``--no-guide`` says none: the
same verdicts in fewer nodes.  Folders are read as every ``*.sgf`` below them;
a bad file is one line on stderr and the others are still solved; the run
ends with ``solve: read N = answered A + rejected R`` and exit code 1 if any
file was rejected (:mod:`pipeline.batch`).
"""
from __future__ import annotations

import json
import os
import sys
import time

from pipeline import budgets
from pipeline.batch import REJECTED, Tally, input_files
from pipeline.frame_check import (check_fields, check_lines, check_wider_frame, depends_headline, depends_words,
                                  frame_fields)
from pipeline.game_group import add_group_options, check_group_options, framed_game_group, solution_sgf
from pipeline.group_answer import EACH, NODE_BUDGET, answer_fields, answer_group, colour_name, sgf_of
from pipeline.pass_alive import standing_answer
from pipeline.paths import check_output_file
from pipeline.pattern_options import add_pattern_options, patterns_from_args
from pipeline.time_search import TIME_SEARCH, time_search_options
from pipeline.warm_up import warm_up_planes, warm_up_solver
from solver import ALGORITHMS, DEFAULT_MAX_AREA, DEFAULT_MAX_TABLE_MB, KO_MASTERS, Solver, load_problem
from solver.board import BLACK, color_letter
from solver.coordinates import go_move, go_point
from solver.main_line import settled_length
from solver.principal_variation import TIME_LIMIT_ENDING
from solver.problem import parse_sgf_point, reason_of, sgf_point

# The solve command's node budget, and that of each check of where the main line is
# settled (solver.main_line): the table's, which says where each was measured or chosen.
DEFAULT_SOLVE_MAX_NODES = budgets.SOLVE_MAX_NODES
SETTLED_CHECK_NODES = budgets.SETTLED_CHECK_NODES
# With --seconds the main line, and the check of where it is settled, stop where the answer's
# time ends, or this many CPU seconds after its solves, whichever is later: a line read on a
# proof (DFS's, or df-pn's copied: solver.proof_copy) ends in a fraction of a second, but a
# pass check and the settled check solve positions off the proof, each within its node budget,
# and there are many of them (6.2 CPU s on one line of 12 moves: RESULTS.md, section 167).
LINE_GRACE_SECONDS = 5.0


def search_of(args) -> tuple[str, dict]:
    """``(algo, Solver options)`` of the answer's solves: ``--algo``'s search as it is where it
    is given; else DFS, or with ``--seconds`` the time search (:mod:`pipeline.time_search`:
    DFS for a fifth of the time, then df-pn with the knowledge ``enclose --seconds`` reads
    with).  The verdicts are the same either way."""
    if args.algo is not None:
        return args.algo, {}
    if args.seconds is not None:
        return TIME_SEARCH, time_search_options()
    return "dfs", {}


def budget_words(args) -> str:
    """What stopped an unsettled solve, in words: ``the node budget``, ``10 s``, or both."""
    limits = ([f"{args.max_nodes:,} nodes"] if args.max_nodes else []) + \
        ([f"{args.seconds:g} s"] if args.seconds is not None else [])
    return " or ".join(limits) if args.seconds is not None else NODE_BUDGET


def solve_one(path: str, args, guide=None, move_patterns=True) -> tuple[dict, str, str | None]:
    """(the JSON row, the text, with ``--sgf-out`` the SGF to write) of one problem file."""
    problem, group = problem_of(path, args)
    return answer_problem(problem, group, path, args, guide, move_patterns)


def answer_problem(problem, group, path: str, args, guide=None,
                   move_patterns=True) -> tuple[dict, str, str | None]:
    """:func:`solve_one`'s answer for a problem at hand, named ``path`` (``group``: the framed
    game group it is, or None), for a caller that builds its problems (``tsumego serve``)."""
    if group is not None and group.pass_alive is not None:
        return pass_alive_answer(problem, group.pass_alive, path, args, guide)
    algo, knowledge = search_of(args)
    solver_options = dict(max_table_mb=args.max_table_mb, move_patterns=move_patterns, race=not args.no_race,
                          sibling_hints=not args.no_sibling_hints, **knowledge)
    solver = Solver(problem, max_area=args.max_area, **solver_options)
    solve_options = dict(algo=algo, max_nodes=args.max_nodes, guide=guide)
    # the problem's time (--seconds) bounds its answer's solves, all of them together
    cpu_until = None if args.seconds is None else time.thread_time() + args.seconds
    answer = answer_group(solver, problem.to_play, args.ko_master, budget_words(args), cpu_until=cpu_until,
                          **solve_options)
    verdict = answer.verdict
    size = problem.size
    row = answer_row(problem, answer, path, guide)
    proved = "proved, " if verdict.winner is not None else ""
    nodes = f"{answer.nodes:,} node{'' if answer.nodes == 1 else 's'}"
    headline, changes, framed = row["verdict"], None, []
    if group is not None:
        changes = group.changes
        check = check_wider_frame(group, answer, args.ko_master, args.max_area, solver_options, **solve_options)
        row["frame"] = frame_fields(changes, size)
        row["wider_frame"] = check_fields(answer, check, size, problem.target)
        if check.agrees_with(answer) is False:   # never one frame's answer as the game's
            headline = depends_headline(answer, size, problem.target)
            row["verdict"] = depends_words(answer, check, size, problem.target)
        framed = check_lines(answer, check, changes, size, problem.target)
    text = "\n".join([f"{path}: {headline} ({proved}{nodes}, {answer.seconds:.2f} s)", *framed])
    answer_sgf = None
    if args.pv or args.sgf_out:
        main_line = add_main_line(row, solver, problem, answer, args, cpu_until)
        if args.sgf_out:
            answer_sgf = solution_sgf(problem, [line_moves(row)], row["verdict"], changes)
        if args.pv:
            text += "\n" + main_line
        else:   # the line goes to the file only
            for key in ("pv", "pv_full_length", "final", "pv_complete"):
                row.pop(key)
    return row, text, answer_sgf


def answer_row(problem, answer, path: str, guide=None) -> dict:
    """``--json``'s row of an answer, before the frame's fields and the main line."""
    size = problem.size
    return {"file": path, "to_play": color_letter(problem.to_play), "target": go_point(*problem.target, size),
            "target_sgf": sgf_point(*problem.target), "defender": color_letter(problem.defender),
            **answer_fields(answer, size, problem.target), "frame": None, "wider_frame": None,
            "guide": guide.source if guide is not None else None}


def stone_rows(stones) -> list[str]:
    """A board as ``--json``'s ``final`` gives it: a string a row, ``X`` black, ``O`` white."""
    return ["".join(".XO"[int(c)] for c in row) for row in stones]


def pass_alive_answer(problem, alive, path: str, args, guide=None) -> tuple[dict, str, str | None]:
    """:func:`answer_problem`'s answer for a group pass-alive on the game's whole board
    (:mod:`pipeline.pass_alive`): no frame, no search, the same words as a solved answer."""
    answer = standing_answer(problem.to_play, problem.defender)
    why = alive.why(problem.size, problem.attacker)
    row = {**answer_row(problem, answer, path, guide), "pass_alive": alive.points(problem.size)}
    text = f"{path}: {row['verdict']} (proved, 0 nodes, 0.00 s)\n  {why}"
    if args.pv:
        row.update(pv=[], pv_full_length=0, final=stone_rows(problem.stones), pv_complete=True)
        text += "\n  main line: none needed"
    answer_sgf = solution_sgf(problem, [], f"{row['verdict']}\n\n{why[0].upper()}{why[1:]}.") \
        if args.sgf_out else None
    return row, text, answer_sgf


def problem_of(path: str, args):
    """(the problem a file asks, the framed game group or None): the file itself, or with
    ``--group`` the group of a game record framed after ``--move`` (:mod:`pipeline.game_group`)."""
    if args.group is None:
        return load_problem(path), None
    group = framed_game_group(path, args)
    return group.problem, group


def line_moves(row: dict) -> list:
    """The main line of ``row`` as (colour, (x, y) or ``"pass"``)."""
    return [(BLACK if m["color"] == "B" else 3 - BLACK, "pass" if m["sgf"] == "" else parse_sgf_point(m["sgf"]))
            for m in row["pv"]]


def write_answer(path: str, answer_sgf: str) -> str | None:
    """``--sgf-out``: the problem (framed, with ``--group``) and the main line as a variation,
    the verdict as the comment, for any SGF editor.  None once written, else why not."""
    folder = os.path.dirname(path)
    if folder and not os.path.isdir(folder):
        return f"the folder {folder} does not exist; the answer above is not written"
    try:
        with open(path, "w") as handle:
            handle.write(answer_sgf)
    except OSError as exc:
        return f"cannot write it ({exc.strerror}); the answer above is not written"
    return None


def add_main_line(row: dict, solver, problem, answer, args, cpu_until: float | None = None) -> str:
    """Add the main line to ``row`` (``pv``, ``pv_full_length``, ``final``, ``pv_complete``);
    the text lines that show it: the moves numbered, then the board at the line's end.
    ``cpu_until``: where the answer's time ends (``--seconds``), which the line and the check
    of where it is settled may pass by ``LINE_GRACE_SECONDS`` at most.

    The line is read with the ko master that makes it the answer's (the side to play
    where it must win a ko, else the loser: the winner needs no ko).  Where no move
    is needed, it opens with the side to play's pass and goes on with the other side
    trying its best."""
    ko_master = answer.line_ko_master
    opening = [(problem.to_play, "pass")] if answer.standing is not None else []
    first = 3 - problem.to_play if opening else problem.to_play
    line_until = None if cpu_until is None else max(cpu_until, time.thread_time() + LINE_GRACE_SECONDS)
    # a solve out of budget has no line: the position stays as it is
    line = None if row["status"] == "unknown" else solver.principal_variation(
        first, ko_master=ko_master, max_nodes=args.max_nodes, cpu_until=line_until)
    if line is not None and line.winner is None:   # its first solve ran out: no move is known
        why = "its first solve, by DFS, ran out of " + ("time" if line.ended == TIME_LIMIT_ENDING else "nodes")
        line = None
    else:
        why = f"the solve ran out of {answer.limit}"
    moves = [] if line is None else opening + line.moves[:settled_length(solver, line, ko_master,
                                                                          SETTLED_CHECK_NODES, line_until)]
    size = problem.size
    row["pv"] = [{"color": color_letter(c), "move": go_move(m, size), "sgf": sgf_of(m)} for c, m in moves]
    row["pv_full_length"] = 0 if line is None else len(opening) + len(line.moves)
    stones = replayed(problem, moves)
    row["final"] = stone_rows(stones)
    row["pv_complete"] = line is not None and line.complete
    if line is None:
        return f"  main line: none ({why})"
    numbered = "  ".join(f"{i}. {color_letter(c)} {go_move(m, size)}" for i, (c, m) in enumerate(moves, 1))
    ending = main_line_ending(answer, line, len(line.moves) + len(opening) - len(moves))
    return "\n".join([f"  main line: {numbered or '-'}{ending}", *board_diagram(stones, size, "  ")])


def main_line_ending(answer, line, rest: int) -> str:
    """`` — the white group is dead (4 more moves play it out)``, ``... if Black wins the ko``."""
    group = f"the {colour_name(answer.defender).lower()} group"
    settled = f"{group} lives" if line.winner == answer.defender else f"{group} is dead"
    if answer.ko:
        settled += f" if {colour_name(answer.to_play)} wins the ko"
    more = f" ({rest} more moves play it out)" if rest else ""
    unfinished = "" if line.complete else f", the line unfinished ({line.ended})"
    return f" — {settled}{more}{unfinished}"


def replayed(problem, moves):
    """The problem's stones after ``moves`` (colour, (x, y) or "pass"), captures taken off."""
    board = problem.board()
    for color, move in moves:
        if move != "pass":
            board.play(*move, color)
    return board.to_array()


def board_diagram(stones, size: int, indent: str = "") -> list[str]:
    """The position with Go coordinates around it: ``X`` Black, ``O`` White, ``.`` empty."""
    from solver.coordinates import GO_COLUMNS

    letters = " ".join(GO_COLUMNS[:size])
    lines = [f"{indent}   {letters}"]
    for y, row in enumerate(stones):
        number = size - y
        lines.append(f"{indent}{number:>2} " + " ".join(".XO"[int(c)] for c in row) + f" {number}")
    lines.append(f"{indent}   {letters}")
    return lines


def run(args) -> int:
    if args.max_nodes is None:   # a time limit alone lifts the node budget
        args.max_nodes = 0 if args.seconds is not None else DEFAULT_SOLVE_MAX_NODES
    if args.max_nodes < 0 or args.max_table_mb < 0:
        args.parser.error("--max-nodes and --max-table-mb must not be negative")
    if args.seconds is not None and args.seconds <= 0:
        args.parser.error("--seconds must be positive")
    check_group_options(args)
    if args.sgf_out and len(args.files) != 1:
        args.parser.error("--sgf-out writes one answer: give one file")
    if args.force and not args.sgf_out:
        args.parser.error("--force lets --sgf-out overwrite its file: give --sgf-out too")
    if args.sgf_out:   # an existing file is refused before any solve, as eval's --picture
        check_output_file(args.sgf_out, "--sgf-out", args.force)
    if args.guide_fade is not None and args.guide_fade < 0:
        args.parser.error("--guide-fade must not be negative")
    # the guide's options and loader are the command line's (pipeline may not import the model)
    guide = args.load_guide(args) if args.load_guide is not None else None
    move_patterns = patterns_from_args(args)
    if args.guide_fade is not None:
        if guide is None:   # said, not ignored: the option would change nothing
            args.parser.error("--guide-fade needs a guide (--no-guide, or no network is shipped)")
        guide.fade_nodes = args.guide_fade
    files, unread = input_files(args.files)
    tally = Tally("solve")
    for path, reason in unread:
        tally.reject(path, reason)
    # machine code loads (or compiles, said on stderr) here, never inside a solve's time
    warm_up_solver(say=lambda line: print(line, file=sys.stderr, flush=True))
    if guide is not None:
        warm_up_planes()
    unwritten = False
    for path in files:
        try:
            row, text, answer_sgf = solve_one(path, args, guide, move_patterns)
        except Exception as exc:   # a bad file is one line and the batch goes on
            tally.reject(path, reason_of(exc))
            continue
        tally.answer()
        print(json.dumps(row) if args.json else text, flush=True)
        if args.sgf_out:
            # written once the answer is out, so that a file that cannot be written loses nothing
            why = write_answer(args.sgf_out, answer_sgf)
            if why is not None:
                print(f"error: --sgf-out {args.sgf_out}: {why}", file=sys.stderr, flush=True)
                unwritten = True
            elif not args.json:
                print(f"  written: {args.sgf_out}", flush=True)
    return max(tally.close(), REJECTED if unwritten else 0)


def register(commands) -> None:
    solve = commands.add_parser("solve", help="solve problem SGF files (or folders of them) for the side in PL[]")
    solve.add_argument("files", nargs="+", metavar="FILE_OR_DIR")
    solve.add_argument("--algo", choices=ALGORITHMS, default=None,
                       help="the search (default: dfs; with --seconds, DFS for a fifth of the time, then "
                            "df-pn with the knowledge enclose --seconds reads with: the same verdicts, "
                            "further in the time)")
    solve.add_argument("--ko-master", choices=(EACH, *KO_MASTERS), default=EACH,
                       help="who may retake any ko: each side in turn, the answer saying where it "
                            "turns on a ko, or only the one named (default: each)")
    solve.add_argument("--max-nodes", type=int, default=None,
                       help="node budget per solve; past it the status is 'unknown' "
                            f"(default: {DEFAULT_SOLVE_MAX_NODES:,}, or none with --seconds; 0: none)")
    solve.add_argument("--seconds", type=float, default=None, metavar="S",
                       help="CPU seconds a problem's solve may take; past them the status is 'unknown' "
                            "(default: no time limit, the node budget alone)")
    solve.add_argument("--max-table-mb", type=float, default=DEFAULT_MAX_TABLE_MB,
                       help="bound of the transposition table in MiB; a full table drops the "
                            f"entries of the smallest subtrees (default: {DEFAULT_MAX_TABLE_MB}; 0: none)")
    solve.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                       help=f"reject problems whose search area has more empty points (default: {DEFAULT_MAX_AREA})")
    solve.add_argument("--guide-fade", type=int, default=None, metavar="N",
                       help="after n nodes the guide's prior counts N / (N + n) of its weight "
                            "(0: it keeps it; default: the guide's own, model.guide.FADE_NODES)")
    add_pattern_options(solve)
    solve.add_argument("--no-race", action="store_true",
                       help="read capturing races out instead of counting them (solver.race): the same "
                            "verdicts, usually in more nodes (default: counted)")
    solve.add_argument("--no-sibling-hints", action="store_true",
                       help="order the moves without the move that won the same line after a refuted "
                            "sibling (solver.dfs): the same verdicts, usually in more nodes (default: on)")
    add_group_options(solve)
    solve.add_argument("--sgf-out", metavar="FILE",
                       help="write the problem (framed, with --group) and the main line as an SGF "
                            "variation, for any SGF editor (one input file)")
    solve.add_argument("--force", action="store_true",
                       help="let --sgf-out overwrite an existing file (default: off)")
    solve.add_argument("--json", action="store_true", help="one JSON object per line (default: text)")
    solve.add_argument("--pv", action="store_true",
                       help="add the main line, numbered, and the board at its end (default: off)")
    solve.set_defaults(run=run, load_guide=None)   # cli.main adds --guide and its loader
