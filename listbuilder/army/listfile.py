"""Read an army list file: the format players write and share.

```yaml
system: might-skirmish   # a rule set id
name: Zombie Family
points: 100              # optional: the limit, in the rule set's unit ('figures:' where it counts figures)
units:
  - unit: Hunter         # a catalog unit, matched by name, any case
    count: 2             # optional, default 1
  - name: Old Mother     # or a custom unit: a name and the rule set's stats
    class: Monster
    might: 20
```

Everything not in the format is an error; all errors in a file are reported together.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from listbuilder.errors import Action, ErrorDetail, InputError
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.rules.catalog import OWN_RULE_SET, Catalogs, System
from listbuilder.rules.formats import ArmyList, Entry
from listbuilder.rules.listformat import (
    CATALOG_ENTRY_KEYS,
    COUNT,
    ENTRY_LEADER,
    ENTRY_LEADERS,
    INVALID,
    LIMIT_KEY,
    NAME,
    REVISION,
    SYSTEM,
    TOP_KEYS,
    UNIT,
    UNITS,
    names,
    read_key,
)
from listbuilder.rules.schema import describe_value
from listbuilder.words import did_you_mean, one_of

ENTRY_KEY_NAMES = names(CATALOG_ENTRY_KEYS)


def read_list(path: Path, catalogs: Catalogs) -> tuple[ArmyList, System]:
    """Load and check ``path``; return the list and its rule set, or raise ``InputError``."""
    return parse_list(load_yaml(path, "list file"), catalogs)


def parse_list(doc: Document, catalogs: Catalogs) -> tuple[ArmyList, System]:
    """Check a parsed list document against the list format (``rules/listformat.py``) and its rule set."""
    data = doc.data
    if not isinstance(data, dict):
        found = "an empty file" if data is None else describe_value(data)
        raise doc.error(
            "a list file must be a mapping with 'system', 'name' and 'units'",
            [doc.detail((), f"found {found}", "start from an example in examples/", action=Action(kind="new"))],
        )
    errors: list[ErrorDetail] = []
    system_id = read_key(SYSTEM, data, doc, (), errors)
    if errors:  # the hint lists the rule sets: found only when needed
        hint = str(SYSTEM.hint).format(ids=", ".join(catalogs.ids()))
        raise doc.error("this list cannot be read", [dataclasses.replace(e, hint=hint) for e in errors])
    try:
        system = catalogs.get(system_id)
    except InputError as exc:
        if exc.file is not None:  # the rule set itself is broken: report that file
            raise
        no_such = doc.detail(("system",), f"unknown rule set '{system_id}'", catalogs.unknown_hint(system_id))
        raise doc.error("this list cannot be read", [no_such, OWN_RULE_SET]) from None

    limit_key = system.size_unit
    allowed = names(TOP_KEYS, limit_key)
    unknown = [key for key in data if key not in allowed]
    # Only a list with an unknown key pays for loading every rule set to learn their measures.
    other_measures = catalogs.measure_words() - {limit_key} if unknown else set()
    for key in unknown:
        if key in other_measures:
            message, hint = f"'{system_id}' counts a force in {limit_key}, not {key}", f"write '{limit_key}:' instead"
        else:
            message = f"unknown key '{key}'"
            hint = did_you_mean(str(key), allowed) or f"a list has the keys {one_of(list(allowed))}"
        errors.append(doc.detail((key,), message, hint, key=True))
    name = read_key(NAME, data, doc, (), errors)
    limit = read_key(LIMIT_KEY, data, doc, (), errors, limit_key=limit_key, default=system.definition.default_limit)
    revision = read_key(REVISION, data, doc, (), errors)
    units = read_key(UNITS, data, doc, (), errors)
    entries: list[Entry] = []
    if units is not INVALID:
        for i, item in enumerate(units):
            entry = _read_entry(item, i, doc, system, errors)
            if entry is not None:
                entries.append(entry)
    if errors:
        raise doc.error("this list cannot be read", errors)
    return ArmyList(
        system=system.id,
        name=name.strip(),
        limit=limit,
        entries=tuple(entries),
        file=str(doc.path),
        revision=revision,
        limit_line=doc.locate((limit_key,), key=True)[0] if limit_key in data else None,
        units_line=doc.locate(("units",), key=True)[0],
    ), system


def _read_entry(item: Any, i: int, doc: Document, system: System, errors: list[ErrorDetail]) -> Entry | None:
    path: tuple[str | int, ...] = ("units", i)
    if not isinstance(item, dict):
        errors.append(
            doc.detail(
                path,
                f"expected a unit (a mapping), found {describe_value(item)}",
                "write '- unit: NAME' or '- name: NAME' with stats",
            )
        )
        return None
    if ("unit" in item) == ("name" in item):
        message = (
            "an entry has both 'unit' and 'name'"
            if "unit" in item
            else "an entry needs 'unit' (a catalog unit) or 'name' (a custom unit)"
        )
        errors.append(
            doc.detail(path, message, "use 'unit:' to take a catalog unit, or 'name:' with stats for your own")
        )
        return None
    count = read_key(COUNT, item, doc, path, errors)
    leaders = read_key(ENTRY_LEADERS, item, doc, path, errors)
    if "name" in item:
        entry_keys = (COUNT.key, ENTRY_LEADERS.key)
        unit, unit_errors = system.read_unit(
            {k: v for k, v in item.items() if k not in entry_keys}, doc, path, extra_keys=entry_keys
        )
        errors += unit_errors
        if unit is None or count is INVALID or leaders is INVALID:
            return None
        chosen = _leaders(item, count, unit.leader, leaders, doc, path, errors)
        if chosen is None:
            return None
        return Entry(index=i, unit=unit, count=count, leaders=chosen, custom=True, line=doc.locate(path)[0])
    leader = read_key(ENTRY_LEADER, item, doc, path, errors)
    if leader is INVALID or leaders is INVALID:
        return None
    allowed = ENTRY_KEY_NAMES
    bad = [k for k in item if k not in allowed]
    for key in bad:
        hint = (
            f"'{key}' is a stat: a catalog unit's stats come from its catalog; use 'name:' for a custom unit"
            if key in system.definition.stats
            else did_you_mean(str(key), allowed) or f"an entry has {one_of(list(allowed))}"
        )
        errors.append(doc.detail((*path, key), f"unknown key '{key}'", hint, key=True))
    wanted = read_key(UNIT, item, doc, path, errors)
    if wanted is INVALID:
        return None
    unit = system.listed_unit(wanted.strip())  # a former name or a retired unit still loads, warned of
    if unit is None:
        missing = system.unknown_unit(wanted)
        errors.append(doc.detail((*path, "unit"), missing.message, missing.hint, action=missing.action))
        return None
    if bad or count is INVALID:
        return None
    # 'leader:' on the entry overrides the catalog: take a leader profile as a plain figure, or the reverse.
    chosen = _leaders(item, count, leader if leader is not None else unit.leader, leaders, doc, path, errors)
    if chosen is None:
        return None
    named = wanted.strip() if unit.retired is None and system.find_unit(wanted.strip()) is None else ""
    return Entry(index=i, unit=unit, count=count, leaders=chosen, custom=False, line=doc.locate(path)[0], named=named)


def _leaders(
    item: dict[str, Any],
    count: int,
    every: bool,
    leaders: int | None,
    doc: Document,
    path: tuple[str | int, ...],
    errors: list[ErrorDetail],
) -> int | None:
    """How many of an entry's ``count`` copies are leaders: ``leaders: N`` if written (0 to the
    count), else all of them or none (``every``: 'leader: true', or the catalog's profile)."""
    if leaders is None:
        return count if every else 0
    if ENTRY_LEADER.key in item:
        errors.append(
            doc.detail(
                (*path, ENTRY_LEADERS.key),
                "an entry has both 'leader' and 'leaders'",
                "keep 'leaders: N' (how many are leaders) and delete the 'leader:' line",
                key=True,
            )
        )
        return None
    if leaders > count:
        errors.append(
            doc.detail(
                (*path, ENTRY_LEADERS.key),
                f"leaders is {leaders:,}, more than the entry's count of {count:,}",
                f"write 'leaders:' from 0 to {count:,}, or raise 'count:' to {leaders:,}",
            )
        )
        return None
    return leaders
