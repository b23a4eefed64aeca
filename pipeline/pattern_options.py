"""The move order's command-line options, shared by the commands that solve
(``tsumego solve`` and ``tsumego enclose``): ``--move-patterns FILE`` or
``--no-patterns``; by default the shipped learned patterns
(:mod:`solver.patterns`)."""
from __future__ import annotations

import hashlib

from pipeline.errors import CommandError
from solver.patterns import MovePatterns


def add_pattern_options(parser) -> None:
    order = parser.add_mutually_exclusive_group()
    order.add_argument("--move-patterns", default=None, metavar="FILE",
                       help="learned move patterns to order the moves by (default: the shipped "
                            "solver/move_patterns.npz)")
    order.add_argument("--no-patterns", action="store_true",
                       help="order the moves by the liberty heuristic instead of learned patterns")


def patterns_from_args(args):
    """What ``Solver(move_patterns=...)`` takes: True (the shipped patterns), False (none) or
    the file's :class:`MovePatterns`, read once; a file that holds none stops the run."""
    if args.move_patterns is None:
        return not args.no_patterns
    try:
        return MovePatterns.load(args.move_patterns)
    except ValueError as exc:
        raise CommandError(str(exc), code=2) from exc


def patterns_setting(args, move_patterns) -> str | None:
    """How a run's move order differs from the default, for the settings a record is kept
    under (None: the shipped patterns): ``none``, or the file named with the hash of the
    weights ``move_patterns`` read from it (:func:`patterns_from_args`), so that a record
    made with other weights is redone."""
    if isinstance(move_patterns, MovePatterns):
        digest = hashlib.sha256(move_patterns.table().tobytes()).hexdigest()[:12]
        return f"{args.move_patterns} (sha256 {digest})"
    return "none" if move_patterns is False else None
