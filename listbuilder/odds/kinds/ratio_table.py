"""The ratio table: roll NdX against a column picked by the ratio of the two sides' stat.

One class carries the kind: its fields (the file format), its check against the rule set, its
engine (exact chances) and its rules-card tables. It knows no rule set: every number is data.
"""

# No "from __future__ import annotations": schema.py builds validators from real annotations.
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from listbuilder.errors import Location
from listbuilder.odds import dice
from listbuilder.odds.checker import Checker
from listbuilder.odds.mechanic import Mechanic
from listbuilder.odds.parts import (
    Band,
    FromUnit,
    Multiplier,
    OddFails,
    Requirement,
    Result,
    Roll,
    SpecialRoll,
    Upgrade,
    pick,
    ratio,
)
from listbuilder.odds.results import CardTable, Tally, percent, tally
from listbuilder.odds.situation import Values, check, has, holds, read
from listbuilder.record import record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.rules.schema import doc


@record
class RatioTable(Mechanic):
    """Roll NdX against a column chosen by the ratio of the two sides' stat; results by threshold."""

    kind: Literal["ratio_table"] = doc("'ratio_table'")
    stat: str = doc("the number stat compared: attacker's over target's")
    roll: Roll = doc("the usual roll")
    special_rolls: tuple[SpecialRoll, ...] = doc("other rolls for some units, first match wins", default=())
    bands: tuple[Band, ...] = doc("the columns, from the lowest ratio up; together they cover every ratio")
    results: tuple[Result, ...] = doc("one result per number in each band's 'needs', best first")
    otherwise: Result = doc("the result when no number is reached")
    multipliers: tuple[Multiplier, ...] = doc("flag options that multiply a side's stat", default=())
    odd_fails: OddFails | None = doc("when odd totals fail", default=None)
    upgrades: tuple[Upgrade, ...] = doc("results that count as others under an option", default=())
    requires: tuple[Requirement, ...] = doc("what makes a matchup impossible", default=())

    def check(self, c: Checker, path: Location) -> None:
        c.stat((*path, "stat"), self.stat, ("number",))
        c.roll((*path, "roll"), self.roll)
        for j, special in enumerate(self.special_rolls):
            c.roll((*path, "special_rolls", j, "roll"), special.roll)
        c.bands((*path, "bands"), self.bands)
        highest = max(r.sides * (r.keep_highest or r.dice) for r in (self.roll, *(s.roll for s in self.special_rolls)))
        for j, band in enumerate(self.bands):
            where = (*path, "bands", j, "needs")
            if len(band.needs) != len(self.results):
                c.error(where, f"{len(band.needs)} numbers, but there are {len(self.results)} results")
            if list(band.needs) != sorted(band.needs, reverse=True):
                c.error(where, "give the numbers best result first, so each is at most the one before")
            if any(n < 1 or n > highest for n in band.needs):
                c.error(where, f"each number must be a total the roll can make (1 to {highest})")
        for j, mult in enumerate(self.multipliers):
            c.option((*path, "multipliers", j, "option"), mult.option, ("flag",))
            if (factor := ratio(mult.factor)) is None or factor <= 0:
                c.error(
                    (*path, "multipliers", j, "factor"), f"expected a factor such as 2 or '1/2', found '{mult.factor}'"
                )
        if self.odd_fails:
            c.option((*path, "odd_fails", "option"), self.odd_fails.option, ("choice",))
            option = c.options.get(self.odd_fails.option)
            for k, value in enumerate(self.odd_fails.values):
                if option is not None and option.kind == "choice":
                    c.value((*path, "odd_fails", "values", k), self.odd_fails.option, option, value)
        names = [r.name for r in (*self.results, self.otherwise)]
        for j, up in enumerate(self.upgrades):
            c.option((*path, "upgrades", j, "option"), up.option, ("flag",))
            for field in ("result", "becomes"):
                if getattr(up, field) not in names:
                    c.error(
                        (*path, "upgrades", j, field),
                        f"no result '{getattr(up, field)}'",
                        f"results: {', '.join(names)}",
                    )

    def engine(self, system: System, attacker: Unit, target: Unit, v: Values) -> Tally:
        """One roll against the column the two sides' stats pick; each number reached is a result."""
        units = {"attacker": attacker, "target": target}
        check(system, self.requires, units, v)
        stat = FromUnit(stat=self.stat)
        value = {side: read(system, unit, stat) for side, unit in units.items()}
        for mult in self.multipliers:
            if v.get(mult.option):
                value[mult.side] *= ratio(mult.factor) or 1
        band = pick(self.bands, value["attacker"], value["target"])
        roll = self.roll
        for special in self.special_rolls:
            if holds(special.when, special.unless, v) and has(
                system, units[special.side], special.stat, special.property, special.equals
            ):
                roll = special.roll
                break
        odd_fails = self.odd_fails is not None and v.get(self.odd_fails.option) in self.odd_fails.values
        upgrades = tuple(bool(v.get(up.option)) for up in self.upgrades)
        # What follows depends only on the band, the roll and the flags: the same few answers
        # for every cell of a matrix. Keyed by id; the entry keeps the mechanic (and so its
        # bands) alive, so the ids stay theirs.
        key = (id(self), id(band), roll, odd_fails, upgrades)
        known = _BAND_TALLIES.get(key)
        if known is not None and known[0] is self:
            return known[1]
        if len(_BAND_TALLIES) >= 4096:
            _BAND_TALLIES.clear()
        answer = self._band_tally(band, roll, odd_fails, v)
        _BAND_TALLIES[key] = (self, answer)
        return answer

    def _band_tally(self, band: Band, roll: Roll, odd_fails: bool, v: Values) -> Tally:
        chances = _threshold_chances(roll, band.needs, odd_fails)
        named = {r.name: c for r, c in zip(self.results, chances, strict=True)}
        named[self.otherwise.name] = 1 - sum(chances, Fraction(0))
        for up in self.upgrades:
            if v.get(up.option) and up.result != up.becomes:
                named[up.becomes] += named[up.result]
                named[up.result] = Fraction(0)
        return tally((r.name, named[r.name], r.kills, r.losses) for r in (*self.results, self.otherwise))

    def card(self, system: System) -> list[CardTable]:
        """The table's columns with the numbers needed and each result's chance for every roll used."""
        rows: list[tuple[str, ...]] = []
        for k, result in enumerate(self.results):
            rows.append((f"{result.name.capitalize()} on", *(str(b.needs[k]) for b in self.bands)))
        rolls = list(dict.fromkeys([self.roll, *(s.roll for s in self.special_rolls)]))
        for roll in rolls:
            per_band = [_threshold_chances(roll, b.needs, False) for b in self.bands]
            for k, result in enumerate(self.results):
                rows.append((f"{result.name.capitalize()}, {_roll_name(roll)}", *(percent(c[k]) for c in per_band)))
        who = []
        for special in self.special_rolls:
            names = [
                c.name
                for c in system.definition.stats[special.stat].choices
                if c.properties.get(special.property) == special.equals
            ]
            who.append(f"{_roll_name(special.roll)} for {', '.join(names) or 'none'} {special.equals}")
        stat = system.definition.stats[self.stat].label
        note = f"Exact chances for one roll of {_roll_name(self.roll)}"
        if who:
            note += "; " + "; ".join(who)
        return [
            CardTable(
                title=self.title,
                columns=(f"{stat}: attacker vs target", *(b.column for b in self.bands)),
                rows=tuple(rows),
                note=note + ".",
                source=self.source,
            )
        ]


_BAND_TALLIES: dict[tuple[Any, ...], tuple["RatioTable", Tally]] = {}


def clear() -> None:
    """Forget the tallies and chances worked out so far (for benchmarks and tests)."""
    _BAND_TALLIES.clear()
    _threshold_chances.cache_clear()


@lru_cache(maxsize=1024)
def _threshold_chances(roll: Roll, needs: tuple[int, ...], odd_fails: bool) -> tuple[Fraction, ...]:
    """Chance of reaching each number (best first) but not the one before it (the same few rolls
    and bands come back in every cell of a matrix, so each is worked out once)."""
    dist = dice.total(roll.dice, roll.sides, roll.keep_highest)
    chances = []
    ceiling: int | None = None
    for need in needs:
        chance = sum(
            (p for total, p in dist.items() if total >= need and (ceiling is None or total < ceiling)),
            Fraction(0),
        )
        if odd_fails:
            chance -= sum(
                (p for t, p in dist.items() if t % 2 and t >= need and (ceiling is None or t < ceiling)), Fraction(0)
            )
        chances.append(chance)
        ceiling = need
    return tuple(chances)


def _roll_name(roll: Roll) -> str:
    if roll.keep_highest is not None and roll.keep_highest < roll.dice:
        return (
            f"{roll.dice}D{roll.sides} drop the lowest"
            if roll.keep_highest == roll.dice - 1
            else (f"{roll.dice}D{roll.sides} keep {roll.keep_highest}")
        )
    return f"{roll.dice}D{roll.sides}"
