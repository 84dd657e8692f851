"""The data model of a rule set, its unit catalogs and an army list, as frozen dataclasses.

These classes *are* the file formats: ``schema.validate`` checks YAML against their
annotations, and each field's ``doc`` is the documentation a catalog author reads (the README
and the JSON Schema quote them). Nothing here names a rule set: every rule is data.
"""

# No "from __future__ import annotations" here: real annotation objects let schema.py build
# validators without evaluating strings, which is a measurable part of start-up time.
from collections.abc import Mapping
from typing import Any, Literal

from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.forcerules import (  # noqa: F401  (the kinds are part of this format)
    CONSTRAINT_KINDS,
    AtLeast,
    AtLeastShare,
    AtMost,
    AtMostPer,
    Constraint,
    Exactly,
    Exclusive,
    ForceRule,
    Limit,
    StatRange,
    UnitSize,
)
from listbuilder.rules.forcerules.base import Severity  # noqa: F401
from listbuilder.rules.schema import doc


@record
class Noun(Record):
    """A game word for one and for many: ``fighter`` / ``fighters``, ``point`` / ``points``."""

    singular: str = doc("the word for one, e.g. 'fighter'")
    plural: str = doc("the word for several, e.g. 'fighters'")
    source: str = doc("where the source text uses the word (leave out for a word of ours)", default="")

    def of(self, n: int) -> str:
        return self.singular if n == 1 else self.plural

    @property
    def title(self) -> str:
        """The word for one as a heading or tag: ``Leader``."""
        return self.singular[:1].upper() + self.singular[1:]


@record
class Choice(Record):
    """One allowed value of a choice stat (a class, a figure type, a trait, a weapon)."""

    name: str = doc("the value as the rules name it, e.g. 'Archer'")
    summary: str = doc("what it does, in our own words", default="")
    properties: Mapping[str, Any] = doc(
        "facts the rules attach to it (attacks, moves, range...)", default_factory=FrozenMap
    )
    source: str = doc("where the source text gives it, e.g. 'line 8'", default="")


@record
class Stat(Record):
    """One stat of a unit: a number, one choice from a list, or any number of choices."""

    label: str = doc("the name players use, e.g. 'Might'")
    kind: Literal["number", "choice", "choices"] = doc("'number', 'choice' (one of) or 'choices' (any of)")
    choices: tuple[Choice, ...] = doc("for 'choice' and 'choices': the allowed values", default=())
    suffix: str = doc("written after a number, e.g. '\"' for inches", default="")
    required: bool = doc("whether a custom unit must give it", default=True)
    default: int | str | tuple[str, ...] | None = doc("the value when a unit leaves it out", default=None)
    item: str | None = doc(
        "for 'choices', where units are groups of figures: the word for one item, e.g. 'weapon'; a unit "
        "may then say how many of its figures carry each item, {weapon: Rifle, figures: 4}",
        default=None,
    )
    summary: str = doc("what the stat means, in our own words", default="")
    source: str = doc("where the source text defines it", default="")

    def choice(self, name: str) -> Choice | None:
        lowered = name.lower()
        for c in self.choices:
            if c.name.lower() == lowered:
                return c
        return None

    def show(self, value: Any) -> str:
        """The value as printed: ``6"``, ``Soldier``, ``attacker, defender``, ``4x Rifle, 1x Repeater``."""
        if isinstance(value, tuple | list):
            return ", ".join(str(v) for v in value) or "none"
        return f"{value}{self.suffix}"


@record
class Group(Record):
    """A named selection of models that force rules count: 'basic fighters', 'leaders'."""

    label: str = doc("the adjective or noun used in messages, e.g. 'basic' gives '3 basic fighters'")
    stat: str | None = doc("select models whose value of this stat is one of 'any_of'", default=None)
    any_of: tuple[str, ...] = doc("the values of 'stat' that are in the group", default=())
    leader: bool | None = doc("select models that are (true) or are not (false) leaders", default=None)
    noun: Noun | None = doc("words for the group's members when the label is a noun, e.g. leader/leaders", default=None)
    source: str = doc("where the source text defines the group", default="")


# --- costing ---------------------------------------------------------------------------------


@record
class LinearTerm(Record):
    """``points`` for each full ``per`` of a stat: 2 points per 3 inches of Range."""

    stat: str = doc("the stat priced")
    points: int = doc("points for each full step")
    per: int = doc("the size of one step", default=1)


@record
class LinearCost(Record):
    """A unit costs the sum of its priced stats (per-stat linear formula)."""

    kind: Literal["linear"] = doc("'linear'")
    terms: tuple[LinearTerm, ...] = doc("one term per priced stat")
    source: str = doc("where the source text gives the formula", default="")


@record
class StatCost(Record):
    """A unit costs the value of one stat (cost = Might)."""

    kind: Literal["stat"] = doc("'stat'")
    stat: str = doc("the stat whose value is the cost")
    source: str = doc("where the source text says so", default="")


@record
class FiguresCost(Record):
    """Force size in figures, some types weighing more (vehicles and monsters count as 3)."""

    kind: Literal["figures"] = doc("'figures'")
    weight_stat: str | None = doc("the stat that sets a figure's weight, e.g. 'type'", default=None)
    weights: Mapping[str, int] = doc(
        "weight per value of 'weight_stat'; others weigh 'default'", default_factory=FrozenMap
    )
    default: int = doc("the weight of any other figure", default=1)
    source: str = doc("where the source text (or a ruling) gives the weighting", default="")


Cost = LinearCost | StatCost | FiguresCost


# --- force rules: each constraint kind is one class in rules/forcerules/ ---------------------


@record
class Ruling(Record):
    """A declared reading where the source text is silent, ambiguous or incomplete."""

    id: str = doc("a short name")
    text: str = doc("the reading, in plain words")
    source: str = doc("the line(s) of the source text it reads", default="")


@record
class SystemFile(Record):
    """``catalogs/<id>/system.yaml``: a rule set's stats, costing, force rules and rulings."""

    id: str = doc("the rule set id, the same as its folder name")
    name: str = doc("the rule set's title")
    extends: str | None = doc(
        "a variant: the id of the rule set it varies; the file then gives only what differs", default=None
    )
    summary: str = doc("one or two sentences on what kind of game it is")
    source: str = doc("the source text: title and author or publication")
    revision: int = doc("bump when units or costs change, so saved lists can notice")
    model: Noun = doc("what one model is called")
    force: str = doc("what a force is called, e.g. 'warband'")
    measure: Noun = doc(
        "what a force's size and a unit's cost are counted in, e.g. point/points, or figure/figures where the"
        " cost kind is 'figures'; the plural is also the list file's key for the limit ('points: 100')"
    )
    leader: Noun = doc("what the rules call a model that leads, e.g. leader/leaders, as rosters and exports print it")
    stats: Mapping[str, Stat] = doc("the stats a unit has, by key (the key used in list files)")
    cost: Cost = doc("how a unit is costed")
    figures_stat: str | None = doc(
        "the stat giving the number of models in one unit, if units are groups", default=None
    )
    default_limit: int | None = doc("the standard size of a game, used when a list gives none", default=None)
    default_limit_source: str = doc("where the source text gives the standard size", default="")
    groups: Mapping[str, Group] = doc("named selections that the force rules count", default_factory=FrozenMap)
    constraints: tuple[Constraint, ...] = doc("the force rules", default=())
    rulings: tuple[Ruling, ...] = doc("declared readings of the text", default=())


@record
class FactionFile(Record):
    """``catalogs/<id>/factions/*.yaml``: a faction of ready-made units."""

    faction: str = doc("the faction's name")
    summary: str = doc("a sentence on the faction", default="")
    source: str = doc("where the units come from, e.g. the source text's example", default="")
    units: tuple[Mapping[str, Any], ...] = doc("the units: a name and the rule set's stats each")


# --- resolved, ready-to-use objects ----------------------------------------------------------


@record
class UnitVersion(Record):
    """A catalog unit's stats as they were up to and including a catalog revision."""

    revision: int
    stats: Mapping[str, Any]


@record
class Unit(Record):
    """A unit profile: a catalog unit or a custom one from a list, with stats checked for type."""

    name: str
    stats: Mapping[str, Any]
    leader: bool = False
    faction: str | None = None
    notes: str = ""
    source: str = ""
    history: tuple[UnitVersion, ...] = ()

    def stats_at(self, revision: int) -> Mapping[str, Any]:
        """The stats this unit had in catalog ``revision`` (its current stats if unchanged since)."""
        for version in sorted(self.history, key=lambda v: v.revision):
            if revision <= version.revision:
                return version.stats
        return self.stats


@record
class Entry(Record):
    """One line of an army list: a unit profile taken ``count`` times."""

    index: int
    unit: Unit
    count: int
    leader: bool
    custom: bool

    @property
    def label(self) -> str:
        return f"units[{self.index}] {self.unit.name}"


@record
class ArmyList(Record):
    """A whole list: its rule set, name, limit (or ``None``) and entries."""

    system: str
    name: str
    limit: int | None
    entries: tuple[Entry, ...]
    file: str | None = None
    revision: int | None = None
