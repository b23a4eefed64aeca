"""``tsumego generate``: random enclosed problems whose first move matters.

Each candidate is drawn from its own random stream, seeded by (seed, candidate
number), so the same seed always gives the same files:

1. grow a random region from the corner point or from a point of the top side,
   favouring points near the edge and next to the region (compact shapes),
   until it holds the drawn number of inner points (points whose eight
   neighbours are all in the region or off-board);
2. surround it with a closed attacker wall (every point next to the region,
   diagonals included, so the thick-wall search area is exactly the region and
   no ``SQ`` stubs are ever needed); the region's rim becomes the defender's
   stones, with a few random gaps, and random stones of both colours go inside;
3. turn the board by one of its eight symmetries and pick the colours;

   with ``--style open`` step 2 draws the position as a book prints it
   instead: attacker stones on only part of the ring round the region (gaps
   where the defender may cut or push out) and a few one line further out,
   and the open position is then closed by the frame of ``tsumego enclose``
   (:func:`pipeline.enclose.frame.enclose`), which hugs the stones and keeps
   the liberties of any attacker block the defender may capture inside the
   problem.  The wall then follows the drawn stones, as a book problem's
   frame does, instead of the ring round the grown region (30 problems of
   each style: RESULTS.md, "Generated problems in the open style");
4. keep the problem only if it is non-trivial - the defender moving first
   keeps the target, the attacker moving first captures it - with the
   attacker as ko master, as the solver settles it within a node budget, and
   if no symmetric or colour-swapped copy of it was written already.

Every written problem lists all the winning first moves of the side to play as
root variations.  Files of an earlier run in the same folder (``seed*-*.sgf``)
are removed first, so the folder holds exactly one run.  ``DIR/summary.json`` counts the candidates tried, written and
rejected by reason, the distinct positions and region outlines, and the
histogram of area sizes (empty points of the search area).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.budgets import GENERATE_MAX_NODES
from pipeline.enclose.frame import enclose
from pipeline.errors import CommandError
from pipeline.formats.sgf_writer import collection, escape_text, game_tree, node, stone_points
from pipeline.symmetries import transform, transform_point
from solver import BLACK, EMPTY, WHITE, Problem, ProblemError, Solver
from solver.board import color_letter, color_of_letter
from solver.problem import sgf_point

BOARD_SIZE = 13
KINDS = ("corner", "side")
STYLES = ("walled", "open")
# Open style: the share of the ring round the region that gets an attacker stone is drawn
# from this range (the rest are gaps), and each point one line further out gets one at this rate.
OPEN_RING_RATE = (0.55, 0.9)
OPEN_OUTER_RATE = 0.3
# Regions stay within this many lines of the edge (0: the first line).
MAX_DEPTH_FROM_EDGE = 4
# Side regions stay between these columns, so their wall never reaches a corner;
# corner regions stay within this many lines of their corner.
SIDE_COLUMNS = (2, BOARD_SIZE - 3)
CORNER_EXTENT = 8
RIM_GAP_RATE = 0.15
MAX_INSIDE_ATTACKER_RATE = 0.4
MAX_INSIDE_DEFENDER_RATE = 0.2
DEFAULT_NODE_BUDGET = GENERATE_MAX_NODES   # (pipeline/budgets.py)
# Give up when this many candidates per requested problem did not suffice.
MAX_CANDIDATES_PER_PROBLEM = 500

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
EIGHT = ORTHOGONAL + ((1, 1), (1, -1), (-1, 1), (-1, -1))
NAME = {BLACK: "Black", WHITE: "White"}
# A candidate's random stream draws an index 0..7 and turns the board by the
# symmetry (of pipeline.symmetries) this table gives for it.  The table is part
# of what a seed means: another order would turn every seed's problems otherwise.
DRAWN_SYMMETRY = (0, 3, 7, 4, 1, 6, 2, 5)


@dataclass(frozen=True)
class Settings:
    kind: str = "mixed"          # corner, side or mixed
    min_area: int = 4
    max_area: int = 12
    to_play: str = "random"      # B, W or random
    node_budget: int = DEFAULT_NODE_BUDGET
    style: str = "walled"        # walled (a closed wall round the region) or open (a framed book-like position)


@dataclass(frozen=True)
class Candidate:
    """A drawn position before the solver has seen it."""

    kind: str
    stones: np.ndarray           # int8 [y, x]
    target: tuple[int, int]
    to_play: int
    region: np.ndarray           # bool [y, x]: the enclosed region (defender side of the wall)


class Rejected(Exception):
    """A candidate that is not written; the message is the reason counted in the summary."""


# -- drawing a candidate --------------------------------------------------------

def _on_board(x, y):
    return 0 <= x < BOARD_SIZE and 0 <= y < BOARD_SIZE


def _neighbours(x, y, steps=ORTHOGONAL):
    for dx, dy in steps:
        if _on_board(x + dx, y + dy):
            yield x + dx, y + dy


def _edge_depth(kind, x, y):
    return min(x, y) if kind == "corner" else y


def _allowed(kind, x, y):
    if _edge_depth(kind, x, y) > MAX_DEPTH_FROM_EDGE:
        return False
    if kind == "corner":
        return max(x, y) < CORNER_EXTENT
    return SIDE_COLUMNS[0] <= x <= SIDE_COLUMNS[1]


def _inner(region, x, y):
    return all(q in region for q in _neighbours(x, y, EIGHT))


def _fill_holes(region):
    """Add to the region every point the outside cannot reach (a wall stone there could never live)."""
    far = (BOARD_SIZE - 1, BOARD_SIZE - 1)
    outside = {far}
    todo = [far]
    while todo:
        p = todo.pop()
        for q in _neighbours(*p):
            if q not in region and q not in outside:
                outside.add(q)
                todo.append(q)
    return {(x, y) for x in range(BOARD_SIZE) for y in range(BOARD_SIZE) if (x, y) not in outside}


def grow_region(rng, kind, inner_points):
    """A 4-connected region touching the edge with at least ``inner_points`` inner points."""
    start = (0, 0) if kind == "corner" else (BOARD_SIZE // 2, 0)
    region = {start}
    while sum(_inner(region, *p) for p in region) < inner_points:
        frontier = sorted({q for p in region for q in _neighbours(*p)
                           if q not in region and _allowed(kind, *q)})
        if not frontier:
            raise Rejected("region cannot grow")
        # Near the edge and next to many region points: compact shapes hugging the edge.
        weights = np.array([(sum(r in region for r in _neighbours(*q)) / (1 + _edge_depth(kind, *q))) ** 2
                            for q in frontier])
        region.add(frontier[rng.choice(len(frontier), p=weights / weights.sum())])
        region = _fill_holes(region)
    return region


def _blocks(stones, color):
    seen = set()
    for y, x in zip(*np.nonzero(stones == color)):
        p = (int(x), int(y))
        if p in seen:
            continue
        block = {p}
        todo = [p]
        while todo:
            q = todo.pop()
            for r in _neighbours(*q):
                if r not in block and stones[r[1], r[0]] == color:
                    block.add(r)
                    todo.append(r)
        seen |= block
        yield block


def draw_candidate(rng, settings: Settings) -> Candidate:
    kind = settings.kind if settings.kind != "mixed" else KINDS[rng.integers(len(KINDS))]
    inner_points = int(rng.integers(settings.min_area, settings.max_area + 1))
    region = grow_region(rng, kind, inner_points)
    defender = BLACK if rng.random() < 0.5 else WHITE
    attacker = 3 - defender
    attacker_rate = rng.uniform(0, MAX_INSIDE_ATTACKER_RATE)
    defender_rate = rng.uniform(0, MAX_INSIDE_DEFENDER_RATE)
    if settings.to_play == "random":
        to_play = BLACK if rng.random() < 0.5 else WHITE
    else:
        to_play = color_of_letter(settings.to_play)
    symmetry = DRAWN_SYMMETRY[int(rng.integers(8))]

    stones = np.zeros((BOARD_SIZE, BOARD_SIZE), dtype=np.int8)
    for x, y in sorted(region, key=lambda p: (p[1], p[0])):
        draw = rng.random()
        if not _inner(region, x, y):
            stones[y, x] = EMPTY if draw < RIM_GAP_RATE else defender
        elif draw < attacker_rate:
            stones[y, x] = attacker
        elif draw < attacker_rate + defender_rate:
            stones[y, x] = defender
        if settings.style == "walled":
            for q in _neighbours(x, y, EIGHT):
                if q not in region:
                    stones[q[1], q[0]] = attacker
    if settings.style == "open":
        stones, region = _open_surroundings(rng, stones, region, attacker)

    defender_blocks = sorted(_blocks(stones, defender), key=lambda b: (-len(b), min(b)))
    if not defender_blocks:
        raise Rejected("no defender stones")
    for color in (BLACK, WHITE):
        for block in _blocks(stones, color):
            if not any(stones[q[1], q[0]] == EMPTY for p in block for q in _neighbours(*p)):
                raise Rejected("a block without liberties")
    target = min(defender_blocks[0], key=lambda p: (p[1], p[0]))
    mask = np.zeros_like(stones, dtype=bool)
    for x, y in region:
        mask[y, x] = True
    return Candidate(kind, transform(stones, symmetry), transform_point(*target, symmetry, BOARD_SIZE),
                     to_play, transform(mask, symmetry))


def _open_surroundings(rng, stones, region, attacker):
    """Attacker stones on part of the ring round the region and a few beyond it, then the
    frame of ``enclose`` round the largest defender block; returns (stones, framed region)."""
    ring = sorted({q for p in region for q in _neighbours(*p, EIGHT) if q not in region},
                  key=lambda p: (p[1], p[0]))
    outer = sorted({q for p in ring for q in _neighbours(*p) if q not in region and q not in ring},
                   key=lambda p: (p[1], p[0]))
    ring_rate = rng.uniform(*OPEN_RING_RATE)
    for (x, y), draw in zip(ring, rng.random(len(ring))):
        if draw < ring_rate:
            stones[y, x] = attacker
    for (x, y), draw in zip(outer, rng.random(len(outer))):
        if draw < OPEN_OUTER_RATE:
            stones[y, x] = attacker
    defender_blocks = sorted(_blocks(stones, 3 - attacker), key=lambda b: (-len(b), min(b)))
    if not defender_blocks:
        raise Rejected("no defender stones")
    target = min(defender_blocks[0], key=lambda p: (p[1], p[0]))
    frame = enclose(stones, target)
    return frame.stones, set(frame.region)


# -- solving and checking -------------------------------------------------------

def winning_first_moves(solver: Solver, color: int, node_budget: int) -> list[tuple[int, int]]:
    """Every point where ``color`` moving first wins (row by row); raises Rejected if a solve runs out."""
    wins = []
    for x, y in solver.moves():
        if not solver.play(x, y, color):
            continue
        try:
            if solver.target_captured():
                wins.append((x, y))
                continue
            reply = solver.solve(3 - color, max_nodes=node_budget)
            if reply.winner is None:
                raise Rejected("unsettled within the node budget")
            if reply.winner == color:
                wins.append((x, y))
        finally:
            solver.take_back()
    return wins


def check_candidate(candidate: Candidate, settings: Settings) -> tuple[Problem, int, list]:
    """The problem, its area size and the winning first moves; raises Rejected with the reason."""
    problem = Problem(source="generated", size=BOARD_SIZE, stones=candidate.stones,
                      target=candidate.target, to_play=candidate.to_play)
    try:
        solver = Solver(problem)
    except ProblemError as error:
        raise Rejected(error.reason) from None
    area = solver.area_size
    if not settings.min_area <= area <= settings.max_area:
        raise Rejected("area outside the size range")
    first = {}
    for side in (problem.defender, problem.attacker):
        first[side] = solver.solve(side, max_nodes=settings.node_budget).winner
        if first[side] is None:
            raise Rejected("unsettled within the node budget")
    if first[problem.defender] == first[problem.attacker]:
        raise Rejected("alive either way" if first[problem.defender] == problem.defender
                       else "dead either way")
    moves = winning_first_moves(solver, problem.to_play, settings.node_budget)
    if not moves:
        raise Rejected("only a pass wins")
    return problem, area, moves


def canonical_key(stones: np.ndarray, target_block: np.ndarray, to_play: int) -> bytes:
    """The same bytes for a position, its 8 symmetries and its colour swap."""
    keys = []
    for symmetry in range(8):
        turned = transform(stones, symmetry)
        block = transform(target_block, symmetry).tobytes()
        for swap in (False, True):
            colors = np.where(turned == EMPTY, EMPTY, 3 - turned).astype(np.int8) if swap else turned
            player = 3 - to_play if swap else to_play
            keys.append(colors.tobytes() + block + bytes([player]))
    return min(keys)


def outline_key(region: np.ndarray) -> bytes:
    return min(transform(region, s).tobytes() for s in range(8))


def problem_sgf(problem: Problem, name: str, comment: str, moves) -> str:
    """Problem text in the corpus format: stones row by row, one root variation per move
    (a variation even when there is one move, as the corpus writes them)."""
    pl = color_letter(problem.to_play)
    root = node([("FF", ["4"]), ("GM", ["1"]), ("SZ", [str(problem.size)]), ("GN", [escape_text(name)]),
                 ("C", [escape_text(comment)]), ("PL", [pl]), ("AB", stone_points(problem.stones, BLACK)),
                 ("AW", stone_points(problem.stones, WHITE)), ("MA", [sgf_point(*problem.target)])])
    return collection([game_tree([root], [game_tree([node([(pl, [sgf_point(*m)])])]) for m in moves])])


# -- the run --------------------------------------------------------------------

def generate(count: int, seed: int, out: Path, settings: Settings, progress: bool = True) -> dict:
    """Write ``count`` problems into ``out``; returns the summary (also written to summary.json)."""
    from pipeline.progress import progress_bar

    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("seed*-*.sgf"):
        stale.unlink()
    rejected: dict[str, int] = {}
    areas: dict[int, int] = {}
    kinds: dict[str, int] = {}
    roles: dict[str, int] = {}
    positions: set[bytes] = set()
    outlines: set[bytes] = set()
    candidates = 0
    limit = MAX_CANDIDATES_PER_PROBLEM * count
    with progress_bar(total=count, desc="generate", unit="problem", disable=not progress) as bar:
        while len(positions) < count and candidates < limit:
            rng = np.random.default_rng([seed, candidates])
            candidates += 1
            try:
                candidate = draw_candidate(rng, settings)
                problem, area, moves = check_candidate(candidate, settings)
                target_block = np.zeros_like(candidate.stones, dtype=bool)
                for x, y in problem.board().block(*problem.target):
                    target_block[y, x] = True
                key = canonical_key(candidate.stones, target_block, candidate.to_play)
                if key in positions:
                    raise Rejected("duplicate of a written problem")
            except Rejected as reason:
                rejected[str(reason)] = rejected.get(str(reason), 0) + 1
                continue
            index = len(positions)
            positions.add(key)
            outlines.add(outline_key(candidate.region))
            areas[area] = areas.get(area, 0) + 1
            kinds[candidate.kind] = kinds.get(candidate.kind, 0) + 1
            role = "live" if problem.to_play == problem.defender else "kill"
            roles[role] = roles.get(role, 0) + 1
            name = f"generated seed {seed} problem {index} (candidate {candidates - 1})"
            comment = f"{candidate.kind.capitalize()} problem: {NAME[problem.to_play]} to {role}."
            path = out / f"seed{seed}-{index:05d}.sgf"
            path.write_text(problem_sgf(problem, name, comment, moves))
            bar.update(1)
            bar.set_postfix(tried=candidates, refresh=False)  # no forced redraw: a log gets a line a minute
    summary = {
        "seed": seed,
        "requested": count,
        "settings": {"kind": settings.kind, "style": settings.style, "min_area": settings.min_area,
                     "max_area": settings.max_area, "to_play": settings.to_play,
                     "node_budget": settings.node_budget},
        "candidates": candidates,
        "written": len(positions),
        "rejected": dict(sorted(rejected.items())),
        "distinct_positions": len(positions),
        "distinct_outlines": len(outlines),
        "area_histogram": {str(a): areas[a] for a in sorted(areas)},
        "by_kind": dict(sorted(kinds.items())),
        "by_task": dict(sorted(roles.items())),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def print_summary(summary: dict, seconds: float) -> None:
    print(f"candidates tried: {summary['candidates']}, written: {summary['written']} "
          f"of {summary['requested']}, in {seconds:.1f} s")
    for reason, n in summary["rejected"].items():
        print(f"  rejected, {reason}: {n}")
    print(f"distinct positions (up to symmetry and colour swap): {summary['distinct_positions']}; "
          f"distinct region outlines: {summary['distinct_outlines']}")
    print("by kind: " + ", ".join(f"{k} {n}" for k, n in summary["by_kind"].items())
          + "; by task: " + ", ".join(f"{k} {n}" for k, n in summary["by_task"].items()))
    print("area size histogram: " + ", ".join(f"{a}: {n}" for a, n in summary["area_histogram"].items()))


def cmd_generate(args) -> int:
    if not 1 <= args.min_area <= args.max_area:
        args.parser.error(f"need 1 <= --min-area ({args.min_area}) <= --max-area ({args.max_area})")
    if args.seed < 0 or args.count < 0:
        args.parser.error("--seed and --count must not be negative")
    settings = Settings(kind=args.kind, min_area=args.min_area, max_area=args.max_area,
                        to_play=args.to_play, node_budget=args.max_nodes, style=args.style)
    started = time.perf_counter()
    summary = generate(args.count, args.seed, Path(args.out), settings)
    print_summary(summary, time.perf_counter() - started)
    print(f"summary -> {Path(args.out) / 'summary.json'}")
    if summary["written"] < args.count:
        raise CommandError(f"only {summary['written']} of {args.count} problems after "
                           f"{summary['candidates']} candidates")
    return 0


def register(commands) -> None:
    parser = commands.add_parser("generate", help="write random enclosed problems whose first move matters")
    parser.add_argument("--count", type=int, required=True, help="problems to write")
    parser.add_argument("--seed", type=int, required=True, help="same seed, same files")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--kind", choices=("corner", "side", "mixed"), default="mixed")
    parser.add_argument("--style", choices=STYLES, default=Settings.style,
                        help="walled: a closed wall round the region; open: stones round it with gaps, "
                             "closed by the frame of tsumego enclose")
    parser.add_argument("--min-area", type=int, default=Settings.min_area,
                        help="fewest empty points in the search area")
    parser.add_argument("--max-area", type=int, default=Settings.max_area,
                        help="most empty points in the search area")
    parser.add_argument("--to-play", choices=("B", "W", "random"), default="random",
                        help="colour of the side to play (the defender's colour is drawn at random)")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_NODE_BUDGET,
                        help="node budget per solve; candidates that exceed it are rejected")
    parser.set_defaults(run=cmd_generate)
