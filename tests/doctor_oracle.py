"""Brute-force oracles for the list doctor: enumerate lists, judge each with the validator.

They share nothing with the solver but the definition of the search (which unit profiles a
list may field: ``doctor.slots``); every candidate list is built here and judged by
``build_report``, so a wrong linear encoding of any force rule shows up as a disagreement.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from listbuilder.army.report import build_report
from listbuilder.doctor.slots import Slot
from listbuilder.rules.catalog import System
from listbuilder.rules.forcerules import Limit
from listbuilder.rules.formats import ArmyList, Entry

BUDGET = 4000  # lists judged per question; a property test skips a question that needs more


class TooBig(Exception):
    """The enumeration would judge more than ``BUDGET`` lists."""


def _judged(lists: Iterator[list]) -> Iterator[list]:  # type: ignore[type-arg]
    for n, item in enumerate(lists):
        if n >= BUDGET:
            raise TooBig
        yield item


def _army(army: ArmyList, choice: Sequence[tuple[int, int]], slots: Sequence[Slot]) -> ArmyList:
    entries = []
    for slot, (k, n) in zip(slots, choice, strict=True):
        if n:
            option = slot.options[k]
            entries.append(Entry(index=len(entries), unit=option.unit, count=n, leader=slot.leader, custom=slot.custom))
    return ArmyList(system=army.system, name=army.name, limit=army.limit, entries=tuple(entries))


def _has_limit(army: ArmyList, system: System) -> bool:
    return army.limit is not None and any(
        isinstance(c, Limit) and c.severity == "error" for c in system.definition.constraints
    )


def fix_keys(army: ArmyList, system: System, slots: Sequence[Slot], radius: int) -> list[tuple[int, int, int]]:
    """The sorted keys (models changed, distance to the aim, nearness) of every legal list
    within ``radius`` models changed of ``army``."""
    limit = army.limit if _has_limit(army, system) else None
    aim = limit if limit is not None else build_report(army, system).total

    def walk(i: int, left: int, cost: int) -> Iterator[list[tuple[int, int]]]:
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
                for rest in walk(i + 1, left - moved, cost + n * option.cost):
                    yield [(k, n), *rest]

    keys = []
    for choice in _judged(walk(0, radius, 0)):
        report = build_report(_army(army, choice, slots), system)
        if report.legal():
            moved = sum(
                abs(n * s.options[k].size - s.current * s.options[0].size)
                for s, (k, n) in zip(slots, choice, strict=True)
            )
            rank = sum(s.options[k].rank for s, (k, n) in zip(slots, choice, strict=True) if n)
            keys.append((moved, abs(aim - report.total), rank))
    return sorted(keys)


def fill_keys(army: ArmyList, system: System, slots: Sequence[Slot], target: int) -> list[tuple[int, int]]:
    """The sorted keys (shortfall from ``target``, models added) of every legal list made by
    adding copies of the slots fill may grow, total at most ``target``."""
    base = build_report(army, system).total

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

    keys = []
    for added in _judged(walk(0, target - base)):
        choice = [(0, s.current + n) for s, n in zip(slots, added, strict=True)]
        report = build_report(_army(army, choice, slots), system)
        if report.legal() and report.total <= target:
            models = sum(n * s.options[0].size for s, n in zip(slots, added, strict=True))
            keys.append((target - report.total, models))
    return sorted(keys)
