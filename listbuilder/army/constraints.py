"""Judge a costed army list against its rule set's force rules, collecting every problem.

Each constraint kind is one class in ``listbuilder/rules/forcerules/`` that checks itself; a
rule set's ``system.yaml`` says which apply, to what, and in what words. This module gives
them the force to look at.
"""

from __future__ import annotations

from listbuilder.army.costing import figures_in
from listbuilder.record import Record, record
from listbuilder.rules.catalog import System
from listbuilder.rules.forcerules import Problem, UnitRule, noun
from listbuilder.rules.formats import Entry, Group, Unit
from listbuilder.rules.loadout import names

__all__ = ["Force", "Problem", "check_force", "check_unit", "noun"]


@record
class Force(Record):
    """What the force rules look at: the entries, their total cost and the limit."""

    system: System
    entries: tuple[Entry, ...]
    total: int
    limit: int | None

    def size(self, unit: Unit) -> int:
        """How many models one copy of ``unit`` is."""
        return figures_in(self.system, unit)

    def models(self, entry: Entry) -> int:
        return entry.count * figures_in(self.system, entry.unit)

    def all_models(self) -> int:
        return sum(self.models(e) for e in self.entries)

    def members(self, group: Group | None) -> list[tuple[Entry, int]]:
        """The entries with models in ``group`` and how many each has (every model if no group)."""
        out = []
        for e in self.entries:
            n = self.count_in(group, e)
            if n:
                out.append((e, n))
        return out

    def count_in(self, group: Group | None, e: Entry) -> int:
        if group is not None and group.leader is not None:
            # Each leader copy is one leader ('leaders: N' of the entry's copies; all for 'leader: true').
            return e.leaders if group.leader else e.count - e.leaders
        return e.count * per_copy(self.system, group, e.unit)


def per_copy(system: System, group: Group | None, unit: Unit) -> int:
    """How many members of ``group`` (a group chosen by stat, or every model) one copy of ``unit`` brings.

    A group chosen by ``leader`` counts an entry's leader copies instead (``Force.count_in``)."""
    if group is None:
        return figures_in(system, unit)
    assert group.leader is None, "leaders are counted per entry, not per copy"
    values = names(unit.stats.get(group.stat or ""))  # a list stat's items, or one choice
    return figures_in(system, unit) if any(v in group.any_of for v in values) else 0


def check_force(force: Force) -> list[Problem]:
    """Every problem with the force, in the order the rule set lists its rules."""
    problems: list[Problem] = []
    for rule in force.system.definition.constraints:
        problems += rule.check(force)
    return problems


def check_unit(system: System, unit: Unit, entry: str | None = None) -> list[Problem]:
    """The problems with one unit profile alone (stat ranges, exclusive traits, unit size)."""
    problems: list[Problem] = []
    size = figures_in(system, unit)
    for rule in system.definition.constraints:
        if isinstance(rule, UnitRule):
            problems += rule.unit_problems(system, unit, size, entry)
    return problems
