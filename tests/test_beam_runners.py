"""The Beam stages beyond the direct runner: the portable runner, counters, quiet output.

Beam's PortableRunner with its embedded job service speaks the protocol of the
Flink, Spark and Dataflow runners; run on the project's eye-shape problems,
``solve-all`` and ``features`` must leave the very files the direct runner leaves.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from apache_beam.metrics.execution import MetricKey, MetricResult
from apache_beam.metrics.metric import MetricResults
from apache_beam.metrics.metricbase import MetricName
from apache_beam.runners.runner import PipelineResult, PipelineState

from pipeline.beam import running
from cli.main import main

REPOSITORY = Path(__file__).resolve().parents[1]
PROBLEMS = REPOSITORY / "sgf-problems" / "eye-shapes"
PORTABLE = ["--runner", "PortableRunner", "--job_endpoint", "embed", "--environment_type", "LOOPBACK"]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _both_stages(root: Path, *beam_options: str) -> Path:
    out = root / "solve-all"
    assert main(["solve-all", "--problems", str(PROBLEMS), "--out", str(out), "--no-progress",
                 *beam_options]) == 0
    assert main(["features", "--subproblems", str(out / "subproblems"), "--out", str(root / "tfrecords"),
                 "--no-progress", *beam_options]) == 0
    return root


@pytest.fixture(scope="module")
def direct(tmp_path_factory):
    return _both_stages(tmp_path_factory.mktemp("direct"))


def test_the_portable_runner_writes_the_files_the_direct_runner_writes(direct, tmp_path, capsys):
    capsys.readouterr()
    portable = _both_stages(tmp_path, *PORTABLE)
    captured = capsys.readouterr()
    for stage in ("solve-all", "tfrecords"):
        expected = _files(direct / stage)
        assert expected and _files(portable / stage) == expected
    assert any(name.startswith("train-") for name in _files(portable / "tfrecords"))
    # The portable runner reports its counters: none of them reads "?".
    assert "93 solves" in captured.out and "?" not in captured.out
    assert "warning" not in captured.err


def _metrics_of(*found: MetricResult):
    class Found(MetricResults):
        def query(self, filter=None):
            return {"counters": list(found), "distributions": [], "gauges": []}

    class Result(PipelineResult):
        def metrics(self):
            return Found()

    return Result(PipelineState.DONE)


def test_counters_take_the_attempted_value_where_no_committed_one_is_reported():
    def counted(step, name, committed, attempted):
        return MetricResult(MetricKey(step, MetricName("solve-all", name)), committed, attempted)

    result = _metrics_of(counted("Expand", "solves", None, 5), counted("Plan", "solves", 2, 7),
                         counted("Expand", "search_nodes", None, 40))
    assert running.counters(result, "solve-all", ["solves", "moves_dropped_area_changed"]) == {
        "solves": 7, "moves_dropped_area_changed": 0, "search_nodes": 40}


def test_a_runner_without_metrics_gets_a_warning_and_the_stage_goes_on(tmp_path, capsys, monkeypatch):
    assert running.counters(PipelineResult(PipelineState.DONE), "solve-all", runner="Some") is None
    assert capsys.readouterr().err.startswith("warning: the Some runner reports no metrics")

    def run_without_metrics(pipeline, bar=None):
        pipeline.run().wait_until_finish()
        return PipelineResult(PipelineState.DONE)   # what a runner without metrics() gives

    monkeypatch.setattr(running, "run_to_end", run_without_metrics)
    assert main(["solve-all", "--problems", str(PROBLEMS), "--out", str(tmp_path / "s"), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "problems read 12 = expanded 12 (? in earlier runs)" in captured.out
    assert "? solves" in captured.out and captured.err.count("warning:") == 1
    # The features stage needs no counter to check that every file is accounted for.
    assert main(["features", "--subproblems", str(tmp_path / "s" / "subproblems"),
                 "--out", str(tmp_path / "f"), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "read 36, written 22 train + 14 test, rejected 0" in captured.out and not captured.err


def test_worker_processes_are_quiet_unless_verbose(tmp_path):
    command = [sys.executable, "-m", "cli", "solve-all", "--problems", str(PROBLEMS),
               "--direct_num_workers", "2", "--direct_running_mode", "multi_processing", "--no-progress"]
    environment = {key: value for key, value in os.environ.items() if key != "TSUMEGO_VERBOSE"}
    quiet = subprocess.run(command + ["--out", str(tmp_path / "quiet")], capture_output=True, text=True,
                           cwd=REPOSITORY, env=environment, check=True)
    assert quiet.stdout.startswith("solve-all: problems read 12") and quiet.stderr == ""
    loud = subprocess.run(command + ["--out", str(tmp_path / "loud")], capture_output=True, text=True,
                          cwd=REPOSITORY, env={**environment, "TSUMEGO_VERBOSE": "1"}, check=True)
    assert "sdk_worker" in loud.stderr
    assert _files(tmp_path / "quiet") == _files(tmp_path / "loud")


def test_a_local_folder_is_listed_as_beams_match_lists_it(tmp_path):
    from apache_beam.io.filesystems import FileSystems

    from pipeline.beam import storage

    for name in ["b.sgf", "a.sgf", ".hidden.sgf", "notes.txt", "c.sgf.bak", "x.SGF"]:
        (tmp_path / name).write_text("(;)")
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "d.sgf").write_text("(;)")
    (tmp_path / "folder.sgf").mkdir()
    (tmp_path / "link.sgf").symlink_to(tmp_path / "a.sgf")
    beams = sorted(m.path for m in FileSystems.match([str(tmp_path / "*.sgf")])[0].metadata_list)
    assert storage.files_in(str(tmp_path), ".sgf") == beams
    assert [Path(p).name for p in beams] == [".hidden.sgf", "a.sgf", "b.sgf", "link.sgf"]
