"""Rule sets and their catalogs: which there are, and their ready-made units."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from listbuilder.army.costing import unit_cost
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System, user_roots
from listbuilder.rules.formats import Unit
from listbuilder.rules.system import RuleSetChoices


def open_catalogs(dirs: Sequence[Path] | None = None) -> Catalogs:
    """The shipped catalogs plus the user's (``dirs``, then ``LISTBUILDER_CATALOGS``)."""
    return Catalogs(user_roots(dirs))


def get_system(catalogs: Catalogs, system_id: str) -> System:
    """A rule set by id; an unknown id is an ``InputError`` with a did-you-mean hint."""
    return catalogs.get(system_id)


def systems(catalogs: Catalogs) -> tuple[System, ...]:
    """Every rule set, shipped and the user's, by id."""
    return tuple(catalogs.all())


def system_choices(catalogs: Catalogs) -> RuleSetChoices:
    """What a player picks a rule set by to start a list (id, name, standard game size and
    measure), for every rule set by id, from the cache where it can (cheaper than ``systems``);
    and each rule set that cannot be read, with its located error."""
    return catalogs.choices()


@record
class CatalogUnit(Record):
    """A ready-made unit of a catalog and what it costs."""

    unit: Unit
    cost: int

    __json__ = ("name=unit.name", "faction=unit.faction", "stats=unit.stats", "leader=unit.leader", "cost")


@record
class CatalogListing(Record):
    """A rule set's catalog units, by faction, each with its cost."""

    system: System
    faction: str | None
    units: tuple[CatalogUnit, ...]

    __json__ = ("system=system.id", "faction", "unit_of_cost=system.size_unit", "units")


def faction_named(system: System, faction: str) -> str:
    """The name of ``system``'s faction ``faction`` (matched in any case); an ``InputError``
    with a did-you-mean hint when it has none of that name."""
    return system.faction_named(faction)


def catalog_units(catalogs: Catalogs, system_id: str, faction: str | None = None) -> CatalogListing:
    """The ready-made units of a rule set, or of one of its factions (matched in any case)."""
    system = catalogs.get(system_id)
    chosen = None if faction is None else faction_named(system, faction)
    units = tuple(
        CatalogUnit(unit=u, cost=unit_cost(system, u))
        for u in system.units.values()
        if chosen is None or u.faction == chosen
    )
    return CatalogListing(system=system, faction=chosen, units=units)
