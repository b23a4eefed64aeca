"""``tsumego crossval``'s options (the folds trained and scored: :mod:`model.cross_validation`)."""
from __future__ import annotations

from cli.training import add_training_arguments, apply_config, options_from
from model.folds import BALANCES
from model.train_options import CrossvalOptions


def register(commands) -> None:
    parser = commands.add_parser(
        "crossval", help="train and test on folds of whole problems; accuracy on unseen problems")
    parser.add_argument("--data", required=True, help="folder of tsumego features (with features.json)")
    parser.add_argument("--out", required=True, help="folder for the folds' models and the summary")
    parser.add_argument("--folds", type=int, default=5, help="number of folds (default 5)")
    parser.add_argument("--fold", type=int, action="append",
                        help="run only this fold (0-based; may be repeated; default: every fold)")
    parser.add_argument("--same-problems", metavar="FILE",
                        help="groups of problems holding the same position (tsumego same-positions' "
                             "JSON): each group stays in one fold")
    parser.add_argument("--balance", choices=BALANCES, default="none",
                        help="weight of a problem's records in training (model/folds.py)")
    parser.add_argument("--symmetries", action="store_true",
                        help="also score each record over the 8 symmetries (about 3 times the time)")
    parser.add_argument("--rescore", action="store_true",
                        help="score the networks an earlier run left in the folds' folders again "
                             "(e.g. with --symmetries) instead of training")
    add_training_arguments(parser)
    parser.set_defaults(run=run, on_interrupt="the folds finished are kept; --fold K runs the others")


def run(args) -> int:
    from model.cross_validation import crossval

    apply_config(args, args.parser)
    if any(not 0 <= fold < args.folds for fold in args.fold or ()):
        args.parser.error(f"--fold must be in 0..{args.folds - 1}")
    return crossval(options_from(CrossvalOptions, args))
