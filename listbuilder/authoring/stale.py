"""Stale sentences: a variant's inherited text that still states a number the variant changed.

A variant gives only what differs from its base, so it keeps the base's sentences, rulings and
tables. Where the base writes a number as a placeholder (``At most {count} wolves``, see
``rules/wording.py``) the sentence follows the variant; where it writes the figure itself, the
variant's card would say one number and play by another. This finds each such sentence:

- the numbers a variant changed: a force rule's fields, a cost term, the standard game's size,
  and what each catalog unit costs by the formula;
- the texts it inherited (written in a base's file, not in its own), with placeholders and
  quotations of the source text ("One in ten of your models...") left out;
- a text that states an old number (``10``, ``1,000``, ``ten``) and belongs to it: the changed rule's
  own sentence, a ruling or reference rule of the same id (or naming it in its ``source``), a text
  citing the same line of the source text as the number (or the same source, word for word), or,
  for a unit's cost, naming the unit.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from listbuilder.errors import Location
from listbuilder.files.yamldoc import Document, load_yaml
from listbuilder.record import Record, record
from listbuilder.rules.catalog import SYSTEM_FILE
from listbuilder.rules.reference import REFERENCE_FILE
from listbuilder.rules.system import System
from listbuilder.rules.variant import ITEM_KEYS, LayeredDocument, layered
from listbuilder.rules.wording import NUMBER_WORDS, cost_fields, literal, rule_fields, term_points

# Keys whose string values are sentences or table cells; 'rows' and 'columns' hold cells.
TEXT_KEYS = ("summary", "rule", "title", "text", "note", "label")
CELL_KEYS = ("rows", "columns")
TENS = {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety"}
COST_OF = "the cost of "
_LINES = re.compile(r"\blines?\s+((?:\d+(?:\s*[-–]\s*\d+)?(?:\s*(?:,|and|&)\s*)?)+)", re.IGNORECASE)


@record
class Change(Record):
    """A number the variant changed: what it is, old and new, and where the base's text gives it."""

    what: str  # 'leader-ratio.per', 'cost.power.points', 'the cost of Wolf Rider'
    old: int
    new: int
    source: str  # the base's source for it: 'line 35'
    ids: tuple[str, ...]  # the rule ids (or unit names) a text may name it by
    placeholder: str  # how a sentence writes it instead: '{leader-ratio.per}'
    own: str = ""  # the force rule whose own sentences state it (their '{per}')


@record
class StaleText(Record):
    """An inherited text that still states a number the variant changed."""

    file: str  # the variant's file to give it in: 'system.yaml' or 'reference.yaml'
    where: str  # 'rulings[leader-ratio].text'
    text: str
    changes: tuple[Change, ...]
    kept_at: str  # the base file and line it comes from
    own: bool = False  # a force rule's own sentence, which may write its fields as '{per}'

    def message(self) -> str:
        shown = self.text if len(self.text) <= 90 else self.text[:87] + "..."
        stated = " and ".join(f"{c.old:,} ({c.what}, now {c.new:,})" for c in self.changes)
        instead = ", ".join(f"{self._placeholder(c)} for {c.old:,}" for c in self.changes)
        return (
            f"still states {stated}: '{shown}' (kept from {self.kept_at}); "
            f"give it in this variant's {self.file}, writing {instead}"
        )

    def _placeholder(self, c: Change) -> str:
        return "{" + c.what.split(".", 1)[1] + "}" if self.own and c.own else c.placeholder


def source_lines(source: str) -> set[int]:
    """The lines of the source text a ``source`` cites: 'lines 37, 39 and 41-45' -> {37, 39, 41..45}."""
    found: set[int] = set()
    for m in _LINES.finditer(source):
        for part in re.split(r"\s*(?:,|and|&)\s*", m.group(1)):
            ends = [int(n) for n in re.findall(r"\d+", part)]
            if len(ends) == 2 and ends[0] <= ends[1] <= ends[0] + 200:
                found.update(range(ends[0], ends[1] + 1))
            elif ends:
                found.add(ends[0])
    return found


def states(text: str, number: int) -> bool:
    """Whether ``text`` states ``number`` in figures (``10``, ``1,000``) or in words (``ten``)."""
    digits = str(abs(number))
    grouped = f"{abs(number):,}"
    forms = {re.escape(digits), re.escape(grouped)}
    sign = "-" if number < 0 else ""
    figure = rf"(?<![\d.,]){sign}(?:{'|'.join(forms)})(?![\d]|[.,]\d)"
    if re.search(figure, text):
        return True
    word = NUMBER_WORDS[number] if 0 <= number < len(NUMBER_WORDS) else TENS.get(number)
    return word is not None and re.search(rf"\b{word}\b", text, re.IGNORECASE) is not None


def unquoted(text: str) -> str:
    """``text`` without what it quotes: a quotation of the source text states the source's numbers."""
    return re.sub(r'"[^"]*"|“[^”]*”', " ", text)


def changes(base: System, variant: System) -> list[Change]:
    """Every number of ``base`` that ``variant`` gives differently."""
    b, v = base.definition, variant.definition
    out: list[Change] = []
    theirs = {c.id: c for c in v.constraints}
    for old in b.constraints:
        new = theirs.get(old.id)
        if new is None or type(new) is not type(old):
            continue
        for field in dataclasses.fields(old):
            was, now = getattr(old, field.name), getattr(new, field.name)
            if _number(was) and _number(now) and was != now and field.name in rule_fields(old):
                what = f"{old.id}.{field.name}"
                out.append(
                    Change(
                        what=what,
                        old=was,
                        new=now,
                        source=old.source,
                        ids=(old.id,),
                        placeholder="{" + what + "}",
                        own=old.id,
                    )
                )
    # a cost kind's numbers, by the same names its placeholders have ('cost.power.points')
    was_costs, now_costs = cost_fields(b.cost), cost_fields(v.cost)
    for name, was_text in was_costs.items():
        now_text = now_costs.get(name)
        if now_text is None or now_text == was_text or not (_whole(was_text) and _whole(now_text)):
            continue
        what = f"cost.{name}"
        source = str(getattr(b.cost, "source", ""))
        out.append(
            Change(
                what=what,
                old=int(was_text),
                new=int(now_text),
                source=source,
                ids=("cost",),
                placeholder="{" + what + "}",
            )
        )
    if b.default_limit is not None and v.default_limit is not None and b.default_limit != v.default_limit:
        out.append(
            Change(
                what="default_limit",
                old=b.default_limit,
                new=v.default_limit,
                source=b.default_limit_source,
                ids=("default_limit",),
                placeholder="{default_limit}",
            )
        )
    for key, unit in variant.units.items():
        was_unit = base.units.get(key)
        if was_unit is None:
            continue
        try:
            was, now = sum(term_points(b, was_unit)), sum(term_points(v, unit))
        except (KeyError, TypeError, ValueError):
            continue
        if was != now:
            out.append(
                Change(
                    what=f"{COST_OF}{unit.name}",
                    old=was,
                    new=now,
                    source=unit.source,
                    ids=(unit.name,),
                    placeholder="{cost of " + unit.name + "}",
                )
            )
    return out


def _whole(text: str) -> bool:
    return text.lstrip("-").isdigit()


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@record
class _Text(Record):
    path: Location
    text: str
    item_id: str  # the id of the item that holds it ('' for none)
    source: str  # the nearest 'source' around it
    in_rule: bool  # a force rule's own sentence (under 'constraints')


def texts(
    data: Any, path: Location = (), item_id: str = "", source: str = "", in_rule: bool = False
) -> Iterator[_Text]:
    """Every sentence and table row in a catalog file's data, with what it belongs to."""
    if isinstance(data, dict):
        item_id = str(next((data[k] for k in ITEM_KEYS[:1] if isinstance(data.get(k), str)), item_id))
        source = data["source"] if isinstance(data.get("source"), str) else source
        for key, value in data.items():
            where = (*path, key)
            if key in TEXT_KEYS and isinstance(value, str):
                yield _Text(path=where, text=value, item_id=item_id, source=source, in_rule=in_rule)
            elif key in CELL_KEYS and isinstance(value, list) and all(isinstance(v, str | int) for v in value):
                yield _Text(path=where, text=" | ".join(map(str, value)), item_id=item_id, source=source, in_rule=False)
            elif key == "rows" and isinstance(value, list):
                for r, row in enumerate(value):
                    if isinstance(row, list):
                        cells = " | ".join(map(str, row))
                        yield _Text(path=(*where, r), text=cells, item_id=item_id, source=source, in_rule=False)
            else:
                yield from texts(value, where, item_id, source, in_rule or (not path and key == "constraints"))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from texts(item, (*path, i), item_id, source, in_rule)


def written(doc: Document, path: Location) -> bool:
    """Whether the variant's own file wrote the value at ``path`` (else it is the base's)."""
    origin = getattr(doc, "origin", None) if isinstance(doc, LayeredDocument) else None
    if origin is None:
        return False
    for cut in range(len(path), -1, -1):
        found = origin.get(path[:cut])
        if found is not None:
            return found[1] or cut == len(path)
    return False


def _belongs(t: _Text, c: Change) -> bool:
    if c.own and t.in_rule and t.item_id == c.own:
        return True
    if t.item_id and t.item_id in c.ids:
        return True
    if any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", t.source) for i in c.ids if i not in ("cost",)):
        return True
    if c.what.startswith(COST_OF) and c.ids[0].lower() in t.text.lower():
        return True
    if t.source.strip() and t.source.strip() == c.source.strip():
        return True  # the same citation, line or not ('house rule 4')
    return bool(source_lines(t.source) & source_lines(c.source))


def stale_texts(base: System, variant: System) -> list[StaleText]:
    """Each inherited text of ``variant`` that still states a number it changed, in file order."""
    found = changes(base, variant)
    if not found:
        return []
    out: list[StaleText] = []
    for name in (SYSTEM_FILE, REFERENCE_FILE):
        paths = [folder / name for folder in variant.layers if (folder / name).is_file()]
        if not paths:
            continue
        doc = (
            layered(paths, "catalog file", base.id)
            if name == SYSTEM_FILE or len(paths) > 1
            else load_yaml(paths[0], "catalog file")
        )
        own = variant.folder / name in paths
        for t in texts(doc.data):
            if own and written(doc, t.path):
                continue
            stated = unquoted(literal(t.text))
            hits = [c for c in found if states(stated, c.old) and _belongs(t, c)]
            # A row or sentence that names a unit is about that unit's cost, not another's of the same.
            named = {c.old for c in hits if c.what.startswith(COST_OF) and c.ids[0].lower() in t.text.lower()}
            hits = [c for c in hits if c.old not in named or c.ids[0].lower() in t.text.lower()]
            if hits:
                out.append(
                    StaleText(
                        file=name,
                        where=_named(doc.data, t.path),
                        text=" ".join(t.text.split()),
                        changes=tuple(dict.fromkeys(hits)),
                        kept_at=_kept_at(paths, doc.data, t.path),
                        own=t.in_rule,
                    )
                )
    return out


def _named(data: Any, path: Location) -> str:
    """``rulings[leader-ratio].text``: a path naming list items by their id."""
    out, node = "", data
    for part in path:
        if isinstance(node, list) and isinstance(part, int):
            item = node[part]
            key = next((k for k in ITEM_KEYS if isinstance(item, dict) and isinstance(item.get(k), str)), None)
            out += f"[{item[key]}]" if key else f"[{part}]"
            node = item
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out


def _kept_at(paths: Sequence[Path], merged: Any, path: Location) -> str:
    """The nearest base file that writes ``text`` at ``path``, and its line."""
    for file in reversed(paths[:-1] if len(paths) > 1 else paths):
        doc = load_yaml(file, "catalog file")
        at = _same_place(merged, doc.data, path)
        if at is not None:
            line = doc.locate(at)[0]
            return f"{file} line {line}"
    return str(paths[0])


def _same_place(merged: Any, data: Any, path: Location) -> Location | None:
    """``path`` in ``merged`` as a path into ``data``, following list items by their id."""
    out: list[str | int] = []
    node_m, node = merged, data
    for part in path:
        if isinstance(node_m, list) and isinstance(part, int) and isinstance(node, list):
            item = node_m[part]
            key = next((k for k in ITEM_KEYS if isinstance(item, dict) and k in item), None)
            index = next(
                (i for i, x in enumerate(node) if key and isinstance(x, dict) and x.get(key) == item[key]), None
            )
            if index is None:
                index = part if part < len(node) and key is None else None
            if index is None:
                return None
            out.append(index)
            node_m, node = item, node[index]
        elif isinstance(node_m, dict) and isinstance(node, dict) and part in node:
            out.append(part)
            node_m, node = node_m[part], node[part]
        else:
            return None
    return tuple(out)
