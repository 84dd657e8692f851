"""Immutable, typed records that cost nothing to define.

``@dataclass(frozen=True)`` generates six methods per class with ``exec`` at import time; on
Python 3.11 that is about 0.5 ms a class, and listbuilder has forty of them: a fifth of the
start-up budget of ``listbuilder validate``. ``@record`` keeps what dataclasses give us (typed
fields, defaults, ``dataclasses.fields``, ``dataclasses.replace``, type-checker support) but
shares one generic ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` among all records,
and refuses assignment after construction.

Records are *deeply* immutable and hashable, so a long-running process (a web server holding
one catalog for hours) can share them freely: whatever a record is built from, plain dicts and
lists included, is frozen on the way in (``freeze``): lists and tuples become tuples, dicts
become ``FrozenMap``, sets become frozensets. A record can therefore always be rebuilt from the
plain values of a JSON or YAML file.

A record's JSON (``as_json``, what every ``--json`` prints) is derived from its fields: all of
them in order, or those its ``__json__`` names, in that order (a property may be named too,
``"key=name"`` gives a field another key, and ``"key=field.attribute"`` reads through a field).
A record whose JSON is shaped otherwise (a count of bytes instead of the bytes, two fields
nested under one key) says so in its own ``as_json``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import PosixPath, PurePath, WindowsPath
from typing import Any, ClassVar, NoReturn, TypeVar, dataclass_transform

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")
R = TypeVar("R", bound="Record")


class FrozenMap(dict[K, V]):
    """A read-only, hashable mapping whose values are frozen too.

    It is a ``dict`` underneath, so lookups cost what a dict's do and ``json``, pydantic-core and
    templates take it as one; every method that would change it raises ``TypeError``.
    (``types.MappingProxyType`` is neither hashable nor picklable.)
    """

    __slots__ = ()

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = (), /) -> None:
        pairs = items.items() if isinstance(items, Mapping) else items
        dict.__init__(self, ((k, freeze(v)) for k, v in pairs))

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"a {type(self).__name__} cannot be changed; build a new one")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __hash__(self) -> int:  # type: ignore[override]  # dict's is None (unhashable); this one cannot change
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict.__repr__(self)})"


# Fractions (odds answers) are hashable and immutable, so they pass the hash check below; naming the
# class here would import fractions (and decimal) on every start, which validate does not need.
_PLAIN = frozenset({str, int, float, bool, type(None), bytes, complex, PosixPath, WindowsPath})
_MISSING: Any = dataclasses.MISSING


def freeze(value: Any) -> Any:
    """``value`` made deeply immutable: lists and tuples become tuples, mappings ``FrozenMap``,
    sets frozensets; records and other hashable values stay as they are.

    Raises ``TypeError`` for a value that is neither (a mutable object a record must not hold).
    """
    kind = type(value)
    if kind in _PLAIN or kind is FrozenMap or isinstance(value, Record):
        return value
    if kind is tuple:
        for v in value:  # most tuples hold records or plain values already: keep them as they are
            if type(v) not in _PLAIN and not isinstance(v, Record):
                return tuple([freeze(v) for v in value])
        return value
    if kind is list:
        return tuple([freeze(v) for v in value])
    if kind is dict or isinstance(value, Mapping):
        return FrozenMap(value)
    if isinstance(value, set | frozenset):
        return frozenset(freeze(v) for v in value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple
        return kind._make(freeze(v) for v in value)
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"a record cannot hold a {kind.__name__}: it can be changed") from None
    return value


class Record:
    """Base class of every record: keyword construction, value equality, no mutation."""

    __slots__ = ()
    # What ``as_json`` gives: the names of fields or properties, in order, "key=name" where the
    # key differs from the name, "key=field.attribute" through a field; ``None``: every field.
    __json__: ClassVar[tuple[str, ...] | None] = None
    __json_keys__: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()  # (key, attribute path), from __json__
    __record_fields__: tuple[dataclasses.Field[Any], ...] = ()
    # Set on each record class by ``record`` (dataclasses collects its fields); declared so that a
    # type checker takes records for what they are at run time: dataclasses (``fields``, ``replace``).
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    # (name, default, default factory) of each field: what __init__ needs, read once per class.
    __record_init__: tuple[tuple[str, Any, Any], ...] = ()
    # How pydantic reads a record from a file (rules/schema.py): strictly ("10" is no number), and
    # closed (an unknown key is an error). A pydantic ``ConfigDict``, which is a plain dict.
    __pydantic_config__: ClassVar[Mapping[str, Any]] = {"strict": True, "extra": "forbid", "allow_inf_nan": False}

    def __init__(self, **values: Any) -> None:
        own = self.__dict__  # every record class has one; assigning through it skips __setattr__
        for name, default, factory in self.__record_init__:
            if name in values:
                value = values.pop(name)
                if type(value) not in _PLAIN and not isinstance(value, Record):
                    value = freeze(value)
            elif default is not _MISSING:
                value = default  # a field's default is immutable: dataclasses refuses a list or dict
            elif factory is not _MISSING:
                value = freeze(factory())
            else:
                raise TypeError(f"{type(self).__name__}() missing required argument '{name}'")
            own[name] = value
        if values:
            raise TypeError(f"{type(self).__name__}() got unexpected arguments: {', '.join(values)}")

    def __post_init__(self) -> None:
        """Freeze what pydantic read into this record: it builds a record as it builds any dataclass,
        from its fields without ``__init__``, then calls this (lists it read are tuples already, but
        a mapping is a dict and a value of type ``Any`` is as the file had it)."""
        own = self.__dict__
        for name, value in own.items():
            if type(value) not in _PLAIN and not isinstance(value, Record):
                own[name] = freeze(value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field '{name}': {type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field '{name}': {type(self).__name__} is immutable")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in self.__record_fields__)

    def __repr__(self) -> str:
        inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self.__record_fields__ if f.repr)
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        # A record is deeply immutable, so its hash never changes: it is kept after the first time.
        # A rule set holds thousands of records, and hashing it walks them all (about 15 ms for a
        # 1,000-unit faction, on every page that looks something up by rule set).
        own = self.__dict__
        found: int | None = own.get("_record_hash")
        if found is None:
            found = own["_record_hash"] = hash((type(self), self._values()))
        return found

    def as_json(self) -> Any:
        """This record as JSON-ready data, derived from its fields (see ``__json__``)."""
        out = {}
        for key, path in self.__json_keys__:
            value: Any = self
            for name in path:
                value = getattr(value, name)
            out[key] = to_json(value)
        return out


def to_json(value: Any) -> Any:
    """``value`` as JSON-ready data: records by their ``as_json``, tuples and sets as lists,
    mappings as dicts, paths as text; anything else as it is."""
    if isinstance(value, Record):
        return value.as_json()
    if isinstance(value, tuple | list | frozenset):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, PurePath):
        return str(value)
    return value


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: type[R]) -> type[R]:
    """Make ``cls`` (a ``Record`` subclass with annotated fields) an immutable record."""
    if not issubclass(cls, Record):
        raise TypeError(f"{cls.__name__} must derive from Record")
    # With every generator switched off, dataclass() only collects the fields: no exec.
    done = dataclasses.dataclass(init=False, repr=False, eq=False, match_args=False)(cls)
    done.__record_fields__ = tuple(dataclasses.fields(done))
    done.__record_init__ = tuple((f.name, f.default, f.default_factory) for f in done.__record_fields__)
    names = done.__json__ if "__json__" in vars(done) else None
    if names is None:
        names = tuple(f.name for f in done.__record_fields__)
    done.__json_keys__ = tuple((n.partition("=")[0], tuple((n.partition("=")[2] or n).split("."))) for n in names)
    return done
