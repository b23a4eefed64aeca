"""Problems that hold the same position, across collections: so no figure tests on a trained one.

A problem is held out only if no copy of its position is trained on.  Copies
are common: books reprint each other's problems (the same corner under another
number, mirrored, colours swapped), and the enclosed reference problems were
made from the same books, a wall added around the printed stones.  Two tests
find them:

- **open-board problems** (``tsumego enclose``'s input) with the same stones
  under one of the 8 symmetries of the 19×19 board, colours swapped or not;
- **an enclosed problem and an open-board one**: the open problem's stones, so
  turned and moved along the edges it leans on (the enclosed board may be
  smaller than 19×19), all lie on the enclosed problem's stones, and make up
  at least ``MIN_SHARE`` of them (the rest being the wall).  On the reference
  problems the copies found hold 50% to 100% of the enclosed problem's
  stones; a small open shape inside a larger problem is another problem.

``groups`` joins every pair into groups of problem ids (the ids ``solve-all``
and ``features`` give: the file's path below the folder, without ``.sgf``),
for ``tsumego crossval --same-problems``, which keeps each group in one fold.
``--held-out`` names problems held out elsewhere (a list, or the test split of
a features folder) and ``--copies-out`` writes the other problems of their
groups, their copies, as a list for ``tsumego features --exclude-problems``.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipeline.formats.records import count_problems
from pipeline.problem_list import read_problem_list
from pipeline.symmetries import transform

MIN_SHARE = 0.5     # an open problem's stones must make up this share of the enclosed one's
NEAR_EDGE = 2       # stones this close to an edge lean on it (as the enclose frame's box)
SIZE = 19


@dataclass(frozen=True)
class Position:
    """A problem's stones ``[y, x]`` (EMPTY, BLACK, WHITE) and its id."""

    problem: str
    stones: np.ndarray


def problem_id(path: Path, folder: Path) -> str:
    """The id ``solve-all`` and ``features`` give a problem: its path below ``folder``, without .sgf."""
    return path.relative_to(folder).with_suffix("").as_posix()


def swapped(stones: np.ndarray) -> np.ndarray:
    return np.where(stones == 0, 0, 3 - stones).astype(stones.dtype)


def open_key(stones: np.ndarray) -> bytes:
    """The same for every turn and mirror of the board and both colourings of its stones."""
    return min(transform(s, k).tobytes() for s in (stones, swapped(stones)) for k in range(8))


def masks(stones: np.ndarray) -> tuple[int, int]:
    """Each colour's stones as bits of a 19×19 board (the array lies at its top-left)."""
    black = white = 0
    for y, x in zip(*np.nonzero(stones)):
        bit = 1 << (int(y) * SIZE + int(x))
        if stones[y, x] == 1:
            black |= bit
        else:
            white |= bit
    return black, white


def placements(stones: np.ndarray):
    """The open problem's stones (19×19) turned into the top-left corner, both ways across its
    diagonal, and moved along every side it does not lean on: (black bits, white bits) each."""
    ys, xs = np.nonzero(stones)
    if ys.max() > SIZE - 1 - ys.min():
        stones = stones[::-1]
    if xs.max() > SIZE - 1 - xs.min():
        stones = stones[:, ::-1]
    for turned in (stones, stones.T):
        ys, xs = np.nonzero(turned)
        points = np.stack([ys, xs], axis=1)
        colors = turned[ys, xs]
        moves_y = [0] if ys.min() <= NEAR_EDGE else range(-int(ys.min()), SIZE - int(ys.max()))
        moves_x = [0] if xs.min() <= NEAR_EDGE else range(-int(xs.min()), SIZE - int(xs.max()))
        for dy in moves_y:
            for dx in moves_x:
                placed = np.zeros((SIZE, SIZE), np.int8)
                placed[points[:, 0] + dy, points[:, 1] + dx] = colors
                yield masks(placed)


def enclosed_masks(stones: np.ndarray) -> list[tuple[int, int, int]]:
    """The enclosed problem under its 8 symmetries, each at the top-left of a 19×19 board:
    (black bits, white bits, stones)."""
    found = []
    for k in range(8):
        turned = transform(stones, k)
        size = turned.shape[0]
        board = np.zeros((SIZE, SIZE), np.int8)
        board[:size, :size] = turned
        black, white = masks(board)
        found.append((black, white, int(np.count_nonzero(turned))))
    return found


def contained_share(open_stones: np.ndarray, enclosed: list[tuple[int, int, int]]) -> float:
    """The largest share of the enclosed problem's stones that the open problem's stones make up
    where they all lie on them (colours swapped or not); 0.0 where they never do."""
    count = int(np.count_nonzero(open_stones))
    best = 0.0
    for black, white in placements(open_stones):
        for enclosed_black, enclosed_white, total in enclosed:
            same = black & enclosed_black == black and white & enclosed_white == white
            other = black & enclosed_white == black and white & enclosed_black == white
            if same or other:
                best = max(best, count / total)
    return best


def copies(open_positions: list[Position], enclosed_positions: list[Position],
           min_share: float = MIN_SHARE) -> list[tuple[str, str, str]]:
    """Pairs (problem, problem, how: ``same stones`` or ``in the enclosed problem``)."""
    pairs = []
    by_key: dict[bytes, str] = {}
    for position in open_positions:
        key = open_key(position.stones)
        if key in by_key:
            pairs.append((by_key[key], position.problem, "same stones"))
        else:
            by_key[key] = position.problem
    turned = [(position.problem, enclosed_masks(position.stones)) for position in enclosed_positions]
    for position in open_positions:
        count = int(np.count_nonzero(position.stones))
        for problem, enclosed in turned:
            if count < min_share * enclosed[0][2]:
                continue
            if contained_share(position.stones, enclosed) >= min_share:
                pairs.append((problem, position.problem, "in the enclosed problem"))
    return pairs


def groups(pairs: list[tuple[str, str, str]]) -> list[list[str]]:
    """The problems joined by the pairs, each group sorted, the groups sorted."""
    parent: dict[str, str] = {}

    def root(problem: str) -> str:
        while parent.setdefault(problem, problem) != problem:
            parent[problem] = parent[parent[problem]]
            problem = parent[problem]
        return problem

    for first, second, _ in pairs:
        parent[root(first)] = root(second)
    joined: dict[str, list[str]] = {}
    for problem in parent:
        joined.setdefault(root(problem), []).append(problem)
    return sorted(sorted(group) for group in joined.values())


def copies_of(joined: list[list[str]], held_out: set[str]) -> list[str]:
    """The problems grouped with a ``held_out`` one that are not held out themselves, sorted."""
    return sorted(problem for group in joined if held_out.intersection(group)
                  for problem in group if problem not in held_out)


def held_out_problems(source: str) -> set[str]:
    """The problem ids of a list file, or of a features folder's test split."""
    if Path(source).is_dir():
        return set(count_problems(source, ("test",)))
    return set(read_problem_list(source))


def sgf_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.sgf") if path.is_file())


def read_positions(folder: str, reader) -> tuple[list[Position], list[str]]:
    """Every SGF file below ``folder`` read by ``reader(path) -> stones``; the rejected files'
    one-line reasons beside them."""
    from solver.problem import reason_of

    root = Path(folder)
    positions, rejected = [], []
    for path in sgf_files(root):
        try:
            positions.append(Position(problem_id(path, root), reader(path)))
        except Exception as exc:   # a file that cannot be read: one line naming it, and on
            rejected.append(f"{path}: {reason_of(exc)}")
    return positions, rejected


def read_open(path: Path) -> np.ndarray:
    from pipeline.enclose.reader import read_open_problem

    return read_open_problem(path.read_bytes(), str(path)).stones


def read_enclosed(path: Path) -> np.ndarray:
    from solver import load_problem

    return load_problem(path, require_to_play=False).stones


def cmd_same_positions(args) -> int:
    """Read both kinds of folders, find the copies, write the groups; one line per rejected file."""
    import json

    if bool(args.held_out) != bool(args.copies_out):
        args.parser.error("--held-out and --copies-out go together")
    held_out = held_out_problems(args.held_out) if args.held_out else set()
    open_positions, enclosed_positions, rejected = [], [], []
    for folders, reader, into in ((args.open, read_open, open_positions),
                                  (args.enclosed, read_enclosed, enclosed_positions)):
        for folder in folders:
            positions, failed = read_positions(folder, reader)
            into.extend(positions)
            rejected.extend(failed)
    for line in rejected:
        print(f"error: {line}", file=sys.stderr)
    pairs = copies(open_positions, enclosed_positions, args.min_share)
    joined = groups(pairs)
    report = {
        "read": len(open_positions) + len(enclosed_positions) + len(rejected),
        "open": len(open_positions), "enclosed": len(enclosed_positions), "rejected": len(rejected),
        "min_share": args.min_share,
        "pairs": [{"problems": [first, second], "how": how} for first, second, how in pairs],
        "groups": joined,
    }
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    print(f"read {report['read']} files = {len(open_positions)} open-board + {len(enclosed_positions)} "
          f"enclosed + {len(rejected)} rejected; {len(pairs)} copies join {sum(map(len, joined))} "
          f"problems into {len(joined)} groups -> {args.out}", file=sys.stderr)
    if args.copies_out:
        listed = copies_of(joined, held_out)
        with open(args.copies_out, "w") as f:
            f.write(f"# copies of the {len(held_out)} problems of {args.held_out} (tsumego same-positions)\n")
            f.write("".join(problem + "\n" for problem in listed))
        print(f"{len(listed)} problems copy one of the {len(held_out)} held out -> {args.copies_out}",
              file=sys.stderr)
    return 1 if rejected else 0


def register(commands) -> None:
    parser = commands.add_parser(
        "same-positions", help="find problems that hold the same position (for folds that keep copies together)")
    parser.add_argument("--open", nargs="*", default=[], metavar="DIR",
                        help="folders of open-board problems (tsumego enclose's input)")
    parser.add_argument("--enclosed", nargs="*", default=[], metavar="DIR",
                        help="folders of enclosed problems (sgf-problems' format, with their wall)")
    parser.add_argument("--out", required=True, help="JSON file: the pairs found and their groups")
    parser.add_argument("--min-share", type=float, default=MIN_SHARE,
                        help="an open problem inside an enclosed one must hold this share of its stones "
                             f"(default {MIN_SHARE})")
    parser.add_argument("--held-out", metavar="FILE|DIR",
                        help="problems held out elsewhere: a list (one id a line) or a features folder "
                             "(its test split's problems)")
    parser.add_argument("--copies-out", metavar="FILE",
                        help="with --held-out: write the problems grouped with a held-out one, one id a "
                             "line (for tsumego features --exclude-problems)")
    parser.set_defaults(run=cmd_same_positions, parser=parser)
