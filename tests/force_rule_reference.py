"""A second, separately written verdict for every force-rule kind, to check the engine's against.

Written from the kinds' documentation (docs/authors/fields.md and guide.md: "at most ``count``
models of a group", "at least a share of all models", "at most ``count`` of a group for each
``per`` models", a stat's range and step, exclusive values, unit size) and from the rulings the
shipped texts give (speed-range-power's ruling ``leader-ratio``: the models divided by ``per``,
rounded as the rule says, leaders included in the count; might-skirmish's ``half-basic``: twice
the basic fighters at least the whole warband, so 7 fighters need 4). It shares no code with
``listbuilder.rules.forcerules``: forces here are plain data, and every count is a plain sum.

A verdict is the list of findings a rule makes of a force; no finding means the force keeps the
rule. Each finding gives the numbers a player reads in its message, in the order the message
says them (first by how much the rule is broken, then what was counted, then what the rule
allows), the values it names, and the entries it points at (their indices from 0).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Model:
    """One line of a list as plain data: a unit profile taken ``count`` times, ``leaders`` of them leaders."""

    name: str
    count: int
    stats: Mapping[str, Any]
    leaders: int = 0


@dataclass(frozen=True)
class Game:
    """What a verdict reads of a rule set: its groups, its figures stat, how a unit is costed."""

    # a group is ("stat", stat name, values in the group) or ("leader", True or False)
    groups: Mapping[str, tuple[Any, ...]]
    figures_stat: str | None = None
    cost_stat: str | None = None  # a unit costs this stat's value; None: a force counts its figures


@dataclass(frozen=True)
class Finding:
    numbers: tuple[int, ...]
    entries: tuple[int, ...] = ()
    names: tuple[str, ...] = field(default=())


# --- counting, as the documentation words it ------------------------------------------------------


def figures(game: Game, m: Model) -> int:
    """Models in one copy of a unit: its figures stat where the rule set has one, else 1."""
    return int(m.stats[game.figures_stat]) if game.figures_stat else 1


def models(game: Game, m: Model) -> int:
    return m.count * figures(game, m)


def all_models(game: Game, force: Sequence[Model]) -> int:
    total = 0
    for m in force:
        total += models(game, m)
    return total


def in_group(game: Game, group: str | None, m: Model) -> int:
    """How many of an entry's models a group counts (every model without a group).

    A group by a stat takes all of a unit's models when the unit's value of that stat (one
    choice, or any item of a list of them) is among the group's values. A leader group counts
    the entry's leaders (``leaders: N``, from 0 to its count); ``leader: false`` the others."""
    if group is None:
        return models(game, m)
    how = game.groups[group]
    if how[0] == "leader":
        return m.leaders if how[1] else m.count - m.leaders
    _, stat, values = how
    value = m.stats.get(stat)
    held = list(value) if isinstance(value, list | tuple) else [value]
    for v in held:
        if v in values:
            return models(game, m)
    return 0


def members(game: Game, group: str | None, force: Sequence[Model]) -> list[tuple[int, Model, int]]:
    """(index, entry, models counted) for each entry with at least one model in the group."""
    out = []
    for i, m in enumerate(force):
        n = in_group(game, group, m)
        if n > 0:
            out.append((i, m, n))
    return out


def counted(found: list[tuple[int, Model, int]]) -> int:
    return sum(n for _, _, n in found)


def who(found: list[tuple[int, Model, int]]) -> tuple[int, ...]:
    """The numbers the list of contributors shows: 'Name ×n' (n only when not 1) for the first
    six, then 'and K more'."""
    shown = [n for _, _, n in found[:6] if n != 1]
    if len(found) > 6:
        shown.append(len(found) - 6)
    return tuple(shown)


def ceil_div(a: int, b: int) -> int:
    q, r = divmod(a, b)
    return q + (1 if r else 0)


def total_cost(game: Game, force: Sequence[Model]) -> int:
    """A force's total: each copy costs its cost stat, or counts its figures."""
    total = 0
    for m in force:
        each = int(m.stats[game.cost_stat]) if game.cost_stat else figures(game, m)
        total += m.count * each
    return total


# --- the kinds ------------------------------------------------------------------------------------


def limit(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    total = total_cost(game, force)
    if agreed is None or total <= agreed:
        return []
    # 'N over the L-point limit (T of L)'
    return [Finding((total - agreed, agreed, total, agreed))]


def at_most(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    found = members(game, rule["of"], force)
    n = counted(found)
    if n <= rule["count"]:
        return []
    if rule["of"] is None:  # every model: no entry is more to blame than another
        return [Finding((n - rule["count"], n, rule["count"]))]
    indices = tuple(i for i, _, _ in found)
    return [Finding((n - rule["count"], n, *who(found), rule["count"]), indices)]


def at_least(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    n = counted(members(game, rule["of"], force))
    if n >= rule["count"]:
        return []
    return [Finding((rule["count"] - n, n, rule["count"]))]


def exactly(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    found = members(game, rule["of"], force)
    n = counted(found)
    want = rule["count"]
    if n == want:
        return []
    if n == 0:  # 'no leader chosen: 0, exactly 1 needed'
        return [Finding((0, want))]
    if n < want:
        return [Finding((want - n, n, want))]
    return [Finding((n - want, n, *who(found), want), tuple(i for i, _, _ in found))]


def at_least_share(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    total = all_models(game, force)
    n = counted(members(game, rule["of"], force))
    # n / total >= numerator / denominator, in whole numbers (the ruling half-basic)
    if n * rule["denominator"] >= total * rule["numerator"]:
        return []
    need = ceil_div(total * rule["numerator"], rule["denominator"])
    return [Finding((need - n, n, total, need))]


def at_most_per(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    total = all_models(game, force)
    found = members(game, rule["of"], force)
    n = counted(found)
    steps = total // rule["per"] if rule["rounding"] == "down" else ceil_div(total, rule["per"])
    allowed = steps * rule["count"]
    if n <= allowed:
        return []
    numbers = (n - allowed, n, total, allowed, rule["count"], rule["per"])
    return [Finding(numbers, tuple(i for i, _, _ in found))]


def _on_step(rule: Mapping[str, Any], v: int) -> bool:
    """Whether ``v`` keeps the range and lands on a step, the steps counted from the minimum
    (from 0 without one): Speed 0 or more in steps of 3 is 0, 3, 6 ..."""
    low, high, step = rule["minimum"], rule["maximum"], rule["step"]
    if (low is not None and v < low) or (high is not None and v > high):
        return False
    return not step or (v - (low or 0)) % step == 0


def stat_range(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    out = []
    low, high, step = rule["minimum"], rule["maximum"], rule["step"]
    for i, m in enumerate(force):
        v = m.stats[rule["stat"]]
        if low is not None and v < low:
            out.append(Finding((v, low - v, low), (i,)))
        elif high is not None and v > high:
            out.append(Finding((v, v - high, high), (i,)))
        elif step and not _on_step(rule, v):
            # the nearest legal values below and above, found by looking at each one in turn
            below = [w for w in range(v - step, v) if _on_step(rule, w)]
            above = [w for w in range(v + 1, v + step + 1) if _on_step(rule, w)]
            near = ([max(below)] if below else []) + ([min(above)] if above else [])
            # the message names the minimum the steps start from, when it is not 0
            start = (low,) if low else ()
            out.append(Finding((v, *start, step, *near), (i,)))
    return out


def exclusive(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    out = []
    for i, m in enumerate(force):
        held = m.stats.get(rule["stat"]) or ()
        clash = tuple(v for v in rule["values"] if v in held)
        if len(clash) >= 2:
            out.append(Finding((), (i,), clash))
    return out


def unit_size(rule: Mapping[str, Any], game: Game, force: Sequence[Model], agreed: int | None) -> list[Finding]:
    out = []
    low, high = rule["minimum"], rule["maximum"]
    span = tuple(x for x in (low, high) if x is not None)  # '6 to 15', 'at least 6', 'at most 15'
    for i, m in enumerate(force):
        size = figures(game, m)
        if low is not None and size < low:
            out.append(Finding((size, low - size, *span), (i,)))
        elif high is not None and size > high:
            out.append(Finding((size, size - high, *span), (i,)))
    return out


Verdict = Callable[[Mapping[str, Any], Game, Sequence[Model], "int | None"], list[Finding]]

# Every kind the engine has must be here (tests/test_force_rules_reference.py checks it).
VERDICTS: dict[str, Verdict] = {
    "limit": limit,
    "at_most": at_most,
    "at_least": at_least,
    "exactly": exactly,
    "at_least_share": at_least_share,
    "at_most_per": at_most_per,
    "stat_range": stat_range,
    "exclusive": exclusive,
    "unit_size": unit_size,
}
