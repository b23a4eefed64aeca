"""The node budgets of the commands, in one table: how many nodes a solve may search before
its answer is ``unknown``, and where that figure was measured or chosen.

Every command's ``--max-nodes`` default is read from here, so that ``--help``
gives the table's figure (tests/test_budgets.py checks it).  The table sits in
``pipeline``, a layer every command can import; the solver's own defaults
(the pattern fit's, the main line's) stay in ``solver/``, which imports
nothing above it: their rows repeat the figure, and the test checks that the
two agree.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    nodes: int       # a solve's node budget (0 would be none)
    where: str       # the module whose option or constant takes it
    why: str         # the section of RESULTS.md, RESULTS-archive.md or docs/ that measured or chose it


BUDGETS: dict[str, Budget] = {
    "solve": Budget(10_000_000, "pipeline/solve_command.py",
                    'ten times what the hardest reference or own problem needs, either side first, DFS '
                    'or df-pn: RESULTS-archive.md, "solve: a default node budget and bounded tables"'),
    "solve-all": Budget(2_000_000, "pipeline/solve_all.py",
                        'a side over it is rejected and remembered (78 reference sides): '
                        'RESULTS-archive.md, "solve-all with a cap on each tree" and "solve-all '
                        'remembers the sides over the node budget"'),
    "validate": Budget(2_000_000, "pipeline/validate.py",
                       "solve-all's, so that a subproblem is re-solved as it was labelled"),
    "enclose": Budget(200_000, "pipeline/enclose/command.py",
                      'the 5,430 open-board problems in 78 to 107 minutes on two cores: RESULTS.md, "The '
                      'whole collection with the guide\'s unguided start"; 1,000,000 listed 1.3 points more '
                      'of Cho elementary: RESULTS.md, "enclose with static life: Cho elementary again"'),
    "eval": Budget(1_000_000, "cli/eval_command.py",
                   "--solve's: a tenth of solve's, so that eval stays a quick look; the own problems "
                   "need 32,000 nodes at most (docs/model.md, tsumego eval)"),
    "serve": Budget(1_000_000, "cli/serve.py", "eval --solve's, for a page that answers at once (docs/serve.md)"),
    "generate": Budget(30_000, "pipeline/generate.py",
                       'a candidate is kept only if non-trivial within it: RESULTS-archive.md, '
                       '"Generated problems in the open style" (docs/model.md, generate)'),
    "wider frame check": Budget(1_000_000, "pipeline/frame_check.py",
                                "each solve of a group's wider frame: the check must not cost more than "
                                'the answer often does (docs/enclose.md, "The frame")'),
    "settled check": Budget(200_000, "pipeline/solve_command.py",
                            "each check of where solve's main line is settled: it only decides where the "
                            "printed line stops, so one out of nodes just goes on (chosen, not measured)"),
    "main line": Budget(100_000, "solver/main_line.py (settled_length's default)",
                        'RESULTS-archive.md, "Answers a Go player reads: the first run, the main line, '
                        'eval\'s unsure band"'),
    "pattern training": Budget(300_000, "solver/pattern_training.py (--max-nodes)",
                               'RESULTS-archive.md, "Learned move patterns"; docs/solver.md, move order'),
}

SOLVE_MAX_NODES = BUDGETS["solve"].nodes
SOLVE_ALL_MAX_NODES = BUDGETS["solve-all"].nodes
VALIDATE_MAX_NODES = BUDGETS["validate"].nodes
ENCLOSE_MAX_NODES = BUDGETS["enclose"].nodes
EVAL_MAX_NODES = BUDGETS["eval"].nodes
SERVE_MAX_NODES = BUDGETS["serve"].nodes
GENERATE_MAX_NODES = BUDGETS["generate"].nodes
WIDER_CHECK_NODES = BUDGETS["wider frame check"].nodes
SETTLED_CHECK_NODES = BUDGETS["settled check"].nodes
