"""Price a statline given as stats (``{"might": 6}``, ``"Beast, Might 6"``), or a catalog unit changed.

``price`` takes the stats as values; ``read_stats`` reads them from text, stat by stat or as one
statline, by the one statline grammar (``rules/statline``): a list stat joins its values with ``+``
(``attacker+big-guns``; the older ``attacker,big-guns`` is read too). Errors name the stat, list
every stat the rule set has and give a statline in its grammar; each face adds how to give them
(the command line's options, the web builder's form) through the ``price`` action.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

from listbuilder.army.constraints import Problem, check_unit
from listbuilder.army.costing import CostPart, cost_parts
from listbuilder.errors import Action, ErrorDetail, InputError
from listbuilder.record import Record, record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.rules.statline import parse_stats, parse_value, stats_help, value_text
from listbuilder.rules.statline import stats_example as statline_example
from listbuilder.words import did_you_mean


@record
class Pricing(Record):
    """A statline priced term by term, with the rules it breaks on its own."""

    system: System
    unit: Unit
    parts: tuple[CostPart, ...]
    problems: tuple[Problem, ...]

    @property
    def total(self) -> int:
        return sum(p.points for p in self.parts)

    @property
    def legal(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    def as_json(self) -> dict[str, Any]:
        return {
            "system": self.system.id,
            "unit": self.unit.name,
            "stats": {k: list(v) if isinstance(v, tuple) else v for k, v in self.unit.stats.items()},
            "total": self.total,
            "unit_of_cost": self.system.size_unit,
            "legal": not self.problems,
            "parts": [{"stat": p.label, "value": str(p.value), "rate": p.rate, "cost": p.points} for p in self.parts],
            "problems": [p.as_json() for p in self.problems],
        }


def stats_example(system: System) -> tuple[tuple[str, str], ...]:
    """A statline of the rule set as (key, value) pairs, one a stat it needs: ``(("might", "1"),)``."""
    parts = []
    for key, stat in system.definition.stats.items():
        if stat.kind == "number":
            parts.append((key, "1"))
        elif stat.choices and (stat.kind == "choice" or stat.required):
            parts.append((key, stat.choices[0].name))
    return tuple(parts)


def stats_guide(system: System) -> ErrorDetail:
    """The rule set's stats, what each takes and an example statline: what a face shows a player
    who asks how to price a statline (the ``price`` action words how to give them)."""
    return ErrorDetail(
        message=f"{system.id} stats: {stats_help(system)}",
        hint=f"e.g. '{statline_example(system)}'",
        action=Action(kind="price", system=system.id, example=stats_example(system)),
    )


def read_stats(system: System, given: Sequence[tuple[str, str]] = (), statline: str = "") -> dict[str, Any]:
    """Stat values written as text, each ``(stat key, text)`` (``("traits", "attacker+big-guns")``),
    and a whole statline (``"Speed 6, Range 24"``), read by the statline grammar; the key ``name``
    names the unit. Raises ``InputError`` naming each stat it cannot use, with the rule set's stats
    and an example; each face says how to give them (the ``price`` action)."""
    stats = system.definition.stats
    values: dict[str, Any] = {}
    errors: list[ErrorDetail] = []

    def put(key: str, value: Any, how: str) -> None:
        if key in values:
            label = stats[key].label if key in stats else key
            errors.append(ErrorDetail(message=f"{label} is given twice ({how})", hint="give each stat once"))
        values[key] = value

    for key, value in given:
        if key == "name":
            values["name"] = value
            continue
        stat = stats.get(key)
        if stat is None:
            errors.append(
                ErrorDetail(
                    message=f"{system.id} has no stat '{key}'",
                    hint=did_you_mean(key, list(stats)) or f"its stats: {', '.join(stats)}",
                )
            )
            continue
        text = value.replace(",", "+") if stat.kind == "choices" else value
        parsed, problem = parse_value(system, key, text)
        if problem is not None:
            errors.append(_value_problem(system, key, value))
        else:
            put(key, parsed, f"{key} {value}")
    if statline:
        parsed_line = parse_stats(system, statline)
        if isinstance(parsed_line, str):
            unit = system.find_unit(statline)
            message = f"cannot read the statline '{statline[:60]}': {parsed_line}"
            if unit is None:
                errors.append(ErrorDetail(message=message, hint=f'write it as "{statline_example(system)}"'))
            else:
                errors.append(
                    ErrorDetail(
                        message=message,
                        hint=f"{unit.name} is a catalog unit",
                        action=Action(kind="price-unit", system=system.id, example=(("unit", unit.name),)),
                    )
                )
        else:
            for key, value in parsed_line.items():
                put(key, value, "in the statline and as an option")
    if errors:
        raise InputError("these stats cannot be used", details=[*errors, stats_guide(system)])
    return values


def _value_problem(system: System, key: str, value: str) -> ErrorDetail:
    stat = system.definition.stats[key]
    if stat.kind == "number":
        return ErrorDetail(message=f"{stat.label} must be a whole number, found '{value}'")
    names = [c.name for c in stat.choices]
    words = [w.strip() for w in value.replace(",", "+").split("+")] if stat.kind == "choices" else [value.strip()]
    bad = next((w for w in words if stat.choice(w) is None), value)
    return ErrorDetail(
        message=f"unknown {stat.label} '{bad}'; expected {', '.join(names)}"
        + (" (several joined by +)" if stat.kind == "choices" else ""),
        hint=did_you_mean(bad, names),
    )


def _as_stats(system: System, detail: ErrorDetail) -> ErrorDetail:
    """Reword a unit error for stats given outside a file: by the stat, never a YAML path or key."""
    message = detail.message
    key = next((str(p) for p in detail.path or () if str(p) in system.definition.stats), None)
    named = re.match(r"the stat '(\w+)'", message)
    key = named.group(1) if named and named.group(1) in system.definition.stats else key
    label = system.definition.stats[key].label if key else ""
    if key is not None and f"'{key}'" not in message and label.lower() not in message.lower():
        message = f"{label}: {message}"  # "Traits: 'attacker' is listed twice"
    hint = detail.hint
    if hint and hint.startswith("add '"):  # YAML advice ("add 'class:' with ...") reads wrong here
        hint = hint.replace(f"add '{key}:' with", f"give {label}:") if key else None
    return ErrorDetail(message=message, hint=hint, action=detail.action)


def price(system: System, stats: Mapping[str, Any], unit_name: str | None = None) -> Pricing:
    """Price a catalog unit (by name, with any stats given changed) or a custom statline, and check it."""
    base: Unit | None = None
    if unit_name is not None:
        base = system.unit_named(unit_name)
        changed = {k: v for k, v in stats.items() if k != "name"}
        if not changed:
            unit = base
            return _priced(system, unit)
        stats = {**{k: list(v) if isinstance(v, tuple) else v for k, v in base.stats.items()}, **stats}
    elif not stats or set(stats) == {"name"}:
        raise InputError(
            f"give the stats of the unit to price, or the name of a catalog unit of {system.id}",
            details=[stats_guide(system)],
        )
    found, errors = system.unit_from({"name": "Custom unit", **stats})
    if found is None:
        raise InputError(
            "this statline cannot be priced",
            details=[*(_as_stats(system, e) for e in errors), stats_guide(system)],
        )
    unit = found
    if base is not None and "name" not in stats:
        changes = [
            f"{s.label} {value_text(s, unit.stats[k])}"
            for k, s in system.definition.stats.items()
            if unit.stats.get(k) != base.stats.get(k)
        ]
        unit = dataclasses.replace(unit, name=f"{base.name} with {', '.join(changes)}" if changes else base.name)
    return _priced(system, unit)


def _priced(system: System, unit: Unit) -> Pricing:
    return Pricing(
        system=system, unit=unit, parts=tuple(cost_parts(system, unit)), problems=tuple(check_unit(system, unit))
    )
