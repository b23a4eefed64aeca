"""Fitting the network into a model folder: the fit loop and its Keras callbacks.

:func:`fit` trains a compiled network on a training set while watching a
validation set's loss (the learning rate schedule, early stopping, the
``--minutes`` budget, progress lines in a log), writes ``model.keras``,
``history.json``, ``checkpoints/`` and TensorBoard ``logs/`` into the output
folder, and returns the figures of ``model.json``; on failure it takes back
what it wrote.  ``tsumego train`` (:mod:`model.train`) and each fold of
``tsumego crossval`` (:mod:`model.cross_validation`) call it; the
checkpoints that let a run go on are :mod:`model.checkpoints`'.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import time
from dataclasses import dataclass

from model.checkpoints import (BEST_WEIGHTS, CHECKPOINTS, KEPT_WHEN_INTERRUPTED, LAST_WEIGHTS,
                               PROGRESS_FILE, best_weights, carry_on, checkpoints, copy_atomically,
                               kept_epoch, same_folder, sitting_entry)
from model.fit_interrupts import interrupts_between_batches
from pipeline.errors import CommandError
from pipeline.interrupts import interrupted

MODEL_FILE = "model.keras"
HISTORY_FILE = "history.json"
# What fit writes into the output folder (with the temporary files of the atomic writes).
FIT_OUTPUTS = (CHECKPOINTS, "logs", MODEL_FILE, HISTORY_FILE,
               *(os.path.join(CHECKPOINTS, name) for name in (
                   BEST_WEIGHTS, LAST_WEIGHTS, PROGRESS_FILE, PROGRESS_FILE + ".partial",
                   "best.partial.weights.h5", "last.partial.weights.h5")))
# How often training written to a log says where it is within an epoch.
LOG_LINE_SECONDS = 60
SCHEDULES = ("plateau", "cosine")
# Which epoch's weights a run keeps: the one of least validation loss, or the last (a
# fixed schedule run to its end, nothing chosen on held-out records).
KEEPS = ("best", "last")


@dataclass(frozen=True)
class FitLimits:
    """How long :func:`fit` may run and how it moves the learning rate: the options of
    ``cli.training.add_training_arguments`` that both ``tsumego train`` and each crossval
    fold pass it."""

    epochs: int         # at most this many
    minutes: float      # wall-clock budget (0: none)
    patience: int       # epochs without a better validation loss before stopping
    schedule: str       # one of SCHEDULES
    keep: str = "best"  # one of KEEPS; "last" never stops early
    warm_up: int = 0    # batches of a fresh run's first epoch that climb to the scheduled rate

    @classmethod
    def of(cls, settings) -> FitLimits:
        """The limits of a run's :class:`model.train_options.TrainingSettings` (train's or crossval's)."""
        return cls(epochs=settings.epochs, minutes=settings.minutes, patience=settings.patience,
                   schedule=settings.schedule, keep=getattr(settings, "keep", "best"),
                   warm_up=getattr(settings, "warm_up", 0))


def fit(model, train, validation, out: str, limits: FitLimits, progress: dict | None = None,
        weights_from: str | None = None) -> dict:
    """Fit ``model`` on ``train``, watching ``validation``'s loss, into the folder ``out``.

    Writes ``model.keras`` (the best epoch's weights), ``history.json``, the
    best checkpoint and TensorBoard logs; returns the run's figures for
    ``model.json``.  A run that fails or is interrupted removes what it
    created (the folder itself when it made it); what was there before, such
    as the files of a ``--resume`` folder trained on in place, stays.

    With ``progress`` (the run's spec, as ``model.json`` will hold it, and the
    state of an unfinished run when it goes on with one), the run is
    checkpointed: :func:`model.checkpoints.checkpoints` writes
    ``checkpoints/progress.json`` at the start and, after every epoch, it and
    the last weights, so a run interrupted (KeyboardInterrupt) after an epoch
    of this sitting keeps ``checkpoints/`` and ``logs/``.  ``progress`` with epochs done goes on
    with them from the checkpoints in ``weights_from`` (``out`` or another
    folder): the epochs count on, the learning rate and early stopping carry
    on where they were, and the best weights are the whole run's.
    """
    created = [path for path in (out, *(os.path.join(out, name) for name in FIT_OUTPUTS))
               if not os.path.exists(path)]
    sitting = {"epochs": 0}
    try:
        return _fit(model, train, validation, out, limits, progress, weights_from, sitting)
    except BaseException as exc:
        kept = ()
        if progress is not None and sitting["epochs"] > 0 and interrupted(exc):
            kept = tuple(os.path.join(out, name) for name in KEPT_WHEN_INTERRUPTED)
        for path in created:
            if (path == out and kept) or any(path == k or path.startswith(k + os.sep) for k in kept):
                continue
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
        raise


def _fit(model, train, validation, out: str, limits: FitLimits, progress: dict | None,
         weights_from: str | None, sitting: dict) -> dict:
    import keras

    os.makedirs(os.path.join(out, CHECKPOINTS), exist_ok=True)
    base_rate = float(model.optimizer.learning_rate.numpy())
    keep_last = limits.keep == "last"
    stopper = keras.callbacks.EarlyStopping(monitor="val_loss", patience=limits.patience,
                                            restore_best_weights=True, verbose=1)
    budget = wall_clock_budget(limits.minutes * 60)
    schedule = learning_rate_schedule(limits, base_rate)
    earlier = {} if progress is None else progress.get("history", {})
    initial_epoch = 0 if progress is None else progress.get("epochs_done", 0)
    # Kept last, the run goes to --epochs (or the budget) and ends on its own weights: no
    # early stopping, which would also restore its best epoch's.
    callbacks = [budget, schedule] if keep_last else [stopper, budget, schedule]
    if limits.warm_up and not initial_epoch:
        callbacks.append(warm_up(limits.warm_up))
    # before the checkpoints: a dead safe head is never kept as a run to go on with
    callbacks.append(dead_safe_head_guard(validation))
    if initial_epoch:
        callbacks.append(carry_on(progress, stopper, schedule,
                                  best_weights(model, os.path.join(weights_from, CHECKPOINTS))))
        if not same_folder(weights_from, out):
            # The run goes on in ``out``: its checkpoints there from the start.
            for name in (BEST_WEIGHTS, LAST_WEIGHTS):
                copy_atomically(os.path.join(weights_from, CHECKPOINTS, name),
                                os.path.join(out, CHECKPOINTS, name))
        if limits.schedule == "plateau":
            model.optimizer.learning_rate = progress["learning_rate"]
    # after the learning rate's callback, so the rate it saves is the next epoch's
    # A run going on in place keeps its progress.json as it is until an epoch is done.
    callbacks += [checkpoints(out, progress, stopper, schedule, sitting, initial_epoch,
                              write_now=not initial_epoch or not same_folder(weights_from, out),
                              keep=limits.keep),
                  keras.callbacks.TensorBoard(os.path.join(out, "logs"))]
    on_terminal = sys.stdout.isatty()
    if not on_terminal:
        # Keras writes one line an epoch to a log, and an epoch can take many minutes.
        callbacks.append(progress_lines(LOG_LINE_SECONDS))
    started = time.monotonic()
    with interrupts_between_batches() as between_batches:
        history = model.fit(train, validation_data=validation, epochs=limits.epochs,
                            callbacks=[*callbacks, between_batches], shuffle=False,
                            verbose=1 if on_terminal else 2, initial_epoch=initial_epoch)
    seconds = time.monotonic() - started

    model.save(os.path.join(out, MODEL_FILE))
    # the whole run's history: the earlier sittings' epochs, then this one's
    logs = {key: [*earlier.get(key, []), *(float(value) for value in history.history.get(key, []))]
            for key in {*earlier, *history.history}}
    losses = logs["val_loss"]
    best_epoch = kept_epoch(losses, limits.keep)
    with open(os.path.join(out, HISTORY_FILE), "w") as f:
        json.dump({"epoch": list(range(len(losses))), "history": logs}, f, indent=1, sort_keys=True)
        f.write("\n")
    stopped_by = "patience" if stopper.stopped_epoch else ("budget" if budget.spent else "epochs")
    figures = {
        "epochs_run": len(losses), "best_epoch": best_epoch + 1, "schedule": limits.schedule,
        "keep": limits.keep,
        # (a run going on keeps its first sitting's warm-up, the only one that had one)
        "warm_up": (progress or {}).get("limits", {}).get("warm_up", limits.warm_up),
        "stopped_by": stopped_by,
        "seconds": round(seconds + (0 if progress is None else progress.get("seconds", 0)), 1),
        # the watched records' figures at the epoch kept
        "validation_accuracy": logs["val_safe_accuracy"][best_epoch],
        "validation_loss": losses[best_epoch],
        # the end-state head's per-point accuracy on the points with an end state
        **({"validation_end_state_accuracy": logs["val_end_state_accuracy"][best_epoch]}
           if "val_end_state_accuracy" in logs else {}),
    }
    if progress is not None:
        # every sitting of the run (its first epoch, epochs, seconds), and how each ended
        figures["sittings"] = [
            *({"stopped_by": "interrupted", **entry} for entry in progress.get("sittings", [])),
            {**sitting_entry(initial_epoch, sitting["epochs"], seconds), "stopped_by": stopped_by}]
    return figures


def learning_rate_schedule(limits: FitLimits, base: float):
    """The callback that sets the learning rate (``limits.schedule``, from ``base``).

    ``cosine`` gives epoch e (from 0) ``base · (1 + cos(π (e + ½) / epochs)) / 2``:
    a run whose length is fixed in advance ends on small steps, which
    settle the weights where a constant rate keeps them moving.
    """
    import math

    import keras

    if limits.schedule == "cosine":
        return keras.callbacks.LearningRateScheduler(
            lambda epoch: base * (1 + math.cos(math.pi * (epoch + 0.5) / limits.epochs)) / 2)
    return keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5,
                                             patience=max(1, limits.patience // 2), min_lr=1e-5, verbose=1)


def warm_up(batches: int):
    """A callback that raises the learning rate linearly from ``1/batches`` of the scheduled
    rate to all of it over the first ``batches`` batches (at most the first epoch's).

    Why: at the full rate from the first batch, the 1×1 ReLU planes of the conv value head
    can all go dark within a few hundred batches, after which no gradient reaches them and
    the safe head stays at chance for the whole run (RESULTS.md, "The book network's dead
    value head").  Placed after the schedule's callback, whose rate it scales.
    """
    import keras

    class WarmUp(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            self.step = 0
            self.length = min(batches, self.params.get("steps") or batches)

        def on_epoch_begin(self, epoch, logs=None):
            self.target = float(self.model.optimizer.learning_rate.numpy())

        def on_train_batch_begin(self, batch, logs=None):
            if self.step < self.length:
                self.model.optimizer.learning_rate = self.target * (self.step + 1) / self.length

        def on_train_batch_end(self, batch, logs=None):
            self.step += 1
            if self.step == self.length:
                self.model.optimizer.learning_rate = self.target

    return WarmUp()


class DeadSafeHead(CommandError):
    """The safe head gives every record the same answer: its ReLUs are dark and cannot learn again."""


def dead_safe_head_guard(validation):
    """A callback that stops the run after an epoch whose weights give the first watched batch
    one and the same P(safe) for every record.

    A ReLU that is negative on every input gets no gradient, so a safe head
    whose units have all gone dark answers the same for every position from
    then on, and every epoch left (and any run resumed from these weights)
    is spent for nothing.  Such a head answers the sigmoid of its last bias,
    strictly between 0 and 1, for every position; a living head's answers
    over a batch of distinct positions differ at least by float rounding
    (a head saturated at exactly 0 or 1 everywhere is left alone).
    """
    import keras
    import numpy as np

    class Guard(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            # the watched batch, read once for the whole run; none with fewer than two
            # distinct positions (their answers could not differ)
            self.planes = None
            if validation is not None:
                planes = next(iter(validation))[0]
                if len(np.unique(np.asarray(planes).reshape(len(planes), -1), axis=0)) >= 2:
                    self.planes = planes

        def on_epoch_end(self, epoch, logs=None):
            if self.planes is None:
                return
            safe = np.asarray(self.model(self.planes, training=False)["safe"]).ravel()
            if np.ptp(safe) == 0 and 0 < safe[0] < 1:
                raise DeadSafeHead(
                    f"after epoch {epoch + 1} the safe head answers P(safe) = {safe[0]:.4f} for every "
                    f"one of {len(safe)} watched positions: its units are dead and cannot learn "
                    "again; train afresh with another --seed or a --warm-up")

    return Guard()


def wall_clock_budget(seconds: float):
    """A callback that stops training once ``seconds`` of wall clock have passed (0: never).

    Built here rather than at module level so importing this module (as the
    command line does, through :mod:`model.train`) does not import Keras.
    """
    import keras

    class WallClockBudget(keras.callbacks.Callback):
        spent = False

        def on_train_begin(self, logs=None):
            self.deadline = time.monotonic() + seconds if seconds > 0 else None

        def on_train_batch_end(self, batch, logs=None):
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.spent = True
                self.model.stop_training = True

    return WallClockBudget()


def progress_lines(seconds: float, clock=time.monotonic, out=None):
    """A callback that prints the epoch, the batches done and the running loss every ``seconds``."""
    import keras

    class ProgressLines(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            self.epoch = epoch + 1
            self.epoch_started = self.last_line = clock()

        def on_train_batch_end(self, batch, logs=None):
            now = clock()
            if now - self.last_line >= seconds:
                self.last_line = now
                loss = f", loss {logs['loss']:.4f}" if logs and "loss" in logs else ""
                print(f"epoch {self.epoch}: {batch + 1} batches in {now - self.epoch_started:.0f} s{loss}",
                      file=out or sys.stdout, flush=True)

    return ProgressLines()
