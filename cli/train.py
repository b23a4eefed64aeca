"""``tsumego train``'s options (what a run does: :mod:`model.train`)."""
from __future__ import annotations

from cli.training import add_training_arguments, apply_config, changed_options, options_from
from model.fit import KEEPS
from model.train_options import TrainOptions
from model.validation import DEFAULT_FRACTION


def register(commands) -> None:
    parser = commands.add_parser("train", help="train the safety network on TFRecords")
    parser.add_argument("--data", required=True, help="folder of tsumego features (with features.json)")
    parser.add_argument("--out", required=True, help="model folder to write")
    parser.add_argument("--resume", metavar="MODEL_DIR",
                        help="start from the weights of a model folder of tsumego train (its planes "
                             "and shape are kept; the optimizer starts afresh); of an unfinished "
                             "run's folder (interrupted), go on with that run where it stopped")
    parser.add_argument("--mixed-precision", action="store_true",
                        help="compute in float16, keep the weights in float32 (for a GPU; slower on a CPU)")
    parser.add_argument("--validation-fraction", type=float, default=None,
                        help="share of the train split's records held back, in whole problems, whose "
                             f"loss picks the epoch kept (default {DEFAULT_FRACTION}; none with --keep "
                             "last); the test split is scored once, at the end.  0 watches the test "
                             "split itself (its figure then took part in the choice)")
    parser.add_argument("--keep", choices=KEEPS, default="best",
                        help="the epoch whose weights are kept: best, of least loss on the watched "
                             "records; last, the end of a fixed --schedule cosine run to --epochs, with "
                             "every train problem trained on and nothing chosen on held-out records "
                             "(the test split's figures each epoch are for the curves only)")
    add_training_arguments(parser)
    # (run replaces it once training starts, with what was kept and how to go on)
    parser.set_defaults(run=run, on_interrupt="nothing was written into --out; rerun to train")


def run(args) -> int:
    from model.train import train

    apply_config(args, args.parser)
    options = options_from(TrainOptions, args, changed=changed_options(args, args.parser))

    def advise(line: str) -> None:
        args.on_interrupt = line   # what main's line says when the run is interrupted

    return train(options, advise)
