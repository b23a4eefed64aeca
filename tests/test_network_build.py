"""make network's build (pipeline/network_build.py): stamps, skips, reruns, resumes, status.

The stages' commands are not run: ``subprocess.call`` is replaced by a fake that
records each command and writes what the real one would leave behind.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline import network_build
from pipeline.network_build import STAGES, main

NAMES = [stage.name for stage in STAGES]


def fake_outputs(command: list[str], cache: Path) -> None:
    """What each stage's command leaves in the cache when it ends."""
    verb = command[1]
    out = Path(command[command.index("--out") + 1]) if "--out" in command else None
    if verb == "solve-all":
        (out / "trees").mkdir(parents=True, exist_ok=True)
        (out / "stats.json").write_text("{}")
    elif verb == "features":
        out.mkdir(parents=True, exist_ok=True)
        (out / "features.json").write_text("{}")
    elif verb == "enclose":
        (out / "records").mkdir(parents=True, exist_ok=True)
        (out / "summary.md").write_text("")
    elif verb == "same-positions":
        Path(command[command.index("--copies-out") + 1]).write_text("")
    elif verb == "train":
        out.mkdir(parents=True, exist_ok=True)
        (out / "model.keras").write_text("")
        (out / "model.json").write_text("{}")
    elif verb == "quantize":
        folder = Path(command[command.index("--model") + 1])
        (folder / f"model-{command[command.index('--bits') + 1]}bit.tsq").write_text("")


@pytest.fixture
def build(tmp_path, monkeypatch):
    """(run(*options) -> the commands run, the cache); the shared data a stub."""
    shared = tmp_path / "shared"
    for folder in ("sgf-open/book", "sgf-problems"):
        (shared / folder).mkdir(parents=True)
    (shared / "sgf-open/book/1.sgf").write_text("(;)")
    (shared / "sgf-problems/1.sgf").write_text("(;)")
    cache = tmp_path / "cache"
    monkeypatch.setattr(network_build, "REPOSITORY", tmp_path / "repo")
    codes: dict[str, int] = {}

    def run(*options: str) -> list[list[str]]:
        ran = []

        def call(command):
            ran.append(command)
            code = codes.get(command[1], 0)
            if code in (0, 1):
                fake_outputs(command, cache)
            return code

        monkeypatch.setattr(network_build.subprocess, "call", call)
        main(["run", "--cache", str(cache), "--shared", str(shared), *options])
        return ran

    run.codes = codes
    return run, cache, shared


def stages_of(commands) -> list[str]:
    return [command[1] for command in commands]


def status(cache: Path, shared: Path, capsys, *options: str) -> dict[str, list[str]]:
    capsys.readouterr()
    assert main(["status", "--cache", str(cache), "--shared", str(shared), *options]) == 0
    rows = [line.split("|")[1:-1] for line in capsys.readouterr().out.splitlines()[3:]]
    return {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows}


def test_a_build_runs_every_stage_once_then_skips_them(build, capsys):
    run, cache, shared = build
    assert {row[0] for row in status(cache, shared, capsys).values()} == {"to do"}
    first = run()
    assert stages_of(first) == ["solve-all", "features", "enclose", "solve-all", "same-positions",
                                "features", "train", "train", "quantize"]
    assert sorted(p.stem for p in (cache / "stamps").glob("*.json")) == sorted(NAMES)
    assert (build[1].parent / "repo/model/networks/conv-books/model-5bit.tsq").exists()
    assert {row[0] for row in status(cache, shared, capsys).values()} == {"done"}
    assert run() == []   # everything done: nothing runs again


def test_a_changed_setting_reruns_the_stages_it_reaches(build, capsys):
    run, cache, shared = build
    run()
    # the seed splits the features and seeds training; the enclosed problems and trees stay
    again = run("--seed", "1")
    assert stages_of(again) == ["features", "same-positions", "features", "train", "train", "quantize"]
    # Beam options say how to run, not what: they change no key
    assert run("--seed", "1", "--beam", "--direct_num_workers 2") == []
    # a changed book collection: enclose again, in place, and everything after it
    (shared / "sgf-open/book/2.sgf").write_text("(;)")
    assert stages_of(run("--seed", "1"))[:2] == ["enclose", "solve-all"]


def test_a_stopped_build_goes_on_where_it_stopped(build, capsys):
    run, cache, shared = build
    run.codes["train"] = 130   # Ctrl-C in the first training
    with pytest.raises(SystemExit) as stop:
        run()
    assert "train failed (exit code 130)" in str(stop.value)
    (cache / "model/checkpoints").mkdir(parents=True)
    # as model.train writes it: the epochs asked for stand in the run's limits
    (cache / "model/checkpoints/progress.json").write_text(json.dumps(
        {"run": "a", "epochs_done": 4, "limits": {"epochs": 11, "patience": 11, "schedule": "cosine"}}))
    rows = status(cache, shared, capsys)
    assert rows["enclose"][0] == "done" and rows["train"][:2] == ["partial", "4 of 11 epochs"]
    assert rows["quantize"][0] == "to do" and "about" in rows["quantize"][2]
    run.codes.clear()
    resumed = run()
    assert stages_of(resumed) == ["train", "train", "quantize"]
    assert resumed[0][-2:] == ["--resume", str(cache / "model")]            # the unfinished run
    assert resumed[1][resumed[1].index("--resume") + 1] == str(cache / "model")   # from the first run
    # the time of the sitting stopped by Ctrl-C was never written: the row says whose time it shows
    rows = status(cache, shared, capsys)
    assert rows["train"][0] == "done" and rows["train"][2].endswith("(its last sitting)")
    assert rows["train-longer"][0] == "done" and "sitting" not in rows["train-longer"][2]
    # a training's own record counts every sitting (as model.train writes model.json)
    (cache / "model/model.json").write_text(json.dumps({"seconds": 7882.9, "sittings": [
        {"epochs": 7, "first_epoch": 1, "seconds": 5790.9, "stopped_by": "interrupted"},
        {"epochs": 4, "first_epoch": 8, "seconds": 2092.0, "stopped_by": "epochs"}]}))
    assert status(cache, shared, capsys)["train"][2] == "131 min of training in 2 sittings"


def test_a_stage_gone_on_with_gives_the_time_of_its_last_sitting(build, capsys):
    run, cache, shared = build
    run.codes["enclose"] = 130   # stopped: what it wrote stays, its time is never written
    with pytest.raises(SystemExit):
        run()
    (cache / "enclosed/records").mkdir(parents=True)
    run.codes.clear()
    run()
    rows = status(cache, shared, capsys)
    assert rows["enclose"][0] == "done" and rows["enclose"][2].endswith("(its last sitting)")
    assert rows["solve-all"][0] == "done" and "sitting" not in rows["solve-all"][2]


def test_rejected_inputs_go_on_only_where_the_shared_data_is_read(build):
    run, cache, shared = build
    run.codes["enclose"] = 1   # some book files rejected, each named: the build goes on
    assert "quantize" in stages_of(run())
    run.codes["features"] = 1   # the project's own subproblems rejected: a fault
    with pytest.raises(SystemExit):
        run("--seed", "2")


def test_every_stage_that_reads_the_shared_collections_goes_on_past_the_files_it_rejects(build):
    # the collections hold such files (books that give a pass as the answer, problems without
    # a target): a stage reading them exits 1, naming each, and the build must go on
    assert [stage.name for stage in STAGES if stage.shared_inputs and not stage.rejections_allowed] == []
    run, cache, shared = build
    run.codes["same-positions"] = 1
    assert "quantize" in stages_of(run())


def test_until_stops_after_a_stage(build):
    run, cache, shared = build
    assert stages_of(run("--until", "reference-features")) == ["solve-all", "features"]
    assert not (cache / "enclosed").exists()


def test_a_build_takes_the_stages_another_has_done_with_the_same_keys(build, capsys, tmp_path, monkeypatch):
    run, cache, shared = build
    run()
    # another cap on the trees: the book problems are enclosed once, every tree grown again
    other = tmp_path / "cap-300"
    ran = []

    def call(command):
        ran.append(command)
        fake_outputs(command, other)
        return 0

    monkeypatch.setattr(network_build.subprocess, "call", call)
    main(["run", "--cache", str(other), "--shared", str(shared), "--max-subproblems", "300",
          "--share-from", str(cache)])
    assert "enclose" not in stages_of(ran) and stages_of(ran).count("solve-all") == 2
    assert (other / "enclosed").is_symlink() and (other / "enclosed").resolve() == (cache / "enclosed").resolve()
    assert {row[0] for row in status(other, shared, capsys, "--max-subproblems", "300").values()} == {"done"}
    # a changed book collection: the linked stage is unlinked and run in its own folder
    (shared / "sgf-open/book/2.sgf").write_text("(;)")
    ran.clear()
    main(["run", "--cache", str(other), "--shared", str(shared), "--max-subproblems", "300",
          "--share-from", str(cache), "--until", "enclose"])
    assert stages_of(ran) == ["enclose"]
    assert not (other / "enclosed").is_symlink() and (cache / "enclosed/summary.md").exists()


def test_a_partial_enclose_counts_the_records_of_todays_settings(build, capsys):
    from pipeline.enclose.command import record_settings
    from pipeline.enclose.stage import fingerprint

    run, cache, shared = build
    (shared / "sgf-open/book/2.sgf").write_text("(;SZ[19])")
    records = cache / "enclosed/records/book"
    records.mkdir(parents=True)
    for name, settings in (("1", record_settings()), ("2", dict(record_settings(), reading=0))):
        book_file = shared / f"sgf-open/book/{name}.sgf"
        (records / f"{name}.json").write_text(json.dumps(
            {"file": str(book_file), "fingerprint": fingerprint(book_file.read_bytes(), settings)}))
    # a record of an earlier reading version is checked on a sample when the stage runs
    assert status(cache, shared, capsys)["enclose"][:2] == [
        "partial", "1 of 2 problems with today's settings, 1 of an earlier reading (checked on a sample when it runs)"]


def test_a_new_reading_version_reruns_enclose_in_place_and_keeps_every_key(build, capsys, monkeypatch):
    """The enclose stage's key names no reading version: the command checks its records
    against a new one itself, so a change of the reading code runs it again in place, and
    nothing after it runs again unless its inputs change."""
    from pipeline.enclose import question

    run, cache, shared = build
    run()
    settings = network_build.Settings(cache=cache, shared=shared)
    keys = network_build.stage_keys(settings)
    monkeypatch.setattr(question, "READING_VERSION", question.READING_VERSION + 1)
    assert network_build.stage_keys(settings) == keys
    rows = status(cache, shared, capsys)
    assert rows["enclose"][0] == "partial" and rows["enclose"][1].startswith(
        f"done by code version {question.READING_VERSION - 1}, today {question.READING_VERSION}")
    assert {row[0] for name, row in rows.items() if name != "enclose"} == {"done"}
    (cache / "enclosed/records/kept.json").write_text("{}")
    assert stages_of(run()) == ["enclose"]
    assert (cache / "enclosed/records/kept.json").exists()   # in place: not from an empty folder
    assert run() == []


def test_a_new_reading_version_that_changes_the_enclosed_problems_reruns_what_reads_them(
        build, capsys, monkeypatch):
    """When the enclose command, run again for a new reading version, changes the enclosed
    problems (its check found an answer changed and it read them all again), the stages
    that read them run again: their keys name the version that changed them."""
    import sys

    from pipeline.enclose import question

    run, cache, shared = build
    (cache / "enclosed/book").mkdir(parents=True)
    (cache / "enclosed/book/1.sgf").write_text("(;MA[aa])")
    run()
    keys = network_build.stage_keys(network_build.Settings(cache=cache, shared=shared))
    module = sys.modules[__name__]
    plain = module.fake_outputs

    def other_answers(command, cache):
        plain(command, cache)
        if command[1] == "enclose":
            (cache / "enclosed/book/1.sgf").write_text("(;MA[ab])")

    monkeypatch.setattr(module, "fake_outputs", other_answers)
    monkeypatch.setattr(question, "READING_VERSION", question.READING_VERSION + 1)
    assert stages_of(run()) == ["enclose", "solve-all", "features", "train", "train", "quantize"]
    after = network_build.stage_keys(network_build.Settings(cache=cache, shared=shared))
    assert after["enclose"] == keys["enclose"] and after["solve-all"] != keys["solve-all"]
    assert run() == []
