"""A loaded rule set: its definition, its factions' ready-made units, and reading a unit's stats.

``catalog.py`` finds and loads these; everything else reads them. A ``System`` is deeply
immutable, so a long-running server can hold one for hours.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any

from listbuilder.errors import Action, ErrorDetail, InputError
from listbuilder.files.yamldoc import Document
from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.forcerules.counts import Limit
from listbuilder.rules.formats import (
    Noun,
    SystemFile,
    Unit,
)
from listbuilder.rules.listformat import UNIT_KEYS as UNIT_FIELDS
from listbuilder.rules.listformat import names, read_key
from listbuilder.rules.loadout import Carried, check_counts, read_items
from listbuilder.rules.schema import describe_value
from listbuilder.words import did_you_mean, one_of

# Keys a unit may carry besides its stats, in a catalog and in a list (declared in listformat.py).
UNIT_KEYS = names(UNIT_FIELDS)


def stats_sound(system: System) -> bool:
    """Whether every unit's stats are of its rule set's stat kinds: a number an int, a choice a
    text, choices a tuple of texts or carried items. The loader makes them so; a rule set read
    back from the cache is held to it (a stat is ``Any`` to its record)."""
    stats = system.definition.stats

    def fits(values: Mapping[str, Any]) -> bool:
        for key, value in values.items():
            stat = stats.get(key)
            if stat is None:
                return False
            if stat.kind == "number":
                if type(value) is not int:
                    return False
            elif stat.kind == "choice":
                if type(value) is not str:
                    return False
            elif type(value) is not tuple or not all(type(v) is str or type(v) is Carried for v in value):
                return False
        return True

    units = (
        *system.units.values(),
        *(u for us in system.factions.values() for u in us),
        *system.retired.values(),
    )
    return all(fits(u.stats) and all(fits(h.stats) for h in u.history) for u in units)


def unit_key(name: str) -> str:
    """How a unit's name is matched: in any case, and in any Unicode form of the same letters
    ('é' as one character or as 'e' and a combining accent, as macOS writes it)."""
    return unicodedata.normalize("NFC", name).lower()


@record
class System(Record):
    """A loaded rule set: its definition and every ready-made unit of its factions."""

    definition: SystemFile
    folder: Path
    units: Mapping[str, Unit] = field(default_factory=FrozenMap)  # by unit_key(name)
    factions: Mapping[str, tuple[Unit, ...]] = field(default_factory=FrozenMap)
    # The defining folders, the furthest base first and this rule set's own last (one for a
    # rule set that extends none), and every file the rule set was built from.
    layers: tuple[Path, ...] = ()
    files: tuple[Path, ...] = ()
    base_name: str = ""  # for a variant: the name of the rule set it varies
    faction_summaries: Mapping[str, str] = field(default_factory=FrozenMap)
    # Units under an older name (by unit_key(old name): the current unit's key), and units taken
    # out of the catalogs with their last stats (by unit_key(name)): old lists still load.
    former: Mapping[str, str] = field(default_factory=FrozenMap)
    retired: Mapping[str, Unit] = field(default_factory=FrozenMap)

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def measure(self) -> Noun:
        """What totals are counted in, in the rule set's words (point/points, figure/figures)."""
        return self.definition.measure

    @property
    def base(self) -> str | None:
        """The id of the rule set this one varies, or ``None``."""
        return self.definition.extends

    def layer_files(self, name: str) -> list[Path]:
        """Each defining folder's file ``name`` (reference.yaml, odds.yaml), base first."""
        return [f for f in (folder / name for folder in self.layers or (self.folder,)) if f.is_file()]

    @property
    def size_unit(self) -> str:
        """The plural of the measure: the word after a total, and the list file's key for the limit."""
        return self.definition.measure.plural

    @property
    def needs_size(self) -> bool:
        """True when a list has a size only if it gives one: the rule set limits a force's size
        but has no standard game (its players agree the size; the figure-counted rule sets)."""
        d = self.definition
        return d.default_limit is None and any(isinstance(c, Limit) for c in d.constraints)

    @property
    def counts_figures(self) -> bool:
        """Whether a force is sized by counting (weighted) figures rather than pricing units."""
        return self.definition.cost.counts_figures()

    def as_json(self) -> dict[str, Any]:
        """What ``listbuilder systems`` shows of it."""
        d = self.definition
        return {
            "id": d.id,
            "name": d.name,
            "costed_in": self.size_unit,
            "standard_game": d.default_limit,
            "factions": list(self.factions),
            "units": len(self.units),
            "extends": self.base,
        }

    @cached_property
    def unit_keys(self) -> tuple[str, ...]:
        return (*UNIT_KEYS, *self.definition.stats)

    def find_unit(self, name: str) -> Unit | None:
        return self.units.get(unit_key(name))

    def listed_unit(self, name: str) -> Unit | None:
        """The unit a list means by ``name``: a catalog unit by its name or a former one, or a
        retired unit (``Unit.retired`` set) with its last stats; ``None`` if none."""
        key = unit_key(name)
        found = self.units.get(key)
        if found is None and key in self.former:
            found = self.units.get(self.former[key])
        return found if found is not None else self.retired.get(key)

    def unit_named(
        self, name: str, advice: str = "give a unit of its catalogs", also: Iterable[str] = (), file: Path | None = None
    ) -> Unit:
        """The catalog unit called ``name`` (in any case), or an ``InputError`` (about ``file``) that
        there is none, with the closest name (``unknown_unit``); ``advice`` says what to give instead."""
        unit = self.find_unit(name)
        if unit is None:
            missing = self.unknown_unit(name, also)
            detail = ErrorDetail(message=advice, hint=missing.hint, action=missing.action)
            raise InputError(missing.message, file=file, details=[detail])
        return unit

    def unknown_unit(self, name: str, also: Iterable[str] = ()) -> ErrorDetail:
        """What is said wherever a name names none of the catalogs' units (``also``: the other names
        it could have meant, a list's custom units), with the closest name and the catalog to look in."""
        hint = did_you_mean(name, [*(u.name for u in self.units.values()), *also])
        return ErrorDetail(
            message=f"no unit '{name}' in the {self.id} catalogs",
            hint=hint,
            action=Action(kind="catalog", system=self.id),
        )

    def faction_named(self, faction: str) -> str:
        """The name of this rule set's faction ``faction`` (matched in any case); an ``InputError``
        with a did-you-mean hint when it has none of that name."""
        chosen = {f.lower(): f for f in self.factions}.get(faction.strip().lower())
        if chosen is None:
            hint = did_you_mean(faction, self.factions) or f"its factions: {', '.join(self.factions) or 'none'}"
            raise InputError.detailed(f"no faction '{faction}' in the {self.id} catalogs", hint)
        return chosen

    def unit_from(self, data: Mapping[str, Any]) -> tuple[Unit | None, list[ErrorDetail]]:
        """``read_unit`` of a unit given as values rather than in a file: a statline typed, a form's
        stats. Its errors are placed by stat, as no file holds it."""
        return self.read_unit(data, Document(path=Path(), data=data, positions={}, text=""), ())

    def read_unit(
        self, data: Mapping[str, Any], doc: Document, path: tuple[str | int, ...], extra_keys: Iterable[str] = ()
    ) -> tuple[Unit | None, list[ErrorDetail]]:
        """Check one unit's stats (from a catalog or a custom list entry) for type and spelling.

        Values that break a rule (Speed 7, Might 0) are legal *data*: the force rules judge them.
        """
        errors: list[ErrorDetail] = []
        stats_def = self.definition.stats
        allowed = (*UNIT_KEYS, *extra_keys, *stats_def)
        for key in data:
            if key not in allowed:
                hint = did_you_mean(str(key), allowed) or f"the keys a unit may have: {', '.join(allowed)}"
                errors.append(doc.detail((*path, key), f"unknown key '{key}'", hint, key=True))
        name, leader, notes, source = (read_key(k, data, doc, path, errors) for k in UNIT_FIELDS)
        stats: dict[str, Any] = {}
        for key, stat in stats_def.items():
            where = (*path, key)
            if key not in data:
                if stat.required:
                    names = [c.name for c in stat.choices]
                    example = {
                        "number": "a whole number",
                        "choice": one_of(names, 6),
                        "choices": f"a list of {one_of(names, 6)}",
                    }[stat.kind]
                    errors.append(
                        doc.detail(path, f"the stat '{key}' ({stat.label}) is missing", f"add '{key}:' with {example}")
                    )
                else:
                    stats[key] = stat.default_value()
                continue
            value = data[key]
            if stat.kind == "number":
                if isinstance(value, bool) or not isinstance(value, int):
                    errors.append(
                        doc.detail(where, f"{stat.label} must be a whole number, found {describe_value(value)}")
                    )
                else:
                    stats[key] = value
            elif stat.kind == "choice":
                choice = stat.choice(value) if isinstance(value, str) else None
                if choice is None:
                    errors.append(self._bad_choice(doc, where, stat.label, value, [c.name for c in stat.choices]))
                else:
                    stats[key] = choice.name
            else:
                # a list in a file; a tuple once a catalog unit is frozen (its history is read again from it)
                items = value if isinstance(value, list | tuple) else None
                if items is None:
                    errors.append(
                        doc.detail(
                            where,
                            f"{stat.label} must be a list, found {describe_value(value)}",
                            f"write it as [{', '.join(c.name for c in stat.choices[:2])}]",
                        )
                    )
                    continue
                chosen = read_items(stat, items, self.definition.figures_stat, doc, where, errors, self._bad_choice)
                if chosen is not None:
                    stats[key] = chosen
                    figures_key = self.definition.figures_stat
                    if stat.item and figures_key is not None and figures_key in stats_def:
                        label = stats_def[figures_key].label
                        errors += check_counts(
                            name, stat.label.lower(), chosen, data.get(figures_key), label, doc, where
                        )
        if errors:
            return None, errors
        return Unit(name=name.strip(), stats=stats, leader=leader, notes=notes, source=source), []

    @staticmethod
    def _bad_choice(
        doc: Document, where: tuple[str | int, ...], label: str, value: Any, options: list[str]
    ) -> ErrorDetail:
        hint = did_you_mean(value, options) if isinstance(value, str) else None
        return doc.detail(where, f"unknown {label.lower()} {describe_value(value)}; expected {one_of(options)}", hint)


@record
class SystemChoice(Record):
    """What a player picks a rule set by to start a list: its id, name, standard game size and
    measure. Kept in the rule set's cache entry, so a page that offers every rule set loads none."""

    id: str
    name: str
    default_limit: int | None
    size_unit: str
    needs_size: bool = False  # no standard game: a new list must be given the agreed size

    @classmethod
    def of(cls, system: System) -> SystemChoice:
        d = system.definition
        return cls(
            id=d.id,
            name=d.name,
            default_limit=d.default_limit,
            size_unit=system.size_unit,
            needs_size=system.needs_size,
        )


@record
class RuleSetChoices(Record):
    """The rule sets a new list can be started with, and those that cannot be read, with why."""

    offered: tuple[SystemChoice, ...]
    unreadable: tuple[tuple[str, str], ...] = ()  # (rule set id, the located error that stops it)
