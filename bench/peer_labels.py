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
import random
import sys
import time
from pathlib import Path

from bench.peer import tsumego_js
from pipeline.formats.subproblem import load_subproblem
from pipeline.validate import subproblem_files


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="solve-all output folder, or a folder of subproblems")
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--file-timeout", type=float, default=60.0,
                        help="seconds tsumego.js may spend on one file")
    args = parser.parse_args(argv)

    files = subproblem_files(Path(args.dir))
    chosen = sorted(random.Random(args.seed).sample(files, min(args.sample, len(files))))
    started = time.perf_counter()
    rows = tsumego_js.solve_files(chosen, ko_master="attacker", file_timeout=args.file_timeout)
    seconds = time.perf_counter() - started
    agreed, disagreed, failed = 0, 0, 0
    for path, row in zip(chosen, rows):
        label = "safe" if load_subproblem(path).safe else "unsafe"
        if "status" not in row:
            failed += 1
            print(f"error: {path}: tsumego.js: {row.get('error')}", file=sys.stderr)
        elif row["status"] == label:
            agreed += 1
        else:
            disagreed += 1
            print(f"disagree: {path}: TS says {label}, tsumego.js {row['status']}")
    print(f"peer labels: sampled {len(chosen)} of {len(files)} (seed {args.seed}) = agreed {agreed} "
          f"+ disagreed {disagreed} + timed out or failed {failed}; tsumego.js took {seconds:.1f} s")
    return 1 if disagreed else 0


if __name__ == "__main__":
    sys.exit(main())
