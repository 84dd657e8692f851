"""Brute-force oracles for the list doctor: enumerate lists, judge each with the validator.

They share nothing with the solver but the definition of the search (which unit profiles a
list may field: ``doctor.slots``); every candidate list is built here and judged by
``build_report``, so a wrong linear encoding of any force rule shows up as a disagreement.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

from listbuilder.army.report import build_report
from listbuilder.doctor.slots import Slot, leader_matters
from listbuilder.rules.catalog import System
from listbuilder.rules.forcerules import Limit
from listbuilder.rules.formats import ArmyList, Entry

T = TypeVar("T")
BUDGET = 4000  # lists judged per question; a property test skips a question that needs more


class TooBig(Exception):
    """The enumeration would judge more than ``BUDGET`` lists."""


def _judged(lists: Iterator[T]) -> Iterator[T]:
    for n, item in enumerate(lists):
        if n >= BUDGET:
            raise TooBig
        yield item


def _army(army: ArmyList, choice: Sequence[tuple[int, int, int]], slots: Sequence[Slot]) -> ArmyList:
    entries = []
    for slot, (k, n, lead) in zip(slots, choice, strict=True):
        if n:
            option = slot.options[k]
            entries.append(Entry(index=len(entries), unit=option.unit, count=n, leaders=lead, custom=slot.custom))
    return ArmyList(system=army.system, name=army.name, limit=army.limit, entries=tuple(entries))


def _leaders(slot: Slot, n: int, counted: bool, fill: bool = False) -> range:
    """The leaders ``n`` copies of ``slot`` may have: any number where leaders are counted (fill:
    keeping the copies of each kind the list has), else those it has."""
    if not counted:
        return range(min(slot.leaders, n), min(slot.leaders, n) + 1)
    if fill:
        return range(slot.leaders, n - (slot.current - slot.leaders) + 1)
    return range(0, n + 1)


def _touched(slot: Slot, n: int, lead: int, counted: bool) -> int:
    """Copies added, removed or marked anew (two for a re-mark), where leaders are counted."""
    if not counted:
        return 0
    return abs(lead - slot.leaders) + abs((n - lead) - (slot.current - slot.leaders))


def _has_limit(army: ArmyList, system: System) -> bool:
    return army.limit is not None and any(
        isinstance(c, Limit) and c.severity == "error" for c in system.definition.constraints
    )


def fix_keys(army: ArmyList, system: System, slots: Sequence[Slot], radius: int) -> list[tuple[int, int, int, int]]:
    """The sorted keys (models changed, copies touched, distance to the aim, nearness) of every
    legal list within ``radius`` models changed of ``army``."""
    limit = army.limit if _has_limit(army, system) else None
    aim = limit if limit is not None else build_report(army, system).total
    counted = leader_matters(system)

    def walk(i: int, left: int, cost: int) -> Iterator[list[tuple[int, int, int]]]:
        if limit is not None and cost > limit:
            return
        if i == len(slots):
            yield []
            return
        slot = slots[i]
        now = slot.current * slot.options[0].size
        for k, option in enumerate(slot.options):
            size = option.size
            top = slot.current + left + 1 if size == 0 else (now + left) // size
            for n in range(0 if k == 0 else 1, top + 1):
                moved = abs(n * size - now)
                if moved > left:
                    continue
                for lead in _leaders(slot, n, counted):
                    for rest in walk(i + 1, left - moved, cost + n * option.cost):
                        yield [(k, n, lead), *rest]

    keys = []
    for choice in _judged(walk(0, radius, 0)):
        report = build_report(_army(army, choice, slots), system)
        if report.legal():
            moved = sum(
                abs(n * s.options[k].size - s.current * s.options[0].size)
                for s, (k, n, _) in zip(slots, choice, strict=True)
            )
            touched = sum(_touched(s, n, lead, counted) for s, (_, n, lead) in zip(slots, choice, strict=True))
            rank = sum(s.options[k].rank for s, (k, n, _) in zip(slots, choice, strict=True) if n)
            keys.append((moved, touched, abs(aim - report.total), rank))
    return sorted(keys)


def fill_keys(army: ArmyList, system: System, slots: Sequence[Slot], target: int) -> list[tuple[int, int, int]]:
    """The sorted keys (shortfall from ``target``, models added, leaders marked) of every legal
    list made by adding copies of the slots fill may grow, total at most ``target``."""
    base = build_report(army, system).total
    counted = leader_matters(system)

    def walk(i: int, room: int) -> Iterator[list[int]]:
        if i == len(slots):
            yield []
            return
        slot = slots[i]
        cost = slot.options[0].cost
        top = 0 if slot.fixed else (room // cost if cost > 0 else 3)
        for n in range(top + 1):
            for rest in walk(i + 1, room - n * cost):
                yield [n, *rest]

    def marks(i: int, added: list[int]) -> Iterator[list[int]]:
        if i == len(slots):
            yield []
            return
        for lead in _leaders(slots[i], slots[i].current + added[i], counted, fill=True):
            for rest in marks(i + 1, added):
                yield [lead, *rest]

    def choices() -> Iterator[tuple[list[int], list[int]]]:
        for added in walk(0, target - base):
            for leads in marks(0, added):
                yield added, leads

    keys = []
    for added, leads in _judged(choices()):
        choice = [(0, s.current + n, lead) for s, n, lead in zip(slots, added, leads, strict=True)]
        report = build_report(_army(army, choice, slots), system)
        if report.legal() and report.total <= target:
            models = sum(n * s.options[0].size for s, n in zip(slots, added, strict=True))
            new = sum(lead - s.leaders for s, lead in zip(slots, leads, strict=True)) if counted else 0
            keys.append((target - report.total, models, new))
    return sorted(keys)
