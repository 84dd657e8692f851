"""One checked edit of a list's text: the splices it plans and the data it must read back as.

Every edit is careful with the user's text:

- the list must load first, through the same loader and checks as ``listbuilder validate``, so
  a broken file gets the same located errors and is never edited;
- only the lines an edit must change are touched (``yamltext`` plans the splices): comments,
  key order, blank lines, quoting, indentation, line endings, a byte-order mark and a missing
  final newline stay as they were;
- the edited text is parsed again and its data compared with what the edit should give; a
  mismatch is a bug in listbuilder (``RuntimeError``) and nothing is written.

How an edit is then written, under the list's lock and with its undo step, is ``apply``.
"""

from __future__ import annotations

import copy
from dataclasses import field
from pathlib import Path
from typing import Any

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import Report, build_report
from listbuilder.editing.yamltext import YamlText, apply, scalar
from listbuilder.errors import ErrorDetail, InputError
from listbuilder.files.yamldoc import Document, parse_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.formats import ArmyList, Entry

BOM = "\ufeff"


@record
class EditResult(Record):
    """The outcome of an edit: the list's new text, its report, and whether the file changed."""

    path: Path
    text: str  # the whole new file, exactly as written (``text.encode()`` is the file's bytes)
    report: Report | None  # the edited list, costed and checked; None: a repair left it unreadable
    changed: bool  # False when the edit left the text as it was (then nothing is written)
    removed_temp_files: tuple[Path, ...] = field(default=())  # leftovers of crashed edits, cleaned up
    done: str = ""  # what the change did, in words ("added 2 of a unit")
    entry: int | None = None  # the entry the change made or changed, if it is still there

    def as_json(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "changed": self.changed,
            "removed_temp_files": [str(p) for p in self.removed_temp_files],
            "list": self.report.as_json() if self.report is not None else None,
        }


class ListEdit:
    """One edit of one list's text: the loaded list, the splices planned, the data expected.

    A change (``changes``) calls these methods; ``finish`` checks the result. The text is
    composed again (``YamlText``) for each step, so each step sees the text as it now is."""

    def __init__(self, text: str, source: Path, catalogs: Catalogs) -> None:
        self.bom = BOM if text.startswith(BOM) else ""
        self.doc: Document = parse_yaml(text[len(self.bom) :], source, keep_node=True)
        self.path = source
        self.catalogs = catalogs
        self.army: ArmyList
        self.army, self.system = parse_list(self.doc, catalogs)
        self.body = self.doc.text
        # What the edited text must read back as: a copy of the top and of the entry list, and of
        # each entry a step changes (``_entry_data``), not of all of a long list's entries.
        self.expected: dict[str, Any] = dict(self.doc.data)
        self.expected["units"] = list(self.doc.data["units"])
        self._copied: set[int] = set()
        self.values_from_user = False  # a value the user chose, checked only by reading it back
        self.entry: int | None = None  # the entry the change made or changed
        self.outcome: tuple[int, bool] | None = None  # the total and verdict the edit must give

    # --- where --------------------------------------------------------------------------------

    def _yaml(self) -> YamlText:
        """The text as it now is, composed (the first step reuses the tree the list was read from)."""
        root = self.doc.node if self.body is self.doc.text else None
        return YamlText(self.body, root)

    def _entry_data(self, index: int) -> dict[str, Any]:
        """The expected data of entry ``index``, copied before its first change."""
        if index not in self._copied:
            self.expected["units"][index] = copy.deepcopy(self.expected["units"][index])
            self._copied.add(index)
        data: dict[str, Any] = self.expected["units"][index]
        return data

    def _units(self, y: YamlText) -> tuple[Any, Any]:
        found = y.pair(y.root, "units")
        assert found is not None  # parse_list made sure the list has units
        return found

    def entry_at(self, index: object) -> Entry:
        """Entry ``index`` of the list as loaded; an ``InputError`` for an index it does not have."""
        entries = self.army.entries
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(entries):
            raise InputError(
                f"the list has no entry {index!r}",
                file=self.path,
                details=[ErrorDetail(message=f"entries are numbered 0 to {len(entries) - 1}", hint="reload the list")]
                if entries
                else [ErrorDetail(message="the list has no entries yet")],
            )
        return entries[index]

    # --- steps --------------------------------------------------------------------------------

    def set_top(self, key: str, value: str | int) -> None:
        """Set a key of the list itself (its name or limit); a missing limit goes after the name."""
        y = self._yaml()
        rendered = str(value)
        found = y.pair(y.root, key)
        if found is not None:
            if isinstance(value, str):
                rendered = scalar(value, found[1].style if found[1].style in ("'", '"') else None, y.root.flow_style)
            self.body = apply(self.body, [y.replace_scalar(found[1], rendered)])
        else:
            name = y.pair(y.root, "name")
            assert name is not None
            self.body = apply(self.body, y.insert_pair_after(y.root, name[1], key, rendered))
        self.expected[key] = value

    def set_field(self, index: int, key: str, value: str | int | bool) -> None:
        """Write ``key: value`` on entry ``index``: replaced where it is, else after its count or name."""
        y = self._yaml()
        item = self._units(y)[1].value[index]
        found = y.pair(item, key)
        if isinstance(value, bool):
            rendered = "true" if value else "false"
        elif isinstance(value, int):
            rendered = str(value)
        else:
            rendered = scalar(value, None, bool(item.flow_style))
        if found is not None:
            splices = [y.replace_scalar(found[1], rendered)]
        else:
            anchor = y.pair(item, "count") or y.pair(item, "unit") or y.pair(item, "name")
            assert anchor is not None  # parse_list made sure each entry has a unit or a name
            splices = y.insert_pair_after(item, anchor[1], key, rendered)
        self.body = apply(self.body, splices)
        self._entry_data(index)[key] = value

    def set_unit(self, index: int, unit_name: str) -> None:
        """Name another catalog unit on entry ``index`` (its ``unit:`` value, quoted as it was)."""
        y = self._yaml()
        item = self._units(y)[1].value[index]
        found = y.pair(item, "unit")
        assert found is not None  # a catalog entry has its 'unit:'
        style = found[1].style if found[1].style in ("'", '"') else None
        self.body = apply(self.body, [y.replace_scalar(found[1], scalar(unit_name, style, bool(item.flow_style)))])
        self._entry_data(index)["unit"] = unit_name

    def set_count(self, index: int, count: int) -> None:
        """Give entry ``index`` ``count`` models (a ``count:`` line right after its name)."""
        y = self._yaml()
        item = self._units(y)[1].value[index]
        found = y.pair(item, "count")
        if found is not None:
            splices = [y.replace_scalar(found[1], str(count))]
        else:
            anchor = y.pair(item, "unit") or y.pair(item, "name")
            assert anchor is not None
            splices = y.insert_pair_after(item, anchor[1], "count", str(count))
        self.body = apply(self.body, splices)
        self._entry_data(index)["count"] = count
        leaders = self._entry_data(index).get("leaders")
        if isinstance(leaders, int) and leaders > count:  # fewer models than leaders: the rest all lead
            self.set_leaders(index, count)

    def set_leaders(self, index: int, leaders: int) -> None:
        """Write that ``leaders`` of entry ``index``'s models (its count as planned so far) lead.

        Every model: ``leader: true`` (nothing for a catalog leader profile); none: ``leader: false``
        (nothing for a profile that is no leader); some: ``leaders: N``. An existing ``leader:`` or
        ``leaders:`` line is rewritten in place, its key renamed if need be, so nothing else moves.
        """
        data = self._entry_data(index)
        count = data.get("count", 1)
        catalog = self.system.listed_unit(str(data["unit"])) if "unit" in data else None
        profile = bool(catalog.leader) if catalog is not None else False  # what no key means
        value = leaders == count
        if value or leaders == 0:
            key = "leader"
            wanted: Any = None if value == profile else value
        else:
            key, wanted = "leaders", leaders
        now = {k: data[k] for k in ("leader", "leaders") if k in data}
        if now == ({} if wanted is None else {key: wanted}):
            return
        y = self._yaml()
        item = self._units(y)[1].value[index]
        found = y.pair(item, "leaders") or y.pair(item, "leader")
        if wanted is None and found is not None:
            wanted = value  # keep the line, saying what no line would say
        rendered = str(wanted).lower() if isinstance(wanted, bool) else str(wanted)
        if found is not None:
            splices = [y.replace_scalar(found[1], rendered)]
            if found[0].value != key:
                splices.insert(0, y.replace_scalar(found[0], key))
            self.body = apply(self.body, splices)
        elif wanted is not None:
            anchor = y.pair(item, "count") or y.pair(item, "unit") or y.pair(item, "name")
            assert anchor is not None
            self.body = apply(self.body, y.insert_pair_after(item, anchor[1], key, rendered))
        for old in ("leader", "leaders"):
            data.pop(old, None)
        if wanted is not None:
            data[key] = wanted

    def set_stat(self, index: int, key: str, value: Any) -> None:
        """Set a stat of custom entry ``index``; a list stat may only lose values (Attacker or Defender)."""
        y = self._yaml()
        item = self._units(y)[1].value[index]
        found = y.pair(item, key)
        data = self._entry_data(index)
        if isinstance(value, tuple | list):
            old, new = list(data.get(key) or []), list(value)
            if found is None or any(v not in old for v in new) or len(new) > len(old):
                raise InputError(
                    f"cannot write '{key}: {new}' into this list",
                    file=self.path,
                    details=[self.doc.detail(("units", index, key), "only values can be taken out here", "edit it")],
                )
            for i in reversed(range(len(old))):
                if old[i] not in new or old[:i].count(old[i]) >= new.count(old[i]):
                    y = self._yaml()
                    found = y.pair(self._units(y)[1].value[index], key)
                    assert found is not None
                    self.body = apply(self.body, y.delete_item(found[1], i, found[0]))
            data[key] = new
            return
        rendered = str(value) if isinstance(value, int) else scalar(str(value))
        if found is not None:
            splices = [y.replace_scalar(found[1], rendered)]
        else:
            name = y.pair(item, "name")
            assert name is not None
            splices = y.insert_pair_after(item, name[1], key, rendered)
        self.body = apply(self.body, splices)
        data[key] = value

    def append(self, unit_name: str, count: int, leader: bool | None = None) -> None:
        """Append a ``- unit: NAME`` entry, laid out like the entries already there."""
        y = self._yaml()
        key, seq = self._units(y)
        model = self._model_entry(y, seq)
        style = None
        if model is not None:
            unit_value = y.pair(model, "unit")
            style = unit_value[1].style if unit_value and unit_value[1].style in ("'", '"') else None
        flow = bool(seq.flow_style) or bool(model is not None and model.flow_style)
        pairs = [("unit", scalar(unit_name, style, flow))]
        if count > 1:
            pairs.append(("count", str(count)))
        if leader is not None:  # taken as a leader, or not, against what the catalog says
            pairs.append(("leader", "true" if leader else "false"))
        column = -1 if y.root.flow_style else key.start_mark.column
        self.body = apply(self.body, y.append_item(seq, pairs, model, column))
        added: dict[str, Any] = {"unit": unit_name, **({"count": count} if count > 1 else {})}
        if leader is not None:
            added["leader"] = leader
        self.expected["units"].append(added)

    def append_pairs(self, pairs: list[tuple[str, str]], data: dict[str, Any]) -> None:
        """Append an entry of rendered ``pairs`` (a custom unit) that reads back as ``data``."""
        y = self._yaml()
        key, seq = self._units(y)
        items = list(seq.value)
        model = items[-1] if items else None
        column = -1 if y.root.flow_style else key.start_mark.column
        self.body = apply(self.body, y.append_item(seq, pairs, model, column))
        self.expected["units"].append(data)

    def replace_entry(
        self, index: int, pairs: list[tuple[str, str]], data: dict[str, Any], keep: tuple[str, ...]
    ) -> None:
        """Write entry ``index`` anew from rendered ``pairs`` that read back as ``data`` (a custom unit
        edited), where it stands; its keys named in ``keep`` stay as written, right after its name."""
        y = self._yaml()
        seq = self._units(y)[1]
        item = seq.value[index]
        kept = [(k.value, y.source(v)) for k, v in item.value if getattr(k, "value", None) in keep]
        old = self.expected["units"][index]
        self.body = apply(self.body, [y.replace_item(seq, index, [*pairs[:1], *kept, *pairs[1:]])])
        self.expected["units"][index] = {**{k: old[k] for k, _ in kept}, **data}
        self._copied.add(index)

    @property
    def flow(self) -> bool:
        """Whether new entries are written in flow style (``[...]``)."""
        return bool(self._units(self._yaml())[1].flow_style)

    @staticmethod
    def _model_entry(y: YamlText, seq: Any) -> Any:
        """The entry a new one should look like: the last catalog entry, else the last entry."""
        items = list(seq.value)  # parse_list made sure every entry is a mapping
        for item in reversed(items):
            if y.pair(item, "unit") is not None:
                return item
        return items[-1] if items else None

    def delete(self, indices: list[int]) -> None:
        """Delete entries. In a block sequence that keeps an entry, all at once (their lines do not
        overlap); otherwise one at a time from the last, each seeing the commas as they then are."""
        wanted = sorted(set(indices), reverse=True)
        if not wanted:
            return
        y = self._yaml()
        key, seq = self._units(y)
        if not seq.flow_style and len(wanted) < len(seq.value):
            splices = [s for index in wanted for s in y.delete_item(seq, index, key)]
            try:
                self.body = apply(self.body, splices)
            except ValueError:  # the last line of a text without a final newline: one at a time
                return self._delete_each(wanted)
            wanted_set = set(wanted)
            self.expected["units"] = [e for i, e in enumerate(self.expected["units"]) if i not in wanted_set]
            self._copied = set()  # indices moved: copy again before a later change
            return
        self._delete_each(wanted)

    def _delete_each(self, wanted: list[int]) -> None:
        for index in wanted:
            y = self._yaml()
            key, seq = self._units(y)
            self.body = apply(self.body, y.delete_item(seq, index, key))
            del self.expected["units"][index]
        self._copied = set()

    # --- the check ----------------------------------------------------------------------------

    def finish(self) -> EditResult:
        """Check the edited text reads back as intended, and cost and judge the edited list."""
        try:
            doc = parse_yaml(self.body, self.path)
            army, system = parse_list(doc, self.catalogs)
        except InputError as exc:
            if self.values_from_user:  # the value the user chose is what the list refuses
                raise
            raise RuntimeError(
                f"listbuilder made an edit it cannot read back; {self.path} is unchanged:\n{exc}"
            ) from exc
        if doc.data != self.expected:
            raise RuntimeError(f"listbuilder made an edit that reads back wrong; {self.path} is unchanged")
        report = build_report(army, system, self.catalogs)
        if self.outcome is not None and (report.total, report.legal()) != self.outcome:
            raise RuntimeError("applying a suggestion gave another list than the one suggested")
        return EditResult(
            path=self.path,
            text=self.bom + self.body,
            report=report,
            changed=self.body != self.doc.text,
            entry=self.entry if self.entry is not None and self.entry < len(army.entries) else None,
        )
