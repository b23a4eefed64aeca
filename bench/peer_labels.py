"""Labels against the reference solver: re-solve a random sample of subproblems with tsumego.js.

    python -m bench.peer_labels DIR [--sample 300] [--seed 0] [--file-timeout 60]

DIR is a ``solve-all`` output folder (or its ``subproblems/``).  The sample is
drawn as ``tsumego validate`` draws it (same seed, same files); each file is
solved by tsumego.js 1.1.0 with ``PL`` moving first and the attacker as ko
master, and its status compared with ``TS``.  Prints one line per
disagreement and a summary: sampled = agreed + disagreed + timed out or failed.
The exit code is 1 when anything disagrees.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.peer.sample import add_sample_arguments, compare_sample
from pipeline.formats.subproblem import load_subproblem
from pipeline.validate import subproblem_files


def label_disagreement(path: Path, row: dict) -> str | None:
    label = "safe" if load_subproblem(path).safe else "unsafe"
    return None if row["status"] == label else f"TS says {label}, tsumego.js {row['status']}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="solve-all output folder, or a folder of subproblems")
    add_sample_arguments(parser)
    args = parser.parse_args(argv)
    return compare_sample("peer labels", subproblem_files(Path(args.dir)), args, label_disagreement)


if __name__ == "__main__":
    sys.exit(main())
