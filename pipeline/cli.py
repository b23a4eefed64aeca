"""The ``tsumego`` command line: one subcommand per pipeline stage.

``tsumego solve [--algo dfs|dfpn] [--ko-master attacker|defender|none]
[--max-nodes N] [--json] FILE...`` prints one line per file.  A bad file prints
its error to stderr and the others are still solved; the exit code is 1 if any
file failed.

Every other stage lives in its own module, imported below; each has
``register(commands)``, which adds its subparser and sets ``run`` to a
function of the parsed arguments returning the exit code.  Those modules
import their heavy dependencies (Beam, TensorFlow) inside ``run``, so
``tsumego solve`` starts without loading them.

A run that cannot go on raises :class:`pipeline.errors.CommandError`, caught
once in :func:`main`; a bad combination of options goes to
``args.parser.error`` (every command's arguments carry its subparser).

Why here: the command line is the one module that sees every layer (the
solver, the pipeline's stages and the model), and the design places the
``tsumego`` script in ``pipeline/``.  Nothing imports this module back, so
``model`` depends on ``pipeline``'s lower layers only, never the reverse.
"""
from __future__ import annotations

import argparse
import json
import sys

from model import cross_validation, evaluate, quantize, report, train
from pipeline import corpus_stats, features, generate, solve_all, validate
from pipeline.errors import CommandError
from solver import ALGORITHMS, DEFAULT_MAX_AREA, KO_MASTERS, ProblemError, Solver, load_problem
from solver.board import color_letter

# One module per subcommand (or per group of closely related subcommands), in help order.
COMMAND_MODULES = (train, cross_validation, quantize, report, evaluate,
                   generate, corpus_stats, features, solve_all, validate)


def _solve_one(path: str, args) -> dict:
    problem = load_problem(path)
    solver = Solver(problem, max_area=args.max_area)
    verdict = solver.solve(problem.to_play, ko_master=args.ko_master, algo=args.algo,
                           max_nodes=args.max_nodes)
    return {
        "file": path,
        "to_play": color_letter(problem.to_play),
        "move": verdict.sgf_move,
        "status": verdict.status,
        "nodes": verdict.nodes,
        "seconds": round(verdict.seconds, 6),
    }


def cmd_solve(args) -> int:
    failed = 0
    for path in args.files:
        try:
            row = _solve_one(path, args)
        except ProblemError as exc:
            print(f"error: {exc}", file=sys.stderr)
            failed += 1
            continue
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            move = row["move"] or "-"
            print(f"{path}: {row['to_play']} to play, {row['status']}, move {move}, "
                  f"{row['nodes']} nodes, {row['seconds']:.3f} s", flush=True)
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tsumego", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    solve = commands.add_parser("solve", help="solve problem SGF files for the side in PL[]")
    solve.add_argument("files", nargs="+", metavar="FILE")
    solve.add_argument("--algo", choices=ALGORITHMS, default="dfs")
    solve.add_argument("--ko-master", choices=KO_MASTERS, default="attacker",
                       help="who may retake any ko (default: the attacker)")
    solve.add_argument("--max-nodes", type=int, default=0,
                       help="node budget per solve; past it the status is 'unknown' (0: none)")
    solve.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                       help="reject problems whose search area has more empty points")
    solve.add_argument("--json", action="store_true", help="one JSON object per line")
    solve.set_defaults(run=cmd_solve)

    for module in COMMAND_MODULES:
        module.register(commands)
    # A bad combination of options is only seen once they are parsed; with its own
    # subparser at hand, ``run`` rejects it as argparse would (usage line, exit 2).
    for subparser in commands.choices.values():
        subparser.set_defaults(parser=subparser)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.code


if __name__ == "__main__":
    sys.exit(main())
