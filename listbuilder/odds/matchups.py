"""Exact matchup odds: one unit against another, a list against a list, and a rules card's tables.

``matchup`` looks up the mechanic in the rule set's odds file, checks the situation keywords
against the options it declares, and runs the engine of its kind. Answers are cached per
process, keyed by the units' stats and the situation, so a matrix of a list against itself
pays once for each distinct pairing.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from listbuilder.army.constraints import check_unit
from listbuilder.army.costing import unit_cost
from listbuilder.army.phrases import citation
from listbuilder.army.report import Report
from listbuilder.errors import ErrorDetail
from listbuilder.memory import Bounded
from listbuilder.odds import bounds, dice, load
from listbuilder.odds.attacks import kind_of, with_attack
from listbuilder.odds.bounds import TooMuchWork, named
from listbuilder.odds.kinds import ratio_table
from listbuilder.odds.load import load_odds
from listbuilder.odds.mechanic import Mechanic
from listbuilder.odds.results import CardTable, Tally, figure, percent
from listbuilder.odds.situation import ImpossibleMatchup, OddsError, resolve
from listbuilder.odds.spec import AttackKind
from listbuilder.record import Record, record
from listbuilder.rules import cache
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Unit
from listbuilder.words import did_you_mean


@record
class Chance(Record):
    """One named result of a matchup and its exact chance."""

    name: str
    chance: Fraction

    @property
    def percent(self) -> str:
        return percent(self.chance)


@record
class Outcome(Record):
    """The exact result of one matchup: each named result's chance, in order, and what it costs each side.

    ``expected_kills`` is the expected number of the target's models removed; ``expected_losses``
    the attacker's. ``truncation`` bounds the chance of the rare rolls an exploding die's chain
    was cut short in (0 for every mechanic without exploding dice): each chance is exact for
    the game in which a chain stops there, and within that bound of the unending one.
    """

    system: str
    mechanic: str
    title: str
    attacker: str
    target: str
    results: tuple[Chance, ...]
    expected_kills: Fraction
    expected_losses: Fraction
    situation: tuple[tuple[str, Any], ...]
    truncation: Fraction = Fraction(0)
    attack: str = ""  # the kind of attack (its id), where the rule set's odds file names one
    attack_title: str = ""  # its name: 'Ranged attack'

    def as_json(self) -> dict[str, Any]:
        """The shape ``listbuilder odds --json`` prints."""
        return {
            "system": self.system,
            "mechanic": self.mechanic,
            "attack": self.attack,
            "attacker": self.attacker,
            "target": self.target,
            "situation": dict(self.situation),
            "results": [{"name": r.name, "chance": float(r.chance), "exact": str(r.chance)} for r in self.results],
            "expected_kills": float(self.expected_kills),
            "truncation": float(self.truncation),
        }

    def __getitem__(self, name: str) -> Fraction:
        for r in self.results:
            if r.name == name:
                return r.chance
        raise KeyError(f"no result '{name}'; the results are: {', '.join(r.name for r in self.results)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.results)

    def rows(self) -> list[tuple[str, str]]:
        """(result, chance as printed) rows, then the expected kills."""
        return [(r.name, r.percent) for r in self.results] + [("expected kills", figure(self.expected_kills))]


# Answers, with the mechanic they answer; the least recently used are dropped past the bound.
# Answers, with the mechanic they answer; the least recently used are dropped past the bound.
# A success is keyed by what it depends on: the mechanic, both units' stats (not their names:
# the copies and renamed twins of a profile are one answer) and the situation. A refusal names
# the units asked about, so it is kept under their names as well.
_MATCHUPS: Bounded[tuple[Any, ...], tuple[Mechanic, Tally | OddsError]] = Bounded(65536)


def _unit_key(unit: Unit) -> tuple[Any, ...]:
    return (unit.leader, tuple(sorted(unit.stats.items())))


def mechanic_of(system: System, mechanic: str | None = None) -> Mechanic:
    """The rule set's named mechanic, or its default one for matchups."""
    odds = load_odds(system)
    chosen = odds.mechanic(mechanic or odds.matchup)
    if chosen is None:
        ids = [m.id for m in odds.mechanics]
        hint = did_you_mean(str(mechanic), ids) or f"its mechanics: {', '.join(ids)}"
        raise OddsError.detailed(f"{system.id} has no mechanic '{mechanic}'", hint)
    return chosen


def check_statline(system: System, unit: Unit) -> None:
    """``OddsError`` for a unit whose statline breaks a rule of its rule set (Might 0 where the
    least is 1), with the very problems ``validate`` reports for it: no odds are given for it."""
    broken = [p for p in check_unit(system, unit) if p.severity == "error"]
    if broken:
        raise OddsError(
            f"'{unit.name}' breaks the rules of {system.id}, so there are no odds for it",
            details=[
                ErrorDetail(
                    message=p.message, hint=f"rule: {p.rule}" + (f" [{citation(p.source)}]" if p.source else "")
                )
                for p in broken
            ],
        )


def matchup(
    system: System,
    attacker: Unit,
    target: Unit,
    *,
    mechanic: str | None = None,
    attack_kind: str | None = None,
    **situation: Any,
) -> Outcome:
    """The exact odds of ``attacker`` against ``target`` under the rule set's dice.

    ``attack_kind`` picks one of the rule set's kinds of attack (``'ranged'``: its mechanic and the
    options it sets), ``mechanic`` one of its mechanics (default: its odds file's ``matchup``);
    ``situation`` gives that mechanic's options (``cover='soft'``, ``defending=True``...), each
    with the default its odds file documents. Raises ``OddsError`` for an unknown option or a
    bad value, and ``ImpossibleMatchup`` when the rules do not allow the attack at all.
    """
    check_statline(system, attacker)
    check_statline(system, target)
    mechanic, situation = with_attack(system, attack_kind, mechanic, situation)
    m = mechanic_of(system, mechanic)
    values = resolve(system, m, situation)
    key = (system.id, id(m), _unit_key(attacker), _unit_key(target), tuple(sorted(values.items())))
    found = _answer(system, m, attacker, target, values, key)
    if isinstance(found, OddsError):
        raise found
    return _outcome(system.id, m, attacker, target, values, found, kind_of(system, m.id, values))


def _answer(
    system: System, m: Mechanic, attacker: Unit, target: Unit, values: dict[str, Any], key: tuple[Any, ...]
) -> Tally | OddsError:
    """The engine's answer for ``key`` (by stats), from the cache or worked out once.

    id(m): a reloaded (edited) odds file is a new object, so its answers are computed afresh;
    the answer keeps its mechanic, so an id reused after the old one is freed never matches."""
    for k in (key, (*key, attacker.name, target.name)):
        held = _MATCHUPS.get(k)
        if held is not None and held[0] is m:
            return held[1]
    try:
        tally = m.engine(system, attacker, target, values)
    except TooMuchWork as exc:
        refused: OddsError = named(exc, attacker.name, target.name)
    except OddsError as exc:
        refused = exc
    else:
        _MATCHUPS.put(key, (m, tally))
        return tally
    _MATCHUPS.put((*key, attacker.name, target.name), (m, refused))
    return refused


def _outcome(
    system_id: str,
    m: Mechanic,
    attacker: Unit,
    target: Unit,
    values: dict[str, Any],
    found: Tally,
    kind: AttackKind | None,
) -> Outcome:
    return Outcome(
        attack="" if kind is None else kind.id,
        attack_title="" if kind is None else kind.title,
        system=system_id,
        mechanic=m.id,
        title=m.title,
        attacker=attacker.name,
        target=target.name,
        results=tuple(Chance(name=n, chance=c) for n, c in found.results),
        expected_kills=found.kills,
        expected_losses=found.losses,
        situation=tuple(values.items()),
        truncation=found.truncation,
    )


@record
class Matrix(Record):
    """Every unit of one side against every unit of the other.

    ``cells[i][j]`` is the outcome of ``attackers[i]`` attacking ``targets[j]``, or ``None``
    where the rules do not allow it (it then counts as no kills). For rule sets that price
    units, ``efficiency[i]`` is attacker i's expected kills per 100 of the ``measure`` (points)
    it costs, averaged over the other side's units (so a unit fielded twice there counts twice).
    """

    system: str
    mechanic: str
    attackers: tuple[Unit, ...]
    targets: tuple[Unit, ...]
    cells: tuple[tuple[Outcome | None, ...], ...]
    costs: tuple[int, ...] | None
    efficiency: tuple[Fraction | None, ...] | None
    measure: str = ""
    attack: str = ""  # the kind of attack every cell shows (its id), where the odds file names one
    attack_title: str = ""  # its name: 'Ranged attack'

    def expected_kills(self, i: int, j: int) -> Fraction:
        cell = self.cells[i][j]
        return cell.expected_kills if cell is not None else Fraction(0)

    def rows(self) -> list[tuple[str, ...]]:
        """The matrix as printed: a heading row, then one row per attacker of expected kills."""
        head: tuple[str, ...] = ("", *(u.name for u in self.targets))
        if self.efficiency is not None:
            head += (f"kills per 100 {self.measure}",)
        out = [head]
        for i, unit in enumerate(self.attackers):
            cells = tuple("–" if c is None else figure(c.expected_kills) for c in self.cells[i])
            if self.efficiency is not None:
                eff = self.efficiency[i]
                cells += ("–" if eff is None else figure(eff),)
            out.append((unit.name, *cells))
        return out


def matrix(
    system: System,
    units_a: Sequence[Unit],
    units_b: Sequence[Unit],
    *,
    mechanic: str | None = None,
    attack_kind: str | None = None,
    **situation: Any,
) -> Matrix:
    """Each unit of ``units_a`` attacking each unit of ``units_b`` with one kind of attack (see
    ``Matrix``; ``attack_kind``, ``mechanic`` and ``situation`` as ``matchup`` takes them)."""
    pairs = len({id(u) for u in units_a}) * len({id(u) for u in units_b})
    bounds.check(pairs, bounds.MAX_GRID_PAIRS, "different pairs of units in an odds grid", GRID_HINT)
    for unit in {id(u): u for u in (*units_a, *units_b)}.values():
        check_statline(system, unit)
    # The mechanic, the situation and each unit's key are worked out once, not once a cell.
    mechanic, situation = with_attack(system, attack_kind, mechanic, situation)
    m = mechanic_of(system, mechanic)
    values = resolve(system, m, situation)
    kind = kind_of(system, m.id, values)
    head = (system.id, id(m))
    situation_key = tuple(sorted(values.items()))
    keys_b = [_unit_key(u) for u in units_b]
    # A list fields each copy of an entry as the same unit object: one outcome serves every
    # cell of a pair of objects, and one row every copy of an attacker (both sides hold their
    # units for the whole call, so the ids stay theirs).
    by_pair: dict[tuple[int, int], Outcome | None] = {}
    rows: dict[int, tuple[Outcome | None, ...]] = {}
    cells = []
    for attacker in units_a:
        if id(attacker) in rows:
            cells.append(rows[id(attacker)])
            continue
        key_a = _unit_key(attacker)
        built: list[Outcome | None] = []
        for target, key_b in zip(units_b, keys_b, strict=True):
            pair = (id(attacker), id(target))
            if pair not in by_pair:
                found = _answer(system, m, attacker, target, values, (*head, key_a, key_b, situation_key))
                if isinstance(found, ImpossibleMatchup):
                    by_pair[pair] = None
                elif isinstance(found, OddsError):
                    raise found
                else:
                    by_pair[pair] = _outcome(system.id, m, attacker, target, values, found, kind)
            built.append(by_pair[pair])
        rows[id(attacker)] = tuple(built)
        cells.append(rows[id(attacker)])
    costs = efficiency = None
    if not system.counts_figures:
        costs = tuple(unit_cost(system, u) for u in units_a)
        per_row: dict[tuple[int, int], Fraction | None] = {}  # a shared row and its cost: one sum
        for cost, row in zip(costs, cells, strict=True):
            if (id(row), cost) not in per_row:
                per_row[id(row), cost] = (
                    None  # no cost, no target, or no attack of this kind on any target: a dash, not 0
                    if not cost or not units_b or all(c is None for c in row)
                    else sum((c.expected_kills for c in row if c is not None), Fraction(0)) / len(units_b) * 100 / cost
                )
        efficiency = tuple(per_row[id(row), cost] for cost, row in zip(costs, cells, strict=True))
    return Matrix(
        system=system.id,
        mechanic=m.id,
        attackers=tuple(units_a),
        targets=tuple(units_b),
        cells=tuple(cells),
        costs=costs,
        efficiency=efficiency,
        measure=system.size_unit,
        attack="" if kind is None else kind.id,
        attack_title="" if kind is None else kind.title,
    )


GRID_HINT = "compare smaller lists, or two units alone"


def fielded(report: Report) -> list[Unit]:
    """Every unit a list fields, one per copy: a line of 4 Windblades gives 4."""
    copies = sum(line.entry.count for line in report.lines)
    bounds.check(copies, bounds.MAX_GRID_MODELS, f"models in {report.army.name} for an odds grid", GRID_HINT)
    return [line.entry.unit for line in report.lines for _ in range(line.entry.count)]


def card_odds(system: System) -> list[CardTable]:
    """The rules card's core tables with their odds, as rows of strings (the odds file's ``card``)."""
    odds = load_odds(system)
    out: list[CardTable] = []
    for mechanic_id in odds.card:
        m = odds.mechanic(mechanic_id)
        if m is not None:
            out += m.card(system)
    return out


def clear_caches() -> None:
    """Forget every cached answer, distribution and odds file (for benchmarks and tests)."""
    _MATCHUPS.clear()
    load.clear()
    cache.clear()
    dice.clear()
    ratio_table.clear()
