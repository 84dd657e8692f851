"""Read plain data into records with pydantic, and explain what went wrong.

The file formats (rule sets, unit catalogs, lists, odds files) are declared once, as records
(``record.py``) with type annotations and a ``doc`` for each field. pydantic reads them as the
dataclasses they are: ``adapter`` is a ``pydantic.TypeAdapter`` per record class, built on first
use. Every record says how pydantic must read it (``Record.__pydantic_config__``): strictly (a
``"10"`` is not a number, ``yes`` is not a name) and closed (an unknown key such as ``mihgt`` is
an error). A file's data is handed to pydantic as JSON: in strict mode pydantic takes a mapping
for a record and a list for a tuple only from JSON (from Python objects it wants the record and
the tuple themselves), and a YAML file's data is JSON's but for a date, which is read as its text.
``explain`` turns pydantic's errors into located messages with a did-you-mean.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Hashable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, Union, get_args, get_origin

from listbuilder.errors import CatalogError, ErrorDetail, Location
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.words import did_you_mean, one_of

if TYPE_CHECKING:
    from pydantic import TypeAdapter, ValidationError

# pydantic is imported where it is used, not here: a run that finds its rule sets in the
# catalog cache (catalog.py) validates nothing but the list, and skips its import.

T = TypeVar("T", bound=Hashable)  # a file format: a record (its adapter is cached by class)

TYPE_NAMES = {
    "int": "a whole number",
    "str": "text",
    "bool": "true or false",
    "float": "a number",
    "dict": "a mapping of keys to values",
    "list": "a list",
}


def doc(text: str, default: Any = dataclasses.MISSING, default_factory: Any = dataclasses.MISSING) -> Any:
    """A dataclass field with a user-facing description (used in errors, and by pydantic in JSON Schema)."""
    kwargs: dict[str, Any] = {"metadata": {"description": text}}
    if default is not dataclasses.MISSING:
        kwargs["default"] = default
    if default_factory is not dataclasses.MISSING:
        kwargs["default_factory"] = default_factory
    return dataclasses.field(**kwargs)


def field_doc(cls: type, name: str) -> str:
    for f in dataclasses.fields(cls):
        if f.name == name:
            return str(f.metadata.get("description", ""))
    return ""


def field_type(cls: type, f: dataclasses.Field[Any]) -> Any:
    """The annotation of a record's field, as a type (the JSON Schemas and the field reference read it)."""
    # Classes written without postponed annotations carry real types; evaluate strings only if needed.
    return typing.get_type_hints(cls)[f.name] if isinstance(f.type, str) else f.type


_field_type = field_type


@cache
def adapter(tp: Any) -> TypeAdapter[Any]:
    """pydantic's reader of ``tp`` (a record class, or a type made of them), built once."""
    # start-up: pydantic loads only on a cache miss (validate never needs it on a hit)
    from pydantic import TypeAdapter

    return TypeAdapter(tp)


def json_text(data: Any) -> str:
    """A file's plain data as JSON text for pydantic (a YAML date as its text: see the module)."""
    return json.dumps(data, default=_date_text, allow_nan=True)


def _date_text(value: Any) -> str:
    if type(value).__module__ == "datetime":  # a YAML timestamp (checked so, validate never imports datetime)
        return str(value.isoformat())
    raise TypeError(f"not plain data: a {type(value).__name__}")  # a programming error: readers give plain data


def validate(cls: type[T], data: Any, document: Document, base: Location = ()) -> tuple[T | None, list[ErrorDetail]]:
    """Validate ``data`` (found at ``base`` in ``document``) as ``cls``.

    Returns the instance, or ``None`` with every problem found, each located and explained.
    """
    # start-up: pydantic loads only on a cache miss
    from pydantic import ValidationError

    try:
        return adapter(cls).validate_json(json_text(data)), []
    except ValidationError as exc:
        return None, explain(exc, cls, document, base)


def load_catalog_file(
    path: Path,
    cls: type[T],
    what: str,
    shape: str,
    check: Callable[[T, Document], list[ErrorDetail]] | None = None,
) -> tuple[T, Document]:
    """Read a catalog file (rule set, faction, reference or odds file) as ``cls``.

    ``shape`` says what the file must be ("a mapping with 'faction' and 'units'"); ``check``
    adds the cross-checks a schema cannot express. Every problem found is raised together,
    located, as a ``CatalogError``."""

    return read_catalog_document(load_yaml(path, what), cls, what, shape, check)


def read_catalog_document(
    doc: Document,
    cls: type[T],
    what: str,
    shape: str,
    check: Callable[[T, Document], list[ErrorDetail]] | None = None,
) -> tuple[T, Document]:
    """``load_catalog_file`` for a document already read (a variant's file laid over its base's)."""

    path = doc.path
    if not isinstance(doc.data, dict):
        raise CatalogError(f"a {what} must be {shape}", file=path)
    value, errors = validate(cls, doc.data, doc)
    if value is not None and check is not None:
        errors = check(value, doc)
    if value is None or errors:
        raise doc.error(f"this {what} has errors", errors, CatalogError)
    return value, doc


def explain(exc: ValidationError, cls: type, document: Document, base: Location = ()) -> list[ErrorDetail]:
    """Turn pydantic's errors into messages a player can act on."""
    details: list[ErrorDetail] = []
    seen: set[Location] = set()
    data = _node(document.data, base)
    for err in exc.errors(include_url=False):
        placed = _place(cls, err["loc"], data)
        if placed is None:  # another kind's record, tried by pydantic in a list of kinds: not what the file says
            continue
        loc, problem = placed
        found, value = _found(data, loc)
        if found:  # what the file says there (pydantic saw it as JSON: a date as text)
            err = {**err, "input": value}
        path = (*base, *loc)
        if path in seen:  # a union reports each branch; one message per place is enough
            continue
        seen.add(path)
        message, hint = problem or _describe(err, cls, loc, data)
        at_key = err["type"] in ("extra_forbidden", "unexpected_keyword_argument") and problem is None
        details.append(document.detail(path, message, hint, key=at_key))
    return details


Problem = tuple[str, str | None]


def _place(cls: type, loc: tuple[int | str, ...], data: Any) -> tuple[Location, Problem | None] | None:
    """Where in the file pydantic's error at ``loc`` is, without the names pydantic gives the
    branches of a union (no file has them). A record among several kinds is the one its ``kind``
    names: an error found trying another kind is ``None``; a ``kind`` missing or unknown is the
    problem at that place, whatever pydantic found trying each kind."""
    tp: Any = cls
    node, out = data, list[str | int]()
    for part in loc:
        members = [a for a in get_args(tp) if a is not type(None)] if _is_union(tp) else []
        if len(members) == 1:  # 'X | None': pydantic names no branch
            tp = members[0]
        if len(members) > 1:  # this part names the branch pydantic tried
            kinds = _kinds(tp)
            if not kinds:
                continue
            chosen, problem = _kind_of(kinds, node)
            if problem is not None:
                return tuple(out), problem
            if chosen is None or part != chosen.__name__:
                return None
            tp = chosen
            continue
        if isinstance(part, str) and part == "[key]":  # a mapping's key (a file's keys are all text)
            continue
        out.append(part)
        tp = _step(tp, part)
        _, node = _child(node, part)
    return tuple(out), None


def _kind_of(kinds: dict[str, type], node: Any) -> tuple[type | None, Problem | None]:
    """The record ``node`` is among ``kinds``, or what is wrong with its ``kind``."""
    if not isinstance(node, dict):
        return None, (f"expected a mapping of keys to values, found {describe_value(node)}", None)
    given = node.get("kind")
    if isinstance(given, str) and given in kinds:
        return kinds[given], None
    hint = (did_you_mean(given, list(kinds)) if isinstance(given, str) else None) or f"the kinds: {', '.join(kinds)}"
    return None, (f"unknown kind {describe_value(given)}", hint)


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _child(data: Any, part: str | int) -> tuple[bool, Any]:
    """``data[part]`` if the data has it: (found, value)."""
    if isinstance(data, dict) and part in data:
        return True, data[part]
    if isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
        return True, data[part]
    return False, None


def _found(data: Any, loc: Location) -> tuple[bool, Any]:
    for part in loc:
        found, data = _child(data, part)
        if not found:
            return False, None
    return True, data


def _node(data: Any, loc: Location) -> Any:
    for part in loc:
        found, data = _child(data, part)
        if not found:
            return None
    return data


def _kinds(tp: Any) -> dict[str, type]:
    """For a union of records told apart by ``kind``: each kind and its record."""
    out: dict[str, type] = {}
    if _is_union(tp):
        for a in get_args(tp):
            if dataclasses.is_dataclass(a) and isinstance(a, type):
                kind = next((_field_type(a, f) for f in dataclasses.fields(a) if f.name == "kind"), None)
                out.update({str(v): a for v in get_args(kind)} if kind is not None else {})
    return out


def _type_at(cls: type, loc: Location, data: Any = None) -> Any:
    """The annotation at ``loc`` within ``cls``, a union's branch picked by the data's ``kind``."""
    tp: Any = cls
    node = data
    for part in loc:
        tp = _branch(tp, node)
        tp = _step(tp, part)
        node = _node(node, (part,))
        if tp is None:
            return None
    return _branch(tp, node)


def _branch(tp: Any, node: Any) -> Any:
    kinds = _kinds(tp)
    if kinds and isinstance(node, dict) and str(node.get("kind")) in kinds:
        return kinds[str(node.get("kind"))]
    return tp


def _allowed_keys(cls: type, loc: Location, data: Any = None) -> list[str]:
    """The keys allowed in the mapping at ``loc`` within ``cls``, following the annotations."""
    tp = _type_at(cls, loc[:-1], data)
    if dataclasses.is_dataclass(tp):
        return [f.name for f in dataclasses.fields(tp)]
    return []


def _step(tp: Any, part: Any) -> Any:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        for a in get_args(tp):
            if a is not type(None):
                found = _step(a, part)
                if found is not None:
                    return found
        return None
    if dataclasses.is_dataclass(tp) and isinstance(part, str):
        return typing.get_type_hints(tp).get(part)
    if origin is tuple and isinstance(part, int):
        return get_args(tp)[0]
    if origin in (dict, Mapping) and isinstance(part, str):
        return get_args(tp)[1]
    return None


def describe_value(value: Any) -> str:
    """How a found value reads in a message: ``'ten'``, ``the number 3``, ``a list``."""
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"'{shown}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"a {type(value).__name__}"


def _describe(err: Any, cls: type, loc: Location, data: Any = None) -> tuple[str, str | None]:
    kind = err["type"]
    found = err.get("input")
    key = loc[-1] if loc else None
    if kind in ("missing", "missing_keyword_argument"):
        parent = _type_at(cls, loc[:-1], data) if loc else None
        what = field_doc(parent, str(key)) if dataclasses.is_dataclass(parent) and isinstance(parent, type) else ""
        return f"the key '{key}' is missing", (f"add '{key}': {what}" if what else f"add '{key}'")
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):
        allowed = _allowed_keys(cls, loc, data)
        hint = did_you_mean(str(key), allowed) if allowed else None
        if not hint and allowed:
            hint = "allowed keys: " + ", ".join(allowed)
        return f"unknown key '{key}'", hint
    if kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        options = [o.strip().strip("'") for o in expected.replace(" or ", ",").split(",") if o.strip()]
        hint = did_you_mean(str(found), options) if isinstance(found, str) else None
        return f"expected {one_of(options)}, found {describe_value(found)}", hint
    for type_name, wording in TYPE_NAMES.items():
        if kind.startswith(type_name + "_") or kind == f"{type_name}_type":
            hint = None
            if type_name == "str" and not isinstance(found, (dict, list)):
                hint = "put it in quotes"
            if type_name == "int" and isinstance(found, float):
                return f"expected a whole number, found {describe_value(found)}", None
            return f"expected {wording}, found {describe_value(found)}", hint
    if kind in ("tuple_type", "list_type", "iterable_type"):
        return f"expected a list, found {describe_value(found)}", None
    if kind in ("dataclass_type", "dataclass_exact_type", "model_type", "model_attributes_type"):
        return f"expected a mapping of keys to values, found {describe_value(found)}", None
    return err["msg"], None
