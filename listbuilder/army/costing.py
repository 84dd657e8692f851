"""What a unit costs, by its rule set's declared formula: each cost kind prices itself (``rules/costs.py``)."""

from __future__ import annotations

from listbuilder.rules.costs import CostPart as CostPart  # (re-exported: what a cost is made of)
from listbuilder.rules.costs import figures_in as figures_in
from listbuilder.rules.formats import Entry, Unit
from listbuilder.rules.system import System


def cost_parts(system: System, unit: Unit) -> list[CostPart]:
    """The cost of one copy of ``unit``, term by term, so a player can check the sum."""
    return system.definition.cost.parts(system, unit)


def unit_cost(system: System, unit: Unit) -> int:
    """The cost of one copy of ``unit`` in the rule set's unit (points or figures)."""
    return sum(p.points for p in cost_parts(system, unit))


def entry_cost(system: System, entry: Entry) -> int:
    return unit_cost(system, entry.unit) * entry.count
