"""Write list files: list data as YAML laid out like the examples, with any name written safely.

Used wherever listbuilder makes a list file rather than reads one: imports from shared text,
and lists with every unit written out in full.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from listbuilder.rules.formats import Unit
from listbuilder.rules.loadout import as_data
from listbuilder.rules.system import System


class Flow(list[Any]):
    """A list written in flow style, ``[Rifle, Repeater]``, as the examples write choices."""


class FlowMap(dict[Any, Any]):
    """A mapping written in flow style, ``{weapon: Rifle, figures: 4}``, as the examples write loadouts."""


class _Dumper(yaml.SafeDumper):
    """Block style with sequences indented under their key, as in the examples."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


_Dumper.add_representer(
    Flow, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)
)
_Dumper.add_representer(
    FlowMap, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True)
)
# Editors read YAML 1.2, where '1e3' and '0o17' are numbers; PyYAML (YAML 1.1) would write them bare.
_YAML12_NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+")


def _text(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    # PyYAML writes some line breaks (NEL, U+2028) bare in a plain or single-quoted scalar, where a
    # reader folds them into spaces: text with anything unprintable goes in double quotes, escaped.
    if not data.isprintable():
        style: str | None = '"'
    elif _YAML12_NUMBER.fullmatch(data):
        style = "'"
    else:
        style = None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _text)


def dump_list(data: dict[str, Any], comment: str = "") -> str:
    """A list file's data as YAML text, keys in the order given, after ``comment`` (whole lines)."""
    # PyYAML quotes and escapes whatever needs it ('yes', '12', control characters), and a
    # width this large keeps long names on one line.
    return comment + yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000)


def list_data(system: System, name: str, limit: int | None, revision: int | None, units: list[Any]) -> dict[str, Any]:
    """The top of a list file: rule set, name, limit (if any), catalog revision (if any) and units."""
    data: dict[str, Any] = {"system": system.id, "name": name}
    if limit is not None:
        data[system.size_unit] = limit
    if revision is not None:
        data["revision"] = revision
    data["units"] = units
    return data


def leader_keys(count: int, leaders: int, profile: bool) -> dict[str, Any]:
    """How an entry says that ``leaders`` of its ``count`` models lead, against what no key means
    (``profile``: a catalog leader profile): nothing, ``leader: true|false`` or ``leaders: N``."""
    if leaders in (0, count):
        every = leaders == count
        return {} if every == profile else {"leader": every}
    return {"leaders": leaders}


def catalog_entry(unit: Unit, count: int, leaders: int) -> dict[str, Any]:
    """A catalog unit taken by name; its leaders are written only where they differ from the catalog."""
    item: dict[str, Any] = {"unit": unit.name}
    if count != 1:
        item["count"] = count
    item.update(leader_keys(count, leaders, unit.leader))
    return item


def custom_entry(system: System, unit: Unit, count: int, leaders: int) -> dict[str, Any]:
    """A unit written out in full as a custom unit: name, count, leaders, every stat, notes."""
    item: dict[str, Any] = {"name": unit.name}
    if count != 1:
        item["count"] = count
    item.update(leader_keys(count, leaders, False))
    for key, stat in system.definition.stats.items():
        value = as_data(unit.stats[key], stat.item, system.definition.figures_stat)
        if isinstance(value, list):  # [Rifle], or one {weapon: Rifle, figures: 4} a line
            value = Flow(value) if not any(isinstance(v, dict) for v in value) else [FlowMap(v) for v in value]
        item[key] = value
    if unit.notes:
        item["notes"] = unit.notes
    return item
