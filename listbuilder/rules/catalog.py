"""Find and load rule sets and their unit catalogs, shipped and user-supplied.

A catalog root holds one folder per rule set: ``<id>/system.yaml`` and ``<id>/factions/*.yaml``.
The shipped root comes with the package; a group's own roots (``--catalogs DIR`` or the
``LISTBUILDER_CATALOGS`` variable) add new rule sets, or new factions to shipped ones.
Everything loaded is checked as strictly as a list, with located errors.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from listbuilder.errors import Action, CatalogError, ErrorDetail, InputError
from listbuilder.files.yamldoc import Document
from listbuilder.rules import cache
from listbuilder.rules.checks import check_system
from listbuilder.rules.formats import (
    FactionFile,
    Retirement,
    SystemFile,
    Unit,
    UnitVersion,
)
from listbuilder.rules.schema import describe_value, load_catalog_file, validate
from listbuilder.rules.system import RuleSetChoices, SystemChoice, stats_sound, unit_key
from listbuilder.rules.system import System as System  # re-exported: the engine takes rule sets from here
from listbuilder.rules.userfolders import check_user_root
from listbuilder.rules.variant import EXTENDS, layered, scan_extends
from listbuilder.rules.wording import SYSTEM_TEXTS, Scope, fill_record, own_fields
from listbuilder.words import did_you_mean

ENV_VAR = "LISTBUILDER_CATALOGS"
SYSTEM_FILE = "system.yaml"
FACTIONS_DIR = "factions"
# Said wherever a rule set id is unknown: one of your own is found only through its catalog folder.
OWN_RULE_SET = ErrorDetail(
    message=f"a rule set of your own is found through the catalog folder that holds its folder, named in {ENV_VAR}",
    action=Action(kind="catalogs"),
)


# The files beside system.yaml whose parts share the rule set's cache entry (a variant's over its base's).
PART_FILES = ("reference.yaml", "odds.yaml")


def _part_files(folder: Path) -> tuple[Path, ...]:
    return tuple(folder / name for name in PART_FILES)


def shipped_root() -> Path:
    """The catalogs that come with listbuilder (inside the package once installed)."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "catalogs"
    return installed if installed.is_dir() else package.parent / "catalogs"


def user_roots(option: Sequence[Path] | None = None, environ: dict[str, str] | None = None) -> list[Path]:
    """User catalog roots: ``--catalogs`` options first, then ``LISTBUILDER_CATALOGS`` entries."""
    roots = list(option or [])
    env = (environ if environ is not None else os.environ).get(ENV_VAR, "")
    roots += [Path(p) for p in env.split(os.pathsep) if p.strip()]
    for root in roots:
        if not root.is_dir():
            raise InputError.detailed(
                "no such catalog folder",
                f"a catalogs folder (given, or in {ENV_VAR}) holds one folder per rule set",
                file=root,
            )
    return roots


class Catalogs:
    """Every rule set available: the shipped ones plus any user roots. Loads lazily, caches.

    ``pinned`` gives, for some rule set ids, the exact folders that make them, in place of the
    ones found in the roots (``check-catalog`` and ``reprice`` use it to load one folder as that
    rule set)."""

    def __init__(
        self,
        extra_roots: Sequence[Path] = (),
        shipped: Path | None = None,
        pinned: Mapping[str, Sequence[Path]] | None = None,
        cache: bool = True,
    ) -> None:
        self.cache = cache  # off for folders that live only for one command (a git revision)
        self.pinned = {k: list(v) for k, v in (pinned or {}).items()}
        # A folder named twice (in LISTBUILDER_CATALOGS and --catalogs, or spelt two ways, or the
        # shipped one) is read once: read twice, its units would clash with themselves.
        self.roots: list[Path] = []
        seen: set[str] = set()
        for root in (shipped or shipped_root(), *extra_roots):
            if os.path.realpath(root) not in seen:
                seen.add(os.path.realpath(root))
                self.roots.append(root)
        self._loaded: dict[str, System] = {}
        self._choices: dict[str, SystemChoice] = {}  # as _loaded: once an instance, for its life

    @classmethod
    def holding(cls, *systems: System) -> Catalogs:
        """Catalogs that serve exactly these loaded rule sets (to read a list against one of them)."""
        books = cls(pinned={s.id: [s.folder] for s in systems})
        books.__dict__["folders"] = {s.id: [s.folder] for s in systems}
        books._loaded.update({s.id: s for s in systems})
        return books

    @cached_property
    def folders(self) -> dict[str, list[Path]]:
        """Rule set id -> the folders that contribute to it (shipped first)."""
        found: dict[str, list[Path]] = {}
        for root in self.roots:
            if not root.is_dir():
                continue
            if root != self.roots[0]:
                check_user_root(root)
            for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
                if (folder / SYSTEM_FILE).is_file() or (folder / FACTIONS_DIR).is_dir():
                    found.setdefault(folder.name, []).append(folder)
        found.update(self.pinned)
        defined = [i for i, folders in found.items() if any((f / SYSTEM_FILE).is_file() for f in folders)]
        for system_id, folders in found.items():  # factions for no rule set would never be read
            if system_id not in defined:
                raise _undefined(system_id, folders[0], defined)
        return found

    def ids(self) -> list[str]:
        return sorted(self.folders)

    def unknown_hint(self, system_id: str) -> str:
        """The hint for an id that names no rule set: the closest id, or every id there is."""
        return did_you_mean(system_id, self.ids()) or f"the rule sets are: {', '.join(self.ids())}"

    def sources(self) -> tuple[Path, ...]:
        """Every rule-set folder these catalogs read from, shipped and user's: a command's output
        must never be written over a file in one (``files.writing.check_target``)."""
        return tuple(folder for folders in self.folders.values() for folder in folders)

    def get(self, system_id: str) -> System:
        """Load a rule set by id, or raise ``InputError`` with a did-you-mean hint."""
        if system_id in self._loaded:
            return self._loaded[system_id]
        return self._build(system_id, self._key(system_id))

    def all(self) -> list[System]:
        return [self.get(i) for i in self.ids()]

    def choice(self, system_id: str) -> SystemChoice:
        """What starting a list needs of a rule set: from its cache entry, else loaded as ``get`` loads it."""
        if system_id not in self._choices:
            loaded = self._loaded.get(system_id)
            key = None if loaded is not None else self._key(system_id)
            found = cache.lookup(key, "choice", SystemChoice)  # None for no key
            if found is None:
                found = SystemChoice.of(self._build(system_id, key) if loaded is None else loaded)
                cache.remember(key, "choice", found)
            self._choices[system_id] = found
        return self._choices[system_id]

    def choices(self) -> RuleSetChoices:
        """Every rule set's choice, and the rule sets that cannot be read, each with its error."""
        offered, unreadable = [], []
        for system_id in self.ids():
            try:
                offered.append(self.choice(system_id))
            except InputError as exc:
                unreadable.append((system_id, exc.render()))
        return RuleSetChoices(offered=tuple(offered), unreadable=tuple(unreadable))

    def _key(self, system_id: str) -> str | None:
        """The cache key of rule set ``system_id`` (``None`` with no cache); unknown, an ``InputError``."""
        if not self.folders.get(system_id):
            hint = self.unknown_hint(system_id)
            raise InputError(f"unknown rule set '{system_id}'", details=[ErrorDetail(message=hint), OWN_RULE_SET])
        if not (self.cache and cache.cache_dir() is not None):
            return None
        return cache.fingerprint("ruleset", self.source_files(system_id))

    def _build(self, system_id: str, key: str | None) -> System:
        """Rule set ``system_id`` from its cache entry ``key``, else loaded from its files (and kept)."""
        system = cache.lookup(key, "system", System, sound=stats_sound)
        if system is None:
            system = self._load(system_id)
            cache.remember(key, "system", system)
        cache.bind(system, key)  # its reference and odds are parts of the same entry
        self._loaded[system_id] = system
        self._choices[system_id] = SystemChoice.of(system)  # what a list of it is started with: the same
        return system

    def measure_words(self) -> set[str]:
        """The limit keys (measure plurals) of every rule set that loads: a list that uses another
        rule set's key can then be told which one its own rule set uses."""
        words = set()
        for system_id in self.ids():
            with contextlib.suppress(InputError):
                words.add(self.choice(system_id).size_unit)
        return words

    def chain(self, system_id: str) -> list[str]:
        """The ids a rule set is built from: the furthest base first, ``system_id`` last.

        Read from each ``system.yaml``'s ``extends:`` line without loading it; an unknown base
        stops the chain (the loader then reports it, located), a loop is an error."""
        ids = [system_id]
        while True:
            defining = [f for f in self.folders.get(ids[0], []) if (f / SYSTEM_FILE).is_file()]
            base = scan_extends(defining[0] / SYSTEM_FILE) if defining else None
            if base is None or base not in self.folders:
                return ids
            if base in ids:
                loop = " -> ".join([*reversed(ids), base])
                raise CatalogError.detailed(
                    f"the rule sets extend each other in a loop ({loop})",
                    "a variant extends a rule set that extends nothing in return",
                    file=defining[0] / SYSTEM_FILE,
                )
            ids.insert(0, base)

    def source_files(self, system_id: str) -> list[Path]:
        """Every file the rule set ``system_id`` is built from, its bases' included.

        This is the cache key's input: an edit to any of these files, or to a base's, is seen."""
        files = []
        for sid in self.chain(system_id):
            for folder in self.folders.get(sid, []):
                files += [folder / SYSTEM_FILE, *sorted((folder / FACTIONS_DIR).glob("*.yaml"))]
                files += _part_files(folder)
        return [f for f in files if f.is_file()]

    def _defining(self, system_id: str) -> Path:
        folders = self.folders.get(system_id, [])
        defining = [f for f in folders if (f / SYSTEM_FILE).is_file()]
        if not defining:
            raise _undefined(system_id, folders[0] if folders else Path(system_id), self.ids())
        if len(defining) > 1:
            raise CatalogError.detailed(
                f"rule set '{system_id}' is defined twice",
                f"it is already defined in {defining[0]}; give a house variant its own id",
                file=defining[1] / SYSTEM_FILE,
            )
        return defining[0]

    def _load(self, system_id: str) -> System:
        chain = self.chain(system_id)
        layers = [self._defining(sid) for sid in chain]
        top = layers[-1] / SYSTEM_FILE
        base_name = ""
        if len(chain) > 1:
            base_name = self.get(chain[-2]).definition.name  # a broken base is reported as itself
        doc = layered([f / SYSTEM_FILE for f in layers], "rule set file", chain[-2] if len(chain) > 1 else "")
        if not isinstance(doc.data, dict):
            raise CatalogError("a rule set file must be a mapping of keys to values", file=top)
        wanted = doc.data.get(EXTENDS)
        if len(chain) == 1 and isinstance(wanted, str) and wanted not in self.folders:
            detail = doc.detail((EXTENDS,), f"no rule set '{wanted}' to extend", self.unknown_hint(wanted))
            raise doc.error("this variant cannot be read", [detail], CatalogError)
        definition, errors = validate(SystemFile, doc.data, doc)
        if definition is not None:
            errors = check_system(definition, doc, layers[-1].name) + self._check_extends(definition, doc, chain)
        if definition is None or errors:
            what = f"this variant of '{chain[-2]}'" if len(chain) > 1 else "this rule set file"
            raise doc.error(f"{what} has errors", errors, CatalogError)
        system = System(
            definition=definition,
            folder=layers[-1],
            layers=tuple(layers),
            files=tuple(self.source_files(system_id)),
            base_name=base_name,
        )
        units: dict[str, Unit] = {}
        factions: dict[str, list[Unit]] = {}
        summaries: dict[str, str] = {}
        changes = _Changes()
        for sid in chain:
            for folder in self.folders.get(sid, []):
                found = folder / FACTIONS_DIR
                if found.is_dir():
                    for file in sorted(found.glob("*.yaml")):
                        self._load_faction(system, file, units, factions, summaries, changes)
        changes.check(units)
        # Sentences that write a number as a placeholder ('At most {count} wolves') follow it.
        text_errors: list[ErrorDetail] = []
        filled = fill_record(definition, SYSTEM_TEXTS, Scope(definition, units), doc, text_errors, own_fields)
        if text_errors:
            what = f"this variant of '{chain[-2]}'" if len(chain) > 1 else "this rule set file"
            raise doc.error(f"{what} has placeholders that name nothing", text_errors, CatalogError)
        by_faction = {name: tuple(found) for name, found in factions.items()}
        return dataclasses.replace(
            system,
            definition=filled,
            units=units,
            factions=by_faction,
            faction_summaries=summaries,
            former=changes.former,
            retired={key: unit for key, (unit, _, _) in changes.retired.items()},
        )

    def _check_extends(self, definition: SystemFile, doc: Document, chain: list[str]) -> list[ErrorDetail]:
        """What ``extends:`` must be: a known rule set, written as ``scan_extends`` reads it, and a
        variant must have an id of its own."""
        base = definition.extends
        scanned = chain[-2] if len(chain) > 1 else None
        if base is None and scanned is None:
            return []
        where = (EXTENDS,)
        if base is not None and base not in self.folders:
            return [doc.detail(where, f"no rule set '{base}' to extend", self.unknown_hint(base))]
        if base != scanned:
            hint = "the loader reads it before the rest of the file"
            return [doc.detail(where, "write 'extends: ID' on a line of its own, at the top of the file", hint)]
        if ("id",) not in getattr(doc, "origin", {}):
            return [doc.detail(where, "a variant needs an 'id' of its own, the same as its folder name", "add 'id:'")]
        return []

    @staticmethod
    def _read_history(
        system: System, data: Mapping[str, Any], doc: Document, path: tuple[str | int, ...]
    ) -> tuple[tuple[UnitVersion, ...], list[ErrorDetail]]:
        """A unit's ``history``: its stats in older catalog revisions, so old lists can be warned."""
        raw = data.get("history", [])
        where = (*path, "history")
        if not isinstance(raw, list | tuple):
            return (), [doc.detail(where, f"expected a list of older versions, found {describe_value(raw)}")]
        versions: list[UnitVersion] = []
        errors: list[ErrorDetail] = []
        current = system.definition.revision
        for j, old in enumerate(raw):
            at = (*where, j)
            if (
                not isinstance(old, Mapping)
                or not isinstance(old.get("revision"), int)
                or isinstance(old["revision"], bool)
            ):
                hint = "write e.g. '- {revision: 1, might: 9}': the stats the unit had up to revision 1"
                errors.append(doc.detail(at, "each older version needs a 'revision' (a whole number)", hint))
                continue
            if not 1 <= old["revision"] < current:
                message = f"revision {old['revision']} is not older than the rule set's revision {current}"
                errors.append(doc.detail((*at, "revision"), message, "bump 'revision' in system.yaml"))
                continue
            merged = {
                **{k: v for k, v in data.items() if k != "history"},
                **{k: v for k, v in old.items() if k != "revision"},
            }
            unit, unit_errors = system.read_unit(merged, doc, at)
            errors += unit_errors
            if unit is not None:
                versions.append(UnitVersion(revision=old["revision"], stats=unit.stats))
        return tuple(versions), errors

    def _load_faction(
        self,
        system: System,
        path: Path,
        known: dict[str, Unit],
        factions: dict[str, list[Unit]],
        summaries: dict[str, str] | None = None,
        changes: _Changes | None = None,
    ) -> None:
        """Read one unit catalog into ``known`` (by ``unit_key``) and ``factions``, and its
        former names and retired units into ``changes``."""
        changes = changes if changes is not None else _Changes()
        faction, doc = load_catalog_file(path, FactionFile, "unit catalog", "a mapping with 'faction' and 'units'")
        errors: list[ErrorDetail] = []
        units: list[Unit] = []
        in_file: set[str] = set()  # lower-case names so far: one set look-up a unit, not a scan
        for i, data in enumerate(faction.units):
            unit, unit_errors = system.read_unit(data, doc, ("units", i), extra_keys=("history", FORMERLY))
            errors += unit_errors
            if unit is None:
                continue
            history, history_errors = self._read_history(system, data, doc, ("units", i))
            errors += history_errors
            formerly = _read_formerly(data, doc, ("units", i), errors)
            key = unit_key(unit.name)
            clash = known.get(key)
            if clash is not None or key in in_file:
                where = f"the faction {clash.faction}" if clash else "this file"
                errors.append(
                    doc.detail(
                        ("units", i, "name"),
                        f"the unit name '{unit.name}' is already used in {where}",
                        "unit names are unique within a rule set",
                    )
                )
                continue
            in_file.add(key)
            unit = dataclasses.replace(unit, history=history, faction=faction.faction, formerly=formerly)
            for j, old in enumerate(formerly):
                changes.former_name(old, unit, doc, ("units", i, FORMERLY, j))
            units.append(unit)
        for i, data in enumerate(faction.retired):
            retired = _read_retired(system, data, doc, ("retired", i), errors)
            if retired is not None:
                changes.retire(dataclasses.replace(retired, faction=faction.faction), doc, ("retired", i))
        errors += changes.errors
        changes.errors = []
        if errors:
            summary = "this unit catalog has errors"
            if path.parent.parent not in self.folders.get(system.id, []):
                summary += f" when read for the variant '{system.id}' (its stats differ from this file's rule set)"
            raise doc.error(summary, errors, CatalogError)
        factions.setdefault(faction.faction, []).extend(units)
        if faction.summary and summaries is not None:
            summaries.setdefault(faction.faction, faction.summary)
        for unit in units:
            known[unit_key(unit.name)] = unit


FORMERLY = "formerly"
_RETIRED_KEYS = ("revision", "note", "replaced_by")


def _read_formerly(
    data: Mapping[str, Any], doc: Document, path: tuple[str | int, ...], errors: list[ErrorDetail]
) -> tuple[str, ...]:
    """A unit's ``formerly``: the names it had in older revisions, so lists that use them load."""
    raw = data.get(FORMERLY, [])
    if not isinstance(raw, list | tuple) or not all(isinstance(n, str) and n.strip() for n in raw):
        hint = "write e.g. 'formerly: [Ghoul]': each name the unit had before, as text"
        errors.append(doc.detail((*path, FORMERLY), f"expected a list of names, found {describe_value(raw)}", hint))
        return ()
    return tuple(n.strip() for n in raw)


def _read_retired(
    system: System, data: Any, doc: Document, path: tuple[str | int, ...], errors: list[ErrorDetail]
) -> Unit | None:
    """A retired unit: its last stats, the last revision that had it, a note and its replacement."""
    if not isinstance(data, Mapping):
        errors.append(doc.detail(path, f"expected a retired unit (a mapping), found {describe_value(data)}"))
        return None
    unit, unit_errors = system.read_unit(
        {k: v for k, v in data.items() if k not in _RETIRED_KEYS}, doc, path, extra_keys=_RETIRED_KEYS
    )
    errors += unit_errors
    revision, note, replaced_by = data.get("revision"), data.get("note", ""), data.get("replaced_by")
    current = system.definition.revision
    if isinstance(revision, bool) or not isinstance(revision, int):
        hint = "the last catalog revision that had the unit, e.g. 'revision: 1'"
        errors.append(
            doc.detail((*path, "revision"), f"expected a whole number, found {describe_value(revision)}", hint)
        )
        return None
    if not 1 <= revision < current:
        message = f"revision {revision} is not older than the rule set's revision {current}"
        errors.append(doc.detail((*path, "revision"), message, "bump 'revision' in system.yaml"))
        return None
    if not isinstance(note, str):
        errors.append(doc.detail((*path, "note"), f"expected text, found {describe_value(note)}"))
        return None
    if replaced_by is not None and not (isinstance(replaced_by, str) and replaced_by.strip()):
        found = describe_value(replaced_by)
        errors.append(doc.detail((*path, "replaced_by"), f"expected a unit's name, found {found}"))
        return None
    if unit is None:
        return None
    gone = Retirement(revision=revision, note=note.strip(), replaced_by=replaced_by.strip() if replaced_by else None)
    return dataclasses.replace(unit, retired=gone)


class _Changes:
    """A rule set's former names and retired units as its unit catalogs are read, each checked
    against the others and, once every catalog is read, against the units (``check``)."""

    def __init__(self) -> None:
        self.former: dict[str, str] = {}  # unit_key(old name) -> unit_key(current name)
        self.retired: dict[str, tuple[Unit, Document, tuple[str | int, ...]]] = {}
        self.places: dict[str, tuple[Document, tuple[str | int, ...]]] = {}  # where each old name is
        self.errors: list[ErrorDetail] = []

    def _taken(self, key: str, name: str, doc: Document, path: tuple[str | int, ...]) -> bool:
        if key in self.former or key in self.retired:
            self.errors.append(
                doc.detail(path, f"'{name}' is already a former or retired unit's name", "give each old name once")
            )
            return True
        return False

    def former_name(self, old: str, unit: Unit, doc: Document, path: tuple[str | int, ...]) -> None:
        key = unit_key(old)
        if key == unit_key(unit.name):
            self.errors.append(doc.detail(path, f"'{old}' is the unit's own name", "list only the names it had before"))
        elif not self._taken(key, old, doc, path):
            self.former[key] = unit_key(unit.name)
            self.places[key] = (doc, path)

    def retire(self, unit: Unit, doc: Document, path: tuple[str | int, ...]) -> None:
        key = unit_key(unit.name)
        if not self._taken(key, unit.name, doc, (*path, "name")):
            self.retired[key] = (unit, doc, path)
            self.places[key] = (doc, (*path, "name"))

    def check(self, units: Mapping[str, Unit]) -> None:
        """Once every catalog is read: no old name is a unit's name now, and each replacement is a unit."""
        by_doc: dict[Path, tuple[Document, list[ErrorDetail]]] = {}

        def add(doc: Document, detail: ErrorDetail) -> None:
            by_doc.setdefault(doc.path, (doc, []))[1].append(detail)

        for key, (doc, path) in self.places.items():
            if key in units:
                message = f"'{units[key].name}' is a unit of the catalogs now, so it cannot be an old name too"
                add(doc, doc.detail(path, message, "a list naming it would mean the current unit"))
        for unit, doc, path in self.retired.values():
            wanted = unit.retired.replaced_by if unit.retired else None
            if wanted is not None and unit_key(wanted) not in units:
                hint = did_you_mean(wanted, [u.name for u in units.values()])
                add(doc, doc.detail((*path, "replaced_by"), f"no unit '{wanted}' in the catalogs", hint))
        for doc, details in by_doc.values():
            raise doc.error("this unit catalog has errors", details, CatalogError)


def _undefined(system_id: str, folder: Path, known: Sequence[str]) -> CatalogError:
    """The error of a factions folder for a rule set id that no folder defines."""
    hint = did_you_mean(system_id, known)
    fix = ErrorDetail(message=f"add {SYSTEM_FILE} to define it, or rename the folder to a known id", hint=hint)
    return CatalogError(f"factions for rule set '{system_id}' but no rule set of that id", file=folder, details=[fix])
