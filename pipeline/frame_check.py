"""A framed answer checked against a second frame, since no frame is the game.

A group of a game is answered in a frame (:mod:`pipeline.game_group`): the
attacker's wall on every empty point around the group's region, stones the
game does not have.  Such a wall takes liberties and room the group may live
by, so the answer is solved again in a wider frame, which leaves those points
empty, for either side to play, and closes the wall one step further out
(:func:`pipeline.game_group.wider_frame`).  Where both give the same winner
(a ko the same way), the answer stands for both frames; where they differ,
the group's fate depends on the surroundings, which the game leaves open, and
both answers are given.  A group the game closes itself needs no check; a
wider frame the solver cannot read, or one not settled within
``WIDER_CHECK_NODES`` a solve, leaves the answer unchecked, and says why.
"""
from __future__ import annotations

from dataclasses import dataclass

from pipeline import budgets
from pipeline.game_group import FrameChanges, GameGroup, frame_changes, wider_frame
from pipeline.group_answer import GroupAnswer, answer_fields, answer_group, answer_words, colour_name
from solver import Solver
from solver.board import color_letter
from solver.coordinates import go_point
from solver.problem import sgf_point

# Each solve of the wider frame gets at most this budget: the check must not cost more than the
# answer itself often does, and a wider frame is only harder (docs/enclose.md, "The frame").
# The figure is pipeline/budgets.py's.
WIDER_CHECK_NODES = budgets.WIDER_CHECK_NODES


@dataclass(frozen=True)
class FrameCheck:
    """The second frame's answer, or why there is none."""

    answer: GroupAnswer | None
    changes: FrameChanges | None
    unchecked: str                 # why not checked; "" when checked

    def agrees_with(self, answer: GroupAnswer) -> bool | None:
        """Whether the same side wins (by ko or not, alike) in both frames; None unchecked."""
        if self.answer is None:
            return None
        return (self.answer.winner, self.answer.ko) == (answer.winner, answer.ko)


def check_wider_frame(group: GameGroup, answer: GroupAnswer, ko_master: str, max_area: int,
                      solver_options: dict, **solve_options) -> FrameCheck:
    """The answer in the wider frame (module doc); ``solver_options`` go to
    :class:`Solver`, ``solve_options`` to each solve, whose budget is cut to
    ``WIDER_CHECK_NODES``."""
    if answer.verdict.winner is None:
        return FrameCheck(None, None, "the answer is not settled")
    wider, why = wider_frame(group.position, group.problem, group.changes, max_area)
    if wider is None:
        return FrameCheck(None, None, why)
    budget = solve_options.get("max_nodes") or WIDER_CHECK_NODES
    solve_options = {**solve_options, "max_nodes": min(budget, WIDER_CHECK_NODES)}
    other = answer_group(Solver(wider, max_area=max_area, **solver_options), wider.to_play, ko_master,
                         **solve_options)
    if other.verdict.winner is None:
        return FrameCheck(None, None, f"the wider frame is not settled within "
                                      f"{solve_options['max_nodes']:,} nodes")
    return FrameCheck(other, frame_changes(group.position, wider), "")


def depends_headline(answer: GroupAnswer, size: int, target: tuple[int, int]) -> str:
    """``White to play: the white group at B17 depends on the surroundings``."""
    return (f"{colour_name(answer.to_play)} to play: the {colour_name(answer.defender).lower()} group at "
            f"{go_point(*target, size)} depends on the surroundings")


def depends_words(answer: GroupAnswer, check: FrameCheck, size: int, target: tuple[int, int]) -> str:
    """:func:`depends_headline`, then both frames' answers: ``...: in this frame, ...; in the wider
    frame, ...``."""
    return (f"{depends_headline(answer, size, target)}: in this frame, {answer_words(answer, size, target)}; "
            f"in the wider frame, {answer_words(check.answer, size, target)}")


def check_lines(answer: GroupAnswer, check: FrameCheck, changes: FrameChanges, size: int,
                target: tuple[int, int]) -> list[str]:
    """The text lines under a framed answer: the stones its frame added, then the check."""
    lines = [f"framed: {changes.words(size)}"]
    agrees = check.agrees_with(answer)
    if agrees is None:
        if changes.added:   # a frame that added nothing needs no check
            lines.append(f"not checked against a wider frame: {check.unchecked}")
    elif agrees:
        lines.append("checked: a wider frame, leaving those points empty, gives the same answer")
    else:
        lines += [f"in this frame: {answer_words(answer, size, target)}",
                  f"in the wider frame, leaving those points empty: {answer_words(check.answer, size, target)}",
                  f"the wider frame: {check.changes.words(size)}"]
    return [f"  {line}" for line in lines]


def frame_fields(changes: FrameChanges, size: int) -> dict:
    """``--json``'s ``frame``: the stones the frame added and took off, in Go coordinates and SGF."""
    return {"colour": color_letter(changes.colour),
            "added": [go_point(*p, size) for p in changes.added],
            "added_sgf": [sgf_point(*p) for p in changes.added],
            "removed": [go_point(*p, size) for p in changes.removed],
            "removed_sgf": [sgf_point(*p) for p in changes.removed]}


def check_fields(answer: GroupAnswer, check: FrameCheck, size: int, target: tuple[int, int]) -> dict:
    """``--json``'s ``wider_frame``: ``agrees`` (true, false, null unchecked), ``unchecked`` (why,
    or null), and the wider frame's answer (as the row's) and ``frame``."""
    fields = {"agrees": check.agrees_with(answer), "unchecked": check.unchecked or None}
    if check.answer is not None:
        fields.update(answer_fields(check.answer, size, target), frame=frame_fields(check.changes, size))
    return fields
