"""Markdown tables, the one format of every table the project prints or writes.

Reports, stats files and benchmarks all print GitHub-flavoured tables; they
are built here so that every one has the same look (a space inside each
bar, numbers right-aligned).
"""
from __future__ import annotations

from typing import Iterable, Sequence


def markdown_table(header: Sequence, rows: Iterable[Sequence], align: str | None = None) -> list[str]:
    """The table's lines: header, rule, one line a row; cells are ``str()`` of the values.

    ``align`` has one letter a column, ``l`` (left) or ``r`` (right); by default
    the first column is left-aligned and the others right-aligned.
    """
    align = align or "l" + "r" * (len(header) - 1)
    if set(align) - {"l", "r"} or len(align) != len(header):
        raise ValueError(f"align {align!r}: one letter l or r a column, and the header has "
                         f"{len(header)}")
    rule = "|" + "".join("---|" if a == "l" else "---:|" for a in align)
    lines = [_row(header), rule]
    for row in rows:
        if len(row) != len(header):
            raise ValueError(f"row {list(row)!r} has {len(row)} cells, the header {len(header)}")
        lines.append(_row(row))
    return lines


def _row(cells: Sequence) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"
