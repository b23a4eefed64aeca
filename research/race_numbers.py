"""df-pn with and without a race lead in a fresh child's first numbers: readings settled and nodes.

    python -m research.race_numbers readings [--sample 50] [--seed 0] [--not-in SEED...] [--areas 14-24]
                                             [--max-nodes 800000] --variant off|on [--cost 256]
    python -m research.race_numbers reference [--problems ../shared/sgf-problems] --variant off|on

``readings``: a seeded draw of the readings enclose left unsettled
(``bench/draws/unsettled-readings.jsonl``), framed again as that run framed them
(:func:`pipeline.enclose.reframe.framed_reading`), each solved by df-pn with its side to play
first at a fixed node budget.  ``reference``: the reference problems with PL, PL first.  One
JSON line a solve (winner, nodes, CPU seconds by ``time.process_time``) on stdout, so that
variants run in separate processes compare afterwards; the node counts do not depend on
the load, the CPU seconds little.
"""
from __future__ import annotations

import bench.single_thread_blas   # noqa: F401  (before numpy loads its BLAS)

import argparse   # noqa: E402
import json   # noqa: E402
import random   # noqa: E402
import sys   # noqa: E402
import time   # noqa: E402

from bench.common import load_problems, short_name   # noqa: E402
from bench.reach_bench import DEFAULT_READINGS, REPOSITORY, read_readings   # noqa: E402
from pipeline.enclose.reframe import framed_reading   # noqa: E402
from solver import Solver   # noqa: E402
from solver.dfpn import RACE_LEAD_COST   # noqa: E402

VARIANTS = ("off", "on")


def drawn_readings(sample: int, seed: int, low: int, high: int,
                   not_in: tuple[int, ...] = ()) -> list[tuple[str, object]]:
    """The seeded sample, less the readings the samples of the ``not_in`` seeds drew (a fresh draw)."""
    readings = [r for r in read_readings([str(DEFAULT_READINGS)]) if low <= r["area"] <= high]
    for earlier in not_in:
        taken = random.Random(earlier).sample(readings, min(sample, len(readings)))
        readings = [r for r in readings if r not in taken]
    readings = random.Random(seed).sample(readings, min(sample, len(readings)))
    framed = []
    for row in readings:
        found = framed_reading(REPOSITORY / row["file"], row)
        if not isinstance(found, str):
            framed.append((f"{row['file'].split('/')[-2][-12:]}/{row['file'].split('/')[-1]}:{row['target']}"
                           f" ({row['area']})", found[0]))
    return framed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=("readings", "reference"))
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--not-in", type=int, nargs="*", default=[], metavar="SEED",
                        help="leave out the readings the draws of these seeds took (a fresh draw)")
    parser.add_argument("--areas", default="14-24")
    parser.add_argument("--max-nodes", type=int, default=800_000)
    parser.add_argument("--variant", choices=VARIANTS, required=True)
    parser.add_argument("--cost", type=int, default=RACE_LEAD_COST, help="the race lead's cost per liberty")
    args = parser.parse_args(argv)
    if args.set == "readings":
        low, _, high = args.areas.partition("-")
        cases = drawn_readings(args.sample, args.seed, int(low), int(high), tuple(args.not_in))
    else:
        cases = [(short_name(p), p) for p in load_problems(args.problems)]
    options = {"race_lead_cost": args.cost} if args.variant == "on" else {}
    Solver(cases[0][1], **options).solve(cases[0][1].to_play, algo="dfpn", max_nodes=1000)   # load the kernels
    for name, problem in cases:
        solver = Solver(problem, **options)
        started = time.process_time()
        verdict = solver.solve(problem.to_play, algo="dfpn", max_nodes=args.max_nodes)
        cpu = time.process_time() - started
        print(json.dumps({"case": name, "variant": args.variant, "cost": options.get("race_lead_cost", 0),
                          "winner": verdict.winner, "nodes": verdict.nodes, "cpu": round(cpu, 3)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
