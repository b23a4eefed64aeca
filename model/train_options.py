"""What a training run is asked to do: the options of ``tsumego train`` and ``tsumego
crossval`` as frozen dataclasses.

The command line (:mod:`cli.training`) builds them from its parsed arguments,
so that no function of the model takes argparse's namespace: the model can
be driven from code as from the shell, and the command line stays the one
place that knows the options' spelling.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrainingSettings:
    """The options both commands share: the data, the network's shape and the fit's limits."""

    data: str                   # folder of tsumego features
    out: str                    # the model folder (train) or the folds' folder (crossval)
    config: str | None          # a named configuration of model/configs.py, already applied
    epochs: int
    minutes: float              # wall-clock budget (0: none)
    seed: int
    warm_up: int                # batches of a fresh run's learning-rate climb
    batch_size: int
    patience: int
    schedule: str
    architecture: str
    width: int
    channels: int
    blocks: int | None          # None: the architecture's default
    l2: float
    learning_rate: float
    move_weight: float
    dropout: float
    end_state_weight: float
    without: str                # planes or plane groups left out, comma-separated
    extra_train: tuple[str, ...]
    extra_split: str


@dataclass(frozen=True)
class TrainOptions(TrainingSettings):
    """``tsumego train``'s."""

    resume: str | None
    mixed_precision: bool
    validation_fraction: float | None   # None: the default for --keep
    keep: str
    # The run settings the command line set away from their defaults (None: count them all):
    # going on with an unfinished run names those it leaves aside.
    changed: frozenset[str] | None = None


@dataclass(frozen=True)
class CrossvalOptions(TrainingSettings):
    """``tsumego crossval``'s."""

    folds: int
    fold: tuple[int, ...] | None        # the folds to run (None: every fold)
    same_problems: str | None
    balance: str
    symmetries: bool
    rescore: bool
    keep: str = "best"                  # (crossval has no --keep: each fold keeps its best epoch)
