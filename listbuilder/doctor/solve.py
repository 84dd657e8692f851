"""``fix`` and ``fill``: the best changes to a list, found exactly by an integer program.

fix: the legal lists reached by the fewest models added or removed (each model counts one);
ties go to the total closest to the limit without passing it (with no limit: closest to the
list's own total), then to the nearest statlines. Additions are of units already in the list or
in the catalog factions it uses; a custom unit that breaks its own rules may keep its models
with one of its nearest legal statlines.

fill: for a legal list, the additions from its factions (or one faction) that keep it legal and
bring its total closest to the limit (or to a chosen total), fewest models first on ties.

Both give up to three different answers, best first. Each answer is costed and judged by the
validator itself; the solver only finds it. Where the limit bounds a unit's copies (it costs
something) the search is exhaustive; a unit that costs nothing is considered up to ``REACH``
copies beyond what the list has, widened until that bound cannot hide a better answer.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence

from listbuilder.army.report import Report, build_report
from listbuilder.doctor import program
from listbuilder.doctor.answers import Change, DoctorAnswer, StatlineFix, Step, Suggestion
from listbuilder.doctor.program import Program
from listbuilder.doctor.slots import Option, Slot, catalog_slots, leader_matters, list_slots
from listbuilder.rules.catalog import System
from listbuilder.rules.forcerules import ForceRule, Limit, Linear, NotEncodable
from listbuilder.rules.formats import ArmyList, Entry, Unit

SUGGESTIONS = 3
EMPTY_ID = "no-models"  # army/advice.py: a list with no entry is not a force yet
REACH = 30


def fix(army: ArmyList, system: System, basis: str = "") -> DoctorAnswer:
    """The smallest changes that make ``army`` legal (see the module's docstring)."""
    report = build_report(army, system)
    if report.legal():
        return DoctorAnswer(command="fix", status="nothing to fix", report=report)
    slots = fix_slots(army, system)
    question = _Question(army, system, report, slots, "fix", target=None, basis=basis)
    statlines = tuple(
        StatlineFix(
            entry=", ".join(f"units[{i}] {slot.name}" for i in slot.entries),
            options=tuple(question.change(slot, option, 0) for option in slot.options[1:]),
        )
        for slot in slots
        if len(slot.options) > 1
    )
    found = question.best()
    if not found:
        return question.answer("no legal list", why=question.why_none(), statlines=statlines)
    return question.answer("fixed", found, statlines=statlines)


def fill(
    army: ArmyList, system: System, to: int | None = None, faction: str | None = None, basis: str = ""
) -> DoctorAnswer:
    """The additions that bring a legal ``army`` closest to its limit or ``to``; ``faction`` is
    an exact faction name (the API checks it)."""
    report = build_report(army, system)
    target = to if to is not None else army.limit
    assert target is not None, "the API asks for --to when a list has no limit"
    if any(p.rule_id != EMPTY_ID for p in report.errors):  # an empty list is filled from nothing
        return DoctorAnswer(
            command="fill",
            status="not legal",
            report=report,
            target=target,
            why="fill starts from a legal list; 'listbuilder fix' shows how to make it legal",
        )
    unit = system.size_unit
    if report.total >= target:
        why = f"the list is at {report.total:,} of the {target:,} {unit} aimed at"
        return DoctorAnswer(command="fill", status="nothing to add", report=report, target=target, why=why)
    slots = fill_slots(army, system, faction)
    question = _Question(army, system, report, slots, "fill", target=target, basis=basis)
    found = [s for s in question.best() if s.models_changed]
    if not found:
        left = target - report.total
        why = f"nothing that can be added fits in the {left:,} {system.measure.of(left)} left and keeps the list legal"
        return question.answer("nothing to add", why=why)
    return question.answer("filled", found)


def fix_slots(army: ArmyList, system: System) -> list[Slot]:
    """What fix may field: the list's own profiles, and its factions' catalog units."""
    slots = list_slots(army, system)
    return slots + catalog_slots(system, _faction_units(system, army, everything=False), slots)


def fill_slots(army: ArmyList, system: System, faction: str | None = None) -> list[Slot]:
    """What fill may add: more of the list's own profiles and its factions' units (every
    faction's for a list with none); with ``faction``, that faction's units only."""
    slots = list_slots(army, system)
    if faction is not None:
        pool = system.factions.get(faction, [])
        slots = [s if not s.custom and s.faction == faction else _frozen(s) for s in slots]
    else:
        pool = _faction_units(system, army, everything=True)
    return slots + catalog_slots(system, pool, slots)


def _faction_units(system: System, army: ArmyList, everything: bool) -> list[Unit]:
    used = list(dict.fromkeys(e.unit.faction for e in army.entries if not e.custom and e.unit.faction))
    if not used and everything:
        used = list(system.factions)
    return [u for f in used for u in system.factions.get(f, [])]


def _frozen(slot: Slot) -> Slot:
    """A slot fill may not add to (it is outside the faction asked for)."""
    return dataclasses.replace(slot, fixed=True)


class _Question:
    """One fix or fill question: its slots, its bounds, and the programs that answer it."""

    def __init__(
        self,
        army: ArmyList,
        system: System,
        report: Report,
        slots: list[Slot],
        mode: str,
        target: int | None,
        basis: str = "",
    ) -> None:
        self.basis = basis
        self.army, self.system, self.report, self.slots, self.mode = army, system, report, slots, mode
        self.rules: list[ForceRule] = [c for c in system.definition.constraints if c.severity == "error"]
        self.has_limit = army.limit is not None and any(isinstance(c, Limit) for c in self.rules)
        self.target = target
        self.extra = REACH
        self.not_encoded: list[str] = []
        self.deadline = time.monotonic() + program.MAX_SECONDS  # for all the programs of this question
        self.leader_word = next((g.label for g in system.definition.groups.values() if g.leader), "")
        self.show_leader = leader_matters(system)

    # --- bounds ----------------------------------------------------------------------------

    def _cap(self, rules: Sequence[ForceRule] | None = None) -> int | None:
        if self.mode == "fill":
            return self.target
        limited = self.has_limit if rules is None else any(isinstance(r, Limit) for r in rules)
        return self.army.limit if limited and self.army.limit is not None else None

    def _bounds(self, rules: Sequence[ForceRule] | None = None) -> tuple[list[list[int]], list[list[int]], bool]:
        """Per slot and option: the fewest and most copies, and whether ``extra`` bounded any;
        the limit bounds them only while it is among ``rules`` (default: all the list's rules)."""
        cap = self._cap(rules)
        costs_ok = all(o.cost >= 0 for s in self.slots for o in s.options)
        lows, highs, reached = [], [], False
        for slot in self.slots:
            low, high = [], []
            for k, option in enumerate(slot.options):
                if self.mode == "fill":
                    grows = not slot.fixed and (slot.faction is not None or slot.custom)
                    floor = slot.current if k == 0 else 0
                    if not grows:
                        low.append(floor)
                        high.append(floor)
                        continue
                else:
                    floor = 0
                if cap is not None and costs_ok and option.cost > 0:
                    top = cap // option.cost
                else:
                    top = slot.current + self.extra
                    reached = True
                low.append(floor)
                high.append(max(floor, top))
            lows.append(low)
            highs.append(high)
        return lows, highs, reached

    # --- the program -----------------------------------------------------------------------

    def _program(self, rules: Sequence[ForceRule]) -> tuple[Program, Linear, Linear]:
        lows, highs, _ = self._bounds(rules)
        prog = Program(self.system, self.army.limit, self.slots, highs, lows)
        for rule in rules:
            try:
                rule.encode(prog)
            except NotEncodable as exc:
                note = f"the rule '{rule.title or rule.id}' was not taken into account ({exc.why})"
                if note not in self.not_encoded:
                    self.not_encoded.append(note)
        # A list with no entry is no force (army/advice.py says so as an error): one entry at least.
        prog.require(Linear({v: 1 for variables in prog.copies for v in variables}), low=1)
        changed = Linear()
        for i, slot in enumerate(self.slots):
            models = Linear({var: o.size for var, o in zip(prog.copies[i], slot.options, strict=True)})
            now = slot.current * slot.options[0].size
            if self.mode == "fill":
                changed = changed + models - now
                continue
            up = prog.integer(0, max(0, prog.largest(models) - now))
            down = prog.integer(0, now)
            prog.require(models - up + down, low=now, high=now)
            changed = changed + up + down
            if len(slot.options) > 1:  # one statline for all the slot's copies
                chosen = Linear()
                for var, option in zip(prog.copies[i], slot.options, strict=True):
                    z = prog.binary()
                    prog.require(Linear({var: 1}) - prog.high[var] * z, high=0)
                    prog.require(Linear({var: 1}) - z, low=0)
                    chosen = chosen + z
                    self._ranks.append((z, option.rank))  # nearer statlines first, in the objective
                prog.require(chosen, high=1)
        return prog, changed, self._objective(prog, changed)

    def _objective(self, prog: Program, changed: Linear) -> Linear:
        total = prog.total()
        if self.mode == "fill":
            assert self.target is not None
            prog.require(total, high=self.target)
            # the smallest shortfall first, then the fewest models added
            return (prog.largest(changed) + 1) * (self.target - total) + changed
        aim = self.army.limit if self.has_limit else self.report.total
        assert aim is not None
        distance = prog.absolute(total - aim)
        ranks = Linear()
        for z, rank in self._ranks:
            ranks = ranks + rank * z
        w2 = prog.largest(ranks) + 1
        w1 = (prog.largest(distance) + 1) * w2
        return w1 * changed + w2 * distance + ranks

    def _solve(self, rules: Sequence[ForceRule], exclude: Sequence[dict[int, int]]) -> tuple[Program, list[int]] | None:
        self._ranks: list[tuple[Linear, int]] = []
        prog, changed, objective = self._program(rules)
        for answer in exclude:
            prog.exclude(answer)
        found = prog.solve(objective, seconds=self.deadline - time.monotonic())
        if found is None:
            return None
        self.last_changed = changed.value(found)
        return prog, found

    def best(self) -> list[Suggestion]:
        """Up to three suggestions, best first."""
        out: list[Suggestion] = []
        given: list[dict[int, int]] = []
        while len(out) < SUGGESTIONS:
            solved = self._solve(self.rules, given)
            if solved is None:
                break
            _, _, reached = self._bounds()
            if reached and self.mode == "fix" and self.extra < self.last_changed:
                # A better list might need more copies than the bound allowed: widen and ask again.
                self.extra = self.last_changed
                continue
            prog, found = solved
            copies = [[found[v] for v in variables] for variables in prog.copies]
            given.append({v: found[v] for variables in prog.copies for v in variables})
            out.append(self.suggestion(copies))
        return out

    # --- answers ---------------------------------------------------------------------------

    def change(self, slot: Slot, option: Option, delta: int, models: int = 0) -> Change:
        return Change(
            unit=slot.name,
            delta=delta,
            models=models,
            model_word=self.system.definition.model.plural,
            leader=slot.leader and self.show_leader,
            stats=option.changes,
            cost_change=option.cost_change,
            measure=self.system.measure,
            leader_word=self.leader_word,
        )

    def suggestion(self, copies: list[list[int]]) -> Suggestion:
        new_counts: dict[int, tuple[int, Unit]] = {}
        steps: list[Step] = []
        added: list[Entry] = []
        changes: list[Change] = []
        moved = nearness = 0
        for slot, counts in zip(self.slots, copies, strict=True):
            total = sum(counts)
            k = next((i for i, c in enumerate(counts) if c), 0)
            option = slot.options[k]
            nearness += option.rank if total else 0
            models = total * option.size - slot.current * slot.options[0].size
            moved += abs(models)
            if total != slot.current or (k and total):
                changes.append(self.change(slot, option, total - slot.current, models))
            left = total
            counts_by_entry = {e.index: e.count for e in self.army.entries if e.index in slot.entries}
            plan: dict[int, int] = {}
            for index in reversed(slot.entries):  # remove from the last entry first
                keep = min(counts_by_entry[index], left) if index != slot.entries[0] else left
                plan[index] = keep
                left -= keep
            for index, count in plan.items():
                new_counts[index] = (count, option.unit)
                if count != counts_by_entry[index]:
                    steps.append(Step(kind="count", index=index, count=count))
                if count and k:
                    steps += [
                        Step(kind="stat", index=index, key=c.stat, value=option.unit.stats[c.stat])
                        for c in option.changes
                    ]
            if not slot.entries and total:
                unit = option.unit
                steps.append(
                    Step(
                        kind="add",
                        unit=unit.name,
                        count=total,
                        leader=slot.leader if slot.leader != unit.leader else None,
                    )
                )
                added.append(Entry(index=0, unit=unit, count=total, leader=slot.leader, custom=False))
        entries = [
            Entry(index=0, unit=new_counts[e.index][1], count=new_counts[e.index][0], leader=e.leader, custom=e.custom)
            for e in self.army.entries
            if new_counts.get(e.index, (e.count,))[0]
        ]
        entries += added
        entries = [
            Entry(index=i, unit=e.unit, count=e.count, leader=e.leader, custom=e.custom) for i, e in enumerate(entries)
        ]
        army = ArmyList(
            system=self.army.system,
            name=self.army.name,
            limit=self.army.limit,
            entries=tuple(entries),
            file=self.army.file,
            revision=self.army.revision,
        )
        report = build_report(army, self.system)
        if not report.legal() and not self.not_encoded:
            raise RuntimeError(f"the list doctor proposed a list the validator rejects: {report.errors[0].message}")
        # statlines first, then what goes, then what comes, each in the list's order
        changes.sort(key=lambda c: 0 if c.delta == 0 else (1 if c.delta < 0 else 2))
        return Suggestion(
            changes=tuple(changes),
            report=report,
            models_changed=moved,
            steps=tuple(steps),
            basis=self.basis,
            nearness=nearness,
        )

    def answer(
        self, status: str, found: Sequence[Suggestion] = (), why: str = "", statlines: tuple[StatlineFix, ...] = ()
    ) -> DoctorAnswer:
        return DoctorAnswer(
            command=self.mode,  # type: ignore[arg-type]
            status=status,  # type: ignore[arg-type]
            report=self.report,
            suggestions=tuple(found),
            statlines=statlines,
            why=why,
            target=self.target,
            not_encoded=tuple(self.not_encoded),
        )

    def why_none(self) -> str:
        """Which rules cannot hold together: a smallest set of them, found by dropping each in turn."""
        needed = list(self.rules)
        for rule in list(needed):
            trial = [r for r in needed if r is not rule]
            if self._solve(trial, []) is None:
                needed = trial
        if not needed and not self.slots:
            return (
                "there are no units to field: the list has no entries, so no faction to add from "
                "('listbuilder fill' starts a list from its rule set's factions)"
            )
        names = " and ".join(f"'{r.title or r.id}'" for r in needed) or "the rules"
        where = "the units of the list and of its factions, with at least one entry,"
        _, _, reached = self._bounds()
        limit = f" within {self.extra} more copies of each" if reached else ""
        if len(needed) == 1:
            return f"no list of {where}{limit} meets {names}"
        return f"no list of {where}{limit} meets {names} at once"
