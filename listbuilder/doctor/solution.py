"""A solution of the doctor's program read back as a suggestion: the changes in the game's words,
the steps that edit the list file, and the new list, costed and judged by the validator itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from listbuilder.army.report import build_report
from listbuilder.doctor.answers import Change, Step, Suggestion
from listbuilder.doctor.program import Deadline
from listbuilder.doctor.slots import Option, Slot
from listbuilder.rules.formats import ArmyList, Entry, Unit
from listbuilder.rules.system import System


class Question(Protocol):
    """What a solution answers: a fix or fill question on a list (``solve._Question``)."""

    army: ArmyList
    system: System
    slots: list[Slot]
    mode: Literal["fix", "fill"]
    basis: str
    show_leader: bool  # whether a force rule that must hold counts leaders
    deadline: Deadline
    not_encoded: list[str]  # the rules the program could not state: a list they reject is no bug then


def change(
    question: Question, slot: Slot, option: Option, delta: int, models: int = 0, leaders: int | None = None
) -> Change:
    """One unit's change in a suggestion: ``delta`` copies (``models`` models) on ``option``'s
    statline, and its leaders afterwards (``None``: as many as the slot has now)."""
    after = slot.leaders if leaders is None else leaders
    return Change(
        unit=slot.name,
        delta=delta,
        models=models,
        model_word=question.system.definition.model.plural,
        stats=option.changes,
        cost_change=option.cost_change,
        measure=question.system.measure,
        leaders=after - slot.leaders,
        leaders_after=after,
        leader=question.system.definition.leader if question.show_leader else None,
    )


def suggestion(question: Question, copies: list[list[int]], leaders: list[int] | None = None) -> Suggestion:
    """The suggestion a solution makes: ``copies`` per slot and option, ``leaders`` per slot (where
    they are counted), as the changes, the editing steps, and the new list's report."""
    new_counts: dict[int, tuple[int, int, Unit]] = {}  # entry index: count, leaders, statline
    steps: list[Step] = []
    added: list[Entry] = []
    changes: list[Change] = []
    moved = nearness = touched = 0
    old = {e.index: e for e in question.army.entries}
    for n, (slot, counts) in enumerate(zip(question.slots, copies, strict=True)):
        total = sum(counts)
        lead = None if leaders is None else leaders[n]
        k = next((j for j, c in enumerate(counts) if c), 0)
        option = slot.options[k]
        nearness += option.rank if total else 0
        models = total * option.size - slot.current * slot.options[0].size
        moved += abs(models)
        if lead is not None:
            plain = (total - lead) - (slot.current - slot.leaders)
            touched += lead - slot.leaders if question.mode == "fill" else abs(lead - slot.leaders) + abs(plain)
        if total != slot.current or (k and total) or (lead is not None and lead != slot.leaders):
            changes.append(change(question, slot, option, total - slot.current, models, lead))
        for index, (count, marked) in plan_entries([old[j] for j in slot.entries], total, lead).items():
            new_counts[index] = (count, marked, option.unit)
            was = old[index]
            if count != was.count:
                steps.append(Step(kind="count", index=index, count=count))
            if count and (marked != was.leaders or (count != was.count and (marked or was.leaders))):
                steps.append(Step(kind="leaders", index=index, count=marked))
            if count and k:
                steps += [
                    Step(kind="stat", index=index, key=c.stat, value=option.unit.stats[c.stat]) for c in option.changes
                ]
        if not slot.entries and total:
            unit = option.unit
            marked = (total if unit.leader else 0) if lead is None else lead
            as_catalog = marked == (total if unit.leader else 0)
            steps.append(Step(kind="add", unit=unit.name, count=total, leaders=None if as_catalog else marked))
            added.append(Entry(index=0, unit=unit, count=total, leaders=marked, custom=False))
    entries = [
        Entry(index=0, unit=unit, count=count, leaders=marked, custom=e.custom)
        for e in question.army.entries
        for count, marked, unit in [new_counts.get(e.index, (e.count, e.leaders, e.unit))]
        if count
    ]
    entries += added
    entries = [
        Entry(index=i, unit=e.unit, count=e.count, leaders=e.leaders, custom=e.custom) for i, e in enumerate(entries)
    ]
    question.deadline.check()
    army = ArmyList(
        system=question.army.system,
        name=question.army.name,
        limit=question.army.limit,
        entries=tuple(entries),
        file=question.army.file,
        revision=question.army.revision,
    )
    report = build_report(army, question.system)
    question.deadline.check()
    if not report.legal() and not question.not_encoded:
        raise RuntimeError(f"the list doctor proposed a list the validator rejects: {report.errors[0].message}")
    # statlines first, then what goes, then what comes, each in the list's order
    changes.sort(key=lambda c: 0 if c.delta == 0 else (1 if c.delta < 0 else 2))
    return Suggestion(
        changes=tuple(changes),
        report=report,
        models_changed=moved,
        steps=tuple(steps),
        basis=question.basis,
        nearness=nearness,
        touched=touched,
    )


def plan_entries(entries: Sequence[Entry], total: int, leaders: int | None) -> dict[int, tuple[int, int]]:
    """How the entries of one slot carry its new ``total`` copies, ``leaders`` of them leaders:
    each entry's index, count and leaders.

    Copies go from the last entry first and are added to the first; a copy whose mark changes
    stays in its entry, marked anew. With ``leaders`` unknown (no rule that must hold counts
    them) an entry of leaders only stays so, and the others keep the leaders they have.
    """
    if not entries:
        return {}
    lead = [e.leaders for e in entries]
    plain = [e.count - e.leaders for e in entries]
    if leaders is None:
        counts = _spread([e.count for e in entries], total)
        return {
            e.index: (n, n if e.leaders == e.count else min(e.leaders, n)) for e, n in zip(entries, counts, strict=True)
        }
    freed_lead = _take(lead, sum(lead) - leaders)
    freed_plain = _take(plain, sum(plain) - (total - leaders))
    for mine, freed, want in ((lead, freed_plain, leaders), (plain, freed_lead, total - leaders)):
        need = want - sum(mine)
        for j in range(len(entries)):  # mark anew the copies freed of the other kind, where they are
            moved = min(freed[j], max(0, need))
            mine[j] += moved
            freed[j] -= moved
            need -= moved
        mine[0] += max(0, need)
    return {e.index: (lead[j] + plain[j], lead[j]) for j, e in enumerate(entries)}


def _take(counts: list[int], amount: int) -> list[int]:
    """Take ``amount`` from ``counts`` (changed in place), last first; what each gave."""
    freed = [0] * len(counts)
    for j in reversed(range(len(counts))):
        if amount <= 0:
            break
        t = min(counts[j], amount)
        counts[j] -= t
        freed[j] = t
        amount -= t
    return freed


def _spread(counts: list[int], total: int) -> list[int]:
    """``total`` copies over entries that have ``counts``: removed from the last first, added to the first."""
    out = list(counts)
    if total >= sum(counts):
        out[0] += total - sum(counts)
        return out
    _take(out, sum(counts) - total)
    return out
