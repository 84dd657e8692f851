"""Rule sets and their catalogs: which there are, and their ready-made units.

``open_catalogs`` gives the ``Catalogs``; a rule set is ``catalogs.get(id)`` (an unknown id is an
``InputError`` with a did-you-mean), every rule set ``catalogs.all()``, what a player picks a rule
set by ``catalogs.choices()``, a faction by any case ``system.faction_named(name)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from listbuilder.army.costing import unit_cost
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System, user_roots
from listbuilder.rules.formats import Unit
from listbuilder.rules.system import RuleSetChoices, SystemChoice

__all__ = [
    "CatalogListing",
    "CatalogUnit",
    "Catalogs",
    "RuleSetChoices",
    "System",
    "SystemChoice",
    "Unit",
    "catalog_units",
    "open_catalogs",
]


def open_catalogs(dirs: Sequence[Path] | None = None) -> Catalogs:
    """The shipped catalogs plus the user's (``dirs``, then ``LISTBUILDER_CATALOGS``)."""
    return Catalogs(user_roots(dirs))


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


def catalog_units(catalogs: Catalogs, system_id: str, faction: str | None = None) -> CatalogListing:
    """The ready-made units of a rule set, or of one of its factions (matched in any case)."""
    system = catalogs.get(system_id)
    chosen = None if faction is None else system.faction_named(faction)
    units = tuple(
        CatalogUnit(unit=u, cost=unit_cost(system, u))
        for u in system.units.values()
        if chosen is None or u.faction == chosen
    )
    return CatalogListing(system=system, faction=chosen, units=units)
