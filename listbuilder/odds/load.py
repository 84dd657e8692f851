"""Load ``catalogs/<id>/odds.yaml`` and check it against its rule set, with located errors.

The schema (spec.py) checks shapes and spelling; this module checks what a schema cannot:
that every stat, property and option named exists and has the right kind, that a table's
columns cover every ratio exactly once, that each column has a number for each result.
Loading needs no dice library, so checking an odds file stays cheap.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from listbuilder.errors import CatalogError, ErrorDetail, Location, did_you_mean, one_of
from listbuilder.odds.situation import option_values
from listbuilder.odds.spec import (
    MECHANIC_KINDS,
    Band,
    BandedSave,
    FromUnit,
    HitsPerCasualty,
    Mechanic,
    OddsFile,
    OpposedPools,
    PairedRolls,
    RatioTable,
    Roll,
    UnitMelee,
)
from listbuilder.rules import cache
from listbuilder.rules.catalog import System
from listbuilder.rules.schema import validate
from listbuilder.yamlfile import Document, load_yaml

ODDS_FILE = "odds.yaml"
RESERVED = ("mechanic",)  # keywords matchup() takes itself
COMPARISON = re.compile(r"^\s*(\w+)\s*(>=|<=|>|<|=)\s*(\w+)\s*$")
QUANTITIES = ("attacker", "target", "attacker_high", "attacker_low", "target_high", "target_low")

_KIND_CLASSES = {typing.get_args(typing.get_type_hints(k)["kind"])[0]: k for k in MECHANIC_KINDS}
KIND_NAMES = frozenset(_KIND_CLASSES)
_CACHE: cache.Bounded[tuple[Path, int, str], OddsFile] = cache.Bounded()


def odds_path(system: System) -> Path:
    return system.folder / ODDS_FILE


def load_odds(system: System) -> OddsFile:
    """Load and check a rule set's ``odds.yaml``: a part of the rule set's cache entry
    (``rules.cache``), or, without one, kept in memory while the file is unchanged.

    Raises ``CatalogError`` with every problem located, or when the rule set has no odds file."""
    path = odds_path(system)
    if not path.is_file():
        raise CatalogError(
            f"the rule set '{system.id}' has no {ODDS_FILE}",
            file=path,
            details=[ErrorDetail(message="odds need the rule set's dice mechanics, declared in that file")],
        )
    key = cache.key_of(system)
    found = cache.lookup(key, "odds", OddsFile)
    if found is not None:
        return found
    if key is not None:
        odds = _load(system, path)
        cache.remember(key, "odds", odds)
        return odds
    memo = (path, path.stat().st_mtime_ns, system.id)
    return _CACHE.get(memo) or _CACHE.put(memo, _load(system, path))


def _load(system: System, path: Path) -> OddsFile:
    d = load_yaml(path, "odds file")
    if not isinstance(d.data, dict):
        raise CatalogError("an odds file must be a mapping with 'matchup' and 'mechanics'", file=path)
    odds, errors = validate(OddsFile, d.data, d)
    if odds is None:
        raise d.error("this odds file has errors", [_untagged(e, d) for e in errors], CatalogError)
    errors = check_odds(odds, system, d)
    if errors:
        raise d.error("this odds file has errors", errors, CatalogError)
    return odds


def _untagged(error: ErrorDetail, d: Document) -> ErrorDetail:
    """Drop the mechanic kind the schema adds to a path inside 'mechanics' (it is not a key), and
    locate the error again from the path the author wrote."""
    path = error.path
    if len(path) > 2 and path[0] == "mechanics" and path[2] in KIND_NAMES:
        path = (*path[:2], *path[3:])
        unknown = error.message.startswith("unknown key")
        hint = error.hint
        if unknown and hint is None:
            allowed = _keys_at(_KIND_CLASSES[error.path[2]], path[2:-1])
            hint = did_you_mean(str(path[-1]), allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else None)
        return d.detail(path, error.message, hint, key=unknown)
    return error


def _keys_at(cls: Any, parts: Location) -> list[str]:
    """The keys of the record found by following ``parts`` from ``cls`` (records, lists, mappings)."""
    tp = cls
    for part in parts:
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if dataclasses.is_dataclass(tp) and isinstance(part, str):
            tp = typing.get_type_hints(tp).get(part)
        elif typing.get_origin(tp) is tuple and isinstance(part, int):
            tp = args[0]
        elif typing.get_origin(tp) in (dict, Mapping) and isinstance(part, str):
            tp = args[1]
        else:
            return []
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if typing.get_origin(tp) in (typing.Union, types.UnionType) and len(args) == 1:
            tp = args[0]
    return [f.name for f in dataclasses.fields(tp)] if dataclasses.is_dataclass(tp) else []


def ratio(value: int | str | None) -> Fraction | None:
    """A ratio as written (2, '1/4', '0.5'), or ``None`` when it cannot be read."""
    if value is None:
        return None
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        return None


def check_odds(odds: OddsFile, system: System, d: Document) -> list[ErrorDetail]:
    """Every cross-check of an odds file against its rule set."""
    c = _Checker(system, d)
    ids = [m.id for m in odds.mechanics]
    for i, m in enumerate(odds.mechanics):
        if m.id in ids[:i]:
            c.error(("mechanics", i, "id"), f"the id '{m.id}' is used twice")
        c.mechanic(("mechanics", i), m)
    if odds.matchup not in ids:
        c.error(("matchup",), f"no mechanic '{odds.matchup}'", did_you_mean(odds.matchup, ids))
    for i, name in enumerate(odds.card):
        if name not in ids:
            c.error(("card", i), f"no mechanic '{name}'", did_you_mean(name, ids))
    return c.errors


class _Checker:
    def __init__(self, system: System, d: Document) -> None:
        self.system = system
        self.stats = system.definition.stats
        self.d = d
        self.errors: list[ErrorDetail] = []
        self.options: Mapping[str, Any] = {}

    def error(self, path: Location, message: str, hint: str | None = None) -> None:
        self.errors.append(self.d.detail(path, message, hint))

    # --- what a mechanic names -----------------------------------------------------------

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

    def declared_options(self, path: Location, m: Mechanic) -> None:
        self.options = m.options
        for name, option in m.options.items():
            where = (*path, "options", name)
            if not name.isidentifier() or name in RESERVED:
                self.error(where, f"'{name}' cannot be an option name", "use letters, digits and '_'; not 'mechanic'")
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
                if raw is not None and (ratio(raw) is None or ratio(raw) < 0):
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

    # --- the mechanics -----------------------------------------------------------------

    def mechanic(self, path: Location, m: Mechanic) -> None:
        self.declared_options(path, m)
        for field in ("requires", "special_rolls", "die_modifiers", "modifiers", "dice_changes", "success_overrides"):
            for j, item in enumerate(getattr(m, field, ())):
                where = (*path, field, j)
                self.conditions(where, item)
                if field in ("requires", "special_rolls"):
                    if self.stat((*where, "stat"), item.stat, ("choice", "choices")):
                        self.prop((*where, "property"), item.stat, item.property)
                    if field == "requires":
                        self.requirement(where, item)
                if field in ("die_modifiers", "modifiers"):
                    self.modifier(where, item)
                if field == "dice_changes":
                    self.option((*where, "option"), item.option, ("number",))
        checker = {
            RatioTable: self.ratio_table,
            BandedSave: self.banded_save,
            OpposedPools: self.opposed_pools,
            HitsPerCasualty: self.hits_per_casualty,
            UnitMelee: self.unit_melee,
            PairedRolls: self.paired_rolls,
        }[type(m)]
        checker(path, m)  # type: ignore[operator]

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

    def ratio_table(self, path: Location, m: RatioTable) -> None:
        self.stat((*path, "stat"), m.stat, ("number",))
        self.roll((*path, "roll"), m.roll)
        for j, special in enumerate(m.special_rolls):
            self.roll((*path, "special_rolls", j, "roll"), special.roll)
        self.bands((*path, "bands"), m.bands)
        highest = max(r.sides * (r.keep_highest or r.dice) for r in (m.roll, *(s.roll for s in m.special_rolls)))
        for j, band in enumerate(m.bands):
            where = (*path, "bands", j, "needs")
            if len(band.needs) != len(m.results):
                self.error(where, f"{len(band.needs)} numbers, but there are {len(m.results)} results")
            if list(band.needs) != sorted(band.needs, reverse=True):
                self.error(where, "give the numbers best result first, so each is at most the one before")
            if any(n < 1 or n > highest for n in band.needs):
                self.error(where, f"each number must be a total the roll can make (1 to {highest})")
        for j, mult in enumerate(m.multipliers):
            self.option((*path, "multipliers", j, "option"), mult.option, ("flag",))
            if ratio(mult.factor) is None or ratio(mult.factor) <= 0:
                self.error(
                    (*path, "multipliers", j, "factor"), f"expected a factor such as 2 or '1/2', found '{mult.factor}'"
                )
        if m.odd_fails:
            self.option((*path, "odd_fails", "option"), m.odd_fails.option, ("choice",))
            option = self.options.get(m.odd_fails.option)
            for k, value in enumerate(m.odd_fails.values):
                if option is not None and option.kind == "choice":
                    self.value((*path, "odd_fails", "values", k), m.odd_fails.option, option, value)
        names = [r.name for r in (*m.results, m.otherwise)]
        for j, up in enumerate(m.upgrades):
            self.option((*path, "upgrades", j, "option"), up.option, ("flag",))
            for field in ("result", "becomes"):
                if getattr(up, field) not in names:
                    self.error(
                        (*path, "upgrades", j, field),
                        f"no result '{getattr(up, field)}'",
                        f"results: {', '.join(names)}",
                    )

    def banded_save(self, path: Location, m: BandedSave) -> None:
        self.stat((*path, "stat"), m.stat, ("number",))
        self.option((*path, "against"), m.against, ("number",))
        self.bands((*path, "bands"), m.bands)
        for j, band in enumerate(m.bands):
            if band.save_on is None or not 1 <= band.save_on <= m.sides:
                self.error((*path, "bands", j, "save_on"), f"each band needs 'save_on' from 1 to {m.sides}")
        for j, result in enumerate(m.passes):
            if any(not 1 <= f <= m.sides for f in result.faces):
                self.error((*path, "passes", j, "faces"), f"faces run from 1 to {m.sides}")
        self.damage_roll((*path, "damage_roll"), m.damage_roll)
        if len(m.card_grid) != 2 or m.card_grid[0] > m.card_grid[1]:
            self.error((*path, "card_grid"), "give the grid as [from, to]")

    def opposed_pools(self, path: Location, m: OpposedPools) -> None:
        self.from_unit((*path, "dice"), m.dice)
        if (m.success_on is None) == (m.success_from is None):
            self.error(path, "give 'success_on' (a roll) or 'success_from' (read from the unit), not both")
        if m.success_from is not None:
            self.from_unit((*path, "success_from"), m.success_from)
        if m.explode_on is not None and not 1 < m.explode_on <= m.sides:
            self.error((*path, "explode_on"), f"expected a face from 2 to {m.sides}")
        if not 0 <= m.explode_depth <= 40:
            self.error((*path, "explode_depth"), "expected 0 to 40 further dice")
        for needed, name, key in (
            (m.save, m.results.saved, "saved"),
            (m.reach, m.results.out_of_reach, "out_of_reach"),
        ):
            if needed is not None and name is None:
                self.error((*path, "results"), f"name the result '{key}'", f"add '{key}:' under 'results'")
        if m.reach:
            self.stat((*path, "reach", "stat"), m.reach.stat, ("number",))
            self.option((*path, "reach", "option"), m.reach.option, ("number",))
        if m.save:
            self.option((*path, "save", "option"), m.save.option, ("choice",))
            option = self.options.get(m.save.option)
            for value, roll in m.save.on.items():
                if option is not None and option.kind == "choice":
                    self.value((*path, "save", "on", value), m.save.option, option, value)
                if not 1 <= roll <= m.save.sides:
                    self.error((*path, "save", "on", value), f"expected a roll from 1 to {m.save.sides}")
        if len(m.card_grid) != 2 or not 1 <= m.card_grid[0] <= m.card_grid[1]:
            self.error((*path, "card_grid"), "give the grid as [from, to], from at least 1")

    def hits_per_casualty(self, path: Location, m: HitsPerCasualty) -> None:
        self.from_unit((*path, "shots"), m.shots)
        self.stat((*path, "shots", "stat"), m.shots.stat, ("choice", "choices"))
        self.stat((*path, "figures"), m.figures, ("number",))
        self.option((*path, "weapon_option"), m.weapon_option, ("choice",))
        self.option((*path, "firing_option"), m.firing_option, ("number",))
        h = m.hits_needed
        if self.stat((*path, "hits_needed", "stat"), h.stat, ("choice",)):
            for value, prop in h.properties.items():
                self.prop((*path, "hits_needed", "properties", value), h.stat, prop)
        self.option((*path, "hits_needed", "option"), h.option, ("choice",))
        option = self.options.get(h.option)
        if option is not None and option.kind == "choice":
            missing = [v for v in option_values(self.system, option) if v not in h.properties]
            if missing:
                self.error((*path, "hits_needed", "properties"), f"no property for {one_of(missing)}")
        if m.harm:
            if self.stat((*path, "harm", "target_stat"), m.harm.target_stat, ("choice",)):
                self.prop((*path, "harm", "target_property"), m.harm.target_stat, m.harm.target_property)
            self.prop((*path, "harm", "weapon_property"), m.shots.stat, m.harm.weapon_property)
        self.damage_roll((*path, "damage_roll"), m.damage_roll)

    def unit_melee(self, path: Location, m: UnitMelee) -> None:
        self.stat((*path, "figures"), m.figures, ("number",))
        self.from_unit((*path, "dice"), m.dice)
        self.from_unit((*path, "hits_per_casualty"), m.hits_per_casualty)
        if not 1 <= m.hit_on <= m.sides:
            self.error((*path, "hit_on"), f"expected a roll from 1 to {m.sides}")

    def paired_rolls(self, path: Location, m: PairedRolls) -> None:
        self.option((*path, "pairing_option"), m.pairing_option, ("choice",))
        option = self.options.get(m.pairing_option)
        ids = [p.id for p in m.pairings]
        if option is not None and option.kind == "choice" and sorted(option_values(self.system, option)) != sorted(ids):
            self.error(
                (*path, "pairings"), f"the pairings ({', '.join(ids)}) differ from the values of '{m.pairing_option}'"
            )
        for j, pairing in enumerate(m.pairings):
            where = (*path, "pairings", j)
            if not (1 <= pairing.attacker_figures <= 2 and 1 <= pairing.target_figures <= 2):
                self.error(where, "each side has 1 or 2 figures in a pairing")
            if not pairing.results or pairing.results[-1].when:
                self.error((*where, "results"), "the last result has no 'when': it is what happens otherwise")
            for k, result in enumerate(pairing.results):
                for n, text in enumerate(result.when):
                    found = COMPARISON.match(text)
                    if not found or found.group(1) not in QUANTITIES or found.group(3) not in QUANTITIES:
                        self.error(
                            (*where, "results", k, "when", n),
                            f"cannot read '{text}'",
                            f"write 'A > B' with >, >=, =, <= or <, where A and B are {one_of(QUANTITIES)}",
                        )

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
