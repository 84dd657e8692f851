"""The parts odds mechanics are made of (``mechanic.py`` has ``Mechanic``, the class every kind derives from).

A rule set's ``odds.yaml`` lists its *mechanics*; each is one of a few generic kinds (in
``listbuilder/odds/kinds/``), built from the parts here: situational options, numbers read from
a unit, modifiers, rolls, bands of a ratio, named results. Every number, stat, property and
option is data, with the source line it comes from. Nothing here names a rule set.
"""

# No "from __future__ import annotations": schema.py builds validators from real annotations.
import operator
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.schema import doc

if TYPE_CHECKING:
    from listbuilder.rules.system import System

Side = Literal["attacker", "target"]
Sides = Literal["attacker", "target", "both"]
Ratio = int | str  # 2, or "1/4"

WHEN_DOC = (
    "options that must hold, e.g. {attack: melee} or {round: [first]} (a list means any of); leave out for always"
)
UNLESS_DOC = "options that must not hold, e.g. {attacker_fight: 1}"


@record
class Option(Record):
    """A situational option of a mechanic: a keyword of ``matchup(..., cover='soft')``."""

    summary: str = doc("what it means at the table, in our own words")
    kind: Literal["flag", "number", "choice"] = doc("'flag' (true/false), 'number' or 'choice' (one of 'values')")
    default: bool | int | str | None = doc("the value when a matchup does not give it; null: see the summary")
    values: tuple[str, ...] = doc("for 'choice': the allowed values", default=())
    values_from: str | None = doc("for 'choice': also allow the names of this stat's choices", default=None)
    minimum: int | None = doc("for 'number': the smallest value allowed", default=None)
    maximum: int | None = doc("for 'number': the largest value allowed", default=None)
    source: str = doc("where the source text gives it")


@record
class FromUnit(Record):
    """A number read from a unit: a number stat, or a property of its choice(s) (summed for 'choices')."""

    stat: str = doc("the stat read, e.g. 'power' or 'type'")
    property: str | None = doc("for a choice stat: the property read, e.g. 'attacks'", default=None)
    where: Mapping[str, Any] = doc(
        "only choices whose properties have these values (absent counts as null)", default_factory=FrozenMap
    )
    source: str = doc("where the source text gives it", default="")


@record
class Modifier(Record):
    """A number added to each die (or roll) of one side: a fixed amount, or read from its choices."""

    side: Sides = doc("'attacker', 'target' or 'both'")
    add: int | None = doc("a fixed amount, e.g. 1; or give 'stat' and 'property'", default=None)
    stat: str | None = doc("a choice(s) stat whose chosen values' 'property' gives the amount", default=None)
    property: str | None = doc(
        "the property holding the amount, e.g. 'bonus' or 'own_turn' ('+1' is read as 1)", default=None
    )
    where: Mapping[str, Any] = doc(
        "only choices whose properties have these values (absent counts as null)", default_factory=FrozenMap
    )
    when: Mapping[str, Any] = doc(WHEN_DOC, default_factory=FrozenMap)
    unless: Mapping[str, Any] = doc(UNLESS_DOC, default_factory=FrozenMap)
    figures: Literal["all", "one"] = doc(
        "'all' figures of the side, or 'one' (e.g. only the leader figure)", default="all"
    )
    source: str = doc("where the source text gives it")


@record
class DiceChange(Record):
    """More or fewer dice by a number option: ``per`` dice for each step of the option past ``start``."""

    side: Side = doc("whose dice change")
    option: str = doc("the number option counted, e.g. 'attacker_fight'")
    per: int = doc("dice gained (or lost, if negative) for each step past 'start'")
    start: int = doc("the option's value that changes nothing", default=1)
    floor: int | None = doc("never fewer dice than this (nor than the unit had, if fewer)", default=None)
    when: Mapping[str, Any] = doc(WHEN_DOC, default_factory=FrozenMap)
    unless: Mapping[str, Any] = doc(UNLESS_DOC, default_factory=FrozenMap)
    source: str = doc("where the source text gives it")


@record
class Requirement(Record):
    """A matchup that is impossible unless a side's choice has a property (or is one of some values)."""

    side: Side = doc("whose stat is tested")
    stat: str = doc("a choice(s) stat")
    property: str | None = doc("a property that must equal 'equals'; or give 'any_of'", default=None)
    equals: Any = doc("the value the property must have", default=True)
    any_of: tuple[str, ...] = doc("choice names, one of which the side must have", default=())
    when: Mapping[str, Any] = doc(WHEN_DOC, default_factory=FrozenMap)
    unless: Mapping[str, Any] = doc(UNLESS_DOC, default_factory=FrozenMap)
    reason: str = doc("why not, as a message ends: 'cannot make ranged attacks'")
    source: str = doc("where the source text gives it")


@record
class Override(Record):
    """A fixed number that replaces a side's usual one, e.g. success only on a 6 when panicked."""

    side: Sides = doc("whose number is replaced")
    value: int = doc("the number used instead")
    when: Mapping[str, Any] = doc(WHEN_DOC, default_factory=FrozenMap)
    unless: Mapping[str, Any] = doc(UNLESS_DOC, default_factory=FrozenMap)
    source: str = doc("where the source text gives it")


@record
class Band(Record):
    """One column of a ratio table: the ratio (side's stat / other's stat) it covers, and its numbers."""

    column: str = doc("the column heading as printed, e.g. '¼ or less'")
    above: Ratio | None = doc("the ratio is greater than this", default=None)
    at_least: Ratio | None = doc("the ratio is at least this", default=None)
    below: Ratio | None = doc("the ratio is less than this", default=None)
    at_most: Ratio | None = doc("the ratio is at most this", default=None)
    needs: tuple[int, ...] = doc("the roll needed for each result, best first: [18, 16]", default=())
    save_on: int | None = doc("for a save: the die roll that saves", default=None)
    source: str = doc("where the source text gives it")


@record
class Roll(Record):
    """A roll of dice summed: NdX, keeping the highest K."""

    dice: int = doc("how many dice")
    sides: int = doc("sides on each die", default=6)
    keep_highest: int | None = doc("keep only the highest K dice; leave out to keep all", default=None)


@record
class SpecialRoll(Record):
    """A different roll for a side whose choice has a property, e.g. 4D6 drop the lowest in melee."""

    roll: Roll = doc("the roll made instead")
    side: Side = doc("who rolls it", default="attacker")
    stat: str = doc("a choice(s) stat")
    property: str = doc("the property tested, e.g. 'four_dice'")
    equals: Any = doc("the value it must have, e.g. 'in melee'", default=True)
    when: Mapping[str, Any] = doc(WHEN_DOC, default_factory=FrozenMap)
    unless: Mapping[str, Any] = doc(UNLESS_DOC, default_factory=FrozenMap)
    source: str = doc("where the source text gives it")


@record
class Multiplier(Record):
    """A flag option that multiplies a side's stat, e.g. a defending target's Might is doubled."""

    option: str = doc("the flag option")
    factor: Ratio = doc("the factor: 2, or '1/2'")
    side: Side = doc("whose stat", default="target")
    source: str = doc("where the source text gives it")


@record
class Result(Record):
    """A named result and how many models it removes from each side."""

    name: str = doc("as printed, e.g. 'target killed'")
    kills: int = doc("models of the target it removes", default=0)
    losses: int = doc("models of the attacker it removes", default=0)
    faces: tuple[int, ...] = doc("for a save: only these die faces give this result", default=())
    when: tuple[str, ...] = doc(
        "for paired rolls: comparisons that must all hold, e.g. 'target > attacker'", default=()
    )
    source: str = doc("where the source text gives it", default="")


@record
class OddFails(Record):
    """A choice option under which an odd total fails (e.g. a target in partial cover)."""

    option: str = doc("the option")
    values: tuple[str, ...] = doc("its values under which odd totals fail")
    source: str = doc("where the source text gives it")


@record
class Upgrade(Record):
    """Under a flag option, one result counts as another (a stunned target that is stunned again dies)."""

    option: str = doc("the flag option")
    result: str = doc("the result name changed")
    becomes: str = doc("the result name it counts as")
    source: str = doc("where the source text gives it")


@record
class Save(Record):
    """A saving throw the losing target makes, its roll set by a choice option (cover)."""

    option: str = doc("the choice option, e.g. 'cover'")
    on: Mapping[str, int] = doc("the roll that saves for each value of the option that gives a save, e.g. {soft: 5}")
    sides: int = doc("sides of the save die", default=6)
    source: str = doc("where the source text gives it")


@record
class Reach(Record):
    """The loser dies only if within the winner's reach; the fight's distance is an option."""

    stat: str = doc("the number stat giving reach, e.g. 'range'")
    option: str = doc("the number option giving the distance; when not given, the attacker's reach")
    source: str = doc("where the source text gives it")


@record
class HitsNeeded(Record):
    """Hits per casualty, read from the target's choice property chosen by a choice option (cover)."""

    stat: str = doc("the target's choice stat, e.g. 'type'")
    option: str = doc("the choice option, e.g. 'cover'")
    properties: Mapping[str, str] = doc("for each option value, the property to read, e.g. {open: hits_open}")
    source: str = doc("where the source text gives it")


@record
class Harm(Record):
    """Only weapons with a property harm targets with a property (Destroyers against vehicles)."""

    target_stat: str = doc("the target's choice stat, e.g. 'type'")
    target_property: str = doc("the property that makes a target hard to harm, e.g. 'big_and_tough'")
    weapon_property: str = doc("the property a weapon needs to harm it, e.g. 'harms_big_and_tough'")
    source: str = doc("where the source text gives it")


@record
class DamageRoll(Record):
    """Targets with a property roll a die instead of becoming a casualty; high rolls remove them."""

    stat: str = doc("the target's choice stat")
    property: str = doc("the true/false property of the targets that roll")
    removed_on: int = doc("the roll that removes the model, or better")
    sides: int = doc("sides of the die", default=6)
    source: str = doc("where the source text gives the table")


@record
class Pairing(Record):
    """One pairing of figures (1-on-1, 2-on-1) and its result table, checked in order."""

    id: str = doc("the value of the pairing option, e.g. '2-on-1'")
    attacker_figures: int = doc("the attacker's figures in it (1 or 2)")
    target_figures: int = doc("the target's figures in it (1 or 2)")
    results: tuple[Result, ...] = doc("the results, first match wins; the last may have no 'when'")
    source: str = doc("where the source text gives it")


@record
class PoolResults(Record):
    """The names of an opposed roll's results, as printed: the rule set's own words."""

    won: str = doc("the attacker wins, e.g. 'target killed'")
    lost: str = doc("the target wins, e.g. 'attacker killed'")
    saved: str | None = doc("the attacker wins but the target saves (needed with 'save')", default=None)
    out_of_reach: str | None = doc(
        "the target wins but cannot reach the attacker (needed with 'reach'), e.g. 'attack fails'", default=None
    )
    source: str = doc("where the source text names them", default="")


@record
class MeleeResults(Record):
    """The names of a melee's decided outcomes, as printed: the rule set's own words."""

    attacker_wins: str = doc("the target unit is destroyed, e.g. 'target destroyed'")
    target_wins: str = doc("the attacker unit is destroyed, e.g. 'attacker destroyed'")
    both: str = doc("both units are destroyed, e.g. 'both destroyed'")
    undecided: str = doc("the fight can never be decided (neither side can cause a casualty)")
    source: str = doc("where the source text names them", default="")


def ratio(value: int | str | None) -> Fraction | None:
    """A ratio as written (2, '1/4', '0.5'), or ``None`` when it cannot be read."""
    if value is None:
        return None
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        return None


def in_band(band: Band, value: Fraction, against: Fraction) -> bool:
    """Whether value / against lies in the band (compared without dividing, so 0 is fine).

    Compared in whole numbers (value * d against n * against for a bound n/d), each written
    bound read once: a matrix asks this for every band of every cell."""
    vn, vd = value.numerator, value.denominator
    an, ad = against.numerator, against.denominator
    for written, compare in _BOUNDS:
        bound = _ratio(getattr(band, written))
        if bound is not None and not compare(vn * bound.denominator * ad, bound.numerator * an * vd):
            return False
    return True


_BOUNDS = (("above", operator.gt), ("at_least", operator.ge), ("below", operator.lt), ("at_most", operator.le))


@lru_cache(maxsize=256)
def _ratio(value: int | str | None) -> Fraction | None:
    return ratio(value)


def pick(bands: Sequence[Band], value: Fraction, against: Fraction) -> Band:
    """The band a ratio falls in (the bands cover every ratio; the checker makes sure)."""
    return next(b for b in bands if in_band(b, value, against))


def option_values(system: "System", option: Option) -> tuple[str, ...]:
    """The values a choice option allows, including those of the stat it takes them from."""
    extra: tuple[str, ...] = ()
    if option.values_from and option.values_from in system.definition.stats:
        extra = tuple(c.name for c in system.definition.stats[option.values_from].choices)
    return (*option.values, *extra)
