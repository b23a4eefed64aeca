"""``tsumego solve``: the solver's exact answer for problem files, in a Go player's words.

``tsumego solve [--algo dfs|dfpn] [--ko-master attacker|defender|none] [--max-nodes N] [--seconds S]
[--max-table-mb M] [--guide FILE.tsq|DIR | --no-guide] [--guide-fade N] [--no-race] [--no-sibling-hints]
[--json] [--pv] FILE_OR_DIR...`` prints one line per problem::

    gop-5522.sgf: Black to play kills the white group at C17: B G19 (proved, 12,620 nodes, 0.07 s)

in Go coordinates (:mod:`solver.coordinates`); ``--json`` gives one object per
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
import sys
import time

from pipeline.batch import Tally, input_files
from pipeline.game_group import add_group_options, check_group_options, group_problem, solution_sgf
from pipeline.pattern_options import add_pattern_options, patterns_from_args
from pipeline.warm_up import warm_up_planes, warm_up_solver
from solver import ALGORITHMS, DEFAULT_MAX_AREA, DEFAULT_MAX_TABLE_MB, KO_MASTERS, Solver, load_problem
from solver.board import BLACK, color_letter
from solver.coordinates import go_move, go_point
from solver.main_line import settled_length
from solver.problem import parse_sgf_point, reason_of, sgf_point

# The solve command's node budget: ten times what the hardest reference or own
# problem needs, either side first, DFS or df-pn (measured: RESULTS.md, "solve:
# a default node budget and bounded tables").
DEFAULT_SOLVE_MAX_NODES = 10_000_000
# The budget of each check of where the main line is settled (solver.main_line): the
# checks only decide where the printed line stops, so one out of nodes just goes on.
SETTLED_CHECK_NODES = 200_000


def colour_name(color: int) -> str:
    return "Black" if color == BLACK else "White"


def budget_words(args) -> str:
    """What stopped an unsettled solve, in words: ``the node budget``, ``10 s``, or both."""
    limits = ([f"{args.max_nodes:,} nodes"] if args.max_nodes else []) + \
        ([f"{args.seconds:g} s"] if args.seconds is not None else [])
    return " or ".join(limits) if args.seconds is not None else "the node budget"


def verdict_words(verdict, problem, budget: str = "the node budget") -> str:
    """The answer as a sentence: ``Black to play kills the white group at C17: B G19``;
    ``budget`` names what an unsettled solve ran out of."""
    size = problem.size
    player = colour_name(verdict.to_play)
    group = f"the {colour_name(verdict.defender).lower()} group at {go_point(*problem.target, size)}"
    defending = verdict.to_play == verdict.defender
    if verdict.winner is None:
        return f"{player} to play: {group} is not settled within {budget}"
    if verdict.winner != verdict.to_play:
        return f"{player} to play cannot save {group}: it dies" if defending else \
            f"{player} to play cannot kill {group}: it lives"
    if verdict.move == "pass":
        return f"{player} to play: {group} lives as it stands, no move needed" if defending else \
            f"{player} to play: {group} is dead as it stands, no move needed"
    move = f"{color_letter(verdict.to_play)} {go_move(verdict.move, size)}"
    return f"{player} to play {'saves' if defending else 'kills'} {group}: {move}"


def sgf_of(move) -> str | None:
    """A move's SGF point: ``"bc"``, ``""`` for a pass, None for no move."""
    if move is None:
        return None
    return "" if move == "pass" else sgf_point(*move)


def solve_one(path: str, args, guide=None, move_patterns=True) -> tuple[dict, str]:
    """(the JSON row, the text) of one problem file."""
    problem = problem_of(path, args)
    solver = Solver(problem, max_area=args.max_area, max_table_mb=args.max_table_mb,
                    move_patterns=move_patterns, race=not args.no_race,
                    sibling_hints=not args.no_sibling_hints)
    cpu_until = None if args.seconds is None else time.thread_time() + args.seconds
    verdict = solver.solve(problem.to_play, ko_master=args.ko_master, algo=args.algo,
                           max_nodes=args.max_nodes, guide=guide, cpu_until=cpu_until)
    size = problem.size
    row = {
        "file": path,
        "to_play": color_letter(problem.to_play),
        "target": go_point(*problem.target, size),
        "target_sgf": sgf_point(*problem.target),
        "defender": color_letter(problem.defender),
        "status": verdict.status,
        "verdict": verdict_words(verdict, problem, budget_words(args)),
        "move": None if verdict.move is None else go_move(verdict.move, size),
        "sgf": sgf_of(verdict.move),
        "nodes": verdict.nodes,
        "seconds": round(verdict.seconds, 6),
        "guide": guide.source if guide is not None else None,
    }
    proved = "proved, " if verdict.winner is not None else ""
    nodes = f"{verdict.nodes:,} node{'' if verdict.nodes == 1 else 's'}"
    text = f"{path}: {row['verdict']} ({proved}{nodes}, {verdict.seconds:.2f} s)"
    if args.pv or args.sgf_out:
        main_line = add_main_line(row, solver, problem, args)
        if args.sgf_out:
            write_answer(args.sgf_out, problem, row)
        if args.pv:
            text += "\n" + main_line
        else:   # the line went to the file only
            for key in ("pv", "pv_full_length", "final", "pv_complete"):
                row.pop(key)
        if args.sgf_out:
            text += f"\n  written: {args.sgf_out}"
    return row, text


def problem_of(path: str, args):
    """The problem a file asks: the file itself, or with ``--group`` the group of a game record
    framed after ``--move`` (:mod:`pipeline.game_group`)."""
    return load_problem(path) if args.group is None else group_problem(path, args)


def write_answer(path: str, problem, row: dict) -> None:
    """``--sgf-out``: the problem (framed, with ``--group``) and the main line as a variation,
    the verdict as the comment, for any SGF editor."""
    moves = [(BLACK if m["color"] == "B" else 3 - BLACK, "pass" if m["sgf"] == "" else parse_sgf_point(m["sgf"]))
             for m in row.get("pv", [])]
    with open(path, "w") as handle:
        handle.write(solution_sgf(problem, [moves], row["verdict"]))


def add_main_line(row: dict, solver, problem, args) -> str:
    """Add the main line to ``row`` (``pv``, ``pv_full_length``, ``final``, ``pv_complete``);
    the text lines that show it: the moves numbered, then the board at the line's end."""
    # a solve out of budget has no line: the position stays as it is
    line = None if row["status"] == "unknown" else solver.principal_variation(
        problem.to_play, ko_master=args.ko_master, max_nodes=args.max_nodes)
    moves = [] if line is None else line.moves[:settled_length(solver, line, args.ko_master,
                                                                SETTLED_CHECK_NODES)]
    size = problem.size
    row["pv"] = [{"color": color_letter(c), "move": go_move(m, size), "sgf": sgf_of(m)} for c, m in moves]
    row["pv_full_length"] = 0 if line is None else len(line.moves)
    stones = replayed(problem, moves)
    row["final"] = ["".join(".XO"[int(c)] for c in rows) for rows in stones]
    row["pv_complete"] = line is not None and line.complete
    if line is None:
        return "  main line: none (the solve ran out of nodes)"
    numbered = "  ".join(f"{i}. {color_letter(c)} {go_move(m, size)}" for i, (c, m) in enumerate(moves, 1))
    ending = main_line_ending(row, line, moves)
    return "\n".join([f"  main line: {numbered or '-'}{ending}", *board_diagram(stones, size, "  ")])


def main_line_ending(row: dict, line, moves) -> str:
    group = f"the {colour_name(1 if row['defender'] == 'B' else 2).lower()} group"
    settled = f"{group} is dead" if row["status"] == "unsafe" else f"{group} lives"
    rest = len(line.moves) - len(moves)
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
    for path in files:
        try:
            row, text = solve_one(path, args, guide, move_patterns)
        except Exception as exc:   # a bad file is one line and the batch goes on
            tally.reject(path, reason_of(exc))
            continue
        tally.answer()
        print(json.dumps(row) if args.json else text, flush=True)
    return tally.close()


def register(commands) -> None:
    solve = commands.add_parser("solve", help="solve problem SGF files (or folders of them) for the side in PL[]")
    solve.add_argument("files", nargs="+", metavar="FILE_OR_DIR")
    solve.add_argument("--algo", choices=ALGORITHMS, default="dfs", help="the search (default: dfs)")
    solve.add_argument("--ko-master", choices=KO_MASTERS, default="attacker",
                       help="who may retake any ko (default: attacker)")
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
    solve.add_argument("--json", action="store_true", help="one JSON object per line (default: text)")
    solve.add_argument("--pv", action="store_true",
                       help="add the main line, numbered, and the board at its end (default: off)")
    solve.set_defaults(run=run, load_guide=None)   # pipeline.cli adds --guide and its loader
