"""The data model of a rule set, its unit catalogs and an army list, as frozen dataclasses.

These classes *are* the file formats: ``schema.validate`` checks YAML against their
annotations, and each field's ``doc`` is the documentation a catalog author reads (the README
and the JSON Schema quote them). Nothing here names a rule set: every rule is data.
"""

# No "from __future__ import annotations" here: real annotation objects let schema.py build
# validators without evaluating strings, which is a measurable part of start-up time.
from collections.abc import Mapping
from typing import Any

from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.costs import Cost
from listbuilder.rules.costs import FiguresCost as FiguresCost  # (re-exported: part of this format)
from listbuilder.rules.costs import LinearCost as LinearCost
from listbuilder.rules.costs import LinearTerm as LinearTerm
from listbuilder.rules.costs import StatCost as StatCost
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
from listbuilder.rules.profiles import Choice as Choice  # (re-exported: part of this format)
from listbuilder.rules.profiles import Group as Group
from listbuilder.rules.profiles import Noun as Noun
from listbuilder.rules.profiles import Retirement as Retirement
from listbuilder.rules.profiles import Stat as Stat
from listbuilder.rules.profiles import Unit as Unit
from listbuilder.rules.profiles import UnitVersion as UnitVersion
from listbuilder.rules.schema import doc

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
    retired: tuple[Mapping[str, Any], ...] = doc(
        "units taken out of the catalogs, each with its last stats, the last 'revision' that had it, a 'note'"
        " and the unit that 'replaced_by' it, if one does: lists that name one still load, with a warning",
        default=(),
    )


# --- resolved, ready-to-use objects ----------------------------------------------------------


@record
class Entry(Record):
    """One line of an army list: a unit profile taken ``count`` times."""

    index: int
    unit: Unit
    count: int
    leaders: int  # how many of the ``count`` copies are leaders (0 to ``count``)
    custom: bool
    line: int | None = None  # where the entry starts in its list file
    named: str = ""  # the unit's former name, when the list names it by that

    @property
    def number(self) -> int:
        """The entry's number as players count it, from 1 (``index`` counts from 0, as data paths do)."""
        return self.index + 1

    @property
    def leader(self) -> bool:
        """Whether every copy is a leader (``leader: true``), as a catalog leader profile is taken."""
        return self.leaders == self.count

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
    limit_line: int | None = None  # the list file's line of its limit ("points: 100"), if written
    units_line: int | None = None  # and of its "units:"
