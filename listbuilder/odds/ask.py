"""The odds as a player asks for them: units named or written as statlines, a situation's values
given as text, and the answers laid out as text or as a printed grid. The library never prints;
the faces show these."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from listbuilder.army.report import Report
from listbuilder.errors import InputError
from listbuilder.odds.attacks import attack_kinds, attack_named
from listbuilder.odds.matchups import Matrix, Outcome, fielded, matchup, matrix, mechanic_of
from listbuilder.odds.parts import option_values
from listbuilder.odds.results import figure, percent
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.rules.statline import parse_stats, stats_example, stats_text
from listbuilder.words import one_of


def read_unit(system: System, spec: str) -> Unit:
    """A catalog unit by name ('Hunter'), or a statline ('Beast, Might 6', also 'class=Beast,might=6')."""
    unit = system.find_unit(spec.strip())
    if unit is not None:
        return unit
    stats = parse_stats(system, spec)
    if isinstance(stats, str):
        if "=" not in spec and "," not in spec:  # one word or a name: most likely a misspelt unit
            system.unit_named(spec, f"give a catalog unit's name, or a statline such as '{stats_example(system)}'")
        raise InputError.detailed(
            f"this statline cannot be read: '{spec}'", stats, hint=f"write it as '{stats_example(system)}'"
        )
    unit, errors = system.unit_from({"name": spec, **stats})
    if unit is None:
        raise InputError(f"this statline cannot be read: '{spec}'", details=errors)
    return dataclasses.replace(unit, name=stats_text(system, unit))  # name it by its stats


Situation = Mapping[str, "str | bool | int"]  # an option's value as given: a form's text, a bare flag


def situation_of(system: System, mechanic: str | None, given: Situation, attack: str | None = None) -> dict[str, Any]:
    """A situation as the mechanic's option values (checked by ``resolve``): a value given as text,
    a form's field or a word typed, is read by its option's kind (a flag's yes or no, a number's
    digits); a flag may be given as ``True`` alone, and so may no other option. ``attack`` names
    the kind of attack, whose mechanic's options these are when ``mechanic`` is not given."""
    if attack is not None and mechanic is None:
        mechanic = attack_named(system, attack).mechanic
    options = mechanic_of(system, mechanic).options
    out: dict[str, Any] = {}
    for key, value in given.items():
        option = options.get(key)
        if option is None or not isinstance(value, str):
            if value is True and option is not None and option.kind != "flag":
                takes = "a whole number" if option.kind == "number" else one_of(option_values(system, option))
                raise InputError.detailed(
                    f"the option '{key}' needs a value", f"{key} is {takes}", hint=option.summary or None
                )
            out[key] = value
        elif option.kind == "flag":
            out[key] = value.strip().lower() not in ("false", "no", "0", "off")
        elif option.kind == "number" and value.strip().lstrip("-").isdigit():
            if len(value.strip().lstrip("-")) > 18:
                raise InputError.detailed(
                    f"{key}: the number {value.strip()[:20]}... is far too large", "give a number of at most 18 digits"
                )
            out[key] = int(value)
        else:
            out[key] = value.strip()
    return out


def _chance(c: Fraction, exact: bool) -> str:
    shown = percent(c)
    return f"{shown:>7}  {c.numerator}/{c.denominator}" if exact and c not in (0, 1) else f"{shown:>7}"


def situation_text(situation: Sequence[tuple[str, Any]]) -> str:
    """``attack melee, cover partial, defending``: the situation as a player would say it."""
    parts = []
    for key, value in situation:
        name = key.replace("_", " ")
        if value is True:
            parts.append(name)
        elif value not in (None, False):
            parts.append(f"{name} {value}")
    return ", ".join(parts)


def outcome_text(outcome: Outcome, exact: bool = False) -> str:
    situation = situation_text(outcome.situation)
    title = outcome.attack_title or outcome.title
    lines = [f"{title}: {outcome.attacker} against {outcome.target}" + (f" ({situation})" if situation else "")]
    rows = [(r.name, _chance(r.chance, exact)) for r in outcome.results]
    rows.append(("expected models removed", f"{figure(outcome.expected_kills):>7}"))
    width = max(len(name) for name, _ in rows)
    lines += [f"  {name:<{width}}  {shown}" for name, shown in rows]
    if outcome.truncation:
        lines.append(f"  (exploding dice followed 10 deep: each chance is within {float(outcome.truncation):.0e})")
    return "\n".join(lines)


def list_matrix(system: System, a: Report, b: Report, **situation: Any) -> tuple[Matrix, list[Unit], list[Unit]]:
    """A's units (one row per entry) against B's: columns per entry of B, efficiency weighted by
    B's counts; ``situation`` as ``matrix`` takes it (``attack_kind='ranged'``, ``cover='soft'``...)."""
    rows = [line.entry.unit for line in a.lines]
    every_b = fielded(b)
    grid = matrix(system, rows, every_b, **situation)
    columns = [line.entry.unit for line in b.lines]
    return grid, rows, columns


def matrix_cells(grid: Matrix, columns: Sequence[Unit]) -> list[list[Outcome | None]]:
    """The grid's cells for each distinct column unit (its first fielded copy)."""
    firsts = [next(j for j, u in enumerate(grid.targets) if u is unit) for unit in columns]
    return [[row[j] for j in firsts] for row in grid.cells]


def matrix_text(grid: Matrix, a: Report, b: Report, columns: Sequence[Unit]) -> str:
    cells = matrix_cells(grid, columns)
    head = [
        "",
        *(
            f"{u.name} ×{line.entry.count}" if line.entry.count > 1 else u.name
            for u, line in zip(columns, b.lines, strict=True)
        ),
    ]
    if grid.efficiency is not None:
        head.append(f"kills/100 {a.system.size_unit}")
    table = [head]
    for i, line in enumerate(a.lines):
        row = [line.entry.unit.name + (f" ×{line.entry.count}" if line.entry.count > 1 else "")]
        row += ["–" if c is None else figure(c.expected_kills) for c in cells[i]]
        if grid.efficiency is not None:
            eff = grid.efficiency[i]
            row.append("–" if eff is None else figure(eff))
        table.append(row)
    widths = [max(len(r[k]) for r in table) for k in range(len(head))]
    kind = grid.attack_title or grid.mechanic
    out = [f"{a.army.name} against {b.army.name} ({grid.system}, {kind}): expected models removed by one attack"]
    for r in table:
        out.append(
            "  " + "  ".join(c.rjust(w) if k else c.ljust(w) for k, (c, w) in enumerate(zip(r, widths, strict=True)))
        )
    if any(c is None for row in cells for c in row):  # the legend explains only what the grid shows
        out.append(f"  – : {no_attack_text(kind)}")
    if grid.efficiency is not None:
        out.append(f"  {efficiency_text(b.army.name, a.system.size_unit)}")
    return "\n".join(out)


def no_attack_text(kind: str) -> str:
    """What a dash in a grid of ``kind`` means, said once below it."""
    return f"the row's unit cannot make this kind of attack ({kind.lower()}) on the column's unit"


def efficiency_text(opponent: str, measure: str) -> str:
    """What a grid's "kills per 100 points" column means, in one sentence."""
    return (
        f"Kills per 100 {measure}: the models one attack of the unit is expected to remove, averaged over"
        f" every model of {opponent}, for each 100 {measure} the unit costs: the higher, the more the unit's"
        f" {measure} buy."
    )


def one_matchup(
    system: System, attacker: str, target: str, mechanic: str | None, situation: Situation, attack: str | None = None
) -> Outcome:
    return matchup(
        system,
        read_unit(system, attacker),
        read_unit(system, target),
        mechanic=mechanic,
        attack_kind=attack,
        **situation_of(system, mechanic, situation, attack),
    )


HEAT_STEPS = (Fraction(1, 20), Fraction(3, 20), Fraction(3, 10), Fraction(1, 2))


def heat(kills: Fraction | None) -> int:
    """0 (no attack, or under 5%) to 4 (half a model or more): how dark a printed cell is."""
    if kills is None:
        return 0
    return sum(1 for step in HEAT_STEPS if kills >= step)


# A printed grid past this is unreadable on a page and slow to lay out (200 x 200 cells took
# 39 s and 1 GB in WeasyPrint); the rest is one command away, and the sheet says so.
PRINTED_ROWS = 40
PRINTED_COLUMNS = 12


def matrix_views(system: System, a: Report, b: Report) -> list[dict[str, Any]]:
    """One ``matrix_view`` for each of the rule set's kinds of attack, the default first."""
    return [matrix_view(system, a, b, kind.id) for kind in attack_kinds(system)]


def matrix_view(system: System, a: Report, b: Report, attack: str | None = None) -> dict[str, Any]:
    """The matrix of A against B as plain data for the printed reference sheet: the first
    ``PRINTED_ROWS`` entries of A against the first ``PRINTED_COLUMNS`` of B, and a note of the
    rest when there are more (kills per 100 points still count every one of B's models).
    ``attack`` picks the kind of attack (default: the rule set's first); ``kinds`` lists them
    all, (id, title), for a switch between them."""
    kinds = attack_kinds(system)
    kind = kinds[0] if attack is None else attack_named(system, attack)
    grid, _, columns = list_matrix(system, a, b, attack_kind=kind.id)
    cells = matrix_cells(grid, columns)
    shown_rows, shown_columns = a.lines[:PRINTED_ROWS], columns[:PRINTED_COLUMNS]
    rows: list[dict[str, Any]] = []
    for i, line in enumerate(shown_rows):
        eff = None if grid.efficiency is None else grid.efficiency[i]
        rows.append(
            {
                "name": line.entry.unit.name,
                "count": line.entry.count,
                "cells": [
                    {
                        "text": "–" if c is None else figure(c.expected_kills),
                        "heat": heat(None if c is None else c.expected_kills),
                    }
                    for c in cells[i][:PRINTED_COLUMNS]
                ],
                "efficiency": None if eff is None else figure(eff),
            }
        )
    left_out = []
    if len(a.lines) > PRINTED_ROWS:
        left_out.append(f"the first {PRINTED_ROWS} of the {len(a.lines)} entries of {a.army.name}")
    if len(columns) > PRINTED_COLUMNS:
        left_out.append(f"the first {PRINTED_COLUMNS} of the {len(columns)} entries of {b.army.name}")
    note = f"Shown: {' and '.join(left_out)}. The odds of the two whole lists give every matchup." if left_out else ""
    return {
        "title": f"{a.army.name} against {b.army.name}",
        "mechanic": kind.title,  # what the cells show: 'Ranged attack'
        "attack": kind.id,
        "kinds": [(k.id, k.title) for k in kinds],
        "explain": efficiency_text(b.army.name, system.size_unit) if grid.efficiency is not None else "",
        "no_attack": no_attack_text(kind.title),
        "columns": [
            {"name": u.name, "count": line.entry.count}
            for u, line in zip(shown_columns, b.lines[:PRINTED_COLUMNS], strict=True)
        ],
        "rows": rows,
        "efficiency": grid.efficiency is not None,
        "measure": system.size_unit,
        "note": note,
        "impossible": any(c["text"] == "–" for r in rows for c in r["cells"]),  # a cell the rules allow no attack
    }
