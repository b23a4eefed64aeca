"""The main line a player reads: the principal variation cut where the status is settled.

:mod:`solver.principal_variation` plays the fight to its very end (the
target captured, or both sides passing), and the end of such a line is
mostly the winner taking stones off the board and the loser filling or
retaking, moves no book prints: a five-move book answer came out as a
25-move line.  A player stops reading where the status is settled, where the
winner need not answer any more: whatever the loser plays, even two moves in
a row, the winner still wins.  :func:`settled_length` finds the first point
of the line, after a winner's move, where that holds, checked by solving each
of the loser's moves followed by the loser moving again, on the solver's warm
table.

The check only decides where the printed line stops; the verdict and the
line's moves are the solver's as before.  Each check solves the positions as
they stand: a ko the winner has just taken may be retaken at once there, so
a line through a ko is cut after the ko is settled, never before.
"""
from __future__ import annotations

import time


def settled_length(solver, line, ko_master: str = "attacker", max_nodes: int = 100_000,
                   cpu_until: float | None = None) -> int:
    """How many moves of ``line`` (a :class:`~solver.principal_variation.PrincipalVariation`
    from ``solver``'s current position) a player needs: up to the first winner's move after
    which the loser cannot change the status even moving twice.  The whole line when no
    earlier point is settled, a check runs out of ``max_nodes`` (a solve), or the thread's
    CPU clock reaches ``cpu_until`` (None: no time limit) before one is found."""
    if line.winner is None:
        return len(line.moves)
    loser = 3 - line.winner
    played = 0
    try:
        for index, (color, move) in enumerate(line.moves[:-1]):
            if move == "pass":
                continue   # the board is unchanged; the line goes on from the same position
            if not solver.play(*move, color):
                break   # a move the rules allow only with the line's own history: stop checking
            played += 1
            if cpu_until is not None and time.thread_time() >= cpu_until:
                break
            if color == line.winner and _loser_cannot_unsettle(solver, loser, line.winner,
                                                               ko_master, max_nodes, cpu_until):
                return index + 1
    finally:
        for _ in range(played):
            solver.take_back()
    return len(line.moves)


def _loser_cannot_unsettle(solver, loser: int, winner: int, ko_master: str, max_nodes: int,
                           cpu_until: float | None) -> bool:
    """Whether ``winner`` still wins after each of ``loser``'s moves with ``loser`` to move again."""
    if solver.target_captured():
        return True
    for x, y in solver.moves():
        if not solver.play(x, y, loser):
            continue
        try:
            if solver.target_captured():
                return False   # the loser (the attacker) took the target: nothing settled
            verdict = solver.solve(loser, ko_master=ko_master, max_nodes=max_nodes, cpu_until=cpu_until)
            if verdict.winner != winner:
                return False
        finally:
            solver.take_back()
    return True
