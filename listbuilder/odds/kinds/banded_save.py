"""The banded save: one die against a roll picked by the ratio of a stat to a number option.

One class carries the kind: its fields (the file format), its check against the rule set, its
engine (exact chances) and its rules-card tables. It knows no rule set: every number is data.
"""

# No "from __future__ import annotations": schema.py builds validators from real annotations.
from fractions import Fraction
from typing import Literal

from listbuilder.errors import Location
from listbuilder.odds import bounds
from listbuilder.odds.checker import Checker
from listbuilder.odds.mechanic import Mechanic
from listbuilder.odds.parts import Band, DamageRoll, FromUnit, Result, Side, pick
from listbuilder.odds.results import CardTable, Tally, percent, tally
from listbuilder.odds.situation import Values, read, removal_chance
from listbuilder.record import record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.rules.schema import doc


@record
class BandedSave(Mechanic):
    """A side's save: one die against a roll chosen by the ratio of its stat to a number option."""

    kind: Literal["banded_save"] = doc("'banded_save'")
    stat: str = doc("the saving side's number stat, e.g. 'armour'")
    against: str = doc("the number option it is compared to, e.g. 'tokens'")
    side: Side = doc("who saves", default="target")
    sides: int = doc("sides of the save die", default=6)
    bands: tuple[Band, ...] = doc("by the ratio stat / option, from the lowest up, each with 'save_on'")
    passes: tuple[Result, ...] = doc(
        "results of a passed save: one listing the face rolled, else the one with no faces"
    )
    fails: Result = doc("the result of a failed save")
    damage_roll: DamageRoll | None = doc("who rolls for damage instead of being removed", default=None)
    card_grid: tuple[int, int] = doc("the card's grid: stat and option values from..to", default=(1, 6))

    def check(self, c: Checker, path: Location) -> None:
        c.stat((*path, "stat"), self.stat, ("number",))
        c.option((*path, "against"), self.against, ("number",))
        c.bands((*path, "bands"), self.bands)
        for j, band in enumerate(self.bands):
            if band.save_on is None or not 1 <= band.save_on <= self.sides:
                c.error((*path, "bands", j, "save_on"), f"each band needs 'save_on' from 1 to {self.sides}")
        for j, result in enumerate(self.passes):
            if any(not 1 <= f <= self.sides for f in result.faces):
                c.error((*path, "passes", j, "faces"), f"faces run from 1 to {self.sides}")
        c.damage_roll((*path, "damage_roll"), self.damage_roll)
        if len(self.card_grid) != 2 or self.card_grid[0] > self.card_grid[1]:
            c.error((*path, "card_grid"), "give the grid as [from, to]")

    def engine(self, system: System, attacker: Unit, target: Unit, v: Values) -> Tally:
        """The saving side's one die against the roll its stat / the option's number band gives."""
        unit = target if self.side == "target" else attacker
        band = pick(self.bands, read(system, unit, FromUnit(stat=self.stat)), Fraction(v[self.against]))
        return _save(self, band, removal_chance(system, self.damage_roll, unit))

    def card(self, system: System) -> list[CardTable]:
        """The save and its results beside each band, and a grid of the chance to save."""
        stat = system.definition.stats[self.stat].label
        against = self.against.replace("_", " ")
        first, last = self.card_grid
        bounds.check(last - first + 1, bounds.MAX_CARD_GRID, "rows of the card's odds grid ('card_grid')")
        by_band = [
            (band.column, f"{band.save_on}+", *(percent(c) for _, c in _save(self, band).results))
            for band in self.bands
        ]
        grid = []
        for value in range(first, last + 1):
            bands = [pick(self.bands, Fraction(value), Fraction(k)) for k in range(first, last + 1)]
            grid.append((f"{stat} {value}", *(percent(1 - _save(self, b).results[-1][1]) for b in bands)))
        names = [r.name for r in self.passes] + [self.fails.name]
        return [
            CardTable(
                title=self.title,
                columns=(f"{stat} against {against}", "Save", *(n.capitalize() for n in names)),
                rows=tuple(by_band),
                note=f"One D{self.sides}; chances are exact.",
                source=self.source,
            ),
            CardTable(
                title=f"{self.title}: chance to save",
                columns=(f"{stat} \\ {against}", *(str(k) for k in range(first, last + 1))),
                rows=tuple(grid),
                note=f"Rows: {stat}; columns: {against}.",
                source=self.source,
            ),
        ]


def _save(m: BandedSave, band: Band, removed: Fraction = Fraction(1)) -> Tally:
    """One die against the band's roll: each passing face gives the result that lists it (or the
    one that lists no faces); a failure costs the model, or a damage roll."""
    save_on = band.save_on or m.sides
    named = {r.name: Fraction(0) for r in m.passes}
    for face in range(save_on, m.sides + 1):
        listed = [r for r in m.passes if face in r.faces] or [r for r in m.passes if not r.faces]
        if listed:
            named[listed[0].name] += Fraction(1, m.sides)
    rows: list[tuple[str, Fraction, Fraction | int, int]] = [
        (r.name, named[r.name], r.kills, r.losses) for r in m.passes
    ]
    rows.append((m.fails.name, Fraction(save_on - 1, m.sides), m.fails.kills * removed, m.fails.losses))
    return tally(rows)
