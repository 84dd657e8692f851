"""A faction book, as plain data: every unit of a faction with its stats, cost and what the rules
derive from them, grouped as the rule set's groups say, with the rules card's core tables at the back.

Sections follow the rule set's ``groups`` in the order it declares them ("basic fighters",
"special fighters", "rare fighters", or "leaders"); a unit goes in the first group it belongs
to, and a unit in none goes under "other". The back matter is the rules card's tables, its
odds tables and how a force is built, laid out as on the card.
"""

from __future__ import annotations

from collections.abc import Sequence

from listbuilder.army.constraints import Force, check_unit, noun
from listbuilder.army.costing import unit_cost
from listbuilder.printing import pages
from listbuilder.printing.pages import Cell, Columns
from listbuilder.record import Record, record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Entry, Group, Noun, Unit
from listbuilder.rules.reference import derived, load_reference


@record
class BookUnit(Record):
    """One unit's entry in the book."""

    name: str
    leader: bool
    cost: int
    stats: tuple[Cell, ...]
    derived: tuple[Cell, ...]
    notes: str
    source: str
    problems: tuple[str, ...]  # the unit rules its statline breaks on its own, if any


@record
class BookSection(Record):
    """The units of one group ('rare fighters'), in catalog order."""

    title: str
    units: tuple[BookUnit, ...]


@record
class BookFaction(Record):
    """One faction's pages."""

    name: str
    summary: str
    sections: tuple[BookSection, ...]

    @property
    def count(self) -> int:
        return sum(len(s.units) for s in self.sections)


@record
class Book(Record):
    """A faction book (or the book of every faction of a rule set)."""

    system_id: str
    name: str
    varies: str
    summary: str
    source: str
    measure: Noun  # what costs are counted in: point/points, figure/figures
    factions: tuple[BookFaction, ...]
    costing: str
    back: Columns  # the rules card's core tables


def _group_of(system: System, unit: Unit, groups: Sequence[tuple[str, Group]]) -> str | None:
    entry = Entry(index=0, unit=unit, count=1, leaders=int(unit.leader), custom=False)
    force = Force(system=system, entries=(entry,), total=0, limit=None)
    return next((name for name, group in groups if force.count_in(group, entry)), None)


def _unit(system: System, unit: Unit) -> BookUnit:
    ref = load_reference(system)
    cells = tuple(Cell(label=c.label, value=derived(c, system, unit)) for c in ref.columns)
    cells = tuple(c for c in cells if c.value not in ("", "–"))
    shown = {c.label for c in cells}
    stats = tuple(
        Cell(label=s.label, value=s.show(unit.stats.get(k)))
        for k, s in system.definition.stats.items()
        if s.label not in shown
    )
    return BookUnit(
        name=unit.name,
        leader=unit.leader,
        cost=unit_cost(system, unit),
        stats=stats,
        derived=cells,
        notes=unit.notes,
        source=unit.source,
        problems=tuple(p.message for p in check_unit(system, unit)),
    )


def book(system: System, faction: str | None = None) -> Book:
    """The book of ``faction`` (its exact name), or of every faction when ``faction`` is None."""
    d = system.definition
    groups = list(d.groups.items())
    factions = []
    for name, units in system.factions.items():
        if faction is not None and name != faction:
            continue
        by_group: dict[str | None, list[BookUnit]] = {}
        for u in units:
            by_group.setdefault(_group_of(system, u, groups), []).append(_unit(system, u))
        sections = [
            BookSection(title=noun(system, group, 2), units=tuple(by_group[key]))
            for key, group in groups
            if key in by_group
        ]
        if None in by_group:
            title = f"other {d.model.plural}" if sections else d.model.plural
            sections.append(BookSection(title=title, units=tuple(by_group[None])))
        factions.append(
            BookFaction(name=name, summary=system.faction_summaries.get(name, ""), sections=tuple(sections))
        )
    card = pages.card(system)
    back = [b for column in card.columns for b in column if b.kind in ("table", "odds", "force")]
    return Book(
        system_id=d.id,
        name=d.name,
        varies=system.base_name,
        summary=d.summary,
        source=d.source,
        measure=system.measure,
        factions=tuple(factions),
        costing=card.costing,
        back=pages.balance(back),
    )
