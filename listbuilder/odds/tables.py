"""Engines for the table kinds: a ratio-banded threshold table, a banded save, paired d6 rolls.

Each engine takes the rule set, its mechanic (data from odds.yaml), the two units and the
resolved situation, and returns a ``Tally`` of exact chances. Each also draws its rules-card
table. None of them knows which rule set it serves.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from listbuilder.odds import bounds, dice
from listbuilder.odds.load import COMPARISON, ratio
from listbuilder.odds.results import CardTable, Tally, percent, tally
from listbuilder.odds.situation import Values, check, has, holds, modifier, read
from listbuilder.odds.spec import Band, BandedSave, DamageRoll, FromUnit, PairedRolls, RatioTable, Roll
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit

_OPS = {">": operator.gt, ">=": operator.ge, "=": operator.eq, "<": operator.lt, "<=": operator.le}


def in_band(band: Band, value: Fraction, against: Fraction) -> bool:
    """Whether value / against lies in the band (compared without dividing, so 0 is fine)."""
    low, high = ratio(band.above), ratio(band.at_least)
    top, cap = ratio(band.below), ratio(band.at_most)
    return (
        (low is None or value > low * against)
        and (high is None or value >= high * against)
        and (top is None or value < top * against)
        and (cap is None or value <= cap * against)
    )


def pick(bands: Sequence[Band], value: Fraction, against: Fraction) -> Band:
    """The band a ratio falls in (the bands cover every ratio; load.py checks that)."""
    return next(b for b in bands if in_band(b, value, against))


# --- ratio_table ---------------------------------------------------------------------------


def ratio_table(system: System, m: RatioTable, attacker: Unit, target: Unit, v: Values) -> Tally:
    """One roll against the column the two sides' stats pick; each number reached is a result."""
    units = {"attacker": attacker, "target": target}
    check(system, m.requires, units, v)
    stat = FromUnit(stat=m.stat)
    value = {side: read(system, unit, stat) for side, unit in units.items()}
    for mult in m.multipliers:
        if v.get(mult.option):
            value[mult.side] *= ratio(mult.factor) or 1
    band = pick(m.bands, value["attacker"], value["target"])
    roll = m.roll
    for special in m.special_rolls:
        if holds(special.when, special.unless, v) and has(
            system, units[special.side], special.stat, special.property, special.equals
        ):
            roll = special.roll
            break
    odd_fails = m.odd_fails is not None and v.get(m.odd_fails.option) in m.odd_fails.values
    chances = _threshold_chances(roll, band.needs, odd_fails)
    named = {r.name: c for r, c in zip(m.results, chances, strict=True)}
    named[m.otherwise.name] = 1 - sum(chances, Fraction(0))
    for up in m.upgrades:
        if v.get(up.option) and up.result != up.becomes:
            named[up.becomes] += named[up.result]
            named[up.result] = Fraction(0)
    return tally((r.name, named[r.name], r.kills, r.losses) for r in (*m.results, m.otherwise))


def _threshold_chances(roll: Roll, needs: Sequence[int], odd_fails: bool) -> list[Fraction]:
    """Chance of reaching each number (best first) but not the one before it."""
    dist = dice.total(roll.dice, roll.sides, roll.keep_highest)
    chances = []
    ceiling: int | None = None
    for need in needs:
        chance = sum(
            (p for total, p in dist.items() if total >= need and (ceiling is None or total < ceiling)),
            Fraction(0),
        )
        if odd_fails:
            chance -= sum(
                (p for t, p in dist.items() if t % 2 and t >= need and (ceiling is None or t < ceiling)), Fraction(0)
            )
        chances.append(chance)
        ceiling = need
    return chances


def ratio_table_card(system: System, m: RatioTable) -> list[CardTable]:
    """The table's columns with the numbers needed and each result's chance for every roll used."""
    rows: list[tuple[str, ...]] = []
    for k, result in enumerate(m.results):
        rows.append((f"{result.name.capitalize()} on", *(str(b.needs[k]) for b in m.bands)))
    rolls = list(dict.fromkeys([m.roll, *(s.roll for s in m.special_rolls)]))
    for roll in rolls:
        per_band = [_threshold_chances(roll, b.needs, False) for b in m.bands]
        for k, result in enumerate(m.results):
            rows.append((f"{result.name.capitalize()}, {_roll_name(roll)}", *(percent(c[k]) for c in per_band)))
    who = []
    for special in m.special_rolls:
        names = [
            c.name
            for c in system.definition.stats[special.stat].choices
            if c.properties.get(special.property) == special.equals
        ]
        who.append(f"{_roll_name(special.roll)} for {', '.join(names) or 'none'} {special.equals}")
    stat = system.definition.stats[m.stat].label
    note = f"Exact chances for one roll of {_roll_name(m.roll)}"
    if who:
        note += "; " + "; ".join(who)
    return [
        CardTable(
            title=m.title,
            columns=(f"{stat}: attacker vs target", *(b.column for b in m.bands)),
            rows=tuple(rows),
            note=note + ".",
            source=m.source,
        )
    ]


def _roll_name(roll: Roll) -> str:
    if roll.keep_highest is not None and roll.keep_highest < roll.dice:
        return (
            f"{roll.dice}D{roll.sides} drop the lowest"
            if roll.keep_highest == roll.dice - 1
            else (f"{roll.dice}D{roll.sides} keep {roll.keep_highest}")
        )
    return f"{roll.dice}D{roll.sides}"


# --- banded_save ---------------------------------------------------------------------------


def removal_chance(system: System, roll: DamageRoll | None, unit: Unit) -> Fraction:
    """The chance a casualty is removed: 1, or the damage roll's chance for units that make one."""
    if roll is None or not has(system, unit, roll.stat, roll.property, True):
        return Fraction(1)
    return Fraction(roll.sides - roll.removed_on + 1, roll.sides)


def banded_save(system: System, m: BandedSave, attacker: Unit, target: Unit, v: Values) -> Tally:
    """The saving side's one die against the roll its stat / the option's number band gives."""
    unit = target if m.side == "target" else attacker
    band = pick(m.bands, read(system, unit, FromUnit(stat=m.stat)), Fraction(v[m.against]))
    return _save(m, band, removal_chance(system, m.damage_roll, unit))


def _save(m: BandedSave, band: Band, removed: Fraction = Fraction(1)) -> Tally:
    """One die against the band's roll: each passing face gives the result that lists it (or the
    one that lists no faces); a failure costs the model, or a damage roll."""
    save_on = band.save_on or m.sides
    named = {r.name: Fraction(0) for r in m.passes}
    for face in range(save_on, m.sides + 1):
        listed = [r for r in m.passes if face in r.faces] or [r for r in m.passes if not r.faces]
        if listed:
            named[listed[0].name] += Fraction(1, m.sides)
    rows = [(r.name, named[r.name], r.kills, r.losses) for r in m.passes]
    rows.append((m.fails.name, Fraction(save_on - 1, m.sides), m.fails.kills * removed, m.fails.losses))
    return tally(rows)


def banded_save_card(system: System, m: BandedSave) -> list[CardTable]:
    """The save and its results beside each band, and a grid of the chance to save."""
    stat = system.definition.stats[m.stat].label
    against = m.against.replace("_", " ")
    first, last = m.card_grid
    bounds.check(last - first + 1, bounds.MAX_CARD_GRID, "rows of the card's odds grid ('card_grid')")
    by_band = [(band.column, f"{band.save_on}+", *(percent(c) for _, c in _save(m, band).results)) for band in m.bands]
    grid = []
    for value in range(first, last + 1):
        bands = [pick(m.bands, Fraction(value), Fraction(k)) for k in range(first, last + 1)]
        grid.append((f"{stat} {value}", *(percent(1 - _save(m, b).results[-1][1]) for b in bands)))
    names = [r.name for r in m.passes] + [m.fails.name]
    return [
        CardTable(
            title=m.title,
            columns=(f"{stat} against {against}", "Save", *(n.capitalize() for n in names)),
            rows=tuple(by_band),
            note=f"One D{m.sides}; chances are exact.",
            source=m.source,
        ),
        CardTable(
            title=f"{m.title}: chance to save",
            columns=(f"{stat} \\ {against}", *(str(k) for k in range(first, last + 1))),
            rows=tuple(grid),
            note=f"Rows: {stat}; columns: {against}.",
            source=m.source,
        ),
    ]


# --- paired_rolls --------------------------------------------------------------------------


def paired_rolls(system: System, m: PairedRolls, attacker: Unit, target: Unit, v: Values) -> Tally:
    """Every figure of the pairing rolls one die plus its modifiers; the pairing's table decides."""
    units = {"attacker": attacker, "target": target}
    check(system, m.requires, units, v)
    pairing = next(p for p in m.pairings if p.id == v[m.pairing_option])
    mods = {side: modifier(system, m.modifiers, side, unit, v) for side, unit in units.items()}
    return _pair(m, pairing.id, mods["attacker"], mods["target"])


def _pair(m: PairedRolls, pairing_id: str, attacker_mod: tuple[int, int], target_mod: tuple[int, int]) -> Tally:
    pairing = next(p for p in m.pairings if p.id == pairing_id)
    dice_list = []
    for (every, one), count in ((attacker_mod, pairing.attacker_figures), (target_mod, pairing.target_figures)):
        dice_list += [dice.d(m.sides) + every + (one if k == 0 else 0) for k in range(count)]
    split = pairing.attacker_figures

    def classify(*rolls: int) -> int:
        mine, theirs = rolls[:split], rolls[split:]
        q = _quantities(mine, theirs)
        return next(i for i, r in enumerate(pairing.results) if all(_test(text, q) for text in r.when))

    chances = dice.joint(classify, dice_list)
    return tally((r.name, chances.get(i, Fraction(0)), r.kills, r.losses) for i, r in enumerate(pairing.results))


def _quantities(mine: Sequence[int], theirs: Sequence[int]) -> dict[str, int]:
    return {
        "attacker": sum(mine),
        "attacker_high": max(mine),
        "attacker_low": min(mine),
        "target": sum(theirs),
        "target_high": max(theirs),
        "target_low": min(theirs),
    }


def _test(text: str, q: dict[str, Any]) -> bool:
    found = COMPARISON.match(text)
    assert found is not None  # load.py checked every comparison
    left, op, right = found.groups()
    return bool(_OPS[op](q[left], q[right]))


def paired_rolls_card(system: System, m: PairedRolls) -> list[CardTable]:
    """Each pairing's results by the difference in modifiers."""
    tables = []
    for pairing in m.pairings:
        rows = []
        for diff in m.card_modifiers:
            result = _pair(m, pairing.id, (diff, 0), (0, 0))
            label = "equal" if diff == 0 else f"attacker {diff:+d}"
            rows.append((label, *(percent(c) for _, c in result.results)))
        tables.append(
            CardTable(
                title=f"{m.title}: {pairing.id}",
                columns=("Modifiers", *(r.name.capitalize() for r in pairing.results)),
                rows=tuple(rows),
                note="Each figure rolls one die plus its modifiers; chances are exact.",
                source=pairing.source,
            )
        )
    return tables
