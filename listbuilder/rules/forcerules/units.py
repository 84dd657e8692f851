"""Force rules on one unit's statline: a stat's range and step, exclusive values, unit size.

Each judges a unit profile alone (``unit_problems``), so ``cost`` can check a statline with no
list around it. For the list doctor each gives the nearest values that would obey it
(``nearest``) and, as its linear form, forbids fielding a profile that breaks it.
"""

import dataclasses
from typing import Any, Literal

from listbuilder.errors import Location
from listbuilder.record import record
from listbuilder.rules.forcerules.base import Definition, Force, ForceRule, LinearForm, Problem, RuleSet, RuleSetFile
from listbuilder.rules.loadout import names
from listbuilder.rules.profiles import Unit
from listbuilder.rules.schema import doc


@record
class UnitRule(ForceRule):
    """A rule every unit profile of a force must obey on its own."""

    def unit_problems(self, system: RuleSet, unit: Unit, size: int, entry: str | None = None) -> list[Problem]:
        """The problems of one profile of ``size`` models."""
        raise NotImplementedError(f"{type(self).__name__} has no unit check")

    def check(self, force: Force) -> list[Problem]:
        out: list[Problem] = []
        for e in force.entries:
            found = self.unit_problems(force.system, e.unit, force.size(e.unit), e.label)
            out += [dataclasses.replace(p, entries=(e.index,)) for p in found]
        return out

    def nearest(self, system: RuleSet, unit: Unit, size: int) -> dict[str, tuple[Any, ...]]:
        """For a profile that breaks this rule: per stat, the nearest values that obey it."""
        return {}

    def encode(self, form: LinearForm) -> None:
        # copies == 0 for every profile that breaks the rule: a broken statline is never fielded.
        for unit, size, copies in form.columns():
            if self.unit_problems(form.system, unit, size):
                form.require(copies, high=0)


def _number_span(low: int | None, high: int | None, step: int | None, value: int) -> tuple[int, ...]:
    """The legal values nearest ``value`` below and above, for a range with an optional step."""
    base = low or 0
    out = []
    start = value if high is None else min(value, high)
    below = start - (start - base) % step if step else start
    if low is None or below >= low:
        out.append(below)
    start = value if low is None else max(value, low)
    above = start + (-(start - base)) % step if step else start
    if high is None or above <= high:
        out.append(above)
    return tuple(sorted(set(out), key=lambda v: (abs(v - value), v)))


@record
class StatRange(UnitRule):
    """A stat's value must lie in a range and go in steps from its minimum (Speed: 0 or more, in steps of 3)."""

    kind: Literal["stat_range"] = doc("'stat_range'")
    stat: str = doc("the number stat checked")
    minimum: int | None = doc("the smallest value allowed", default=None)
    maximum: int | None = doc("the largest value allowed", default=None)
    step: int | None = doc("values go up in steps of this from the minimum (from 0 without one)", default=None)

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        need.need_stat((*where, "stat"), self.stat, ("number",))
        if self.step is not None and self.step < 1:
            need.error((*where, "step"), "'step' must be at least 1")

    def judges_stat(self, d: RuleSetFile, key: str) -> bool:
        return key == self.stat

    def unit_problems(self, system: RuleSet, unit: Unit, size: int, entry: str | None = None) -> list[Problem]:
        stat = system.definition.stats[self.stat]
        value = unit.stats.get(self.stat)
        if not isinstance(value, int):
            return []
        shown = f"{stat.label} {stat.show(value)}"
        if self.minimum is not None and value < self.minimum:
            below = f"{shown} is {self.minimum - value:,} below the minimum of {stat.show(self.minimum)}"
            return [self.problem(below, entry)]
        if self.maximum is not None and value > self.maximum:
            above = f"{shown} is {value - self.maximum:,} above the maximum of {stat.show(self.maximum)}"
            return [self.problem(above, entry)]
        if self.step and (value - (self.minimum or 0)) % self.step:
            near = sorted(_number_span(self.minimum, self.maximum, self.step, value))
            return [
                self.problem(
                    f"{shown} is not {self._steps()}: {' or '.join(stat.show(v) for v in near)} would be",
                    entry,
                )
            ]
        return []

    def _steps(self) -> str:
        """The steps in words: multiples of the step, counted from the minimum when there is one."""
        if not self.minimum:
            return f"a multiple of {self.step}"
        return f"{self.minimum:,} plus a multiple of {self.step}"

    def nearest(self, system: RuleSet, unit: Unit, size: int) -> dict[str, tuple[Any, ...]]:
        value = unit.stats.get(self.stat)
        if not isinstance(value, int):
            return {}
        return {self.stat: _number_span(self.minimum, self.maximum, self.step, value)}


@record
class Exclusive(UnitRule):
    """A unit may have at most one of these values of a 'choices' stat (Attacker or Defender)."""

    kind: Literal["exclusive"] = doc("'exclusive'")
    stat: str = doc("the 'choices' stat checked")
    values: tuple[str, ...] = doc("values that exclude each other")

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        need.need_stat((*where, "stat"), self.stat, ("choices",))
        need.need_values((*where, "values"), self.stat, self.values)

    def judges_stat(self, d: RuleSetFile, key: str) -> bool:
        return key == self.stat

    def unit_problems(self, system: RuleSet, unit: Unit, size: int, entry: str | None = None) -> list[Problem]:
        value = names(unit.stats.get(self.stat, ()))
        both = [v for v in self.values if v in value]
        if len(both) <= 1:
            return []
        label = system.definition.stats[self.stat].label
        message = f"has {' and '.join(both)} among its {label.lower()}; at most one of them is allowed"
        return [self.problem(message, entry)]

    def nearest(self, system: RuleSet, unit: Unit, size: int) -> dict[str, tuple[Any, ...]]:
        # Keep one of the clashing values and drop the others: the fewest values removed.
        value = tuple(unit.stats.get(self.stat, ()))
        clashing = [v for v in self.values if v in names(value)]
        if len(clashing) <= 1:
            return {}
        return {
            self.stat: tuple(
                tuple(item for item in value if names((item,))[0] not in clashing or names((item,))[0] == kept)
                for kept in clashing
            ),
        }


@record
class UnitSize(UnitRule):
    """Each unit has between ``minimum`` and ``maximum`` models."""

    kind: Literal["unit_size"] = doc("'unit_size'")
    minimum: int | None = doc("the fewest models in a unit", default=None)
    maximum: int | None = doc("the most models in a unit", default=None)

    def judges_stat(self, d: RuleSetFile, key: str) -> bool:
        return key == d.figures_stat

    def unit_problems(self, system: RuleSet, unit: Unit, size: int, entry: str | None = None) -> list[Problem]:
        low, high = self.minimum, self.maximum
        span = (
            f"{low} to {high}"
            if low is not None and high is not None
            else (f"at least {low}" if low is not None else f"at most {high}")
        )
        plural = system.definition.model.of(size)
        if low is not None and size < low:
            return [self.problem(f"{size} {plural} is {low - size} below the {span} a unit should have", entry)]
        if high is not None and size > high:
            return [self.problem(f"{size} {plural} is {size - high} above the {span} a unit should have", entry)]
        return []

    def nearest(self, system: RuleSet, unit: Unit, size: int) -> dict[str, tuple[Any, ...]]:
        key = system.definition.figures_stat
        if key is None:  # units of one model: no statline makes them bigger
            return {}
        return {key: _number_span(self.minimum, self.maximum, None, size)}
