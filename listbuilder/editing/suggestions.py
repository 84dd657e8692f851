"""The list doctor's changes: carry out a suggestion, or ask the doctor and carry out its answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from listbuilder.editing.changes import Change
from listbuilder.editing.history import version_of
from listbuilder.editing.plan import ListEdit
from listbuilder.errors import Action, ConflictError, InputError
from listbuilder.record import record

if TYPE_CHECKING:
    from listbuilder.doctor import Suggestion
    from listbuilder.doctor.answers import Step


@record
class ApplySuggestion(Change):
    """Carry out a list doctor's suggestion (``fix`` or ``fill``), on the text it was made for only."""

    suggestion: Suggestion

    def carry_out(self, edit: ListEdit) -> str:
        chosen = self.suggestion
        if chosen.basis and version_of(edit.doc.text) != chosen.basis:
            raise ConflictError.detailed(
                "the list changed since this suggestion was made, so it was not applied",
                "ask for a fix or fill again",
                file=edit.path,
            )
        apply_steps(edit, chosen.steps)
        edit.outcome = (chosen.report.total, chosen.legal)  # the edited list must be the one suggested
        return ", ".join(c.text() for c in chosen.changes) or "no change"


@record
class FollowDoctor(Change):
    """Ask the list doctor ``question`` (``fix`` or ``fill``) of the list as it is now, and carry
    out its suggestion ``number`` (from 0), all in the one locked step."""

    question: str
    number: int

    def carry_out(self, edit: ListEdit) -> str:
        # start-up: the doctor package (and, once it solves, HiGHS and numpy) loads only for the
        # change that asks it, never for add, remove or set (docs/architecture.md)
        from listbuilder.doctor import fill, fix
        from listbuilder.doctor.program import TooLarge

        basis = version_of(edit.doc.text)
        try:
            if self.question == "fix":
                answer = fix(edit.army, edit.system, basis)
            elif edit.army.limit is None:  # a fill aims at the list's limit, and this list has none
                unit = edit.system.size_unit
                raise InputError.detailed(
                    "this list has no limit to fill to",
                    f"set the list's '{unit}'",
                    file=edit.path,
                    action=Action(kind="fill-to"),
                )
            else:
                answer = fill(edit.army, edit.system, None, None, basis)
        except TooLarge as exc:
            raise TooLarge(exc.summary, file=edit.path, details=list(exc.details)) from None
        have = len(answer.suggestions)
        if isinstance(self.number, bool) or not 0 <= self.number < have:
            raise InputError.detailed(
                f"there is no suggestion {self.number + 1} to {self.question} this list",
                answer.why or f"the doctor has {have} suggestion{'s' if have != 1 else ''}",
                file=edit.path,
            )
        chosen = answer.suggestions[self.number]
        done = ApplySuggestion(suggestion=chosen).carry_out(edit)
        return f"{'fixed' if self.question == 'fix' else 'filled'}: {done}"


def apply_steps(edit: ListEdit, steps: tuple[Step, ...]) -> None:
    """Carry out the steps of a ``fix`` or ``fill`` suggestion (``doctor.answers.Step``).

    Statlines, counts and leader marks go first, by the entry indices the suggestion was made
    for; then the entries left with no copies are deleted, and new entries appended last, so no
    index moves before it is used."""
    for step in steps:
        if step.kind == "stat":
            edit.set_stat(step.index, step.key, step.value)
    emptied = []
    for step in steps:
        if step.kind == "count":
            if step.count:
                edit.set_count(step.index, step.count)
            else:
                emptied.append(step.index)
    for step in steps:  # after the counts: 'leader: true' or 'leaders: N' depends on the new count
        if step.kind == "leaders" and step.index not in emptied:
            edit.set_leaders(step.index, step.count)
    edit.delete(emptied)
    for step in steps:
        if step.kind == "add":
            edit.append(step.unit, step.count)
            if step.leaders is not None:
                edit.set_leaders(len(edit.expected["units"]) - 1, step.leaders)
