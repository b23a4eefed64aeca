"""The options ``tsumego train`` and ``tsumego crossval`` share (the network's shape, the fit's
limits, the data), a named configuration applied to them, and the frozen options the model
takes (:mod:`model.train_options`) built from the parsed arguments.
"""
from __future__ import annotations

import argparse
import dataclasses

from model.configs import CONFIGS
from model.fit import SCHEDULES
from model.network import ARCHITECTURES, DEFAULT_END_STATE_WEIGHT, NetworkOptions
from model.train import CONV_BLOCKS, EXTRA_SPLITS


def add_training_arguments(parser) -> None:
    """Options shared with ``tsumego crossval``: the network's shape and the fit's limits."""
    defaults = NetworkOptions()
    parser.add_argument("--config", choices=sorted(CONFIGS),
                        help="a named configuration (model/configs.py) whose settings are the "
                             "defaults of the options below; an option given still wins")
    parser.add_argument("--epochs", type=int, default=200, help="at most this many epochs")
    parser.add_argument("--minutes", type=float, default=0,
                        help="wall-clock budget; training stops after the batch that spends it (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--warm-up", type=int, default=0, metavar="BATCHES",
                        help="a fresh run's learning rate climbs to the scheduled one over its first "
                             "BATCHES batches (at most its first epoch; default 0: none)")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--patience", type=int, default=8,
                        help="epochs without a better validation loss before stopping")
    parser.add_argument("--schedule", choices=SCHEDULES, default="plateau",
                        help="learning rate: plateau halves it when the validation loss stalls; "
                             "cosine lowers it epoch by epoch to near zero at --epochs")
    parser.add_argument("--architecture", choices=ARCHITECTURES, default=defaults.architecture,
                        help="dense: the original dcnn-eval network's; conv: 3×3 convolutions "
                             "(model/network.py)")
    parser.add_argument("--width", type=int, default=defaults.width,
                        help=f"units of a dense hidden layer (default {defaults.width})")
    parser.add_argument("--channels", type=int, default=defaults.channels,
                        help=f"planes of a conv hidden layer (default {defaults.channels})")
    parser.add_argument("--blocks", type=int,
                        help=f"residual blocks (default {defaults.blocks} dense, {CONV_BLOCKS} conv)")
    parser.add_argument("--l2", type=float, default=defaults.l2)
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--move-weight", type=float, default=defaults.move_weight,
                        help="weight of the move head's loss (0 trains the value alone)")
    parser.add_argument("--dropout", type=float, default=defaults.dropout,
                        help="dropout rate after every hidden layer, in training (0: none)")
    parser.add_argument("--end-state-weight", type=float, default=DEFAULT_END_STATE_WEIGHT,
                        help="weight of the end-state head's loss (who holds each point at the end of "
                             f"the principal variation; default {DEFAULT_END_STATE_WEIGHT}); 0 builds "
                             "the network without that head, as do records without end states")
    parser.add_argument("--without", default="", metavar="PLANE,...",
                        help="planes to leave out: plane names or plane-group names (e.g. tactics)")
    parser.add_argument("--extra-train", action="extend", nargs="+", default=[], metavar="DIR",
                        help="also train on every record of these feature folders (same planes; "
                             "say generated problems'); repeatable (a folder named k times is drawn "
                             "k times an epoch); never evaluated on")
    parser.add_argument("--extra-split", choices=EXTRA_SPLITS, default="both",
                        help="which records of the --extra-train folders: both splits (default), or "
                             "their train split only, keeping their test problems unseen")


def apply_config(args, parser) -> None:
    """Set ``args.config``'s settings on every option the command line left at its default
    (``crossval`` has no ``--keep``: a setting of an option the command lacks is passed over)."""
    if getattr(args, "config", None) is None:
        return
    for name, value in CONFIGS[args.config].items():
        if hasattr(args, name) and getattr(args, name) == parser.get_default(name):
            setattr(args, name, value)


def options_from(cls, args: argparse.Namespace, **given):
    """An options dataclass ``cls`` of the model, its fields taken from the parsed ``args`` by
    name (lists as tuples: the options are frozen), ``given`` overriding."""
    values = {}
    for field in dataclasses.fields(cls):
        if field.name in given or not hasattr(args, field.name):
            continue
        value = getattr(args, field.name)
        values[field.name] = tuple(value) if isinstance(value, list) else value
    return cls(**values, **given)


def changed_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> frozenset[str]:
    """The options the command line (or ``--config``) set away from their defaults."""
    return frozenset(name for name, value in vars(args).items() if value != parser.get_default(name))
