"""The files of an unfinished ``tsumego train`` run, and how a run goes on with them.

A run that trains for hours should survive being stopped (Ctrl-C, the
SIGTERM of a logout or of a job's time limit): after every epoch
:func:`checkpoints` writes, into ``checkpoints/`` of the output folder, the
best epoch's weights, the last epoch's and ``progress.json`` (the run's spec
and where it stands: epochs, learning rate, early stopping, history,
sittings), each whole or not at all, and an interrupted run keeps them.
``--resume`` of that folder finds the run (:func:`unfinished_run`), takes
its settings (:func:`continue_settings`) and, through :func:`best_weights`
and :func:`carry_on`, goes on as if never stopped; :func:`interrupted_advice`
tells an interrupted run's user what was kept and the command that goes on.

:mod:`model.fit` uses these in the fit loop; :mod:`model.train`, the
command, decides from them what ``--resume`` does.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shlex
import shutil
import signal
import threading
import time

from model.train_options import TrainOptions
from pipeline.interrupts import raising_interrupt

# The finished run's spec (planes, options, seed, data, epochs), written by tsumego train
# and read by whatever uses its network.
MODEL_SPEC = "model.json"
CHECKPOINTS = "checkpoints"
# In CHECKPOINTS: the best epoch's weights, the last epoch's, and the unfinished run's state.
BEST_WEIGHTS = "best.weights.h5"
LAST_WEIGHTS = "last.weights.h5"
PROGRESS_FILE = "progress.json"
# What a run interrupted after an epoch keeps of what it wrote.
KEPT_WHEN_INTERRUPTED = (CHECKPOINTS, "logs")
# The settings of a run that a sitting going on with it keeps, whatever its command line says.
RUN_SETTINGS = ("seed", "batch_size", "epochs", "patience", "schedule", "keep", "validation_fraction")


def read_model_spec(model_dir: str) -> dict:
    """The ``model.json`` of a finished run in ``model_dir``."""
    with open(os.path.join(model_dir, MODEL_SPEC)) as f:
        return json.load(f)


def unfinished_run(folder: str) -> dict | None:
    """The ``checkpoints/progress.json`` of the run in ``folder`` that did not finish, or None
    when ``folder`` holds none (no such file, or the run that wrote ``model.json`` is the one
    that wrote it: a run killed after its ``model.json`` and before taking back the file).

    Raises ValueError (or OSError) when the file cannot be read.
    """
    path = os.path.join(folder, CHECKPOINTS, PROGRESS_FILE)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        progress = json.load(f)
    if not isinstance(progress, dict) or "epochs_done" not in progress or "run" not in progress:
        raise ValueError(f"{path}: not the progress of a tsumego train run")
    try:
        finished = read_model_spec(folder).get("run") == progress["run"]
    except (OSError, ValueError):
        finished = False
    return None if finished else progress


def resumable(folder: str, progress: dict | None) -> bool:
    """Whether the unfinished run ``progress`` of ``folder`` can be gone on with: an epoch
    done, and its weights there."""
    return (progress is not None and progress["epochs_done"] >= 1
            and all(os.path.exists(os.path.join(folder, CHECKPOINTS, name))
                    for name in (LAST_WEIGHTS, BEST_WEIGHTS)))


def going_on_command(data: str, out: str) -> str:
    return f"tsumego train --data {shlex.quote(data)} --out {shlex.quote(out)} --resume {shlex.quote(out)}"


def interrupted_advice(settings: TrainOptions, continued: bool) -> str:
    """What the line of an interrupted run says (``on_interrupt``): what is kept, how to go on."""
    try:
        progress = unfinished_run(settings.out)
    except (OSError, ValueError):
        progress = None
    if resumable(settings.out, progress):
        done = progress["epochs_done"]
        return (f"{done} epoch{'s' if done != 1 else ''} done, kept in "
                f"{os.path.join(settings.out, CHECKPOINTS)}; go on with: {going_on_command(settings.data, settings.out)}")
    if continued:
        return (f"what this run wrote into --out was removed; {settings.resume} still holds the run: "
                f"go on with: {going_on_command(settings.data, settings.resume)}")
    return "what this run wrote into --out was removed; rerun to train"


def continue_settings(settings: TrainOptions, progress: dict) -> TrainOptions:
    """``settings`` with the settings of the unfinished run ``progress``, and a line naming the
    options given on the command line that it overrides (--minutes stays this sitting's)."""
    given = {"seed": settings.seed, "batch_size": settings.batch_size, "epochs": settings.epochs,
             "patience": settings.patience, "schedule": settings.schedule, "keep": settings.keep,
             "validation_fraction": settings.validation_fraction}
    # (a run from before validation problems watched the test split: fraction 0)
    # (and one from before --keep kept its best epoch)
    kept = {"seed": progress["seed"], "batch_size": progress["batch_size"], "keep": "best", **progress["limits"],
            "validation_fraction": progress.get("validation", {}).get("fraction", 0.0)}
    overridden = [f"--{name.replace('_', '-')} {given[name]}" for name in RUN_SETTINGS
                  if given[name] != kept[name] and (settings.changed is None or name in settings.changed)]
    going_on = {name: kept[name] for name in RUN_SETTINGS}
    if not settings.extra_train:
        going_on.update(extra_train=tuple(progress.get("extra_train", [])),
                        extra_split=progress.get("extra_split", "both"))
    elif [os.path.abspath(folder) for folder in settings.extra_train] != progress.get("extra_train", []):
        overridden.append("--extra-train (this sitting trains on the folders given)")
    if os.path.abspath(settings.data) != progress.get("data"):
        print(f"--resume {settings.resume}: the run was trained on {progress.get('data')}; "
              f"this sitting reads {settings.data}")
    if overridden:
        print(f"--resume {settings.resume}: going on with the run's settings; "
              f"left aside: {', '.join(overridden)}")
    return dataclasses.replace(settings, **going_on)


def terminate_as_interrupt():
    """Meanwhile, SIGTERM (a logout, a batch job's time limit, ``kill``) interrupts as Ctrl-C does, so the run
    keeps its checkpoints and says how to go on instead of dying mid-write.  Where SIGTERM is
    handled by someone else, or off the main thread, it stays as it is."""
    return raising_interrupt(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def interrupts_deferred():
    """Meanwhile, a SIGINT or SIGTERM that Python handles (Ctrl-C's KeyboardInterrupt, or
    :func:`terminate_as_interrupt`) is held, and its handler runs once it is over.  Signals
    are handled on the main thread only, so elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = []
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    handled = {number: handler for number, handler in handlers.items() if callable(handler)}
    for number in handled:
        signal.signal(number, lambda number, frame: held.append((number, frame)))
    try:
        yield
    finally:
        for number, handler in handled.items():
            signal.signal(number, handler)
        if held:
            number, frame = held[0]
            handled[number](number, frame)


def write_json(path: str, content: dict) -> None:
    """``content`` into ``path`` whole or not at all: written beside it, then renamed over it."""
    partial = path + ".partial"
    with open(partial, "w") as f:
        json.dump(content, f, indent=2, sort_keys=True)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(partial, path)


def same_folder(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _beside(path: str) -> str:
    """Where a ``*.weights.h5`` file is written before it is renamed over ``path`` (Keras
    insists on the suffix)."""
    return path[:-len(".weights.h5")] + ".partial.weights.h5"


def save_weights_atomically(model, path: str) -> None:
    """``model``'s weights into ``path`` (``*.weights.h5``), whole or not at all."""
    model.save_weights(_beside(path))
    os.replace(_beside(path), path)


def copy_atomically(source: str, path: str) -> None:
    """``source`` copied to ``path`` (``*.weights.h5``), whole or not at all."""
    shutil.copyfile(source, _beside(path))
    os.replace(_beside(path), path)


def best_weights(model, folder: str) -> list:
    """The weights of ``folder``'s best checkpoint (as ``model.get_weights`` gives them), and
    ``model`` left with its last one.

    A checkpoint holds the optimizer's variables too (Adam's moments, its step count): built
    first, the optimizer takes them up, so the run goes on as if never stopped.  (One whose
    variables differ, say with ``--mixed-precision`` given in one sitting only, starts
    afresh; Keras warns.)
    """
    if not model.optimizer.built:
        with model.distribute_strategy.scope():
            model.optimizer.build(model.trainable_variables)
    model.load_weights(os.path.join(folder, BEST_WEIGHTS))
    best = model.get_weights()
    model.load_weights(os.path.join(folder, LAST_WEIGHTS))
    return best


def carry_on(progress: dict, stopper, schedule, best: list):
    """A callback that, once the others have reset themselves at the start of training, sets
    early stopping (and the plateau schedule) where the unfinished run ``progress`` left them:
    its best loss, epoch and weights, and the epochs waited since."""
    import keras

    state = progress["callbacks"]

    class CarryOn(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            stopper.best = progress["best_val_loss"]
            stopper.best_epoch = progress["best_epoch"] - 1
            stopper.best_weights = best
            stopper.wait = state["stopper_wait"]
            if isinstance(schedule, keras.callbacks.ReduceLROnPlateau):
                schedule.best = state["plateau_best"]
                schedule.wait = state["plateau_wait"]
                schedule.cooldown_counter = state["plateau_cooldown"]

    return CarryOn()


def replaces_kept(loss: float, kept_loss: float | None, keep: str) -> bool:
    """Whether an epoch whose validation loss is ``loss`` replaces the epoch kept so far (of
    loss ``kept_loss``; None: none yet).  ``keep`` "last": every epoch does; "best": one of
    lower loss, so that of equal ones the first stays, as in Keras's early stopping (which
    restores the best weights of a "best" run when it stops it)."""
    return keep == "last" or kept_loss is None or loss < kept_loss


def kept_epoch(losses: list[float], keep: str) -> int:
    """The index of the epoch a run keeps, from its validation losses (by :func:`replaces_kept`)."""
    kept = None
    for epoch, loss in enumerate(losses):
        if replaces_kept(loss, None if kept is None else losses[kept], keep):
            kept = epoch
    return kept


def checkpoints(out: str, progress: dict | None, stopper, schedule, sitting: dict, initial_epoch: int,
                write_now: bool = True, keep: str = "best"):
    """A callback that keeps ``checkpoints/`` of ``out`` after every epoch: the kept epoch's
    weights (:func:`replaces_kept`: the best by the validation loss, or the last) and,
    for a run with ``progress``, the last epoch's and ``progress.json``, each written whole
    (beside, then renamed over the old one).

    ``progress.json`` holds the run's spec (``progress`` as given, written at once when
    ``write_now``, so a run killed in its first epoch is still recognised), the epochs done,
    the seconds spent over all sittings, the best validation loss and its epoch, the
    learning rate for the next epoch, the history so far, the sittings and the state of
    early stopping and of the plateau schedule: what :func:`carry_on` needs to go on.
    The weights are written before ``progress.json``: a run killed (SIGKILL) between the
    two goes on from weights an epoch ahead of what ``progress.json`` counts.
    """
    import keras

    folder = os.path.join(out, CHECKPOINTS)
    if progress is not None:
        progress = {"epochs_done": 0, "seconds": 0.0, "best_val_loss": None, "best_epoch": None,
                    "history": {}, "sittings": [], "callbacks": {}, **progress}
        # (copied: the caller's history stays the earlier sittings')
        progress["history"] = {key: list(values) for key, values in progress["history"].items()}
        progress["sittings"] = [*progress["sittings"], sitting_entry(initial_epoch, 0, 0)]
        if write_now:
            write_json(os.path.join(folder, PROGRESS_FILE), progress)
    earlier_seconds = 0.0 if progress is None else progress["seconds"]
    best = None if progress is None else progress["best_val_loss"]

    class Checkpoints(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            self.started = time.monotonic()

        def on_epoch_end(self, epoch, logs=None):
            # Ctrl-C or SIGTERM meanwhile waits: the epoch's files are written together.
            with interrupts_deferred():
                self.keep(epoch, logs or {})
            sitting["epochs"] += 1

        def keep(self, epoch, logs):
            nonlocal best
            loss = float(logs["val_loss"])
            if progress is not None:
                save_weights_atomically(self.model, os.path.join(folder, LAST_WEIGHTS))
            if replaces_kept(loss, best, keep):
                best = loss
                save_weights_atomically(self.model, os.path.join(folder, BEST_WEIGHTS))
                if progress is not None:
                    progress.update(best_val_loss=loss, best_epoch=epoch + 1)
            if progress is None:
                return
            seconds = time.monotonic() - self.started
            for key, value in logs.items():
                progress["history"].setdefault(key, []).append(float(value))
            plateau = isinstance(schedule, keras.callbacks.ReduceLROnPlateau)
            progress.update(
                epochs_done=epoch + 1, seconds=round(earlier_seconds + seconds, 1),
                learning_rate=float(keras.ops.convert_to_numpy(self.model.optimizer.learning_rate)),
                callbacks={"stopper_wait": stopper.wait,
                           **({"plateau_best": None if schedule.best is None else float(schedule.best),
                               "plateau_wait": schedule.wait,
                               "plateau_cooldown": schedule.cooldown_counter} if plateau else {})})
            progress["sittings"][-1] = sitting_entry(initial_epoch, sitting["epochs"] + 1, seconds)
            write_json(os.path.join(folder, PROGRESS_FILE), progress)

    return Checkpoints()


def sitting_entry(initial_epoch: int, epochs: int, seconds: float) -> dict:
    return {"first_epoch": initial_epoch + 1, "epochs": epochs, "seconds": round(seconds, 1)}
