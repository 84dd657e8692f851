"""The one statline grammar: how a unit's stats are written and read everywhere.

The same words serve ``cost``, ``odds``, text export and import, and every terminal view, so a
player learns one form: ``Monster, Might 20`` or ``Speed 6", Range 24", Power 2, Traits
attacker + big-guns``.

- A number stat is its label and value, with the stat's suffix: ``Might 20``, ``Speed 6"``.
- A choice is its value alone (``Monster``) when no other stat has that value and it does not
  start with a stat's label; otherwise the label and the value (``Type Infantry``).
- A list of choices is its label and the values joined by ``+``: ``Traits attacker + defender``;
  an empty one is ``Weapons none`` (``Weapons []`` if the stat has a choice called ``none``).
  Items carried by only some figures lead with their count: ``Weapons 4x Rifle + 1x Medium Repeater``.
- Stats are joined by ``,``; optional stats at their default are left out.

The reader matches the rule set's labels, stat keys and choice names (any case, longest first)
rather than splitting on punctuation, so a choice such as ``Medium Repeater`` or a label with a
space reads back exactly. Between a label and its value a space, ``:`` or ``=`` may stand, so
``might=6``, ``Might: 6`` and ``Might 6`` are one stat (older shared texts and the odds
command's ``class=Beast,might=6`` read as they always did).
"""

from __future__ import annotations

import re
from typing import Any

from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Stat, Unit
from listbuilder.rules.profiles import empty_text
from listbuilder.rules.profiles import value_text as value_text  # (re-exported: the grammar of one value)

_NUMBER = re.compile(r"-?\d{1,4000}")  # Python refuses to convert longer numbers
_COUNT = re.compile(r"(\d{1,9})\s*[x×]\s+", re.IGNORECASE)  # '4x ' before an item carried by 4 figures


def _default(stat: Stat) -> Any:
    return stat.default_value()


def _bare_ok(system: System, key: str, value: str) -> bool:
    """Whether a choice can be written without its stat's label and still be read back."""
    lowered = value.lower()
    for other_key, stat in system.definition.stats.items():
        if lowered.startswith(stat.label.lower() + " "):
            return False
        if other_key != key and stat.choice(value) is not None:
            return False
    return True


def stats_text(system: System, unit: Unit) -> str:
    """A unit's stats in the compact one-line form: ``Monster, Might 20``."""
    parts = []
    for key, stat in system.definition.stats.items():
        value = unit.stats.get(key)
        if not stat.required and value == _default(stat):
            continue
        if stat.kind == "choice" and _bare_ok(system, key, str(value)):
            parts.append(str(value))
        else:
            parts.append(f"{stat.label} {value_text(stat, value)}")
    return ", ".join(parts)


def stats_help(system: System) -> str:
    """Each stat with what it takes, for a message: ``Class (Soldier, Warrior...), Might (a whole number)``."""
    parts = []
    for stat in system.definition.stats.values():
        names = [c.name for c in stat.choices]
        shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
        if stat.kind == "number":
            what = "a whole number"
        elif stat.kind == "choice":
            what = f"one of {shown}"
        else:
            what = f"any of {shown}, joined by +"
        parts.append(f"{stat.label} ({what}{'' if stat.required else ', optional'})")
    return "; ".join(parts)


def stats_example(system: System) -> str:
    """A statline showing the form, for hints, written as every statline is: ``Soldier, Might 1``."""
    stats: dict[str, Any] = {}
    for key, stat in system.definition.stats.items():
        if stat.kind == "number":
            stats[key] = 1
        elif stat.kind == "choice":
            stats[key] = stat.choices[0].name if stat.choices else None
        else:
            stats[key] = tuple(c.name for c in stat.choices[:2])
    return stats_text(system, Unit(name="example", stats=stats))


def parse_stats(system: System, text: str) -> dict[str, Any] | str:
    """Read a statline into stat values by key (choices spelled as the catalog does), or say why not."""
    return _Parser(system, text).parse()


def parse_value(system: System, key: str, text: str) -> tuple[Any, str | None]:
    """Read one stat's value as the grammar writes it (``6``, ``Beast``, ``attacker + big-guns``).

    Returns ``(value, None)``, or ``(None, why not)``."""
    stat = system.definition.stats[key]
    parser = _Parser(system, text.strip())
    value = parser.value(stat)
    if value is None or parser.pos != len(parser.text):
        return None, f"cannot read {stat.label} from '{text[:40]}'"
    return value, None


class _Parser:
    def __init__(self, system: System, text: str) -> None:
        self.stats = system.definition.stats
        self.figures_key = system.definition.figures_stat
        self.text = text
        self.pos = 0

    def parse(self) -> dict[str, Any] | str:
        found: dict[str, Any] = {}
        self.skip()
        while self.pos < len(self.text):
            start = self.pos
            got = self.labelled()
            if got is None:
                self.pos = start
                got = self.bare()
            if got is None:
                return f"cannot read the stats from '{self.text[start : start + 40]}'"
            key, value = got
            if key in found:
                return f"{self.stats[key].label} is given twice"
            found[key] = value
            self.skip()
            if self.pos < len(self.text):
                if self.text[self.pos] != ",":
                    return f"expected ',' before '{self.text[self.pos : self.pos + 40]}'"
                self.pos += 1
                self.skip()
                if self.pos >= len(self.text):
                    return "a stat is missing after the last ','"
        return found

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1

    def ends_value(self, end: int, more: str = ",") -> bool:
        while end < len(self.text) and self.text[end] == " ":
            end += 1
        return end == len(self.text) or self.text[end] in more

    def choice(self, stat: Stat, more: str = ",") -> str | None:
        """The longest choice of ``stat`` at the current position that ends where a value may end."""
        best = None
        for c in stat.choices:
            end = self.pos + len(c.name)
            matches = self.text[self.pos : end].lower() == c.name.lower() and self.ends_value(end, more)
            if matches and (best is None or len(c.name) > len(best)):
                best = c.name
        if best is not None:
            self.pos += len(best)
        return best

    def labelled(self) -> tuple[str, Any] | None:
        names = [(name, key) for key, stat in self.stats.items() for name in {stat.label, key}]
        for name, key in sorted(names, key=lambda item: len(item[0]), reverse=True):
            end = self.pos + len(name)
            if self.text[self.pos : end].lower() != name.lower():
                continue
            after = end
            while after < len(self.text) and self.text[after] == " ":
                after += 1
            if after < len(self.text) and self.text[after] in ":=":
                after += 1
                while after < len(self.text) and self.text[after] == " ":
                    after += 1
            if after == end:
                continue
            start = self.pos
            self.pos = after
            value = self.value(self.stats[key])
            if value is not None:
                return key, value
            self.pos = start
        return None

    def value(self, stat: Stat) -> Any:
        if stat.kind == "number":
            match = _NUMBER.match(self.text, self.pos)
            if not match:
                return None
            end = match.end()
            if stat.suffix and self.text.startswith(stat.suffix, end):
                end += len(stat.suffix)
            if not self.ends_value(end):
                return None
            self.pos = end
            return int(match.group())
        if stat.kind == "choice":
            return self.choice(stat)
        empty = empty_text(stat)
        if self.text[self.pos : self.pos + len(empty)].lower() == empty and self.ends_value(self.pos + len(empty)):
            self.pos += len(empty)
            return []
        chosen: list[Any] = []
        while True:
            start = self.pos
            count = _COUNT.match(self.text, self.pos) if stat.item else None
            if count:
                self.pos = count.end()
            name = self.choice(stat, more=",+")
            if name is None and count:  # a choice whose own name starts '4x '
                self.pos, count = start, None
                name = self.choice(stat, more=",+")
            if name is None:
                return None
            # a count reads as the list file's own item, {weapon: Rifle, figures: 4}, for read_unit to check
            chosen.append({stat.item: name, self.figures_key: int(count.group(1))} if count else name)
            self.skip()
            if not self.text.startswith("+", self.pos):
                return chosen
            self.pos += 1
            self.skip()

    def bare(self) -> tuple[str, Any] | None:
        """A choice written without its label: the one choice stat that has this value."""
        matches = []
        for key, stat in self.stats.items():
            if stat.kind == "choice":
                start = self.pos
                name = self.choice(stat)
                self.pos = start
                if name is not None:
                    matches.append((key, name))
        if len(matches) != 1:
            return None
        key, name = matches[0]
        self.pos += len(name)
        return key, name
