"""solve-all: the trees of status-changing moves, the Beam pipeline's files, resuming, workers."""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from cli.main import main
from pipeline.expand import NodeBudgetExceeded, TreeSettings, expand_tree
from pipeline.formats.solution_tree import subproblems_of, tree_text
from pipeline.formats.subproblem import load_subproblem
from pipeline.validate import check_file
from solver import DEFAULT_MAX_AREA, Solver, load_problem, parse_problem

# Hand-made enclosed problems (White's group is the target, Black's wall is thick):
# CORNER_NINE's status depends on who moves first, so both of its trees grow;
# CORNER_EIGHT lives with White first and only Black-first has a tree;
# CORNER_SIX is too small for --min-area 7 and stays a root.
CORNER_NINE = "(;FF[4]GM[1]SZ[9]AB[fa][fb][fc][ad][bd][cd][dd][ed][fd]AW[ea][eb][bc][cc][dc][ec]MA[bc])"
CORNER_EIGHT = ("(;FF[4]GM[1]SZ[9]AB[fa][fb][fc][ad][bd][cd][dd][ed][fd]"
                "AW[ea][eb][ac][bc][cc][dc][ec]MA[ac]PL[B])")
CORNER_SIX = "(;FF[4]GM[1]SZ[9]AB[ea][eb][dc][ec][ad][bd][cd][dd]AW[da][db][ac][bc][cc]MA[ac])"
OWN_PROBLEMS = Path(__file__).resolve().parents[1] / "sgf-problems"
BAD_FILES = {
    "bad/no-target.sgf": "(;FF[4]GM[1]SZ[9]AB[fa][fb]AW[ea][eb]PL[B])",
    "bad/not-sgf.sgf": "this is not SGF",
}


def _problems(folder: Path) -> Path:
    files = {"corner/nine.sgf": CORNER_NINE, "corner/eight.sgf": CORNER_EIGHT,
             "corner/six.sgf": CORNER_SIX, "copy/nine.sgf": CORNER_NINE, **BAD_FILES}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def _solve_all(problems: Path, out: Path, *extra: str, capsys=None) -> str:
    code = main(["solve-all", "--problems", str(problems), "--out", str(out), "--max-depth", "20",
                 "--min-area", "7", "--no-progress", *extra])
    # a folder holding BAD_FILES: each rejected (named on stderr), the rest expanded, exit code 1
    assert code == (1 if any((problems / name).exists() for name in BAD_FILES) else 0)
    return capsys.readouterr().out if capsys else ""


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One single-process run over the hand-made problems."""
    problems = _problems(tmp_path_factory.mktemp("problems"))
    out = tmp_path_factory.mktemp("out") / "solve-all"
    main(["solve-all", "--problems", str(problems), "--out", str(out), "--no-progress"])
    return problems, out


# -- the tree --------------------------------------------------------------

def _walk(node, depth=0):
    yield node, depth
    for child in node.children:
        yield from _walk(child, depth + 1)


@pytest.mark.parametrize("first", ["attacker", "defender"])
def test_every_move_of_the_tree_flips_the_status_and_is_by_the_side_it_helps(first):
    problem = parse_problem(CORNER_NINE.encode(), "nine", require_to_play=False)
    to_play = problem.attacker if first == "attacker" else problem.defender
    expansion = expand_tree(problem, to_play, max_depth=20, min_area=7)
    nodes = list(_walk(expansion.root))
    assert len(nodes) > 20
    for node, _ in nodes:
        for child in node.children:
            assert child.safe != node.safe
            assert child.color == (problem.attacker if node.safe else problem.defender)
    # min-area: only positions with at least 7 empty area points have children
    assert all(node.available_moves >= 7 for node, _ in nodes if node.children)
    # the status with PL first depends on who PL is here, so the two roots differ
    other = problem.defender if to_play == problem.attacker else problem.attacker
    assert expansion.root.safe != expand_tree(problem, other, max_depth=0).root.safe


def test_depth_limit_and_small_areas_stop_the_tree():
    problem = parse_problem(CORNER_NINE.encode(), "nine", require_to_play=False)
    shallow = expand_tree(problem, problem.attacker, max_depth=1, min_area=7)
    assert shallow.root.children and all(not c.children for c in shallow.root.children)
    assert expand_tree(problem, problem.attacker, max_depth=20, min_area=10).root.count() == 1


@pytest.mark.parametrize("cap", [1, 5, 12])
def test_max_subproblems_keeps_the_shallow_levels_of_the_whole_tree(cap):
    problem = parse_problem(CORNER_NINE.encode(), "nine", require_to_play=False)
    whole = expand_tree(problem, problem.attacker, max_depth=20, min_area=7)
    capped = expand_tree(problem, problem.attacker, max_depth=20, min_area=7, max_subproblems=cap)
    assert whole.root.count() > 12 and not whole.capped
    assert capped.capped and capped.root.count() == cap

    def levels(expansion):
        by_depth = {}
        for node, depth in _walk(expansion.root):
            by_depth.setdefault(depth, []).append((node.move, node.safe))
        return [by_depth[depth] for depth in sorted(by_depth)]

    # breadth first: every level but the last is whole; the last is a part of the whole's
    whole_levels, capped_levels = levels(whole), levels(capped)
    assert capped_levels[:-1] == whole_levels[:len(capped_levels) - 1]
    assert set(capped_levels[-1]) <= set(whole_levels[len(capped_levels) - 1])
    # a cap the tree never reaches changes nothing
    roomy = expand_tree(problem, problem.attacker, max_depth=20, min_area=7,
                        max_subproblems=whole.root.count() + 1)
    assert not roomy.capped and levels(roomy) == whole_levels


def test_tree_file_replays_to_positions_labelled_as_a_fresh_solve_labels_them():
    problem = parse_problem(CORNER_NINE.encode(), "nine", require_to_play=False)
    text = "".join(tree_text(expand_tree(problem, side, max_depth=20, min_area=7), "corner/nine")
                   for side in (problem.attacker, problem.defender))
    subs = list(subproblems_of(text.encode(), "nine.sgf"))
    assert len({sub.name() for sub in subs}) == len(subs)   # each position once per tree
    for sub in subs[::5]:
        fresh = Solver(parse_problem(sub.to_sgf().encode(), sub.name()))
        verdict = fresh.solve(sub.to_play)
        assert (verdict.status == "safe") == sub.safe
        assert fresh.area_size == sub.available_moves
        assert sub.source == "corner/nine"


def _left_out_capturable(problem_area: set, fresh: Solver, sub) -> bool:
    """Whether the file's own area leaves out a stone of ``problem_area`` that can be captured."""
    target_block = set(fresh.board.block(*sub.target))
    return any(not fresh.area.safe[y, x] and (x, y) not in target_block
               for x, y in problem_area.difference(fresh.area.points))


def test_positions_whose_own_area_can_capture_more_are_labelled_over_that_area(tmp_path):
    # In this problem the attacker can cut defender stones off from the target:
    # read back from its file, such a position leaves them out of its area, so
    # once captured their points are no moves, while the problem's area makes
    # them moves.  Where that changes the label, the node must not be kept.
    problem = load_problem(OWN_PROBLEMS / "large-areas" / "corner-fourteen-points-live.sgf",
                           require_to_play=False)
    expansion = expand_tree(problem, problem.defender, max_depth=20, min_area=7)
    assert expansion.label_changed > 0
    problem_area = set(Solver(problem).area.points)
    subs = list(subproblems_of(tree_text(expansion, "large-areas/fourteen").encode(), "fourteen.sgf"))
    checked = 0
    for i, sub in enumerate(subs):
        text = sub.to_sgf()
        fresh = Solver(parse_problem(text.encode(), sub.name()))
        if _left_out_capturable(problem_area, fresh, sub) or i % 20 == 0:
            path = tmp_path / f"{sub.name()}.sgf"
            path.write_text(text)
            check = check_file(path, "dfs", max_nodes=0)   # the label and the TR move
            assert check.verdict == "agree", (sub.name(), check.detail)
            checked += 1
    assert checked > len(subs) // 20


def test_a_solve_over_the_node_budget_abandons_the_tree():
    problem = parse_problem(CORNER_NINE.encode(), "nine", require_to_play=False)
    with pytest.raises(NodeBudgetExceeded, match="node budget of 3 nodes"):
        expand_tree(problem, problem.attacker, max_nodes=3)


# -- the pipeline's steps, called one by one ---------------------------------

RABBITY_SIX = OWN_PROBLEMS / "eye-shapes" / "rabbity-six-side-kill.sgf"
STEP_SETTINGS = TreeSettings(max_depth=20, min_area=7, max_nodes=0, max_area=DEFAULT_MAX_AREA, algo="dfs")


def test_plan_expand_and_finish_grow_a_problem_into_its_tree_file(tmp_path):
    from pipeline.solve_all_pipeline import SIDES, Expand, Layout, Plan, finish

    layout = Layout(str(tmp_path))
    problem_id = "eye-shapes/rabbity-six-side-kill"
    work = list(Plan(layout, STEP_SETTINGS).process((problem_id, str(RABBITY_SIX))))
    # nothing grown yet: one work item per side, carrying the problem's bytes
    assert [(pid, side, data) for pid, _, side, data in work] == [
        (problem_id, side, RABBITY_SIX.read_bytes()) for side in SIDES]

    grown = [out for item in work for out in Expand(layout, STEP_SETTINGS).process(item)]
    problem = load_problem(RABBITY_SIX, require_to_play=False)
    expected = {side: tree_text(expand_tree(problem, color, max_depth=20, min_area=7), problem_id).encode()
                for side, color in zip(SIDES, (problem.attacker, problem.defender))}
    assert grown == [(problem_id, (side, expected[side])) for side in SIDES]
    for side in SIDES:   # each side is kept on disk until the tree file is written
        assert Path(layout.partial(problem_id, side)).read_bytes() == expected[side]

    # the sides come grouped in any order; the tree file has the attacker's first
    (tree,) = finish((problem_id, [grown_side for _, grown_side in reversed(grown)]), layout)
    assert tree == (problem_id, expected["attacker"] + expected["defender"])
    assert Path(layout.tree(problem_id)).read_bytes() == tree[1]
    assert not any(Path(layout.partial(problem_id, side)).exists() for side in SIDES)

    # planned again, the problem is finished: its tree goes on as it is
    (again,) = Plan(layout, STEP_SETTINGS).process((problem_id, str(RABBITY_SIX)))
    assert (again.tag, again.value) == ("finished", tree)


def test_plan_repeats_a_current_rejection_and_expand_drops_an_outdated_one(tmp_path, monkeypatch):
    from pipeline import rejected_sides
    from pipeline.solve_all_pipeline import Expand, Layout, Plan, side_position

    layout = Layout(str(tmp_path))
    problem_id = "eye-shapes/rabbity-six-side-kill"
    problem = load_problem(RABBITY_SIX, require_to_play=False)
    attacker = layout.rejected(problem_id, "attacker")
    rejected_sides.remember(attacker, side_position(problem, "attacker"), "kept reason")
    dead, work = list(Plan(layout, STEP_SETTINGS).process((problem_id, str(RABBITY_SIX))))
    assert (dead.tag, dead.value["side"], dead.value["reason"]) == ("dead", "attacker", "kept reason")
    assert work[2] == "defender"

    monkeypatch.setattr(rejected_sides, "code_fingerprint", lambda: "other code")
    work = list(Plan(layout, STEP_SETTINGS).process((problem_id, str(RABBITY_SIX))))
    assert [item[2] for item in work] == ["attacker", "defender"]
    assert not Path(attacker).exists()   # outdated: dropped before the side is searched again
    rejected_sides.remember(attacker, side_position(problem, "attacker"), "kept reason")
    (grown,) = Expand(layout, STEP_SETTINGS).process(work[0])
    assert grown[1][0] == "attacker" and not Path(attacker).exists()


def test_plan_sends_an_unreadable_problem_to_the_dead_letters(tmp_path):
    from pipeline.solve_all_pipeline import Layout, Plan

    bad = tmp_path / "no-target.sgf"
    bad.write_text(BAD_FILES["bad/no-target.sgf"])
    (dead,) = Plan(Layout(str(tmp_path / "out")), STEP_SETTINGS).process(("no-target", str(bad)))
    assert dead.tag == "dead"
    assert dead.value["problem"] == "no-target" and dead.value["side"] is None
    assert "MA" in dead.value["reason"]


def test_replay_and_write_position_turn_a_tree_into_subproblem_files(tmp_path):
    from pipeline.solve_all_pipeline import Layout, Replay, WritePosition

    layout = Layout(str(tmp_path))
    problem = load_problem(RABBITY_SIX, require_to_play=False)
    data = tree_text(expand_tree(problem, problem.attacker, max_depth=20, min_area=7), "rabbity").encode()
    expanded, *nodes = Replay(layout).process(("rabbity", data))
    assert (expanded.tag, expanded.value) == ("expanded", "rabbity")
    subs = list(subproblems_of(data))
    assert len(nodes) == len(subs) > 1
    assert [name for name, _ in nodes] == [sub.name() for sub in subs]

    (tmp_path / "subproblems").mkdir()
    stale = tmp_path / "subproblems" / "gone.sgf"
    stale.write_text("(;)")
    write = WritePosition(layout)
    for (name, node), sub in zip(nodes, subs):
        # the same position from two trees: the smaller (problem id, index) gives the file
        other = (("zzz", 0), "(;other)", node[2], node[3])
        assert list(write.process((name, {"nodes": [other, node], "on_disk": []}))) == [
            (sub.available_moves, sub.safe, 2)]
        assert load_subproblem(Path(layout.subproblem(name))).source == "rabbity"
    assert list(write.process(("gone.sgf", {"nodes": [], "on_disk": [None]}))) == []
    assert not stale.exists()


# -- the pipeline's files --------------------------------------------------

def test_outputs_one_file_per_distinct_position_and_counts_duplicates(run):
    problems, out = run
    names = set()
    nodes = 0
    for tree in sorted((out / "trees").rglob("*.sgf")):
        subs = list(subproblems_of(tree.read_bytes(), str(tree)))
        nodes += len(subs)
        names |= {sub.name() for sub in subs}
    written = {p.name for p in (out / "subproblems").glob("*.sgf")}
    assert written == names
    stats = json.loads((out / "stats.json").read_text())
    assert stats["subproblems"]["distinct"] == len(names)
    assert stats["subproblems"]["tree_nodes"] == nodes
    # copy/nine is corner/nine again: every one of its positions is a duplicate
    copy = list(subproblems_of((out / "trees/copy/nine.sgf").read_bytes()))
    assert stats["subproblems"]["duplicates"] >= len(copy)
    for sub in copy:
        kept = load_subproblem(out / "subproblems" / sub.name())
        assert kept.source == "copy/nine"   # the smallest problem id gives the file
        assert kept.safe == sub.safe
    table = sum(row["safe"] + row["unsafe"] for row in stats["by_area"])
    assert table == len(names)
    text = (out / "stats.md").read_text()
    rows = [f"| {row['area']} | {row['safe']} | {row['unsafe']} |" for row in stats["by_area"]]
    assert "| size | safe | unsafe |\n|---:|---:|---:|\n" + "\n".join(rows) + "\n" in text


def test_bad_problems_go_to_the_dead_letter_file_and_the_counts_add_up(run):
    problems, out = run
    dead = [json.loads(line) for line in (out / "dead-letter.jsonl").read_text().splitlines()]
    assert {row["problem"] for row in dead} == {"bad/no-target", "bad/not-sgf"}
    reasons = {row["problem"]: row["reason"] for row in dead}
    assert "MA" in reasons["bad/no-target"]
    assert "not a valid SGF" in reasons["bad/not-sgf"]
    counts = json.loads((out / "stats.json").read_text())["problems"]
    assert counts == {"read": 6, "expanded": 4, "rejected": 2}
    assert not list((out / "partial").rglob("*.sgf"))


def test_a_problem_over_the_node_budget_is_rejected_with_that_reason(tmp_path):
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems/nine.sgf").write_text(CORNER_NINE)
    out = tmp_path / "out"
    _solve_all(tmp_path / "problems", out, "--max-nodes", "3")
    dead = [json.loads(line) for line in (out / "dead-letter.jsonl").read_text().splitlines()]
    assert {row["side"] for row in dead} == {"attacker", "defender"}
    assert all("exceeded the node budget of 3 nodes" in row["reason"] for row in dead)
    assert json.loads((out / "stats.json").read_text())["problems"] == {
        "read": 1, "expanded": 0, "rejected": 1}
    assert not list(out.rglob("*.sgf"))


def test_a_rerun_does_not_search_a_rejected_side_again_unless_the_code_or_problem_changed(tmp_path, capsys,
                                                                                           monkeypatch):
    from pipeline import rejected_sides

    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "nine.sgf").write_text(CORNER_NINE)
    out = tmp_path / "out"
    first = _solve_all(problems, out, "--max-nodes", "3", capsys=capsys)
    assert "(0 sides not searched again" in first
    kept = {p.name: json.loads(p.read_text()) for p in (out / "rejected").glob("*.json")}
    assert sorted(kept) == ["nine.attacker.json", "nine.defender.json"]
    assert all("exceeded the node budget of 3 nodes" in row["reason"] for row in kept.values())
    dead, stats = (out / "dead-letter.jsonl").read_text(), (out / "stats.json").read_text()

    again = _solve_all(problems, out, "--max-nodes", "3", capsys=capsys)
    assert "(2 sides not searched again" in again and " 0 solves, 0 search nodes" in again
    assert (out / "dead-letter.jsonl").read_text() == dead and (out / "stats.json").read_text() == stats

    # other code searches again (and keeps the rejection it reaches, under its own fingerprint)
    monkeypatch.setattr(rejected_sides, "code_fingerprint", lambda: "other code")
    other = _solve_all(problems, out, "--max-nodes", "3", capsys=capsys)
    assert "(0 sides not searched again" in other and " 0 solves" not in other
    assert (out / "dead-letter.jsonl").read_text() == dead
    assert {json.loads(p.read_text())["code"] for p in (out / "rejected").glob("*.json")} == {"other code"}

    # an edited problem is searched again; a removed one's rejections are dropped
    (problems / "nine.sgf").write_text(CORNER_EIGHT)
    edited = _solve_all(problems, out, "--max-nodes", "3", capsys=capsys)
    assert "(0 sides not searched again" in edited
    (problems / "nine.sgf").unlink()
    (problems / "six.sgf").write_text(CORNER_SIX)
    _solve_all(problems, out, "--max-nodes", "3", capsys=capsys)
    assert not list((out / "rejected").glob("nine.*"))   # the removed problem's rejections went with it


def test_a_kept_rejection_is_outdated_by_another_position_or_unreadable():
    from pipeline import rejected_sides

    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "side.json")
        assert rejected_sides.recall(path) is None
        rejected_sides.remember(path, "position", "over budget")
        assert rejected_sides.recall(path, "position") == rejected_sides.recall(path) == "over budget"
        assert rejected_sides.recall(path, "another position") is None
        Path(path).write_text("{not json")
        assert rejected_sides.recall(path) is None


def test_the_code_fingerprint_covers_the_search_and_the_modules_expand_imports():
    from pipeline import rejected_sides

    root = Path(__file__).resolve().parents[1]
    names = {str(p.relative_to(root)) for p in rejected_sides.code_files()}
    assert {"solver/dfs.py", "solver/movegen.py", "solver/move_patterns.npz", "pipeline/expand.py",
            "pipeline/orientation.py", "pipeline/symmetries.py", "pipeline/formats/records.py",
            "pipeline/formats/__init__.py"} <= names
    assert "pipeline/features.py" not in names and "pipeline/solve_all_pipeline.py" not in names

    with tempfile.TemporaryDirectory() as folder:   # a module imported by the name of its package
        module = Path(folder) / "module.py"
        module.write_text("from pipeline.beam import storage\nimport pipeline.paths\nimport numpy\n")
        found = {str(p.relative_to(root)) for p in rejected_sides._pipeline_imports(module) if p != module}
    assert {"pipeline/__init__.py", "pipeline/beam/__init__.py", "pipeline/beam/storage.py",
            "pipeline/paths.py"} <= found


def test_labels_agree_with_tsumego_js(run):
    from bench.peer.tsumego_js import PeerUnavailable, solve_files

    _, out = run
    files = sorted((out / "subproblems").glob("*.sgf"))
    try:
        results = solve_files(files, ko_master="attacker", timeout=120)
    except PeerUnavailable as exc:
        pytest.skip(str(exc))
    assert len(results) == len(files) > 100
    disagreements = [(r["file"], r.get("error") or r["status"]) for r, path in zip(results, files)
                     if r.get("status") != ("safe" if load_subproblem(path).safe else "unsafe")]
    assert disagreements == []


def test_rerun_skips_finished_problems_and_rebuilds_what_is_missing(run, tmp_path, capsys):
    problems, first = run
    out = tmp_path / "solve-all"
    shutil.copytree(first, out)
    before = _files(out)
    # a run interrupted after one side of corner/nine was grown
    (out / "trees/corner/nine.sgf").unlink()
    for sub in list((out / "subproblems").glob("*.sgf"))[:5]:
        sub.unlink()
    problem = load_problem(problems / "corner/nine.sgf", require_to_play=False)
    side = tree_text(expand_tree(problem, problem.attacker, max_depth=20, min_area=7), "corner/nine")
    (out / "partial/corner").mkdir(parents=True, exist_ok=True)
    (out / "partial/corner/nine.attacker.sgf").write_text(side)

    summary = _solve_all(problems, out, capsys=capsys)
    assert "expanded 4 (3 in earlier runs)" in summary
    assert _files(out) == before


def test_a_rerun_after_problems_changed_gives_the_files_of_a_fresh_run(run, tmp_path):
    problems, first = run
    changed = tmp_path / "problems"
    shutil.copytree(problems, changed)
    (changed / "copy/nine.sgf").unlink()                     # its positions now come from corner/nine
    (changed / "corner/eight.sgf").write_text(CORNER_SIX)    # edited in place: its trees are outdated
    out = tmp_path / "rerun"
    shutil.copytree(first, out)
    _solve_all(changed, out)
    fresh = tmp_path / "fresh"
    _solve_all(changed, fresh)
    assert _files(out) == _files(fresh)
    assert not (out / "trees/copy/nine.sgf").exists()


# The first move of a tree, its TR and its AS damaged (the roots stay intact).
@pytest.mark.parametrize("damage", [
    (r";([BW])\[[a-s]{2}\]", r";\1[]", "W[] is not a point"),
    (r"(;[BW]\[[a-s]{2}\]TS\[\d\]AS\[\d+\])TR\[[a-s]{2}\]", r"\1TR[ss]", "TR[ss] is off the board"),
    (r"(;[BW]\[[a-s]{2}\]TS\[\d\])AS\[\d+\]", r"\1AS[seven]", "AS[seven] is not a count")])
def test_a_damaged_tree_file_goes_to_the_dead_letters(run, tmp_path, capsys, damage):
    import re

    problems, first = run
    out = tmp_path / "solve-all"
    shutil.copytree(first, out)
    tree = out / "trees/corner/nine.sgf"
    pattern, replacement, reason = damage
    tree.write_text(re.sub(pattern, replacement, tree.read_text(), count=1))
    summary = _solve_all(problems, out, capsys=capsys)
    assert "problems read 6 = expanded 3 (4 in earlier runs) + rejected 3" in summary
    dead = [json.loads(line) for line in (out / "dead-letter.jsonl").read_text().splitlines()]
    assert any(row["file"] == str(tree) and reason in row["reason"] for row in dead)


def test_other_settings_in_the_same_folder_are_refused(run, capsys):
    problems, out = run
    assert main(["solve-all", "--problems", str(problems), "--out", str(out), "--max-depth", "3",
                 "--no-progress"]) == 1
    assert "other settings" in capsys.readouterr().err


def test_multi_processing_run_writes_the_same_files(run, tmp_path):
    problems, first = run
    out = tmp_path / "solve-all"
    _solve_all(problems, out, "--direct_num_workers", "2", "--direct_running_mode", "multi_processing")
    assert _files(out) == _files(first)


def test_max_subproblems_caps_each_side_and_is_part_of_the_settings(run, tmp_path, capsys):
    problems, uncapped = run
    assert "max_subproblems" not in json.loads((uncapped / "settings.json").read_text())
    out = tmp_path / "capped"
    assert main(["solve-all", "--problems", str(problems), "--out", str(out), "--max-subproblems", "3",
                 "--no-progress"]) == 1   # BAD_FILES among the problems
    assert json.loads((out / "settings.json").read_text())["max_subproblems"] == 3
    assert "trees stopped at --max-subproblems" in capsys.readouterr().out
    stats = json.loads((out / "stats.json").read_text())
    # two sides a problem, at most 3 nodes a side
    assert 0 < stats["subproblems"]["tree_nodes"] <= 2 * 3 * stats["problems"]["expanded"]
    assert main(["solve-all", "--problems", str(problems), "--out", str(out), "--no-progress"]) == 1
    assert "other settings" in capsys.readouterr().err
