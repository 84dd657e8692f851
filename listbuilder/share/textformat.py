"""A list as short text for a forum post or chat message, in plain text or markdown: the format,
and writing it (``textreader`` reads it back).

Plain text::

    Monster Mash
    Might Skirmish (might-skirmish, catalog revision 1): 114 of 100 points, 9 fighters, NOT LEGAL

    2x Grandpa Bones - 40 points
    1x Old Mother [Monster, Might 20] - 20 points
    3x Grave Digger - 24 points
    3x Hunter - 30 points

    error: 14 points over the 100-point limit (114 of 100)

- The first line is the list's name. The second names the rule set, with its id and the catalog
  revision the list records in brackets, then a colon, the total against the limit and the
  verdict. Blank lines do not count.
- Each entry is ``COUNTx NAME``, then ``(leader)`` if its models are leaders (``(1 leader)``
  if one of them is, ``(2 leaders)``...), then a custom unit's stats in square brackets (the
  form is in ``statline``), then `` - COST``.
- A name that would read ambiguously (it holds ``[``, ``]`` or ``"``, ends in a leader mark,
  starts with ``#``, or holds a character that is not printable; a list's name also when it
  starts with ``{``, which marks JSON) is written in double quotes with
  JSON escapes: ``1x "Bob [the Bold]" [Soldier, Might 5] - 5 points``.
- ``error:`` and ``warning:`` lines say what the list breaks. The reader skips them, and it
  recomputes costs rather than trusting the text: counts, names, stats, leaders, the limit and
  the revision are what it reads. A line bulleted with ``-``, ``*`` or ``•`` reads as if it had no
  bullet, so a pasted rendering of the markdown reads too.
- Pasted from a forum post, the list may come with chatter: the lines before its name (the line
  before the first that names a rule set in brackets) and after its last entry are skipped, and
  the import says which. A cost reads as ``- 16 points``, ``16pts``, ``16 pts``, ``(16)`` or
  ``(16 pts)``; a count as ``4x``, ``4 x`` or ``4 ×``. A line among the entries that reads as none
  is an error naming its line.

Markdown is the same lines dressed for a forum (headings and lists render on Discord, Reddit,
GitHub and Discourse alike): the name as a ``##`` heading, the rule set and total in bold, the
entries as a ``-`` list, problems as a ``*`` list; every character that markdown would read as
formatting is escaped with a backslash. A first line starting ``#`` marks markdown to the reader.
"""

from __future__ import annotations

import json
import re

from listbuilder.army.phrases import amount, problem_place, total_text, verdict_word
from listbuilder.army.report import Report
from listbuilder.rules.statline import stats_text
from listbuilder.rules.system import System

# Characters that markdown reads as formatting: each is written with a backslash before it.
MARKDOWN_SPECIAL = frozenset("\\`*_[]<>#|~&")


def quote(text: str) -> str:
    """``text`` in double quotes with JSON escapes, every non-printable character escaped too."""
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in json.dumps(text, ensure_ascii=False))


def _list_name(name: str) -> str:
    plain = name.isprintable() and not name.startswith(('"', "#", "{"))  # '{' would read as JSON
    return name if plain else quote(name)


def leader_mark(system: System, count: int = 1, leaders: int = 1) -> str:
    """What follows an entry's name when ``leaders`` of its ``count`` models lead, in the rule
    set's word: ``(leader)`` for all of them, ``(1 leader)`` or ``(2 leaders)`` for some."""
    noun = system.definition.leader
    if leaders == count:
        return f"({noun.singular.lower()})"
    return f"({leaders:,} {noun.of(leaders).lower()})"


def mark_pattern(system: System) -> re.Pattern[str]:
    """A leader mark at the end of a name: ``(leader)``, ``(2 leaders)``; group 1 the number."""
    noun = system.definition.leader
    words = f"{re.escape(noun.plural)}|{re.escape(noun.singular)}"
    return re.compile(rf"\((?:(\d[\d,]*)\s+)?(?:{words})\)$", re.IGNORECASE)


def _unit_name(name: str, mark: re.Pattern[str]) -> str:
    plain = (
        name.isprintable() and not any(c in name for c in '[]"') and not name.startswith("#") and not mark.search(name)
    )
    return name if plain else quote(name)


def md_escape(text: str) -> str:
    """Plain text safe in markdown: a backslash before each character that would format."""
    return "".join("\\" + c if c in MARKDOWN_SPECIAL else c for c in text)


def revision_of(report: Report) -> int:
    """The catalog revision an export records: the list's own, or the current one if it has none."""
    return report.army.revision if report.army.revision is not None else report.system.definition.revision


def _verdict(report: Report) -> str:
    verdict = verdict_word(report)
    return "legal, with warnings" if verdict == "legal" and report.warnings else verdict


def _total(report: Report) -> str:
    return total_text(report, say_no_limit=True)


def _entry_lines(report: Report) -> list[str]:
    out = []
    mark = mark_pattern(report.system)
    for line in report.lines:
        e = line.entry
        text = f"{e.count}x {_unit_name(e.unit.name, mark)}"
        if e.leaders:
            text += f" {leader_mark(report.system, e.count, e.leaders)}"
        if e.custom:
            text += f" [{stats_text(report.system, e.unit)}]"
        out.append(f"{text} - {amount(line.cost, report.measure)}")
    return out


def _problems(report: Report) -> list[tuple[str, str]]:
    out = []
    for p in report.problems:
        place = problem_place(p, report.army.entries, line=False)
        where = f"{place}: " if place else ""
        out.append((p.severity, " ".join(f"{where}{p.message}".split())))  # always on one line
    return out


def to_text(report: Report) -> str:
    """The list as plain text (the format is in the module's docstring)."""
    d = report.system.definition
    lines = [
        _list_name(report.army.name),
        f"{d.name} ({d.id}, catalog revision {revision_of(report)}): {_total(report)}, {_verdict(report)}",
        "",
        *_entry_lines(report),
    ]
    if report.problems:
        lines += ["", *(f"{severity}: {message}" for severity, message in _problems(report))]
    return "\n".join(lines) + "\n"


def to_markdown(report: Report) -> str:
    """The list as markdown: a heading, the rule set and total, then a bullet list of entries."""
    d = report.system.definition
    verdict = _verdict(report)
    shown = "**NOT LEGAL**" if verdict == "NOT LEGAL" else md_escape(verdict)
    system = f"**{md_escape(d.name)}** ({md_escape(d.id)}, catalog revision {revision_of(report)})"
    lines = [
        f"## {md_escape(_list_name(report.army.name))}",
        "",
        f"{system}: **{md_escape(_total(report))}**, {shown}",
        "",
        *(f"- {md_escape(line)}" for line in _entry_lines(report)),
    ]
    if report.problems:
        lines += ["", *(f"* **{severity}:** {md_escape(message)}" for severity, message in _problems(report))]
    return "\n".join(lines) + "\n"
