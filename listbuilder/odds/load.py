"""Load ``catalogs/<id>/odds.yaml`` and check it against its rule set, with located errors.

The schema (spec.py) checks shapes and spelling; each mechanic's ``check`` (with a
``Checker``) checks what a schema cannot: that every stat, property and option named exists and
has the right kind, that a table's columns cover every ratio exactly once. Loading needs no
dice library, so checking an odds file stays cheap.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from listbuilder.errors import CatalogError, ErrorDetail, Location
from listbuilder.files.yamldoc import Document
from listbuilder.memory import Bounded
from listbuilder.odds.checker import Checker
from listbuilder.odds.spec import MECHANIC_KINDS, OddsFile
from listbuilder.rules import cache
from listbuilder.rules.catalog import System
from listbuilder.rules.schema import validate
from listbuilder.rules.variant import layered
from listbuilder.words import did_you_mean

ODDS_FILE = "odds.yaml"

_KIND_CLASSES = {typing.get_args(typing.get_type_hints(k)["kind"])[0]: k for k in MECHANIC_KINDS}
KIND_NAMES = frozenset(_KIND_CLASSES)
_CACHE: Bounded[tuple[Path, int, str], OddsFile] = Bounded(cache.MEMORY_ENTRIES)


def clear() -> None:
    """Forget the odds files held in memory (the cache files stay)."""
    _CACHE.clear()


def odds_path(system: System) -> Path:
    """The odds file of a rule set: its own, or (for a variant without one) its base's."""
    paths = system.layer_files(ODDS_FILE)
    return paths[-1] if paths else system.folder / ODDS_FILE


def load_odds(system: System) -> OddsFile:
    """Load and check a rule set's ``odds.yaml``: a part of the rule set's cache entry
    (``rules.cache``), or, without one, kept in memory while the file is unchanged.

    A variant's own odds.yaml is laid over its base's. Raises ``CatalogError`` with every
    problem located, or when the rule set has no odds file."""
    paths = system.layer_files(ODDS_FILE)
    if not paths:
        raise CatalogError.detailed(
            f"the rule set '{system.id}' has no {ODDS_FILE}",
            "odds need the rule set's dice mechanics, declared in that file",
            file=odds_path(system),
        )
    return cache.part(system, "odds", OddsFile, paths[-1], lambda: _load(system, paths), _CACHE)


def _load(system: System, paths: list[Path]) -> OddsFile:
    d = layered(paths, "odds file", system.base or "")
    path = d.path
    if not isinstance(d.data, dict):
        raise CatalogError("an odds file must be a mapping with 'matchup' and 'mechanics'", file=path)
    odds, errors = validate(OddsFile, d.data, d)
    if odds is None:
        raise d.error("this odds file has errors", [_untagged(e, d) for e in errors], CatalogError)
    errors = check_odds(odds, system, d)
    if errors:
        raise d.error("this odds file has errors", errors, CatalogError)
    return odds


def _untagged(error: ErrorDetail, d: Document) -> ErrorDetail:
    """Drop the mechanic kind the schema adds to a path inside 'mechanics' (it is not a key), and
    locate the error again from the path the author wrote."""
    path = error.path
    if len(path) > 2 and path[0] == "mechanics" and path[2] in KIND_NAMES:
        path = (*path[:2], *path[3:])
        unknown = error.message.startswith("unknown key")
        hint = error.hint
        if unknown and hint is None:
            allowed = _keys_at(_KIND_CLASSES[error.path[2]], path[2:-1])
            hint = did_you_mean(str(path[-1]), allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else None)
        return d.detail(path, error.message, hint, key=unknown)
    return error


def _keys_at(cls: Any, parts: Location) -> list[str]:
    """The keys of the record found by following ``parts`` from ``cls`` (records, lists, mappings)."""
    tp = cls
    for part in parts:
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if dataclasses.is_dataclass(tp) and isinstance(part, str):
            tp = typing.get_type_hints(tp).get(part)
        elif typing.get_origin(tp) is tuple and isinstance(part, int):
            tp = args[0]
        elif typing.get_origin(tp) in (dict, Mapping) and isinstance(part, str):
            tp = args[1]
        else:
            return []
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if typing.get_origin(tp) in (typing.Union, types.UnionType) and len(args) == 1:
            tp = args[0]
    return [f.name for f in dataclasses.fields(tp)] if dataclasses.is_dataclass(tp) else []


def check_odds(odds: OddsFile, system: System, d: Document) -> list[ErrorDetail]:
    """Every cross-check of an odds file against its rule set."""
    c = Checker(system, d)
    ids = [m.id for m in odds.mechanics]
    for i, m in enumerate(odds.mechanics):
        if m.id in ids[:i]:
            c.error(("mechanics", i, "id"), f"the id '{m.id}' is used twice")
        m.check_all(c, ("mechanics", i))
    if odds.matchup not in ids:
        c.error(("matchup",), f"no mechanic '{odds.matchup}'", did_you_mean(odds.matchup, ids))
    for i, name in enumerate(odds.card):
        if name not in ids:
            c.error(("card", i), f"no mechanic '{name}'", did_you_mean(name, ids))
    kinds = [k.id for k in odds.attacks]
    for i, kind in enumerate(odds.attacks):
        if kind.id in kinds[:i]:
            c.error(("attacks", i, "id"), f"the kind of attack '{kind.id}' is declared twice")
        works = odds.mechanic(kind.mechanic)
        if works is None:
            c.error(("attacks", i, "mechanic"), f"no mechanic '{kind.mechanic}'", did_you_mean(kind.mechanic, ids))
            continue
        for key, value in kind.situation.items():
            where = ("attacks", i, "situation", key)
            option = works.options.get(key)
            if option is None:
                c.error(where, f"the mechanic '{works.id}' has no option '{key}'", did_you_mean(key, works.options))
            else:
                c.value(where, key, option, value)
    if len(odds.attacks) == 1:
        c.error(("attacks",), "one kind of attack needs no 'attacks'", "declare two or more, or leave 'attacks' out")
    return c.errors
