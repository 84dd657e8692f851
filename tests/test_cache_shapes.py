"""A cache entry whose values have the wrong shape is rebuilt, never a crash.

Digests only tell a damaged file from the one written; a file rewritten whole with fresh digests
(by hand, by another tool, by an older listbuilder) can hold strings where integers were. Every
record read back from the cache is held to its fields' declared types, and every unit's stats to
its rule set's stat kinds; an entry that fails is ignored and rebuilt, as a damaged one is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

import pytest
from conftest import EXAMPLES

from listbuilder.rules import cache, plaindata

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
TAG = "\0"


def _walk(value: Any, change: Callable[[Any], Any]) -> Any:
    """``value`` (a cache part's plain JSON) with ``change`` applied to every plain field value;
    the tags and the record class names stay as they are, so the file still decodes."""
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)).startswith(TAG):
            ((tag, payload),) = value.items()
            if tag == TAG + "R":
                name, fields = payload
                return {tag: [name, [_walk(v, change) for v in fields]]}
            if tag in (TAG + "P", TAG + "F"):
                return value
            return {tag: _walk(payload, change)}
        return {k: _walk(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, change) for v in value]
    return change(value)


def _ints_to_strings(v: Any) -> Any:
    return str(v) if type(v) is int else v


def _strings_to_ints(v: Any) -> Any:
    return 7 if type(v) is str else v


def _rewrite(folder: Path, change: Callable[[Any], Any], only: str | None = None) -> list[Path]:
    """Every cache entry of ``folder`` with ``change`` made to its parts, and fresh digests."""
    done = []
    for entry in sorted(folder.glob("ruleset-*.json")):
        magic, header_line, body = entry.read_bytes().split(b"\n", 2)
        header = json.loads(header_line)
        offset, parts, bodies = 0, [], []
        for name, size, _ in header["parts"]:
            raw = body[offset : offset + size]
            offset += size
            if only is None or name == only:
                raw = json.dumps(_walk(json.loads(raw), change), ensure_ascii=False).encode()
            parts.append([name, len(raw), hashlib.blake2b(raw).hexdigest()])
            bodies.append(raw)
        header["parts"] = parts
        entry.write_bytes(magic + b"\n" + json.dumps(header).encode() + b"\n" + b"".join(bodies))
        done.append(entry)
    return done


@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("LISTBUILDER_CACHE_DIR", str(folder))
    monkeypatch.delenv("LISTBUILDER_NO_CACHE", raising=False)
    cache.clear()
    yield folder
    cache.clear()


def _commands(tmp_path: Path) -> list[tuple[str, ...]]:
    out = tmp_path / "out.html"
    return [
        ("points", str(ZOMBIES)),
        ("render", str(ZOMBIES), "-o", str(out)),
        ("odds", "might-skirmish", "Hunter", "Grave Digger"),
        ("card", "might-skirmish", "-o", str(tmp_path / "card.html")),
    ]


@pytest.mark.parametrize(
    ("change", "only"),
    [
        (_ints_to_strings, None),
        (_ints_to_strings, "system"),
        (_ints_to_strings, "reference"),
        (_ints_to_strings, "odds"),
        (_strings_to_ints, "system"),
        (_strings_to_ints, "reference"),
        (_strings_to_ints, "odds"),
    ],
)
def test_a_cache_rewritten_with_wrong_types_is_rebuilt(cli, tmp_path, cache_folder, change, only):
    fresh = [cli(*c) for c in _commands(tmp_path)]
    assert [r.exit_code for r in fresh] == [0, 0, 0, 0], [r.stderr for r in fresh]
    tampered = {p: p.read_bytes() for p in _rewrite(cache_folder, change, only)}
    assert tampered
    cache.clear()  # a new run of listbuilder
    again = [cli(*c) for c in _commands(tmp_path)]
    assert [(r.exit_code, r.stderr) for r in again] == [(0, "")] * 4
    assert [r.stdout for r in again] == [r.stdout for r in fresh]
    assert all(p.read_bytes() != data for p, data in tampered.items())  # rebuilt


def test_a_stat_of_the_wrong_kind_is_rebuilt(cli, cache_folder):
    # Hunter is Might 10 (might-skirmish line 6): "10", a string, where the stat is a number
    assert cli("points", ZOMBIES).exit_code == 0
    first = cli("points", ZOMBIES).stdout

    for entry in cache_folder.glob("ruleset-*.json"):
        data = entry.read_bytes()
        hunter = b'["might",10]'
        if hunter in data:
            magic, header_line, body = data.split(b"\n", 2)
            header = json.loads(header_line)
            offset, parts, bodies = 0, [], []
            for name, size, _ in header["parts"]:
                raw = body[offset : offset + size].replace(hunter, b'["might","10"]')
                offset += size
                parts.append([name, len(raw), hashlib.blake2b(raw).hexdigest()])
                bodies.append(raw)
            header["parts"] = parts
            entry.write_bytes(magic + b"\n" + json.dumps(header).encode() + b"\n" + b"".join(bodies))
            break
    else:
        pytest.fail("no cache entry holds Hunter's Might")
    cache.clear()
    result = cli("points", ZOMBIES)
    assert (result.exit_code, result.stderr, result.stdout) == (0, "", first)
    assert b'["might",10]' in entry.read_bytes() and b'"10"' not in entry.read_bytes()  # rebuilt


def test_every_record_class_a_cache_entry_may_hold_has_a_shape_check():
    import listbuilder.odds.load
    import listbuilder.rules.reference
    from listbuilder.record import Record

    assert listbuilder.odds.load and listbuilder.rules.reference  # their record classes, imported

    todo, seen = [Record], []
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            cached = sub.__module__.startswith(("listbuilder.rules.", "listbuilder.odds."))
            if cached and "__record_fields__" in vars(sub):
                seen.append(sub)
    assert len(seen) > 40
    for cls in seen:
        assert len(plaindata.shape_of(cls)) == len(cls.__record_fields__), cls


@pytest.mark.parametrize(
    ("hint", "good", "bad"),
    [
        (int, [0, -3], [True, "1", 1.0, None]),
        (bool, [True], [1, "true"]),
        (str, ["x"], [1, None]),
        (int | None, [None, 2], ["2"]),
        (tuple[int, ...], [(), (1, 2)], [[1], (1, "2")]),
        (tuple[int, str], [(1, "a")], [(1,), ("a", 1)]),
        (Mapping[str, int], [{"a": 1}], [{"a": "1"}, {1: 1}, [("a", 1)]]),
        (Literal["up", "down"], ["up"], ["left", 1]),
        (Any, [object(), None], []),
    ],
)
def test_shape_checks_on_both_sides(hint, good, bad):
    fits = plaindata._check(hint)
    assert all(fits(v) for v in good)
    assert not any(fits(v) for v in bad)


def _records(cls: type) -> list[type]:
    return [cls, *(r for sub in cls.__subclasses__() for r in _records(sub))]


def test_field_types_are_what_typing_says_for_every_record_class():
    import importlib
    import pkgutil
    import typing

    import listbuilder.api
    from listbuilder.record import Record

    for group in pkgutil.iter_modules(listbuilder.api.__path__):  # every group, and with it its records
        importlib.import_module(f"listbuilder.api.{group.name}")
    classes = [c for c in _records(Record) if c.__module__.startswith("listbuilder") and "__record_fields__" in vars(c)]
    assert len(classes) > 100
    compared = 0
    for cls in classes:
        try:
            hints = typing.get_type_hints(cls)
        except NameError:  # an annotation names what its module imports only for the type checker
            continue  # (such a record is never cached)
        assert plaindata.field_types(cls) == {f.name: hints[f.name] for f in cls.__record_fields__}, cls
        compared += 1
    assert compared > 100
