"""The constraint kinds of force rules, each one class (see ``base.py`` for what a kind carries)."""

from listbuilder.rules.forcerules.base import CardLine, ForceRule, Linear, LinearForm, NotEncodable, Problem, noun
from listbuilder.rules.forcerules.counts import AtLeast, AtLeastShare, AtMost, AtMostPer, Exactly, Limit
from listbuilder.rules.forcerules.units import Exclusive, StatRange, UnitRule, UnitSize

Constraint = Limit | AtMost | AtLeast | Exactly | AtLeastShare | AtMostPer | StatRange | Exclusive | UnitSize
# Every kind, in the order the README's table gives them.
CONSTRAINT_KINDS: tuple[type[ForceRule], ...] = (
    Limit,
    AtMost,
    AtLeast,
    Exactly,
    AtLeastShare,
    AtMostPer,
    StatRange,
    Exclusive,
    UnitSize,
)

__all__ = [
    "CONSTRAINT_KINDS",
    "AtLeast",
    "AtLeastShare",
    "AtMost",
    "AtMostPer",
    "CardLine",
    "Constraint",
    "Exactly",
    "Exclusive",
    "ForceRule",
    "Limit",
    "Linear",
    "LinearForm",
    "NotEncodable",
    "Problem",
    "StatRange",
    "UnitRule",
    "UnitSize",
    "noun",
]
