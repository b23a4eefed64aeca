"""``make test``: the test files in as many pytest processes as there are cores (two at most).

Most of the suite's time is TensorFlow training toy networks and the solver searching,
each mostly on one core; one after the other on the project's 2-core machine the files
took 648 s, in two processes at once 367 s (RESULTS.md, "make test in two processes").

Files, never single tests, are dealt to the groups, so a module's fixtures are built once
and a file's tests keep their order.  They are dealt longest first, each to the group with
the fewest seconds so far, by the seconds each file took in a measured run
(``tests/file_seconds.json``; a file not listed there counts as the median), so that the
groups end at about the same time.  ``--measure`` adds pytest's ``--durations=0`` and,
when every group passes, writes the seconds of the files it ran into that file.

The first group's report is shown as it runs; the others' are kept in files and shown
after it, each whole.  The exit status is the first group's that is not 0 (pytest's 5, no
test collected, only when no group collected one).  Arguments
this script does not know (``-x``, ``-k EXPR``, test files) go to every pytest process;
``--groups 1`` runs them all in one pytest process.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SECONDS_FILE = TESTS / "file_seconds.json"
NO_TESTS_COLLECTED = 5
DURATION_LINE = re.compile(r"^([0-9.]+)s (?:setup|call|teardown)\s+(tests/test_[^:]+\.py)::")


def test_files() -> list[str]:
    return sorted(f"tests/{path.name}" for path in TESTS.glob("test_*.py"))


def split_paths(args: list[str]) -> tuple[list[str], list[str]]:
    """The test paths among pytest's arguments (a folder as its test files), and the rest."""
    paths, rest = [], []
    for arg in args:
        path = TESTS.parent / arg.split("::")[0]
        if arg.startswith("-") or not path.exists():
            rest.append(arg)
        elif path.is_dir():
            paths += sorted(str(found.relative_to(TESTS.parent)) for found in path.rglob("test_*.py"))
        else:
            paths.append(arg)
    return paths, rest


def known_seconds() -> dict[str, float]:
    try:
        return json.loads(SECONDS_FILE.read_text())
    except (OSError, ValueError):
        return {}


def deal(files: list[str], seconds: dict[str, float], groups: int) -> list[list[str]]:
    """The files in ``groups`` groups of about equal seconds, each group in name order."""
    listed = [seconds[name] for name in files if name in seconds]
    unknown = statistics.median(listed) if listed else 1.0
    cost = {name: seconds.get(name, unknown) for name in files}
    dealt: list[list[str]] = [[] for _ in range(groups)]
    load = [0.0] * groups
    for name in sorted(files, key=lambda name: (-cost[name], name)):
        least = load.index(min(load))
        dealt[least].append(name)
        load[least] += cost[name]
    return [sorted(group) for group in dealt if group]


def seconds_from_reports(reports: list[str]) -> dict[str, float]:
    """Seconds per test file, summed over the ``--durations=0`` lines of pytest reports."""
    seconds: dict[str, float] = {}
    for report in reports:
        for line in report.splitlines():
            found = DURATION_LINE.match(line)
            if found:
                seconds[found[2]] = seconds.get(found[2], 0.0) + float(found[1])
    return {name: round(value, 1) for name, value in sorted(seconds.items())}


def run_groups(groups: list[list[str]], pytest_args: list[str]) -> tuple[int, list[str]]:
    """Each group in its own pytest process, all at once; the first status that is not 0 and
    every group's report (the first group's also shown as it runs)."""
    kept = [tempfile.TemporaryFile(mode="w+") for _ in groups[1:]]
    processes = [subprocess.Popen([sys.executable, "-m", "pytest", "-q", *pytest_args, *group],
                                  cwd=TESTS.parent, stdout=output, stderr=subprocess.STDOUT, text=True)
                 for group, output in zip(groups, [subprocess.PIPE, *kept])]
    shown: list[str] = []
    try:
        for line in processes[0].stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            shown.append(line)
    except KeyboardInterrupt:
        # Ctrl-C reached the pytest processes too: let them print their summaries.
        shown.append(processes[0].stdout.read())
        sys.stdout.write(shown[-1])
    statuses = [process.wait() for process in processes]
    reports = ["".join(shown)]
    for number, output in enumerate(kept, start=2):
        output.seek(0)
        report = output.read()
        output.close()
        print(f"\n---- group {number} of {len(groups)} ----", flush=True)
        sys.stdout.write(report)
        reports.append(report)
    # pytest's 5, no test collected, is a failure only if no group collected any (``-k``).
    failed = [status for status in statuses if status not in (0, NO_TESTS_COLLECTED)]
    if not failed and all(status == NO_TESTS_COLLECTED for status in statuses):
        failed = [NO_TESTS_COLLECTED]
    return (failed[0] if failed else 0), reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=min(2, os.cpu_count() or 1),
                        help="pytest processes at once (default: the cores, two at most)")
    parser.add_argument("--measure", action="store_true",
                        help=f"write each file's seconds to {SECONDS_FILE.relative_to(TESTS.parent)}")
    options, pytest_args = parser.parse_known_args(argv)
    if options.groups < 1:
        parser.error("--groups must be 1 or more")
    chosen, others = split_paths(pytest_args)
    if options.measure and ("-k" in others or any("::" in name for name in chosen)):
        parser.error("--measure times whole test files: no -k, no FILE::TEST")
    files = chosen or test_files()
    if options.measure:
        others.append("--durations=0")
    groups = deal(files, known_seconds(), options.groups)
    started = time.monotonic()
    status, reports = run_groups(groups, others)
    print(f"\nmake test: {len(files)} test files in {len(groups)} pytest process(es) at once, "
          f"{time.monotonic() - started:.0f} s, exit status {status}", flush=True)
    if options.measure and status == 0:
        seconds = known_seconds()
        seconds.update({name: 0.0 for name in files})   # a file whose every test took under 5 ms
        seconds.update(seconds_from_reports(reports))
        present = set(test_files())
        SECONDS_FILE.write_text(json.dumps({name: value for name, value in sorted(seconds.items())
                                            if name in present}, indent=1) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
