"""The ``tsumego`` command line: one subcommand per pipeline stage.

``tsumego solve [--algo dfs|dfpn] [--ko-master attacker|defender|none]
[--max-nodes N] [--max-table-mb M] [--guide FILE.tsq|DIR | --no-guide] [--guide-fade N]
[--no-race] [--json] [--pv] FILE...``
prints one line per file (``--pv`` adds the principal variation and the final
position; the search's moves are ordered by a packed network, :mod:`model.guide`,
the shipped one unless ``--guide`` names another or ``--no-guide`` says none:
the same verdicts in fewer nodes).  A
bad file prints its error to stderr and the others are still solved; the exit
code is 1 if any file failed.

Every other stage lives in its own module, imported below; each has
``register(commands)``, which adds its subparser and sets ``run`` to a
function of the parsed arguments returning the exit code.  Those modules
import their heavy dependencies (Beam, TensorFlow) inside ``run``, so
``tsumego solve`` starts without loading them.

Before any command runs, :func:`pipeline.quiet.hush` turns the libraries'
logs off (Beam's workers, TensorFlow's start-up lines); ``tsumego --verbose``
or ``TSUMEGO_VERBOSE=1`` keeps them.

A run that cannot go on raises :class:`pipeline.errors.CommandError`, caught
once in :func:`main`; a bad combination of options goes to
``args.parser.error`` (every command's arguments carry its subparser).
Ctrl-C is caught there too: one line, ``interrupted; <what to do>`` (a
command's ``on_interrupt`` default says whether a rerun resumes), and exit
code 130.

Why here: the command line is the one module that sees every layer (the
solver, the pipeline's stages and the model), and the design places the
``tsumego`` script in ``pipeline/``.  Nothing imports this module back, so
``model`` depends on ``pipeline``'s lower layers only, never the reverse.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import logging
import os
import signal
import sys

from model import cross_validation, evaluate, quantize, report, train
from pipeline import corpus_stats, features, generate, quiet, same_position, solve_all, validate
from pipeline.enclose import command as enclose
from pipeline.errors import CommandError
from pipeline.interrupts import interrupted, raising_interrupt
from pipeline.pattern_options import add_pattern_options, patterns_from_args
from solver import ALGORITHMS, DEFAULT_MAX_AREA, DEFAULT_MAX_TABLE_MB, KO_MASTERS, Solver, load_problem
from solver.problem import reason_of
from solver.board import color_letter

# One module per subcommand (or per group of closely related subcommands), in help order.
COMMAND_MODULES = (train, cross_validation, quantize, report, evaluate,
                   generate, corpus_stats, features, solve_all, validate, enclose,
                   same_position)


# The solve command's node budget: ten times what the hardest reference or own
# problem needs, either side first, DFS or df-pn (measured: RESULTS.md, "solve:
# a default node budget and bounded tables").
DEFAULT_SOLVE_MAX_NODES = 10_000_000
# The exit code of a run stopped by Ctrl-C, as a shell reports a process SIGINT ended (128 + 2).
INTERRUPTED = 130


def board_rows(stones) -> list[str]:
    """A position as text rows, top row first: ``X`` Black, ``O`` White, ``.`` empty."""
    return ["".join(".XO"[int(c)] for c in row) for row in stones]


def _solve_one(path: str, args, guide=None, move_patterns=True) -> dict:
    problem = load_problem(path)
    solver = Solver(problem, max_area=args.max_area, max_table_mb=args.max_table_mb,
                    move_patterns=move_patterns, race=not args.no_race)
    verdict = solver.solve(problem.to_play, ko_master=args.ko_master, algo=args.algo,
                           max_nodes=args.max_nodes, guide=guide)
    row = {
        "file": path,
        "to_play": color_letter(problem.to_play),
        "move": verdict.sgf_move,
        "status": verdict.status,
        "nodes": verdict.nodes,
        "seconds": round(verdict.seconds, 6),
        "guide": guide.source if guide is not None else None,
    }
    if args.pv:
        # a solve out of budget has no line: the position stays as it is
        line = None if verdict.winner is None else solver.principal_variation(
            problem.to_play, ko_master=args.ko_master, max_nodes=args.max_nodes)
        row["pv"] = [] if line is None else line.sgf_moves
        row["final"] = board_rows(problem.stones if line is None else line.stones)
        row["pv_complete"] = line is not None and line.complete
    return row


def guide_path(args) -> str | None:
    """The packed network ``--guide`` names: by default the shipped network's 5-bit file
    when the repository has one (:mod:`model.shipped`); None with ``--no-guide``."""
    if args.no_guide:
        return None
    if args.guide is not None:
        return args.guide
    from model.shipped import shipped_packed_file

    return shipped_packed_file()


def load_guide(path: str | None):
    """The :class:`model.guide.Guide` of a packed file or a model folder, or None."""
    if path is None:
        return None
    from model.guide import Guide   # numpy network and planes: only when asked for

    try:
        return Guide.load(path)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{path}: cannot load the network to guide the search ({exc})") from exc


def stage_guide(args) -> tuple:
    """For a Beam stage's ``--guide``: (a picklable function its workers call to load the
    guide, a name for the stage's settings: the file, the hash of its bytes, the
    prior's weight and its fade), or
    (None, None) unguided.  The guide is loaded here once, so that a file that cannot
    serve stops the run with one line before it starts; the function carries the file's
    bytes (132 KB for the shipped network), since a remote worker may not see the file."""
    path = guide_path(args)
    if path is None:
        return None, None
    from model.guide import Guide
    from model.shipped import packed_file

    try:
        packed = packed_file(path)
        with open(packed, "rb") as handle:
            blob = handle.read()
        name = os.path.basename(packed)
        guide = Guide.from_bytes(blob, name)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{path}: cannot load the network to guide the search ({exc})") from exc
    # the weight and the fade too: with others, other readings may settle within the budget
    return (functools.partial(Guide.from_bytes, blob, name),
            f"{name} {hashlib.sha256(blob).hexdigest()[:16]} weight {guide.weight} fade {guide.fade_nodes:g}")


def add_guide_options(parser) -> None:
    """``--guide FILE.tsq|MODEL_DIR`` and ``--no-guide``, for the commands that solve."""
    guided = parser.add_mutually_exclusive_group()
    guided.add_argument("--guide", metavar="FILE.tsq|MODEL_DIR",
                        help="order the search's moves by this packed network (a model folder: its "
                             "model-5bit.tsq): the same verdicts, usually in fewer nodes; default: the "
                             "shipped network, if the repository has it")
    guided.add_argument("--no-guide", action="store_true", help="search unguided")


def cmd_solve(args) -> int:
    if args.max_nodes < 0 or args.max_table_mb < 0:
        args.parser.error("--max-nodes and --max-table-mb must not be negative")
    if args.guide_fade is not None and args.guide_fade < 0:
        args.parser.error("--guide-fade must not be negative")
    guide = load_guide(guide_path(args))
    move_patterns = patterns_from_args(args)
    if args.guide_fade is not None:
        if guide is None:   # said, not ignored: the option would change nothing
            args.parser.error("--guide-fade needs a guide (--no-guide, or no network is shipped)")
        guide.fade_nodes = args.guide_fade
    failed = 0
    for path in args.files:
        try:
            row = _solve_one(path, args, guide, move_patterns)
        except Exception as exc:   # a bad file is one line and the batch goes on
            print(f"error: {path}: {reason_of(exc)}", file=sys.stderr)
            failed += 1
            continue
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            move = row["move"] or "-"
            pv = ""
            if args.pv:
                pv = (f", pv {' '.join(row['pv']) or '-'}{'' if row['pv_complete'] else ' (unfinished)'}, "
                      f"final {'/'.join(row['final'])}")
            print(f"{path}: {row['to_play']} to play, {row['status']}, move {move}, "
                  f"{row['nodes']} nodes, {row['seconds']:.3f} s{pv}", flush=True)
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tsumego", description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true",
                        help="keep the logs of Beam's workers and TensorFlow (as TSUMEGO_VERBOSE=1 does)")
    commands = parser.add_subparsers(dest="command", required=True)

    solve = commands.add_parser("solve", help="solve problem SGF files for the side in PL[]")
    solve.add_argument("files", nargs="+", metavar="FILE")
    solve.add_argument("--algo", choices=ALGORITHMS, default="dfs")
    solve.add_argument("--ko-master", choices=KO_MASTERS, default="attacker",
                       help="who may retake any ko (default: the attacker)")
    solve.add_argument("--max-nodes", type=int, default=DEFAULT_SOLVE_MAX_NODES,
                       help="node budget per solve; past it the status is 'unknown' "
                            f"(default {DEFAULT_SOLVE_MAX_NODES:,}; 0: none)")
    solve.add_argument("--max-table-mb", type=float, default=DEFAULT_MAX_TABLE_MB,
                       help="bound of the transposition table in MiB; a full table drops the "
                            f"entries of the smallest subtrees (default {DEFAULT_MAX_TABLE_MB}; 0: none)")
    solve.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                       help="reject problems whose search area has more empty points")
    add_guide_options(solve)
    solve.add_argument("--guide-fade", type=int, default=None, metavar="N",
                       help="after n nodes the guide's prior counts N / (N + n) of its weight "
                            "(0: it keeps it; default: the guide's own, model.guide.FADE_NODES)")
    add_pattern_options(solve)
    solve.add_argument("--no-race", action="store_true",
                       help="read capturing races out instead of counting them (solver.race): the same "
                            "verdicts, usually in more nodes")
    solve.add_argument("--json", action="store_true", help="one JSON object per line")
    solve.add_argument("--pv", action="store_true",
                       help="add the principal variation and the position at its end")
    solve.set_defaults(run=cmd_solve)

    for module in COMMAND_MODULES:
        module.register(commands)
    # enclose solves in Beam's workers, and pipeline/ may not import the model: the
    # command line hands it the guide as a loader
    add_guide_options(commands.choices["enclose"])
    commands.choices["enclose"].set_defaults(stage_guide=stage_guide)
    # A bad combination of options is only seen once they are parsed; with its own
    # subparser at hand, ``run`` rejects it as argparse would (usage line, exit 2).
    for subparser in commands.choices.values():
        subparser.set_defaults(parser=subparser)
        if subparser.get_default("on_interrupt") is None:
            subparser.set_defaults(on_interrupt="rerun to start again")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.verbose:
        quiet.set_verbose()
    quiet.hush()
    try:
        with quiet_after_interrupt():
            return args.run(args)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.code
    except BaseException as exc:
        if not interrupted(exc):
            raise
        print(f"interrupted; {args.on_interrupt}", file=sys.stderr)
        return INTERRUPTED


@contextlib.contextmanager
def quiet_after_interrupt():
    """Meanwhile, Ctrl-C also turns logging off (unless ``--verbose``) before it interrupts.

    The run is ending, and the libraries would log the interrupt as it
    unwinds through them: Beam logs the exception of the step it stopped,
    traceback and all, above the one line :func:`main` prints.
    """
    if quiet.verbose():
        yield
        return
    try:
        with raising_interrupt(signal.SIGINT, signal.default_int_handler,
                               before=lambda: logging.disable(logging.CRITICAL)):
            yield
    finally:
        logging.disable(logging.NOTSET)


if __name__ == "__main__":
    sys.exit(main())
