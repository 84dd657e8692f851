"""Unit melee: two whole units fight in rounds until one side takes more casualties.

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
from listbuilder.odds.parts import FromUnit, MeleeResults
from listbuilder.odds.results import Tally
from listbuilder.odds.situation import OddsError, Values, read
from listbuilder.record import record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.rules.schema import doc

Final = tuple[str, int, int]  # (outcome, attacker survivors, target survivors)

# The outcomes, by their fields in MeleeResults (which names each in the rule set's words).
OUTCOMES = ("attacker_wins", "target_wins", "both", "undecided")
_TURNED = {"attacker_wins": "target_wins", "target_wins": "attacker_wins"}  # the fight's first side is the target


@record
class UnitMelee(Mechanic):
    """Two units fight: the charger strikes first, survivors strike back; draws are refought at once."""

    kind: Literal["unit_melee"] = doc("'unit_melee'")
    figures: str = doc("the number stat of figures in a unit")
    dice: FromUnit = doc("combat dice per figure")
    hits_per_casualty: FromUnit = doc("hits that make one casualty on a unit")
    hit_on: int = doc("the roll that hits")
    sides: int = doc("sides on each die", default=6)
    first_strike: bool = doc("the charger strikes first in the first round", default=True)
    charging_option: str | None = doc(
        "a choice option of 'attacker' and 'target': which unit charged (null: always the attacker)", default=None
    )
    attacker_figures_option: str | None = doc(
        "a number option: how many of the attacker's figures are left (null: all)", default=None
    )
    target_figures_option: str | None = doc(
        "a number option: how many of the target's figures are left (null: all)", default=None
    )
    results: MeleeResults = doc("the names of the outcomes")

    def check(self, c: Checker, path: Location) -> None:
        c.stat((*path, "figures"), self.figures, ("number",))
        c.from_unit((*path, "dice"), self.dice)
        c.from_unit((*path, "hits_per_casualty"), self.hits_per_casualty)
        if not 1 <= self.hit_on <= self.sides:
            c.error((*path, "hit_on"), f"expected a roll from 1 to {self.sides}")
        c.option((*path, "charging_option"), self.charging_option, ("choice",))
        option = c.options.get(self.charging_option or "")
        if option is not None and option.kind == "choice" and sorted(option.values) != ["attacker", "target"]:
            c.error((*path, "charging_option"), "the option must have the values 'attacker' and 'target'")
        c.option((*path, "attacker_figures_option"), self.attacker_figures_option, ("number",))
        c.option((*path, "target_figures_option"), self.target_figures_option, ("number",))

    def engine(self, system: System, attacker: Unit, target: Unit, v: Values) -> Tally:
        """The decided outcome of a melee between two whole units, and the figures each loses."""
        side = {}
        for name, unit, option in (
            ("attacker", attacker, self.attacker_figures_option),
            ("target", target, self.target_figures_option),
        ):
            figures = int(unit.stats.get(self.figures, 1))
            left = v.get(option) if option else None
            if left is not None and left > figures:
                raise OddsError.detailed(
                    f"{unit.name} has {figures} figure{'s' if figures != 1 else ''}, not {left}",
                    f"give '{option}' from 1 to {figures}",
                )
            side[name] = (
                figures if left is None else left,
                int(read(system, unit, self.dice)),
                int(read(system, unit, self.hits_per_casualty)),
            )
        for figures, dice_each, _ in side.values():
            bounds.check(figures, bounds.MAX_MELEE_FIGURES, "figures a side in a melee")
            bounds.check(figures * dice_each, bounds.MAX_MELEE_DICE, "dice a side rolls in a round of melee")
        # The charger is the first side of the fight; the target charging turns the fight round.
        turned = bool(self.charging_option) and v.get(self.charging_option or "") == "target"
        first, second = ("target", "attacker") if turned else ("attacker", "target")
        fight = _Fight(self.sides, self.hit_on, side[first][1:], side[second][1:])
        n1, n2 = side[first][0], side[second][0]
        finals = fight.first_round(n1, n2) if self.first_strike else fight.simultaneous(n1, n2)
        na, nb = side["attacker"][0], side["target"][0]
        by_result = {r: Fraction(0) for r in OUTCOMES}
        kills = losses = Fraction(0)
        for (result, s1, s2), chance in finals.items():
            if turned:
                result, s1, s2 = _TURNED.get(result, result), s2, s1
            by_result[result] += chance
            kills += chance * (nb - s2)
            losses += chance * (na - s1)
        shown = OUTCOMES if by_result["undecided"] else OUTCOMES[:-1]
        results = tuple((getattr(self.results, r), by_result[r]) for r in shown)
        return Tally(results=results, kills=kills, losses=losses)


class _Fight:
    """The casualty rounds of one melee, memoised over the survivors of each side."""

    def __init__(self, sides: int, hit_on: int, attacker: tuple[int, int], target: tuple[int, int]) -> None:
        self.sides, self.hit_on = sides, hit_on
        (self.dice_a, self.per_a), (self.dice_b, self.per_b) = attacker, target
        self.memo: dict[tuple[int, int], dict[Final, Fraction]] = {}

    def casualties(self, figures: int, dice_each: int, per: int, cap: int) -> tuple[Fraction, ...]:
        return dice.casualties(figures * dice_each, self.sides, self.hit_on, per, cap)

    def first_round(self, na: int, nb: int) -> dict[Final, Fraction]:
        """The charger strikes first; the target's survivors strike back."""
        out: dict[Final, Fraction] = {}
        for cb, p in enumerate(self.casualties(na, self.dice_a, self.per_b, nb)):
            for ca, q in enumerate(self.casualties(nb - cb, self.dice_b, self.per_a, na)):
                self._settle(out, na, nb, ca, cb, p * q)
        return out

    def simultaneous(self, na: int, nb: int) -> dict[Final, Fraction]:
        """Both strike at once until one side causes more casualties; rounds of no casualties
        change nothing, so the answer is conditioned on a round that does something."""
        if (na, nb) in self.memo:
            return self.memo[(na, nb)]
        out: dict[Final, Fraction] = {}
        from_a = self.casualties(na, self.dice_a, self.per_b, nb)
        from_b = self.casualties(nb, self.dice_b, self.per_a, na)
        nothing = from_a[0] * from_b[0]
        if nothing == 1:
            out = {("undecided", na, nb): Fraction(1)}
        else:
            for cb, p in enumerate(from_a):
                for ca, q in enumerate(from_b):
                    if ca or cb:
                        self._settle(out, na, nb, ca, cb, p * q / (1 - nothing))
        self.memo[(na, nb)] = out
        return out

    def _settle(self, out: dict[Final, Fraction], na: int, nb: int, ca: int, cb: int, p: Fraction) -> None:
        """Who is destroyed after a round with ``ca`` attacker and ``cb`` target casualties: a side
        wiped out loses; otherwise the side that took more casualties is destroyed; a draw is
        fought again, simultaneously."""
        sa, sb = na - ca, nb - cb
        final: Final | None = None
        if sa == 0 and sb == 0:
            final = ("both", 0, 0)
        elif sa == 0 or (sb and ca > cb):
            final = ("target_wins", 0, sb)
        elif sb == 0 or cb > ca:
            final = ("attacker_wins", sa, 0)
        if final is not None:
            out[final] = out.get(final, Fraction(0)) + p
            return
        for key, chance in self.simultaneous(sa, sb).items():
            out[key] = out.get(key, Fraction(0)) + p * chance
