"""RESULTS.md as a dashboard: today's figures, the newest sections, a status line for each;
the older sections in RESULTS-archive.md, with the topic index of all of them.

What is checked, each against the files as they stand:

- every ``RESULTS.md#…`` and ``RESULTS-archive.md#…`` link in the repository's ``.md`` and
  ``.py`` files, and every ``(#anchor)`` link inside either file, resolves to a heading of
  that file (GitHub's anchors), so that renaming or moving a section cannot leave a dead link;
- RESULTS.md stays under ``LIVE_BYTES``: the live record, the rest archived;
- every section (a ``## `` heading) has a status line right under it: ``Status: current``,
  ``Status: superseded by [§N](#anchor)`` (a later section) or ``Status: tried, not kept``;
- each file's numbered contents list its sections under their numbers (sections cite each
  other by them; together the numbers run from 1 without a gap), and the archive's topic
  index links every section of both files, newest first within a topic, its marks agreeing
  with the status lines;
- the table of today's figures: each row cites a current section, with that section's date,
  and each of its figures appears in that section, as written or rounded from it;
- README.md's headline table: each figure of a row appears, as written or rounded, in the
  rows of today's figures that cite the sections the README row links to, so the two tables
  cannot drift apart.

Numbers under 10 without a decimal point (1 verdict, 8 symmetries, 5 bits) are not checked.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "RESULTS.md"
ARCHIVE = ROOT / "RESULTS-archive.md"
FILES = (RESULTS.name, ARCHIVE.name)
# the live record's bound: older sections go to the archive
LIVE_BYTES = 100_000
README = ROOT / "README.md"
# the README's bound: details go to docs/, measured results to RESULTS.md
README_BYTES = 12_000
SKIPPED_FOLDERS = {".git", ".venv", "venv", "out", "build", "dist", "node_modules", "__pycache__",
                   ".pytest_cache", ".hypothesis", "shared"}

DASHBOARD_HEADER = "| what | figure | date | commit | section |"
TOPIC_INDEX_START = "**Topic index**"
CONTENTS_START = "**Contents**"
STATUS_LINE = re.compile(
    r"^Status: (?:(?P<current>current)|(?P<tried>tried, not kept)"
    r"|superseded by \[§(?P<number>\d+)\]\((?P<file>RESULTS(?:-archive)?\.md)?#(?P<anchor>[^)\s]+)\))"
    r"(?:[;:,.(]|\s|$)")
# a link to a section: [§N ...](#anchor) within a file, or (RESULTS[-archive].md#anchor) across
LINK = re.compile(r"\[§(\d+)[^\]]*\]\((RESULTS(?:-archive)?\.md)?#([^)\s]+)\)")
# A number: 1,776,948, 0.086, -31% (a minus after a space, not the hyphen of 0.35-0.65), 9.0 M;
# not part of a name (gop/20305, §100), a version (1.1.0) or a time written 2m18s.
NUMBER = re.compile(r"(?:(?<![\w.,/§#\-−])|(?<=[\s(][-−]))(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?"
                    r"(?![\w.,]\d|\w)(\s?M(?!\w))?")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@dataclass
class Section:
    number: int
    title: str
    anchor: str
    date: str
    body: list[str]
    file: str = RESULTS.name

    @property
    def text(self) -> str:
        return "\n".join(self.body)

    @property
    def status(self) -> re.Match | None:
        first = next((line for line in self.body if line.strip()), "")
        return STATUS_LINE.match(first)


def outside_code(lines: list[str]):
    """(index, line) of the lines outside fenced code blocks."""
    fenced = False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            yield index, line


@lru_cache(maxsize=None)
def results_lines(name: str = RESULTS.name) -> tuple[str, ...]:
    return tuple((ROOT / name).read_text(encoding="utf-8").splitlines())


def heading_anchors(name: str = RESULTS.name) -> set[str]:
    anchors, seen = set(), {}
    for _, line in outside_code(list(results_lines(name))):
        found = re.match(r"^#{1,6} (.+?)\s*#*\s*$", line)
        if found:
            base = slug(found.group(1))
            anchors.add(base if base not in seen else f"{base}-{seen[base]}")
            seen[base] = seen.get(base, 0) + 1
    return anchors


def contents(name: str) -> list[tuple[int, str]]:
    """(number, anchor) of each entry of a file's numbered contents."""
    lines = preamble(name)
    start = lines.index(next(line for line in lines if line.startswith(CONTENTS_START)))
    entries = [re.match(r"^(\d+)\. \[.+\]\(#([^)\s]+)\)", line) for line in lines[start:]]
    return [(int(entry.group(1)), entry.group(2)) for entry in entries if entry]


def file_sections(name: str) -> list[Section]:
    """A file's sections in file order, numbered as its contents number them (0 if not listed)."""
    lines = list(results_lines(name))
    starts = [(index, line[3:]) for index, line in outside_code(lines) if line.startswith("## ")]
    numbers = {anchor: number for number, anchor in contents(name)}
    found = []
    for position, (start, title) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        date = re.search(r"\((\d{4}-\d{2}-\d{2})\)$", title)
        found.append(Section(numbers.get(slug(title), 0), title, slug(title), date.group(1) if date else "",
                             lines[start + 1:end], name))
    return found


def sections() -> list[Section]:
    """Every section of both files, by number."""
    return sorted((section for name in FILES for section in file_sections(name)), key=lambda s: s.number)


def preamble(name: str = RESULTS.name) -> list[str]:
    lines = list(results_lines(name))
    first = next(index for index, line in outside_code(lines) if line.startswith("## "))
    return lines[:first]


def resolves(link: re.Match, section: "Section", own: str) -> bool:
    """Whether a LINK match written in file ``own`` points at ``section``'s heading."""
    return (link.group(2) or own) == section.file and link.group(3) == section.anchor


def table_rows(lines: list[str], header: str) -> list[list[str]]:
    """The cells of the rows of the table whose header line is ``header``."""
    start = lines.index(header)
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def dashboard() -> list[list[str]]:
    return table_rows(preamble(), DASHBOARD_HEADER)


@dataclass(frozen=True)
class Figure:
    value: Decimal
    step: Decimal | None  # a rounded figure's last place; None for a whole number

    def matches(self, other: "Figure") -> bool:
        if self.value == other.value:
            return True
        if self.step is None:
            return False
        finer = other.step is None or other.step < self.step
        return finer and abs(other.value - self.value) <= self.step / 2


def figures(text: str) -> list[Figure]:
    found = []
    for whole, decimals, million in NUMBER.findall(text.replace("**", "")):
        value = Decimal(whole.replace(",", "") + decimals)
        step = Decimal(1).scaleb(-(len(decimals) - 1)) if decimals else None
        if million:
            value, step = value * 1_000_000, (step or Decimal(1)) * 1_000_000
        found.append(Figure(value, step))
    return found


def checked(text: str) -> list[tuple[str, Figure]]:
    """The figures of ``text`` worth checking, each beside its text."""
    found = []
    for match in NUMBER.finditer(text.replace("**", "")):
        figure = figures(match.group(0))[0]
        if figure.step is not None or figure.value >= 10:
            found.append((match.group(0).strip(), figure))
    return found


def missing(text: str, source: str) -> list[str]:
    available = figures(source)
    return [written for written, figure in checked(text) if not any(figure.matches(each) for each in available)]


def repository_files():
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders
                         if name not in SKIPPED_FOLDERS and not name.endswith(".egg-info")]
        for name in names:
            if name.endswith((".md", ".py")):
                yield Path(folder) / name


# -- anchors ---------------------------------------------------------------------------------


def test_the_slug_is_githubs():
    assert slug("The guide's fade at weight 5: 300,000 stays (2026-11-28)") == \
        "the-guides-fade-at-weight-5-300000-stays-2026-11-28"
    assert slug("Benchmark: solver against tsumego.js, evaluators") == "benchmark-solver-against-tsumegojs-evaluators"


def test_every_results_anchor_in_the_repository_resolves_to_a_heading():
    anchors = {name: heading_anchors(name) for name in FILES}
    dead = []
    for path in repository_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for found in re.finditer(r"(RESULTS(?:-archive)?\.md)#([\w-]+)", text):
            if found.group(2) not in anchors[found.group(1)]:
                dead.append(f"{path.relative_to(ROOT)}: {found.group(0)}")
    for name in FILES:
        inside = "\n".join(results_lines(name))
        dead += [f"{name}: #{anchor}" for anchor in re.findall(r"\]\(#([^)\s]+)\)", inside)
                 if anchor not in anchors[name]]
    assert not dead, "links to no heading of RESULTS.md or RESULTS-archive.md:\n" + "\n".join(dead)


def test_the_live_record_stays_small_and_the_archive_holds_the_rest():
    assert RESULTS.stat().st_size < LIVE_BYTES
    live = file_sections(RESULTS.name)
    assert live and file_sections(ARCHIVE.name)
    assert all(section.status and section.status.group("current") for section in live)


def test_the_anchor_check_sees_the_readme_and_the_docs():
    cited = {path.relative_to(ROOT).as_posix() for path in repository_files()
             if "RESULTS.md#" in path.read_text(encoding="utf-8", errors="replace")}
    assert {"README.md", "docs/methods.md"} <= cited


# -- sections --------------------------------------------------------------------------------


def test_every_section_has_a_date_and_a_status_line_under_its_heading():
    by_number = {section.number: section for section in sections()}
    wrong = []
    for section in by_number.values():
        status = section.status
        if not section.date:
            wrong.append(f"§{section.number} {section.title}: no (YYYY-MM-DD) at the end of its heading")
        if status is None:
            wrong.append(f"§{section.number} {section.title}: its first line is not a status line")
        elif status.group("number"):
            later = by_number.get(int(status.group("number")))
            if (later is None or later.number <= section.number or later.anchor != status.group("anchor")
                    or (status.group("file") or section.file) != later.file):
                wrong.append(f"§{section.number}: superseded by §{status.group('number')} "
                             f"(#{status.group('anchor')}), which is not that later section")
    assert not wrong, "\n".join(wrong)


def test_the_contents_number_every_section():
    for name in FILES:
        listed = contents(name)
        assert listed == [(section.number, section.anchor) for section in file_sections(name)], name
        assert [number for number, _ in listed] == sorted(number for number, _ in listed), name
    assert [section.number for section in sections()] == list(range(1, len(sections()) + 1))


def topic_index() -> dict[str, list[tuple[int, re.Match, str]]]:
    lines = preamble(ARCHIVE.name)
    start = next(index for index, line in enumerate(lines) if line.startswith(TOPIC_INDEX_START))
    end = next(index for index, line in enumerate(lines) if line.startswith(CONTENTS_START))
    topics: dict[str, list[tuple[int, str, str]]] = {}
    topic = None
    for line in lines[start + 1:end]:
        heading = re.match(r"^- \*\*(.+?)\*\*", line)
        if heading:
            topic = heading.group(1)
            topics[topic] = []
        elif line.startswith("  - ") and topic:
            link = LINK.search(line)
            assert link, f"a topic entry without a section link: {line}"
            topics[topic].append((int(link.group(1)), link, line[link.end():]))
    return topics


def test_the_topic_index_links_every_section_newest_first_with_its_status():
    by_number = {section.number: section for section in sections()}
    topics = topic_index()
    assert len(topics) >= 8
    wrong = []
    for topic, entries in topics.items():
        numbers = [number for number, _, _ in entries]
        if numbers != sorted(numbers, reverse=True):
            wrong.append(f"{topic}: not newest first: {numbers}")
        for number, link, rest in entries:
            section = by_number.get(number)
            if section is None or not resolves(link, section, ARCHIVE.name):
                wrong.append(f"{topic}: §{number} links {link.group(0)}, not that section's heading")
                continue
            status = section.status
            marked_superseded = re.search(r"superseded by §(\d+)", rest)
            if bool(marked_superseded) != bool(status and status.group("number")) or (
                    marked_superseded and marked_superseded.group(1) != status.group("number")):
                wrong.append(f"{topic}: §{number}'s mark {rest.strip()!r} is not its status line's")
            if ("tried, not kept" in rest and "(part)" not in rest) != bool(status and status.group("tried")):
                wrong.append(f"{topic}: §{number}'s mark {rest.strip()!r} is not its status line's")
    unindexed = set(by_number) - {number for entries in topics.values() for number, _, _ in entries}
    assert not wrong and not unindexed, "\n".join(wrong + [f"§{n} is in no topic" for n in sorted(unindexed)])


# -- today's figures -------------------------------------------------------------------------


def test_todays_figures_come_from_current_sections_that_give_them():
    by_number = {section.number: section for section in sections()}
    rows = dashboard()
    assert len(rows) >= 15
    wrong = []
    for what, figure, date, commit, cited in rows:
        link = LINK.fullmatch(cited)
        section = by_number.get(int(link.group(1))) if link else None
        if section is None or not resolves(link, section, RESULTS.name):
            wrong.append(f"{what}: {cited} is not a section's number and link")
            continue
        status = section.status
        if not (status and status.group("current")):
            wrong.append(f"{what}: §{section.number} is not current ({status and status.group(0)})")
        if date != section.date:
            wrong.append(f"{what}: dated {date}, §{section.number} {section.date}")
        if not re.fullmatch(r"[0-9a-f]{7,40}", commit):
            wrong.append(f"{what}: commit {commit!r}")
        absent = missing(f"{what} {figure}", section.text)
        if absent:
            wrong.append(f"{what}: {absent} not in §{section.number}")
    assert not wrong, "\n".join(wrong)


def readme_headline_rows() -> list[list[str]]:
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index("## Headline results")
    header = next(line for line in lines[start:] if line.startswith("| result |"))
    return table_rows(lines, header)


def test_the_readme_headline_figures_are_those_of_results_current_table():
    by_anchor: dict[str, list[str]] = {}
    for what, figure, _, _, cited in dashboard():
        by_anchor.setdefault(LINK.fullmatch(cited).group(3), []).append(f"{what} {figure}")
    rows = readme_headline_rows()
    assert len(rows) >= 5
    wrong = []
    for result, figure, details in rows:
        anchors = re.findall(r"\(RESULTS(?:-archive)?\.md#([\w-]+)\)", details)
        if not anchors:
            wrong.append(f"{result}: links no section of RESULTS.md")
        unlisted = [anchor for anchor in anchors if anchor not in by_anchor]
        if unlisted:
            wrong.append(f"{result}: {unlisted} have no row in RESULTS.md's table of today's figures")
        source = " ".join(text for anchor in anchors for text in by_anchor.get(anchor, []))
        absent = missing(figure, source)
        if absent:
            wrong.append(f"{result}: {absent} not in the RESULTS rows of {anchors}")
    assert not wrong, "\n".join(wrong)


def readme_two_commands_paragraph() -> str:
    """The README's paragraph under its two commands that says what they took on a fresh clone."""
    text = README.read_text(encoding="utf-8")
    return next(paragraph for paragraph in text.split("\n\n") if "`make all` took" in paragraph)


def test_the_readme_stays_under_its_bound():
    assert README.stat().st_size < README_BYTES


def test_the_readmes_two_commands_figures_are_todays():
    """What ``make all`` and ``make test`` took on a fresh clone, as the README says it, are the
    figures of the dashboard's rows for them, and link their sections."""
    paragraph = readme_two_commands_paragraph()
    rows = {what: (figure, cited) for what, figure, _, _, cited in dashboard()}
    for command in ("`make all`", "`make test`"):
        what = next(w for w in rows if w.startswith(f"{command} on a fresh clone"))
        figure, cited = rows[what]
        said = re.search(rf"{re.escape(command)} (?:took )?([^,;(]*?)(?: \(|,|;| and |\.(?:\s|$))", paragraph)
        assert said, f"the README says nothing of what {command} took"
        assert missing(said.group(1), figure) == [], f"{command}: README {said.group(1)!r}, RESULTS {figure!r}"
        anchor = LINK.fullmatch(cited).group(3)
        assert anchor in paragraph, f"{command}: the README does not link {cited}"


def test_the_figure_check_takes_roundings_and_refuses_other_figures():
    assert missing("4.3 s against 49.5 s (0.086); 9.0 M nodes", "4.274 s, 49.480 s, 0.086, 9,001,860") == []
    assert missing("4.2 s; 0.087; 1,776,949 nodes; 8.9 M", "4.274 s, 0.086, 1,776,948, 9,001,860") == \
        ["4.2", "0.087", "1,776,949", "8.9 M"]
    assert missing("1 verdict, 8 symmetries, 5-bit, gop/20305, 2m18s, tsumego.js 1.1.0", "") == []
    assert missing("DFS nodes -31%; P(safe) 0.35-0.65", "0.35 to 0.64") == ["31"]  # after a hyphen, not checked
