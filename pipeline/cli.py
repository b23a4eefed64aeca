"""The ``tsumego`` command line: one subcommand per pipeline stage.

Every command lives in its own module, imported below (``tsumego solve``:
:mod:`pipeline.solve_command`); each has
``register(commands)``, which adds its subparser and sets ``run`` to a
function of the parsed arguments returning the exit code.  Those modules
import their heavy dependencies (Beam, TensorFlow) inside ``run``, so
``tsumego solve`` starts without loading them.  The options that load a
network to guide the search (``--guide``, ``--no-guide``) are added here, to
``solve`` and ``enclose``, with the loader, since only this module may import
the model.

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
import logging
import os
import signal
import sys

from model import cross_validation, evaluate, quantize, report, train
from model.serve import command as serve
from pipeline import corpus_stats, features, generate, quiet, same_position, solve_all, solve_command, validate
from pipeline.enclose import command as enclose
from pipeline.errors import CommandError
from pipeline.interrupts import interrupted, raising_interrupt

# One module per subcommand (or per group of closely related subcommands), in help order.
COMMAND_MODULES = (solve_command, train, cross_validation, quantize, report, evaluate,
                   generate, corpus_stats, features, solve_all, validate, enclose,
                   same_position, serve)


# The exit code of a run stopped by Ctrl-C, as a shell reports a process SIGINT ended (128 + 2).
INTERRUPTED = 130


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
