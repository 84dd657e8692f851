"""Immutable, typed records that cost nothing to define.

``@dataclass(frozen=True)`` generates six methods per class with ``exec`` at import time; on
Python 3.11 that is about 0.5 ms a class, and listbuilder has forty of them: a fifth of the
start-up budget of ``listbuilder validate``. ``@record`` keeps what dataclasses give us (typed
fields, defaults, ``dataclasses.fields``, ``dataclasses.replace``, type-checker support) but
shares one generic ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` among all records,
and refuses assignment after construction.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


class Record:
    """Base class of every record: keyword construction, value equality, no mutation."""

    __slots__ = ()
    __record_fields__: tuple[dataclasses.Field[Any], ...] = ()

    def __init__(self, **values: Any) -> None:
        for f in self.__record_fields__:
            if f.name in values:
                value = values.pop(f.name)
            elif f.default is not dataclasses.MISSING:
                value = f.default
            elif f.default_factory is not dataclasses.MISSING:
                value = f.default_factory()
            else:
                raise TypeError(f"{type(self).__name__}() missing required argument '{f.name}'")
            object.__setattr__(self, f.name, value)
        if values:
            raise TypeError(f"{type(self).__name__}() got unexpected arguments: {', '.join(values)}")

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
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self), self._values()))


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(dataclasses.field,))
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` (a ``Record`` subclass with annotated fields) an immutable record."""
    if not issubclass(cls, Record):
        raise TypeError(f"{cls.__name__} must derive from Record")
    # With every generator switched off, dataclass() only collects the fields: no exec.
    done = dataclasses.dataclass(init=False, repr=False, eq=False, match_args=False)(cls)
    done.__record_fields__ = tuple(dataclasses.fields(done))  # type: ignore[attr-defined]
    return done
