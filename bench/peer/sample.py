"""A random sample of files re-solved by tsumego.js and compared, for the peer checks.

``bench.peer_labels`` (subproblem labels) and ``bench.enclose_peer``
(enclosed problems) differ only in what they compare; the sampling, the
solving and the tally (sampled = agreed + disagreed + timed out or failed)
are here.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable

from bench.peer import tsumego_js


def add_sample_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--file-timeout", type=float, default=60.0,
                        help="seconds tsumego.js may spend on one file")


def compare_sample(name: str, files: list[Path], args, disagreement: Callable[[Path, dict], str | None]) -> int:
    """Solve ``args.sample`` of ``files`` (drawn with ``args.seed``) with ``PL`` moving first and the
    attacker as ko master; ``disagreement(path, row)`` says what differs, None when they agree.
    Prints a line per disagreement and the tally; the exit code is 1 when anything disagrees."""
    chosen = sorted(random.Random(args.seed).sample(files, min(args.sample, len(files))))
    started = time.perf_counter()
    rows = tsumego_js.solve_files(chosen, ko_master="attacker", file_timeout=args.file_timeout)
    seconds = time.perf_counter() - started
    agreed, disagreed, failed = 0, 0, 0
    for path, row in zip(chosen, rows):
        if "status" not in row:
            failed += 1
            print(f"error: {path}: tsumego.js: {row.get('error')}", file=sys.stderr)
            continue
        why = disagreement(path, row)
        if why is None:
            agreed += 1
        else:
            disagreed += 1
            print(f"disagree: {path}: {why}")
    print(f"{name}: sampled {len(chosen)} of {len(files)} (seed {args.seed}) = agreed {agreed} "
          f"+ disagreed {disagreed} + timed out or failed {failed}; tsumego.js took {seconds:.1f} s")
    return 1 if disagreed else 0
