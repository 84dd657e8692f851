"""What the list doctor answers, as immutable records with ``as_json()`` and plain text."""

from __future__ import annotations

from typing import Any, Literal

from listbuilder.army.phrases import total_text
from listbuilder.army.report import Report
from listbuilder.doctor.slots import StatChange
from listbuilder.errors import Action
from listbuilder.record import Record, record
from listbuilder.rules.formats import Noun


@record
class Step(Record):
    """One edit of the list file that carries out a suggestion (``editing.suggestions.apply_steps``).

    ``count``: entry ``index`` gets ``count`` copies (0 deletes it); ``leaders``: ``count`` of
    entry ``index``'s copies are its leaders; ``add``: a new entry of the catalog unit ``unit``,
    ``count`` copies, ``leaders`` of them leaders (``None``: as the catalog says); ``stat``: stat
    ``key`` of custom entry ``index`` becomes ``value``.
    """

    kind: Literal["count", "leaders", "add", "stat"]
    index: int = -1
    count: int = 0
    unit: str = ""
    leaders: int | None = None
    key: str = ""
    value: Any = None


@record
class Change(Record):
    """One change a suggestion makes, in game words: ``-1 Grave Digger``, ``Scout: Speed 7" → 6"``,
    ``Colonial Marine: unmark 4 leaders``."""

    unit: str
    delta: int  # copies of this profile added (positive) or removed (negative)
    measure: Noun  # what a cost is counted in: point/points
    models: int = 0  # the models those copies are (a unit of 12 figures is 12), signed likewise
    stats: tuple[StatChange, ...] = ()
    cost_change: int = 0  # per copy, for a statline change
    leaders: int = 0  # change in how many of its copies are leaders, signed like delta
    leaders_after: int = 0  # how many are leaders after the change
    leader: Noun | None = None  # the rule set's word for a leader, where leaders are counted
    model_word: str = ""  # 'figures': named when a copy is more than one model

    def statline(self) -> str:
        """``Speed 7" → 6" (-1 point each)``."""
        cost = (
            f"{self.cost_change:+,} {self.measure.of(abs(self.cost_change))} each"
            if self.cost_change
            else "the same cost"
        )
        return f"{', '.join(c.text() for c in self.stats)} ({cost})"

    def text(self) -> str:
        parts = []
        if self.stats:
            parts.append(f"{self.unit}: {self.statline()}")
        lead, plain = (self.leaders, self.delta - self.leaders) if self.leader is not None else (0, self.delta)
        if lead * plain < 0:  # copies kept but marked anew: fewer of one kind, more of the other
            remarked = min(abs(lead), abs(plain))
            marks = self._marks(remarked if lead > 0 else -remarked)
            if parts:  # after its statline, the unit is named once: 'Scout: Speed 7" → 6", unmark the leader'
                marks = marks.removeprefix(f"{self.unit}: ")
            parts.append(marks)
            # What is left is the net change, all of one kind.
            if abs(lead) > abs(plain):
                lead, plain = lead - remarked if lead > 0 else lead + remarked, 0
            else:
                lead, plain = 0, plain - remarked if plain > 0 else plain + remarked
        for n, is_leader in ((plain, False), (lead, True)):
            if n:
                parts.append(self._copies(n, is_leader))
        return ", ".join(parts)

    def _copies(self, n: int, is_leader: bool) -> str:
        """``+2 Hunter``, ``-1 Colonial Marine (leader)``, ``+1 Squad (12 figures)``."""
        name = self.unit + (f" ({self.leader.singular})" if is_leader and self.leader is not None else "")
        size = self.models // self.delta if self.delta else 1
        many = f" ({abs(n * size):,} {self.model_word})" if size != 1 else ""
        return f"{n:+,} {name}{many}"

    def _marks(self, n: int) -> str:
        """``Colonial Marine: make one a leader``, ``Colonial Marine: unmark the leader``."""
        assert self.leader is not None
        word = self.leader
        if n > 0:
            if n == 1:
                return f"{self.unit}: make one a {word.singular}"
            return f"{self.unit}: make {n:,} of them {word.plural}"
        if n == -1 and self.leaders_after == 0 and self.leaders == -1:
            return f"{self.unit}: unmark the {word.singular}"
        return f"{self.unit}: unmark {'one' if n == -1 else f'{-n:,}'} {word.of(-n)}"

    __json__ = ("unit", "leaders", "leaders_after", "change=delta", "models", "stats", "cost_change_each=cost_change")


@record
class Suggestion(Record):
    """A legal list the doctor proposes: its changes, the list it gives, the edits that make it."""

    changes: tuple[Change, ...]
    report: Report  # the proposed list, costed and judged by the validator itself
    models_changed: int  # models added plus models removed (each model counts one)
    steps: tuple[Step, ...]
    basis: str = ""  # a fingerprint of the list text it was made for: applying it elsewhere is refused
    nearness: int = 0  # the last tie-break: the ranks of the repaired statlines it uses (1 = nearest)
    # Where leaders are counted, the tie-break after the models: fix, the copies added, removed or
    # marked anew (a re-mark counts two); fill, the leaders it marks.
    touched: int = 0

    @property
    def legal(self) -> bool:
        return self.report.legal()

    def text(self) -> str:
        """``-1 Grave Digger, -1 Rotting Hound: 100 of 100 points, 14 fighters, legal``."""
        verdict = "legal" if self.legal else "NOT LEGAL"
        warnings = len(self.report.warnings)
        if warnings:
            verdict += f" ({warnings} warning{'s' if warnings != 1 else ''})"
        changes = ", ".join(c.text() for c in self.changes) or "no change"
        return f"{changes}: {total_text(self.report)}, {verdict}"

    def as_json(self) -> dict[str, Any]:
        return {
            "text": self.text(),
            "changes": [c.as_json() for c in self.changes],
            "models_changed": self.models_changed,
            "total": self.report.total,
            "limit": self.report.limit,
            "models": self.report.models,
            "legal": self.legal,
            "problems": [p.as_json() for p in self.report.problems],
        }


@record
class StatlineFix(Record):
    """The nearest legal statlines for a custom unit that breaks its own rules."""

    entry: str  # 'units[0] Scout', as data paths count entries (from 0)
    options: tuple[Change, ...]
    place: str = ""  # '#1 Scout', as players count them (from 1)

    def text(self) -> str:
        return f"{self.place or self.entry}: " + " or ".join(o.statline() for o in self.options)


Status = Literal["fixed", "nothing to fix", "no legal list", "filled", "nothing to add", "not legal"]


@record
class DoctorAnswer(Record):
    """The answer of ``fix`` or ``fill`` for one list: its status, up to three suggestions, why."""

    command: Literal["fix", "fill"]
    status: Status
    report: Report  # the list as it is
    suggestions: tuple[Suggestion, ...] = ()
    statlines: tuple[StatlineFix, ...] = ()
    why: str = ""  # for 'no legal list', 'nothing to add' and 'not legal': the reason
    target: int | None = None  # fill: the total aimed at
    not_encoded: tuple[str, ...] = ()  # force rules the solver could not take into account
    action: Action | None = None  # with ``why``: the next step that helps (fix the list first, fill it)

    @property
    def ok(self) -> bool:
        """Whether the command succeeded: something to suggest, or nothing needed."""
        return self.status in ("fixed", "nothing to fix", "filled", "nothing to add")

    __json__ = (
        "file=report.army.file",
        "command",
        "status",
        "why",
        "total=report.total",
        "limit=report.limit",
        "target",
        "unit=report.unit",
        "suggestions",
        "statlines",
        "not_encoded",
    )
