"""Property tests: no input crashes the loader; each stat moves a cost exactly as its catalog's formula says."""

from __future__ import annotations

from pathlib import Path

import yaml
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.api.lists import price
from listbuilder.army.listfile import parse_list
from listbuilder.army.report import build_report
from listbuilder.errors import ListbuilderError
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.formats import Unit
from listbuilder.rules.loadout import as_data, is_mixed, names

CATALOGS = Catalogs()
PATH = Path("generated.yaml")
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(
        [
            "Hunter",
            "Soldier",
            "might-skirmish",
            "speed-range-power",
            "deathmelt",
            "deathzap",
            "melee-module",
            "units",
            "count",
            "leader",
            "name",
            "unit",
            "might",
            "class",
            "speed",
        ]
    ),
)
keys = st.sampled_from(
    [
        "system",
        "name",
        "points",
        "figures",
        "units",
        "unit",
        "name",
        "count",
        "leader",
        "class",
        "might",
        "speed",
        "range",
        "power",
        "traits",
        "type",
        "training",
        "armour",
        "weapons",
        "figures",
        "specials",
        "mihgt",
        "x",
    ]
)
documents = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=6), max_leaves=30
)


def load(text: str) -> None:
    try:
        army, system = parse_list(parse_yaml(text, PATH), CATALOGS)
    except ListbuilderError as exc:
        assert exc.render()  # every refusal explains itself
        return
    build_report(army, system)  # a list that loads can always be costed and judged


@SETTINGS
@given(st.text(max_size=300))
def test_no_text_crashes_the_loader(text):
    load(text)


@SETTINGS
@given(documents)
def test_no_structure_crashes_the_loader(data):
    load(yaml.safe_dump(data, allow_unicode=True))


@SETTINGS
@given(st.sampled_from(sorted(EXAMPLES.glob("*.yaml"))), st.data())
def test_no_mutation_of_an_example_crashes_the_loader(path, data):
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    i = data.draw(st.integers(0, max(0, len(lines) - 1)))
    replacement = data.draw(
        st.text(max_size=30)
        | st.sampled_from(["", "  count: -1\n", "    count: 0\n", "  - unit: Nobody\n", ": :\n", "\t\n"])
    )
    load("".join([*lines[:i], replacement, *lines[i + 1 :]]))


def _bump(system_id: str, unit: Unit, key: str, step: int) -> int:
    system = CATALOGS.get(system_id)
    d = system.definition
    stats = {**unit.stats, key: unit.stats[key] + step}
    if key == d.figures_stat:  # a loadout adds up to the unit's figures: arm every figure alike instead
        stats = {k: names(v) if is_mixed(v) else v for k, v in stats.items()}
    return price(system, {k: as_data(v, d.stats[k].item, d.figures_stat) for k, v in stats.items()}).total


# Each rule set's cost of one copy as a function of each number stat, written out from its
# catalog's cost (the other stats held): a stat not named here costs nothing.
COST_OF_STAT = {
    # might-skirmish: "cost = Might" (cost: kind stat, stat might; source 004 line 48), and its
    # 150-point variant keeps the base's cost
    "might-skirmish": {"might": lambda v: v},
    "might-skirmish-150": {"might": lambda v: v},
    # speed-range-power (source 003, lines 43-45): 1 point per inch of Speed, 2 points per full 3"
    # of Range (ruling partial-steps), 4 points per Power
    "speed-range-power": {"speed": lambda v: v, "range": lambda v: v // 3 * 2, "power": lambda v: 4 * v},
    # deathmelt counts figures (ruling figures-count): Armour, its one number stat, costs nothing
    "deathmelt": {},
    # deathzap and melee-module count figures: a unit costs its Figures
    "deathzap": {"figures": lambda v: v},
    "melee-module": {"figures": lambda v: v},
}


def test_every_rule_set_has_its_costs_written_out():
    assert sorted(COST_OF_STAT) == sorted(CATALOGS.ids())


@SETTINGS
@given(st.data())
def test_costs_grow_with_each_stat(data):
    system_id = data.draw(st.sampled_from(CATALOGS.ids()))
    system = CATALOGS.get(system_id)
    units = sorted(system.units.values(), key=lambda u: u.name)
    unit = data.draw(st.sampled_from(units))
    numbers = [k for k, s in system.definition.stats.items() if s.kind == "number"]
    key = data.draw(st.sampled_from(numbers))
    base_value = data.draw(st.integers(0, 60))
    step = data.draw(st.integers(1, 30))
    base = Unit(name=unit.name, stats={**unit.stats, key: base_value})
    cost = COST_OF_STAT[system_id].get(key, lambda v: 0)
    before, after = _bump(system_id, base, key, 0), _bump(system_id, base, key, step)
    # exactly the formula's growth: strictly more where the formula grows, the same where it does not
    assert after - before == cost(base_value + step) - cost(base_value), (system_id, key, base_value, step)


@SETTINGS
@given(st.integers(0, 30).map(lambda n: n * 3), st.integers(0, 30).map(lambda n: n * 3), st.integers(1, 30))
def test_speed_range_power_formula(speed, rng, power):
    # source lines 43-45: 1 per inch of Speed, 2 per 3" of Range, 4 per Power
    result = price(CATALOGS.get("speed-range-power"), {"speed": speed, "range": rng, "power": power})
    assert result.total == speed + rng // 3 * 2 + 4 * power
    assert result.problems == ()
