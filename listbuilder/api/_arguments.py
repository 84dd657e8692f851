"""The type of every argument of every API action, checked where a front end calls it.

A front end that hands an action the wrong kind of value (a number for a unit's name, text for
a path, one string where a list of them goes) gets an ``InputError`` naming the action, the
argument, what it takes and what it got, instead of an ``AttributeError`` from deep inside the
library. The checks come from each action's own annotations, so they cannot drift from its
signature; ``listbuilder.api`` wraps every action it exports with ``checked``.

The annotations are read at an action's first call, not at import: ``listbuilder validate``
pays nothing for an action it does not use.
"""

from __future__ import annotations

import builtins
import functools
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import PurePath
from typing import Any, ParamSpec, TypeVar, Union, get_args, get_origin

from listbuilder.errors import ErrorDetail, InputError

P = ParamSpec("P")
R = TypeVar("R")
Check = Callable[[Any], bool]

_WORDS = {str: "text (str)", int: "a whole number (int)", bool: "true or false (bool)", bytes: "bytes"}


def _named(name: str) -> type:
    """A stand-in for a type that its module imports only for the type checker: matched by name."""
    return type(name, (), {"__by_name__": name})


class _Names(dict[str, Any]):
    """The names an annotation may use: its module's, the builtins, and stand-ins for the rest."""

    def __init__(self, module: Mapping[str, Any]) -> None:
        super().__init__()
        self.module = module

    def __missing__(self, key: str) -> Any:
        if key in self.module:
            return self.module[key]
        return getattr(builtins, key) if hasattr(builtins, key) else _named(key)


def _is(kind: type) -> Check:
    name = getattr(kind, "__by_name__", None)
    if name is not None:
        return lambda v: any(c.__name__ == name for c in type(v).__mro__)
    if kind is int:
        return lambda v: isinstance(v, int) and not isinstance(v, bool)
    return lambda v: isinstance(v, kind)


def _check_of(kind: Any) -> tuple[Check, str] | None:
    """How to check a value against the annotation ``kind``, and how to say it; None: anything goes."""
    if kind is Any or kind is object:
        return None
    if kind is None or kind is type(None):
        return (lambda v: v is None), "None"
    origin, args = get_origin(kind), get_args(kind)
    if origin is Union or origin is types.UnionType:
        parts = [_check_of(a) for a in args]
        if any(p is None for p in parts):
            return None
        checks = [p[0] for p in parts if p is not None]
        words = " or ".join(p[1] for p in parts if p is not None)
        return (lambda v: any(c(v) for c in checks)), words
    if origin in (list, tuple, Sequence, Iterable):
        inner = _check_of(args[0]) if args else None
        each = inner[0] if inner else (lambda v: True)
        words = f"a list of {inner[1]}" if inner else "a list"
        return (lambda v: isinstance(v, list | tuple) and all(each(x) for x in v)), words
    if origin in (dict, Mapping):
        return (lambda v: isinstance(v, Mapping)), "a mapping (dict)"
    if origin is not None and origin.__module__ == "collections.abc" and origin.__name__ == "Callable":
        return callable, "a function"
    if isinstance(kind, type):
        base = PurePath if issubclass(kind, PurePath) else kind
        return _is(base), _WORDS.get(kind) or f"a {getattr(kind, '__by_name__', kind.__name__)}"
    return None  # a typing construct the API does not use: not checked


def _plan(func: Callable[..., Any]) -> tuple[tuple[str, ...], dict[str, tuple[Check, str]]]:
    """The names of ``func``'s positional parameters in order, and the check of each annotated one."""
    code = func.__code__
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    scope = _Names(func.__globals__)
    checks = {}
    for name in names:
        annotation = func.__annotations__.get(name)
        if annotation is None:
            continue
        kind = eval(annotation, {}, scope) if isinstance(annotation, str) else annotation  # our own annotations
        found = _check_of(kind)
        if found is not None:
            checks[name] = found
    return names[: code.co_argcount], checks


def checked(func: Callable[P, R]) -> Callable[P, R]:
    """``func`` with the type of each argument it is given checked against its annotation."""
    plan: list[tuple[tuple[str, ...], dict[str, tuple[Check, str]]]] = []

    @functools.wraps(func)
    def action(*args: P.args, **kwargs: P.kwargs) -> R:
        if not plan:
            plan.append(_plan(func))
        positional, checks = plan[0]
        for name, value in (*zip(positional, args, strict=False), *kwargs.items()):
            check = checks.get(name)
            if check is not None and not check[0](value):
                raise InputError(
                    f"{func.__name__}(): the argument '{name}' must be {check[1]}, not {type(value).__name__}",
                    details=[ErrorDetail(message=f"found {value!r:.80}", path=(name,))],
                )
        return func(*args, **kwargs)

    return action
