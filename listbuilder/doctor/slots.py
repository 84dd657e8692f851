"""What the doctor may change: one slot per unit profile of the list or its factions' catalogs.

A slot is a unit (catalog or custom) with how many copies the list has now, and how many of
them are leaders. Its options are the statlines its copies may have: the one written and, for a custom
unit whose statline breaks a rule of its own (Speed 7, Attacker with Defender), the nearest
legal statlines (``repairs``), each with its cost change.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from listbuilder.army.constraints import check_unit
from listbuilder.army.costing import figures_in, unit_cost
from listbuilder.record import Record, record
from listbuilder.rules.catalog import System
from listbuilder.rules.forcerules import UnitRule
from listbuilder.rules.formats import ArmyList, Entry, Unit

REPAIRS = 3  # the nearest legal statlines offered for a broken one
SEARCH = 1000  # how far from a broken number the nearest legal one is looked for


@record
class StatChange(Record):
    """One stat of a repaired statline: ``Speed 7" -> 6"``."""

    stat: str
    label: str
    old: str
    new: str

    def text(self) -> str:
        return f"{self.label} {self.old} → {self.new}"

    __json__ = ("stat", "from=old", "to=new")


@record
class Option(Record):
    """A statline a slot's copies may have: as written (rank 0) or the rank-th nearest legal one."""

    unit: Unit
    cost: int
    size: int
    rank: int = 0
    changes: tuple[StatChange, ...] = ()
    cost_change: int = 0


@record
class Slot(Record):
    """A unit profile the doctor may field, with the copies the list has of it now."""

    name: str
    custom: bool
    current: int
    options: tuple[Option, ...]
    leaders: int = 0  # how many of the ``current`` copies are leaders
    entries: tuple[int, ...] = ()  # the list entries (indices) that hold it, in order
    faction: str | None = None
    fixed: bool = False  # no copy may be added (outside the faction fill was asked for, or retired)

    @property
    def label(self) -> str:
        return self.name


def _key(unit: Unit, custom: bool) -> tuple[Any, ...]:
    if not custom:
        return (False, unit.name.lower())
    return (True, unit.name.lower(), tuple(sorted((k, repr(v)) for k, v in unit.stats.items())))


def leader_matters(system: System) -> bool:
    """Whether a force rule that must hold counts leaders, so marking a copy as a leader is a change."""
    groups = system.definition.groups
    counted = {getattr(c, "of", None) for c in system.definition.constraints if c.severity == "error"}
    return any(g.leader is not None for name, g in groups.items() if name in counted)


def list_slots(army: ArmyList, system: System) -> list[Slot]:
    """One slot per distinct profile of the list (entries of the same unit share one, leaders or not).

    Linear in the list's length: each profile's entries are gathered first and its slot built
    once (a slot rebuilt per entry copied its growing tuple of entries each time)."""
    found: dict[tuple[Any, ...], list[Entry]] = {}
    for e in army.entries:
        found.setdefault(_key(e.unit, e.custom), []).append(e)
    out = []
    for held in found.values():
        first = held[0]
        unit = first.unit
        out.append(
            Slot(
                name=unit.name,
                custom=first.custom,
                current=sum(e.count for e in held),
                leaders=sum(e.leaders for e in held),
                options=(_as_written(system, unit), *(repairs(system, unit) if first.custom else ())),
                entries=tuple(e.index for e in held),
                faction=unit.faction,
                fixed=unit.retired is not None and not first.custom,  # no longer in the catalogs to add
            )
        )
    return out


def catalog_slots(system: System, units: Iterable[Unit], have: Sequence[Slot]) -> list[Slot]:
    """Slots for catalog units the list may add (their copies leaders or not, when leaders are counted)."""
    taken = {_key(s.options[0].unit, s.custom) for s in have}
    out = []
    for unit in units:
        key = _key(unit, False)
        if key in taken:
            continue
        taken.add(key)
        out.append(
            Slot(
                name=unit.name,
                custom=False,
                current=0,
                options=(_as_written(system, unit),),
                faction=unit.faction,
            )
        )
    return out


def _as_written(system: System, unit: Unit) -> Option:
    return Option(unit=unit, cost=unit_cost(system, unit), size=figures_in(system, unit))


def _error_rules(system: System) -> list[UnitRule]:
    return [c for c in system.definition.constraints if isinstance(c, UnitRule) and c.severity == "error"]


def broken(system: System, unit: Unit) -> bool:
    return any(p.severity == "error" for p in check_unit(system, unit))


def repairs(system: System, unit: Unit) -> tuple[Option, ...]:
    """The nearest statlines to ``unit``'s that break none of its rule set's unit rules.

    Each broken rule proposes the nearest values it would accept (``UnitRule.nearest``); values
    of a stat are kept only if every rule on that stat accepts them (searching outward when none
    does), and each combination is checked whole. Nearest first: fewest stats changed, then the
    smallest change, then the smallest change of cost.
    """
    if not broken(system, unit):
        return ()
    rules = _error_rules(system)
    size = figures_in(system, unit)
    proposals: dict[str, list[Any]] = {}
    for rule in rules:
        if rule.unit_problems(system, unit, size):
            for key, nearest in rule.nearest(system, unit, size).items():
                proposals.setdefault(key, [])
                proposals[key] += [v for v in nearest if v not in proposals[key]]
    for key, values in proposals.items():
        fine = [v for v in values if _stat_ok(system, unit, key, v, rules)]
        if not fine and isinstance(unit.stats.get(key), int):
            fine = _search(system, unit, key, rules)
        proposals[key] = fine
    keys = list(proposals)
    cost = unit_cost(system, unit)
    found = []
    for combo in itertools.product(*(proposals[k] for k in keys)):
        stats = {**unit.stats, **dict(zip(keys, combo, strict=True))}
        repaired = dataclasses.replace(unit, stats=stats)
        if broken(system, repaired):
            continue
        changes = tuple(
            StatChange(
                stat=k,
                label=system.definition.stats[k].label,
                old=system.definition.stats[k].show(unit.stats.get(k)),
                new=system.definition.stats[k].show(stats[k]),
            )
            for k in keys
            if stats[k] != unit.stats.get(k)
        )
        new_cost = unit_cost(system, repaired)
        distance = sum(_distance(unit.stats.get(k), stats[k]) for k in keys)
        found.append((len(changes), distance, abs(new_cost - cost), new_cost - cost, repaired, changes, new_cost))
    found.sort(key=lambda f: f[:4])
    return tuple(
        Option(unit=r, cost=c, size=figures_in(system, r), rank=i + 1, changes=ch, cost_change=c - cost)
        for i, (*_, r, ch, c) in enumerate(found[:REPAIRS])
    )


def _stat_ok(system: System, unit: Unit, key: str, value: Any, rules: Sequence[UnitRule]) -> bool:
    trial = dataclasses.replace(unit, stats={**unit.stats, key: value})
    size = figures_in(system, trial)
    return not any(r.unit_problems(system, trial, size) for r in rules if r.judges_stat(system.definition, key))


def _search(system: System, unit: Unit, key: str, rules: Sequence[UnitRule]) -> list[Any]:
    value = unit.stats[key]
    out: list[Any] = []
    for d in range(1, SEARCH + 1):
        for v in (value - d, value + d):
            if _stat_ok(system, unit, key, v, rules):
                out.append(v)
        if len(out) >= 2:
            break
    return out


def _distance(old: Any, new: Any) -> int:
    if isinstance(old, int) and isinstance(new, int):
        return abs(new - old)
    if isinstance(old, tuple | list) and isinstance(new, tuple | list):
        return len(set(old) ^ set(new))
    return 0 if old == new else 1
