"""make test's runner: the files dealt to groups of about equal seconds, each file once."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run_groups  # noqa: E402


def test_every_file_is_dealt_once_and_the_groups_end_together():
    seconds = {"tests/test_a.py": 100.0, "tests/test_b.py": 60.0, "tests/test_c.py": 50.0,
               "tests/test_d.py": 10.0, "tests/test_e.py": 0.0}
    files = [*seconds, "tests/test_new.py"]   # not measured yet: the median, 50 s
    groups = run_groups.deal(files, seconds, 2)
    assert sorted(name for group in groups for name in group) == sorted(files)
    assert all(group == sorted(group) for group in groups)
    # longest first, each to the lighter group: a 100 | b 60, c 50 | new 50 | d 10, e 0
    assert groups == [["tests/test_a.py", "tests/test_new.py"],
                      ["tests/test_b.py", "tests/test_c.py", "tests/test_d.py", "tests/test_e.py"]]
    assert run_groups.deal(files, seconds, 1) == [sorted(files)]
    # more groups than files: no empty group is run
    assert len(run_groups.deal(["tests/test_a.py"], seconds, 2)) == 1


def test_seconds_are_summed_per_file_from_the_durations_report():
    report = "\n".join([
        "============================= slowest durations ==============================",
        "12.50s call     tests/test_a.py::test_one",
        "2.00s setup    tests/test_a.py::test_one",
        "0.30s teardown tests/test_b.py::test_two[dfs]",
        "1 passed in 15.00s",
    ])
    assert run_groups.seconds_from_reports([report, "0.20s call     tests/test_b.py::test_three"]) == {
        "tests/test_a.py": 14.5, "tests/test_b.py": 0.5}


def test_test_paths_are_told_from_pytest_options():
    paths, rest = run_groups.split_paths(["-x", "-k", "enclose", "tests/test_cli.py::test_x", "tests"])
    assert rest == ["-x", "-k", "enclose"]
    assert paths == ["tests/test_cli.py::test_x", *run_groups.test_files()]


def test_the_measured_seconds_name_every_test_file():
    listed, present = set(run_groups.known_seconds()), set(run_groups.test_files())
    assert listed == present, (
        f"tests/file_seconds.json lacks {sorted(present - listed)} and lists {sorted(listed - present)}: "
        "run `.venv/bin/python tests/run_groups.py --measure` (or add the file by hand)")
