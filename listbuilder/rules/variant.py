"""Variants: a rule set that says ``extends: BASE`` and gives only what differs from it.

A variant's ``system.yaml`` (and, if it has them, its ``reference.yaml`` and ``odds.yaml``)
is laid over the base's file of the same name before the result is checked like any other:

- a mapping merges key by key (``default_limit: 150`` changes one number, the rest stays);
- a list of mappings that all carry an ``id`` (or a ``name``, or a ``stat``) merges item by
  item: an item with a known id changes that item (only the keys it gives), a new id adds one;
- an item that gives another ``kind`` than the base's replaces it whole;
- any other value replaces the base's;
- ``remove:`` names what to drop from the base first, in the same shape as the file:
  ``remove: {constraints: [half-basic]}`` drops the constraint of that id,
  ``remove: {stats: {class: {choices: [Mech]}}}`` drops one value of a stat.

Errors in the result are located in the variant's own file: at what the variant wrote, or,
for something kept from the base, at the nearest place the variant changed (its ``extends:``
line at worst), saying which base value is at fault.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from listbuilder.errors import Action, CatalogError, ErrorDetail, Location, dotted
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.rules.schema import describe_value
from listbuilder.words import did_you_mean

EXTENDS = "extends"
REMOVE = "remove"
# The keys that identify the items of a list, tried in this order.
ITEM_KEYS = ("id", "name", "stat")
# ``extends: some-id`` on a line of its own at the top of a system.yaml.
_EXTENDS_LINE = re.compile(rb"^extends:[ \t]*[\"']?([A-Za-z0-9][A-Za-z0-9_.-]*)[\"']?[ \t]*(?:#.*)?$", re.MULTILINE)


def scan_extends(path: Path) -> str | None:
    """The base id a ``system.yaml`` names in ``extends:``, read without parsing the YAML.

    Used to find every file a rule set is built from (its cache key) before loading it; the
    loader checks that the parsed file says the same (``check_extends_line``)."""
    try:
        found = _EXTENDS_LINE.search(path.read_bytes())
    except OSError:
        return None
    return found.group(1).decode() if found else None


class LayeredDocument(Document):
    """A variant's file laid over its base's: merged data, errors located in the variant's file."""

    __slots__ = ("base", "origin")

    def __init__(self, *, top: Document, data: Any, origin: dict[Location, tuple[Location, bool]], base: str) -> None:
        super().__init__(
            path=top.path, data=data, positions=top.positions, text=top.text, key_positions=top.key_positions
        )
        self.origin = origin
        self.base = base

    def detail(
        self, path: Location, message: str, hint: str | None = None, key: bool = False, action: Action | None = None
    ) -> ErrorDetail:
        """Locate a problem with the merged data in the variant's file."""
        path = self._untagged(tuple(path))
        for cut in range(len(path), -1, -1):
            found = self.origin.get(path[:cut])
            if found is None:
                continue
            written, whole = found
            if whole or cut == len(path):
                return Document.detail(self, (*written, *path[cut:]), message, hint, key, action)
            # The value at fault is kept from the base: point at what the variant changed around it.
            kept = f"kept from '{self.base}' at {self._named(path)}"
            return Document.detail(self, written or (EXTENDS,), f"{message} ({kept})", hint, True, action)
        return Document.detail(self, path, message, hint, key, action)

    def _named(self, path: Location) -> str:
        """``constraints[max-rare].of``: a path into the merged data, naming list items by their id."""
        node, out = self.data, ""
        for part in path:
            item: Any = node[part] if isinstance(node, list) and isinstance(part, int) and part < len(node) else None
            key = next((k for k in ITEM_KEYS if isinstance(item, dict) and k in item), None)
            out += f"[{item[key]}]" if key else (f"[{part}]" if isinstance(part, int) else f".{part}" if out else part)
            node = item if item is not None else node.get(part) if isinstance(node, dict) else None
        return out or dotted(path)

    def _untagged(self, path: Location) -> Location:
        # The schema names the kind of a tagged item in its error paths ('at_most'); no file has it.
        node, out = self.data, []
        for i, part in enumerate(path):
            if isinstance(node, dict) and part not in node and part == node.get("kind"):
                continue
            out.append(part)
            if isinstance(node, dict) and part in node:
                node = node[part]
                continue
            if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
                continue
            return (*out, *path[i + 1 :])
        return tuple(out)


def keyed_by(base: list[Any], over: list[Any]) -> str | None:
    """The key that identifies the items of both lists, if they are lists of identified mappings."""
    items = [*base, *over]
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for key in ITEM_KEYS:
        if all(isinstance(i.get(key), str | int) and not isinstance(i.get(key), bool) for i in items):
            return key
    return None


def _other_kind(base: dict[str, Any], over: dict[str, Any]) -> bool:
    """Whether ``over`` gives another ``kind`` than ``base``'s: then it replaces it whole."""
    return "kind" in base and "kind" in over and base["kind"] != over["kind"]


def merge(
    base: Any, over: Any, path: Location, written: Location, origin: dict[Location, tuple[Location, bool]]
) -> Any:
    """``over`` laid over ``base``; ``origin`` records where each merged value was written."""
    if isinstance(base, dict) and isinstance(over, dict) and not _other_kind(base, over):
        origin[path] = (written, False)
        out = dict(base)
        for key, value in over.items():
            if key in base:
                out[key] = merge(base[key], value, (*path, key), (*written, key), origin)
            else:
                out[key] = value
                origin[(*path, key)] = ((*written, key), True)
        return out
    if isinstance(base, list) and isinstance(over, list):
        key = keyed_by(base, over)
        if key is not None:
            origin[path] = (written, False)
            items = list(base)
            index = {item[key]: i for i, item in enumerate(base)}
            for j, item in enumerate(over):
                if item[key] in index:
                    i = index[item[key]]
                    items[i] = merge(base[i], item, (*path, i), (*written, j), origin)
                else:
                    items.append(item)
                    origin[(*path, len(items) - 1)] = ((*written, j), True)
            return items
    origin[path] = (written, True)
    return over


def remove(data: Any, spec: Any, doc: Document, where: Location, errors: list[ErrorDetail]) -> Any:
    """``data`` without what ``spec`` (the variant's ``remove:``) names; problems go to ``errors``."""
    if isinstance(spec, dict):
        if not isinstance(data, dict):
            errors.append(doc.detail(where, "nothing to remove from here: the base has no mapping at this place"))
            return data
        out = dict(data)
        for key, inner in spec.items():
            if key not in data:
                hint = did_you_mean(str(key), data) or f"the base has: {', '.join(map(str, data))}"
                errors.append(doc.detail((*where, key), f"the base has no '{key}' to remove from", hint, key=True))
                continue
            out[key] = remove(data[key], inner, doc, (*where, key), errors)
        return out
    if not isinstance(spec, list):
        errors.append(
            doc.detail(where, f"expected a list of what to remove, found {describe_value(spec)}", "e.g. [half-basic]")
        )
        return data
    plain = [name for name in spec if isinstance(name, str | int) and not isinstance(name, bool)]
    if len(plain) != len(spec):
        bad = next(i for i, name in enumerate(spec) if name not in plain or isinstance(name, bool))
        found = describe_value(spec[bad])
        errors.append(doc.detail((*where, bad), f"expected an id or a key to remove, found {found}"))
        return data
    if isinstance(data, dict):
        names = list(data)
        drop = set()
        for i, name in enumerate(spec):
            if name in data:
                drop.add(name)
            else:
                errors.append(doc.detail((*where, i), f"the base has no '{name}' here", did_you_mean(str(name), names)))
        return {k: v for k, v in data.items() if k not in drop}
    if isinstance(data, list):
        key = keyed_by(data, [])
        if key is None:
            errors.append(doc.detail(where, "the base's list here has no ids; give the whole list instead"))
            return data
        ids = [item[key] for item in data]
        for i, name in enumerate(spec):
            if name not in ids:
                hint = did_you_mean(str(name), map(str, ids)) or ", ".join(map(str, ids))
                errors.append(doc.detail((*where, i), f"the base has no {key} '{name}' here", hint))
        return [item for item in data if item[key] not in spec]
    errors.append(doc.detail(where, "nothing to remove from here: the base's value is not a list or mapping"))
    return data


def layered(paths: Sequence[Path], what: str, base: str) -> Document:
    """The file at ``paths[-1]`` laid over those before it (base first), as one document.

    With one path this is just that file. ``base`` names the rule set the last file varies."""
    docs = [load_yaml(p, what) for p in paths]
    top = docs[-1]
    if len(docs) == 1:
        return top
    for d in docs:
        if not isinstance(d.data, dict):
            raise CatalogError(f"a {what} must be a mapping of keys to values", file=d.path)
    data = docs[0].data
    for d in docs[1:-1]:
        data = _lay(data, d, base)[0]
    merged, origin = _lay(data, top, base)
    return LayeredDocument(top=top, data=merged, origin=origin, base=base)


Origins = dict[Location, tuple[Location, bool]]


# What one item of a list of kinded items is called in a message ('no rule ... in the base').
ITEM_WORDS = {"constraints": "rule", "mechanics": "mechanic"}


def new_without_kind(base: Any, over: Any, where: Location, doc: Document, errors: list[ErrorDetail]) -> None:
    """A variant's item with an id the base lacks, in a list whose items each have a ``kind``, and
    no ``kind`` of its own: most likely a misspelt id (``leader-ration``), not a new item."""
    if isinstance(base, dict) and isinstance(over, dict):
        for key, value in over.items():
            if key in base:
                new_without_kind(base[key], value, (*where, key), doc, errors)
        return
    if not (isinstance(base, list) and isinstance(over, list)) or not base:
        return
    key = keyed_by(base, over)
    if key is None or not all("kind" in item for item in base):
        return
    ids = [str(item[key]) for item in base]
    word = ITEM_WORDS.get(str(where[-1]) if where else "", "item")
    for j, item in enumerate(over):
        if str(item[key]) not in ids and "kind" not in item:
            near = did_you_mean(str(item[key]), ids)
            known = f" ({near})" if near else f" (the base has: {', '.join(ids)})"
            message = f"no {word} '{item[key]}' in the base{known}; a new {word} needs 'kind:'"
            errors.append(doc.detail((*where, j, key), message))


def _lay(data: dict[str, Any], doc: Document, base: str) -> tuple[dict[str, Any], Origins]:
    over = dict(doc.data)
    errors: list[ErrorDetail] = []
    if REMOVE in over:
        data = remove(data, over.pop(REMOVE), doc, (REMOVE,), errors)
    if errors:
        raise doc.error(f"this variant of '{base}' removes what its base does not have", errors, CatalogError)
    new_without_kind(data, over, (), doc, errors)
    if errors:
        raise doc.error(f"this variant of '{base}' has errors", errors, CatalogError)
    origin: Origins = {}
    merged = merge(data, over, (), (), origin)
    return merged, origin
