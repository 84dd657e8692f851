"""Check a mechanic against its rule set: what every kind's ``check`` uses to name a problem.

The schema (pydantic, from the records' annotations) checks shapes and spelling; a
``Checker`` checks what it cannot: that every stat, property and option a mechanic names exists
and has the right kind, that a table's bands cover every ratio once. It collects every problem,
located in the odds file. Checking needs no dice library.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from listbuilder.errors import ErrorDetail, Location
from listbuilder.files.yamldoc import Document
from listbuilder.odds.parts import Band, FromUnit, Option, Roll, option_values, ratio
from listbuilder.rules.system import System
from listbuilder.words import did_you_mean, one_of

RESERVED = ("mechanic", "attack_kind")  # keywords matchup() takes itself


class Checker:
    """Collects the located problems of one odds file against its rule set."""

    def __init__(self, system: System, d: Document) -> None:
        self.system = system
        self.stats = system.definition.stats
        self.d = d
        self.errors: list[ErrorDetail] = []
        self.options: Mapping[str, Any] = {}

    def error(self, path: Location, message: str, hint: str | None = None) -> None:
        self.errors.append(self.d.detail(path, message, hint))

    def stat(self, path: Location, key: str | None, kinds: tuple[str, ...]) -> bool:
        if key is None:
            return False
        stat = self.stats.get(key)
        if stat is None:
            hint = did_you_mean(key, self.stats) or f"its stats: {', '.join(self.stats)}"
            self.error(path, f"{self.system.id} has no stat '{key}'", hint)
            return False
        if stat.kind not in kinds:
            self.error(path, f"'{key}' is a {stat.kind} stat; expected a {' or '.join(kinds)} stat")
            return False
        return True

    def prop(self, path: Location, stat: str, name: str | None) -> None:
        if name is None or stat not in self.stats:
            return
        known = {k for ch in self.stats[stat].choices for k in ch.properties}
        if name not in known:
            hint = did_you_mean(name, known) or (f"its properties: {', '.join(sorted(known))}" if known else None)
            self.error(path, f"no choice of '{stat}' has the property '{name}'", hint)

    def from_unit(self, path: Location, source: FromUnit) -> None:
        if not self.stat((*path, "stat"), source.stat, ("number", "choice", "choices")):
            return
        if self.stats[source.stat].kind == "number":
            if source.property is not None:
                self.error((*path, "property"), f"'{source.stat}' is a number stat: it has no properties")
        elif source.property is None:
            self.error(path, f"'{source.stat}' is a choice stat: say which property to read", "add 'property'")
        else:
            self.prop((*path, "property"), source.stat, source.property)
        self.where((*path, "where"), source.stat, source.where)

    def where(self, path: Location, stat: str | None, where: Mapping[str, Any]) -> None:
        for key in where:
            if key != "name" and stat is not None:
                self.prop((*path, key), stat, key)

    def option(self, path: Location, name: str | None, kinds: tuple[str, ...]) -> None:
        if name is None:
            return
        option = self.options.get(name)
        if option is None:
            hint = did_you_mean(name, self.options) or f"declare it under 'options' ({', '.join(self.options)})"
            self.error(path, f"no option '{name}'", hint)
        elif option.kind not in kinds:
            self.error(path, f"the option '{name}' is a {option.kind}; expected a {' or '.join(kinds)}")

    def conditions(self, path: Location, item: Any) -> None:
        for field in ("when", "unless"):
            for key, wanted in getattr(item, field, {}).items():
                where = (*path, field, key)
                option = self.options.get(key)
                if option is None:
                    self.error(where, f"no option '{key}'", did_you_mean(key, self.options))
                    continue
                for value in wanted if isinstance(wanted, list | tuple) else [wanted]:
                    self.value(where, key, option, value)

    def value(self, path: Location, key: str, option: Any, value: Any) -> None:
        if option.kind == "flag" and not isinstance(value, bool):
            self.error(path, f"'{key}' is a flag: expected true or false")
        elif option.kind == "number" and (isinstance(value, bool) or not isinstance(value, int)) and value is not None:
            self.error(path, f"'{key}' is a number option: expected a whole number")
        elif option.kind == "choice" and value not in option_values(self.system, option):
            allowed = option_values(self.system, option)
            hint = did_you_mean(str(value), allowed) or f"expected {one_of(allowed)}"
            self.error(path, f"'{value}' is not a value of '{key}'", hint)

    def declared_options(self, path: Location, options: Mapping[str, Option]) -> None:
        self.options = options
        for name, option in options.items():
            where = (*path, "options", name)
            if not name.isidentifier() or name in RESERVED:
                self.error(
                    where,
                    f"'{name}' cannot be an option name",
                    "use letters, digits and '_'; not 'mechanic' or 'attack_kind'",
                )
            if option.kind == "choice":
                if not option.values and not option.values_from:
                    self.error(where, "a choice option needs 'values'")
                if option.values_from:
                    self.stat((*where, "values_from"), option.values_from, ("choice", "choices"))
            if option.default is not None or option.kind != "number":
                self.value((*where, "default"), name, option, option.default)

    def roll(self, path: Location, roll: Roll) -> None:
        if roll.dice < 1 or roll.sides < 2:
            self.error(path, "a roll needs at least 1 die of at least 2 sides")
        if roll.keep_highest is not None and not 1 <= roll.keep_highest <= roll.dice:
            self.error((*path, "keep_highest"), f"keep 1 to {roll.dice} dice")

    def bands(self, path: Location, bands: Iterable[Band]) -> None:
        """The bands must cover every ratio above 0 once, from the lowest up."""
        previous: tuple[Fraction, bool] | None = None  # the last band's upper bound and if it is included
        bands = list(bands)
        if not bands:
            self.error(path, "a table needs at least one band")
        for j, band in enumerate(bands):
            where = (*path, j)
            for field in ("above", "at_least", "below", "at_most"):
                raw = getattr(band, field)
                if raw is not None and ((r := ratio(raw)) is None or r < 0):
                    self.error((*where, field), f"expected a ratio such as 2 or '1/4', found '{raw}'")
                    return
            if band.above is not None and band.at_least is not None:
                self.error(where, "give 'above' or 'at_least', not both")
            if band.below is not None and band.at_most is not None:
                self.error(where, "give 'below' or 'at_most', not both")
            low = ratio(band.above if band.above is not None else band.at_least)
            low_in = band.at_least is not None
            high = ratio(band.below if band.below is not None else band.at_most)
            high_in = band.at_most is not None
            if j == 0 and low is not None:
                self.error(where, "the first band starts at the lowest ratio: leave out 'above'/'at_least'")
            if previous is not None and (low is None or low != previous[0] or low_in == previous[1]):
                self.error(where, f"this band does not start where band {j - 1} ends", _gap_hint(previous))
            if j < len(bands) - 1 and high is None:
                self.error(where, "only the last band runs to any higher ratio: give 'below' or 'at_most'")
            if j == len(bands) - 1 and high is not None:
                self.error(where, "the last band runs to any higher ratio: leave out 'below'/'at_most'")
            if low is not None and high is not None and (high < low or (high == low and not (low_in and high_in))):
                self.error(where, "this band covers no ratio")
            previous = (high, high_in) if high is not None else None

    def requirement(self, path: Location, r: Any) -> None:
        if (r.property is None) == (not r.any_of):
            self.error(path, "a requirement tests a 'property' or 'any_of' choice names, not both")
        names = [ch.name for ch in self.stats[r.stat].choices] if r.stat in self.stats else []
        for k, name in enumerate(r.any_of):
            if names and name not in names:
                self.error((*path, "any_of", k), f"'{name}' is not a value of '{r.stat}'", did_you_mean(name, names))

    def modifier(self, path: Location, m: Any) -> None:
        if (m.add is None) == (m.stat is None):
            self.error(path, "a modifier has a fixed 'add', or a 'stat' and 'property' to read")
        elif m.stat is not None and self.stat((*path, "stat"), m.stat, ("choice", "choices")):
            if m.property is None:
                self.error(path, "say which property holds the amount", "add 'property'")
            self.prop((*path, "property"), m.stat, m.property)
            self.where((*path, "where"), m.stat, m.where)

    def damage_roll(self, path: Location, roll: Any) -> None:
        if roll is None:
            return
        if self.stat((*path, "stat"), roll.stat, ("choice",)):
            self.prop((*path, "property"), roll.stat, roll.property)
        if not 1 <= roll.removed_on <= roll.sides:
            self.error((*path, "removed_on"), f"expected a roll from 1 to {roll.sides}")


def _gap_hint(previous: tuple[Fraction, bool]) -> str:
    bound, included = previous
    return f"start it with {'above' if included else 'at_least'}: {bound}"
