"""The file format of ``catalogs/<id>/odds.yaml``: which dice mechanics a rule set uses, as data.

A rule set's odds file lists its *mechanics*: each is one of a few generic kinds (a
ratio-banded table on NdX, opposed exploding success pools, a banded save, hits on a face
with hits per casualty, a melee between whole units, paired d6-plus-modifier rolls with a
result table), each kind one class in ``listbuilder/odds/kinds/`` built from the parts in
``parts.py``. The kind is code; every number, every stat and property it reads and every
situational option (cover, defending, which fight of the turn...) is data, with the source
line it comes from. Nothing here names a rule set.
"""

# No "from __future__ import annotations": schema.py builds validators from real annotations.
from collections.abc import Mapping
from typing import Any

from listbuilder.odds.kinds import KINDS, AnyMechanic
from listbuilder.odds.mechanic import Mechanic
from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.formats import Ruling
from listbuilder.rules.schema import doc

MECHANIC_KINDS = KINDS


@record
class AttackKind(Record):
    """A kind of attack the rules describe (melee, ranged, shooting): the mechanic that works it
    out and the option values that make it that kind. Each odds grid shows one kind, and names it."""

    id: str = doc("its word, as a question names the kind, e.g. 'ranged'")
    title: str = doc("its name on a grid, a form or a card, e.g. 'Ranged attack'")
    mechanic: str = doc("the id of the mechanic that works it out")
    situation: Mapping[str, Any] = doc(
        "the options this kind sets, e.g. {attack: ranged}; a form does not offer them", default_factory=FrozenMap
    )
    source: str = doc("where the source text describes it")


@record
class OddsFile(Record):
    """``catalogs/<id>/odds.yaml``: a rule set's dice mechanics, for exact matchup odds."""

    source: str = doc("the lines of the source text these mechanics follow")
    matchup: str = doc("the mechanic used when a matchup names none")
    card: tuple[str, ...] = doc("the mechanics whose tables a rules card prints", default=())
    mechanics: tuple[AnyMechanic, ...] = doc("the mechanics")
    attacks: tuple[AttackKind, ...] = doc(
        "the kinds of attack the rules describe, when there is more than one (the first is the default); "
        "leave out for one kind, the 'matchup' mechanic",
        default=(),
    )
    rulings: tuple[Ruling, ...] = doc("readings of the text the odds depend on", default=())

    def mechanic(self, mechanic_id: str) -> Mechanic | None:
        for m in self.mechanics:
            if m.id == mechanic_id:
                return m
        return None

    def attack_kinds(self) -> tuple[AttackKind, ...]:
        """The kinds of attack: those declared, or the one the ``matchup`` mechanic works out."""
        if self.attacks:
            return self.attacks
        m = self.mechanic(self.matchup)
        return (AttackKind(id=self.matchup, title=m.title if m else self.matchup, mechanic=self.matchup, source=""),)
