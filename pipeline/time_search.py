"""The search ``tsumego solve --seconds`` answers with: DFS for a fifth of the time, then
df-pn with the knowledge ``enclose --seconds`` reads with.

Neither search is the faster everywhere.  On 40 book readings of 17-23 points, a minute
each, df-pn with Kawano's simulation and the eye space (``question.TIME_OPTIONS``)
settled 34 where DFS settled 21, and DFS none that df-pn did not (RESULTS.md, "Reach on
a fresh draw"); on a composed open corner of 18 points with two stones in it, DFS takes
2.7 million nodes and 12 s, df-pn 15.5 million and 126 s.  Small problems DFS settles in
a fraction of a second, with the same answer and main line as ``--algo dfs``.  So each
solve first gives DFS ``DFS_SHARE`` of the time left, then df-pn the rest: at 10 s a
reading it settled 19 of those 40 where DFS settled 12 and df-pn alone 22, and read from
the two searches' own times, the share costs none of the 34 at a minute (RESULTS.md,
"solve --seconds reads with DFS, then df-pn").  The verdicts are exact either way.
"""
from __future__ import annotations

import time
from dataclasses import replace

from pipeline.enclose.question import TIME_ALGO, TIME_OPTIONS
from solver import Solver, Verdict

# The name ``--algo`` would give it, beside solver.ALGORITHMS
TIME_SEARCH = "dfs-then-dfpn"
# DFS's share of a solve's time
DFS_SHARE = 0.2


def time_search_options() -> dict:
    """The :class:`Solver` options the time search needs (df-pn's knowledge; DFS reads none)."""
    return dict(TIME_OPTIONS)


def solve_in_time(solver: Solver, to_play: int, ko_master: str = "attacker", cpu_until: float | None = None,
                  **options) -> Verdict:
    """One solve by the time search (module doc), stopped at ``cpu_until`` (the thread's CPU
    clock); ``options`` (``max_nodes``, ``guide``) go to each search.  Without a time limit it
    is DFS alone.  The verdict's nodes and seconds are both searches'."""
    if cpu_until is None:
        return solver.solve(to_play, ko_master=ko_master, algo="dfs", **options)
    now = time.thread_time()
    first = solver.solve(to_play, ko_master=ko_master, algo="dfs", cpu_until=now + DFS_SHARE * (cpu_until - now),
                         **options)
    if first.winner is not None or time.thread_time() >= cpu_until:
        return first
    second = solver.solve(to_play, ko_master=ko_master, algo=TIME_ALGO, cpu_until=cpu_until, **options)
    return replace(second, nodes=first.nodes + second.nodes, seconds=first.seconds + second.seconds)
