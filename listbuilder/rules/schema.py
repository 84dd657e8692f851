"""Validate plain data into frozen dataclasses with pydantic-core, and explain what went wrong.

The file formats (rule sets, unit catalogs, lists) are declared once, as frozen dataclasses
with type annotations and a ``doc`` for each field. This module turns those annotations into
pydantic-core schemas: strict (a ``"10"`` is not a number, ``yes`` is not a name), closed (an
unknown key such as ``mihgt`` is an error) and fast. We use pydantic 2's validation core
directly rather than ``pydantic.BaseModel``: building model classes costs about 80 ms at start-up,
more than the whole time budget of ``listbuilder validate``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Hashable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Union, get_args, get_origin

from listbuilder.errors import CatalogError, ErrorDetail, Location
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.record import FrozenMap, freeze
from listbuilder.words import did_you_mean, one_of

if TYPE_CHECKING:
    from pydantic_core import SchemaValidator, ValidationError
    from pydantic_core import core_schema as cs

# pydantic-core is imported where it is used, not here: a run that finds its rule sets in the
# catalog cache (catalog.py) validates nothing but the list, and skips its import (~18 ms).

T = TypeVar("T", bound=Hashable)  # a file format: a frozen record (its validator is cached by class)

TYPE_NAMES = {
    "int": "a whole number",
    "str": "text",
    "bool": "true or false",
    "float": "a number",
    "dict": "a mapping of keys to values",
    "list": "a list",
}


def doc(text: str, default: Any = dataclasses.MISSING, default_factory: Any = dataclasses.MISSING) -> Any:
    """A dataclass field with a user-facing description (used in errors and JSON Schema)."""
    kwargs: dict[str, Any] = {"metadata": {"doc": text}}
    if default is not dataclasses.MISSING:
        kwargs["default"] = default
    if default_factory is not dataclasses.MISSING:
        kwargs["default_factory"] = default_factory
    return dataclasses.field(**kwargs)


def field_doc(cls: type, name: str) -> str:
    for f in dataclasses.fields(cls):
        if f.name == name:
            return str(f.metadata.get("doc", ""))
    return ""


def _title(value: Any) -> str:
    return str(value)


def schema_for(tp: Any) -> cs.CoreSchema:
    """The pydantic-core schema for a type annotation used in our file formats."""
    # start-up: pydantic-core loads only on a cache miss (validate never needs it on a hit)
    from pydantic_core import core_schema as cs

    origin = get_origin(tp)
    if tp is str:
        return cs.str_schema(strict=True)
    if tp is bool:
        return cs.bool_schema(strict=True)
    if tp is int:
        return cs.int_schema(strict=True)
    if tp is float:
        return cs.float_schema(strict=False, allow_inf_nan=False)
    if tp is Any:
        return cs.no_info_after_validator_function(freeze, cs.any_schema())
    if origin is Literal:
        return cs.literal_schema(list(get_args(tp)))
    if origin is tuple:
        item = get_args(tp)[0]
        return cs.tuple_schema([schema_for(item)], variadic_item_index=0, strict=False)
    if origin in (dict, Mapping, typing.Mapping) or tp is dict:
        key, value = get_args(tp) or (str, Any)
        return cs.no_info_after_validator_function(
            FrozenMap, cs.dict_schema(schema_for(key), schema_for(value), strict=True)
        )
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        inner: cs.CoreSchema
        if len(args) == 1:
            inner = schema_for(args[0])
        elif all(dataclasses.is_dataclass(a) for a in args):
            choices = {}
            for a in args:
                kind = next(_field_type(a, f) for f in dataclasses.fields(a) if f.name == "kind")
                for value in get_args(kind):
                    choices[value] = schema_for(a)
            inner = cs.tagged_union_schema(
                choices, discriminator="kind", custom_error_type="unknown_kind", custom_error_message="unknown kind"
            )
        else:
            inner = cs.union_schema([schema_for(a) for a in args], mode="left_to_right")
        return cs.nullable_schema(inner) if type(None) in get_args(tp) else inner
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_schema(tp)
    raise TypeError(f"no schema for {tp!r}")  # pragma: no cover - a programming error


@cache
def _dataclass_schema(cls: type) -> cs.CoreSchema:
    # start-up: pydantic-core loads only on a cache miss
    from pydantic_core import core_schema as cs

    fields = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        s = schema_for(_field_type(cls, f))
        if f.default is not dataclasses.MISSING:
            s = cs.with_default_schema(s, default=f.default)
        elif f.default_factory is not dataclasses.MISSING:
            s = cs.with_default_schema(s, default_factory=f.default_factory)
        fields.append(cs.dataclass_field(f.name, s, kw_only=True))
    args = cs.dataclass_args_schema(cls.__name__, fields, extra_behavior="forbid")
    return cs.dataclass_schema(cls, args, [f.name for f in dataclasses.fields(cls)], frozen=True)


def field_type(cls: type, f: dataclasses.Field[Any]) -> Any:
    """The annotation of a record's field, as a type (the loader's validators, the JSON Schemas and
    the field reference all read it)."""
    # Classes written without postponed annotations carry real types; evaluate strings only if needed.
    return typing.get_type_hints(cls)[f.name] if isinstance(f.type, str) else f.type


_field_type = field_type


@cache
def validator_for(cls: type) -> SchemaValidator:
    # start-up: pydantic-core loads only on a cache miss
    from pydantic_core import SchemaValidator

    return SchemaValidator(schema_for(cls))


def validate(cls: type[T], data: Any, document: Document, base: Location = ()) -> tuple[T | None, list[ErrorDetail]]:
    """Validate ``data`` (found at ``base`` in ``document``) as ``cls``.

    Returns the instance, or ``None`` with every problem found, each located and explained.
    """
    # start-up: pydantic-core loads only on a cache miss
    from pydantic_core import ValidationError

    try:
        return validator_for(cls).validate_python(data), []
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
    """Turn pydantic-core's errors into messages a player can act on."""
    details: list[ErrorDetail] = []
    seen: set[Location] = set()
    data = _node(document.data, base)
    for err in exc.errors(include_url=False):
        loc = _untagged(data, tuple(p for p in err["loc"] if not _is_branch_tag(p)))
        path = (*base, *loc)
        if path in seen:  # a union reports each branch; one message per place is enough
            continue
        seen.add(path)
        message, hint = _describe(err, cls, loc, data)
        at_key = err["type"] in ("extra_forbidden", "unexpected_keyword_argument")
        details.append(document.detail(path, message, hint, key=at_key))
    return details


def _child(data: Any, part: str | int) -> tuple[bool, Any]:
    """``data[part]`` if the data has it: (found, value)."""
    if isinstance(data, dict) and part in data:
        return True, data[part]
    if isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
        return True, data[part]
    return False, None


def _node(data: Any, loc: Location) -> Any:
    for part in loc:
        found, data = _child(data, part)
        if not found:
            return None
    return data


def _untagged(data: Any, loc: Location) -> Location:
    """``loc`` without the kind that pydantic-core names a tagged item by ('at_most'): no file has it."""
    node, out = data, list[str | int]()
    for i, part in enumerate(loc):
        if isinstance(node, dict) and part not in node and part == node.get("kind"):
            continue
        out.append(part)
        found, node = _child(node, part)
        if not found:
            return (*out, *loc[i + 1 :])
    return tuple(out)


def _kinds(tp: Any) -> dict[str, type]:
    """For a union of records told apart by ``kind``: each kind and its record."""
    out: dict[str, type] = {}
    if get_origin(tp) in (Union, types.UnionType):
        for a in get_args(tp):
            if dataclasses.is_dataclass(a) and isinstance(a, type):
                kind = next((_field_type(a, f) for f in dataclasses.fields(a) if f.name == "kind"), None)
                out.update({str(v): a for v in get_args(kind)} if kind is not None else {})
    return out


def _is_branch_tag(part: Any) -> bool:
    # pydantic-core adds the union branch name to the location; users never wrote it.
    return isinstance(part, str) and ((part.endswith("]") and "[" in part) or part in {"int", "str", "bool"})


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
    if kind == "unknown_kind" or kind == "union_tag_invalid":
        given = found.get("kind") if isinstance(found, dict) else found
        kinds = list(_kinds(_type_at(cls, loc)))
        hint = (did_you_mean(str(given), kinds) if isinstance(given, str) else None) or (
            f"the kinds: {', '.join(kinds)}" if kinds else None
        )
        return f"unknown kind {describe_value(given)}", hint
    if kind == "union_tag_not_found":
        return "the key 'kind' is missing", "add 'kind'"
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
