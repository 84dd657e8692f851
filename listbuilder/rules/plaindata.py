"""Plain data in, records out: how the rule-set cache (``cache.py``) stores what it keeps.

JSON objects are mappings with text keys; everything else is tagged with a key that starts with
NUL, which no catalog key can (``files.yamldoc`` refuses NUL in a file). Records are built back
by name, from the record classes of listbuilder that are already imported: nothing is imported,
called or evaluated because a cache file says so. Each record's fields are held to their declared
types as it is built (``shape_of``): a file rewritten with fresh digests but a string where a
number was is refused (``ValueError``), as a damaged one is.

Why not pydantic, which reads every file format (``schema.py``)? This is the warm path, what every
``listbuilder validate`` with a cached rule set runs, and it never imports pydantic's validation
machinery. Reading the cache back through ``schema.adapter`` would: measured here, importing
``pydantic.TypeAdapter`` took 35 ms and building ``SystemFile``'s adapter 41 ms (a run's budget is
2.5x ``import yaml, pydantic``, about 70 ms), where decoding might-skirmish's entry takes 0.3 ms,
0.04 ms of it these checks. A cache entry is also not a file a person writes: it needs no
located messages, only a refusal.
"""

from __future__ import annotations

import json
import sys
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from types import MappingProxyType
from typing import Any, Literal, Union

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
        for (field, fits), v in zip(shape_of(cls), values, strict=True):
            if not fits(v):
                raise ValueError(f"{cls.__name__}.{field} holds a {type(v).__name__} of the wrong shape")
            object.__setattr__(made, field, v)
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


Check = Callable[[Any], bool]
_SHAPES: dict[type, tuple[tuple[str, Check], ...]] = {}


def shape_of(cls: type[Record]) -> tuple[tuple[str, Check], ...]:
    """Each field of a record class with the check its declared type makes of a decoded value,
    worked out once a class. A record nested in a field was checked when it was itself decoded
    (JSON objects are revived from the inside out), so it is only asked to be of its class."""
    found = _SHAPES.get(cls)
    if found is None:
        hints = field_types(cls)
        found = tuple((f.name, _check(hints[f.name])) for f in cls.__record_fields__)
        _SHAPES[cls] = found
    return found


def field_types(cls: type[Record]) -> dict[str, Any]:
    """Each field's declared type, its annotation's text evaluated in the module of the class that
    declares it (a subclass's over its base's): what ``typing.get_type_hints`` gives for the
    fields, without its machinery of forward references, which took two thirds of reading a rule
    set back from the cache. Each text is evaluated once a module."""
    fields = {f.name for f in cls.__record_fields__}
    found: dict[str, Any] = {}
    for owner in reversed(cls.__mro__):
        module = sys.modules[owner.__module__].__dict__
        for name, annotation in vars(owner).get("__annotations__", {}).items():
            if name in fields:
                found[name] = _evaluated(owner.__module__, annotation, module)
    return found


_EVALUATED: dict[tuple[str, str], Any] = {}


def _evaluated(module_name: str, annotation: Any, module: dict[str, Any]) -> Any:
    if not isinstance(annotation, str):
        return annotation
    key = (module_name, annotation)
    if key not in _EVALUATED:
        _EVALUATED[key] = eval(annotation, module)  # our own modules' annotations, never a file's
    return _EVALUATED[key]


def _check(hint: Any) -> Check:
    """What a decoded value must be to be of type ``hint`` (the forms record fields use)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return lambda v: True
    if hint is type(None):
        return lambda v: v is None
    if hint in (int, str, bool):
        return lambda v: type(v) is hint  # True is no count, and 1 no flag
    if hint is float:
        return lambda v: type(v) in (int, float)
    if origin is Literal:
        return lambda v: any(type(v) is type(a) and v == a for a in args)
    if origin in (Union, types.UnionType):
        each = [_check(a) for a in args]
        return lambda v: any(c(v) for c in each)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _check(args[0])
            return lambda v: type(v) is tuple and all(item(x) for x in v)
        fixed = [_check(a) for a in args]
        return lambda v: type(v) is tuple and len(v) == len(fixed) and all(c(x) for c, x in zip(fixed, v, strict=True))
    if origin is Mapping or origin is dict:
        key, value = (_check(a) for a in args)
        return lambda v: isinstance(v, Mapping) and all(key(k) and value(x) for k, x in v.items())
    if isinstance(hint, type):
        return lambda v: isinstance(v, hint)
    raise TypeError(f"no cache check for the type {hint!r}")  # a new form: tests/test_cache_shapes.py


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
