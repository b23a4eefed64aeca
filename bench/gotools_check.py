"""GoTools' verdicts against the solver's: an exactness check on Thomas Wolf's problems.

    python -m bench.gotools_check --gotools ../shared/gotools [--files lv1.1,lv2.3]
                                  [--sample N --seed S] [--max-nodes 2000000] [--seconds 10]
                                  [--algo dfs|dfpn|dfs-zone-table|dfpn-zone-table-prune|dfpn-sim-zone-table-prune
                                          |dfpn-time-pass]
                                  [--workers 1]
                                  [--list-unsettled 20] [--unimplied]

GoTools, Thomas Wolf's life-and-death program, comes with a database of enclosed
problems, each with GoTools' own verdicts (``../shared/gotools/README.md``, which
describes the format and how a verdict maps onto the project's question).  This
reads the level files, asks the solver the questions each verdict answers, and
compares.  GoTools is a second, independent solver: every disagreement is either a
misreading here or a fault of one of the two.

The format (:func:`parse_collection`): a header line, a count line, then problems,
each ``$ P<id>``, a position line (three characters a stone: ``A`` Black or ``?``
White, then the column and the row, each a capital letter whose code minus 64 is
the coordinate from 1), ``[xy]`` marks after the stones (a point of each chain
that tries to live), then the solution lines, the best first: the side to move,
``+``/``-`` (good or bad for it), the status ``l``, ``d``, ``lNd`` or ``dNl``, after
``#`` figures, and between the last two colons the line's moves (``@@`` a pass).
A line ending in a backslash goes on on the next one.  The positions are corners
and sides of a 19×19 board: a stone at column c, row r is the point (c - 1, r - 1).

The questions (:func:`expectations`).  A side's verdict is its first solution line.
The project asks about one target block, so each marked block is a target of its
own (marks on one block count once), and the defender is the marked stones'
colour.  GoTools counts ko threats, a finite number N for one side and none for
the other; the project's ko master retakes any ko without a threat, as often as it
likes, and its opponent never repeats a position.  So a verdict holds for a ko
master only where unbounded retakes cannot beat it: ``lNd``, ``dNl`` and ``d`` with
the attacker as ko master (unsafe), ``lNd``, ``dNl`` and ``l`` with the defender as
ko master (safe).  ``d`` says no finite number of the defender's threats saves the
chain, which unbounded retakes may still do (two kos the attacker takes in turn,
each retake costing the defender a threat in GoTools' count and nothing here:
tsumego.js, the reference solver, answers as the solver does); likewise ``l``
against the attacker as ko master (the README's exception).  Those two questions
are not implied; ``--unimplied`` asks them anyway and tabulates the answers
beside the others, never as disagreements.  With several marked blocks the
position lives when one of them does, so only death says something of each
block: ``d``, and a ko status once the attacker wins the ko, make every block
unsafe with the attacker as ko master; ``l`` asks nothing.

Each question is solved on a fresh solver (empty tables) with the project's search
area for its target (:mod:`solver.area`), with a node budget and a limit of the
solving thread's CPU time.  A problem the project cannot pose (a target whose wall
the area rule finds open, an illegal position, a line that cannot be read) is
counted as skipped with its reason, never dropped: read = checked + skipped.
Prints a table by level file, one by verdict and ko master, the skipped reasons and
every disagreement.  Each disagreement is put to tsumego.js, the reference solver,
on the position cut to its board (:func:`peer_status`): where it answers as the
solver does, the two solvers of the project's question agree and GoTools answers
another one (its ko threats counted, several kos at once), which the table says.
Exits 1 if any disagreement is not so explained (an unsettled answer is none).
"""
from __future__ import annotations

import bench.single_thread_blas   # noqa: F401  (before numpy loads its BLAS)

import argparse   # noqa: E402
import multiprocessing   # noqa: E402
import random   # noqa: E402
import re   # noqa: E402
import sys   # noqa: E402
import time   # noqa: E402
from collections import Counter, defaultdict   # noqa: E402
from dataclasses import dataclass, field   # noqa: E402
from pathlib import Path   # noqa: E402

import numpy as np   # noqa: E402

from pipeline.enclose.question import TIME_ALGO, TIME_OPTIONS   # noqa: E402
from pipeline.markdown import markdown_table   # noqa: E402
from solver import BLACK, EMPTY, WHITE, Problem, ProblemError, Solver, search_area   # noqa: E402
from solver.dfpn import SIMULATION_NODES   # noqa: E402
from solver.problem import reason_of   # noqa: E402

BOARD_SIZE = 19
COLOURS = {"A": BLACK, "?": WHITE}
LETTERS = {BLACK: "A", WHITE: "?"}
DEFAULT_MAX_NODES = 2_000_000
DEFAULT_SECONDS = 10.0

_STONES = re.compile(r"((?:[A?][A-Z]{2})*)((?:\[[A-Z]{2}\])*)")
_LINE = re.compile(r"([A?])([+-])([ld])(?:(\d+)([ld]))?#(.*)")
_PROBLEM = re.compile(r"\$ P(\S+)")
_COUNT = re.compile(r"\s*(\d+) problems\s*")


class GoToolsError(ValueError):
    """A problem (or a file) that cannot be read, with the reason."""


@dataclass(frozen=True)
class Line:
    """One solution line: ``side`` moves first, ``good`` for it or not, and the status:
    ``first`` (``l`` or ``d``), else ``first`` unless the other side has ``threats`` ko
    threats, then ``last``."""

    side: int
    good: bool
    first: str
    threats: int | None
    last: str | None
    moves: tuple[str, ...]
    text: str

    @property
    def kind(self) -> str:
        """``l``, ``d``, ``lNd`` or ``dNl``."""
        return self.first if self.threats is None else f"{self.first}N{self.last}"

    @property
    def status(self) -> str:
        """The status as the file writes it (``l``, ``d``, ``l2d``, ...)."""
        return self.first if self.threats is None else f"{self.first}{self.threats}{self.last}"

    @property
    def shown(self) -> str:
        """The line as a report names it: side, sign, status and moves."""
        return f"{self.text[:2]}{self.status} :{''.join(self.moves)}:"


@dataclass(frozen=True)
class GoToolsProblem:
    """One problem: its stones as (x, y, colour) from 0, the marked points, the lines."""

    file: str
    id: str
    stones: tuple[tuple[int, int, int], ...]
    marks: tuple[tuple[int, int], ...]
    lines: tuple[Line, ...]

    @property
    def name(self) -> str:
        return f"{self.file}:P{self.id}"

    def verdicts(self) -> dict[int, Line]:
        """Each listed side's verdict, its first line (the best), in the order listed."""
        first: dict[int, Line] = {}
        for line in self.lines:
            first.setdefault(line.side, line)
        return first


@dataclass
class Collection:
    """A level file: its header, the count it declares, the problems read and those that
    could not be (``faults``: (id, reason), each a problem read and skipped)."""

    file: str
    header: str
    count: int
    problems: list[GoToolsProblem] = field(default_factory=list)
    faults: list[tuple[str, str]] = field(default_factory=list)

    @property
    def read(self) -> int:
        return len(self.problems) + len(self.faults)


def point_letters(x: int, y: int) -> str:
    """A point as GoTools writes it: column and row, ``A`` the first."""
    return chr(x + 65) + chr(y + 65)


def _point(letters: str) -> tuple[int, int]:
    x, y = ord(letters[0]) - 65, ord(letters[1]) - 65
    if x >= BOARD_SIZE or y >= BOARD_SIZE:
        raise GoToolsError(f"point {letters} is off a {BOARD_SIZE}×{BOARD_SIZE} board")
    return x, y


def logical_lines(text: str) -> list[str]:
    """The text's lines, CR LF or LF, each ending in a backslash joined to the next."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        if raw.endswith("\\"):
            pending += raw[:-1]
            continue
        lines.append(pending + raw)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


def parse_position(text: str) -> tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...]]:
    """(stones, marks) of a position line."""
    match = _STONES.fullmatch(text.strip())
    if not match:
        raise GoToolsError(f"position line {text[:40]!r} is not stones (A or ?, column, row) then [xy] marks")
    body, marks_text = match.groups()
    stones, seen = [], set()
    for i in range(0, len(body), 3):
        x, y = _point(body[i + 1:i + 3])
        if (x, y) in seen:
            raise GoToolsError(f"point {body[i + 1:i + 3]} holds two stones")
        seen.add((x, y))
        stones.append((x, y, COLOURS[body[i]]))
    marks = tuple(dict.fromkeys(_point(m) for m in re.findall(r"\[([A-Z]{2})\]", marks_text)))
    if not marks:
        raise GoToolsError("no [xy] mark: no chain is said to try to live")
    return tuple(stones), marks


def parse_line(text: str) -> Line:
    """A solution line: side, sign, status, figures, ``:moves:``."""
    match = _LINE.fullmatch(text.strip())
    if not match:
        raise GoToolsError(f"solution line {text[:40]!r} is not side, +/-, status (l, d, lNd, dNl), #...")
    side, sign, first, threats, last, rest = match.groups()
    if threats is not None and last == first:
        raise GoToolsError(f"status {first}{threats}{last} turns into itself")
    moves_text = rest.rsplit(":", 2)[1] if rest.count(":") >= 2 else ""
    if len(moves_text) % 2 or not re.fullmatch(r"[A-Z@]*", moves_text):
        raise GoToolsError(f"the moves {moves_text[:40]!r} are not pairs of letters")
    moves = tuple(moves_text[i:i + 2] for i in range(0, len(moves_text), 2))
    return Line(COLOURS[side], sign == "+", first, None if threats is None else int(threats), last,
                moves, text.strip())


def parse_collection(text: str, file: str = "<gotools>") -> Collection:
    """A level file: header, count, problems.  A problem that cannot be read goes to
    ``faults`` with its reason; a file without the header and count raises GoToolsError."""
    lines = logical_lines(text)
    if len(lines) < 2:
        raise GoToolsError(f"{file}: no header and count lines")
    count = _COUNT.fullmatch(lines[1])
    if not count:
        raise GoToolsError(f"{file}: the second line {lines[1][:40]!r} is not '<n> problems'")
    collection = Collection(file, lines[0].strip(), int(count.group(1)))
    i = 2
    while i < len(lines):
        start = _PROBLEM.fullmatch(lines[i].strip())
        if not start:
            if lines[i].strip():
                collection.faults.append((f"line {i + 1}", f"{lines[i][:40]!r} is outside a problem"))
            i += 1
            continue
        pid = start.group(1)
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() and not _PROBLEM.fullmatch(lines[i].strip()):
            body.append(lines[i])
            i += 1
        try:
            if not body:
                raise GoToolsError("no position line")
            stones, marks = parse_position(body[0])
            solution = tuple(parse_line(line) for line in body[1:])
            if not solution:
                raise GoToolsError("no solution line")
            collection.problems.append(GoToolsProblem(file, pid, stones, marks, solution))
        except GoToolsError as exc:
            collection.faults.append((pid, str(exc)))
    return collection


def read_collection(path: str | Path) -> Collection:
    path = Path(path)
    return parse_collection(path.read_text(encoding="latin-1"), path.name)


def expectations(kind: str, several: bool, unimplied: bool = False) -> list[tuple[str, str | None]]:
    """(ko master, expected status) for each question a verdict of ``kind`` answers about
    one marked block; ``several``: more than one block is marked.  ``unimplied`` adds the
    questions the verdict does not answer for the project's ko master, expected None."""
    several_blocks = [] if several else [("defender", "safe")]
    implied = {"d": [("attacker", "unsafe")],
               "lNd": [("attacker", "unsafe"), *several_blocks],
               "dNl": [("attacker", "unsafe"), *several_blocks],
               "l": several_blocks}
    if kind not in implied:
        raise ValueError(f"unknown status kind {kind!r}")
    extra = {"d": [("defender", None)], "l": [] if several else [("attacker", None)]}.get(kind, [])
    return implied[kind] + (extra if unimplied else [])


@dataclass(frozen=True)
class Question:
    """One solve: a marked block as the target, a side first, a ko master, GoTools' answer."""

    problem: Problem
    target: tuple[int, int]
    side: int
    ko_master: str
    expected: str | None
    line: Line
    several: bool


def board_problem(problem: GoToolsProblem, target: tuple[int, int], side: int) -> Problem:
    """The project's problem: the stones on a 19×19 board, ``target`` marked, ``side`` to play."""
    stones = np.zeros((BOARD_SIZE, BOARD_SIZE), dtype=np.int8)
    for x, y, colour in problem.stones:
        stones[y, x] = colour
    return Problem(source=problem.name, size=BOARD_SIZE, stones=stones, target=target, to_play=side)


def questions(problem: GoToolsProblem, unimplied: bool = False) -> tuple[list[Question], list[str]]:
    """Every question the problem's verdicts answer (``unimplied``: and those they do not,
    :func:`expectations`), and why a marked block or a verdict gives none (an empty list
    of questions with reasons: the problem is skipped)."""
    reasons = []
    empty = board_problem(problem, problem.marks[0], BLACK)
    board = empty.board()
    for y, x in zip(*np.nonzero(empty.stones)):
        if board.liberties(int(x), int(y), cap=1) == 0:
            return [], [f"illegal position: the block at {point_letters(int(x), int(y))} has no liberties"]
    colours = {int(empty.stones[y, x]) for x, y in problem.marks}
    if EMPTY in colours:
        return [], ["a mark on an empty point"]
    if len(colours) > 1:   # the defender is the marked stones' colour (White's in the database)
        return [], ["marks on stones of both colours"]
    blocks: dict[frozenset, tuple[int, int]] = {}
    for mark in problem.marks:
        blocks.setdefault(frozenset(board.block(*mark)), mark)
    targets = []
    for mark in blocks.values():
        try:
            search_area(board_problem(problem, mark, BLACK))
            targets.append(mark)
        except ProblemError as exc:
            reasons.append(f"a marked block's search area: {exc.reason.split(':')[0]}")
    several = len(blocks) > 1
    asked: list[Question] = []
    for side, line in problem.verdicts().items():
        pairs = expectations(line.kind, several, unimplied)
        if not any(expected for _, expected in pairs):
            reasons.append(f"several marked blocks, {LETTERS[side]} first {line.kind}: nothing said of one block")
        for target in targets:
            for ko_master, expected in pairs:
                asked.append(Question(board_problem(problem, target, side), target, side, ko_master,
                                      expected, line, several))
    return asked, reasons


@dataclass(frozen=True)
class Answer:
    """A question's answer: the solver's status (``unknown`` when unsettled), move, cost."""

    file: str
    id: str
    target: tuple[int, int]
    side: int
    ko_master: str
    expected: str | None
    kind: str
    several: bool
    line: str
    status: str
    move: str
    nodes: int
    seconds: float

    @property
    def settled(self) -> bool:
        return self.status != "unknown"

    @property
    def implied(self) -> bool:
        """GoTools' verdict answers the question (:func:`expectations`)."""
        return self.expected is not None

    @property
    def agrees(self) -> bool:
        return self.settled and self.status == self.expected

    @property
    def disagrees(self) -> bool:
        return self.settled and self.implied and self.status != self.expected


@dataclass
class Outcome:
    """A problem's answers, or why it was skipped."""

    file: str
    id: str
    answers: list[Answer]
    skipped: str | None = None
    notes: list[str] = field(default_factory=list)


# --algo: the search and its Solver options (the zone table, solver.zone_table; pruning by null
# moves' zones and the table in df-pn, solver.dfpn_zones; enclose's time pass, as it reads)
ALGOS = {"dfs": ("dfs", {}), "dfpn": ("dfpn", {}), "dfs-zone-table": ("dfs", {"zone_table": True}),
         "dfpn-zone-table-prune": ("dfpn", {"zone_table": True, "zone_pruning": True}),
         "dfpn-sim-zone-table-prune": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "zone_table": True,
                                                "zone_pruning": True}),
         "dfpn-time-pass": (TIME_ALGO, TIME_OPTIONS)}


def check_problem(problem: GoToolsProblem, algo: str = "dfs", max_nodes: int = DEFAULT_MAX_NODES,
                  seconds: float = DEFAULT_SECONDS, unimplied: bool = False) -> Outcome:
    """Every question of one problem solved, each on a fresh solver."""
    try:
        asked, reasons = questions(problem, unimplied)
    except Exception as exc:   # a fault nobody foresaw: counted, the run goes on
        return Outcome(problem.file, problem.id, [], skipped=reason_of(exc))
    if not any(q.expected for q in asked):
        return Outcome(problem.file, problem.id, [], skipped=reasons[0] if reasons else "no verdict")
    answers = []
    search, options = ALGOS[algo]
    for q in asked:
        solver = Solver(q.problem, **options)
        until = time.thread_time() + seconds if seconds > 0 else None
        verdict = solver.solve(q.side, ko_master=q.ko_master, algo=search, max_nodes=max_nodes,
                               cpu_until=until)
        move = ("pass" if verdict.move == "pass" else point_letters(*verdict.move)) if verdict.move else "-"
        answers.append(Answer(problem.file, problem.id, q.target, q.side, q.ko_master, q.expected, q.line.kind,
                              q.several, q.line.shown, verdict.status, move, verdict.nodes, verdict.seconds))
    return Outcome(problem.file, problem.id, answers, notes=reasons)


PEER_SECONDS = 120.0


def peer_status(problem: GoToolsProblem, answer: Answer, seconds: float = PEER_SECONDS) -> str:
    """tsumego.js's status (``safe``, ``unsafe``) for ``answer``'s question, on the corner cut
    to its board (:mod:`bench.peer.cut`), or why it has none."""
    import tempfile

    from bench.peer import tsumego_js
    from bench.peer.cut import cut_sgf

    full = board_problem(problem, answer.target, answer.side)
    sgf, why = cut_sgf(full.stones, answer.side, answer.target)
    if sgf is None:
        return f"not asked: {why}"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"P{answer.id}.sgf"
        path.write_text(sgf)
        try:
            row = tsumego_js.solve_files([path], ko_master=answer.ko_master, file_timeout=seconds)[0]
        except Exception as exc:   # no Node, no cache: said, and the disagreement stays unexplained
            return f"not asked: {reason_of(exc)}"
    return row.get("status") or f"none: {row.get('error')}"


def _check(task) -> Outcome:
    return check_problem(*task)


def level_files(folder: str | Path, names: str | None = None) -> list[Path]:
    """The level files (``lv*``) of ``folder``, or those ``names`` lists (comma-separated)."""
    folder = Path(folder)
    if names:
        paths = [folder / name.strip() for name in names.split(",") if name.strip()]
        missing = [str(p) for p in paths if not p.is_file()]
        if missing:
            raise FileNotFoundError(f"no such level file: {', '.join(missing)}")
        return paths

    def order(path: Path):
        return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]
    return sorted((p for p in folder.glob("lv*") if p.is_file()), key=order)


def tables(collections: list[Collection], outcomes: list[Outcome], list_unsettled: int = 20,
           peers: dict | None = None) -> list[str]:
    """The report's lines: by file, by verdict, skipped reasons, disagreements, unsettled.

    The counts by file are of the implied questions; the unimplied ones (``--unimplied``)
    appear in the table by verdict only, with what the solver answered."""
    out = []
    by_file: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_file[outcome.file].append(outcome)
    faults = {c.file: len(c.faults) for c in collections}
    rows, totals = [], np.zeros(8, dtype=np.int64)
    total_seconds = 0.0
    for collection in collections:
        done = by_file.get(collection.file, [])
        answers = [a for o in done for a in o.answers if a.implied]
        skipped = sum(o.skipped is not None for o in done) + faults[collection.file]
        checked = sum(o.skipped is None for o in done)
        figures = [checked + skipped, checked, skipped, len(answers), sum(a.agrees for a in answers),
                   sum(a.disagrees for a in answers), sum(not a.settled for a in answers),
                   sum(a.nodes for a in answers)]
        seconds = sum(a.seconds for a in answers)
        if figures[0]:
            rows.append([collection.file, *figures[:7], f"{figures[7]:,}", f"{seconds:.1f}"])
        totals += figures
        total_seconds += seconds
    rows.append(["all", *totals[:7].tolist(), f"{int(totals[7]):,}", f"{total_seconds:.1f}"])
    out += markdown_table(["file", "read", "checked", "skipped", "questions", "agree", "disagree", "unsettled",
                           "nodes", "solve s"], rows)
    answers = [a for o in outcomes for a in o.answers]
    groups: dict[tuple, list[Answer]] = defaultdict(list)
    for a in answers:
        groups[("several" if a.several else "one", a.kind, a.ko_master, a.expected or "not implied")].append(a)
    rows = [[blocks, kind, ko_master, expected, len(group), sum(a.status == "safe" for a in group),
             sum(a.status == "unsafe" for a in group), sum(not a.settled for a in group),
             sum(a.disagrees for a in group)]
            for (blocks, kind, ko_master, expected), group in sorted(groups.items())]
    out += ["", *markdown_table(["marked blocks", "GoTools", "ko master", "expected", "questions", "ours safe",
                                 "ours unsafe", "unsettled", "disagree"], rows, align="llllrrrrr")]
    reasons = Counter(o.skipped for o in outcomes if o.skipped is not None)
    for collection in collections:
        reasons.update(f"unreadable: {reason}" for _, reason in collection.faults)
    if reasons:
        out += ["", *markdown_table(["skipped because", "problems"], sorted(reasons.items(), key=lambda kv: -kv[1]),
                                    align="lr")]
    notes = Counter(note for o in outcomes if o.skipped is None for note in o.notes)
    if notes:
        out += ["", *markdown_table(["questions left out of checked problems", "problems"],
                                    sorted(notes.items(), key=lambda kv: -kv[1]), align="lr")]
    differ = [a for a in answers if a.disagrees]
    peers = peers or {}
    explained = sum(peers.get(id(a)) == a.status for a in differ)
    out += ["", f"disagreements: {len(differ)}"
            + (f", {explained} where tsumego.js answers as the solver does (GoTools answers another "
               f"question there)" if differ else "")]
    if differ:
        out += markdown_table(["problem", "file", "target", "to play", "ko master", "GoTools' line", "expected",
                               "ours", "our move", "nodes", "tsumego.js"],
                              [[f"P{a.id}", a.file, point_letters(*a.target), LETTERS[a.side], a.ko_master, a.line,
                                a.expected, a.status, a.move, a.nodes, peers.get(id(a), "not asked")]
                               for a in differ], align="lllllllllrl")
    unsettled = [a for a in answers if a.implied and not a.settled]
    out += ["", f"unsettled: {len(unsettled)}"
            + (f" (the first {list_unsettled} listed)" if len(unsettled) > list_unsettled else "")]
    if unsettled and list_unsettled:
        out += markdown_table(["problem", "file", "target", "to play", "ko master", "GoTools' line", "nodes",
                               "solve s"],
                              [[f"P{a.id}", a.file, point_letters(*a.target), LETTERS[a.side], a.ko_master, a.line,
                                a.nodes, f"{a.seconds:.1f}"] for a in unsettled[:list_unsettled]],
                              align="llllllrr")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gotools", default="../shared/gotools", help="the folder of the level files")
    parser.add_argument("--files", help="comma-separated level files of that folder (default: every lv*)")
    parser.add_argument("--sample", type=int, default=0, help="this many problems drawn from the files (0: all)")
    parser.add_argument("--seed", type=int, default=0, help="the draw's seed")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES, help="node budget a solve (0: none)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                        help="CPU seconds a solve (the solving thread's; 0: no limit)")
    parser.add_argument("--algo", choices=tuple(ALGOS), default="dfs")
    parser.add_argument("--workers", type=int, default=1, help="processes solving (forked)")
    parser.add_argument("--list-unsettled", type=int, default=20, help="unsettled questions listed at most")
    parser.add_argument("--unimplied", action="store_true",
                        help="also ask what the verdicts do not answer (d, defender ko master; l, attacker ko "
                             "master) and tabulate the answers, never as disagreements")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    try:
        collections = [read_collection(path) for path in level_files(args.gotools, args.files)]
    except (OSError, GoToolsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not collections:
        print(f"error: no level file (lv*) in {args.gotools}", file=sys.stderr)
        return 2
    problems = [p for c in collections for p in c.problems]
    declared = sum(c.count for c in collections)
    print(f"{len(collections)} level files, {sum(c.read for c in collections)} problems read "
          f"({declared} declared), {sum(len(c.faults) for c in collections)} unreadable")
    if args.sample:
        drawn = set(random.Random(args.seed).sample(range(len(problems)), min(args.sample, len(problems))))
        problems = [p for i, p in enumerate(problems) if i in drawn]
        for c in collections:   # a sample leaves the unreadable ones out too
            c.faults = []
        print(f"{len(problems)} drawn with seed {args.seed}")
    print(f"{args.algo}, {args.max_nodes:,} nodes and {args.seconds:g} CPU s a solve, {args.workers} worker(s)",
          flush=True)
    if problems:   # compile (or load) the search before the workers fork
        warm = next((q for p in problems for q in questions(p, args.unimplied)[0]), None)
        if warm is not None:
            search, options = ALGOS[args.algo]
            Solver(warm.problem, **options).solve(warm.side, algo=search, max_nodes=10_000)
    tasks = [(p, args.algo, args.max_nodes, args.seconds, args.unimplied) for p in problems]
    outcomes: list[Outcome] = []
    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            outcomes = list(pool.imap(_check, tasks, chunksize=8))
    else:
        outcomes = [_check(task) for task in tasks]
    by_id = {(p.file, p.id): p for p in problems}
    peers = {id(a): peer_status(by_id[o.file, o.id], a) for o in outcomes for a in o.answers if a.disagrees}
    print()
    print(*tables(collections, outcomes, args.list_unsettled, peers), sep="\n")
    print(f"\nwall time {time.perf_counter() - started:.1f} s")
    unexplained = [a for o in outcomes for a in o.answers if a.disagrees and peers[id(a)] != a.status]
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
