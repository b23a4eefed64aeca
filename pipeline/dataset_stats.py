"""The subproblem data set in numbers: safe and unsafe positions by area size.

The table is the original pipeline's ``npm run stats`` (tsumego.js): how
many distinct positions have a safe or an unsafe target, per ``AS`` (empty
points of the search area), as a markdown table.  Above it go the problem
counts (read = expanded + rejected) and how many tree nodes were duplicates
of a position already counted.  :class:`StatsAccumulator` is
built one position at a time and merged across workers, so a Beam
``CombineFn`` can wrap it; :func:`to_json` and :func:`to_markdown` render it
the same way on every run.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from pipeline.markdown import markdown_table


@dataclass
class StatsAccumulator:
    """Counts over distinct positions; ``nodes`` counts every tree node, duplicates included."""

    nodes: int = 0
    by_area: Counter = field(default_factory=Counter)   # (area, safe) -> distinct positions

    def add(self, area: int, safe: bool, copies: int) -> None:
        self.nodes += copies
        self.by_area[(area, safe)] += 1

    def merge(self, other: StatsAccumulator) -> None:
        self.nodes += other.nodes
        self.by_area.update(other.by_area)

    @property
    def distinct(self) -> int:
        return sum(self.by_area.values())

    def rows(self) -> list[tuple[int, int, int]]:
        """(area, safe, unsafe) for every area from 0 to the largest seen."""
        largest = max((area for area, _ in self.by_area), default=-1)
        return [(area, self.by_area[(area, True)], self.by_area[(area, False)])
                for area in range(largest + 1)]


def summary(stats: StatsAccumulator, problems: dict, settings: dict) -> dict:
    safe = sum(n for (_, is_safe), n in stats.by_area.items() if is_safe)
    return {
        "settings": settings,
        "problems": problems,
        "subproblems": {"tree_nodes": stats.nodes, "distinct": stats.distinct,
                        "duplicates": stats.nodes - stats.distinct,
                        "safe": safe, "unsafe": stats.distinct - safe},
        "by_area": [{"area": area, "safe": s, "unsafe": u} for area, s, u in stats.rows()],
    }


def to_json(report: dict) -> str:
    return json.dumps(report, indent=2, sort_keys=True) + "\n"


def to_markdown(report: dict) -> str:
    p, s, settings = report["problems"], report["subproblems"], report["settings"]
    lines = [
        "# solve-all",
        "",
        f"Settings: depth {settings['max_depth']}, min area {settings['min_area']}, "
        f"node budget {settings['max_nodes'] or 'none'}, {settings['algo']}, "
        f"ko master: {settings['ko_master']}.",
        "",
        f"Problems read: {p['read']} = expanded {p['expanded']} + rejected {p['rejected']}.",
        "",
        f"Subproblems: {s['distinct']} distinct positions ({s['safe']} safe, {s['unsafe']} unsafe) "
        f"from {s['tree_nodes']} tree nodes ({s['duplicates']} duplicates).",
        "",
    ]
    lines += markdown_table(["size", "safe", "unsafe"],
                            [(row["area"], row["safe"], row["unsafe"]) for row in report["by_area"]],
                            align="rrr")
    return "\n".join(lines) + "\n"
