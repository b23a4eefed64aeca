"""make network's build (pipeline/network_build.py): stamps, skips, reruns, resumes, status.

The stages' commands are not run: ``subprocess.call`` is replaced by a fake that
records each command and writes what the real one would leave behind.  The
tests of stamps and keys run the full build (``--size full``, the fixture's
default); the short build's own steps are tested at the end.
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from pipeline import network_build, network_stages
from pipeline.network_build import STAGES, main

NAMES = [stage.name for stage in STAGES]
PACKINGS = itertools.count()


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
        # each run packs other bytes, as a training's new weights would
        packed = f"packed by run {next(PACKINGS)}"
        (folder / f"model-{command[command.index('--bits') + 1]}bit.tsq").write_text(packed)
        (folder / "model-float.tsq").write_text(packed)
    elif verb == "report":
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary.json").write_text("{}")


@pytest.fixture
def build(tmp_path, monkeypatch):
    """(run(*options) -> the commands run, the cache); the shared data a stub."""
    shared = tmp_path / "shared"
    for folder in ("sgf-open/book", "sgf-problems"):
        (shared / folder).mkdir(parents=True)
    (shared / "sgf-open/book/1.sgf").write_text("(;)")
    (shared / "sgf-problems/1.sgf").write_text("(;)")
    cache = tmp_path / "cache"
    repository = tmp_path / "repo"
    monkeypatch.setattr(network_stages, "REPOSITORY", repository)
    shipped = repository / "model/networks/conv-books"
    shipped.mkdir(parents=True)
    (shipped / "model.json").write_text('{"run": "shipped"}')
    (shipped / "model-5bit.tsq").write_text("5 bits")
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
        size = [] if "--size" in options else ["--size", "full"]
        main(["run", "--cache", str(cache), "--shared", str(shared), *size, *options])
        return ran

    run.codes = codes
    return run, cache, shared


def faked_calls(monkeypatch, cache: Path) -> list[list[str]]:
    """The commands a build in ``cache`` runs from now on, each faking its outputs there."""
    ran = []

    def call(command):
        ran.append(command)
        fake_outputs(command, cache)
        return 0

    monkeypatch.setattr(network_build.subprocess, "call", call)
    return ran


def stages_of(commands) -> list[str]:
    return [command[1] for command in commands]


def status(cache: Path, shared: Path, capsys, *options: str) -> dict[str, list[str]]:
    capsys.readouterr()
    size = [] if "--size" in options else ["--size", "full"]
    assert main(["status", "--cache", str(cache), "--shared", str(shared), *size, *options]) == 0
    rows = [line.split("|")[1:-1] for line in capsys.readouterr().out.splitlines()[3:]]
    return {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows}


def test_a_build_runs_every_stage_once_then_skips_them(build, capsys):
    run, cache, shared = build
    assert {row[0] for row in status(cache, shared, capsys).values()} == {"to do"}
    first = run()
    assert stages_of(first) == ["solve-all", "features", "enclose", "solve-all", "same-positions",
                                "features", "train", "train", "quantize", "report", "card"]
    assert sorted(p.stem for p in (cache / "stamps").glob("*.json")) == sorted(NAMES)
    assert (build[1].parent / "repo/model/networks/conv-books/model-5bit.tsq").exists()
    assert {row[0] for row in status(cache, shared, capsys).values()} == {"done"}
    assert run() == []   # everything done: nothing runs again


def test_a_changed_setting_reruns_the_stages_it_reaches(build, capsys):
    run, cache, shared = build
    run()
    # the seed splits the features and seeds training; the enclosed problems and trees stay
    again = run("--seed", "1")
    assert stages_of(again) == ["features", "same-positions", "features", "train", "train", "quantize",
                                "report", "card"]
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
    assert stages_of(resumed) == ["train", "train", "quantize", "report", "card"]
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
    # another cap on the book trees: the book problems enclosed once, their trees grown again; the
    # reference trees (capped at REFERENCE_CAP whatever the book trees' cap) are shared
    other = tmp_path / "cap-300"
    ran = faked_calls(monkeypatch, other)
    main(["run", "--cache", str(other), "--shared", str(shared), "--max-subproblems", "300",
          "--share-from", str(cache), "--size", "full"])
    assert "enclose" not in stages_of(ran) and stages_of(ran).count("solve-all") == 1
    assert (other / "reference/solve-all").resolve() == (cache / "reference/solve-all").resolve()
    assert (other / "enclosed").is_symlink() and (other / "enclosed").resolve() == (cache / "enclosed").resolve()
    assert {row[0] for row in status(other, shared, capsys, "--max-subproblems", "300").values()} == {"done"}
    # a changed book collection: the linked stage is unlinked and run in its own folder
    (shared / "sgf-open/book/2.sgf").write_text("(;)")
    ran.clear()
    main(["run", "--cache", str(other), "--shared", str(shared), "--max-subproblems", "300",
          "--share-from", str(cache), "--until", "enclose", "--size", "full"])
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
    settings = network_build.Settings(cache=cache, shared=shared, size="full")
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
    keys = network_build.stage_keys(network_build.Settings(cache=cache, shared=shared, size="full"))
    module = sys.modules[__name__]
    plain = module.fake_outputs

    def other_answers(command, cache):
        plain(command, cache)
        if command[1] == "enclose":
            (cache / "enclosed/book/1.sgf").write_text("(;MA[ab])")

    monkeypatch.setattr(module, "fake_outputs", other_answers)
    monkeypatch.setattr(question, "READING_VERSION", question.READING_VERSION + 1)
    assert stages_of(run()) == ["enclose", "solve-all", "features", "train", "train", "quantize", "report",
                                "card"]
    after = network_build.stage_keys(network_build.Settings(cache=cache, shared=shared, size="full"))
    assert after["enclose"] == keys["enclose"] and after["solve-all"] != keys["solve-all"]
    assert run() == []


def test_the_short_build_trains_once_from_the_shipped_weights_and_installs_them_for_the_next(build, capsys):
    run, cache, shared = build
    first = run("--size", "short")
    assert stages_of(first) == ["solve-all", "features", "enclose", "solve-all", "same-positions", "features",
                                "train", "quantize", "report", "card"]
    enclose = next(command for command in first if command[1] == "enclose")
    assert enclose[enclose.index("--max-nodes") + 1] == "20000"   # a tenth of enclose's budget
    train = next(command for command in first if command[1] == "train")
    assert train[train.index("--config") + 1] == "conv-books-short"
    assert train[train.index("--resume") + 1] == str(cache / "warm-start")
    assert (cache / "warm-start/model-5bit.tsq").read_text() == "5 bits"   # a copy of the shipped network
    installed = cache.parent / "repo/model/networks/conv-books"
    assert (installed / "model-5bit.tsq").read_text() == (cache / "model/model-5bit.tsq").read_text()
    assert (installed / "model-float.tsq").exists()
    assert first[-1][1:] == ["card", "--network", str(installed), "--report", str(cache / "report")]
    assert {row[0] for row in status(cache, shared, capsys, "--size", "short").values()} == {"done"}
    # the installed network is not what this build started from: nothing runs again
    assert run("--size", "short") == []
    # the weights it started from changed (the copy taken again): the training runs again
    (cache / "warm-start/model-5bit.tsq").write_text("other weights")
    assert stages_of(run("--size", "short")) == ["train", "quantize", "report", "card"]


def test_the_short_and_full_builds_score_on_the_same_reference_split(build):
    run, cache, shared = build
    keys = {size: network_build.stage_keys(network_build.Settings(cache=cache, shared=shared, size=size))
            for size in ("short", "full")}
    assert keys["short"]["reference-features"] == keys["full"]["reference-features"]
    assert keys["short"]["enclose"] != keys["full"]["enclose"]
    capped = network_build.Settings(cache=cache, shared=shared, size="short", max_subproblems=50)
    assert network_build.stage_keys(capped)["reference-features"] == keys["short"]["reference-features"]


def test_the_short_build_without_a_shipped_network_says_to_build_the_full_one(build, tmp_path, monkeypatch):
    run, cache, shared = build
    monkeypatch.setattr(network_stages, "REPOSITORY", tmp_path / "empty")
    with pytest.raises(SystemExit) as stop:
        run("--size", "short")
    assert "NETWORK_SIZE=full" in str(stop.value)


def test_a_changed_training_recipe_trains_again(build, tmp_path, monkeypatch):
    run, cache, shared = build
    run("--size", "short")
    recipes = json.loads(network_stages.RECIPES.read_text())
    recipes["conv-books-short"]["epochs"] += 1
    changed = tmp_path / "configs.json"
    changed.write_text(json.dumps(recipes))
    monkeypatch.setattr(network_stages, "RECIPES", changed)
    assert stages_of(run("--size", "short")) == ["train", "quantize", "report", "card"]


def test_generated_problems_are_trained_on_beside_the_books_when_asked_for(build, capsys):
    run, cache, shared = build
    plain = run("--size", "short")
    keys = network_build.stage_keys(network_build.Settings(cache=cache, shared=shared))
    with_generated = run("--size", "short", "--generated", "500")
    assert stages_of(with_generated) == ["generate", "solve-all", "features", "train", "quantize", "report",
                                         "card"]
    generate = with_generated[0]
    assert generate[generate.index("--count") + 1] == "500" and generate[generate.index("--style") + 1] == "open"
    train = with_generated[3]
    plain_train = next(command for command in plain if command[1] == "train")
    assert str(cache / "generated" / "tfrecords") in train and str(cache / "generated") not in " ".join(plain_train)
    # without them, the keys are those of a build that never had them
    assert network_build.stage_keys(network_build.Settings(cache=cache, shared=shared)) == keys


def test_a_fresh_start_trains_from_nothing_at_the_short_builds_epochs(build):
    run, cache, shared = build
    commands = run("--size", "short", "--start", "fresh", "--until", "report")
    train = next(command for command in commands if command[1] == "train")
    assert "--resume" not in train and train[train.index("--config") + 1] == "conv-books-short-fresh"
    assert not (cache / "warm-start").exists() and stages_of(commands)[-1] == "report"   # not installed
    recipes = json.loads(network_stages.RECIPES.read_text())
    assert recipes["conv-books-short-fresh"]["epochs"] == recipes["conv-books-short"]["epochs"]


def test_epochs_given_train_the_first_training_again_and_leave_the_others_alone(build):
    run, cache, shared = build
    run("--size", "full")
    keys = network_build.stage_keys(network_build.Settings(cache=cache, shared=shared, size="full"))
    commands = run("--size", "full", "--epochs", "3")
    train = next(command for command in commands if command[1] == "train")
    assert train[train.index("--epochs") + 1] == "3"
    longer = next(command for command in commands if "model-longer" in " ".join(command) and command[1] == "train")
    assert "--epochs" not in longer
    given = network_build.stage_keys(network_build.Settings(cache=cache, shared=shared, size="full", epochs=3))
    assert given["train"] != keys["train"] and given["enclose"] == keys["enclose"]


def test_the_short_training_on_the_full_data_links_the_full_builds_data_stages(build, tmp_path, monkeypatch):
    run, cache, shared = build
    run("--size", "full", "--until", "features")
    other = tmp_path / "full-data"
    ran = faked_calls(monkeypatch, other)
    main(["run", "--cache", str(other), "--shared", str(shared), "--size", "short", "--data", "full",
          "--share-from", str(cache), "--until", "report"])
    # every data stage linked, none run; the training the short build's, from the shipped weights
    assert stages_of(ran) == ["train", "quantize", "report"]
    train = ran[0]
    assert train[train.index("--config") + 1] == "conv-books-short" and "--resume" in train
    assert (other / "enclosed").resolve() == (cache / "enclosed").resolve()
    full = network_build.stage_keys(network_build.Settings(cache=cache, shared=shared, size="full"))
    mixed = network_build.stage_keys(network_build.Settings(cache=other, shared=shared, size="short", data="full"))
    short = network_build.stage_keys(network_build.Settings(cache=other, shared=shared, size="short"))
    assert all(mixed[name] == full[name] for name in ("enclose", "solve-all", "features"))
    assert mixed["enclose"] != short["enclose"] and mixed["train"] != short["train"]
