"""The catalog's units as a builder offers them to add: each worded once per loaded rule set (its
stats in words, its cost), and found by the words of a search."""

from __future__ import annotations

import weakref
from typing import Any

from listbuilder.army.costing import unit_cost
from listbuilder.army.phrases import stats_line
from listbuilder.record import Record, record
from listbuilder.rules.system import System


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
