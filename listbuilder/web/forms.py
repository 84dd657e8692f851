"""The builder's forms read into the values the API takes: a change, a custom unit's stats.

The web is the only face that posts forms, so reading them lives here: each form names its
change (``change=add``...), and ``change_of`` builds that change's record, refusing a form that
lacks what the change needs before anything is read or written.

Every number a page sends is read here, and bounded: at most ``MAX_DIGITS`` digits (Python's
``int()`` refuses a string of more than 4,300 digits with a ValueError, which was a 500, and a
count of 4,000 digits was written to a list). A form's number past that is refused (400) with
what it is; an index in a query (``index``) past it is no index, as a word there is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from listbuilder.api import editing, rulesets
from listbuilder.errors import ErrorDetail, InputError
from listbuilder.words import one_of

Fields = Mapping[str, Sequence[str]]


def _one(fields: Fields, key: str) -> str | None:
    values = fields.get(key)
    return values[-1] if values else None


MAX_DIGITS = 9  # a number a page sends: more than any count, stat, limit or index of a game
SHOWN = 40  # of a value that is no number, the characters a message quotes


def whole(value: str) -> int | None:
    """``value`` as a whole number (as ``int()`` reads it), or ``None`` if it is none or has more
    than ``MAX_DIGITS`` digits."""
    text = value.strip()
    if len(text.lstrip("+-")) > MAX_DIGITS:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def not_whole(value: str, what: str) -> str:
    """Why ``value`` (that ``whole`` refused) is not taken as ``what``."""
    digits = value.strip().lstrip("+-")
    if digits.isascii() and digits.isdigit():
        return f"{what} must be a whole number of at most {MAX_DIGITS} digits, found one of {len(digits):,} digits"
    shown = value if len(value) <= SHOWN else value[:SHOWN] + "…"
    return f"{what} must be a whole number, found '{shown}'"


def number(value: str | None, what: str) -> int | None:
    """A form's number ``value`` (``None`` if it is blank), refused (``InputError``) if it is none."""
    if value is None or not value.strip():
        return None
    found = whole(value)
    if found is None:
        raise InputError(not_whole(value, what))
    return found


def index(value: str) -> int | None:
    """An index a query gives (``?entry=3``): plain ASCII digits, at most ``MAX_DIGITS`` of them
    (``None`` otherwise: a query's word that is no index)."""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS else None


def _number(fields: Fields, key: str, what: str) -> int | None:
    return number(_one(fields, key), what)


# Each form's change: the fields it needs, and the record built from them. The fields come parsed
# (text, whole numbers, true or false, a custom unit's stats: Any holds each kind), and each one a
# change needs is there before it is built; the change's record checks its fields' types again.
_FORMS: dict[str, tuple[tuple[str, ...], Callable[[dict[str, Any]], editing.Change]]] = {
    "add": (("unit",), lambda f: editing.AddUnit(unit=f["unit"], count=1 if f["count"] is None else f["count"])),
    "remove": (("unit",), lambda f: editing.RemoveUnit(unit=f["unit"], count=f["count"])),
    "count": (("index", "count"), lambda f: editing.SetCount(index=f["index"], count=f["count"])),
    "leader": (("index", "leader"), lambda f: editing.SetLeader(index=f["index"], leader=f["leader"])),
    "leaders": (("index", "leaders"), lambda f: editing.SetLeaders(index=f["index"], leaders=f["leaders"])),
    "unit": (("index", "unit"), lambda f: editing.SetUnit(index=f["index"], unit=f["unit"])),
    "set": (("key", "value"), lambda f: editing.SetField(key=f["key"], value=f["value"])),
    "custom": (
        ("stats",),
        lambda f: editing.AddCustom(stats=f["stats"], count=1 if f["count"] is None else f["count"]),
    ),
    "replace": (("index", "stats"), lambda f: editing.ReplaceCustom(index=f["index"], stats=f["stats"])),
    "fix": (("suggestion",), lambda f: editing.FollowDoctor(question="fix", number=f["suggestion"])),
    "fill": (("suggestion",), lambda f: editing.FollowDoctor(question="fill", number=f["suggestion"])),
}
CHANGES = tuple(_FORMS)


def change_of(fields: Fields, system: Callable[[], rulesets.System]) -> editing.Change:
    """The change a builder form posts; ``system()`` gives the list's rule set (a custom unit's stats)."""
    what = _one(fields, "change") or ""
    if what not in _FORMS:
        raise InputError.detailed(f"unknown change '{what}'", f"use {one_of(list(CHANGES))}")
    leader = _one(fields, "leader")
    given: dict[str, Any] = {
        "unit": _one(fields, "unit"),
        "index": _number(fields, "index", "the entry"),
        "count": _number(fields, "count", "the count"),
        "leader": None if leader is None else leader == "true",
        "leaders": _number(fields, "leaders", "the number of leaders"),
        "key": _one(fields, "key"),
        "value": _one(fields, "value"),
        "suggestion": _number(fields, "suggestion", "the suggestion"),
    }
    needs, build = _FORMS[what]
    if what in ("custom", "replace"):
        given["stats"] = stats_of(system(), fields)
    missing = [k for k in needs if given.get(k) is None]
    if missing:
        raise InputError(f"a '{what}' change needs {one_of(missing)}")
    return build(given)


def stats_of(system: rulesets.System, fields: Fields) -> dict[str, object]:
    """Turn a form's fields (each a list of values) into a custom unit's name and stats.

    Empty fields are left out (the pricing then says which stat is missing); numbers must be
    whole numbers; a 'choices' stat takes every value given. Where its items are carried by some
    of the unit's figures, each item's count is the field ``STAT:ITEM`` (``weapons:Rifle``): an item
    ticked with no count is carried by every figure, and the list format's rule for loadouts
    judges the counts."""
    stats = system.definition.stats
    figures_key = system.definition.figures_stat
    values: dict[str, object] = {}
    errors: list[ErrorDetail] = []
    name = " ".join(fields.get("name", ())).strip()
    if name:
        values["name"] = name
    for key, stat in stats.items():
        given = [v.strip() for v in fields.get(key, ()) if v.strip()]
        if stat.kind == "choices":
            chosen: list[str | dict[str, str | int]] = list(given)
            if stat.item and figures_key is not None and figures_key in stats:  # items counted by figures
                chosen = _loadout(key, stat.item, figures_key, given, fields, stats[figures_key].label, errors)
            if chosen or key in fields:
                values[key] = chosen
            continue
        if not given:
            continue
        if stat.kind == "number":
            found = whole(given[-1])
            if found is None:
                errors.append(ErrorDetail(message=not_whole(given[-1], stat.label)))
            else:
                values[key] = found
        else:
            values[key] = given[-1]
    if errors:
        raise InputError("these stats cannot be used", details=errors)
    return values


def _loadout(
    key: str, item: str, figures_key: str, ticked: list[str], fields: Fields, label: str, errors: list[ErrorDetail]
) -> list[str | dict[str, str | int]]:
    """A list stat's items with the figures carrying each (``{weapon: Rifle, figures: 3}``), or
    names alone when no count is given. A count above 0 given for an item not ticked chooses it
    too (as the page's script ticks it); a 0 there leaves it unchosen."""
    counts: dict[str, str] = {}
    for field, values in fields.items():
        if field.startswith(key + ":") and values and values[-1].strip():
            name, count = field[len(key) + 1 :], values[-1].strip()
            if name in ticked or whole(count) != 0:
                counts[name] = count
    if not counts:
        return list(ticked)
    every = _one(fields, figures_key)
    items: list[str | dict[str, str | int]] = []
    noun = label.lower()
    for name in [*ticked, *(n for n in counts if n not in ticked)]:
        count = counts.get(name, every.strip() if every else "")
        found = whole(count)
        if found is not None:
            items.append({item: name, figures_key: found})
        elif name in counts:
            errors.append(ErrorDetail(message=not_whole(count, f"the {noun} carrying {name}")))
        else:  # every figure, and the unit's figures are not given yet: the pricing says so
            items.append(name)
    return items


def fields_of(system: rulesets.System, unit: rulesets.Unit) -> dict[str, list[str]]:
    """A unit's name and stats as the custom unit form's fields (``stats_of`` reads them back)."""
    stats = system.definition.stats
    fields: dict[str, list[str]] = {"name": [unit.name]}
    for key, stat in stats.items():
        value = unit.stats.get(key)
        if stat.kind != "choices":
            fields[key] = [] if value is None else [str(value)]
            continue
        fields[key] = []
        for item in value or ():
            carried = getattr(item, "figures", None)
            fields[key].append(str(getattr(item, "name", item)))
            if carried is not None:
                fields[f"{key}:{getattr(item, 'name', item)}"] = [str(carried)]
    return fields
