"""The file format of ``catalogs/<id>/odds.yaml``: which dice mechanics a rule set uses, as data.

A rule set's odds file lists its *mechanics*: each is one of a few generic kinds (a
ratio-banded table on NdX, opposed exploding success pools, a banded save, hits on a face
with hits per casualty, a melee between whole units, paired d6-plus-modifier rolls with a
result table). The kind is code; every number, every stat and property it reads and every
situational option (cover, defending, which fight of the turn...) is data here, with the
source line it comes from. Nothing in this module or the engines names a rule set.
"""

# No "from __future__ import annotations": schema.py builds validators from real annotations.
from collections.abc import Mapping
from typing import Any, Literal

from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.formats import Noun, Ruling
from listbuilder.rules.schema import doc

Side = Literal["attacker", "target"]
Sides = Literal["attacker", "target", "both"]
Ratio = int | str  # 2, or "1/4"

WHEN_DOC = (
    "options that must hold, e.g. {attack: melee} or {round: [first]} (a list means any of); leave out for always"
)
UNLESS_DOC = "options that must not hold, e.g. {attacker_fight: 1}"
WHERE_DOC = "only choices whose properties have these values (absent counts as null; 'name' is the choice's name)"


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


_COMMON = {
    "id": "a short name, used as matchup(..., mechanic=ID)",
    "title": "its title on a card or a table",
    "source": "the lines of the source text it follows",
}


@record
class RatioTable(Record):
    """Roll NdX against a column chosen by the ratio of the two sides' stat; results by threshold."""

    kind: Literal["ratio_table"] = doc("'ratio_table'")
    id: str = doc(_COMMON["id"])
    title: str = doc(_COMMON["title"])
    source: str = doc(_COMMON["source"])
    options: Mapping[str, Option] = doc("the situational options, by keyword", default_factory=FrozenMap)
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


@record
class BandedSave(Record):
    """A side's save: one die against a roll chosen by the ratio of its stat to a number option."""

    kind: Literal["banded_save"] = doc("'banded_save'")
    id: str = doc(_COMMON["id"])
    title: str = doc(_COMMON["title"])
    source: str = doc(_COMMON["source"])
    options: Mapping[str, Option] = doc("the situational options, by keyword", default_factory=FrozenMap)
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


@record
class OpposedPools(Record):
    """Each side rolls a pool, counts successes (natural faces may add dice); most successes wins."""

    kind: Literal["opposed_pools"] = doc("'opposed_pools'")
    id: str = doc(_COMMON["id"])
    title: str = doc(_COMMON["title"])
    source: str = doc(_COMMON["source"])
    options: Mapping[str, Option] = doc("the situational options, by keyword", default_factory=FrozenMap)
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


@record
class HitsPerCasualty(Record):
    """Shooting: each shot hits on a face; every so many hits (by target and cover) is a casualty."""

    kind: Literal["hits_per_casualty"] = doc("'hits_per_casualty'")
    id: str = doc(_COMMON["id"])
    title: str = doc(_COMMON["title"])
    source: str = doc(_COMMON["source"])
    options: Mapping[str, Option] = doc("the situational options, by keyword", default_factory=FrozenMap)
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


@record
class UnitMelee(Record):
    """Two units fight: the charger strikes first, survivors strike back; draws are refought at once."""

    kind: Literal["unit_melee"] = doc("'unit_melee'")
    id: str = doc(_COMMON["id"])
    title: str = doc(_COMMON["title"])
    source: str = doc(_COMMON["source"])
    options: Mapping[str, Option] = doc("the situational options, by keyword", default_factory=FrozenMap)
    figures: str = doc("the number stat of figures in a unit")
    dice: FromUnit = doc("combat dice per figure")
    hits_per_casualty: FromUnit = doc("hits that make one casualty on a unit")
    hit_on: int = doc("the roll that hits")
    sides: int = doc("sides on each die", default=6)
    first_strike: bool = doc("the attacker (the charger) strikes first in the first round", default=True)
    results: MeleeResults = doc("the names of the outcomes")


@record
class PairedRolls(Record):
    """Each figure rolls one die plus modifiers; a pairing's result table says who dies."""

    kind: Literal["paired_rolls"] = doc("'paired_rolls'")
    id: str = doc(_COMMON["id"])
    title: str = doc(_COMMON["title"])
    source: str = doc(_COMMON["source"])
    options: Mapping[str, Option] = doc("the situational options, by keyword", default_factory=FrozenMap)
    sides: int = doc("sides of each figure's die", default=6)
    modifiers: tuple[Modifier, ...] = doc("added to a figure's roll", default=())
    pairing_option: str = doc("the choice option whose value names the pairing")
    pairings: tuple[Pairing, ...] = doc("the pairings and their result tables")
    requires: tuple[Requirement, ...] = doc("what makes a matchup impossible", default=())
    card_modifiers: tuple[int, ...] = doc("modifier differences shown on the card", default=(0, 1, 2))


Mechanic = RatioTable | BandedSave | OpposedPools | HitsPerCasualty | UnitMelee | PairedRolls
MECHANIC_KINDS: tuple[type, ...] = (RatioTable, BandedSave, OpposedPools, HitsPerCasualty, UnitMelee, PairedRolls)


@record
class OddsFile(Record):
    """``catalogs/<id>/odds.yaml``: a rule set's dice mechanics, for exact matchup odds."""

    source: str = doc("the lines of the source text these mechanics follow")
    matchup: str = doc("the mechanic used when a matchup names none")
    card: tuple[str, ...] = doc("the mechanics whose tables a rules card prints", default=())
    mechanics: tuple[Mechanic, ...] = doc("the mechanics")
    rulings: tuple[Ruling, ...] = doc("readings of the text the odds depend on", default=())

    def mechanic(self, mechanic_id: str) -> Mechanic | None:
        for m in self.mechanics:
            if m.id == mechanic_id:
                return m
        return None
