"""enclose over an earlier run's folder after a new reading version (pipeline/enclose/reading_check.py).

The records made by the earlier version are checked on a sample, read again with today's
code: when every sampled answer is the same, the others are re-stamped and kept, not
read again; when one differs, all of them are read again.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from pipeline.enclose import question, reading_check, stage

OPEN = Path(__file__).resolve().parent / "open-problems"
NAMES = ("corner-kill-bent-three", "corner-live-bulky-five", "book-move-fails-edge", "side-kill-straight-three")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """(run() -> (stdout, stderr, the problems enclosed), the output folder); ``enclose_file``
    counted wherever it is called, the check's sample two problems."""
    source = tmp_path / "open"
    source.mkdir()
    for name in NAMES:
        (source / f"{name}.sgf").write_bytes((OPEN / f"{name}.sgf").read_bytes())
    out = tmp_path / "enclosed"
    calls = []
    real = stage.enclose_file

    def counted(data, path, problem_id, *args, **kwargs):
        calls.append(problem_id)
        return real(data, path, problem_id, *args, **kwargs)

    monkeypatch.setattr(stage, "enclose_file", counted)
    monkeypatch.setattr(reading_check, "READING_CHECK_SAMPLE", 2)

    def run(capsys):
        calls.clear()
        assert main(["enclose", str(source), "--out", str(out), "--no-progress", "--no-guide"]) == 0
        captured = capsys.readouterr()
        return captured.out, captured.err, sorted(calls)

    return run, out


def outputs(out: Path) -> dict[str, bytes]:
    """Every enclosed file's bytes, and every report line but for its nodes and seconds."""
    files = {p.name: p.read_bytes() for p in out.glob("*.sgf")}
    for line in (out / "enclose.jsonl").read_text().splitlines():
        record = json.loads(line)
        files[record["problem"]] = answer_of(record)
    return files


def answer_of(record: dict) -> dict:
    readings = [{k: v for k, v in r.items() if k != "nodes"} for r in record.get("readings", [])]
    return {k: v for k, v in dict(record, readings=readings).items() if k not in ("nodes", "seconds")}


def sample() -> list[str]:
    return sorted(sorted(NAMES, key=reading_check.sample_order)[:2])


def test_a_new_reading_that_reads_the_sample_alike_keeps_the_other_records(folder, capsys, monkeypatch):
    run, out = folder
    _, _, enclosed = run(capsys)
    assert enclosed == sorted(NAMES)
    before = outputs(out)
    # records from before the reading version was kept in them are matched against every earlier one
    for path in (out / "records").glob("*.json"):
        record = json.loads(path.read_text())
        del record["reading"]
        path.write_text(json.dumps(record))
    version = question.READING_VERSION
    monkeypatch.setattr(question, "READING_VERSION", version + 1)
    printed, said, enclosed = run(capsys)
    assert enclosed == sample()   # the other two are not read again
    assert (f"enclose: reading {version} -> {version + 1}: 2 of 4 records re-read, all the same: "
            "the other 2 kept") in said
    assert "read 4 = " in printed and "(2 done in earlier runs, 2 read again to check the reading)" in printed
    assert outputs(out) == before
    kept = [json.loads((out / "records" / f"{name}.json").read_text()) for name in NAMES if name not in sample()]
    assert all(r["reading"] == version + 1 and r["read_by"] == version for r in kept)
    # re-stamped: the next run, at the same version, reads nothing again
    printed, said, enclosed = run(capsys)
    assert enclosed == [] and "(4 done in earlier runs)" in printed and "reading" not in said
    assert outputs(out) == before


def test_a_new_reading_that_reads_a_sampled_problem_otherwise_reads_every_record_again(folder, capsys, monkeypatch):
    run, out = folder
    run(capsys)
    real = question.read

    def unsettled(*args, **kwargs):   # a reading that no longer settles what fitted
        readings = real(*args, **kwargs)
        for reading in readings:
            if reading.verdict == question.FITS:
                reading.verdict = question.UNSETTLED
        return readings

    monkeypatch.setattr(question, "read", unsettled)
    version = question.READING_VERSION
    monkeypatch.setattr(question, "READING_VERSION", version + 1)
    printed, said, enclosed = run(capsys)
    assert enclosed == sorted(NAMES)   # one sampled, then all four read in the run
    first = sorted(NAMES, key=reading_check.sample_order)[0]
    assert (f"enclose: reading {version} -> {version + 1}: {first} reads otherwise (" in said
            and "all 4 records of reading" in said)
    assert '"enclosed" -> "unsettled"' in said
    records = [json.loads(line) for line in (out / "enclose.jsonl").read_text().splitlines()]
    assert {r["outcome"] for r in records} == {"unsettled", "book-move-fails"}
    assert not list(out.glob("*.sgf"))
    assert all(json.loads(p.read_text())["reading"] == version + 1 for p in (out / "records").glob("*.json"))
    assert "read 4 = " in printed and "(0 done in earlier runs, 1 read again to check the reading)" in printed
