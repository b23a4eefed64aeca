"""Ctrl-C: one line saying what a rerun does, exit code 130, no traceback; solve-all resumes."""
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline import solve_all
from cli.main import main
from tests.test_solve_all import OWN_PROBLEMS, _files, _solve_all

RESUME = "interrupted; rerun the same command to resume (the sides finished are kept)"


def test_ctrl_c_in_any_command_is_one_line_and_exit_code_130(tmp_path, capsys, monkeypatch):
    def pressed(args):
        raise KeyboardInterrupt

    def pressed_inside_a_beam_step(args):
        # How Beam passes on an interrupt met inside a step: a RuntimeError naming the step.
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("KeyboardInterrupt [while running 'Expand/ParDo(Expand)']")

    command = ["solve-all", "--problems", str(tmp_path), "--out", str(tmp_path / "out")]
    for run in (pressed, pressed_inside_a_beam_step):
        monkeypatch.setattr(solve_all, "cmd_solve_all", run)
        assert main(command) == 130
        assert capsys.readouterr().err == RESUME + "\n"

    def failed(args):
        raise RuntimeError("not an interrupt")

    monkeypatch.setattr(solve_all, "cmd_solve_all", failed)
    with pytest.raises(RuntimeError, match="not an interrupt"):
        main(command)


def test_sigint_stops_solve_all_in_one_line_and_a_rerun_ends_as_an_uninterrupted_run(tmp_path):
    problems = tmp_path / "problems"
    shutil.copytree(OWN_PROBLEMS / "corner-shapes", problems / "corner-shapes")
    out = tmp_path / "interrupted"
    tsumego = Path(sys.executable).with_name("tsumego")
    # A test run started in the background by a shell ignores SIGINT, and its children would too.
    run = subprocess.Popen([str(tsumego), "solve-all", "--problems", str(problems), "--out", str(out),
                            "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    while not any(out.rglob("*.sgf")) and run.poll() is None:   # until it has written a first file
        time.sleep(0.01)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert err.splitlines() == [RESUME]
    _solve_all(problems, out)
    fresh = tmp_path / "fresh"
    _solve_all(problems, fresh)
    assert _files(out) == _files(fresh)
