"""Reading and judging lists, and pricing a statline by a rule set's formula."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from listbuilder.army.constraints import Problem, check_unit
from listbuilder.army.costing import CostPart, cost_parts
from listbuilder.army.listfile import parse_list, read_list
from listbuilder.army.report import Report, build_report
from listbuilder.errors import ErrorDetail, InputError, did_you_mean
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.rules.formats import Unit
from listbuilder.yamlfile import Document, parse_yaml

COMMAND_LINE = Path("command line")


def check_list(path: Path, catalogs: Catalogs) -> Report:
    """Read, cost and judge one list file."""
    army, system = read_list(path, catalogs)
    return build_report(army, system)


def check_text(text: str, catalogs: Catalogs, source: Path = Path("<list>")) -> Report:
    """Read, cost and judge a list given as text; ``source`` names it in messages."""
    army, system = parse_list(parse_yaml(text.removeprefix("\ufeff"), source), catalogs)
    return build_report(army, system)


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


def _as_option(detail: ErrorDetail) -> ErrorDetail:
    """Reword a unit error for the command line: name the option, not a YAML path."""
    message = detail.message.replace("the stat '", "the option --").replace("' (", " (")
    if detail.path:
        message = f"--{detail.path[-1]}: {message}"
    return ErrorDetail(message=message, hint=detail.hint)


def parse_stat_options(system: System, args: Sequence[str]) -> dict[str, object]:
    """Turn ``--speed 6 --range=24 --traits attacker,big-guns`` into stat values.

    Numbers become ints; 'choices' stats take a comma-separated list. Unknown options get a
    did-you-mean hint.
    """
    stats = system.definition.stats
    values: dict[str, object] = {}
    errors: list[ErrorDetail] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--"):
            errors.append(ErrorDetail(message=f"unexpected '{arg}'", hint="give stats as --stat VALUE"))
            i += 1
            continue
        key, _, value = arg[2:].partition("=")
        if not value:
            if i + 1 >= len(args):
                errors.append(ErrorDetail(message=f"--{key} needs a value"))
                break
            value = args[i + 1]
            i += 1
        i += 1
        key = key.replace("-", "_") if key.replace("-", "_") in stats else key
        if key == "name":
            values["name"] = value
            continue
        stat = stats.get(key)
        if stat is None:
            options = [f"--{k}" for k in stats]
            errors.append(
                ErrorDetail(
                    message=f"{system.id} has no stat --{key}",
                    hint=did_you_mean(f"--{key}", options) or f"its stats: {', '.join(options)}",
                )
            )
        elif stat.kind == "number":
            try:
                values[key] = int(value)
            except ValueError:
                errors.append(ErrorDetail(message=f"--{key} must be a whole number, found '{value}'"))
        elif stat.kind == "choices":
            values[key] = [v.strip() for v in value.split(",") if v.strip()]
        else:
            values[key] = value
    if errors:
        raise InputError("these options cannot be used", file=COMMAND_LINE, details=errors)
    return values


def price(system: System, stats: dict[str, object], unit_name: str | None = None) -> Pricing:
    """Price a catalog unit (by name) or a custom statline, and check it against the unit rules."""
    if unit_name is not None:
        unit = system.find_unit(unit_name)
        if unit is None:
            hint = (
                did_you_mean(unit_name, [u.name for u in system.units.values()])
                or f"'listbuilder catalog {system.id}' lists them"
            )
            raise InputError(f"no unit '{unit_name}' in the {system.id} catalogs", details=[ErrorDetail(message=hint)])
    else:
        data = {"name": "Custom unit", **stats}
        doc = Document(path=COMMAND_LINE, data=data, positions={}, text="")
        found, errors = system.read_unit(data, doc, ())
        if found is None:
            raise InputError(
                "this statline cannot be priced", file=COMMAND_LINE, details=[_as_option(e) for e in errors]
            )
        unit = found
    return Pricing(
        system=system, unit=unit, parts=tuple(cost_parts(system, unit)), problems=tuple(check_unit(system, unit))
    )
