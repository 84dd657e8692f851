"""A list brought up to catalogs that renamed or retired its units (the catalog's ``formerly:`` and
``retired:``): an entry named anew (``SetUnit``), a retired unit written into the list with its last
stats (``KeepRetired``), and the whole list at once (``UpdateUnits``).
A list naming an old unit loads as it is, with a warning (``army.report``); these are its fixes.
"""

from __future__ import annotations

from listbuilder.editing.changes import Change
from listbuilder.editing.custom import KEPT, custom_unit
from listbuilder.editing.plan import ListEdit
from listbuilder.errors import InputError
from listbuilder.record import record
from listbuilder.rules.loadout import as_data


@record
class SetUnit(Change):
    """Entry ``index`` (a catalog entry) names catalog unit ``unit`` instead, its count and
    leaders kept: a former name's current one, or the unit that takes a retired one's place."""

    index: int
    unit: str

    def carry_out(self, edit: ListEdit) -> str:
        entry = edit.entry_at(self.index)
        if entry.custom:
            raise InputError.detailed(
                f"entry {entry.number} is a custom unit, {entry.unit.name}",
                "only an entry of a catalog unit can name another",
                file=edit.path,
            )
        unit = edit.system.unit_named(self.unit.strip(), "name a unit of its catalogs", file=edit.path)
        edit.set_unit(entry.index, unit.name)
        edit.entry = entry.index
        return f"{entry.named or entry.unit.name} is now {unit.name}"


@record
class UpdateUnits(Change):
    """Bring the list up to its catalogs: each unit named by a former name takes its current name
    (the same unit: the total does not change), and each retired unit whose catalog names the
    unit that takes its place is replaced by it; a retired unit with none is left as it is. With
    ``keep_retired``, every retired unit is written into the list instead, as ``KeepRetired`` does."""

    keep_retired: bool = False

    def carry_out(self, edit: ListEdit) -> str:
        done = []
        for entry in edit.army.entries:
            if entry.custom:
                continue
            gone = entry.unit.retired
            if entry.named:
                edit.set_unit(entry.index, entry.unit.name)
                done.append(f"{entry.named} is now {entry.unit.name}")
            elif gone is not None and self.keep_retired:
                done.append(KeepRetired(index=entry.index).carry_out(edit))
            elif gone is not None and gone.replaced_by:
                current = edit.system.find_unit(gone.replaced_by)
                assert current is not None  # the catalog's loader made sure it is a unit
                edit.set_unit(entry.index, current.name)
                done.append(f"{entry.unit.name} is replaced by {current.name}")
        return "; ".join(done) if done else "every unit already has its current name"


@record
class KeepRetired(Change):
    """Write entry ``index``, a unit taken out of the catalogs, into the list as a custom unit with
    the stats it had last: the same models at the same cost, no longer named from the catalogs.
    Its count and leaders stay as they were."""

    index: int

    def carry_out(self, edit: ListEdit) -> str:
        entry = edit.entry_at(self.index)
        if entry.custom or entry.unit.retired is None:
            raise InputError.detailed(
                f"entry {entry.number}, {entry.unit.name}, is not a unit taken out of the catalogs",
                "only a retired unit is written into the list here",
                file=edit.path,
            )
        d = edit.system.definition
        stats: dict[str, object] = {"name": entry.unit.name}
        for key, value in entry.unit.stats.items():
            stats[key] = as_data(value, d.stats[key].item, d.figures_stat)
        name, pairs, data = custom_unit(edit, stats, "kept")
        written = edit.expected["units"][entry.index]
        if entry.leaders == entry.count and not any(k in written for k in ("leader", "leaders")):
            pairs.append(("leader", "true"))  # a leader profile: a custom unit says so itself
            data["leader"] = True
        edit.replace_entry(entry.index, pairs, data, KEPT)
        edit.entry = entry.index
        return f"{name} is now a unit of the list's own, as it was last"
