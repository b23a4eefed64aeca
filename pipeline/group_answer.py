"""What ``tsumego solve`` and ``tsumego eval --solve`` tell a player about a group.

The pipeline's labels answer one question: does the target survive with the
side to play moving first, the attacker ko master (it may retake any ko).  A
player asks two more: does the answer turn on a ko, and is any move needed at
all?  :func:`answer_group` asks the solver up to three times, on one
:class:`solver.Solver` (its tables stay warm):

1. the side to play first, the attacker ko master: the label's question
   (``verdict``, whose ``status`` every record and ``--json`` keep);
2. where the attacker wins that, again with the defender ko master.  Where
   the defender then lives, the answer is a ko: the side to play wins if and
   only if it wins the ko.  A defender that lives without the ko lives with
   it too (ko mastery only adds moves: on the 97 own problems, both sides
   first, never otherwise), so one solve is enough there;
3. where the side to play wins outright, the other side first, as ko master.
   If the side to play still wins, it needs no move: the group lives (or is
   dead) as it stands, and the answer gives none, never a move the search
   happened to find first, such as filling an own eye.

With an explicit ko master (``--ko-master attacker|defender|none``) only that
one is asked: no ko is said, and the check for a standing group uses it too.
Each solve has the node budget; ``nodes`` and ``seconds`` count them all.
"""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.time_search import TIME_SEARCH, solve_in_time
from solver import Solver, Verdict
from solver.board import BLACK, color_letter
from solver.coordinates import go_move, go_point
from solver.problem import sgf_point

# --ko-master's choice that asks each side in turn where the answer could turn on a ko
EACH = "each"
ALIVE, DEAD = "alive", "dead"
NODE_BUDGET = "the node budget"


def colour_name(color: int) -> str:
    return "Black" if color == BLACK else "White"


def role(color: int, defender: int) -> str:
    """``"defender"`` or ``"attacker"``: ``color``'s part, as ``Solver.solve``'s ko_master names it."""
    return "defender" if color == defender else "attacker"


@dataclass(frozen=True)
class GroupAnswer:
    """The solver's answers for one position, put together as a player reads them."""

    verdict: Verdict           # the side to play first, the attacker (or the asked) ko master
    ko: bool                   # the side to play wins if and only if it wins a ko
    ko_unsettled: bool         # whether a ko could change the verdict ran out of nodes
    standing: str | None       # ALIVE or DEAD whoever moves first: no move needed
    move: tuple[int, int] | str | None   # the move the answer gives: "pass" for none needed
    line_ko_master: str        # the ko master the main line is read with
    nodes: int                 # every solve's
    seconds: float
    limit: str = NODE_BUDGET   # what an unsettled solve ran out of, in words

    @property
    def to_play(self) -> int:
        return self.verdict.to_play

    @property
    def defender(self) -> int:
        return self.verdict.defender

    @property
    def winner(self) -> int | None:
        """Who wins with the side to play first: the side to play where it wins a ko."""
        return self.to_play if self.ko else self.verdict.winner

    @property
    def ko_winner_needed(self) -> str | None:
        """``"B"`` or ``"W"``, the colour that must win the ko; None without one."""
        return color_letter(self.to_play) if self.ko else None


def solve(solver: Solver, to_play: int, ko_master: str, algo: str = "dfs", **options) -> Verdict:
    """One of the answer's solves: :meth:`Solver.solve`, or ``TIME_SEARCH``'s two searches
    (:mod:`pipeline.time_search`)."""
    if algo == TIME_SEARCH:
        return solve_in_time(solver, to_play, ko_master, **options)
    return solver.solve(to_play, ko_master=ko_master, algo=algo, **options)


def answer_group(solver: Solver, to_play: int, ko_master: str = EACH, limit: str = NODE_BUDGET,
                 **solve_options) -> GroupAnswer:
    """The three solves of the module doc (fewer where they are not needed); ``solve_options``
    (``algo``, also ``TIME_SEARCH``; ``max_nodes``, ``guide``, ``cpu_until``) go to each solve, and
    ``limit`` names what they bound in the words of an answer not settled."""
    defender = solver.defender
    asked = "attacker" if ko_master == EACH else ko_master
    solves = [solve(solver, to_play, asked, **solve_options)]
    first = solves[0]
    ko = ko_unsettled = False
    move, line_ko_master = first.move, asked
    outright = first.winner is not None
    if ko_master == EACH and first.winner == 3 - defender:
        check = solve(solver, to_play, "defender", **solve_options)
        solves.append(check)
        if check.winner is None:
            ko_unsettled, outright = True, False
        elif check.winner == defender:
            ko, outright = True, False
            # the side to play wins as ko master: its move is that solve's
            line_ko_master = role(to_play, defender)
            move = first.move if to_play != defender else check.move
        else:
            # the attacker kills without the ko: a move that needs none, and a line without it
            line_ko_master = "defender"
            move = check.move if to_play != defender else None
    standing = None
    if outright and first.winner == to_play:
        other = 3 - to_play
        other_master = role(other, defender) if ko_master == EACH else ko_master
        other_first = solve(solver, other, other_master, **solve_options)
        solves.append(other_first)
        if other_first.winner == to_play:
            standing = ALIVE if to_play == defender else DEAD
            move, line_ko_master = "pass", other_master
    if move == "pass" and outright and first.winner == to_play and standing is None:
        standing = ALIVE if to_play == defender else DEAD   # the solver's own pass says so
    return GroupAnswer(first, ko, ko_unsettled, standing, move, line_ko_master,
                       sum(s.nodes for s in solves), sum(s.seconds for s in solves), limit)


def sgf_of(move) -> str | None:
    """A move's SGF point: ``"bc"``, ``""`` for a pass, None for no move."""
    if move is None:
        return None
    return "" if move == "pass" else sgf_point(*move)


def answer_fields(answer: GroupAnswer, size: int, target: tuple[int, int]) -> dict:
    """The answer for ``--json``: ``status`` (the label's question), ``verdict`` in words,
    ``move`` and ``sgf`` (the answer's: ``pass`` and ``""`` where no move is needed, null
    where the side to play cannot win), ``ko`` (the colour that must win it, or null),
    ``standing`` (``alive``, ``dead`` or null), ``nodes`` and ``seconds`` of the label's
    solve, ``nodes_total`` and ``seconds_total`` of them all."""
    verdict = answer.verdict
    return {"status": verdict.status, "verdict": answer_words(answer, size, target),
            "move": None if answer.move is None else go_move(answer.move, size), "sgf": sgf_of(answer.move),
            "ko": answer.ko_winner_needed, "standing": answer.standing,
            "nodes": verdict.nodes, "seconds": round(verdict.seconds, 6),
            "nodes_total": answer.nodes, "seconds_total": round(answer.seconds, 6)}


def answer_words(answer: GroupAnswer, size: int, target: tuple[int, int]) -> str:
    """The answer as a sentence: ``Black to play kills the white group at C17: B G19``,
    ``... kills ... by ko: B G19; ko: Black must win the ko and needs the ko threats``,
    ``White to play: the white group at R17 lives as it stands; no move needed``."""
    player = colour_name(answer.to_play)
    group = f"the {colour_name(answer.defender).lower()} group at {go_point(*target, size)}"
    defending = answer.to_play == answer.defender
    if answer.verdict.winner is None:
        return f"{player} to play: {group} is not settled within {answer.limit}"
    if answer.standing is not None:
        return (f"{player} to play: {group} "
                f"{'lives' if answer.standing == ALIVE else 'is dead'} as it stands; no move needed")
    move = "" if answer.move is None else f"{color_letter(answer.to_play)} {go_move(answer.move, size)}"
    if answer.ko:
        threats = f"; ko: {player} must win the ko and needs the ko threats"
        return (f"{player} to play: {group} lives by ko: {move}{threats}" if defending
                else f"{player} to play kills {group} by ko: {move}{threats}")
    if answer.winner != answer.to_play:
        words = f"{player} to play cannot save {group}: it dies" if defending else \
            f"{player} to play cannot kill {group}: it lives"
    else:
        words = f"{player} to play {'saves' if defending else 'kills'} {group}: {move}"
    if answer.ko_unsettled:
        attacker = colour_name(3 - answer.defender)
        words += f", if {attacker} wins any ko (whether a ko decides it is not settled within {answer.limit})"
    return words
