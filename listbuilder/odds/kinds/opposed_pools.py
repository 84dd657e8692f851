"""Opposed pools: each side rolls a pool and counts successes (natural faces may add dice).

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
from listbuilder.odds.parts import DiceChange, FromUnit, Modifier, Override, PoolResults, Reach, Requirement, Save, Side
from listbuilder.odds.results import CardTable, Tally, percent, tally
from listbuilder.odds.situation import ImpossibleMatchup, Values, check, holds, modifier, read
from listbuilder.record import record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.rules.schema import doc


@record
class OpposedPools(Mechanic):
    """Each side rolls a pool, counts successes (natural faces may add dice); most successes wins."""

    kind: Literal["opposed_pools"] = doc("'opposed_pools'")
    dice: FromUnit = doc("how many dice a side rolls")
    success_on: int | None = doc("the roll a die needs to succeed; or give 'success_from'", default=None)
    success_from: FromUnit | None = doc("the roll needed, read from the side", default=None)
    success_overrides: tuple[Override, ...] = doc("situations that change the roll needed", default=())
    sides: int = doc("sides on each die", default=6)
    explode_on: int | None = doc("a natural roll of this (or more) adds a die; leave out for none", default=None)
    explode_depth: int = doc("how many further dice one die may add before the chain is cut short", default=10)
    die_modifiers: tuple[Modifier, ...] = doc("added to each die (not to the natural roll that explodes)", default=())
    dice_changes: tuple[DiceChange, ...] = doc("more or fewer dice by situation", default=())
    ties: Side = doc("who wins a tie")
    results: PoolResults = doc("the names of the results")
    reach: Reach | None = doc("the loser dies only within the winner's reach", default=None)
    save: Save | None = doc("the target's save when it loses", default=None)
    requires: tuple[Requirement, ...] = doc("what makes a matchup impossible", default=())
    card_grid: tuple[int, int] = doc("the card's grid of dice from..to", default=(1, 6))

    def check(self, c: Checker, path: Location) -> None:
        c.from_unit((*path, "dice"), self.dice)
        if (self.success_on is None) == (self.success_from is None):
            c.error(path, "give 'success_on' (a roll) or 'success_from' (read from the unit), not both")
        if self.success_from is not None:
            c.from_unit((*path, "success_from"), self.success_from)
        if self.explode_on is not None and not 1 < self.explode_on <= self.sides:
            c.error((*path, "explode_on"), f"expected a face from 2 to {self.sides}")
        if not 0 <= self.explode_depth <= 40:
            c.error((*path, "explode_depth"), "expected 0 to 40 further dice")
        for needed, name, key in (
            (self.save, self.results.saved, "saved"),
            (self.reach, self.results.out_of_reach, "out_of_reach"),
        ):
            if needed is not None and name is None:
                c.error((*path, "results"), f"name the result '{key}'", f"add '{key}:' under 'results'")
        if self.reach:
            c.stat((*path, "reach", "stat"), self.reach.stat, ("number",))
            c.option((*path, "reach", "option"), self.reach.option, ("number",))
        if self.save:
            c.option((*path, "save", "option"), self.save.option, ("choice",))
            option = c.options.get(self.save.option)
            for value, roll in self.save.on.items():
                if option is not None and option.kind == "choice":
                    c.value((*path, "save", "on", value), self.save.option, option, value)
                if not 1 <= roll <= self.save.sides:
                    c.error((*path, "save", "on", value), f"expected a roll from 1 to {self.save.sides}")
        if len(self.card_grid) != 2 or not 1 <= self.card_grid[0] <= self.card_grid[1]:
            c.error((*path, "card_grid"), "give the grid as [from, to], from at least 1")

    def engine(self, system: System, attacker: Unit, target: Unit, v: Values) -> Tally:
        """Both roll their pools; the winner kills the loser if it can reach it, unless the target saves."""
        units = {"attacker": attacker, "target": target}
        check(system, self.requires, units, v)
        distance = strikes_back = None
        if self.reach is not None:
            reach = {side: int(read(system, unit, FromUnit(stat=self.reach.stat))) for side, unit in units.items()}
            distance = v[self.reach.option] if v[self.reach.option] is not None else reach["attacker"]
            if distance > reach["attacker"]:
                raise ImpossibleMatchup(f"{attacker.name} cannot reach a target {distance} away")
            strikes_back = reach["target"] >= distance
        a = pool_side(system, self, "attacker", attacker, v)
        t = pool_side(system, self, "target", target, v)
        if a[0] <= 0:
            raise ImpossibleMatchup(f"{attacker.name} has no dice left to attack with")
        wins, ties, _ = dice.compare(_dist(self, *a), _dist(self, *t))
        won = wins + (ties if self.ties == "attacker" else 0)
        saved = Fraction(0)
        if self.save is not None and v[self.save.option] in self.save.on:
            saved = Fraction(self.save.sides - self.save.on[v[self.save.option]] + 1, self.save.sides)
        names = self.results
        rows: list[tuple[str, Fraction, int, int]] = [(names.won, won * (1 - saved), 1, 0)]
        if self.save is not None:
            rows.append((str(names.saved), won * saved, 0, 0))
        rows.append((names.lost, (1 - won) if strikes_back is not False else Fraction(0), 0, 1))
        if self.reach is not None:
            rows.append((str(names.out_of_reach), (1 - won) if strikes_back is False else Fraction(0), 0, 0))
        truncation = dice.cut_short(max(a[0], 0) + max(t[0], 0), self.sides, self.explode_on, self.explode_depth)
        return tally(rows, truncation)

    def card(self, system: System) -> list[CardTable]:
        """A grid of the attacker's chance to win by each side's dice, without modifiers."""
        first, last = self.card_grid
        bounds.check(last - first + 1, bounds.MAX_CARD_GRID, "rows of the card's odds grid ('card_grid')")
        if self.success_on is None:
            return []  # the roll needed depends on the unit: no single grid to print
        rows = []
        for mine in range(first, last + 1):
            cells = []
            for theirs in range(first, last + 1):
                wins, ties, _ = dice.compare(
                    _dist(self, mine, self.success_on, 0), _dist(self, theirs, self.success_on, 0)
                )
                cells.append(percent(wins + (ties if self.ties == "attacker" else 0)))
            rows.append((str(mine), *cells))
        label = system.definition.stats[self.dice.stat].label
        return [
            CardTable(
                title=f"{self.title}: chance the attacker wins",
                columns=(f"Attacker's {label} \\ target's", *(str(k) for k in range(first, last + 1))),
                rows=tuple(rows),
                note=f"Without modifiers; a tie goes to the {self.ties}. Exact, following each die's further dice "
                f"{self.explode_depth} deep.",
                source=self.source,
            )
        ]


def pool_side(system: System, m: OpposedPools, side: str, unit: Unit, v: Values) -> tuple[int, int, int]:
    """A side's (dice, roll needed, modifier to each die) in this situation."""
    base = count = int(read(system, unit, m.dice))
    for change in m.dice_changes:
        if change.side == side and holds(change.when, change.unless, v):
            steps = v[change.option] if v[change.option] is not None else change.start
            count += change.per * (int(steps) - change.start)
            if change.floor is not None:
                count = max(count, min(base, change.floor))
    need = m.success_on if m.success_on is not None else int(read(system, unit, m.success_from))  # type: ignore[arg-type]  # check(): one of the two is given
    for override in m.success_overrides:
        if override.side in (side, "both") and holds(override.when, override.unless, v):
            need = override.value
    every, one = modifier(system, m.die_modifiers, side, unit, v)
    return count, need, every + one


def _dist(m: OpposedPools, count: int, need: int, mod: int) -> dice.Dist:
    return dice.pool(count, m.sides, need, mod, m.explode_on, m.explode_depth)
