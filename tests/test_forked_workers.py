"""The direct runner's local workers, forked from a warm forkserver (pipeline/beam/forked_workers.py).

A tiny pipeline runs on two worker processes and must give what it gives in
this process; each element says which process handled it and whether the
forkserver's imports were already there.  Afterwards no process the run
started is left, also when a worker is killed in the middle of the run or
the forkserver dies before any worker starts.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import apache_beam as beam
import pytest

from pipeline.beam import forked_workers, running

TWO_WORKERS = ["--direct_num_workers", "2", "--direct_running_mode", "multi_processing"]
PRELOADED = forked_workers.PRELOAD   # imported by the forkserver, never by a worker started as a new Python
KILLED_AT = 7

pytestmark = pytest.mark.skipif(not forked_workers.available(), reason="this Python has no forkserver")


def where_made(number: int) -> str:
    """``number``, its square, and the process that computed it: its id, its parent's, whether it was forked warm."""
    return f"{number}\t{number * number}\t{os.getpid()}\t{os.getppid()}\t{PRELOADED in sys.modules}"


def killed_at_seven(number: int, test_process: int) -> int:
    """The worker that meets KILLED_AT dies of SIGKILL (a worker only, never the test's own process)."""
    if number == KILLED_AT and os.getpid() != test_process:
        os.kill(os.getpid(), signal.SIGKILL)
    return number


def _run(out: Path, beam_options: list[str], step=where_made, *extra, preload: str | None = None) -> list[list[str]]:
    with running.new_pipeline(beam_options, preload=preload) as pipeline:
        (pipeline | beam.Create(range(40)) | beam.Reshuffle() | beam.Map(step, *extra)
         | beam.Map(str) | beam.io.WriteToText(str(out / "made"), num_shards=1))
    return sorted(line.split("\t") for line in (out / "made-00000-of-00001").read_text().splitlines())


def _children() -> set[int]:
    """The processes whose parent is this one (read from /proc)."""
    children = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                children.add(int(entry.name))
    return children


@pytest.fixture
def no_process_left():
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to list the child processes")
    before = _children()
    yield
    assert _children() <= before


def test_forked_workers_give_what_one_process_gives_and_leave_no_process(tmp_path, no_process_left):
    alone = _run(tmp_path / "alone", [])
    forked = _run(tmp_path / "forked", TWO_WORKERS, preload="pipeline.beam.preload.features")
    assert [row[:2] for row in forked] == [row[:2] for row in alone]
    assert {row[2] for row in alone} == {str(os.getpid())} and {row[4] for row in alone} == {"False"}
    # Each element was made in a worker forked from the forkserver (the workers' one parent,
    # not this process), with the forkserver's imports already done.
    assert str(os.getpid()) not in {row[2] for row in forked}
    assert len({row[3] for row in forked}) == 1 and str(os.getpid()) not in {row[3] for row in forked}
    assert {row[4] for row in forked} == {"True"}
    assert "pipeline.beam.preload.features" not in sys.modules   # imported there, not here


def test_without_a_forkserver_the_workers_are_new_pythons(tmp_path, monkeypatch, no_process_left):
    monkeypatch.setattr(forked_workers, "available", lambda: False)   # (as on Windows)
    # A new Python finds this module (the steps' functions) only where pytest found it.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")])))
    rows = _run(tmp_path, TWO_WORKERS)
    assert [row[:2] for row in rows] == [[str(n), str(n * n)] for n in sorted(range(40), key=str)]
    assert {row[4] for row in rows} == {"False"} and str(os.getpid()) not in {row[2] for row in rows}


def test_a_killed_worker_fails_the_run_with_its_exit_code_and_leaves_no_process(
        tmp_path, monkeypatch, no_process_left):
    failures = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(str(args.exc_value)))
    with pytest.raises(Exception):
        _run(tmp_path, TWO_WORKERS, killed_at_seven, os.getpid())
    assert "Worker subprocess exited with return code -9 (SIGKILL)" in failures


def test_a_forkserver_that_dies_fails_the_run_with_the_reason_and_leaves_no_process(
        tmp_path, monkeypatch, no_process_left):
    # No worker can be started, so none ever connects: the runner must fail, not wait for one.
    failures = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(str(args.exc_value)))
    with pytest.raises(RuntimeError, match="^Worker could not be started: the forkserver is gone"):
        _run(tmp_path, TWO_WORKERS, preload="tests.forkserver_crash")
    assert failures and all(f.startswith("Worker could not be started: the forkserver is gone") for f in failures)


@pytest.mark.parametrize("stage, steps", [("features", "pipeline.features_pipeline"),
                                          ("solve_all", "pipeline.solve_all_pipeline"),
                                          ("enclose", "pipeline.enclose.stage")])
def test_a_stages_preload_imports_beams_worker_and_the_stages_steps(stage, steps):
    # In a process of its own: the preload hushes the logs and warms kernels where it runs.
    check = (f"import sys, pipeline.beam.preload.{stage}; "
             f"assert {{'apache_beam.runners.worker.sdk_worker_main', {steps!r}}} <= set(sys.modules)")
    subprocess.run([sys.executable, "-c", check], cwd=Path(__file__).resolve().parents[1], check=True)
