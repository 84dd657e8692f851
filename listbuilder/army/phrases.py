"""The game's phrases for a total, a limit and a statline, worded in one place.

Every face and every engine message that states a total (``98 of 100 points, 14 fighters``), an
amount (``100 points``, ``no limit``) or a statline says it through these, in the rule set's own
words, so the wording cannot drift between the terminal, the web builder, exports and the doctor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from listbuilder.rules.statline import stats_text

if TYPE_CHECKING:
    from listbuilder.army.report import Report
    from listbuilder.rules.forcerules import Problem
    from listbuilder.rules.formats import Entry, Noun, Unit
    from listbuilder.rules.system import System

__all__ = [
    "amount",
    "citation",
    "headline",
    "leader_tag",
    "problem_place",
    "size_advice",
    "stats_line",
    "total_text",
    "verdict_word",
]

# How each verdict (``Report.verdict``) reads: a broken rule shouts, a missing size does not.
VERDICT_WORDS = {"legal": "legal", "not legal": "NOT LEGAL", "no size agreed": "no size agreed"}


def stats_line(system: System, unit: Unit) -> str:
    """``Soldier, Might 10`` / ``Speed 6", Range 24", Power 2, Traits attacker``: the one statline grammar."""
    return stats_text(system, unit)


def amount(n: int | None, measure: Noun) -> str:
    """``100 points``, ``1 figure``, ``no limit``: a number in the rule set's measure."""
    if n is None:
        return "no limit"
    return f"{n:,} {measure.of(n)}"


def leader_tag(system: System, count: int = 1, leaders: int = 1) -> str:
    """`` (leader)`` after an entry's name when its models lead, in the rule set's word;
    `` (1 leader)``, `` (2 leaders)`` when ``leaders`` of its ``count`` do."""
    noun = system.definition.leader
    if leaders == count:
        return f" ({noun.singular})"
    return f" ({leaders:,} {noun.of(leaders)})"


def total_text(report: Report, say_no_limit: bool = False) -> str:
    """``98 of 100 points, 14 fighters``, or ``18 of 20 figures (16 figures on the table)``."""
    models = report.models
    noun = report.system.definition.model.of(models)
    if report.limit:
        total = f"{report.total:,} of {amount(report.limit, report.measure)}"
    else:
        total = amount(report.total, report.measure) + (", no limit" if say_no_limit else "")
    if not report.system.counts_figures:
        total += f", {models:,} {noun}"
    elif models != report.total:  # some figures count extra: say how many stand on the table
        total += f" ({models:,} {noun} on the table)"
    return total


def verdict_word(report: Report, strict: bool = False) -> str:
    """``legal``, ``NOT LEGAL`` or ``no size agreed``: the list's verdict as every face words it."""
    return VERDICT_WORDS[report.verdict(strict)]


def headline(report: Report, strict: bool = False) -> str:
    """One line: verdict, list name, rule set, total against limit."""
    return f"{verdict_word(report, strict)}: {report.army.name} ({report.system.id}), {total_text(report)}"


def size_advice(report: Report) -> str:
    """What a list whose size is not agreed (``Report.size_agreed``) lacks and how to settle it."""
    d = report.system.definition
    return (
        f"{' '.join(d.name.split())} has no standard size: agree one with your opponent and give it as"
        f" the list's limit ({report.system.size_unit}: N)"
    )


def citation(source: str) -> str:
    """Where a rule comes from, labelled as the rule text's so it never reads as a line of the list:
    ``line 48`` -> ``rules, line 48``; a ruling stays ``ruling figures-count``."""
    if source.startswith(("line ", "lines ")):
        return f"rules, {source}"
    return source


def problem_place(problem: Problem, entries: Sequence[Entry] = (), line: bool = True) -> str:
    """Where a problem is, as a player reads it: ``line 7, #1 Grandpa Bones, #2 Old Mother``.

    Entries are numbered from 1, as ``points`` numbers them (``entries``: the list's, to name
    them); the line is the list file's (left out with ``line=False``, for text that travels
    without the file). Empty for a problem of no particular place."""
    by_index = {e.index: e for e in entries}
    named = [by_index[i] for i in problem.entries if i in by_index]
    parts = [f"line {problem.line}"] if problem.line is not None and line else []
    if named:
        parts += [f"#{e.number} {e.unit.name}" for e in named]
    elif problem.entries:
        parts += [f"#{i + 1}" for i in problem.entries]
    return ", ".join(parts)
