"""The pieces of a rule set that force rules read: its words, stats and their choices, groups of
models, and unit profiles, as frozen dataclasses.

They are part of the file formats (``formats.py`` re-exports them and ``schema.validate`` checks
YAML against their annotations) but know nothing of force rules, so the force rule kinds
(``forcerules/``) can name them while ``formats.py`` names the kinds, with no circle.
"""

# No "from __future__ import annotations" here: real annotation objects let schema.py build
# validators without evaluating strings (see formats.py).
from collections.abc import Mapping
from typing import Any, Literal

from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.schema import doc

NONE = "none"
EMPTY = "[]"  # an empty list of choices, where one of the choices is called 'none'


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

    def default_value(self) -> int | str | tuple[str, ...] | None:
        """The value of a unit that leaves this stat out: its default, and for a 'choices' stat with
        none, no choices (the rule set's check refuses a default of another kind than the stat's)."""
        if self.kind == "choices":
            return self.default if isinstance(self.default, tuple) else ()
        return self.default

    def show(self, value: Any) -> str:
        """The value as printed, in the one statline grammar (``rules/statline``) the terminal and
        exports write: ``6"``, ``Soldier``, ``attacker + defender``, ``4x Rifle + 1x Repeater``."""
        if isinstance(value, tuple | list):
            return " + ".join(str(v) for v in value) or "none"
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


@record
class UnitVersion(Record):
    """A catalog unit's stats as they were up to and including a catalog revision."""

    revision: int
    stats: Mapping[str, Any]


@record
class Retirement(Record):
    """Why a unit is no longer in its catalogs: the last revision that had it, a note in the
    author's words, and the unit that takes its place, if one does."""

    revision: int
    note: str = ""
    replaced_by: str | None = None


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
    formerly: tuple[str, ...] = ()  # the names it had in older catalog revisions
    retired: Retirement | None = None  # set on a unit taken out of the catalogs, kept for old lists

    def stats_at(self, revision: int) -> Mapping[str, Any]:
        """The stats this unit had in catalog ``revision`` (its current stats if unchanged since)."""
        for version in sorted(self.history, key=lambda v: v.revision):
            if revision <= version.revision:
                return version.stats
        return self.stats


def empty_text(stat: Stat) -> str:
    """An empty list of choices as the grammar writes it: ``none``, or ``[]`` where a choice is called none."""
    return NONE if stat.choice(NONE) is None else EMPTY


def value_text(stat: Stat, value: Any) -> str:
    """One stat's value as the grammar writes it: ``6"``, ``Soldier``, ``attacker + big-guns``, ``none``."""
    if stat.kind == "choices":
        return " + ".join(str(v) for v in value) if value else empty_text(stat)
    return f"{value}{stat.suffix}" if stat.kind == "number" else str(value)
