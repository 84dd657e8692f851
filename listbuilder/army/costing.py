"""What a unit costs, by its rule set's declared formula: linear per stat, a stat, or figures."""

from __future__ import annotations

from listbuilder.record import Record, record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Entry, FiguresCost, LinearCost, StatCost, Unit
from listbuilder.rules.statline import value_text


@record
class CostPart(Record):
    """One term of a cost: ``Range 24" -> 16`` (2 points per 3")."""

    label: str
    value: object
    points: int
    rate: str


def figures_in(system: System, unit: Unit) -> int:
    """How many models one copy of ``unit`` is (1 unless the rule set has units of figures)."""
    key = system.definition.figures_stat
    return int(unit.stats.get(key, 1)) if key else 1


def cost_parts(system: System, unit: Unit) -> list[CostPart]:
    """The cost of one copy of ``unit``, term by term, so a player can check the sum."""
    cost = system.definition.cost
    stats = system.definition.stats
    if isinstance(cost, LinearCost):
        parts = []
        for term in cost.terms:
            value = int(unit.stats[term.stat])
            # Only whole steps are priced ("each 3 inches costs 2"); values off the step are
            # flagged by the stat_range rules, not silently rounded up.
            rate = f"{term.points} per {term.per}{stats[term.stat].suffix}" if term.per != 1 else f"{term.points} each"
            parts.append(
                CostPart(
                    label=stats[term.stat].label,
                    value=value_text(stats[term.stat], value),
                    points=value // term.per * term.points,
                    rate=rate,
                )
            )
        return parts
    if isinstance(cost, StatCost):
        value = int(unit.stats[cost.stat])
        rate = f"1 {system.measure.singular} each"
        return [CostPart(label=stats[cost.stat].label, value=value, points=value, rate=rate)]
    assert isinstance(cost, FiguresCost)
    figures = figures_in(system, unit)
    weight = cost.default
    label = system.definition.model.plural
    if cost.weight_stat:
        kind = unit.stats.get(cost.weight_stat)
        weight = cost.weights.get(str(kind), cost.default)
        label = f"{kind}"
    return [
        CostPart(
            label=label, value=figures, points=figures * weight, rate=f"counts as {weight}" if weight != 1 else "1 each"
        )
    ]


def unit_cost(system: System, unit: Unit) -> int:
    """The cost of one copy of ``unit`` in the rule set's unit (points or figures)."""
    return sum(p.points for p in cost_parts(system, unit))


def entry_cost(system: System, entry: Entry) -> int:
    return unit_cost(system, entry.unit) * entry.count
