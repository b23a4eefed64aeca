"""The ``tsumego`` command line: one subcommand per pipeline stage.

Every command lives in its own module, imported below (``tsumego solve``:
:mod:`pipeline.solve_command`, ``tsumego train``: :mod:`cli.train`); each has
``register(commands)``, which adds its subparser and sets ``run`` to a
function of the parsed arguments returning the exit code.  Those modules
import their heavy dependencies (Beam, TensorFlow) inside ``run``, so
``tsumego solve`` starts without loading them.  The options that load a
network to guide the search (``--guide``, ``--no-guide``, :mod:`cli.guide`) are
added here, to ``solve`` and ``enclose``, with the loader, since the pipeline
may not import the model.

Before any command runs, :func:`pipeline.quiet.hush` turns the libraries'
logs off (Beam's workers, TensorFlow's start-up lines); ``tsumego --verbose``
or ``TSUMEGO_VERBOSE=1`` keeps them.

A run that cannot go on raises :class:`pipeline.errors.CommandError`, caught
once in :func:`main`; a bad combination of options goes to
``args.parser.error`` (every command's arguments carry its subparser).
Ctrl-C is caught there too: one line, ``interrupted; <what to do>`` (a
command's ``on_interrupt`` default says whether a rerun resumes), and exit
code 130.

Why its own package: the command line is the one part that sees every layer
(the solver, the pipeline's stages and the model); above them all, none of
their imports runs up to it.
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import sys

from cli.guide import add_guide_options, guide_path, load_guide, stage_guide
from cli import card, crossval, eval_command, quantize, report, serve, train
from pipeline import corpus_stats, features, generate, quiet, same_position, solve_all, solve_command, validate
from pipeline.enclose import command as enclose
from pipeline.errors import CommandError
from pipeline.interrupts import interrupted, raising_interrupt

# One module per subcommand (or per group of closely related subcommands), in help order.
COMMAND_MODULES = (solve_command, train, crossval, quantize, report, card, eval_command,
                   generate, corpus_stats, features, solve_all, validate, enclose,
                   same_position, serve)


# The exit code of a run stopped by Ctrl-C, as a shell reports a process SIGINT ended (128 + 2).
INTERRUPTED = 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tsumego", description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", action="store_true",
                        help="keep the logs of Beam's workers and TensorFlow (as TSUMEGO_VERBOSE=1 does)")
    commands = parser.add_subparsers(dest="command", required=True)

    for module in COMMAND_MODULES:
        module.register(commands)
    # solve and enclose order their searches by a network, and pipeline/ may not import
    # the model: the command line adds the options and hands them the guide as a loader
    add_guide_options(commands.choices["solve"])
    commands.choices["solve"].set_defaults(load_guide=lambda args: load_guide(guide_path(args)))
    add_guide_options(commands.choices["enclose"])
    commands.choices["enclose"].set_defaults(stage_guide=stage_guide)
    # A bad combination of options is only seen once they are parsed; with its own
    # subparser at hand, ``run`` rejects it as argparse would (usage line, exit 2).
    for subparser in commands.choices.values():
        subparser.set_defaults(parser=subparser)
        if subparser.get_default("on_interrupt") is None:
            subparser.set_defaults(on_interrupt="rerun to start again")
        state_defaults(subparser)
    return parser


def state_defaults(parser: argparse.ArgumentParser) -> None:
    """Make ``--help`` give every option's default: an option's help that does not say it
    already gets ``(default: VALUE)``."""
    for action in parser._actions:
        if (action.help == argparse.SUPPRESS or not action.option_strings
                or action.nargs == 0   # a flag: off unless given
                or action.default is None or action.default == argparse.SUPPRESS
                or "default" in (action.help or "")):
            continue
        shown = ",".join(map(str, action.default)) if isinstance(action.default, (list, tuple)) else action.default
        action.help = f"{action.help} (default: {shown})" if action.help else f"default: {shown}"


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
