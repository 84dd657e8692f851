"""What the list doctor answers, as immutable records with ``as_json()`` and plain text."""

from __future__ import annotations

from typing import Any, Literal

from listbuilder.army.phrases import total_text
from listbuilder.army.report import Report
from listbuilder.doctor.slots import StatChange
from listbuilder.record import Record, record
from listbuilder.rules.formats import Noun


@record
class Step(Record):
    """One edit of the list file that carries out a suggestion (``share/editing.apply_steps``).

    ``count``: entry ``index`` gets ``count`` copies (0 deletes it); ``add``: a new entry of the
    catalog unit ``unit``, ``count`` copies, taken as a leader or not (``leader``, when it
    differs from the catalog); ``stat``: stat ``key`` of custom entry ``index`` becomes ``value``.
    """

    kind: Literal["count", "add", "stat"]
    index: int = -1
    count: int = 0
    unit: str = ""
    leader: bool | None = None
    key: str = ""
    value: Any = None


@record
class Change(Record):
    """One change a suggestion makes, in game words: ``-1 Grave Digger``, ``Scout: Speed 7" → 6"``."""

    unit: str
    delta: int  # copies of this profile added (positive) or removed (negative)
    leader: bool
    measure: Noun  # what a cost is counted in: point/points
    models: int = 0  # the models those copies are (a unit of 12 figures is 12), signed likewise
    stats: tuple[StatChange, ...] = ()
    cost_change: int = 0  # per copy, for a statline change
    leader_word: str = ""
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
        name = self.unit + (f" ({self.leader_word})" if self.leader and self.leader_word else "")
        parts = []
        if self.stats:
            parts.append(f"{name}: {self.statline()}")
        if self.delta:
            many = f" ({abs(self.models):,} {self.model_word})" if abs(self.models) != abs(self.delta) else ""
            parts.append(f"{self.delta:+,} {name}{many}")
        return ", ".join(parts)

    def as_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "leader": self.leader,
            "change": self.delta,
            "models": self.models,
            "stats": [c.as_json() for c in self.stats],
            "cost_change_each": self.cost_change,
        }


@record
class Suggestion(Record):
    """A legal list the doctor proposes: its changes, the list it gives, the edits that make it."""

    changes: tuple[Change, ...]
    report: Report  # the proposed list, costed and judged by the validator itself
    models_changed: int  # models added plus models removed (each model counts one)
    steps: tuple[Step, ...]
    basis: str = ""  # a fingerprint of the list text it was made for: applying it elsewhere is refused
    nearness: int = 0  # the last tie-break: the ranks of the repaired statlines it uses (1 = nearest)

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

    entry: str  # 'units[0] Scout'
    options: tuple[Change, ...]

    def text(self) -> str:
        return f"{self.entry}: " + " or ".join(o.statline() for o in self.options)

    def as_json(self) -> dict[str, Any]:
        return {"entry": self.entry, "options": [o.as_json() for o in self.options]}


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

    @property
    def ok(self) -> bool:
        """Whether the command succeeded: something to suggest, or nothing needed."""
        return self.status in ("fixed", "nothing to fix", "filled", "nothing to add")

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.report.army.file,
            "command": self.command,
            "status": self.status,
            "why": self.why,
            "total": self.report.total,
            "limit": self.report.limit,
            "target": self.target,
            "unit": self.report.unit,
            "suggestions": [s.as_json() for s in self.suggestions],
            "statlines": [f.as_json() for f in self.statlines],
            "not_encoded": list(self.not_encoded),
        }
