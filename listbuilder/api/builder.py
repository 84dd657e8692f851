"""What a builder shows of a folder's lists: each list's state, entry by entry, and the units to add.

Records, and the catalog's units as a builder offers them; the actions on a folder (changes,
undo, new, deleted lists) and the states they give are ``api.folder``.
"""

from __future__ import annotations

import weakref
from typing import Any

from listbuilder.army.constraints import Problem
from listbuilder.army.costing import unit_cost
from listbuilder.army.phrases import stats_line
from listbuilder.army.report import Report
from listbuilder.record import Record, record
from listbuilder.rules.system import System


@record
class EntryRow(Record):
    """One entry of a list as a builder shows it: what it is, what it costs, what it breaks."""

    index: int
    name: str
    count: int
    leader: bool  # every model of the entry is a leader
    custom: bool
    stats: str
    each: int
    cost: int
    problems: tuple[Problem, ...]
    leaders: int = 0  # how many of its ``count`` models are leaders

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "unit": self.name,
            "count": self.count,
            "leader": self.leader,
            "leaders": self.leaders,
            "custom": self.custom,
            "stats": self.stats,
            "each": self.each,
            "cost": self.cost,
            "problems": [p.as_json() for p in self.problems],
        }


@record
class ListState(Record):
    """One list of a folder: its file, version, report, verdict in words, entries and undo depth."""

    file: str
    version: str
    text: str
    report: Report
    headline: str
    total_text: str
    rows: tuple[EntryRow, ...]
    undo: int  # the undo steps that can be taken now (none once the file changed elsewhere)
    redo: int
    undo_kept: int = 0  # the undo steps kept: more than ``undo`` when the file changed elsewhere

    def as_json(self) -> dict[str, Any]:
        return {
            **self.report.as_json(),
            "file": self.file,
            "version": self.version,
            "headline": self.headline,
            "entries": [r.as_json() for r in self.rows],
            "undo": self.undo,
            "redo": self.redo,
            "undo_kept": self.undo_kept,
        }


@record
class ListSummary(Record):
    """A list file of a folder, for the lists page: its verdict, or the error that stops it loading."""

    file: str
    version: str
    system: str | None = None
    name: str | None = None
    total_text: str = ""
    legal: bool | None = None
    headline: str = ""
    error: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "version": self.version,
            "system": self.system,
            "name": self.name,
            "total": self.total_text,
            "legal": self.legal,
            "headline": self.headline,
            "error": self.error,
        }


@record
class Changed(Record):
    """The outcome of a change made to a list of a folder: what was done, and the list after it."""

    done: str
    changed: bool
    state: ListState | None  # None when the caller did not ask for it (a page that redirects)
    entry: int | None = None  # the entry the change made or changed, if it is still there

    def as_json(self) -> dict[str, Any]:
        shown = self.state.as_json() if self.state is not None else None
        return {"done": self.done, "changed": self.changed, "entry": self.entry, "list": shown}


@record
class UnitChoice(Record):
    """A catalog unit as a builder offers it: faction, name, stats in words and cost."""

    faction: str
    name: str
    stats: str
    cost: int
    leader: bool

    def as_json(self) -> dict[str, Any]:
        return {"faction": self.faction, "unit": self.name, "stats": self.stats, "cost": self.cost}


# Per loaded rule set (held weakly: a rule set reloaded drops its rows): its units worded once,
# and the lower-case text a filter searches.
_CHOICES: weakref.WeakKeyDictionary[System, tuple[tuple[UnitChoice, ...], tuple[str, ...]]] = (
    weakref.WeakKeyDictionary()
)


def unit_choices(system: System, query: str = "") -> tuple[UnitChoice, ...]:
    """The rule set's catalog units, faction by faction; with ``query``, those whose name, faction
    or stats hold every word of it (in any case)."""
    found = _CHOICES.get(system)
    if found is None:
        rows = tuple(
            UnitChoice(
                faction=faction,
                name=u.name,
                stats=stats_line(system, u),
                cost=unit_cost(system, u),
                leader=u.leader,
            )
            for faction, units in system.factions.items()
            for u in units
        )
        found = _CHOICES[system] = (rows, tuple(f"{u.name} {u.faction} {u.stats}".lower() for u in rows))
    words = query.lower().split()
    if not words:
        return found[0]
    return tuple(u for u, text in zip(found[0], found[1], strict=True) if all(w in text for w in words))
