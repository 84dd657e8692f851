"""Records are deeply immutable and hashable: a process holding a catalog for hours sees it unchanged.

Every value reachable from a loaded rule set, unit, list or report is a record, a tuple, a
``FrozenMap``, a frozenset or a plain immutable value; none can be assigned to or changed in
place, and each hashes.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from listbuilder.api.lists import check_list
from listbuilder.api.rulesets import open_catalogs
from listbuilder.record import FrozenMap, Record, freeze
from listbuilder.rules.formats import Unit

EXAMPLES = Path(__file__).parent.parent / "examples"
CATALOGS = open_catalogs()
IMMUTABLE = (str, int, float, bool, type(None), bytes, Path)


def reachable(value: Any, seen: set[int] | None = None) -> Iterator[Any]:
    """Every value inside ``value``: record fields, tuple items, mapping keys and values."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if isinstance(value, Record):
        children = [getattr(value, f.name) for f in dataclasses.fields(value)]
    elif isinstance(value, FrozenMap):
        children = [*value.keys(), *value.values()]
    elif isinstance(value, tuple | frozenset):
        children = list(value)
    else:
        children = []
    for child in children:
        yield from reachable(child, seen)


def assert_deeply_immutable(root: Any) -> int:
    count = 0
    for value in reachable(root):
        count += 1
        hash(value)
        if isinstance(value, Record):
            name = dataclasses.fields(value)[0].name
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(value, name, None)
        elif isinstance(value, FrozenMap):
            with pytest.raises(TypeError):
                value["new key"] = 1
            for change in (value.clear, value.popitem, lambda v=value: v.update({"x": 1})):
                with pytest.raises(TypeError):
                    change()
        else:
            assert isinstance(value, (tuple, frozenset, *IMMUTABLE)), f"{type(value).__name__} in {type(root).__name__}"
    return count


@pytest.mark.parametrize("system_id", CATALOGS.ids())
def test_a_loaded_rule_set_and_its_units_cannot_change(system_id):
    system = CATALOGS.get(system_id)
    assert assert_deeply_immutable(system) > 50
    assert system.units and all(isinstance(u, Unit) for u in system.units.values())
    for unit in system.units.values():
        assert_deeply_immutable(unit)
        assert hash(unit) == hash(dataclasses.replace(unit))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_read_list_and_its_report_cannot_change(path):
    report = check_list(path, CATALOGS)
    assert_deeply_immutable(report.army)
    assert_deeply_immutable(report)
    assert hash(report) == hash(check_list(path, CATALOGS))


def test_a_custom_unit_with_choices_is_frozen_inside():
    report = check_list(EXAMPLES / "speed-range-power-home-brew.illegal.yaml", CATALOGS)
    custom = [line.entry.unit for line in report.lines if line.entry.custom]
    assert custom and all(isinstance(u.stats["traits"], tuple) for u in custom)
    assert any(u.stats["traits"] for u in custom)


def test_records_built_from_plain_values_freeze_them():
    # A cache or a JSON file hands back plain dicts and lists: the record freezes them on the way in.
    unit = Unit(name="Old Mother", stats={"might": 20, "gear": ["claws", {"kind": "bite", "dice": [1, 2]}]})
    assert unit.stats == {"might": 20, "gear": ("claws", {"kind": "bite", "dice": (1, 2)})}
    assert isinstance(unit.stats, FrozenMap) and isinstance(unit.stats["gear"][1], FrozenMap)
    assert_deeply_immutable(unit)
    assert unit == Unit(name="Old Mother", stats={"gear": ("claws", {"dice": (1, 2), "kind": "bite"}), "might": 20})


def test_a_record_refuses_a_value_that_could_change():
    class Bag:
        __hash__ = None  # type: ignore[assignment]

    with pytest.raises(TypeError, match="cannot hold a Bag"):
        Unit(name="x", stats={"bag": Bag()})


def test_frozen_map_survives_pickle_and_copy_unchanged():
    m = freeze({"a": [1, {"b": {2, 3}}]})
    assert isinstance(m, FrozenMap)
    for again in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m), copy.copy(m)):
        assert again == m and hash(again) == hash(m)
        assert type(again) is FrozenMap
    assert m["a"][1]["b"] == frozenset({2, 3})
    assert m | {"c": 1} == {"a": m["a"], "c": 1}  # a new plain dict; m itself is unchanged
    assert "c" not in m


@pytest.mark.parametrize("system_id", CATALOGS.ids())
def test_a_rule_set_read_back_from_the_cache_is_as_immutable_as_when_loaded(system_id):
    import json

    from listbuilder.rules import plaindata

    system = CATALOGS.get(system_id)
    again = plaindata.decode(json.dumps(plaindata.encode(system)))
    assert again == system and hash(again) == hash(system)
    assert isinstance(again.units, FrozenMap) and isinstance(again.definition.stats, FrozenMap)
    assert_deeply_immutable(again)


def test_a_records_json_is_derived_from_its_fields():
    from pathlib import Path

    from listbuilder.record import Record, record

    @record
    class Inner(Record):
        name: str
        tags: tuple[str, ...] = ()

    @record
    class Outer(Record):
        inner: Inner
        path: Path
        scores: FrozenMap[str, tuple[int, ...]]
        note: str = ""

    value = Outer(inner=Inner(name="Hunter", tags=["fast"]), path=Path("a/b.yaml"), scores={"x": [1, 2]})
    assert value.as_json() == {
        "inner": {"name": "Hunter", "tags": ["fast"]},
        "path": "a/b.yaml",
        "scores": {"x": [1, 2]},
        "note": "",
    }
    assert list(value.as_json()) == ["inner", "path", "scores", "note"]  # the fields' order


def test_a_record_names_what_its_json_holds_and_in_what_order():
    from listbuilder.record import Record, record

    @record
    class Unit(Record):
        name: str
        cost: int

    @record
    class Line(Record):
        unit: Unit
        count: int
        secret: str = "not shown"

        __json__ = ("total", "name=unit.name", "copies=count")

        @property
        def total(self) -> int:
            return self.unit.cost * self.count

    line = Line(unit=Unit(name="Hunter", cost=22), count=3)
    assert line.as_json() == {"total": 66, "name": "Hunter", "copies": 3}
    assert list(line.as_json()) == ["total", "name", "copies"]
