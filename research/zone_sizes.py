"""How much of the universe the zones df-pn keeps cover, on unsettled book readings.

    python -m research.zone_sizes [--areas 17-23] [--sample 4] [--seed 84] [--seconds 5]
                                  [--ways sim,plain] [--cost NODES]

Each reading (``bench/combination_reach``'s draw) is solved once each way, with the zone
table and pruning on, for at most ``--seconds`` of CPU: ``sim``, df-pn with Kawano's
simulation (as ``enclose --seconds`` runs it); ``plain``, without.  Then the table's exact
entries are read: for those the mover won and those it lost, the share whose zone is the
whole universe U (a zone that claims nothing) and the mean share of U a zone covers.  A
zone near U prunes nothing and repeats nowhere, so these bound what the zones can buy.

``--cost NODES``: instead, what a node costs: df-pn with the simulation solved to NODES
nodes plain, with zones computed, with pruning, the table, both; nodes a CPU second each.
"""
from __future__ import annotations

import argparse
import random
import time

import numpy as np

from bench.combination_reach import warm_up
from bench.reach_bench import DEFAULT_READINGS, REPOSITORY, read_readings
from pipeline.enclose.reframe import framed_reading
from research.compiled_zones import zone_points
from solver import Solver
from solver.dfpn import SIMULATION_NODES
from solver.dfpn_layout import V_DELTA, V_PHI, V_REPD, VALUE_FIELDS
from solver.rules import INF_DEPTH

WAYS = {"sim": {"simulation_nodes": SIMULATION_NODES}, "plain": {}}
COST_WAYS = {"plain": {}, "zones": {"relevance_zones": True}, "pruning": {"zone_pruning": True},
             "table": {"zone_table": True}, "both": {"zone_table": True, "zone_pruning": True}}


def zone_shares(solver: Solver) -> dict[str, tuple[int, float, float]]:
    """For the exact entries the mover won and lost: (how many, share with U, mean share of U)."""
    table = solver.tables["dfpn"]
    v = table.values
    exact = (table.keys != 0) & (v[:, V_REPD] == INF_DEPTH)
    words = v[:, VALUE_FIELDS:].view(np.uint64) & solver.zone_state.full
    share = zone_points(words) / solver.zone_state.universe.size
    out = {}
    for name, solved in (("won", v[:, V_PHI] == 0), ("lost", v[:, V_DELTA] == 0)):
        m = exact & solved
        out[name] = (int(m.sum()), float(np.mean(share[m] >= 1.0)) if m.any() else 0.0,
                     float(np.mean(share[m])) if m.any() else 0.0)
    return out


def framed(readings: list[dict]):
    """(short name, position, area) of each reading framed again; one line for each that cannot be."""
    for row in readings:
        found = framed_reading(REPOSITORY / row["file"], row)
        if isinstance(found, str):
            print(f"{row['file']}: left out: {found}")
            continue
        yield "/".join(row["file"].split("/")[-2:]), *found


def costs(readings: list[dict], max_nodes: int) -> None:
    """Nodes a CPU second of each of ``COST_WAYS``, df-pn with the simulation, on each reading."""
    print("| reading | points | " + " | ".join(COST_WAYS) + " |")
    print("|---|---:|" + "---:|" * len(COST_WAYS))
    for name, problem, area in framed(readings):
        cells = []
        for options in COST_WAYS.values():
            solver = Solver(problem, simulation_nodes=SIMULATION_NODES, **options)
            started = time.thread_time()
            verdict = solver.solve(problem.to_play, algo="dfpn", max_nodes=max_nodes)
            cells.append(f"{verdict.nodes:,} in {time.thread_time() - started:.2f} s")
        print(f"| {name} | {area} | " + " | ".join(cells) + " |", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--areas", default="17-23", metavar="LOW-HIGH")
    parser.add_argument("--sample", type=int, default=4)
    parser.add_argument("--seed", type=int, default=84)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--ways", default="sim,plain", help="comma-separated, of " + ", ".join(WAYS))
    parser.add_argument("--cost", type=int, default=0, metavar="NODES", help="nodes a CPU second instead")
    args = parser.parse_args(argv)
    low, _, high = args.areas.partition("-")
    readings = [r for r in read_readings([str(DEFAULT_READINGS)]) if int(low) <= r["area"] <= int(high)]
    readings = random.Random(args.seed).sample(readings, min(args.sample, len(readings)))
    warm_up(["dfpn-sim-zone-table-prune", "dfpn-zone-table-prune"])   # no solve pays for the loading
    if args.cost:
        costs(readings, args.cost)
        return
    print("| reading | points | way | winner | nodes | won: entries, U, mean share | lost: the same |")
    print("|---|---:|---|---|---:|---|---|")
    for name, problem, area in framed(readings):
        for way in args.ways.split(","):
            solver = Solver(problem, zone_table=True, zone_pruning=True, **WAYS[way])
            verdict = solver.solve(problem.to_play, algo="dfpn", cpu_until=time.thread_time() + args.seconds)
            shares = zone_shares(solver)
            cells = [f"{n:,}, {full:.2f}, {mean:.2f}" for n, full, mean in (shares["won"], shares["lost"])]
            print(f"| {name} | {area} | {way} | {verdict.winner} | {verdict.nodes:,} | {cells[0]} | {cells[1]} |",
                  flush=True)


if __name__ == "__main__":
    main()
