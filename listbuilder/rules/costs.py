"""How a unit is costed: each cost kind one class that carries its own behaviour, as force rules do.

A rule set's ``cost`` in ``system.yaml`` is one of these kinds; each carries

- its fields, which *are* the file format (``schema.validate`` reads them);
- ``parts``: what one copy of a unit costs, term by term, so a player can check the sum;
- ``definition_errors``: what it names that must exist in its rule set (a stat, its values);
- ``describe``: its sentence on the printed rules card;
- ``counts_figures``: whether a force is sized by counting figures rather than pricing units.

A new kind is one new class here, with its line in ``Cost`` and in the README.
"""

# No "from __future__ import annotations": the fields' real annotation objects are what
# schema.py builds validators from (see formats.py). Names only needed by type checkers are quoted.
from collections.abc import Mapping
from typing import Literal, Protocol

from listbuilder.errors import Location
from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.forcerules.base import Definition, RuleSet, RuleSetFile
from listbuilder.rules.profiles import Noun, Unit, value_text
from listbuilder.rules.schema import doc


@record
class CostPart(Record):
    """One term of a cost: ``Range 24" -> 16`` (2 points per 3")."""

    label: str
    value: object
    points: int
    rate: str


class CostWords(RuleSetFile, Protocol):
    """What a kind's sentence on the rules card reads of its rule set's definition (``SystemFile``)."""

    @property
    def measure(self) -> Noun: ...

    @property
    def force(self) -> str: ...


def figures_in(system: RuleSet, unit: Unit) -> int:
    """How many models one copy of ``unit`` is (1 unless the rule set has units of figures)."""
    key = system.definition.figures_stat
    return int(unit.stats.get(key, 1)) if key else 1


@record
class CostKind(Record):
    """What every cost kind does; each kind is one subclass with a ``kind: Literal[...]`` field."""

    def parts(self, system: RuleSet, unit: Unit) -> list[CostPart]:
        """The cost of one copy of ``unit``, term by term."""
        raise NotImplementedError(f"{type(self).__name__} has no parts")

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        """Report what this kind names that ``d`` does not have (``where`` is the cost's place)."""

    def describe(self, d: CostWords) -> str:
        """The kind's sentence on the rules card, in the rule set's words."""
        raise NotImplementedError(f"{type(self).__name__} has no sentence")

    def counts_figures(self) -> bool:
        """Whether a force is sized by counting figures rather than pricing units."""
        return False


@record
class LinearTerm(Record):
    """``points`` for each full ``per`` of a stat: 2 points per 3 inches of Range."""

    stat: str = doc("the stat priced")
    points: int = doc("points for each full step")
    per: int = doc("the size of one step", default=1)


@record
class LinearCost(CostKind):
    """A unit costs the sum of its priced stats (per-stat linear formula)."""

    kind: Literal["linear"] = doc("'linear'")
    terms: tuple[LinearTerm, ...] = doc("one term per priced stat")
    source: str = doc("where the source text gives the formula", default="")

    def parts(self, system: RuleSet, unit: Unit) -> list[CostPart]:
        stats = system.definition.stats
        parts = []
        for term in self.terms:
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

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        for i, term in enumerate(self.terms):
            need.need_stat((*where, "terms", i, "stat"), term.stat, ("number",))
            if term.per < 1:
                need.error((*where, "terms", i, "per"), "'per' must be at least 1")

    def describe(self, d: CostWords) -> str:
        # "4 points per Power", "2 points per 3\" of Range": each term reads as English on its own
        terms = []
        for t in self.terms:
            stat = d.stats[t.stat]
            per = f"{t.per}{stat.suffix} of {stat.label}" if t.per != 1 or stat.suffix else stat.label
            terms.append(f"{t.points:,} {d.measure.of(t.points)} per {per}")
        listed = terms[0] if len(terms) == 1 else ", ".join(terms[:-1]) + " and " + terms[-1]
        return f"A {d.model.singular} costs {listed}."


@record
class StatCost(CostKind):
    """A unit costs the value of one stat (cost = Might)."""

    kind: Literal["stat"] = doc("'stat'")
    stat: str = doc("the stat whose value is the cost")
    source: str = doc("where the source text says so", default="")

    def parts(self, system: RuleSet, unit: Unit) -> list[CostPart]:
        value = int(unit.stats[self.stat])
        rate = f"1 {system.measure.singular} each"
        return [CostPart(label=system.definition.stats[self.stat].label, value=value, points=value, rate=rate)]

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        need.need_stat((*where, "stat"), self.stat, ("number",))

    def describe(self, d: CostWords) -> str:
        return f"A {d.model.singular} costs its {d.stats[self.stat].label} in {d.measure.plural}."


@record
class FiguresCost(CostKind):
    """Force size in figures, some types weighing more (vehicles and monsters count as 3)."""

    kind: Literal["figures"] = doc("'figures'")
    weight_stat: str | None = doc("the stat that sets a figure's weight, e.g. 'type'", default=None)
    weights: Mapping[str, int] = doc(
        "weight per value of 'weight_stat'; others weigh 'default'", default_factory=FrozenMap
    )
    default: int = doc("the weight of any other figure", default=1)
    source: str = doc("where the source text (or a ruling) gives the weighting", default="")

    def parts(self, system: RuleSet, unit: Unit) -> list[CostPart]:
        figures = figures_in(system, unit)
        weight = self.default
        label = system.definition.model.plural
        if self.weight_stat:
            kind = unit.stats.get(self.weight_stat)
            weight = self.weights.get(str(kind), self.default)
            label = f"{kind}"
        rate = f"counts as {weight}" if weight != 1 else "1 each"
        return [CostPart(label=label, value=figures, points=figures * weight, rate=rate)]

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        need.need_stat((*where, "weight_stat"), self.weight_stat, ("choice",))
        need.need_values((*where, "weights"), self.weight_stat, self.weights)

    def describe(self, d: CostWords) -> str:
        heavy = ", ".join(f"{name} counts as {w}" for name, w in self.weights.items())
        return f"A {d.force} is counted in {d.measure.plural}" + (f"; {heavy}." if heavy else ".")

    def counts_figures(self) -> bool:
        return True


Cost = LinearCost | StatCost | FiguresCost
