"""Cost an army list and judge it: the figures and problems every command shows."""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Literal

from listbuilder.army.advice import advice, has_leaders
from listbuilder.army.constraints import Force, Problem, check_force
from listbuilder.army.costing import entry_cost, figures_in, unit_cost
from listbuilder.errors import Action
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.rules.forcerules import Limit
from listbuilder.rules.formats import ArmyList, Entry, Noun
from listbuilder.rules.statline import value_text

# A list's verdict. "no size agreed": it breaks no rule, but its rule set has no standard size and
# the list gives none, so "legal" would hold at any size (the players agree one: rulings of the
# rule sets that count figures); it is neither legal nor an error.
Verdict = Literal["legal", "not legal", "no size agreed"]
LEGAL: Final = "legal"
NOT_LEGAL: Final = "not legal"
NO_SIZE: Final = "no size agreed"


@record
class Line(Record):
    """One costed entry of a list."""

    entry: Entry
    unit_cost: int
    cost: int


@record
class Report(Record):
    """A list, its costs and total against its limit, and every rule it breaks."""

    army: ArmyList
    system: System
    lines: tuple[Line, ...]
    total: int
    problems: tuple[Problem, ...]

    @property
    def limit(self) -> int | None:
        return self.army.limit

    @property
    def unit(self) -> str:
        """What the total is counted in, as JSON gives it: the measure's plural ('points')."""
        return self.system.size_unit

    @property
    def measure(self) -> Noun:
        return self.system.measure

    @property
    def models(self) -> int:
        """How many models (fighters, figures) the list puts on the table."""
        return sum(line.entry.count * figures_in(self.system, line.entry.unit) for line in self.lines)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    def legal(self, strict: bool = False) -> bool:
        """Legal: no errors (and, when ``strict``, no warnings either); see ``verdict`` for
        whether the list has a size to be legal at."""
        return not (self.problems if strict else self.errors)

    @property
    def size_agreed(self) -> bool:
        """False when the rule set limits a force's size but has no standard one, and the list
        gives none: any number of models would pass, so the list is not yet legal or illegal."""
        return self.limit is not None or not self.system.needs_size

    def verdict(self, strict: bool = False) -> Verdict:
        """``legal``, ``not legal`` (a rule is broken, whatever the size), or ``no size agreed``."""
        if not self.legal(strict):
            return NOT_LEGAL
        return LEGAL if self.size_agreed else NO_SIZE

    def as_json(self, strict: bool = False, entries: bool = False) -> dict[str, Any]:
        """The shape ``validate --json`` prints; with ``entries``, ``points --json``'s too."""
        data: dict[str, Any] = {
            "file": self.army.file,
            "system": self.army.system,
            "name": self.army.name,
            "legal": self.legal(strict),
            "verdict": self.verdict(strict),
            "total": self.total,
            "limit": self.limit,
            "unit": self.unit,
            "problems": [p.as_json() for p in self.problems],
        }
        if entries:
            data["entries"] = [
                {
                    "index": ln.entry.index,
                    "unit": ln.entry.unit.name,
                    "count": ln.entry.count,
                    "leader": ln.entry.leader,
                    "leaders": ln.entry.leaders,
                    "custom": ln.entry.custom,
                    "each": ln.unit_cost,
                    "cost": ln.cost,
                }
                for ln in self.lines
            ]
        return data


def build_report(army: ArmyList, system: System, catalogs: Catalogs | None = None) -> Report:
    """Cost every entry, total them, and check the force rules, the catalog revision and the
    advice of ``army.advice`` (``catalogs``, if given, names the rule sets that have leaders)."""
    lines = tuple(Line(entry=e, unit_cost=unit_cost(system, e.unit), cost=entry_cost(system, e)) for e in army.entries)
    total = sum(line.cost for line in lines)
    problems = advice(army, system, None if catalogs is None else lambda: leader_systems(catalogs))
    problems += check_force(Force(system=system, entries=army.entries, total=total, limit=army.limit))
    problems += catalog_changes(army, system) + renamed_and_retired(army, system)
    return Report(army=army, system=system, lines=lines, total=total, problems=located(problems, army, system))


def located(problems: list[Problem], army: ArmyList, system: System) -> tuple[Problem, ...]:
    """Each problem with the list file's line it is about: its first entry's; the limit's for a
    broken limit (points or figures); the line of 'units:' for the force as a whole."""
    limits = {c.id for c in system.definition.constraints if isinstance(c, Limit)}
    lines = {e.index: e.line for e in army.entries}
    out = []
    for p in problems:
        if p.entries:
            line = lines.get(p.entries[0])
        elif p.rule_id in limits:
            line = army.limit_line
        else:
            line = army.units_line
        out.append(dataclasses.replace(p, line=line) if line is not None and p.line is None else p)
    return tuple(out)


def leader_systems(catalogs: Catalogs) -> list[str]:
    """The ids of the rule sets whose force rules count leaders."""
    return [s.id for s in catalogs.all() if has_leaders(s)]


CHANGED_RULE = "A list names catalog units as they were when it was made; a changed unit is costed as it is now."


def catalog_changes(army: ArmyList, system: System) -> list[Problem]:
    """Warnings for catalog units whose stats changed since the revision the list was made with."""
    current = system.definition.revision
    if army.revision is None or army.revision == current:
        return []
    if army.revision > current:
        message = (
            f"the list was made with revision {army.revision} of the {system.id} catalogs; these are revision {current}"
        )
        return [Problem(severity="warning", rule_id="catalog-revision", rule=CHANGED_RULE, message=message)]
    out = []
    seen: set[str] = set()
    for e in army.entries:
        if e.custom or e.unit.name in seen:
            continue
        seen.add(e.unit.name)
        old, new = e.unit.stats_at(army.revision), e.unit.stats
        changes = [
            f"{stat.label} {value_text(stat, old.get(key))} → {value_text(stat, new.get(key))}"
            for key, stat in system.definition.stats.items()
            if old.get(key) != new.get(key)
        ]
        if changes:
            message = (
                f"{e.unit.name} changed since the list was made (catalog revision {army.revision}, now {current}): "
                + ", ".join(changes)
            )
            out.append(
                Problem(
                    severity="warning",
                    rule_id="catalog-changed",
                    rule=CHANGED_RULE,
                    message=message,
                    entry=e.label,
                    entries=(e.index,),
                )
            )
    return out


RENAMED_RULE = (
    "A list keeps a unit its catalog renamed or took out: a renamed unit is the same unit at the same cost,"
    " a retired one is costed by its last stats."
)


def renamed_and_retired(army: ArmyList, system: System) -> list[Problem]:
    """A warning for each entry that names a unit by a former name, or names a retired unit: what
    changed, what the retired unit costs, and the step that brings the list up to date."""
    out = []
    for e in army.entries:
        gone = e.unit.retired
        if e.named:
            message = (
                f"'{e.named}' is now called {e.unit.name} in the {system.id} catalogs: the same unit, at the same cost"
            )
            action = Action(kind="rename", system=system.id, example=(("from", e.named), ("unit", e.unit.name)))
            rule_id = "catalog-renamed"
        elif gone is not None and not e.custom:
            cost = unit_cost(system, e.unit)  # (phrases.amount's words: phrases reads reports, so not imported)
            each = f"{cost:,} {system.measure.of(cost)}"
            message = (
                f"{e.unit.name} is no longer in the {system.id} catalogs (last in revision {gone.revision}"
                f"{': ' + gone.note if gone.note else ''}); it is costed by its last stats, {each} each"
            )
            if gone.replaced_by:
                message += f"; {gone.replaced_by} takes its place"
            example = (("from", e.unit.name), *((("unit", gone.replaced_by),) if gone.replaced_by else ()))
            action = Action(kind="retired", system=system.id, example=example)
            rule_id = "catalog-retired"
        else:
            continue
        out.append(
            Problem(
                severity="warning",
                rule_id=rule_id,
                rule=RENAMED_RULE,
                message=message,
                entry=e.label,
                entries=(e.index,),
                action=action,
            )
        )
    return out
