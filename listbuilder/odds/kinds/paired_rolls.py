"""Paired rolls: each figure rolls one die plus modifiers, and a pairing's table says who dies.

One class carries the kind: its fields (the file format), its check against the rule set, its
engine (exact chances) and its rules-card tables. It knows no rule set: every number is data.
"""

# No "from __future__ import annotations": schema.py builds validators from real annotations.
import operator
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal

from listbuilder.errors import Location
from listbuilder.odds import dice
from listbuilder.odds.checker import Checker
from listbuilder.odds.mechanic import Mechanic
from listbuilder.odds.parts import Modifier, Pairing, Requirement, option_values
from listbuilder.odds.results import CardTable, Tally, percent, tally
from listbuilder.odds.situation import Values, check, modifier
from listbuilder.record import record
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.rules.schema import doc
from listbuilder.words import one_of

COMPARISON = re.compile(r"^\s*(\w+)\s*(>=|<=|>|<|=)\s*(\w+)\s*$")
QUANTITIES = ("attacker", "target", "attacker_high", "attacker_low", "target_high", "target_low")
_OPS = {">": operator.gt, ">=": operator.ge, "=": operator.eq, "<": operator.lt, "<=": operator.le}


@record
class PairedRolls(Mechanic):
    """Each figure rolls one die plus modifiers; a pairing's result table says who dies."""

    kind: Literal["paired_rolls"] = doc("'paired_rolls'")
    sides: int = doc("sides of each figure's die", default=6)
    modifiers: tuple[Modifier, ...] = doc("added to a figure's roll", default=())
    pairing_option: str = doc("the choice option whose value names the pairing")
    pairings: tuple[Pairing, ...] = doc("the pairings and their result tables")
    requires: tuple[Requirement, ...] = doc("what makes a matchup impossible", default=())
    card_modifiers: tuple[int, ...] = doc("modifier differences shown on the card", default=(0, 1, 2))

    def check(self, c: Checker, path: Location) -> None:
        c.option((*path, "pairing_option"), self.pairing_option, ("choice",))
        option = c.options.get(self.pairing_option)
        ids = [p.id for p in self.pairings]
        if option is not None and option.kind == "choice" and sorted(option_values(c.system, option)) != sorted(ids):
            c.error(
                (*path, "pairings"),
                f"the pairings ({', '.join(ids)}) differ from the values of '{self.pairing_option}'",
            )
        for j, pairing in enumerate(self.pairings):
            where = (*path, "pairings", j)
            if not (1 <= pairing.attacker_figures <= 2 and 1 <= pairing.target_figures <= 2):
                c.error(where, "each side has 1 or 2 figures in a pairing")
            if not pairing.results or pairing.results[-1].when:
                c.error((*where, "results"), "the last result has no 'when': it is what happens otherwise")
            for k, result in enumerate(pairing.results):
                for n, text in enumerate(result.when):
                    found = COMPARISON.match(text)
                    if not found or found.group(1) not in QUANTITIES or found.group(3) not in QUANTITIES:
                        c.error(
                            (*where, "results", k, "when", n),
                            f"cannot read '{text}'",
                            f"write 'A > B' with >, >=, =, <= or <, where A and B are {one_of(QUANTITIES)}",
                        )

    def engine(self, system: System, attacker: Unit, target: Unit, v: Values) -> Tally:
        """Every figure of the pairing rolls one die plus its modifiers; the pairing's table decides."""
        units = {"attacker": attacker, "target": target}
        check(system, self.requires, units, v)
        pairing = next(p for p in self.pairings if p.id == v[self.pairing_option])
        mods = {side: modifier(system, self.modifiers, side, unit, v) for side, unit in units.items()}
        return _pair(self, pairing.id, mods["attacker"], mods["target"])

    def card(self, system: System) -> list[CardTable]:
        """Each pairing's results by the difference in modifiers."""
        tables = []
        for pairing in self.pairings:
            rows = []
            for diff in self.card_modifiers:
                result = _pair(self, pairing.id, (diff, 0), (0, 0))
                label = "equal" if diff == 0 else f"attacker {diff:+d}"
                rows.append((label, *(percent(c) for _, c in result.results)))
            tables.append(
                CardTable(
                    title=f"{self.title}: {pairing.id}",
                    columns=("Modifiers", *(r.name.capitalize() for r in pairing.results)),
                    rows=tuple(rows),
                    note="Each figure rolls one die plus its modifiers; chances are exact.",
                    source=pairing.source,
                )
            )
        return tables


def _pair(m: PairedRolls, pairing_id: str, attacker_mod: tuple[int, int], target_mod: tuple[int, int]) -> Tally:
    pairing = next(p for p in m.pairings if p.id == pairing_id)
    dice_list = []
    for (every, one), count in ((attacker_mod, pairing.attacker_figures), (target_mod, pairing.target_figures)):
        dice_list += [dice.d(m.sides) + every + (one if k == 0 else 0) for k in range(count)]
    split = pairing.attacker_figures

    def classify(*rolls: int) -> int:
        mine, theirs = rolls[:split], rolls[split:]
        q = _quantities(mine, theirs)
        return next(i for i, r in enumerate(pairing.results) if all(_test(text, q) for text in r.when))

    chances = dice.joint(classify, dice_list)
    return tally((r.name, chances.get(i, Fraction(0)), r.kills, r.losses) for i, r in enumerate(pairing.results))


def _quantities(mine: Sequence[int], theirs: Sequence[int]) -> dict[str, int]:
    return {
        "attacker": sum(mine),
        "attacker_high": max(mine),
        "attacker_low": min(mine),
        "target": sum(theirs),
        "target_high": max(theirs),
        "target_low": min(theirs),
    }


def _test(text: str, q: dict[str, Any]) -> bool:
    found = COMPARISON.match(text)
    assert found is not None  # load.py checked every comparison
    left, op, right = found.groups()
    return bool(_OPS[op](q[left], q[right]))
