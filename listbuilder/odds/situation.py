"""The situation of a matchup (cover, defending, which fight of the turn...) and what units give it.

Every mechanic declares its options in its rule set's odds file; this module checks the
keywords a caller passes against them, fills in defaults, and reads the numbers a mechanic
needs from a unit: a number stat, or a property of the unit's choices (``type`` -> ``attacks``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from listbuilder.errors import ErrorDetail, InputError
from listbuilder.odds.mechanic import Mechanic
from listbuilder.odds.parts import DamageRoll, FromUnit, Modifier, Option, Requirement, option_values
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Choice, Unit
from listbuilder.rules.loadout import names
from listbuilder.rules.schema import describe_value
from listbuilder.words import did_you_mean, one_of

Values = Mapping[str, Any]


class OddsError(InputError):
    """A matchup cannot be worked out as asked: an unknown option, a bad value, a missing stat."""


class ImpossibleMatchup(OddsError):
    """The rules do not allow this matchup at all (a Warrior cannot shoot; no Power left to attack)."""


def resolve(system: System, mechanic: Mechanic, given: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``given`` against the mechanic's options and fill in each default.

    Raises ``OddsError`` naming every unknown keyword (with a did-you-mean) and every bad value.
    """
    options = mechanic.options
    problems: list[ErrorDetail] = []
    unknown = [key for key in given if key not in options]
    for key, value in given.items():
        option = options.get(key)
        if option is None:
            hint = did_you_mean(key, options) or (
                f"its options: {', '.join(options)}" if options else "it takes no options"
            )
            problems.append(ErrorDetail(message=f"unknown option '{key}'", hint=hint))
            continue
        problem = _bad_value(system, key, option, value)
        if problem:
            problems.append(problem)
    if unknown:
        names = ", ".join(f"'{k}'" for k in unknown)
        raise OddsError(
            f"unknown option{'s' if len(unknown) > 1 else ''} {names} for {system.id} '{mechanic.id}'", details=problems
        )
    if problems:
        raise OddsError(f"{system.id} '{mechanic.id}' cannot use this situation", details=problems)
    return {key: given.get(key, option.default) for key, option in options.items()}


def _bad_value(system: System, key: str, option: Option, value: Any) -> ErrorDetail | None:
    found = describe_value(value)
    if option.kind == "flag":
        ok = isinstance(value, bool)
        expected = "true or false"
    elif option.kind == "number":
        # None means "not given" and is only allowed where the default is None
        ok = (value is None and option.default is None) or (isinstance(value, int) and not isinstance(value, bool))
        ok = ok and (value is None or option.minimum is None or value >= option.minimum)
        ok = ok and (value is None or option.maximum is None or value <= option.maximum)
        low = "" if option.minimum is None else f" from {option.minimum}"
        high = "" if option.maximum is None else f" to {option.maximum}"
        expected = f"a whole number{low}{high}"
    else:
        allowed = option_values(system, option)
        ok = value in allowed
        expected = one_of(allowed)
        if not ok and isinstance(value, str):
            # a value the rules rule out (not a typo) is explained by the option's own summary
            hint = did_you_mean(value, allowed) or option.summary
            return ErrorDetail(message=f"{key}: expected {expected}, found {found}", hint=hint)
    return None if ok else ErrorDetail(message=f"{key}: expected {expected}, found {found}")


def holds(when: Mapping[str, Any], unless: Mapping[str, Any], values: Values) -> bool:
    """Whether every ``when`` condition holds and no ``unless`` one does (a list means any of)."""
    return all(_matches(values.get(k), v) for k, v in when.items()) and not any(
        _matches(values.get(k), v) for k, v in unless.items()
    )


def _matches(value: Any, wanted: Any) -> bool:
    return value in wanted if isinstance(wanted, list | tuple) else value == wanted


def as_number(value: Any) -> Fraction:
    """A property as a number: ``2``, ``"+1"``, ``"-1"`` or ``"1/2"``; true/false count as 1/0."""
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, int | float):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except ValueError:
            pass
    raise OddsError(f"expected a number, found {describe_value(value)}")


def chosen(system: System, unit: Unit, stat_key: str, where: Mapping[str, Any] | None = None) -> list[Choice]:
    """The choices a unit has for a choice or choices stat (only those matching ``where``)."""
    stat = system.definition.stats[stat_key]
    found = [c for c in (stat.choice(n) for n in names(unit.stats.get(stat_key))) if c is not None]
    if where:
        found = [
            c for c in found if all((c.name if k == "name" else c.properties.get(k)) == v for k, v in where.items())
        ]
    return found


def read(system: System, unit: Unit, source: FromUnit) -> Fraction:
    """The number ``source`` names on ``unit``: a number stat, or its choices' property summed."""
    stat = system.definition.stats[source.stat]
    if stat.kind == "number":
        value = unit.stats.get(source.stat)
        if not isinstance(value, int) or isinstance(value, bool):
            raise OddsError(f"{unit.name} has no {stat.label}")
        return Fraction(value)
    assert source.property is not None
    values = [c.properties.get(source.property) for c in chosen(system, unit, source.stat, source.where)]
    values = [v for v in values if v is not None]
    if not values and stat.kind == "choice":
        raise OddsError(f"{unit.name}: its {stat.label} gives no '{source.property}'")
    return sum((as_number(v) for v in values), Fraction(0))


def has(system: System, unit: Unit, stat: str, prop: str | None, equals: Any, any_of: Iterable[str] = ()) -> bool:
    """Whether one of the unit's choices has ``prop == equals`` (or is one of ``any_of``)."""
    choices = chosen(system, unit, stat)
    if prop is None:
        return any(c.name in tuple(any_of) for c in choices)
    return any(c.properties.get(prop) == equals for c in choices)


def modifier(system: System, modifiers: Iterable[Modifier], side: str, unit: Unit, values: Values) -> tuple[int, int]:
    """The side's modifiers: (added to every figure's die, added to one figure's die only)."""
    every, one = Fraction(0), Fraction(0)
    for m in modifiers:
        if m.side not in (side, "both") or not holds(m.when, m.unless, values):
            continue
        if m.add is not None:
            amount = Fraction(m.add)
        else:
            assert m.stat is not None and m.property is not None
            amount = sum(
                (as_number(c.properties.get(m.property, 0)) for c in chosen(system, unit, m.stat, m.where)),
                Fraction(0),
            )
        if m.figures == "one":
            one += amount
        else:
            every += amount
    return int(every), int(one)


def check(system: System, requirements: Iterable[Requirement], units: Mapping[str, Unit], values: Values) -> None:
    """Raise ``ImpossibleMatchup`` for the first requirement a side does not meet."""
    for r in requirements:
        if holds(r.when, r.unless, values) and not has(system, units[r.side], r.stat, r.property, r.equals, r.any_of):
            raise ImpossibleMatchup.detailed(f"{units[r.side].name} {r.reason}", r.source)


def removal_chance(system: System, roll: DamageRoll | None, unit: Unit) -> Fraction:
    """The chance a casualty is removed: 1, or the damage roll's chance for units that make one."""
    if roll is None or not has(system, unit, roll.stat, roll.property, True):
        return Fraction(1)
    return Fraction(roll.sides - roll.removed_on + 1, roll.sides)
