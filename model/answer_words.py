"""``tsumego eval``'s answer in a Go player's words: the question, the network's and the
solver's answers (``tsumego solve``'s verbs), the line and the JSON row of one file.
``tsumego serve`` says the same (:mod:`model.serve.boards`).
"""
from __future__ import annotations

from model.evaluate import COLOUR_NAME, Answer, end_state_rows, says_safe
from solver.coordinates import go_point


def question(sub) -> str:
    """``if White plays first: is the black group at M3 safe?``: the one question the line, the
    title and the halos answer."""
    tx, ty = sub.target
    defender = int(sub.stones[ty, tx])
    return (f"if {COLOUR_NAME[sub.to_play]} plays first: is the {COLOUR_NAME[defender].lower()} group at "
            f"{go_point(tx, ty, sub.size)} safe?")

def leaning(answer: Answer) -> str:
    """The network's answer in ``tsumego solve``'s verbs: ``probably dies``, ``maybe lives`` (unsure)."""
    verb = "lives" if says_safe(answer.verdict.safe) else "dies"
    return f"probably {verb}" if answer.unsure is None else f"maybe {verb}"

def network_answer(answer: Answer) -> str:
    """``P(safe) = 0.30, probably dies``, and why unsure when it is."""
    unsure = "" if answer.unsure is None else f" (unsure: {answer.unsure})"
    return f"P(safe) = {answer.verdict.safe:.2f}, {leaning(answer)}{unsure}"

def other_side_answer(answer: Answer) -> str:
    """``if Black plays first: P(safe) = 0.90``: the network's other answer, which the unsure
    check reads too."""
    return f"if {COLOUR_NAME[3 - answer.sub.to_play]} plays first: P(safe) = {answer.safe_other_first:.2f}"

def solver_answer(answer: Answer, max_nodes: int) -> str:
    """``White to play kills the black group at M3: W N1 (proved, 93 nodes, 0.08 s), as the
    network said``, in ``tsumego solve``'s words; or unknown."""
    from pipeline.group_answer import answer_words

    proof = answer.proof
    if proof.verdict.status == "unknown":
        return (f"unknown within {nodes(max_nodes)} ({proof.seconds:.2f} s): the network's answer stands"
                + (", unsure" if answer.unsure else ""))
    cost = f"{nodes(proof.nodes)}, {proof.seconds:.2f} s"
    # the network learnt the label's question, where the attacker wins any ko
    agrees = (proof.verdict.status == "safe") == says_safe(answer.verdict.safe)
    ko = ", which reads a ko as the attacker's" if proof.ko else ""
    if answer.check is not None and answer.check.agrees_with(proof) is False:
        return f"{proved_words(answer)} (proved, {cost})"   # the network read one frame only
    return (f"{proved_words(answer)} (proved, {cost}), "
            f"{'as' if agrees else 'not what'} the network said{ko}")

def proved_words(answer: Answer) -> str:
    """The solver's answer in ``tsumego solve``'s words; for a group of a game whose wider frame
    answers otherwise, both frames' answers (``... depends on the surroundings: ...``)."""
    from pipeline.frame_check import depends_words
    from pipeline.group_answer import answer_words

    sub, check = answer.sub, answer.check
    if check is not None and check.agrees_with(answer.proof) is False:
        return depends_words(answer.proof, check, sub.size, sub.target)
    return answer_words(answer.proof, sub.size, sub.target)

def nodes(count: int) -> str:
    return f"{count:,} node{'' if count == 1 else 's'}"

def answer_line(answer: Answer, max_nodes: int) -> str:
    sub = answer.sub
    moves = ", ".join(f"{go_point(*point, sub.size)} {p:.3f}" for point, p in answer.verdict.moves) or "-"
    line = (f"{answer.path}: {question(sub)} network: {network_answer(answer)}; moves: {moves}; "
            f"{other_side_answer(answer)}")
    if sub.safe is not None:
        line += f"; file's label: {'safe' if sub.safe else 'unsafe'}"
    if answer.proof is not None:
        line += f"; solver: {solver_answer(answer, max_nodes)}"
    if answer.group is not None:
        line += f"; framed: {answer.group.changes.words(sub.size)}"
        if answer.check is not None and answer.check.agrees_with(answer.proof):
            line += "; checked: a wider frame, leaving those points empty, gives the same answer"
    return line

def json_row(answer: Answer) -> dict:
    from solver.board import color_letter
    from solver.problem import sgf_point

    sub, verdict = answer.sub, answer.verdict
    row = {"file": answer.path, "to_play": color_letter(sub.to_play),
           "target": go_point(*sub.target, sub.size), "target_sgf": sgf_point(*sub.target),
           "safe": round(verdict.safe, 4), "safe_other_first": round(answer.safe_other_first, 4),
           "unsure": answer.unsure is not None, "unsure_why": answer.unsure,
           "label": None if sub.safe is None else int(sub.safe),
           "moves": [{"move": go_point(*point, sub.size), "sgf": sgf_point(*point), "p": round(p, 4)}
                     for point, p in verdict.moves]}
    if verdict.end_state is not None:
        row["end_state"] = end_state_rows(verdict.end_state)
    if answer.proof is not None:
        from pipeline.group_answer import answer_fields

        row["solver"] = answer_fields(answer.proof, sub.size, sub.target)
    if answer.group is not None:
        from pipeline.frame_check import check_fields, frame_fields

        row["frame"] = frame_fields(answer.group.changes, sub.size)
        if answer.check is not None:
            row["solver"]["verdict"] = proved_words(answer)
            row["solver"]["wider_frame"] = check_fields(answer.proof, answer.check, sub.size, sub.target)
    return row
