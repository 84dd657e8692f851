"""Exact odds from a rule set's dice: one matchup, or a list against a list, and their words.

icepool loads inside the engine when odds are first worked out, not with this module."""

from __future__ import annotations

from typing import Any

from listbuilder.army.report import Report
from listbuilder.errors import InputError
from listbuilder.odds.ask import (
    Situation,
    list_matrix,
    matrix_cells,
    matrix_view,
    matrix_views,
    one_matchup,
    situation_of,
)
from listbuilder.odds.ask import matrix_text as matrix_text
from listbuilder.odds.ask import outcome_text as outcome_text
from listbuilder.odds.attacks import attack_kinds
from listbuilder.odds.matchups import Matrix, Outcome
from listbuilder.odds.spec import AttackKind
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.formats import Unit

__all__ = [
    "AttackKind",
    "Matchups",
    "Outcome",
    "attacks_of",
    "matrix_text",
    "odds",
    "odds_grid",
    "odds_grids",
    "odds_lists",
    "outcome_text",
]


def attacks_of(catalogs: Catalogs, system_id: str) -> tuple[AttackKind, ...]:
    """The kinds of attack a rule set's odds tell apart (melee, ranged...), its default first;
    ``OddsError`` (an ``InputError``) when it has no odds."""
    return attack_kinds(catalogs.get(system_id))


def odds(
    catalogs: Catalogs,
    system_id: str,
    attacker: str,
    target: str,
    situation: Situation | None = None,
    *,
    mechanic: str | None = None,
    attack: str | None = None,
) -> Outcome:
    """Exact odds of one attack: units are catalog names or statlines (``Beast, Might 6``), the
    situation the values of the mechanic's options (``{"cover": "soft", "defending": True}``),
    ``attack`` the kind of attack (``"ranged"``: see ``attacks_of``)."""
    return one_matchup(catalogs.get(system_id), attacker, target, mechanic, situation or {}, attack)


def odds_lists(
    a: Report,
    b: Report,
    situation: Situation | None = None,
    *,
    mechanic: str | None = None,
    attack: str | None = None,
) -> Matchups:
    """Every unit of list ``a`` attacking every unit of list ``b`` with one kind of attack
    (``attack``; default the rule set's first), with kills per 100 points."""
    _one_rule_set(a, b)
    values = situation_of(a.system, mechanic, situation or {}, attack)
    grid, _, columns = list_matrix(a.system, a, b, mechanic=mechanic, attack_kind=attack, **values)
    return Matchups(grid=grid, a=a, b=b, columns=tuple(columns))


@record
class Matchups(Record):
    """The odds grid of one list's units against another's."""

    grid: Matrix
    a: Report
    b: Report
    columns: tuple[Unit, ...]

    def as_json(self) -> dict[str, Any]:
        grid = self.grid
        cells = matrix_cells(grid, self.columns)
        return {
            "system": grid.system,
            "mechanic": grid.mechanic,
            "attack": grid.attack,
            "attackers": [line.entry.unit.name for line in self.a.lines],
            "targets": [u.name for u in self.columns],
            "expected_kills": [[None if c is None else float(c.expected_kills) for c in row] for row in cells],
            "kills_per_100_points": None
            if grid.efficiency is None
            else [None if e is None else float(e) for e in grid.efficiency],
        }


def odds_grid(a: Report, b: Report, attack: str | None = None) -> dict[str, Any]:
    """The odds of each unit of ``a`` attacking each of ``b`` with one kind of attack (default the
    rule set's first) as the printed reference sheet shows them (``_matrix.html``): its ``mechanic``
    names the kind, ``kinds`` lists every kind (id, title). A ``ListbuilderError`` says why there
    is none: the lists are of different rule sets, one has no units, the rule set has no odds (or
    no such kind of attack), or a unit breaks the rules so that its odds cannot be worked out."""
    _comparable(a, b)
    return matrix_view(a.system, a, b, attack)


def odds_grids(a: Report, b: Report) -> list[dict[str, Any]]:
    """``odds_grid`` for each of the rule set's kinds of attack, the default first."""
    _comparable(a, b)
    return matrix_views(a.system, a, b)


def _one_rule_set(a: Report, b: Report) -> None:
    if a.system.id != b.system.id:
        raise InputError.detailed(
            f"the lists are for different rule sets: {a.system.id} and {b.system.id}",
            "odds compare lists of one rule set",
        )


def _comparable(a: Report, b: Report) -> None:
    """An ``InputError`` when two lists cannot have an odds grid: different rule sets, or no units."""
    _one_rule_set(a, b)
    for report in (a, b):
        if not report.lines:
            raise InputError.detailed(f"{report.army.name} has no units yet", "odds need a unit on each side")
