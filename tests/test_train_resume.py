"""A train run survives a logout or the end of a job's time limit: checkpoints after every epoch, kept when
the run is interrupted (Ctrl-C, SIGTERM) after one, and ``--resume`` of the folder goes on with
the run.  The records are the toy set of ``test_model``, smaller."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import keras
import numpy as np
import pytest

from model import checkpoints, fit
from model.fit_interrupts import interrupts_between_batches
from cli.main import main
from pipeline.network_build import training_progress
from tests.toy_network import PLANES, TOY_OPTIONS, write_toy_records

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    write_toy_records(str(folder), counts={"train": 200, "test": 60})
    return folder


def interrupt_at_epoch(monkeypatch, epoch: int):
    """Ctrl-C pressed as epoch ``epoch`` (from 0) of the next train run begins: ``epoch`` epochs done."""
    budget = fit.wall_clock_budget

    def with_ctrl_c(seconds):
        class CtrlC(type(budget(seconds))):
            def on_epoch_begin(self, at, logs=None):
                if at == epoch:
                    raise KeyboardInterrupt
        return CtrlC()

    monkeypatch.setattr(fit, "wall_clock_budget", with_ctrl_c)


def read(path):
    return json.loads(Path(path).read_text())


def going_on(data, out) -> str:
    return f"go on with: tsumego train --data {data} --out {out} --resume {out}"


def test_a_run_interrupted_after_an_epoch_goes_on_in_place_to_the_end(data, tmp_path, capsys, monkeypatch):
    out = tmp_path / "model"
    command = ["train", "--data", str(data), "--out", str(out)]
    with monkeypatch.context() as patched:
        interrupt_at_epoch(patched, 2)
        assert main([*command, "--epochs", "5", "--patience", "9", "--schedule", "cosine", *TOY_OPTIONS]) == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == f"interrupted; 2 epochs done, kept in {out}/checkpoints; {going_on(data, out)}"
    assert sorted(os.listdir(out)) == ["checkpoints", "logs"]
    assert sorted(os.listdir(out / "checkpoints")) == ["best.weights.h5", "last.weights.h5", "progress.json"]
    progress = read(out / "checkpoints" / "progress.json")
    losses = progress["history"]["val_loss"]
    assert progress["epochs_done"] == 2 and len(losses) == 2 and len(progress["history"]["learning_rate"]) == 2
    assert progress["best_epoch"] == 1 + int(np.argmin(losses)) and progress["best_val_loss"] == min(losses)
    assert progress["planes"] == PLANES and progress["seed"] == 3 and progress["batch_size"] == 32
    assert progress["options"]["width"] == 48 and progress["data"] == str(data)
    assert progress["limits"] == {"epochs": 5, "patience": 9, "schedule": "cosine", "keep": "best", "warm_up": 0}
    assert [sitting["epochs"] for sitting in progress["sittings"]] == [2]
    # make network-status reads this run as it stands
    assert training_progress(out) == "2 of 5 epochs"

    # Started afresh over it, a run would overwrite its checkpoints: refused.
    assert main([*command, "--epochs", "1", *TOY_OPTIONS]) == 2
    assert (f"--out {out} holds an unfinished run (2 epochs done): go on with it with --resume {out}"
            in capsys.readouterr().err)

    # The usual command: the run's settings are its own, not the command line's defaults.
    assert main([*command, "--resume", str(out)]) == 0
    assert "left aside" not in capsys.readouterr().out
    spec = read(out / "model.json")
    assert spec["epochs_run"] == 5 and spec["stopped_by"] == "epochs" and spec["seed"] == 3
    assert [(s["first_epoch"], s["epochs"], s["stopped_by"]) for s in spec["sittings"]] == [
        (1, 2, "interrupted"), (3, 3, "epochs")]
    assert spec["seconds"] >= progress["seconds"]
    history = read(out / "history.json")
    assert history["epoch"] == [0, 1, 2, 3, 4]
    assert history["history"]["val_loss"][:2] == losses
    # the cosine schedule over the 5 epochs of both sittings
    expected = [0.003 * (1 + np.cos(np.pi * (epoch + 0.5) / 5)) / 2 for epoch in range(5)]
    assert np.allclose(history["history"]["learning_rate"], expected, rtol=1e-5)
    every = history["history"]["val_loss"]
    assert spec["best_epoch"] == 1 + int(np.argmin(every)) and spec["validation_loss"] == min(every)
    # the problems watched from the start
    assert spec["validation"] == progress["validation"] and spec["validation"]["problems"]
    # Adam went on from its state at the interruption: 5 epochs of the same batches in all
    batches = -(-spec["records"]["train"] // 32)
    assert spec["records"]["train"] < 200 and int(
        keras.saving.load_model(out / "model.keras").optimizer.iterations.numpy()) == 5 * batches
    # finished: the progress gives way to model.json, and the folder is a finished run's
    assert sorted(os.listdir(out / "checkpoints")) == ["best.weights.h5"]
    assert checkpoints.unfinished_run(str(out)) is None


def test_going_on_elsewhere_keeps_the_learning_rate_and_the_best_weights_of_the_whole_run(
        data, tmp_path, capsys, monkeypatch):
    stopped, out = tmp_path / "stopped", tmp_path / "went-on"
    with monkeypatch.context() as patched:
        interrupt_at_epoch(patched, 2)
        assert main(["train", "--data", str(data), "--out", str(stopped), "--epochs", "4", "--patience", "9",
                     *TOY_OPTIONS]) == 130
    # As if the best epoch so far could not be beaten, and the plateau had lowered the rate.
    path = stopped / "checkpoints" / "progress.json"
    progress = read(path)
    best = progress["best_epoch"]
    progress["history"]["val_loss"][best - 1] = progress["best_val_loss"] = 0.0
    progress["learning_rate"] = 1e-4
    path.write_text(json.dumps(progress))
    before = {p: p.read_bytes() for p in stopped.rglob("*") if p.is_file()}
    capsys.readouterr()

    assert main(["train", "--data", str(data), "--out", str(out), "--resume", str(stopped),
                 "--without", "noise"]) == 2
    assert "reads other planes" in capsys.readouterr().err
    assert main(["train", "--data", str(data), "--out", str(out), "--resume", str(stopped),
                 "--epochs", "7", "--seed", "3", "--validation-fraction", "0.5"]) == 0
    assert "left aside: --epochs 7, --validation-fraction 0.5" in capsys.readouterr().out
    spec = read(out / "model.json")
    assert spec["epochs_run"] == 4 and spec["best_epoch"] == best and spec["validation_loss"] == 0.0
    rates = read(out / "history.json")["history"]["learning_rate"]
    assert rates[:2] == [pytest.approx(0.003)] * 2 and rates[2] == pytest.approx(1e-4)
    # model.keras holds the best epoch's weights, from before the interruption
    model = keras.saving.load_model(out / "model.keras", compile=False)
    final = model.get_weights()
    model.load_weights(stopped / "checkpoints" / "best.weights.h5")
    assert all(np.array_equal(a, b) for a, b in zip(final, model.get_weights()))
    # the folder gone on from is left as it was
    assert {p: p.read_bytes() for p in stopped.rglob("*") if p.is_file()} == before


def test_ctrl_c_in_the_first_epoch_takes_back_everything(data, tmp_path, capsys, monkeypatch):
    out = tmp_path / "model"
    interrupt_at_epoch(monkeypatch, 0)
    assert main(["train", "--data", str(data), "--out", str(out), *TOY_OPTIONS]) == 130
    assert capsys.readouterr().err.splitlines()[-1] == (
        "interrupted; what this run wrote into --out was removed; rerun to train")
    assert not out.exists()


def slow_train(args: list[str]) -> subprocess.Popen:
    """``tsumego train`` in another process, each batch made half a second long."""
    code = ("import sys, time; from model import fit; from cli.main import main\n"
            "budget = fit.wall_clock_budget\n"
            "def slow(seconds):\n"
            "    class Slow(type(budget(seconds))):\n"
            "        def on_train_batch_end(self, batch, logs=None):\n"
            "            time.sleep(0.5)\n"
            "    return Slow()\n"
            "fit.wall_clock_budget = slow\n"
            "sys.exit(main(sys.argv[1:]))\n")
    return subprocess.Popen([sys.executable, "-c", code, "train", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(run: subprocess.Popen, done, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)


def epochs_done(out: Path):
    try:
        return read(out / "checkpoints" / "progress.json")["epochs_done"]
    except (OSError, ValueError):
        return None


def test_sigterm_after_an_epoch_keeps_the_run_and_sigkill_before_leaves_nothing_to_mistake(
        data, tmp_path, capsys):
    ended = tmp_path / "ended"
    run = slow_train(["--data", str(data), "--out", str(ended), "--epochs", "3", *TOY_OPTIONS])
    wait_for(run, lambda: (epochs_done(ended) or 0) >= 1)
    run.send_signal(signal.SIGTERM)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert err.splitlines()[-1].startswith("interrupted; ")
    assert err.splitlines()[-1].endswith(f" done, kept in {ended}/checkpoints; {going_on(data, ended)}")
    assert main(["train", "--data", str(data), "--out", str(ended), "--resume", str(ended)]) == 0
    spec = read(ended / "model.json")
    assert spec["epochs_run"] == 3 and len(spec["sittings"]) == 2

    killed = tmp_path / "killed"
    run = slow_train(["--data", str(data), "--out", str(killed), "--epochs", "3", *TOY_OPTIONS])
    wait_for(run, lambda: epochs_done(killed) is not None)
    run.send_signal(signal.SIGKILL)
    run.communicate(timeout=120)
    assert epochs_done(killed) == 0 and not (killed / "model.json").exists()
    capsys.readouterr()
    assert main(["train", "--data", str(data), "--out", str(killed), "--resume", str(killed)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: --resume {killed}: its run was stopped before its first epoch ended, so there is "
        "nothing to go on from; train without --resume"]
    # and a run started afresh there trains as in an empty folder
    assert main(["train", "--data", str(data), "--out", str(killed), "--epochs", "1", *TOY_OPTIONS]) == 0
    assert sorted(os.listdir(killed / "checkpoints")) == ["best.weights.h5"]
    shutil.rmtree(killed)


def test_sigterm_while_an_epoch_is_being_kept_waits_until_its_files_are_written():
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        pytest.skip("SIGTERM is handled by someone else here")
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with checkpoints.terminate_as_interrupt():
            with checkpoints.interrupts_deferred():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.1)   # where the handler would run
                reached.append("written")
    assert reached == ["written"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_a_signal_while_the_network_trains_waits_for_the_next_batch_and_a_second_one_does_not():
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        pytest.skip("SIGTERM is handled by someone else here")
    # Ctrl-C handled as Python does in a terminal: a shell's background job starts with it ignored
    ctrl_c = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _signals_while_training()
    finally:
        signal.signal(signal.SIGINT, ctrl_c)


def _signals_while_training():
    reached = []
    with checkpoints.terminate_as_interrupt():
        with pytest.raises(KeyboardInterrupt):
            with interrupts_between_batches() as between_batches:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.1)   # where the handler would run: inside TensorFlow, say
                reached.append("noted")
                with checkpoints.interrupts_deferred():   # an epoch's files meanwhile
                    reached.append("written")
                between_batches.on_train_batch_end(0)
                reached.append("past the batch")
        assert reached == ["noted", "written"]

        reached.clear()
        with pytest.raises(KeyboardInterrupt):
            with interrupts_between_batches():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.1)
                reached.append("noted")
                os.kill(os.getpid(), signal.SIGTERM)   # the user insists
                time.sleep(0.1)
                reached.append("past the second")
        assert reached == ["noted"]

        reached.clear()
        with pytest.raises(KeyboardInterrupt):
            with interrupts_between_batches():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.1)
                reached.append("fit ended")   # no hook came: acted on when leaving
        assert reached == ["fit ended"]
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL   # train's handler again
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
