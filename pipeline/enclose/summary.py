"""``summary.md`` of ``tsumego enclose``: outcomes per collection, and the enclosed area sizes."""
from __future__ import annotations

from collections import Counter

from pipeline.enclose.outcome import OUTCOMES
from pipeline.markdown import markdown_table


def collection_of(problem_id: str) -> str:
    """The folder a problem id lies in (``.`` for a file given alone)."""
    return problem_id.rsplit("/", 1)[0] if "/" in problem_id else "."


def book_move_listed(record: dict) -> bool:
    """Whether the enclosed form lists the book's first move among its winning moves."""
    return (record["outcome"] == "enclosed" and bool(record["book"])
            and record["book"][0]["move"] in record["winning"])


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
    lines = ["# tsumego enclose", "",
             f"{search}, node budget {settings['max_nodes']:,} a solve, search areas up to {settings['max_area']} "
             f"empty points, {order}."
             "  read = " + " + ".join(OUTCOMES) + "; *book move listed*: the enclosed "
             "problem lists the book's first move among its winning moves.", ""]
    lines += markdown_table(["collection", "read", *OUTCOMES, "book move listed"], rows,
                            align="l" + "r" * (len(OUTCOMES) + 2))
    sizes = Counter(r["area"] for r in records if r["outcome"] == "enclosed")
    if sizes:
        keys = sorted(sizes)
        lines += ["", "Empty points in the search area of the enclosed problems:", ""]
        lines += markdown_table(["empty points", *keys], [["problems", *(sizes[k] for k in keys)]],
                                align="l" + "r" * len(keys))
    return "\n".join(lines) + "\n"
