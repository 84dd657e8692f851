"""Judge a costed army list against its rule set's force rules, collecting every problem.

Each constraint kind is generic ("at most N of a group", "at least a share", "one per N",
"exactly N", a stat's range and step, exclusive values, a unit-size range); a rule set's
``system.yaml`` says which apply, to what, and in what words.
"""

from __future__ import annotations

from collections.abc import Callable

from listbuilder.army.costing import figures_in
from listbuilder.record import Record, record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import (
    AtLeast,
    AtLeastShare,
    AtMost,
    AtMostPer,
    Constraint,
    Entry,
    Exactly,
    Exclusive,
    Group,
    Limit,
    StatRange,
    Unit,
    UnitSize,
)
from listbuilder.rules.loadout import names


@record
class Problem(Record):
    """One broken rule: how serious, which rule (in the game's words), by how much, and where."""

    severity: str
    rule_id: str
    rule: str
    message: str
    entry: str | None = None
    source: str = ""
    title: str = ""

    def as_json(self) -> dict[str, str | None]:
        return {
            "severity": self.severity,
            "rule": self.rule,
            "rule_id": self.rule_id,
            "message": self.message,
            "entry": self.entry,
        }


@record
class Force(Record):
    """What the force rules look at: the entries, their total cost and the limit."""

    system: System
    entries: tuple[Entry, ...]
    total: int
    limit: int | None

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
        if group is None:
            return self.models(e)
        if group.leader is not None:
            # 'leader: true' makes each of the entry's copies a leader.
            return e.count if e.leader == group.leader else 0
        values = names(e.unit.stats.get(group.stat or ""))  # a list stat's items, or one choice
        return self.models(e) if any(v in group.any_of for v in values) else 0


def noun(system: System, group: Group | None, n: int) -> str:
    """'fighters', 'basic fighter', 'leaders': the words for ``n`` members of a group."""
    words = system.definition.model.of(n)
    if group is None:
        return words
    if group.noun is not None:
        return group.noun.of(n)
    return f"{group.label} {words}"


def _contributors(members: list[tuple[Entry, int]]) -> str:
    parts = [f"{e.unit.name} ×{n}" if n != 1 else e.unit.name for e, n in members[:6]]
    if len(members) > 6:
        parts.append(f"and {len(members) - 6} more")
    return ", ".join(parts)


def _entries(members: list[tuple[Entry, int]]) -> str:
    return ", ".join(e.label for e, _ in members)


def check_force(force: Force) -> list[Problem]:
    """Every problem with the force, in the order the rule set lists its rules."""
    problems: list[Problem] = []
    for rule in force.system.definition.constraints:
        problems += CHECKS[type(rule)](force, rule)
    return problems


def check_unit(system: System, unit: Unit, entry: str | None = None) -> list[Problem]:
    """The problems with one unit profile alone (stat ranges, exclusive traits, unit size)."""
    problems: list[Problem] = []
    for rule in system.definition.constraints:
        if isinstance(rule, StatRange | Exclusive | UnitSize):
            problems += _unit_rule(system, rule, unit, 1, entry)
    return problems


def _problem(rule: Constraint, message: str, entry: str | None = None) -> Problem:
    return Problem(
        severity=rule.severity,
        rule_id=rule.id,
        rule=rule.rule,
        message=message,
        entry=entry,
        source=rule.source,
        title=rule.title,
    )


def _group(force: Force, rule: Constraint) -> Group | None:
    name = getattr(rule, "of", None)
    return force.system.definition.groups[name] if name else None


def _check_limit(force: Force, rule: Limit) -> list[Problem]:
    if force.limit is None or force.total <= force.limit:
        return []
    unit = force.system.size_unit
    over = force.total - force.limit
    word = unit if over != 1 else unit[:-1]
    return [
        _problem(
            rule, f"{over:,} {word} over the {force.limit:,}-{unit[:-1]} limit ({force.total:,} of {force.limit:,})"
        )
    ]


def _check_at_most(force: Force, rule: AtMost) -> list[Problem]:
    group = _group(force, rule)
    members = force.members(group)
    n = sum(c for _, c in members)
    if n <= rule.count:
        return []
    over = n - rule.count
    found = f"{n:,} {noun(force.system, group, n)}"
    if group is not None:
        found += f" ({_contributors(members)})"
    return [
        _problem(
            rule,
            f"{over:,} {noun(force.system, group, over)} too many: {found}, at most {rule.count:,}",
            _entries(members) if group is not None else None,
        )
    ]


def _check_at_least(force: Force, rule: AtLeast) -> list[Problem]:
    group = _group(force, rule)
    n = sum(c for _, c in force.members(group))
    if n >= rule.count:
        return []
    short = rule.count - n
    return [
        _problem(rule, f"{short:,} {noun(force.system, group, short)} short: {n:,}, at least {rule.count:,} needed")
    ]


def _check_exactly(force: Force, rule: Exactly) -> list[Problem]:
    group = _group(force, rule)
    members = force.members(group)
    n = sum(c for _, c in members)
    if n == rule.count:
        return []
    if n < rule.count:
        short = rule.count - n
        lead = (
            f"no {noun(force.system, group, 1)} chosen"
            if n == 0
            else f"{short:,} {noun(force.system, group, short)} short"
        )
        return [_problem(rule, f"{lead}: {n:,}, exactly {rule.count:,} needed")]
    over = n - rule.count
    return [
        _problem(
            rule,
            f"{over:,} {noun(force.system, group, over)} too many: {n:,} ({_contributors(members)}), "
            f"exactly {rule.count:,} allowed",
            _entries(members),
        )
    ]


def _check_share(force: Force, rule: AtLeastShare) -> list[Problem]:
    group = _group(force, rule)
    total = force.all_models()
    n = sum(c for _, c in force.members(group))
    # "at least half" means n/total >= 1/2, i.e. n * denominator >= total * numerator.
    if n * rule.denominator >= total * rule.numerator:
        return []
    need = -(-total * rule.numerator // rule.denominator)
    short = need - n
    return [
        _problem(
            rule, f"{short:,} {noun(force.system, group, short)} short: {n:,} of {total:,}, at least {need:,} needed"
        )
    ]


def _check_per(force: Force, rule: AtMostPer) -> list[Problem]:
    group = _group(force, rule)
    total = force.all_models()
    members = force.members(group)
    n = sum(c for _, c in members)
    steps = total // rule.per if rule.rounding == "down" else -(-total // rule.per)
    allowed = steps * rule.count
    if n <= allowed:
        return []
    over = n - allowed
    models = force.system.definition.model
    return [
        _problem(
            rule,
            f"{over:,} {noun(force.system, group, over)} too many: {n:,} among {total:,} {models.of(total)}, "
            f"at most {allowed:,} ({rule.count} per {rule.per} {models.plural}, rounded {rule.rounding})",
            _entries(members),
        )
    ]


def _unit_rule(
    system: System, rule: StatRange | Exclusive | UnitSize, unit: Unit, count: int, entry: str | None
) -> list[Problem]:
    if isinstance(rule, StatRange):
        stat = system.definition.stats[rule.stat]
        value = unit.stats.get(rule.stat)
        if not isinstance(value, int):
            return []
        shown = f"{stat.label} {stat.show(value)}"
        if rule.minimum is not None and value < rule.minimum:
            return [
                _problem(
                    rule, f"{shown} is {rule.minimum - value:,} below the minimum of {stat.show(rule.minimum)}", entry
                )
            ]
        if rule.maximum is not None and value > rule.maximum:
            return [
                _problem(
                    rule, f"{shown} is {value - rule.maximum:,} above the maximum of {stat.show(rule.maximum)}", entry
                )
            ]
        if rule.step and (value - (rule.minimum or 0)) % rule.step:
            base = rule.minimum or 0
            lower = value - (value - base) % rule.step
            near = [v for v in (lower, lower + rule.step) if (rule.minimum is None or v >= rule.minimum)]
            return [
                _problem(
                    rule,
                    f"{shown} is not a multiple of {rule.step}: {' or '.join(stat.show(v) for v in near)} would be",
                    entry,
                )
            ]
        return []
    if isinstance(rule, Exclusive):
        value = names(unit.stats.get(rule.stat, ()))
        both = [v for v in rule.values if v in value]
        if len(both) <= 1:
            return []
        label = system.definition.stats[rule.stat].label
        return [
            _problem(rule, f"has {' and '.join(both)} among its {label.lower()}; at most one of them is allowed", entry)
        ]
    size = figures_in(system, unit)
    low, high = rule.minimum, rule.maximum
    span = (
        f"{low} to {high}"
        if low is not None and high is not None
        else (f"at least {low}" if low is not None else f"at most {high}")
    )
    plural = system.definition.model.of(size)
    if low is not None and size < low:
        return [_problem(rule, f"{size} {plural} is {low - size} below the {span} a unit should have", entry)]
    if high is not None and size > high:
        return [_problem(rule, f"{size} {plural} is {size - high} above the {span} a unit should have", entry)]
    return []


def _per_entry(force: Force, rule: StatRange | Exclusive | UnitSize) -> list[Problem]:
    out: list[Problem] = []
    for e in force.entries:
        out += _unit_rule(force.system, rule, e.unit, e.count, e.label)
    return out


CHECKS: dict[type, Callable[[Force, object], list[Problem]]] = {
    Limit: _check_limit,  # type: ignore[dict-item]
    AtMost: _check_at_most,  # type: ignore[dict-item]
    AtLeast: _check_at_least,  # type: ignore[dict-item]
    Exactly: _check_exactly,  # type: ignore[dict-item]
    AtLeastShare: _check_share,  # type: ignore[dict-item]
    AtMostPer: _check_per,  # type: ignore[dict-item]
    StatRange: _per_entry,  # type: ignore[dict-item]
    Exclusive: _per_entry,  # type: ignore[dict-item]
    UnitSize: _per_entry,  # type: ignore[dict-item]
}
