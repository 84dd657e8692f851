"""What changed between two versions of a list, in the game's terms.

Units added and removed, counts changed, leaders marked or unmarked, a custom unit's stats
changed, the name and limit,
the change in points (or figures), and the rules the change made or stopped breaking:
"+1 Bone Giant, +24 points, now breaks: at most 2 rare fighters".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from listbuilder.army.constraints import Problem
from listbuilder.army.phrases import verdict_word
from listbuilder.army.report import Report
from listbuilder.errors import InputError
from listbuilder.record import Record, record
from listbuilder.rules.formats import Noun
from listbuilder.rules.statline import value_text

# A duplicate is named "NAME (copy)" (api.folders.duplicate_list), a copy's copy "NAME (copy) (copy)".
_COPY = re.compile(r"(\s*\(copy\))+$", re.IGNORECASE)


@record
class UnitChange(Record):
    """One unit's change: ``before`` and ``after`` counts (0 when absent) and its cost change."""

    name: str
    before: int
    after: int
    cost_change: int
    stat_changes: tuple[str, ...] = ()
    leaders_before: int = 0  # how many of its models were leaders, and are now
    leaders_after: int = 0

    @property
    def delta(self) -> int:
        return self.after - self.before

    def leaders_text(self, leader: Noun) -> str:
        """``leaders 5 → 1``, or nothing when its leaders did not change."""
        if self.leaders_before == self.leaders_after:
            return ""
        return f"{leader.plural} {self.leaders_before:,} → {self.leaders_after:,}"


@record
class ListDiff(Record):
    """Everything that differs between two versions of a list."""

    old: Report
    new: Report
    units: tuple[UnitChange, ...]
    header: tuple[str, ...]  # name, rule set and limit changes, in words
    now_breaks: tuple[Problem, ...]
    no_longer_breaks: tuple[Problem, ...]

    @property
    def total_change(self) -> int:
        return self.new.total - self.old.total

    @property
    def unchanged(self) -> bool:
        return not (self.units or self.header or self.now_breaks or self.no_longer_breaks or self.total_change)

    def text(self) -> str:
        """What changed, in game terms: what ``diff`` prints and the compare page shows."""
        return describe(self)

    def as_json(self) -> dict[str, Any]:
        return {
            "system": self.new.system.id,
            "unit": self.new.unit,
            "total": {"before": self.old.total, "after": self.new.total},
            "total_change": self.total_change,
            "header": list(self.header),
            "units": [
                {
                    "name": u.name,
                    "before": u.before,
                    "after": u.after,
                    "cost_change": u.cost_change,
                    "stat_changes": list(u.stat_changes),
                    "leaders": {"before": u.leaders_before, "after": u.leaders_after},
                }
                for u in self.units
            ],
            "now_breaks": [p.as_json() for p in self.now_breaks],
            "no_longer_breaks": [p.as_json() for p in self.no_longer_breaks],
            "verdict": {"before": self.old.legal(), "after": self.new.legal()},
        }


def _by_unit(report: Report) -> dict[str, tuple[str, int, int, Mapping[str, object], int]]:
    """Unit name (any case) -> (name as written, models taken, their cost, stats, leaders among them)."""
    out: dict[str, tuple[str, int, int, Mapping[str, object], int]] = {}
    for line in report.lines:
        e = line.entry
        name, count, cost, stats, leaders = out.get(e.unit.name.lower(), (e.unit.name, 0, 0, e.unit.stats, 0))
        out[e.unit.name.lower()] = (name, count + e.count, cost + line.cost, stats, leaders + e.leaders)
    return out


def _rule_key(p: Problem) -> tuple[str, str]:
    # The same rule broken by the same entry is "still broken", however the numbers moved.
    return (p.rule_id, _entry_names(p.entry))


def _entry_names(entry: str | None) -> str:
    if not entry:
        return ""
    return ", ".join(sorted(part.split(" ", 1)[-1] for part in entry.split(", ")))


def _only_in(these: Iterable[Problem], others: Iterable[Problem]) -> tuple[Problem, ...]:
    keys = {_rule_key(p) for p in others}
    return tuple(p for p in these if _rule_key(p) not in keys)


def diff_reports(old: Report, new: Report) -> ListDiff:
    """Compare two judged lists (normally two versions of one file)."""
    before, after = _by_unit(old), _by_unit(new)
    system = new.system.definition
    units = []
    for key in [*before, *(k for k in after if k not in before)]:
        name_b, count_b, cost_b, stats_b, lead_b = before.get(key, ("", 0, 0, {}, 0))
        name_a, count_a, cost_a, stats_a, lead_a = after.get(key, ("", 0, 0, {}, 0))
        stat_changes: tuple[str, ...] = ()
        if count_b and count_a and old.system.id == new.system.id:
            stat_changes = tuple(
                f"{stat.label} {value_text(stat, stats_b.get(k))} → {value_text(stat, stats_a.get(k))}"
                for k, stat in system.stats.items()
                if stats_b.get(k) != stats_a.get(k)
            )
        if count_b != count_a or cost_b != cost_a or stat_changes or lead_b != lead_a:
            units.append(
                UnitChange(
                    name=name_a or name_b,
                    before=count_b,
                    after=count_a,
                    cost_change=cost_a - cost_b,
                    stat_changes=stat_changes,
                    leaders_before=lead_b,
                    leaders_after=lead_a,
                )
            )
    header = []
    if old.army.system != new.army.system:
        header.append(f"rule set {old.army.system} → {new.army.system}")
    if old.army.name != new.army.name:
        header.append(f"name '{old.army.name}' → '{new.army.name}'")
    if old.limit != new.limit:
        header.append(f"limit {_amount(old.limit, old.measure)} → {_amount(new.limit, new.measure)}")
    return ListDiff(
        old=old,
        new=new,
        units=tuple(units),
        header=tuple(header),
        now_breaks=_only_in(new.problems, old.problems),
        no_longer_breaks=_only_in(old.problems, new.problems),
    )


def diff_versions(before: Report, after: Report, where: Path) -> ListDiff:
    """``diff_reports`` of two versions of one list (``where``: the newer one's file); lists of two
    rule sets are refused, as their measures differ."""
    if before.system.id != after.system.id:
        raise InputError.detailed(
            f"the lists are for different rule sets: {before.system.id} and {after.system.id}",
            (
                f"diff compares two versions of one list; {before.system.id} counts "
                f"{before.system.size_unit} and {after.system.id} counts {after.system.size_unit}"
            ),
            file=where,
        )
    return diff_reports(before, after)


def _amount(n: int | None, measure: Noun) -> str:
    return "none" if n is None else f"{n:,} {measure.of(n)}"


def _signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else f"−{-n:,}" if n < 0 else "±0"


def summary(d: ListDiff) -> str:
    """One line: '+1 Bone Giant, +24 points, now breaks: at most 2 rare fighters'."""
    parts = []
    for u in d.units:
        leaders = u.leaders_text(d.new.system.definition.leader) if u.before and u.after else ""
        if u.delta:
            parts.append(f"{_signed(u.delta)} {u.name}" + (f" ({leaders})" if leaders else ""))
        elif leaders:
            parts.append(f"{u.name}: {leaders}")
        elif u.stat_changes:
            parts.append(f"{u.name} changed")
    if d.total_change:
        parts.append(f"{_signed(d.total_change)} {d.new.measure.of(abs(d.total_change))}")
    parts += [f"now breaks: {p.title or p.rule.rstrip('.')}" for p in d.now_breaks]
    parts += [f"no longer breaks: {p.title or p.rule.rstrip('.')}" for p in d.no_longer_breaks]
    return ", ".join(parts) if parts else "no change in game terms"


def describe(d: ListDiff) -> str:
    """The full account, for the terminal and for ``git diff``."""
    old, new = d.old, d.new
    total = f"{old.total:,} → {new.total:,} {new.measure.of(new.total)}"
    if new.limit:
        total += f" of {new.limit:,}"
    lines = [f"{new.army.name} ({new.system.id}): {total} ({_signed(d.total_change)})"]
    if d.unchanged:  # otherwise each change is on a line of its own below, said once
        lines.append(f"  {summary(d)}")
    lines += [f"  ~ {h}" for h in d.header]
    for u in d.units:
        cost = f" ({_signed(u.cost_change)} {new.measure.of(abs(u.cost_change))})" if u.cost_change else ""
        if not u.before:
            lines.append(f"  + {u.after:,} {u.name}{cost}")
        elif not u.after:
            lines.append(f"  - {u.before:,} {u.name}{cost}")
        else:
            leaders = u.leaders_text(new.system.definition.leader)
            change = ", ".join(c for c in (f"{u.before:,} → {u.after:,}" if u.delta else "", leaders) if c) or "stats"
            lines.append(f"  ~ {u.name} {change}{cost}")
        lines += [f"      {c}" for c in u.stat_changes]
    lines += [f"  now breaks: {p.rule} ({p.message})" for p in d.now_breaks]
    lines += [f"  no longer breaks: {p.rule} (was: {p.message})" for p in d.no_longer_breaks]
    if old.verdict() != new.verdict():
        lines.append(f"  verdict: {verdict_word(old)} → {verdict_word(new)}")
    return "\n".join(lines)


def factions_of(report: Report) -> tuple[str, ...]:
    """The catalog factions a list's units come from, in the order the list first uses them."""
    return tuple(dict.fromkeys(line.entry.unit.faction for line in report.lines if line.entry.unit.faction))


def versions_of_one_list(a: Report, b: Report) -> bool:
    """Whether two lists read as two versions of one list (a duplicate, a file and its history)
    rather than two armies: one rule set, one name (a copy's "(copy)" aside, any case), and a
    faction in common where both name one. Two armies are compared as opponents."""
    if a.system.id != b.system.id:
        return False
    if _COPY.sub("", a.army.name).strip().casefold() != _COPY.sub("", b.army.name).strip().casefold():
        return False
    mine, theirs = set(factions_of(a)), set(factions_of(b))
    return not mine or not theirs or bool(mine & theirs)
