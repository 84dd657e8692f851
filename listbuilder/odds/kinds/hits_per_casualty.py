"""Hits per casualty: each shot hits on a face; every so many hits is a casualty.

One class carries the kind: its fields (the file format), its check against the rule set, its
engine (exact chances) and its rules-card tables. It knows no rule set: every number is data.
"""

# No "from __future__ import annotations": schema.py builds validators from real annotations.
from fractions import Fraction
from typing import Literal

from listbuilder.errors import Location
from listbuilder.odds import bounds, dice
from listbuilder.odds.checker import Checker
from listbuilder.odds.mechanic import Mechanic
from listbuilder.odds.parts import DamageRoll, FromUnit, Harm, HitsNeeded, Requirement, option_values
from listbuilder.odds.results import CardTable, Tally, figure, percent, tally
from listbuilder.odds.situation import (
    ImpossibleMatchup,
    OddsError,
    Values,
    check,
    chosen,
    has,
    read,
    removal_chance,
)
from listbuilder.record import record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Choice, Noun, Unit
from listbuilder.rules.loadout import carriers
from listbuilder.rules.schema import doc
from listbuilder.words import one_of


@record
class HitsPerCasualty(Mechanic):
    """Shooting: each shot hits on a face; every so many hits (by target and cover) is a casualty."""

    kind: Literal["hits_per_casualty"] = doc("'hits_per_casualty'")
    shots: FromUnit = doc("shots of each weapon, from the attacker's weapons stat")
    figures: str | None = doc("the number stat of figures: each fires, and each can be a casualty", default=None)
    weapon_option: str | None = doc("a choice option naming the one weapon fired; 'all' fires each", default=None)
    firing_option: str | None = doc("a number option: how many figures fire (null: all)", default=None)
    hit_on: int = doc("the roll that hits")
    sides: int = doc("sides on each die", default=6)
    hits_needed: HitsNeeded = doc("hits per casualty")
    casualty: Noun = doc("what a removed figure is called in the results: casualty/casualties ('no casualties')")
    harm: Harm | None = doc("targets only some weapons can harm", default=None)
    damage_roll: DamageRoll | None = doc("who rolls for damage instead of being removed", default=None)
    requires: tuple[Requirement, ...] = doc("what makes a matchup impossible", default=())
    card_shots: tuple[int, ...] = doc("shots shown on the card", default=(1, 2, 3, 6, 12))

    def check(self, c: Checker, path: Location) -> None:
        c.from_unit((*path, "shots"), self.shots)
        c.stat((*path, "shots", "stat"), self.shots.stat, ("choice", "choices"))
        c.stat((*path, "figures"), self.figures, ("number",))
        c.option((*path, "weapon_option"), self.weapon_option, ("choice",))
        c.option((*path, "firing_option"), self.firing_option, ("number",))
        h = self.hits_needed
        if c.stat((*path, "hits_needed", "stat"), h.stat, ("choice",)):
            for value, prop in h.properties.items():
                c.prop((*path, "hits_needed", "properties", value), h.stat, prop)
        c.option((*path, "hits_needed", "option"), h.option, ("choice",))
        option = c.options.get(h.option)
        if option is not None and option.kind == "choice":
            missing = [v for v in option_values(c.system, option) if v not in h.properties]
            if missing:
                c.error((*path, "hits_needed", "properties"), f"no property for {one_of(missing)}")
        if self.harm:
            if c.stat((*path, "harm", "target_stat"), self.harm.target_stat, ("choice",)):
                c.prop((*path, "harm", "target_property"), self.harm.target_stat, self.harm.target_property)
            c.prop((*path, "harm", "weapon_property"), self.shots.stat, self.harm.weapon_property)
        c.damage_roll((*path, "damage_roll"), self.damage_roll)

    def engine(self, system: System, attacker: Unit, target: Unit, v: Values) -> Tally:
        """The chance of each number of casualties from one unit's shooting at another."""
        check(system, self.requires, {"attacker": attacker, "target": target}, v)
        weapons = chosen(system, attacker, self.shots.stat, self.shots.where)
        named = v.get(self.weapon_option) if self.weapon_option else "all"
        if named not in (None, "all"):
            weapons = [w for w in weapons if w.name == named]
            if not weapons:
                raise ImpossibleMatchup(f"{attacker.name} carries no {named}")
        if not weapons:
            raise ImpossibleMatchup(f"{attacker.name} has no weapon to shoot with")
        figures = int(attacker.stats.get(self.figures, 1)) if self.figures else 1
        # How many figures carry each weapon: all of them, unless the unit gives a loadout.
        carrying = dict(carriers(attacker.stats.get(self.shots.stat), figures))
        firing = v.get(self.firing_option) if self.firing_option else None
        if firing is not None:
            if len(weapons) > 1 and len({carrying[w.name] for w in weapons}) > 1:
                raise OddsError.detailed(
                    f"{attacker.name} is armed unevenly: say which weapon its {firing} firing figures carry",
                    f"give '{self.weapon_option}' with '{self.firing_option}'",
                )
            most = max(carrying[w.name] for w in weapons)
            if firing > most:
                raise OddsError(f"{attacker.name} has {most} figures {_carrying(weapons)}, not {firing}")
        if self.harm is not None and has(system, target, self.harm.target_stat, self.harm.target_property, True):
            weapons = [w for w in weapons if w.properties.get(self.harm.weapon_property) is True]
        shots = sum(
            (carrying[w.name] if firing is None else firing) * int(w.properties.get(self.shots.property or "", 0))
            for w in weapons
        )
        cover = v[self.hits_needed.option]
        need = int(
            read(system, target, FromUnit(stat=self.hits_needed.stat, property=self.hits_needed.properties[cover]))
        )
        cap = int(target.stats.get(self.figures, 1)) if self.figures else 1
        chances = dice.casualties(shots, self.sides, self.hit_on, need, cap)
        removed = removal_chance(system, self.damage_roll, target)
        return tally((_casualty_name(self, k), c, k * removed, 0) for k, c in enumerate(chances))

    def card(self, system: System) -> list[CardTable]:
        """A grid of the chance of at least one casualty (and the expected number) by shots and hits needed."""
        needs = sorted(
            {
                int(c.properties[p])
                for c in system.definition.stats[self.hits_needed.stat].choices
                for p in self.hits_needed.properties.values()
                if isinstance(c.properties.get(p), int)
            }
        )
        rows = []
        bounds.check(len(self.card_shots), bounds.MAX_CARD_GRID, "rows of the card's odds grid ('card_shots')")
        for shots in self.card_shots:
            cells = []
            for need in needs:
                chances = dice.casualties(shots, self.sides, self.hit_on, need, shots)
                expected = sum((k * c for k, c in enumerate(chances)), Fraction(0))
                cells.append(f"{percent(1 - chances[0])} ({figure(expected)})")
            rows.append((str(shots), *cells))
        return [
            CardTable(
                title=f"{self.title}: chance of a casualty (expected casualties)",
                columns=("Shots \\ hits per casualty", *(str(n) for n in needs)),
                rows=tuple(rows),
                note=f"Each shot hits on a {self.hit_on}+; exact chances.",
                source=self.source,
            )
        ]


def _carrying(weapons: list[Choice]) -> str:
    return f"carrying the {weapons[0].name}" if len(weapons) == 1 else "in all"


def _casualty_name(m: HitsPerCasualty, k: int) -> str:
    return f"no {m.casualty.plural}" if k == 0 else f"{k} {m.casualty.of(k)}"
