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


def test_a_files_answer_does_not_depend_on_the_files_solved_before_it(shared_problems, peer_available):
    """tsumego.js draws a board's hash keys from its random generator: the driver seeds it for
    every file, so one process solving several files gives each the answer it gets alone."""
    first, second = [p.source for p in shared_problems[:2]]
    alone = tsumego_js.solve_files([second])[0]
    after = tsumego_js.solve_files([first, second])[1]
    assert after["hash_keys"] == alone["hash_keys"]
    assert (after["move"], after["status"], after["nodes"]) == (alone["move"], alone["status"], alone["nodes"])


def test_a_first_move_not_ours_is_checked_by_tsumego_js_one_move_on(peer_available):
    """bench.enclose_peer's line for a first move we do not list: tsumego.js's own answer after it."""
    from pathlib import Path

    from bench.enclose_peer import verdict

    path = Path(__file__).resolve().parents[1] / "sgf-problems" / "approach" / "block-the-first-line-live.sgf"
    assert verdict(path, {"status": "safe", "move": "W[fa]"}) is None
    # W eb makes eye shape inside and Black kills (B fa, say): tsumego.js refutes such a claim
    why = verdict(path, {"status": "safe", "move": "W[eb]"})
    assert why.startswith("tsumego.js plays W[eb], not one of ['W[fa]']; after it tsumego.js contradicts")
    assert why.endswith("holds for the opponent (unsafe)")
    # a verdict said to differ is walked: tsumego.js itself, asked again, agrees at the start
    why = verdict(path, {"status": "unsafe", "move": "B[fa]"})
    assert why == "the side to play should win (safe), tsumego.js says unsafe; at the start both say safe"


def test_a_differing_verdict_is_followed_until_one_solver_contradicts_itself(shared_problems, peer_available):
    """gop/20305: tsumego.js (its keys drawn from seed 0) says White lives with Black first, but
    after the file's B ei, its own W fh and the file's B ci it says White is dead."""
    from bench.peer.disagreement import follow_disagreement

    problem = next((p for p in shared_problems if p.source.endswith("gop/20305.sgf")), None)
    if problem is None:
        pytest.skip("gop/20305 is not among the shared problems")
    assert tsumego_js.solve_files([problem.source])[0]["status"] == "safe"
    assert Solver(problem).solve(problem.to_play).status == "unsafe"
    assert follow_disagreement(problem, problem.source) == (
        "after B[ei] W[fh] B[ci] both say unsafe (W to move); one move before, tsumego.js said safe: "
        "tsumego.js contradicts itself")


def test_the_walk_names_whichever_solver_contradicts_itself(monkeypatch):
    """Both branches without Node: a stand-in for tsumego.js answers as our solver does, and one
    of the two is made to give the wrong verdict at the start."""
    from pathlib import Path

    from bench.peer import disagreement
    from solver import load_problem

    path = Path(__file__).resolve().parents[1] / "sgf-problems" / "tesuji" / "hane-and-placement-kill.sgf"
    problem = load_problem(path)
    truth = disagreement._ours

    def peer(files, ko_master, play, solve_as, file_timeout):
        status, move = truth(problem, list(play), 1 if solve_as == "B" else 2, ko_master)
        if not play and lying[0] == "tsumego.js":
            status, move = ("safe" if status == "unsafe" else "unsafe"), None
        return [{"status": status, "move": move}]

    def ours(problem, moves, color, ko_master):
        status, move = truth(problem, moves, color, ko_master)
        if not moves and lying[0] == "ours":
            status, move = ("safe" if status == "unsafe" else "unsafe"), None
        return status, move

    monkeypatch.setattr(disagreement.tsumego_js, "solve_files", peer)
    monkeypatch.setattr(disagreement, "_ours", ours)
    status, move = truth(problem, [], problem.to_play, "attacker")
    assert status == "unsafe" and move
    for lying in (["tsumego.js"], ["ours"]):
        line = disagreement.follow_disagreement(problem, path)
        assert line.startswith(f"after {move} both say unsafe"), line
        assert line.endswith(f"{lying[0]} said safe: {lying[0]} contradicts itself"), line
