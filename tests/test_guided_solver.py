"""The network guiding the solver (``model.guide``): other node counts, never other verdicts.

The network here is a tiny dense one with random weights, packed to a file in
the test's folder: its prior is as good as noise, which is what the exactness
checks want (any prior at all must leave every verdict as it was).  The
reference problems are the repository's own (``sgf-problems/``) and, when they
are beside the repository, a sample of ``../shared/sgf-problems``.
"""
import json
from pathlib import Path

import numpy as np
import pytest

from model.evaluate import evaluate_position
from model.guide import FADE_NODES, WEIGHTS, Guide
from model.network import layer_names
from model.numpy_net import NumpyNet
from model.packed import FLOAT_BITS
from model.quantize import pack
from model.shipped import shipped_packed_file
from cli.main import main
from pipeline.formats.records import MOVES, WINDOW
from pipeline.planes import plane_names
from solver import Solver, load_problem
from solver.board import BLACK, EMPTY, WHITE
from solver.movegen import CUTOFF_WEIGHT, HINT, MAX_PRIOR_WEIGHT

OWN_PROBLEMS = Path(__file__).resolve().parents[1] / "sgf-problems"
OWN_FILES = sorted(OWN_PROBLEMS.rglob("*.sgf"))
# the shared sample: problems DFS settles in fewer nodes than this, PL first
SHARED_SAMPLE_NODES = 20_000
BUDGET = 5_000_000
WIDTH = 16


def tiny_tensors(seed: int = 7) -> list[tuple[str, np.ndarray]]:
    """Random weights for a dense network over every plane, one block of WIDTH units."""
    rng = np.random.default_rng(seed)
    inputs = WINDOW * WINDOW * len(plane_names())
    shapes = {"align": (inputs, WIDTH), "block0_a": (WIDTH, WIDTH), "block0_b": (WIDTH, WIDTH),
              "safe": (WIDTH, 1), "move": (WIDTH, MOVES)}
    tensors = []
    for name in layer_names(1, "dense"):
        kernel = rng.normal(0, 1.0 / np.sqrt(shapes[name][0]), shapes[name]).astype(np.float32)
        tensors += [(f"{name}/kernel", kernel * (4.0 if name == "move" else 1.0)),
                    (f"{name}/bias", np.zeros(shapes[name][1], np.float32))]
    return tensors


@pytest.fixture(scope="module")
def net_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("guide") / "tiny.tsq"
    meta = {"planes": plane_names(), "window": WINDOW, "architecture": "dense", "blocks": 1, "width": WIDTH}
    path.write_bytes(pack(tiny_tensors(), FLOAT_BITS, meta))
    return path


@pytest.fixture
def guide(net_file):
    return Guide.load(str(net_file))


def own_problems():
    return [load_problem(path) for path in OWN_FILES]


class ZeroGuide:
    """A guide whose prior is zero everywhere: the search must be the unguided one."""

    def fill(self, solver, prior):
        prior[:] = 0.0


class WorstGuide:
    """A guide that puts all its weight on one point far from the usual first moves: the last
    empty point of the area for Black, the first for White, as heavily as the solver allows."""

    weight = MAX_PRIOR_WEIGHT

    def fill(self, solver, prior):
        prior[:] = 0.0
        empty = solver.area_cells[solver.board.cells[solver.area_cells] == EMPTY]
        if empty.size:
            prior[BLACK, empty[-1]] = prior[WHITE, empty[0]] = 1.0


def test_the_prior_and_the_cutoffs_sit_below_a_hint():
    # the heuristic part stays within 0.875 either way, the cutoffs' part under
    # CUTOFF_WEIGHT; a hint adds HINT
    assert MAX_PRIOR_WEIGHT * 1.0 + CUTOFF_WEIGHT + 0.875 < HINT - 0.875
    assert max(WEIGHTS.values()) <= MAX_PRIOR_WEIGHT


def test_a_guide_weighs_its_prior_by_its_architecture(guide, net_file):
    assert guide.net.architecture == "dense" and guide.weight == WEIGHTS["dense"]
    assert Guide(NumpyNet.load(str(net_file)), weight=1.0).weight == 1.0
    shipped = shipped_packed_file()
    if shipped is not None:
        assert Guide.load(shipped).weight == WEIGHTS[NumpyNet.load(shipped).architecture]


def test_a_guide_fades_by_default(guide, net_file):
    # the solver reads the fade (test_fading_reads_the_nodes_searched); every guide has one
    assert guide.fade_nodes == FADE_NODES > 0
    assert Guide(NumpyNet.load(str(net_file)), fade_nodes=0).fade_nodes == 0
    shipped = shipped_packed_file()
    if shipped is not None:
        assert Guide.load(shipped).fade_nodes == FADE_NODES


def test_the_weight_is_read_by_the_search_and_bounded(net_file):
    problem = load_problem(OWN_FILES[0])
    plain = Solver(problem).solve(problem.to_play)
    nodes = {}
    for weight in (0.0, MAX_PRIOR_WEIGHT):
        solver = Solver(problem)
        verdict = solver.solve(problem.to_play, guide=WorstGuide() if weight else ZeroWeightGuide())
        assert verdict.winner == plain.winner
        assert solver.prior_weight[0] == 0.0
        nodes[weight] = verdict.nodes
    # a prior at weight 0 orders nothing; the spiteful one at full weight does
    assert nodes[0.0] == plain.nodes != nodes[MAX_PRIOR_WEIGHT]
    with pytest.raises(ValueError, match="weight"):
        too_heavy = Guide(NumpyNet.load(str(net_file)), weight=MAX_PRIOR_WEIGHT + 1.0)
        Solver(problem).solve(problem.to_play, guide=too_heavy)


class FadingWorstGuide(WorstGuide):
    """WorstGuide's prior, fading after a few nodes."""

    fade_nodes = 10.0


def test_a_fading_prior_changes_the_order_never_the_verdict():
    # the spiteful prior, faded or not, leaves every verdict as it is; the solve
    # clears the weight and its fade
    for problem in own_problems()[:12]:
        plain = Solver(problem).solve(problem.to_play)
        full = Solver(problem).solve(problem.to_play, guide=WorstGuide())
        solver = Solver(problem)
        faded = solver.solve(problem.to_play, guide=FadingWorstGuide())
        assert faded.winner == full.winner == plain.winner
        assert not solver.prior_weight.any()
    bad = FadingWorstGuide()
    bad.fade_nodes = -1.0
    with pytest.raises(ValueError, match="fade_nodes"):
        Solver(problem).solve(problem.to_play, guide=bad)


def test_fading_reads_the_nodes_searched():
    # over the own problems the faded spiteful prior costs fewer nodes in all than the
    # full one: the weight falls as the nodes grow
    problems = own_problems()
    full = sum(Solver(p).solve(p.to_play, guide=WorstGuide()).nodes for p in problems)
    faded = sum(Solver(p).solve(p.to_play, guide=FadingWorstGuide()).nodes for p in problems)
    plain = sum(Solver(p).solve(p.to_play).nodes for p in problems)
    assert faded < full and faded != plain


class ZeroWeightGuide(WorstGuide):
    """WorstGuide's prior at weight 0."""

    weight = 0.0


def test_the_prior_sums_to_one_over_the_empty_points_of_the_area(guide):
    problem = load_problem(OWN_FILES[0])
    solver = Solver(problem)
    prior = np.zeros_like(solver.prior)
    guide.fill(solver, prior)
    empty = solver.board.cells[solver.area_cells] == EMPTY
    for color in (BLACK, WHITE):
        values = prior[color, solver.area_cells]
        assert values.sum() == pytest.approx(1.0)
        assert (values >= 0).all() and not values[~empty].any()
        # nothing outside the area
        assert np.count_nonzero(prior[color]) == np.count_nonzero(values)
    assert not prior[EMPTY].any()
    # the two sides are two evaluations (the planes say who moves first)
    assert not np.allclose(prior[BLACK], prior[WHITE])


def test_the_guide_ranks_moves_as_eval_does(guide):
    problem = load_problem(OWN_FILES[0])
    solver = Solver(problem)
    verdict = evaluate_position(guide.net, problem, top=3)
    board = guide.board_prior(solver, problem.to_play)
    board[problem.stones != EMPTY] = -1
    for (x, y), p in verdict.moves:
        assert board[y, x] == pytest.approx(p, rel=1e-5)
    x, y = verdict.moves[0][0]
    assert board[y, x] == board.max()


def test_the_cache_holds_each_position_and_side_once(guide):
    solver = Solver(load_problem(OWN_FILES[0]))
    prior = np.zeros_like(solver.prior)
    guide.fill(solver, prior)
    assert (guide.evaluations, guide.hits) == (2, 0)
    first = prior.copy()
    guide.fill(solver, prior)
    assert (guide.evaluations, guide.hits) == (2, 2)
    assert np.array_equal(prior, first)
    x, y = solver.moves()[0]
    assert solver.play(x, y, solver.problem.attacker)
    guide.fill(solver, prior)
    assert guide.evaluations == 4
    solver.take_back()
    guide.fill(solver, prior)
    assert (guide.evaluations, guide.hits) == (4, 4)
    assert np.array_equal(prior, first)
    # a cached answer is the answer: evaluated afresh it is the same
    fresh = Guide(NumpyNet.load(guide.source))
    fresh.fill(solver, prior)
    assert np.array_equal(prior, first)


def test_a_guided_solve_clears_its_prior_and_leaves_unguided_counts_alone(guide):
    problem = load_problem(OWN_FILES[0])
    for algo in ("dfs", "dfpn"):
        plain = Solver(problem).solve(problem.to_play, algo=algo)
        zero = Solver(problem).solve(problem.to_play, algo=algo, guide=ZeroGuide())
        assert (zero.winner, zero.move, zero.nodes) == (plain.winner, plain.move, plain.nodes)
        solver = Solver(problem)
        solver.solve(problem.to_play, algo=algo, guide=guide)
        assert not solver.prior.any() and not solver.prior_weight.any()
        again = Solver(problem).solve(problem.to_play, algo=algo)
        assert (again.winner, again.move, again.nodes) == (plain.winner, plain.move, plain.nodes)


# Unguided node counts, measured since the attacker's pass is left out while it is ko
# master and no pass situation is on the path (solver.movegen, solver.dfs), in the liberty
# heuristic's order (move_patterns=False) and, since, in the shipped patterns' order, each
# without the race count (race=False) and, since it came, with it (solver.race; since the
# race's room came, counting it); each of
# those without the sibling hints (sibling_hints=False) and, since they came, with them;
# df-pn's, since no room for two eyes came, with it (solver.eye_room):
# (problem, colour first, algorithm) → (liberty heuristic, patterns; the same with the
# count; those four with the hints).
UNGUIDED_NODES = {
    ("cc1/900.sgf", BLACK, "dfs"): (12803, 3573, 4318, 2380, 5785, 1968, 980, 870),
    ("cc1/900.sgf", BLACK, "dfpn"): (1387, 2045, 1323, 1559, 1573, 1981, 1296, 1603),
    ("gop/10963.sgf", WHITE, "dfs"): (2955, 1350, 2836, 912, 2567, 1167, 2093, 1088),
    ("gop/10963.sgf", WHITE, "dfpn"): (753, 1159, 600, 723, 931, 1006, 543, 688),
    ("gop/13419.sgf", BLACK, "dfs"): (6902, 9024, 5783, 8636, 6885, 9863, 5640, 9954),
    ("gop/13419.sgf", BLACK, "dfpn"): (10412, 8336, 9642, 8839, 13187, 9267, 9865, 9213),
}


def test_unguided_node_counts_are_the_measured_ones(shared_problems):
    by_name = {"/".join(Path(p.source).parts[-2:]): p for p in shared_problems}
    for (name, to_play, algo), counts in UNGUIDED_NODES.items():
        if name not in by_name:
            pytest.skip(f"{name} is not in the reference corpus")
        problem = by_name[name]
        measured = tuple(Solver(problem, move_patterns=patterns, race=race, sibling_hints=hints)
                         .solve(to_play, algo=algo).nodes
                         for hints in (False, True) for race in (False, True) for patterns in (False, True))
        assert measured == counts, (name, to_play, algo)


def _same_verdicts(problems, guides, sides=("pl", "other"), algos=("dfs", "dfpn")):
    """Every problem, side and algorithm: each guide's verdict is the unguided one.  Returns
    the total nodes unguided and per guide."""
    totals = [0] * (len(guides) + 1)
    for problem in problems:
        for side in sides:
            to_play = problem.to_play if side == "pl" else 3 - problem.to_play
            for algo in algos:
                plain = Solver(problem).solve(to_play, algo=algo, max_nodes=BUDGET)
                assert plain.winner is not None, (problem.source, to_play, algo)
                totals[0] += plain.nodes
                for k, guide in enumerate(guides, 1):
                    guided = Solver(problem).solve(to_play, algo=algo, max_nodes=BUDGET, guide=guide)
                    case = (problem.source, to_play, algo, type(guide).__name__)
                    assert guided.winner == plain.winner, case
                    # the losing side has no move; a winner's move may differ, but it wins
                    assert (guided.move is None) == (plain.move is None), case
                    totals[k] += guided.nodes
    return totals


def test_guided_and_unguided_agree_on_the_own_problems(guide):
    totals = _same_verdicts(own_problems(), [guide])
    # a noisy prior reorders the moves: the node counts differ, the verdicts do not
    assert totals[1] != totals[0]


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_verdicts_whatever_the_order(algo):
    """Both searches keep their verdicts under a spiteful order too (WorstGuide)."""
    totals = _same_verdicts(own_problems(), [WorstGuide()], algos=(algo,))
    assert totals[1] != totals[0]


# A position where DFS's verdict depended on the move order (found by WorstGuide and by
# random priors): side-ten-ko after W bg, B bh, W ah, Black to play.  Unguided DFS and
# df-pn say White wins (the attacker is ko master); DFS in the order below said Black,
# from a table entry stored as exact (path-independent) that held on one path only: it
# counted a pass child's reliance as nothing and a pass loop as relying on its parent
# alone (solver/dfs.py's docstring).
KO_ORDER_LINE = [((1, 6), WHITE), ((1, 7), BLACK), ((0, 7), WHITE)]
KO_ORDER = {BLACK: [(1, 3), (2, 6), (1, 4), (0, 6), (0, 5), (0, 4), (0, 3)],
            WHITE: [(1, 4), (0, 5), (2, 6), (0, 4), (0, 3), (0, 6), (1, 3)]}


class OrderGuide:
    """A guide that ranks the moves of KO_ORDER first to last, at the weight that found the
    position."""

    weight = 0.25

    def fill(self, solver, prior):
        prior[:] = 0.0
        for color, moves in KO_ORDER.items():
            for rank, (x, y) in enumerate(moves):
                prior[color, solver.board.point(x, y)] = 1.0 - rank / 8


def _ko_order_verdicts(algo: str) -> tuple:
    problem = load_problem(OWN_PROBLEMS / "ko" / "side-ten-ko.sgf")

    def position():
        # the liberty heuristic's order, the one under which the position was found
        solver = Solver(problem, move_patterns=False)
        for (x, y), color in KO_ORDER_LINE:
            assert solver.play(x, y, color)
        return solver

    return position().solve(BLACK, algo=algo).winner, position().solve(BLACK, algo=algo, guide=OrderGuide()).winner


def test_dfpn_in_the_ko_order():
    assert _ko_order_verdicts("dfpn") == (WHITE, WHITE)


def test_dfs_in_the_ko_order():
    assert _ko_order_verdicts("dfs") == (WHITE, WHITE)


def test_guided_and_unguided_agree_on_the_shared_sample(guide, shared_problems):
    sample = [p for p in shared_problems
              if Solver(p).solve(p.to_play, max_nodes=SHARED_SAMPLE_NODES).winner is not None]
    assert len(sample) >= 30
    _same_verdicts(sample, [guide])


def test_guided_moves_win(guide):
    """A winning move found guided wins: DFS, unguided, finds the opponent lost after it."""
    for problem in own_problems():
        for algo in ("dfs", "dfpn"):
            verdict = Solver(problem).solve(problem.to_play, algo=algo, guide=guide)
            if verdict.winner != problem.to_play or verdict.move == "pass":
                continue
            solver = Solver(problem)
            assert solver.play(*verdict.move, problem.to_play)
            if not solver.target_captured():
                assert solver.solve(3 - problem.to_play).winner == problem.to_play, (problem.source, algo)


def test_solve_takes_a_guide_on_the_command_line(net_file, capsys):
    path = str(OWN_FILES[0])
    assert main(["solve", "--json", "--no-guide", path]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["guide"] is None
    problem = load_problem(path)
    assert plain["nodes"] == Solver(problem).solve(problem.to_play).nodes
    assert main(["solve", "--json", "--guide", str(net_file), path]) == 0
    guided = json.loads(capsys.readouterr().out)
    assert guided["guide"] == str(net_file) and guided["status"] == plain["status"]
    assert main(["solve", "--json", path]) == 0   # the shipped network by default
    shipped = json.loads(capsys.readouterr().out)
    assert shipped["guide"] == shipped_packed_file() and shipped["status"] == plain["status"]
    with pytest.raises(SystemExit):
        main(["solve", "--guide", str(net_file), "--no-guide", path])
    capsys.readouterr()
    with pytest.raises(SystemExit):   # a fade without a guide would change nothing: said
        main(["solve", "--no-guide", "--guide-fade", "1000", path])
    assert "--guide-fade needs a guide" in capsys.readouterr().err
    assert main(["solve", "--guide", str(net_file.parent / "missing.tsq"), path]) != 0
    assert "cannot load the network" in capsys.readouterr().err


def test_enclose_reads_the_same_question_with_a_guide(guide):
    """enclose with a guide: the same outcome, target, goal and winning moves on every open-board
    test position (the guide changes only the order of the solver's moves)."""
    from pipeline.enclose.outcome import enclose_file
    from tests.test_enclose import EXPECTED, MAX_NODES, OPEN

    for name in EXPECTED:
        data = (OPEN / f"{name}.sgf").read_bytes()
        plain, guided = (enclose_file(data, name, name, MAX_NODES, 40, guide=used).record
                         for used in (None, guide))
        assert {key: guided.get(key) for key in ("outcome", "target", "goal", "winning")} == \
               {key: plain.get(key) for key in ("outcome", "target", "goal", "winning")}, name
    assert guide.evaluations > 0


def test_the_enclose_command_guides_its_workers(net_file, tmp_path, capsys):
    """``tsumego enclose --guide`` reaches Beam's workers: the same answers in other node
    counts, the summary names the network, and records made unguided are made again."""
    from tests.test_enclose import OPEN

    source = tmp_path / "open"
    source.mkdir()
    for name in ("corner-kill-by-ko", "loose-corner-kill"):   # a few hundred nodes each
        (source / f"{name}.sgf").write_bytes((OPEN / f"{name}.sgf").read_bytes())
    out = tmp_path / "enclosed"

    def run(*options):
        assert main(["enclose", str(source), "--out", str(out), "--no-progress", *options]) == 0
        records = [json.loads(line) for line in (out / "enclose.jsonl").read_text().splitlines()]
        return records, (out / "summary.md").read_text(), capsys.readouterr().out

    plain, summary, _ = run("--no-guide")
    assert "unguided" in summary
    # (these small problems settle within enclose's unguided start: the guide from the first node)
    guided, summary, printed = run("--guide", str(net_file), "--guide-after", "0")
    assert "(0 done in earlier runs)" in printed and f"moves ordered by {net_file.name} " in summary
    assert f" weight {WEIGHTS['dense']} fade {FADE_NODES}, the guide called after 0 unguided nodes." in summary
    answers = ("problem", "outcome", "target", "goal", "winning")
    assert [{k: r.get(k) for k in answers} for r in guided] == [{k: r.get(k) for k in answers} for r in plain]
    assert [r["nodes"] for r in guided] != [r["nodes"] for r in plain]
    _, _, printed = run("--guide", str(net_file), "--guide-after", "0")
    assert "(2 done in earlier runs)" in printed
    _, summary, printed = run("--guide", str(net_file))
    assert "(0 done in earlier runs)" in printed   # made again with the guide's default start
    assert "unguided nodes" not in summary
