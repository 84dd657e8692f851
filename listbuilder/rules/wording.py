"""Sentences that follow their numbers: placeholders in a rule set's texts, filled from its fields.

A rule's sentence, a ruling and a reference table may write a number as a placeholder instead
of a figure, so a variant that changes the number changes the sentence too:

- ``{count}`` in a force rule's ``rule`` or ``title``: a field of that rule itself (``count``,
  ``per``, ``minimum``, ``step``...);
- ``{leader-ratio.per}`` anywhere: a field of the force rule with that id;
- ``{cost.power.points}``, ``{cost.range.per}``: a term of a ``linear`` cost; ``{cost.weights.Vehicle}``
  and ``{cost.default}`` for a ``figures`` cost; ``{default_limit}``: the standard game's size;
- ``{cost of Wolf Rider}``: what a catalog unit costs by the formula; ``{sum of Wolf Rider}``: the same
  term by term (``4+6``), for a worked example.

``{{`` and ``}}`` write a brace. An unknown placeholder is an error located at its text, with a
"did you mean". Texts are filled when a rule set loads, so every page, message and card reads the
filled sentence; ``check-catalog`` reads the templates themselves (``authoring/stale.py``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from listbuilder.errors import ErrorDetail, Location
from listbuilder.files.yamldoc import Document
from listbuilder.record import FrozenMap
from listbuilder.rules.forcerules.base import ForceRule
from listbuilder.rules.formats import (
    Choice,
    Noun,
    Ruling,
    Stat,
    SystemFile,
    Unit,
)
from listbuilder.rules.system import unit_key
from listbuilder.words import did_you_mean

# A placeholder is a name in braces, perhaps with a little arithmetic (worked left to right) and
# ':words' for a number in words; any other brace is text ('{weapon: Rifle, figures: 4}' reads
# as written), and doubled braces around a placeholder write it literally ('{{count}}').
_WORD = r"[A-Za-z_][A-Za-z0-9_.-]*"
_NAME = rf"(?:cost|sum) of [^{{}}\n:]+?|{_WORD}(?: [-+*] (?:{_WORD}|\d+))*(?::[Ww]ords)?"
_TOKEN = re.compile(r"\{\{(?:" + _NAME + r")\}\}|\{(" + _NAME + r")\}")
NUMBER_WORDS = tuple(
    [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ]
)
COST_OF = "cost of "
SUM_OF = "sum of "
# The fields of a force rule that hold its words, not its numbers: never placeholders themselves.
WORDS = ("id", "kind", "rule", "title", "source", "severity")


# The fields of system.yaml that hold sentences (reference.py names reference.yaml's).
SYSTEM_TEXTS: Mapping[type, tuple[str, ...]] = {
    SystemFile: ("summary",),
    ForceRule: ("rule", "title"),
    Ruling: ("text",),
    Stat: ("summary",),
    Choice: ("summary",),
}


def has_placeholders(text: str) -> bool:
    """Whether ``text`` is a template rather than a plain sentence."""
    return "{" in text and _TOKEN.search(text) is not None


def literal(text: str) -> str:
    """What a template states in so many words: its text with every placeholder left out."""
    return _TOKEN.sub(lambda m: m.group(0)[1:-1] if m.group(1) is None else " ", text)


def names_in(text: str) -> list[str]:
    """The placeholders of a template, in order."""
    return [m.group(1).strip() for m in _TOKEN.finditer(text) if m.group(1) is not None]


def fill(text: str, lookup: Callable[[str], str | None]) -> tuple[str, list[str]]:
    """``text`` with each placeholder replaced by ``lookup(name)``; the problems, in words."""
    if not has_placeholders(text):
        return text, []
    problems: list[str] = []

    def one(m: re.Match[str]) -> str:
        if m.group(1) is None:
            return m.group(0)[1:-1]
        value = lookup(m.group(1).strip())
        if value is None:
            problems.append(m.group(1).strip())
            return m.group(0)
        return value

    return _TOKEN.sub(one, text), problems


def _show(value: Any) -> str | None:
    if value is None or isinstance(value, Mapping):
        return None
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return str(value)


def in_words(value: str, capital: bool = False) -> str:
    """A whole number from zero to twenty in words ('ten'); any other value as it is."""
    word = NUMBER_WORDS[int(value)] if value.isdigit() and int(value) < len(NUMBER_WORDS) else value
    return word[:1].upper() + word[1:] if capital else word


def rule_fields(rule: Any) -> dict[str, str]:
    """A force rule's own fields as placeholders: ``count``, ``per``, ``of``... (not its words)."""
    out = {}
    for f in dataclasses.fields(rule):
        shown = _show(getattr(rule, f.name))
        if f.name not in WORDS and shown is not None:
            out[f.name] = shown
    return out


def own_fields(record: Any) -> Mapping[str, str] | None:
    """The placeholders a record's own sentence may use: a force rule's fields, for its ``rule``."""
    return rule_fields(record) if isinstance(record, ForceRule) else None


def cost_fields(cost: Any) -> dict[str, str]:
    """A cost kind's numbers and names, read from its fields whatever its kind: ``default``,
    ``stat``, ``weights.Vehicle``, and a term's ``power.points`` (terms are named by their stat)."""
    out: dict[str, str] = {}
    for f in dataclasses.fields(cost):
        value = getattr(cost, f.name)
        if f.name in WORDS:
            continue
        if isinstance(value, Mapping):
            out.update({f"{f.name}.{k}": str(v) for k, v in value.items() if _show(v) is not None})
        elif isinstance(value, tuple) and all(dataclasses.is_dataclass(v) for v in value):
            for item in value:
                key = getattr(item, "stat", None)
                out.update({f"{key}.{k}": v for k, v in rule_fields(item).items() if k != "stat"} if key else {})
        elif (shown := _show(value)) is not None:
            out[f.name] = shown
    return out


class _Priced:
    """What a cost kind reads of its rule set, while the rule set's texts are still being filled."""

    def __init__(self, definition: SystemFile) -> None:
        self.definition = definition

    @property
    def measure(self) -> Noun:
        return self.definition.measure


def term_points(definition: SystemFile, unit: Unit) -> list[int]:
    """A unit's cost term by term, priced by its rule set's cost kind itself (``rules/costs.py``)."""
    return [part.points for part in definition.cost.parts(_Priced(definition), unit)]


class Scope:
    """Every placeholder a rule set's texts may use, and what each is now."""

    def __init__(self, definition: SystemFile, units: Mapping[str, Unit] | None = None) -> None:
        self.definition = definition
        self.units = units
        names: dict[str, str] = {}
        if definition.default_limit is not None:
            names["default_limit"] = str(definition.default_limit)
        names.update({f"cost.{k}": v for k, v in cost_fields(definition.cost).items()})
        for c in definition.constraints:
            names.update({f"{c.id}.{k}": v for k, v in rule_fields(c).items()})
        self.names = names

    def lookup(self, name: str, own: Mapping[str, str] | None = None) -> str | None:
        """What the placeholder ``name`` is now, or ``None`` if it names nothing."""
        spec = ""
        if name.lower().endswith(":words"):
            name, spec = name[: -len(":words")], name[-5:]
        if " " in name and not name.startswith((COST_OF, SUM_OF)):
            value = self._worked(name.split(" "), own)
        else:
            value = self._one(name, own)
        if value is None or not spec:
            return value
        return in_words(value, capital=spec[0] == "W")

    def _worked(self, parts: list[str], own: Mapping[str, str] | None) -> str | None:
        """``per * 2 - 1``: whole numbers and operators, worked left to right."""
        values = [p if p in "+-*" else (p if p.isdigit() else self._one(p, own)) for p in parts]
        if any(v is None or (v not in "+-*" and not v.lstrip("-").isdigit()) for v in values):
            return None
        total = int(values[0] or 0)
        for op, operand in zip(values[1::2], values[2::2], strict=False):
            n = int(operand or 0)
            total = total + n if op == "+" else total - n if op == "-" else total * n
        return str(total)

    def _one(self, name: str, own: Mapping[str, str] | None) -> str | None:
        if own is not None and name in own:
            return own[name]
        if name in self.names:
            return self.names[name]
        for prefix, terms in ((COST_OF, False), (SUM_OF, True)):
            if name.startswith(prefix) and self.units is not None:
                unit = self.units.get(unit_key(name[len(prefix) :].strip()))
                if unit is None:
                    return None
                points = term_points(self.definition, unit)
                return "+".join(map(str, points)) if terms else str(sum(points))
        return None

    def known(self, own: Mapping[str, str] | None = None) -> list[str]:
        """The names a did-you-mean offers (units by ``cost of NAME`` only when loaded)."""
        units = [f"{COST_OF}{u.name}" for u in (self.units or {}).values()]
        return [*(own or {}), *self.names, *units]

    def problem(
        self, doc: Document, where: Location, text: str, bad: str, own: Mapping[str, str] | None
    ) -> ErrorDetail:
        if bad.startswith((COST_OF, SUM_OF)):
            unit = bad.split(" of ", 1)[1]
            names = [u.name for u in (self.units or {}).values()]
            hint = did_you_mean(unit, names) or "name a unit of the rule set's factions"
            return doc.detail(where, f"no catalog unit '{unit}' for the placeholder {{{bad}}}", hint)
        bad = bad.split(":")[0]
        for part in bad.split(" "):
            if part not in "+-*" and not part.isdigit() and self._one(part, own) is None:
                bad = part
        known = self.known(own)
        hint = did_you_mean(bad, known) or "placeholders: " + ", ".join("{" + k + "}" for k in known[:12])
        return doc.detail(where, f"unknown placeholder {{{bad}}}", hint)


def _texts(data: Any, fields: Mapping[type, tuple[str, ...]], path: Location) -> Iterator[tuple[Location, Any]]:
    """Each record in ``data`` (walked through records, tuples and mappings) whose type has text fields."""
    if dataclasses.is_dataclass(data) and not isinstance(data, type):
        if type(data) in fields or any(isinstance(data, t) for t in fields):
            yield path, data
        for f in dataclasses.fields(data):
            yield from _texts(getattr(data, f.name), fields, (*path, f.name))
    elif isinstance(data, tuple):
        for i, item in enumerate(data):
            yield from _texts(item, fields, (*path, i))
    elif isinstance(data, Mapping):
        for key, item in data.items():
            yield from _texts(item, fields, (*path, key))


def text_fields(fields: Mapping[type, tuple[str, ...]], record: Any) -> tuple[str, ...]:
    for t, names in fields.items():
        if isinstance(record, t):
            return names
    return ()


def fill_record(
    data: Any,
    fields: Mapping[type, tuple[str, ...]],
    scope: Scope,
    doc: Document,
    errors: list[ErrorDetail],
    own: Callable[[Any], Mapping[str, str] | None] = lambda record: None,
) -> Any:
    """``data`` with every text field that ``fields`` names filled from ``scope``; problems to ``errors``.

    ``own`` gives a record's own placeholders (a force rule's fields for its sentence)."""
    changes: dict[Location, Any] = {}
    for path, record in _texts(data, fields, ()):
        mine = own(record)
        replaced: dict[str, Any] = {}
        for name in text_fields(fields, record):
            value = getattr(record, name)
            if isinstance(value, str):
                filled = _fill_one(value, (*path, name), scope, doc, errors, mine)
                if filled != value:
                    replaced[name] = filled
            elif isinstance(value, tuple):  # a table's columns or rows
                rows = tuple(_fill_cells(v, (*path, name, i), scope, doc, errors, mine) for i, v in enumerate(value))
                if rows != value:
                    replaced[name] = rows
        if replaced:
            changes[path] = replaced
    return _rebuild(data, changes, ()) if changes else data


def _fill_cells(value: Any, where: Location, scope: Scope, doc: Document, errors: list[ErrorDetail], own: Any) -> Any:
    if isinstance(value, str):
        return _fill_one(value, where, scope, doc, errors, own)
    if isinstance(value, tuple):
        return tuple(_fill_cells(v, (*where, i), scope, doc, errors, own) for i, v in enumerate(value))
    return value


def _fill_one(
    text: str, where: Location, scope: Scope, doc: Document, errors: list[ErrorDetail], own: Mapping[str, str] | None
) -> str:
    filled, problems = fill(text, lambda name: scope.lookup(name, own))
    errors.extend(scope.problem(doc, where, text, bad, own) for bad in problems)
    return filled


def _rebuild(data: Any, changes: Mapping[Location, Any], path: Location) -> Any:
    """``data`` with the records at ``changes``' paths given new field values (records are frozen)."""
    if not any(p[: len(path)] == path for p in changes):
        return data
    if dataclasses.is_dataclass(data) and not isinstance(data, type):
        new = {}
        for f in dataclasses.fields(data):
            value = getattr(data, f.name)
            rebuilt = _rebuild(value, changes, (*path, f.name))
            if rebuilt is not value:
                new[f.name] = rebuilt
        new.update(changes.get(path, {}))
        return dataclasses.replace(data, **new) if new else data
    if isinstance(data, tuple):
        return tuple(_rebuild(item, changes, (*path, i)) for i, item in enumerate(data))
    if isinstance(data, Mapping):
        return FrozenMap({k: _rebuild(v, changes, (*path, k)) for k, v in data.items()})
    return data
