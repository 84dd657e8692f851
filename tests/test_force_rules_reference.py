"""Every force-rule kind's verdict against a second, separately written one (force_rule_reference.py).

Hypothesis builds forces (units of four classes with any Might, traits, counts from 1 to a
million, ``leaders: N``, units of 1 to 40 figures) and rules of each kind with any parameters,
close to the force's own numbers so that both sides of each boundary come up. The engine judges
each force through ``build_report``, as ``validate`` does, in two rule sets the tests write: one
of single models costed by a stat and with leaders, one of units of figures that counts figures.
For every kind the engine and the reference must agree on whether the force keeps the rule and,
for each problem, on the numbers its message names, the values it names and the entries it
points at. A kind the engine gains without a reference here fails ``test_every_kind_has_a_reference``.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path
from typing import Any

import force_rule_reference as ref
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from listbuilder.army.report import build_report
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.forcerules import CONSTRAINT_KINDS
from listbuilder.rules.formats import ArmyList, Entry, Unit

CLASSES = ["Alpha", "Beta", "Gamma", "Delta"]
TRAITS = ["red", "blue", "green", "gold"]
STATS = """\
  class:
    label: Class
    kind: choice
    summary: What the model is.
    choices: [{name: Alpha}, {name: Beta}, {name: Gamma}, {name: Delta}]
  might:
    label: Might
    kind: number
    suffix: '"'
    summary: Its one number.
  traits:
    label: Traits
    kind: choices
    required: false
    default: []
    summary: Marks of no cost.
    choices: [{name: red}, {name: blue}, {name: green}, {name: gold}]
"""
GROUPS = """\
  common: {label: common, stat: class, any_of: [Alpha, Beta]}
  rare: {label: rare, stat: class, any_of: [Delta]}
  painted: {label: painted, stat: traits, any_of: [red, gold]}
"""
SKIRMISH = f"""\
id: refskirmish
name: Reference Skirmish
summary: Single models costed by their Might, with chiefs, for trying force rules on.
source: the test suite
revision: 1
model: {{singular: fighter, plural: fighters}}
force: band
measure: {{singular: point, plural: points}}
leader: {{singular: chief, plural: chiefs}}
default_limit: 100
stats:
{STATS}
cost: {{kind: stat, stat: might}}
groups:
{GROUPS}  chiefs: {{label: chief, leader: true, noun: {{singular: chief, plural: chiefs}}}}
  followers: {{label: follower, leader: false}}
constraints:
  - {{kind: limit, id: points-limit, rule: A band costs no more than the agreed points.}}
"""
REGIMENTS = f"""\
id: refregiments
name: Reference Regiments
summary: Units of figures, a force counted in figures, for trying force rules on.
source: the test suite
revision: 1
model: {{singular: figure, plural: figures}}
force: army
measure: {{singular: figure, plural: figures}}
leader: {{singular: leader, plural: leaders}}
figures_stat: size
default_limit: 100
stats:
  size:
    label: Figures
    kind: number
    summary: Figures in the unit.
{STATS}
cost: {{kind: figures}}
groups:
{GROUPS}
constraints:
  - {{kind: limit, id: figures-limit, rule: An army has no more figures than agreed.}}
"""
GAMES = {
    "refskirmish": ref.Game(
        groups={
            "common": ("stat", "class", ("Alpha", "Beta")),
            "rare": ("stat", "class", ("Delta",)),
            "painted": ("stat", "traits", ("red", "gold")),
            "chiefs": ("leader", True),
            "followers": ("leader", False),
        },
        cost_stat="might",
    ),
    "refregiments": ref.Game(
        groups={
            "common": ("stat", "class", ("Alpha", "Beta")),
            "rare": ("stat", "class", ("Delta",)),
            "painted": ("stat", "traits", ("red", "gold")),
        },
        figures_stat="size",
    ),
}
NUMBER = re.compile(r"-?\d+(?:,\d{3})*")


@pytest.fixture(scope="module")
def systems(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("reference-games")
    for name, text in (("refskirmish", SKIRMISH), ("refregiments", REGIMENTS)):
        (root / name).mkdir()
        (root / name / "system.yaml").write_text(text, encoding="utf-8")
    books = Catalogs([Path(root)], cache=False)
    return {name: books.get(name) for name in GAMES}


def kind_of(cls: type) -> str:
    (field,) = [f for f in dataclasses.fields(cls) if f.name == "kind"]
    (name,) = typing.get_args(field.type)
    return str(name)


def test_every_kind_has_a_reference():
    kinds = [kind_of(cls) for cls in CONSTRAINT_KINDS]
    assert sorted(kinds) == sorted(ref.VERDICTS), "a force-rule kind without a reference verdict (or one too many)"
    assert sorted(kinds) == sorted(RULES), "a force-rule kind without a strategy for its parameters"


# --- forces ---------------------------------------------------------------------------------------

NAMES = [f"Unit {a}{b}" for a in "ABCDEFGH" for b in "xyz"]  # no digits: messages' numbers are the rule's


# Built once, and a model in one draw: making strategies afresh costs more than judging a force.
TRAIT_SETS = [tuple(t for i, t in enumerate(TRAITS) if bits >> i & 1) for bits in range(2 ** len(TRAITS))]


def models(game: str) -> st.SearchStrategy[ref.Model]:
    def model(drawn: tuple[int, str, int, tuple[str, ...], int, int, str]) -> ref.Model:
        count, cls, might, traits, size, leaders, name = drawn
        stats: dict[str, Any] = {"class": cls, "might": might, "traits": traits}
        if game == "refregiments":  # units of figures, and no leaders
            return ref.Model(name=name, count=count, stats={**stats, "size": size})
        return ref.Model(name=name, count=count, stats=stats, leaders=min(leaders, count))

    return st.tuples(
        st.integers(1, 12) | st.integers(1, 1_000_000),
        st.sampled_from(CLASSES),
        st.integers(-5, 12) | st.integers(-5, 40),
        st.sampled_from(TRAIT_SETS),
        st.integers(1, 40),
        st.integers(0, 3) | st.integers(0, 1_000_000),
        st.sampled_from(NAMES),
    ).map(model)


def one_class(force: list[ref.Model]) -> list[ref.Model]:
    """The same entries all of class Alpha: every one of them in the group 'common'."""
    return [dataclasses.replace(m, stats={**m.stats, "class": "Alpha"}) for m in force]


FORCES = {
    # a few entries; enough that a message lists six contributors and 'N more'; or that many
    # all in one group
    game: st.one_of(
        st.lists(models(game), max_size=4),
        st.lists(models(game), min_size=6, max_size=10),
        st.lists(models(game), min_size=7, max_size=10).map(one_class),
    )
    for game in GAMES
}


def around(draw: st.DrawFn, force: list[ref.Model], stat: str, marks: list[int]) -> list[ref.Model]:
    """The force with each entry's ``stat`` moved, most of the time, to a value at or beside one of
    a rule's own numbers (a bound, a step past it), where a verdict turns."""
    points = sorted({m + d for m in marks for d in (-1, 0, 1)})
    values = st.sampled_from(points) | st.integers(-5, 40)
    return [dataclasses.replace(m, stats={**m.stats, stat: draw(values)}) for m in force]


def maybe(values: st.SearchStrategy[int]) -> st.SearchStrategy[int | None]:
    """A bound or step that is given two times in three, left out otherwise."""
    return st.one_of(values, values, st.none())


def near(draw: st.DrawFn, n: int, low: int = 0) -> int:
    """A number at the boundary ``n`` (just below, at, just above) or anywhere up to 3n + 3."""
    return max(low, draw(st.sampled_from([n - 1, n, n + 1]) | st.integers(low, 3 * n + 3)))


def group(draw: st.DrawFn, game: str, optional: bool) -> str | None:
    names = sorted(GAMES[game].groups)
    return draw(st.sampled_from([None, *names] if optional else names))


# --- each kind's parameters, drawn around the force's own numbers -------------------------------

# A kind's parameters, the list's limit, and the force (some kinds move its stats to their bounds).
Drawn = tuple[dict[str, Any], int | None, list[ref.Model]]


def _limit(draw: st.DrawFn, game: str, force: list[ref.Model]) -> Drawn:
    total = ref.total_cost(GAMES[game], force)
    return {}, draw(st.none() | st.just(near(draw, max(total, 1), low=1))), force


def _counted(draw: st.DrawFn, game: str, force: list[ref.Model]) -> Drawn:
    # any group, or the one with the most entries in it: the one whose message lists the most
    widest = max(GAMES[game].groups, key=lambda g: len(ref.members(GAMES[game], g, force)))
    of = draw(st.sampled_from([widest, None, *sorted(GAMES[game].groups)]))
    n = ref.counted(ref.members(GAMES[game], of, force))
    return {"of": of, "count": near(draw, n)}, None, force


def _share(draw: st.DrawFn, game: str, force: list[ref.Model]) -> Drawn:
    denominator = draw(st.integers(1, 6))
    return (
        {
            "of": group(draw, game, optional=False),
            "numerator": draw(st.integers(1, denominator)),
            "denominator": denominator,
        },
        None,
        force,
    )


def _per(draw: st.DrawFn, game: str, force: list[ref.Model]) -> Drawn:
    return (
        {
            "of": group(draw, game, optional=False),
            "per": draw(st.integers(1, 12)),
            "rounding": draw(st.sampled_from(["down", "up"])),
            "count": draw(st.integers(1, 3)),
        },
        None,
        force,
    )


def _range(draw: st.DrawFn, game: str, force: list[ref.Model]) -> Drawn:
    # hypothesis tries the first values first: a minimum off the steps (1 with steps of 3), so
    # that steps counted from the minimum and multiples of the step differ
    low = draw(maybe(st.sampled_from([1, 2, 4, 5, -1, 0, 3, 6, 7, 8, -2, -3])))
    high = draw(maybe(st.integers(low if low is not None else -3, 40)))
    step = draw(maybe(st.sampled_from([3, 2, 4, 5, 6, 1])))
    base = low if low is not None else 0
    marks = [x for x in (low, high) if x is not None] + [base + k * (step or 1) for k in range(-1, 4)]
    force = around(draw, force, "might", marks)
    return {"stat": "might", "minimum": low, "maximum": high, "step": step}, None, force


def _exclusive(draw: st.DrawFn, game: str, force: list[ref.Model]) -> Drawn:
    values = draw(st.lists(st.sampled_from(TRAITS), min_size=2, max_size=4, unique=True))
    return {"stat": "traits", "values": tuple(values)}, None, force


def _size(draw: st.DrawFn, game: str, force: list[ref.Model]) -> Drawn:
    low = draw(maybe(st.integers(1, 12)))
    high = draw(st.integers(1, 40)) if low is None else draw(maybe(st.integers(low, 40)))
    if game == "refregiments":  # units of figures: sizes at and beside the bounds
        moved = around(draw, force, "size", [low or 1, high or 1])
        force = [dataclasses.replace(m, stats={**m.stats, "size": max(1, m.stats["size"])}) for m in moved]
    return {"minimum": low, "maximum": high}, None, force


RULES = {
    "limit": _limit,
    "at_most": _counted,
    "at_least": _counted,
    "exactly": _counted,
    "at_least_share": _share,
    "at_most_per": _per,
    "stat_range": _range,
    "exclusive": _exclusive,
    "unit_size": _size,
}


# --- the comparison -------------------------------------------------------------------------------


def engine_verdict(system: Any, rule: Any, force: list[ref.Model], limit: int | None) -> list[Any]:
    """The problems ``rule`` finds in ``force``, judged as ``validate`` judges a list."""
    definition = dataclasses.replace(system.definition, constraints=(rule,))
    judged = dataclasses.replace(system, definition=definition)
    entries = tuple(
        Entry(index=i, unit=Unit(name=m.name, stats=dict(m.stats)), count=m.count, leaders=m.leaders, custom=True)
        for i, m in enumerate(force)
    )
    army = ArmyList(system=system.id, name="Tried", limit=limit, entries=entries)
    return [p for p in build_report(army, judged).problems if p.rule_id == rule.id]


def named_in_order(names: tuple[str, ...], message: str) -> bool:
    at = 0
    for name in names:
        found = re.compile(rf"\b{re.escape(name)}\b").search(message, at)
        if found is None:
            return False
        at = found.end()
    return True


@pytest.mark.parametrize("cls", CONSTRAINT_KINDS, ids=kind_of)
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_engine_agrees_with_the_reference(systems, cls, data):
    kind = kind_of(cls)
    game = data.draw(st.sampled_from(sorted(GAMES)), label="game")
    force = data.draw(FORCES[game], label="force")
    params, limit, force = RULES[kind](data.draw, game, force)
    rule = cls(kind=kind, id="the-rule", rule="The rule under test.", **params)
    severity = data.draw(st.sampled_from(["error", "warning"]))
    rule = dataclasses.replace(rule, severity=severity)

    expected = ref.VERDICTS[kind](params, GAMES[game], force, limit)
    found = engine_verdict(systems[game], rule, force, limit)
    event("broken" if expected else "kept")
    shown = [p.message for p in found]
    assert len(found) == len(expected), (shown, expected)
    for problem, want in zip(found, expected, strict=True):
        numbers = tuple(int(n.replace(",", "")) for n in NUMBER.findall(problem.message))
        assert numbers == want.numbers, (problem.message, want)
        assert problem.entries == want.entries, (problem.message, problem.entries, want)
        assert named_in_order(want.names, problem.message), (problem.message, want)
        assert problem.severity == severity and problem.rule == "The rule under test."
