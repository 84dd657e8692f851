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

from pathlib import Path
from typing import Any

from listbuilder.errors import ErrorDetail, InputError, did_you_mean, one_of
from listbuilder.rules.catalog import Catalogs, System
from listbuilder.rules.formats import ArmyList, Entry
from listbuilder.rules.schema import describe_value
from listbuilder.yamlfile import Document, load_yaml

TOP_KEYS = ("system", "name", "units", "revision")
CATALOG_ENTRY_KEYS = ("unit", "count", "leader")


def read_list(path: Path, catalogs: Catalogs) -> tuple[ArmyList, System]:
    """Load and check ``path``; return the list and its rule set, or raise ``InputError``."""
    return parse_list(load_yaml(path, "list file"), catalogs)


def parse_list(doc: Document, catalogs: Catalogs) -> tuple[ArmyList, System]:
    """Check a parsed list document against its rule set's format."""
    data = doc.data
    if not isinstance(data, dict):
        found = "an empty file" if data is None else describe_value(data)
        raise doc.error(
            "a list file must be a mapping with 'system', 'name' and 'units'",
            [doc.detail((), f"found {found}", "start from an example in examples/ or run 'listbuilder --help'")],
        )
    system_id = data.get("system")
    if not isinstance(system_id, str):
        message = (
            "the key 'system' is missing"
            if system_id is None
            else f"expected a rule set id, found {describe_value(system_id)}"
        )
        raise doc.error(
            "this list cannot be read",
            [doc.detail(("system",), message, f"add 'system:' with one of: {', '.join(catalogs.ids())}")],
        )
    try:
        system = catalogs.get(system_id)
    except InputError as exc:
        if exc.file is not None:  # the rule set itself is broken: report that file
            raise
        hint = did_you_mean(system_id, catalogs.ids()) or f"the rule sets are: {', '.join(catalogs.ids())}"
        raise doc.error(
            "this list cannot be read", [doc.detail(("system",), f"unknown rule set '{system_id}'", hint)]
        ) from None

    errors: list[ErrorDetail] = []
    limit_key = system.size_unit
    allowed = (*TOP_KEYS, limit_key)
    unknown = [key for key in data if key not in allowed]
    # Only a list with an unknown key pays for loading every rule set to learn their measures.
    other_measures = catalogs.measure_words() - {limit_key} if unknown else set()
    for key in unknown:
        if key in other_measures:
            errors.append(
                doc.detail(
                    (key,),
                    f"'{system_id}' counts a force in {limit_key}, not {key}",
                    f"write '{limit_key}:' instead",
                    key=True,
                )
            )
        else:
            errors.append(
                doc.detail(
                    (key,),
                    f"unknown key '{key}'",
                    did_you_mean(str(key), allowed) or f"a list has the keys {one_of(list(allowed))}",
                    key=True,
                )
            )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        found = "nothing" if name is None else describe_value(name)
        errors.append(
            doc.detail(
                ("name",),
                f"the list needs a name (text), found {found}",
                "add 'name: ...' (in quotes if it looks like a number)",
            )
        )
    limit = data.get(limit_key, system.definition.default_limit)
    if limit_key in data and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        errors.append(
            doc.detail((limit_key,), f"the limit must be a whole number of at least 1, found {describe_value(limit)}")
        )
    revision = data.get("revision")
    if "revision" in data and (isinstance(revision, bool) or not isinstance(revision, int) or revision < 1):
        message = f"the catalog revision must be a whole number of at least 1, found {describe_value(revision)}"
        errors.append(doc.detail(("revision",), message, "it is written by 'listbuilder new'; remove it if unsure"))
    units = data.get("units")
    entries: list[Entry] = []
    if not isinstance(units, list):
        hint = "add 'units:' with one '- unit: NAME' line per entry"
        if "units" not in data:
            message = "the key 'units' is missing"
        elif units is None:
            message = "'units:' has no entries under it"
            hint = "put one '- unit: NAME' line per entry under 'units:', or write 'units: []' for none yet"
        else:
            message = f"expected a list of units, found {describe_value(units)}"
        errors.append(doc.detail(("units",), message, hint))
    else:
        for i, item in enumerate(units):
            entry = _read_entry(item, i, doc, system, errors)
            if entry is not None:
                entries.append(entry)
    if errors:
        raise doc.error("this list cannot be read", errors)
    return ArmyList(
        system=system.id,
        name=str(name).strip(),
        limit=limit if isinstance(limit, int) else None,
        entries=tuple(entries),
        file=str(doc.path),
        revision=revision if isinstance(revision, int) else None,
    ), system


def _read_count(
    item: dict[str, Any], path: tuple[str | int, ...], doc: Document, errors: list[ErrorDetail]
) -> int | None:
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int):
        errors.append(doc.detail((*path, "count"), f"count must be a whole number, found {describe_value(count)}"))
        return None
    if count < 1:
        errors.append(
            doc.detail(
                (*path, "count"),
                f"count must be at least 1, found {count}",
                "write how many to field (1 or more); to field none, delete the entry",
            )
        )
        return None
    return count


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
    count = _read_count(item, path, doc, errors)
    leader = item.get("leader", False)
    if not isinstance(leader, bool):
        errors.append(doc.detail((*path, "leader"), f"expected true or false, found {describe_value(leader)}"))
        return None
    if "name" in item:
        unit, unit_errors = system.read_unit(
            {k: v for k, v in item.items() if k != "count"}, doc, path, extra_keys=("count",)
        )
        errors += unit_errors
        if unit is None or count is None:
            return None
        return Entry(index=i, unit=unit, count=count, leader=unit.leader, custom=True)
    bad = [k for k in item if k not in CATALOG_ENTRY_KEYS]
    for key in bad:
        hint = (
            f"'{key}' is a stat: a catalog unit's stats come from its catalog; use 'name:' for a custom unit"
            if key in system.definition.stats
            else did_you_mean(str(key), CATALOG_ENTRY_KEYS) or f"an entry has {one_of(list(CATALOG_ENTRY_KEYS))}"
        )
        errors.append(doc.detail((*path, key), f"unknown key '{key}'", hint, key=True))
    wanted = item["unit"]
    if not isinstance(wanted, str):
        errors.append(
            doc.detail((*path, "unit"), f"expected a unit name, found {describe_value(wanted)}", "put it in quotes")
        )
        return None
    unit = system.find_unit(wanted.strip())
    if unit is None:
        names = [u.name for u in system.units.values()]
        hint = did_you_mean(wanted, names) or f"'listbuilder catalog {system.id}' lists the units"
        errors.append(doc.detail((*path, "unit"), f"no unit '{wanted}' in the {system.id} catalogs", hint))
        return None
    if bad or count is None:
        return None
    # 'leader:' on the entry overrides the catalog: take a leader profile as a plain figure, or the reverse.
    chosen = leader if "leader" in item else unit.leader
    return Entry(index=i, unit=unit, count=count, leader=chosen, custom=False)
