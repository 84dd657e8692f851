"""What every force rule kind is: its fields, its check, its card line, its linear encoding.

Each constraint kind is one class (``counts.py`` for rules on the whole force, ``units.py`` for
rules on one unit's statline) that carries everything a kind needs:

- its fields, which *are* the file format of ``system.yaml`` (``schema.validate`` reads them);
- ``definition_errors``: what it names that must exist in its rule set (a stat, a value);
- ``check``: the problems a force has with it, in the game's words;
- ``card``: its line on the printed rules card;
- ``encode``: its rows in the list doctor's integer program (``listbuilder.doctor``). A kind
  that cannot be written as linear rows leaves the default, which raises ``NotEncodable``, so
  the doctor says it could not take the rule into account instead of ignoring it.

A new kind is one new class here plus its line in ``CONSTRAINT_KINDS`` and in the README.
"""

# No "from __future__ import annotations": the fields' real annotation objects are what
# schema.py builds validators from (see formats.py). Names only needed by type checkers are quoted.
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, Protocol

from listbuilder.errors import Action, Location
from listbuilder.record import Record, record
from listbuilder.rules.profiles import Group, Noun, Stat, Unit
from listbuilder.rules.schema import doc

Severity = Literal["error", "warning"]


# What a kind reads of the rule set, the list and the force, as protocols: the rule set's file
# (``formats.SystemFile``) and the loaded rule set (``system.System``) hold the force rules, and the
# force is judged in ``army``, so naming those classes here would make a circle.


class RuleSetFile(Protocol):
    """What a kind reads of its rule set's definition (``formats.SystemFile``)."""

    @property
    def model(self) -> Noun: ...

    @property
    def stats(self) -> Mapping[str, Stat]: ...

    @property
    def groups(self) -> Mapping[str, Group]: ...

    @property
    def figures_stat(self) -> str | None: ...


class RuleSet(Protocol):
    """What a kind reads of its loaded rule set (``system.System``)."""

    @property
    def definition(self) -> RuleSetFile: ...

    @property
    def measure(self) -> Noun: ...


class ForceEntry(Protocol):
    """What a kind reads of one line of a list (``formats.Entry``)."""

    @property
    def unit(self) -> Unit: ...

    @property
    def label(self) -> str: ...

    @property
    def index(self) -> int: ...


class Force(Protocol):
    """What a kind's ``check`` may ask of the force it judges (``army.constraints.Force``)."""

    @property
    def system(self) -> RuleSet: ...

    @property
    def entries(self) -> Sequence[ForceEntry]: ...

    @property
    def total(self) -> int: ...

    @property
    def limit(self) -> int | None: ...

    def size(self, unit: Unit) -> int:
        """How many models one copy of ``unit`` is."""
        ...

    def all_models(self) -> int:
        """How many models the whole force has."""
        ...

    def members(self, group: Group | None) -> Sequence[tuple[ForceEntry, int]]:
        """The entries with models in ``group`` and how many each has (every model if no group)."""
        ...


@record
class Problem(Record):
    """One broken rule: how serious, which rule (in the game's words), by how much, and where."""

    severity: str
    rule_id: str
    rule: str
    message: str
    entry: str | None = None  # the entries it is about, as data paths: 'units[0] NAME'
    source: str = ""
    title: str = ""
    action: "Action | None" = None  # a next step a face may offer with it (errors.Action)
    entries: tuple[int, ...] = ()  # the indices (from 0) of the entries it is about
    line: int | None = None  # the list file's line: of its first entry, or the limit's for a limit

    __json__ = ("severity", "rule", "rule_id", "message", "entry", "line")


@record
class CardLine(Record):
    """A force rule as the rules card prints it."""

    rule: str
    source: str
    severity: str


class NotEncodable(Exception):
    """A rule the list doctor cannot write as linear rows; the doctor names it in its answer."""

    def __init__(self, rule: "ForceRule", why: str) -> None:
        super().__init__(why)
        self.rule = rule
        self.why = why


class Linear:
    """A linear expression over the doctor's integer variables: ``sum(coefficient * x) + constant``."""

    __slots__ = ("constant", "terms")

    def __init__(self, terms: dict[int, int] | None = None, constant: int = 0) -> None:
        self.terms = {k: v for k, v in (terms or {}).items() if v}
        self.constant = constant

    def __add__(self, other: "Linear | int") -> "Linear":
        if isinstance(other, int):
            return Linear(self.terms, self.constant + other)
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, 0) + v
        return Linear(terms, self.constant + other.constant)

    def __radd__(self, other: int) -> "Linear":
        return self + other

    def __mul__(self, factor: int) -> "Linear":
        return Linear({k: v * factor for k, v in self.terms.items()}, self.constant * factor)

    __rmul__ = __mul__

    def __sub__(self, other: "Linear | int") -> "Linear":
        return self + (-1) * other if isinstance(other, Linear) else self + (-other)

    def __rsub__(self, other: int) -> "Linear":
        return (-1) * self + other

    def value(self, x: Sequence[int]) -> int:
        return self.constant + sum(v * x[k] for k, v in self.terms.items())


class LinearForm(Protocol):
    """What a kind's ``encode`` may ask of the doctor's integer program (``doctor/program.py``)."""

    @property
    def system(self) -> RuleSet: ...

    @property
    def limit(self) -> int | None: ...

    def total(self) -> Linear:
        """The force's total cost (points or figures)."""
        ...

    def models(self, group: Group | None) -> Linear:
        """How many models of ``group`` (every model for ``None``), as the checks count them."""
        ...

    def columns(self) -> Iterable[tuple[Unit, int, Linear]]:
        """Each unit profile the program may field: the unit, its models per copy, its copies."""
        ...

    def largest(self, expr: Linear) -> int:
        """The largest value ``expr`` can take within the program's bounds."""
        ...

    def integer(self, low: int, high: int) -> Linear:
        """A new integer variable in ``[low, high]``."""
        ...

    def require(self, expr: Linear, low: int | None = None, high: int | None = None) -> None:
        """Add the row ``low <= expr <= high``."""
        ...


class Definition(Protocol):
    """How a kind reports what it names that its rule set lacks (``checks.check_system``)."""

    def need_stat(self, path: Location, key: str | None, kinds: tuple[str, ...]) -> None: ...

    def need_values(self, path: Location, key: str | None, values: Iterable[str]) -> None: ...

    def need_group(self, path: Location, name: str | None) -> None: ...

    def error(self, path: Location, message: str) -> None: ...


@record
class ForceRule(Record):
    """What every force rule has: a name, the rule in words, where the text gives it, how serious."""

    id: str = doc("a short name, e.g. 'max-rare'")
    rule: str = doc("the rule in plain words, as shown to players")
    title: str = doc("a short name in the game's words, e.g. 'at most 2 rare fighters'", default="")
    source: str = doc("where the source text (or a ruling) gives it", default="")
    severity: Severity = doc("'error' (the list is not legal) or 'warning' (advice)", default="error")

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        """Report what this rule names that ``d`` does not have (a group is checked for every kind)."""
        need.need_group((*where, "of"), getattr(self, "of", None))

    def check(self, force: Force) -> list[Problem]:
        """The problems ``force`` has with this rule, in the game's words."""
        raise NotImplementedError(f"{type(self).__name__} has no check")

    def card(self) -> CardLine:
        """This rule on the rules card: its own words (data), where it comes from, how serious."""
        return CardLine(rule=self.rule, source=self.source, severity=self.severity)

    def judges_stat(self, d: RuleSetFile, key: str) -> bool:
        """Whether this rule judges the stat ``key`` of a unit (the editor schema lists it there)."""
        return False

    def encode(self, form: LinearForm) -> None:
        """Add this rule's rows to the doctor's integer program."""
        raise NotEncodable(self, f"the doctor has no linear form for '{getattr(self, 'kind', type(self).__name__)}'")

    def problem(self, message: str, entry: str | None = None, entries: tuple[int, ...] = ()) -> Problem:
        return Problem(
            severity=self.severity,
            rule_id=self.id,
            rule=self.rule,
            message=message,
            entry=entry,
            source=self.source,
            title=self.title,
            entries=entries,
        )


def noun(system: RuleSet, group: Group | None, n: int) -> str:
    """'fighters', 'basic fighter', 'leaders': the words for ``n`` members of a group."""
    words = system.definition.model.of(n)
    if group is None:
        return words
    if group.noun is not None:
        return group.noun.of(n)
    return f"{group.label} {words}"


def contributors(members: Sequence[tuple[ForceEntry, int]]) -> str:
    parts = [f"{e.unit.name} ×{n}" if n != 1 else e.unit.name for e, n in members[:6]]
    if len(members) > 6:
        parts.append(f"and {len(members) - 6} more")
    return ", ".join(parts)


def entry_labels(members: Sequence[tuple[ForceEntry, int]]) -> str:
    return ", ".join(e.label for e, _ in members)


def entry_indices(members: Sequence[tuple[ForceEntry, int]]) -> tuple[int, ...]:
    return tuple(e.index for e, _ in members)


def group_of(system: RuleSet, rule: Any) -> Group | None:
    name = getattr(rule, "of", None)
    return system.definition.groups[name] if name else None
