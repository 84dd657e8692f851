"""Plain data in, records out: how the rule-set cache (``cache.py``) stores what it keeps.

JSON objects are mappings with text keys; everything else is tagged with a key that starts with
NUL, which no catalog key can (``files.yamldoc`` refuses NUL in a file). Records are built back
by name, from the record classes of listbuilder that are already imported: nothing is imported,
called or evaluated because a cache file says so.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePath
from types import MappingProxyType
from typing import Any

from listbuilder.record import FrozenMap, Record

_RECORD, _TUPLE, _DICT, _PATH, _FRACTION, _FROZENSET, _PROXY, _FROZENMAP = (f"\0{c}" for c in "RTDPFSMZ")


class NotPlain(TypeError):
    """A value the cache cannot store as plain data (then it is simply not cached)."""


def encode(value: Any) -> Any:
    """``value`` as JSON-ready plain data that ``decode`` turns back into an equal value."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Record):
        fields = type(value).__record_fields__
        return {_RECORD: [_class_name(type(value)), [encode(getattr(value, f.name)) for f in fields]]}
    if isinstance(value, tuple):
        return {_TUPLE: [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, FrozenMap):  # a record's mapping: read back as one, so it stays immutable
        return {_FROZENMAP: [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, (dict, MappingProxyType)):
        if type(value) is dict and all(type(k) is str and not k.startswith("\0") for k in value):
            return {k: encode(v) for k, v in value.items()}
        tag = _DICT if type(value) is dict else _PROXY
        return {tag: [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, PurePath):
        return {_PATH: str(value)}
    if type(value).__name__ == "Fraction" and type(value).__module__ == "fractions":  # without importing it
        return {_FRACTION: [value.numerator, value.denominator]}
    if isinstance(value, frozenset):
        return {_FROZENSET: [encode(v) for v in value]}
    raise NotPlain(f"cannot cache a {type(value).__name__}")


def decode(text: str | bytes) -> Any:
    """The value ``encode`` gave as JSON. Raises ``ValueError`` (or ``TypeError``) on anything else."""
    return json.loads(text, object_hook=_revive)


def _revive(obj: dict[str, Any]) -> Any:
    if len(obj) != 1:
        return obj
    ((key, payload),) = obj.items()
    if not key.startswith("\0"):
        return obj
    if key == _RECORD:
        name, values = payload
        cls = _record_class(name)
        fields = cls.__record_fields__
        if len(values) != len(fields):
            raise ValueError(f"{name} has {len(fields)} fields, the cache {len(values)}")
        made = object.__new__(cls)
        for f, v in zip(fields, values, strict=True):
            object.__setattr__(made, f.name, v)
        return made
    if key == _TUPLE:
        return tuple(payload)
    if key == _DICT:
        return {_hashable(k): v for k, v in payload}
    if key == _PROXY:
        return MappingProxyType({_hashable(k): v for k, v in payload})
    if key == _FROZENMAP:
        return FrozenMap((_hashable(k), v) for k, v in payload)
    if key == _PATH:
        return Path(payload)
    if key == _FRACTION:
        from fractions import Fraction  # imported only when a cache holds one (odds do; rule sets do not)

        return Fraction(*payload)
    if key == _FROZENSET:
        return frozenset(_hashable(v) for v in payload)
    raise ValueError(f"unknown tag {key!r}")


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


_RECORD_CLASSES: dict[str, type[Record]] = {}


def _record_class(name: str) -> type[Record]:
    """A record class of listbuilder's, by name, among those already imported; never an import."""
    cls = _RECORD_CLASSES.get(name)
    if cls is None:
        _RECORD_CLASSES.clear()
        todo: list[type[Record]] = [Record]
        while todo:
            for sub in todo.pop().__subclasses__():
                if sub.__module__.startswith("listbuilder.") and "__record_fields__" in vars(sub):
                    _RECORD_CLASSES[_class_name(sub)] = sub
                todo.append(sub)
        cls = _RECORD_CLASSES.get(name)
        if cls is None:
            raise ValueError(f"no record class {name}")
    return cls
