"""The features stage end to end, and the tf.data reader on what it wrote.

Inputs are labelled subproblems made here from the project's own eye-shape
problems: the root position and the positions after one attacker move, each
with both sides to move, labelled by the solver; plus three bad files.
"""
import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from apache_beam.pvalue import TaggedOutput

from cli.main import main
from pipeline.features_pipeline import SplitSettings, run_features
from pipeline.planes import plane_names
from pipeline.formats.subproblem import Subproblem
from pipeline.planes.windows import subproblem_windows
from pipeline.symmetries import transform
from solver import Solver, load_problem

PROBLEMS = Path(__file__).resolve().parents[1] / "sgf-problems" / "eye-shapes"
BAD = {
    "broken.sgf": b"(;FF[4]SZ[9]AB[aa",                                   # truncated SGF
    "unlabelled.sgf": b"(;FF[4]SZ[5]PL[B]AB[aa][ba]AW[ab][bb]MA[ab])",     # no TS
    "empty-target.sgf": b"(;FF[4]SZ[5]PL[B]AB[aa]MA[cc]TS[1]AS[3])",       # MA on an empty point
}
SETTINGS = SplitSettings(by="problem", test_fraction=0.4, seed=1, train_shards=3, test_shards=2)


def labelled_subproblems(folder: Path) -> dict[str, Subproblem]:
    subs = {}
    for path in sorted(PROBLEMS.glob("*.sgf"))[:8]:
        problem = load_problem(path)
        solver = Solver(problem)
        for move in [None] + solver.moves()[:2]:
            if move is not None and not solver.play(*move, problem.attacker):
                continue
            if not solver.target_captured():
                for to_play in (problem.attacker, problem.defender):
                    verdict = solver.solve(to_play, max_nodes=100_000)
                    if verdict.winner is None:
                        continue
                    sub = Subproblem(size=problem.size, stones=solver.board.to_array(), target=problem.target,
                                     to_play=to_play, safe=verdict.status == "safe",
                                     available_moves=solver.area_size,
                                     best_move=verdict.move if isinstance(verdict.move, tuple) else None,
                                     source=f"eye-shapes/{path.stem}")
                    subs[sub.name()] = sub
            if move is not None:
                solver.take_back()
    folder.mkdir()
    for name, sub in subs.items():
        (folder / name).write_text(sub.to_sgf())
    for name, data in BAD.items():
        (folder / name).write_bytes(data)
    return subs


@pytest.fixture(scope="module")
def stage(tmp_path_factory):
    root = tmp_path_factory.mktemp("features")
    subs = labelled_subproblems(root / "subproblems")
    counts = run_features(str(root / "subproblems"), str(root / "out"), SETTINGS)
    return root, subs, counts


def read_records(out: Path) -> dict[str, tuple[str, dict]]:
    """Every record by subproblem name: ``(split, parsed tensors as numpy)``."""
    import tensorflow as tf

    from model.dataset import parse_example

    records = {}
    for split in ("train", "test"):
        files = sorted(str(p) for p in out.glob(f"{split}-*.tfrecord.gz"))
        for serialized in tf.data.TFRecordDataset(files, compression_type="ZLIB"):
            record = {k: v.numpy() for k, v in parse_example(serialized, len(plane_names())).items()}
            records[record["subproblem"].decode()] = (split, record)
    return records


def test_the_windows_step_keys_each_record_by_split_shard_and_bucket(stage):
    import zlib

    import tensorflow as tf

    from model.dataset import parse_example
    from pipeline.features_pipeline import ToRecords, bucket_of, shard_of, split_of

    root, subs, _ = stage
    step = ToRecords(SETTINGS)
    step.setup()
    names = sorted(subs)[:6]
    # one chunk of paths in: a record for each good file, a dead letter for the bad one
    outputs = list(step.process([str(root / "subproblems" / name) for name in names + ["unlabelled.sgf"]]))
    *records, dead = outputs
    assert len(records) == len(names)
    for name, (key, (record_name, piece)) in zip(names, records):
        sub = subs[name]
        split = split_of(sub.source, name, SETTINGS)
        assert key == (split, shard_of(name, SETTINGS.shards(split)), bucket_of(name))
        assert record_name == name
        # the piece: the framed record's Adler-32 and length, then the record framed and deflated
        framed = zlib.decompressobj(-zlib.MAX_WBITS).decompress(piece[8:])
        assert (zlib.adler32(framed), len(framed)) == struct.unpack("<II", piece[:8])
        example = framed[12:-4]
        record = {k: v.numpy() for k, v in parse_example(tf.constant(example), len(plane_names())).items()}
        windows, moves = subproblem_windows(sub)
        assert np.array_equal(record["planes"], windows) and record["move"].tolist() == moves
        assert record["safe"] == int(sub.safe) and record["subproblem"].decode() == name
    assert dead.tag == "dead"
    assert json.loads(dead.value)["file"].endswith("unlabelled.sgf") and "TS" in json.loads(dead.value)["reason"]


def test_the_files_travel_in_chunks_of_their_paths(stage):
    from pipeline.features_pipeline import file_chunks

    root, subs, _ = stage
    chunks = list(file_chunks(str(root / "subproblems"), size=5))
    assert all(len(chunk) == 5 for chunk in chunks[:-1]) and 0 < len(chunks[-1]) <= 5
    paths = [path for chunk in chunks for path in chunk]
    assert paths == sorted(str(root / "subproblems" / name) for name in list(subs) + list(BAD))


def test_counts_add_up_and_bad_files_go_to_the_dead_letters(stage):
    root, subs, counts = stage
    assert counts["read"] == len(subs) + len(BAD)
    assert counts["rejected"] == len(BAD)
    assert counts["written_train"] + counts["written_test"] == len(subs)
    assert counts["written_train"] > 0 and counts["written_test"] > 0
    dead = [json.loads(line) for line in (root / "out" / "dead-letter.jsonl").read_text().splitlines()]
    assert sorted(Path(d["file"]).name for d in dead) == sorted(BAD)
    reasons = {Path(d["file"]).name: d["reason"] for d in dead}
    assert "TS" in reasons["unlabelled.sgf"] and "empty point" in reasons["empty-target.sgf"]
    spec = json.loads((root / "out" / "features.json").read_text())
    assert spec["planes"] == plane_names() and spec["F"] == len(plane_names()) and spec["window"] == 11
    assert spec["counts"] == counts
    assert len(list((root / "out").glob("train-*-of-00003.tfrecord.gz"))) == 3
    assert len(list((root / "out").glob("test-*-of-00002.tfrecord.gz"))) == 2


def test_records_read_back_equal_the_windows_labels_and_moves(stage):
    root, subs, _ = stage
    records = read_records(root / "out")
    assert sorted(records) == sorted(subs)
    for name, (_, record) in records.items():
        sub = subs[name]
        windows, moves = subproblem_windows(sub)
        assert np.array_equal(record["planes"], windows)
        assert record["move"].tolist() == moves
        assert record["windows"] == len(moves) and record["planes_count"] == len(plane_names())
        assert record["safe"] == int(sub.safe) and record["available_moves"] == sub.available_moves
        assert record["defender_first"] == int(sub.defender_first)
        assert record["problem"].decode() == sub.source
    # The labels are real: some positions are safe, some not, some have a move.
    assert {r["safe"] for _, r in records.values()} == {0, 1}
    assert any((r["move"] >= 0).any() for _, r in records.values())


def test_records_of_other_planes_are_refused_by_the_reader(stage, tmp_path):
    import shutil

    import tensorflow as tf

    from model.dataset import make_dataset

    root, _, _ = stage
    data = tmp_path / "records"
    shutil.copytree(root / "out", data)
    spec = json.loads((data / "features.json").read_text())
    spec["planes"], spec["F"] = spec["planes"][:-1], spec["F"] - 1
    (data / "features.json").write_text(json.dumps(spec))
    with pytest.raises(tf.errors.InvalidArgumentError, match="planes_count differs from features.json"):
        list(make_dataset(str(data), "train", batch_size=4, augment=False, shuffle=False).take(1))


def test_the_split_keeps_each_problem_on_one_side(stage):
    root, subs, _ = stage
    split_of_problem = {}
    for split, record in read_records(root / "out").values():
        assert split_of_problem.setdefault(record["problem"].decode(), split) == split
    assert set(split_of_problem.values()) == {"train", "test"}


def test_random_split_mixes_problems_and_multi_processing_writes_the_same_bytes(stage, tmp_path):
    root, subs, _ = stage
    settings = SplitSettings(by="random", test_fraction=0.4, seed=1, train_shards=3, test_shards=2)
    first, second = tmp_path / "a", tmp_path / "b"
    counts = run_features(str(root / "subproblems"), str(first), settings)
    # Another interpreter (another hash seed, fresh imports) through the command line, with
    # Beam options given as solve-all takes them: two worker processes.
    run = subprocess.run([sys.executable, "-m", "cli", "features", "--subproblems", str(root / "subproblems"),
                          "--out", str(second), "--split", "random", "--test-fraction", "0.4", "--seed", "1",
                          "--train-shards", "3", "--test-shards", "2",
                          "--direct_num_workers", "2", "--direct_running_mode", "multi_processing"],
                         capture_output=True, cwd=Path(__file__).resolve().parents[1])
    assert run.returncode == 1, run.stderr.decode()   # the stage's bad files rejected, the rest written
    assert json.loads((second / "features.json").read_text())["counts"] == counts
    # the progress bar sums what both worker processes tallied: every file read
    assert f"{counts['read']}/{counts['read']} " in run.stderr.decode()
    files = sorted(p.name for p in first.iterdir())
    assert files == sorted(p.name for p in second.iterdir())
    for name in files:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    splits = {}
    for split, record in read_records(first).values():
        splits.setdefault(record["problem"].decode(), set()).add(split)
    assert any(len(s) == 2 for s in splits.values())


def test_the_evaluation_reader_gives_the_first_window_and_its_labels(stage):
    from model.dataset import make_dataset

    root, subs, _ = stage
    seen = 0
    for split in ("train", "test"):
        dataset = make_dataset(str(root / "out"), split, batch_size=4, augment=False, shuffle=False, meta=True)
        for x, targets, meta in dataset.as_numpy_iterator():
            for i, name in enumerate(meta["subproblem"]):
                sub = subs[name.decode()]
                windows, moves = subproblem_windows(sub)
                assert np.array_equal(x[i], windows[0].astype(np.float32))
                assert targets["safe"][i, 0] == float(sub.safe)
                assert meta["has_move"][i] == (moves[0] >= 0)
                assert targets["move"][i] == max(moves[0], 0)
                assert meta["available_moves"][i] == sub.available_moves
                seen += 1
    assert seen == len(subs)


def test_the_training_reader_applies_one_symmetry_to_planes_and_move(stage):
    from model.dataset import make_dataset
    from test_planes import window_move

    root, subs, _ = stage
    dataset = make_dataset(str(root / "out"), "train", batch_size=8, augment=True, shuffle=False, seed=5,
                           meta=True)
    transformed = 0
    for x, targets, meta in dataset.as_numpy_iterator():
        for i, name in enumerate(meta["subproblem"]):
            windows, moves = subproblem_windows(subs[name.decode()])
            move = int(targets["move"][i]) if meta["has_move"][i] else -1
            images = [(transform(window, s), window_move(wm, s)) for window, wm in zip(windows, moves)
                      for s in range(8)]
            assert any(np.array_equal(x[i], w) and move == m for w, m in images), name
            transformed += not np.array_equal(x[i], windows[0])
    assert transformed > 0
    again = make_dataset(str(root / "out"), "train", batch_size=8, augment=True, shuffle=False, seed=5)
    first = next(iter(dataset))[0].numpy()
    assert np.array_equal(next(iter(again))[0].numpy(), first)


def test_the_reader_symmetry_matches_the_board_symmetry(stage):
    """Augmenting a window equals cutting the window from the transformed board."""
    import tensorflow as tf

    from model.dataset import apply_symmetries
    from test_planes import transformed

    _, subs, _ = stage
    sub = next(s for s in subs.values() if s.best_move is not None)
    windows, moves = subproblem_windows(sub)
    flat = tf.constant(windows.reshape(len(windows), 121, -1))
    for symmetry in range(8):
        other_windows, other_moves = subproblem_windows(transformed(sub, symmetry))
        turned, turned_moves = apply_symmetries(flat, tf.constant(moves, tf.int64),
                                                tf.fill([len(windows)], symmetry))
        for w, m in zip(turned.numpy().reshape(windows.shape), turned_moves.numpy()):
            assert any(np.array_equal(w, o) and int(m) == om
                       for o, om in zip(other_windows, other_moves)), symmetry


def test_show_prints_every_plane_and_a_bad_file_is_one_error_line(stage, capsys):
    root, subs, _ = stage
    name = sorted(subs)[0]
    assert main(["features", "--show", str(root / "subproblems" / name)]) == 0
    out = capsys.readouterr().out
    for k, plane in enumerate(plane_names()):
        assert f"{k}:{plane}" in out
    assert main(["features", "--show", str(root / "subproblems" / "broken.sgf")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "broken.sgf" in err[0]


def test_the_command_reports_counts_and_rejects_a_missing_folder(stage, tmp_path, capsys):
    root, subs, _ = stage
    assert main(["features", "--subproblems", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")]) == 1
    assert "nowhere" in capsys.readouterr().err
    assert main(["features", "--subproblems", str(root / "subproblems"), "--out", str(tmp_path / "o"),
                 "--", "--runner", "DirectRunner"]) == 1   # the rest written, the bad ones named
    captured = capsys.readouterr()
    assert f"read {len(subs) + len(BAD)}" in captured.out and f"rejected {len(BAD)}" in captured.out
    assert sum("error:" in line for line in captured.err.splitlines()) == len(BAD)


def test_shards_that_hold_fewer_records_than_were_made_fail_the_run(stage, tmp_path, capsys, monkeypatch):
    import pipeline.features_pipeline as features_pipeline

    root, subs, _ = stage
    write_part_file = features_pipeline.write_part_file

    def write_part_file_losing_one(path, records):
        """Drops one record of each part on its way to the part file, as a faulty writer would."""
        return write_part_file(path, list(records)[1:])

    monkeypatch.setattr(features_pipeline, "write_part_file", write_part_file_losing_one)
    out = tmp_path / "out"
    assert main(["features", "--subproblems", str(root / "subproblems"), "--out", str(out)]) == 1
    assert (f"{len(subs) + len(BAD)} subproblem files were read but the shards hold"
            in capsys.readouterr().err)
    assert not (out / "features.json").exists()
    assert not list(out.glob("*.part-*"))


def test_a_part_file_must_hold_the_records_its_writer_counted(tmp_path):
    from pipeline.features_pipeline import read_part_file, write_part_file

    records = [(3, "b.sgf", b"piece of b"), (3, "c.sgf", b""), (60, "a.sgf", b"piece of a" * 100)]
    path = str(tmp_path / "part")
    assert write_part_file(path, iter(records)) == 3
    assert [(bucket, name, bytes(piece)) for bucket, name, piece in read_part_file(path, 3)] == records
    for count in (2, 4):
        with pytest.raises(RuntimeError, match="does not hold the .* records its writer counted"):
            read_part_file(path, count)
    (tmp_path / "part").write_bytes((tmp_path / "part").read_bytes()[:-1])
    with pytest.raises(RuntimeError, match="does not hold the 3 records"):
        read_part_file(path, 3)


def test_without_a_cap_a_chunk_writes_its_records_and_sends_only_their_parts(stage, tmp_path):
    from pipeline.features_pipeline import ToRecords, chunk_part, part_path, read_part_file

    root, subs, _ = stage
    paths = [str(root / "subproblems" / name) for name in sorted(subs)[:20] + ["broken.sgf"]]
    grouped = ToRecords(SETTINGS)
    grouped.setup()
    keyed = [output for output in grouped.process(paths) if not isinstance(output, TaggedOutput)]
    direct = ToRecords(SETTINGS, parts_in=str(tmp_path))
    direct.setup()
    outputs = list(direct.process(paths))
    assert [output.tag for output in outputs if isinstance(output, TaggedOutput)] == ["dead"]
    parts = [output for output in outputs if not isinstance(output, TaggedOutput)]
    assert len(parts) > 1 and len({key for key, _ in parts}) == len(parts)   # a part a shard of the chunk
    assert all(part == chunk_part(paths) for _, (part, _) in parts)
    assert sum(count for _, (_, count) in parts) == len(keyed) == 20
    for (split, shard), (part, count) in parts:
        written = [(bucket, name, bytes(piece)) for bucket, name, piece in
                   read_part_file(part_path(str(tmp_path), split, shard, SETTINGS.shards(split), part), count)]
        assert written == sorted((key[2], name, piece) for key, (name, piece) in keyed if key[:2] == (split, shard))


def _same_files(first: Path, second: Path) -> None:
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in second.iterdir())
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


# A features run in chunks of 5 files (many parts a shard), in another interpreter: the
# workers unpickle the chunking with its size.
CHUNKS_OF_FIVE = """
import functools, sys
import pipeline.features_pipeline as features_pipeline
from cli.main import main
features_pipeline.file_chunks = functools.partial(features_pipeline.file_chunks, size=5)
sys.exit(main(sys.argv[1:]))
"""


def test_records_joined_from_many_parts_are_the_grouped_records_byte_for_byte(stage, tmp_path, monkeypatch):
    """Without a cap each chunk writes its records to parts; the shards are the same bytes as
    when every record goes through the groupings, with one chunk or many, one process or two."""
    import functools

    import pipeline.features_pipeline as features_pipeline

    root, subs, _ = stage
    chunked = functools.partial(features_pipeline.file_chunks, size=5)
    monkeypatch.setattr(features_pipeline, "file_chunks", chunked)
    parts = []
    write_part_file = features_pipeline.write_part_file

    def counting(path, records):
        parts.append(path)
        return write_part_file(path, records)

    monkeypatch.setattr(features_pipeline, "write_part_file", counting)
    run_features(str(root / "subproblems"), str(tmp_path / "chunked"), SETTINGS)
    shards = [path.split(features_pipeline.PART_MARK)[0] for path in parts]
    assert max(shards.count(shard) for shard in shards) > 3   # a shard joined from several chunks' parts
    monkeypatch.setattr(features_pipeline, "records_grouped", lambda settings: True)
    run_features(str(root / "subproblems"), str(tmp_path / "grouped"), SETTINGS)
    monkeypatch.undo()
    run = subprocess.run([sys.executable, "-c", CHUNKS_OF_FIVE, "features", "--subproblems", str(root / "subproblems"),
                          "--out", str(tmp_path / "two"), "--test-fraction", "0.4", "--seed", "1",
                          "--train-shards", "3", "--test-shards", "2", "--no-progress",
                          "--direct_num_workers", "2", "--direct_running_mode", "multi_processing"],
                         capture_output=True, cwd=Path(__file__).resolve().parents[1])
    assert run.returncode == 1, run.stderr.decode()   # the stage's bad files rejected, the rest written
    for other in ("chunked", "grouped", "two"):
        _same_files(root / "out", tmp_path / other)


def test_the_shards_hold_the_records_their_writers_counted(stage):
    from model.shards import count_records
    from pipeline.features_pipeline import SHARD_COUNTS_FILE

    root, _, counts = stage
    for split in ("train", "test"):   # (TensorFlow reads each shard to its end)
        assert counts[f"written_{split}"] == sum(
            count_records(str(shard)) for shard in (root / "out").glob(f"{split}-*.tfrecord.gz"))
    assert not (root / "out" / SHARD_COUNTS_FILE).exists()   # (the run's own accounting, removed)


def test_a_shard_cut_short_or_not_reported_fails_the_count(stage, tmp_path):
    from model.shards import count_records
    from pipeline.features_pipeline import SHARD_COUNTS_FILE, LostRecords, shard_counts

    root, _, counts = stage
    out = tmp_path / "out"
    shutil.copytree(root / "out", out)
    reports = [{"shard": shard.name, "records": count_records(str(shard)), "bytes": shard.stat().st_size}
               for shard in sorted(out.glob("*.tfrecord.gz"))]
    (out / SHARD_COUNTS_FILE).write_text("".join(json.dumps(r) + "\n" for r in reports))
    assert shard_counts(str(out), SETTINGS) == {k: v for k, v in counts.items() if k.startswith("written_")}
    shard = out / reports[0]["shard"]
    shard.write_bytes(shard.read_bytes()[:-1])
    with pytest.raises(LostRecords, match=f"^{shard}: {reports[0]['bytes'] - 1} bytes on disk, "
                                          f"where its writer wrote {reports[0]['bytes']}$"):
        shard_counts(str(out), SETTINGS)
    (out / SHARD_COUNTS_FILE).write_text("".join(json.dumps(r) + "\n" for r in reports[1:]))
    with pytest.raises(LostRecords, match=f"^{shard}: its writer did not report it$"):
        shard_counts(str(out), SETTINGS)
    (out / SHARD_COUNTS_FILE).unlink()
    with pytest.raises(LostRecords, match="missing: the shards' writers did not all report"):
        shard_counts(str(out), SETTINGS)


def test_a_run_where_every_file_is_rejected_fails(tmp_path, capsys):
    folder = tmp_path / "subproblems"
    folder.mkdir()
    for name, data in BAD.items():
        (folder / name).write_bytes(data)
    assert main(["features", "--subproblems", str(folder), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert f"error: {folder}: every file was rejected" in err
    assert sum(line.startswith("error:") for line in err.splitlines()) == len(BAD) + 1


def test_a_cap_per_problem_keeps_a_fixed_sample_and_accounts_for_the_rest(stage, tmp_path):
    """--max-per-problem: at most N records a problem, the same sample on every run (a hash of
    the names), the others listed in left-out.jsonl; read = written + rejected + left out."""
    from dataclasses import replace

    from pipeline.features_pipeline import LEFT_OUT_FILE, sample_rank

    root, subs, _ = stage
    cap = 3
    capped = replace(SETTINGS, max_per_problem=cap)
    counts = run_features(str(root / "subproblems"), str(tmp_path / "capped"), capped)
    by_problem = {}
    for name, sub in subs.items():
        by_problem.setdefault(sub.source, []).append(name)
    expected = {name for names in by_problem.values()
                for name in sorted(names, key=lambda n: sample_rank(n, capped.seed))[:cap]}
    assert any(len(names) > cap for names in by_problem.values())
    records = read_records(tmp_path / "capped")
    assert set(records) == expected
    left_out = [json.loads(line) for line in (tmp_path / "capped" / LEFT_OUT_FILE).read_text().splitlines()]
    assert sorted(Path(entry["file"]).name for entry in left_out) == sorted(set(subs) - expected)
    assert counts["left_out"] == len(left_out) > 0
    assert counts["read"] == counts["written_train"] + counts["written_test"] + counts["rejected"] + counts["left_out"]
    assert json.loads((tmp_path / "capped" / "features.json").read_text())["max_per_problem"] == cap
    again = run_features(str(root / "subproblems"), str(tmp_path / "again"), capped)
    assert again == counts
    for shard in sorted((tmp_path / "capped").glob("*.tfrecord.gz")):
        assert (tmp_path / "again" / shard.name).read_bytes() == shard.read_bytes()


def test_excluded_problems_are_left_out_and_accounted_for(stage, tmp_path, capsys):
    """--exclude-problems: no record of a listed problem is written, each of its files is in
    left-out.jsonl with the reason, the counts still add up and features.json lists the ids."""
    from pipeline.features_pipeline import LEFT_OUT_FILE

    root, subs, full = stage
    problems = sorted({sub.source for sub in subs.values()})
    listed = problems[:2]
    listing = tmp_path / "held-out-copies.txt"
    listing.write_text(f"# copies of held-out problems\n{listed[0]}\n\n{listed[1]}  # the second\n")
    out = tmp_path / "excluded"
    assert main(["features", "--subproblems", str(root / "subproblems"), "--out", str(out),
                 "--test-fraction", "0.4", "--seed", "1", "--train-shards", "3", "--test-shards", "2",
                 "--exclude-problems", str(listing), "--no-progress"]) == 1   # the stage's bad files
    dropped = {name for name, sub in subs.items() if sub.source in listed}
    assert dropped and set(read_records(out)) == set(subs) - dropped
    left_out = [json.loads(line) for line in (out / LEFT_OUT_FILE).read_text().splitlines()]
    assert {Path(entry["file"]).name for entry in left_out} == dropped
    assert {entry["problem"] for entry in left_out} == set(listed)
    assert all("excluded" in entry["reason"] for entry in left_out)
    spec = json.loads((out / "features.json").read_text())
    counts = spec["counts"]
    assert counts["left_out"] == len(dropped)
    assert counts["read"] == full["read"] == (counts["written_train"] + counts["written_test"]
                                              + counts["rejected"] + counts["left_out"])
    assert counts["rejected"] == full["rejected"]
    assert spec["excluded_problems"] == listed
    assert f"left out {len(dropped)} (listed in {listing})" in capsys.readouterr().out


def test_an_unreadable_exclusion_list_is_one_error_line(stage, tmp_path, capsys):
    root, _, _ = stage
    missing = tmp_path / "no-such-list.txt"
    code = main(["features", "--subproblems", str(root / "subproblems"), "--out", str(tmp_path / "out"),
                 "--exclude-problems", str(missing), "--no-progress"])
    err = capsys.readouterr().err
    assert code != 0 and str(missing) in err and "cannot read the problem list" in err


def test_a_features_folder_names_its_test_split_as_the_held_out_problems(stage):
    """same-positions --held-out DIR: the problems of the folder's test split."""
    from pipeline.same_position import held_out_problems

    root, _, _ = stage
    tested = {record["problem"].decode() for split, record in read_records(root / "out").values()
              if split == "test"}
    assert tested and held_out_problems(str(root / "out")) == tested


def test_a_worker_sets_its_imported_objects_aside_once():
    """The collector's full passes skip what was alive at the worker's setup; a second
    setup in the same process (another DoFn instance) freezes nothing more, so what the
    work made in between stays collectable."""
    script = (
        "import gc\n"
        "from pipeline.features_pipeline import SplitSettings, ToRecords\n"
        "assert gc.get_freeze_count() == 0\n"
        "ToRecords(SplitSettings()).setup()\n"
        "frozen = gc.get_freeze_count()\n"
        "assert frozen > 10000, frozen\n"
        "made_since = [[i] for i in range(1000)]\n"
        "ToRecords(SplitSettings()).setup()\n"
        "assert gc.get_freeze_count() == frozen\n"
        "print(frozen)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) > 10000
