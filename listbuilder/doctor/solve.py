"""``fix`` and ``fill``: the best changes to a list, found exactly by an integer program.

fix: the legal lists reached by the fewest models added or removed (each model counts one);
ties go to the fewest copies touched (a copy marked or unmarked as a leader counts two, one
added or removed one: so "unmark the leader" beats removing five marines), then to the total
closest to the limit without passing it (with no limit: closest to the list's own total), then
to the nearest statlines. Additions are of units already in the list or
in the catalog factions it uses; a custom unit that breaks its own rules may keep its models
with one of its nearest legal statlines.

fill: for a legal list, the additions from its factions (or one faction) that keep it legal and
bring its total closest to the limit (or to a chosen total), fewest models first on ties, then
fewest new leaders.

Both give up to three different answers, best first. Each answer is costed and judged by the
validator itself; the solver only finds it. Where the limit bounds a unit's copies (it costs
something) the search is exhaustive; a unit that costs nothing is considered up to ``REACH``
copies beyond what the list has, widened until that bound cannot hide a better answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Literal

from listbuilder.army.report import Report, build_report
from listbuilder.doctor import program
from listbuilder.doctor.answers import DoctorAnswer, StatlineFix, Status, Suggestion
from listbuilder.doctor.program import Program
from listbuilder.doctor.slots import Slot, catalog_slots, leader_matters, list_slots
from listbuilder.doctor.solution import change, suggestion
from listbuilder.errors import Action
from listbuilder.rules.forcerules import ForceRule, Limit, Linear, NotEncodable
from listbuilder.rules.formats import ArmyList, Unit
from listbuilder.rules.system import System

SUGGESTIONS = 3
EMPTY_ID = "no-models"  # army/advice.py: a list with no entry is not a force yet
REACH = 30


def fix(army: ArmyList, system: System, basis: str = "", started: float | None = None) -> DoctorAnswer:
    """The smallest changes that make ``army`` legal (see the module's docstring).

    ``started`` (``time.monotonic()``) is when the question was asked, reading the list
    included: the whole question is bounded by ``program.MAX_SECONDS`` from then."""
    deadline = program.Deadline(started)
    report = build_report(army, system)
    if report.legal():
        return DoctorAnswer(command="fix", status="nothing to fix", report=report)
    deadline.check()
    slots = fix_slots(army, system)
    deadline.check()
    question = _Question(army, system, report, slots, "fix", target=None, basis=basis, deadline=deadline)
    statlines = tuple(
        StatlineFix(
            entry=", ".join(f"units[{i}] {slot.name}" for i in slot.entries),
            place=", ".join(f"#{i + 1} {slot.name}" for i in slot.entries),
            options=tuple(change(question, slot, option, 0) for option in slot.options[1:]),
        )
        for slot in slots
        if len(slot.options) > 1
    )
    found = question.best()
    if not found:
        return question.answer("no legal list", why=question.why_none(), statlines=statlines)
    return question.answer("fixed", found, statlines=statlines)


def fill(
    army: ArmyList,
    system: System,
    to: int | None = None,
    faction: str | None = None,
    basis: str = "",
    started: float | None = None,
) -> DoctorAnswer:
    """The additions that bring a legal ``army`` closest to its limit or ``to``; ``faction`` is
    an exact faction name (the API checks it); ``started`` as for ``fix``."""
    deadline = program.Deadline(started)
    report = build_report(army, system)
    target = to if to is not None else army.limit
    assert target is not None, "the API asks for a total to fill to when a list has no limit"
    if any(p.rule_id != EMPTY_ID for p in report.errors):  # an empty list is filled from nothing
        return DoctorAnswer(
            command="fill",
            status="not legal",
            report=report,
            target=target,
            why="fill starts from a legal list",
            action=Action(kind="fix", system=system.id),
        )
    unit = system.size_unit
    if report.total >= target:
        why = f"the list is at {report.total:,} of the {target:,} {unit} aimed at"
        return DoctorAnswer(command="fill", status="nothing to add", report=report, target=target, why=why)
    deadline.check()
    slots = fill_slots(army, system, faction)
    deadline.check()
    question = _Question(army, system, report, slots, "fill", target=target, basis=basis, deadline=deadline)
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
        pool: Sequence[Unit] = system.factions.get(faction, ())
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
        mode: Literal["fix", "fill"],
        target: int | None,
        basis: str = "",
        deadline: program.Deadline | None = None,
    ) -> None:
        self.basis = basis
        self.army, self.system, self.report, self.slots, self.mode = army, system, report, slots, mode
        self.rules: list[ForceRule] = [c for c in system.definition.constraints if c.severity == "error"]
        self.has_limit = army.limit is not None and any(isinstance(c, Limit) for c in self.rules)
        self.target = target
        self.extra = REACH
        self.not_encoded: list[str] = []
        self.deadline = deadline or program.Deadline()  # for all the programs of this question
        self.show_leader = leader_matters(system)
        self.action: Action | None = None  # the next step the answer's 'why' points to

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
                if slot.fixed:  # a retired unit: the doctor may take copies away, never add one
                    top = min(top, slot.current if k == 0 else 0)
                low.append(floor)
                high.append(max(floor, top))
            lows.append(low)
            highs.append(high)
        return lows, highs, reached

    # --- the program -----------------------------------------------------------------------

    def _leads(self, lows: list[list[int]], highs: list[list[int]]) -> list[tuple[int, int]] | None:
        """Each slot's bounds on its leaders, where they are counted: fill keeps those it has."""
        if not self.show_leader:
            return None
        out = []
        for slot, low, high in zip(self.slots, lows, highs, strict=True):
            if self.mode == "fill":
                out.append((slot.leaders, slot.leaders if sum(high) == sum(low) else sum(high)))
            else:
                out.append((0, sum(high)))
        return out

    def _program(self, rules: Sequence[ForceRule]) -> tuple[Program, Linear, Linear]:
        lows, highs, _ = self._bounds(rules)
        prog = Program(self.system, self.army.limit, self.slots, highs, lows, self._leads(lows, highs))
        touched = Linear()  # fix: copies added, removed or marked anew (two for a re-mark); fill: new leaders
        if prog.leaders is not None:
            for i, slot in enumerate(self.slots):
                copies, leaders = prog.slot_copies(i), prog.slot_leaders(i)
                prog.require(copies - leaders, low=0)
                plain_now = slot.current - slot.leaders
                if self.mode == "fill":  # fill adds: the copies that are no leaders stay too
                    prog.require(copies - leaders, low=plain_now)
                    touched = touched + leaders - slot.leaders
                else:
                    touched = touched + prog.absolute(leaders - slot.leaders)
                    touched = touched + prog.absolute(copies - leaders - plain_now)
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
        return prog, changed, self._objective(prog, changed, touched)

    def _objective(self, prog: Program, changed: Linear, touched: Linear) -> Linear:
        total = prog.total()
        if self.mode == "fill":
            assert self.target is not None
            prog.require(total, high=self.target)
            # the smallest shortfall first, then the fewest models added, then the fewest new leaders
            inner = (prog.largest(touched) + 1) * changed + touched
            return (prog.largest(inner) + 1) * (self.target - total) + inner
        aim = self.army.limit if self.has_limit else self.report.total
        assert aim is not None
        distance = prog.absolute(total - aim)
        ranks = Linear()
        for z, rank in self._ranks:
            ranks = ranks + rank * z
        w3 = prog.largest(ranks) + 1
        w2 = (prog.largest(distance) + 1) * w3
        w1 = (prog.largest(touched) + 1) * w2
        return w1 * changed + w2 * touched + w3 * distance + ranks

    def _solve(self, rules: Sequence[ForceRule], exclude: Sequence[dict[int, int]]) -> tuple[Program, list[int]] | None:
        self._ranks: list[tuple[Linear, int]] = []
        prog, changed, objective = self._program(rules)
        for answer in exclude:
            prog.exclude(answer)
        found = prog.solve(objective, seconds=self.deadline.left())
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
            leaders = None if prog.leaders is None else [found[v] for v in prog.leaders]
            given.append({v: found[v] for v in (*(v for vs in prog.copies for v in vs), *(prog.leaders or ()))})
            out.append(suggestion(self, copies, leaders))
        return out

    def answer(
        self, status: Status, found: Sequence[Suggestion] = (), why: str = "", statlines: tuple[StatlineFix, ...] = ()
    ) -> DoctorAnswer:
        return DoctorAnswer(
            command=self.mode,
            status=status,
            report=self.report,
            suggestions=tuple(found),
            statlines=statlines,
            why=why,
            target=self.target,
            not_encoded=tuple(self.not_encoded),
            action=self.action,
        )

    def why_none(self) -> str:
        """Which rules cannot hold together: a smallest set of them, found by dropping each in turn."""
        needed = list(self.rules)
        for rule in list(needed):
            trial = [r for r in needed if r is not rule]
            if self._solve(trial, []) is None:
                needed = trial
        if not needed and not self.slots:
            self.action = Action(kind="fill", system=self.system.id)
            return "there are no units to field: the list has no entries, so no faction to add from"
        names = " and ".join(f"'{r.title or r.id}'" for r in needed) or "the rules"
        where = "the units of the list and of its factions, with at least one entry,"
        _, _, reached = self._bounds()
        limit = f" within {self.extra} more copies of each" if reached else ""
        if len(needed) == 1:
            return f"no list of {where}{limit} meets {names}"
        return f"no list of {where}{limit} meets {names} at once"
