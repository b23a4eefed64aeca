"""Where a verdict that differs between our solver and tsumego.js comes from: one of the
two contradicts itself along a line.

At a position where the two differ, exactly one claims that the side to move
wins, and names its move.  That move is played and both solve the position
after it, the other side to move.  If they now agree, the one whose claim
before the move does not fit what both say after it contradicts itself: the
one that said the mover loses, when both now say the mover has won; the one
that claimed the move wins, when both now say it loses.  If they still
differ, the walk goes on from there, up to ``max_plies`` moves.  A claim with
no move to follow (a pass) ends the walk, and so does an error of tsumego.js.
"""
from __future__ import annotations

from pathlib import Path

from bench.peer import tsumego_js
from solver import Solver
from solver.board import color_letter
from solver.problem import Problem, parse_sgf_point


def _wins(status: str, color: int, defender: int) -> bool:
    """Whether ``status`` (of the target) says that ``color``, to move, wins."""
    return (status == "safe") == (color == defender)


def _ours(problem: Problem, moves: list[str], color: int, ko_master: str) -> tuple[str, str | None]:
    solver = Solver(problem)
    for move in moves:
        if not solver.play(*parse_sgf_point(move[2:4]), 1 if move[0] == "B" else 2):
            raise ValueError(f"{problem.source}: {move} cannot be played after {' '.join(moves)}")
    verdict = solver.solve(color, ko_master=ko_master)
    return verdict.status, verdict.sgf_move


def follow_disagreement(problem: Problem, path: str | Path, ko_master: str = "attacker",
                        max_plies: int = 12, file_timeout: float | None = 60.0) -> str:
    """One line saying which solver contradicts itself, and after which moves (module doc)."""
    moves: list[str] = []
    color = problem.to_play
    claims = None   # before the last move: {"ours": status, "tsumego.js": status}, the mover
    for _ in range(max_plies + 1):
        status, ours_move = _ours(problem, moves, color, ko_master)
        row = tsumego_js.solve_files([path], ko_master=ko_master, play=moves,
                                     solve_as=color_letter(color), file_timeout=file_timeout)[0]
        line = " ".join(moves) or "the start"
        if "status" not in row:
            return f"after {line}: tsumego.js {row.get('error')}"
        if row["status"] == status:
            if claims is None:
                return f"at {line} both say {status}"
            said, mover = claims
            mover_won = not _wins(status, color, problem.defender)
            wrong = [name for name, before in said.items()
                     if _wins(before, mover, problem.defender) != mover_won]
            return (f"after {line} both say {status} ({color_letter(color)} to move); one move "
                    f"before, {wrong[0]} said {said[wrong[0]]}: {wrong[0]} contradicts itself")
        if _wins(status, color, problem.defender):
            claimant, move = "ours", ours_move
        else:
            claimant, move = "tsumego.js", row.get("move")
        if not move or move.endswith("[]"):
            return f"at {line} {claimant} says {color_letter(color)} wins by passing; not followed"
        claims = ({"ours": status, "tsumego.js": row["status"]}, color)
        moves.append(move)
        color = 3 - color
    return f"still differing after {' '.join(moves)}"
