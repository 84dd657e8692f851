"""What a points change does: every unit's cost under two versions of a rule set, and each list's verdict.

The two versions are two folders (``OLD NEW``), or one folder and a git revision of it. Each is
loaded as the rule set of its folder's name, beside the shipped and the user's catalogs (so a
variant finds its base). A list is read against each version in turn; a list made for either
version's id is read as a list of the other too, so a base and its variant can be compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from listbuilder.army.costing import unit_cost
from listbuilder.army.listfile import parse_list
from listbuilder.army.report import Report, build_report
from listbuilder.authoring.catalogtests import catalogs_for
from listbuilder.authoring.gitrev import check_revision, folder_at
from listbuilder.errors import InputError, ListbuilderError
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import SYSTEM_FILE, Catalogs, System


@record
class UnitPrice(Record):
    """One catalog unit's cost under the old and the new version (``None`` where it is missing)."""

    name: str
    faction: str | None
    old: int | None
    new: int | None

    @property
    def change(self) -> int | None:
        return None if self.old is None or self.new is None else self.new - self.old

    __json__ = ("name", "faction", "old", "new", "change")


@record
class Verdict(Record):
    """A list judged under one version: its total, limit and the messages of the rules it breaks."""

    total: int | None
    limit: int | None
    legal: bool
    errors: tuple[str, ...]
    rule_ids: tuple[str, ...] = ()  # the id of the rule each of ``errors`` breaks
    unreadable: str = ""  # why the list cannot be read under this version, if it cannot

    def as_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "limit": self.limit,
            "legal": self.legal,
            "errors": list(self.errors),
            "rule_ids": list(self.rule_ids),
            "unreadable": self.unreadable or None,
        }


@record
class ListChange(Record):
    """One list before and after."""

    file: str
    name: str
    old: Verdict
    new: Verdict


@record
class Repricing(Record):
    """Every unit's cost under two versions of a rule set, sorted by change, and each list's verdict."""

    old_label: str
    new_label: str
    old_system: str
    new_system: str
    unit: str
    units: tuple[UnitPrice, ...]
    lists: tuple[ListChange, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "old": {"label": self.old_label, "system": self.old_system},
            "new": {"label": self.new_label, "system": self.new_system},
            "unit": self.unit,
            "units": [u.as_json() for u in self.units],
            "lists": [c.as_json() for c in self.lists],
        }


def _rule_set_folder(folder: Path, what: str) -> Path:
    if not (folder / SYSTEM_FILE).is_file():
        raise InputError.detailed(
            f"{what}: not a rule set folder (it has no {SYSTEM_FILE})",
            "name the folder of one rule set: catalogs/ID, or one of your own",
            file=folder,
        )
    return folder


def _load(folder: Path, extra_roots: Sequence[Path], cache: bool = True) -> System:
    return catalogs_for(folder, extra_roots, cache).get(folder.name)


def reprice(
    old: Path,
    new: Path | None = None,
    *,
    rev: str | None = None,
    lists: Sequence[Path] = (),
    extra_roots: Sequence[Path] = (),
) -> Repricing:
    """Compare two versions of a rule set: ``old`` and ``new`` folders, or ``old`` at ``rev`` and as it is now."""
    if (new is None) == (rev is None):
        raise InputError.detailed(
            "reprice compares two versions of a rule set",
            "give two folders, old and new, or one folder and a git revision of it",
        )
    if rev is not None:
        import tempfile  # only --rev needs a scratch folder (tempfile costs a few ms to import)

        check_revision(rev)
        current = _rule_set_folder(old, "FOLDER")
        with tempfile.TemporaryDirectory(prefix="listbuilder-rev-") as tmp:
            at_rev = _rule_set_folder(folder_at(current, rev, Path(tmp)), f"FOLDER at {rev}")
            before = _load(at_rev, extra_roots, cache=False)  # its folder is gone once this returns
            after = _load(current, extra_roots)
            return compare(before, after, f"{old} at {rev}", str(old), lists)
    assert new is not None
    before = _load(_rule_set_folder(old, "OLD"), extra_roots)
    after = _load(_rule_set_folder(new, "NEW"), extra_roots)
    return compare(before, after, str(old), str(new), lists)


def compare(before: System, after: System, old_label: str, new_label: str, lists: Sequence[Path]) -> Repricing:
    """The repricing of ``before`` to ``after``, with each of ``lists`` (files, or folders of lists)."""
    if before.size_unit != after.size_unit:
        raise InputError.detailed(
            f"'{before.id}' counts in {before.size_unit} but '{after.id}' in {after.size_unit}",
            "reprice compares two versions costed the same way",
        )
    # A unit renamed since is the same unit: priced against itself under its old name.
    was = {new: old for old, new in after.former.items() if old in before.units and new in after.units}
    old_names = set(was.values())
    names = [k for k in dict.fromkeys([*before.units, *after.units]) if k not in old_names]
    prices = []
    for key in names:
        a, b = before.units.get(key) or before.units.get(was.get(key, "")), after.units.get(key)
        unit = b or a
        assert unit is not None
        renamed = a is not None and b is not None and a.name != b.name
        prices.append(
            UnitPrice(
                name=f"{b.name} (formerly {a.name})" if renamed and a and b else unit.name,
                faction=unit.faction,
                old=unit_cost(before, a) if a else None,
                new=unit_cost(after, b) if b else None,
            )
        )
    prices.sort(key=lambda p: (p.change is None, -(p.change or 0), p.name.lower()))
    ids = {before.id, after.id}
    changes = [_list_change(path, before, after) for path in _list_files(lists, ids)]
    return Repricing(
        old_label=old_label,
        new_label=new_label,
        old_system=before.id,
        new_system=after.id,
        unit=after.size_unit,
        units=tuple(prices),
        lists=tuple(changes),
    )


def _list_files(paths: Sequence[Path], ids: set[str]) -> list[Path]:
    """The lists to judge: each file named, and every list of this rule set in each folder named."""
    out: list[Path] = []
    for path in paths:
        if not path.is_dir():
            out.append(path)
            continue
        for file in sorted(path.rglob("*.yaml")):
            try:
                data = load_yaml(file, "list file").data
            except ListbuilderError:
                continue  # in a folder, what does not read as YAML is not one of its lists
            if isinstance(data, dict) and data.get("system") in ids:
                out.append(file)
    return out


def _judge(path: Path, system: System, ids: set[str]) -> tuple[str, Verdict]:
    doc = load_yaml(path, "list file")
    found = doc.data.get("system") if isinstance(doc.data, dict) else None
    if found not in ids:
        raise InputError.detailed(
            f"this is a list of '{found}', not of the rule set repriced",
            f"give lists of {' or '.join(sorted(ids))}",
            file=path,
        )
    try:
        as_this = Document(
            path=doc.path,
            data={**doc.data, "system": system.id},
            positions=doc.positions,
            text=doc.text,
            key_positions=doc.key_positions,
        )
        army, _ = parse_list(as_this, Catalogs.holding(system))
    except InputError as exc:
        return path.stem, Verdict(total=None, limit=None, legal=False, errors=(), unreadable=exc.render())
    report: Report = build_report(army, system)
    verdict = Verdict(
        total=report.total,
        limit=report.limit,
        legal=report.legal(),
        errors=tuple(p.message for p in report.errors),
        rule_ids=tuple(p.rule_id for p in report.errors),
    )
    return army.name, verdict


def _list_change(path: Path, before: System, after: System) -> ListChange:
    ids = {before.id, after.id}
    name, old = _judge(path, before, ids)
    new_name, new = _judge(path, after, ids)
    return ListChange(file=str(path), name=name if old.total is not None else new_name, old=old, new=new)
