"""``summary.md`` of ``tsumego enclose``: outcomes per collection, the enclosed area sizes, and
the unsettled problems by the area of their smallest unsettled reading."""
from __future__ import annotations

from collections import Counter

from pipeline.enclose.outcome import OUTCOMES
from pipeline.enclose.question import UNSETTLED
from pipeline.markdown import markdown_table


def collection_of(problem_id: str) -> str:
    """The folder a problem id lies in (``.`` for a file given alone)."""
    return problem_id.rsplit("/", 1)[0] if "/" in problem_id else "."


def book_move_listed(record: dict) -> bool:
    """Whether the enclosed form lists the book's first move among its winning moves."""
    return (record["outcome"] == "enclosed" and bool(record["book"])
            and record["book"][0]["move"] in record["winning"])


def smallest_unsettled_area(record: dict) -> int:
    """The empty points of an unsettled problem's smallest unsettled reading; the record's
    own ``area`` where no reading is marked unsettled."""
    areas = [reading["area"] for reading in record.get("readings", ())
             if reading.get("verdict") == UNSETTLED]
    return min(areas) if areas else record["area"]


def area_table(title: str, sizes: Counter) -> list[str]:
    """A one-row table of problems by empty points, after its title; nothing when empty."""
    if not sizes:
        return []
    keys = sorted(sizes)
    rows = [["problems", *(sizes[k] for k in keys)]]
    return ["", title, ""] + markdown_table(["empty points", *keys], rows, align="l" + "r" * len(keys))


def summary_markdown(records: list[dict], settings: dict) -> str:
    by_collection: dict[str, list[dict]] = {}
    for record in records:
        by_collection.setdefault(collection_of(record["problem"]), []).append(record)
    rows = []
    for name, group in sorted(by_collection.items()) + [("**all**", records)]:
        counts = Counter(r["outcome"] for r in group)
        listed = sum(book_move_listed(r) for r in group)
        share = f"{100 * listed / len(group):.1f}%" if group else "-"
        rows.append([f"`{name}`" if name != "**all**" else name, len(group)]
                    + [counts.get(outcome, 0) for outcome in OUTCOMES] + [share])
    order = f"moves ordered by {settings['guide']}" if settings.get("guide") else "unguided"
    if "guide_after" in settings:   # only when not the default start
        order += f", the guide called after {settings['guide_after']:,} unguided nodes"
    if settings.get("patterns"):   # only when not the shipped ones
        order += f", learned move patterns: {settings['patterns']}"
    search = "df-pn" if settings.get("algo") == "dfpn" else "DFS"
    effort = f"node budget {settings['max_nodes']:,} a solve"
    if settings.get("seconds") is not None:
        effort += (f", and what it leaves without a fit read again until the problem has had "
                   f"{settings['seconds']:g} CPU seconds")
    lines = ["# tsumego enclose", "",
             f"{search}, {effort}, search areas up to {settings['max_area']} "
             f"empty points, {order}."
             "  read = " + " + ".join(OUTCOMES) + "; *book move listed*: the enclosed "
             "problem lists the book's first move among its winning moves.", ""]
    lines += markdown_table(["collection", "read", *OUTCOMES, "book move listed"], rows,
                            align="l" + "r" * (len(OUTCOMES) + 2))
    lines += area_table("Empty points in the search area of the enclosed problems:",
                        Counter(r["area"] for r in records if r["outcome"] == "enclosed"))
    lines += area_table("Empty points of the smallest unsettled reading of each unsettled problem:",
                        Counter(smallest_unsettled_area(r) for r in records if r["outcome"] == "unsettled"))
    return "\n".join(lines) + "\n"
