"""Differential test against the reference solver tsumego.js 1.1.0 (from npm).

A sample of reference problems is solved by both; the verdicts must match and
our winning move must be one the peer also accepts as winning.
"""
import pytest

from bench.peer import tsumego_js
from solver import Solver

SAMPLE = 25


@pytest.fixture(scope="module")
def peer_available():
    try:
        tsumego_js.ensure_installed()
    except tsumego_js.PeerUnavailable as exc:
        pytest.skip(f"tsumego.js is not available: {exc}")


def test_verdicts_and_moves_match_tsumego_js(shared_problems, peer_available):
    sample = shared_problems[::max(1, len(shared_problems) // SAMPLE)][:SAMPLE]
    ours = {p.source: Solver(p).solve(p.to_play) for p in sample}
    peer = {row["file"]: row for row in tsumego_js.solve_files(list(ours))}
    for source, verdict in ours.items():
        assert peer[source]["status"] == verdict.status, source
    # Our winning move, played, leaves the peer's opponent without a win.
    winners = [(s, v) for s, v in ours.items() if isinstance(v.move, tuple)]
    for source, verdict in winners:
        (row,) = tsumego_js.solve_files([source], play=[verdict.sgf_move])
        assert row["move"] is None, (source, verdict.sgf_move, row)
