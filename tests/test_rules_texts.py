"""The numbers of the rule texts, pinned: worked examples and both sides of every force rule.

Line numbers name the line of the rule set's source text that gives the number (the same
lines the catalogs cite in their ``source:`` fields).
"""

from __future__ import annotations

import pytest
from conftest import units_yaml

from listbuilder.api.lists import check_list, price


def report_for(write_list, catalogs, text):
    return check_list(write_list(text), catalogs)


def messages(report):
    return [p.message for p in report.problems]


# --- speed-range-power: the points formula (source lines 43-50) --------------------------------


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("WW2 Officer", 22),  # line 47: Speed 6", Range 6", Power 3 = 22 points
        ("WW2 Soldier", 30),  # line 48: 6 + 16 + 8 = 30
        ("T34 Tank", 81),  # line 49: 9 + 32 + 40 = 81
        ("Medieval Knight", 22),  # line 50: 6 + 0 + 16 = 22
    ],
)
def test_worked_examples_cost_what_the_text_says(catalogs, unit, expected):
    result = price(catalogs.get("speed-range-power"), {}, unit)
    assert result.total == expected
    assert result.problems == ()


def test_worked_example_terms_add_up_as_printed(catalogs):
    # line 48: "6+16+8= 30 points"; line 49: "9+32+40= 81 points"
    system = catalogs.get("speed-range-power")
    assert [p.points for p in price(system, {}, "WW2 Soldier").parts] == [6, 16, 8]
    assert [p.points for p in price(system, {}, "T34 Tank").parts] == [9, 32, 40]
    assert [p.points for p in price(system, {}, "Medieval Knight").parts] == [6, 0, 16]


def test_custom_statline_is_priced_by_the_formula(catalogs):
    result = price(catalogs.get("speed-range-power"), {"speed": 6, "range": 24, "power": 2})
    assert result.total == 30


@pytest.mark.parametrize(
    ("stats", "message"),
    [
        ({"speed": 7, "range": 24, "power": 2}, 'Speed 7" is not a multiple of 3: 6" or 9" would be'),  # line 43
        ({"speed": 6, "range": 25, "power": 2}, 'Range 25" is not a multiple of 3: 24" or 27" would be'),  # line 44
        ({"speed": 6, "range": 24, "power": 0}, "Power 0 is 1 below the minimum of 1"),  # line 45
        ({"speed": -3, "range": 24, "power": 1}, 'Speed -3" is 3 below the minimum of 0"'),  # line 43: "can be 0"
    ],
)
def test_statline_rules_reject_off_step_and_low_values(catalogs, stats, message):
    result = price(catalogs.get("speed-range-power"), stats)
    assert [p.message for p in result.problems] == [message]


@pytest.mark.parametrize(
    "stats",
    [
        {"speed": 0, "range": 0, "power": 1},  # lines 43-45: Speed and Range may be 0, Power at least 1
        {"speed": 6, "range": 24, "power": 2},
        {"speed": 9, "range": 48, "power": 10},
    ],
)
def test_statline_rules_accept_the_boundaries(catalogs, stats):
    assert price(catalogs.get("speed-range-power"), stats).problems == ()


def test_attacker_and_defender_exclude_each_other(catalogs):
    # lines 38-39, read as opposites (ruling in the catalog)
    system = catalogs.get("speed-range-power")
    assert price(system, {"speed": 6, "range": 6, "power": 2, "traits": ["attacker"]}).problems == ()
    both = price(system, {"speed": 6, "range": 6, "power": 2, "traits": ["attacker", "defender"]})
    assert [p.rule_id for p in both.problems] == ["attacker-or-defender"]


# --- speed-range-power: one leader in ten (line 35, ruling: floor(models / 10)) -------------------


def srp_list(models: int, leaders: int) -> str:
    entries = [("WW2 Officer", leaders), ("Medieval Knight", models - leaders)]
    return "system: speed-range-power\nname: Leaders\nunits:\n" + units_yaml([e for e in entries if e[1]])


@pytest.mark.parametrize(
    ("models", "leaders", "legal"),
    [
        (9, 1, False),  # 9 models allow no leader
        (10, 1, True),  # 10 allow one
        (11, 1, True),
        (19, 2, False),  # 19 still allow only one
        (20, 2, True),
    ],
)
def test_one_leader_per_ten_models(write_list, catalogs, models, leaders, legal):
    report = report_for(write_list, catalogs, srp_list(models, leaders))
    assert report.legal() is legal
    if not legal:
        assert messages(report) == [
            f"1 leader too many: {leaders} among {models} models, at most {leaders - 1} (1 per 10 models, rounded down)"
        ]


def test_points_limit_boundary_speed_range_power(write_list, catalogs):
    # line 41: forces are built to an agreed points value; the list sets 44 here (2 knights).
    at = report_for(
        write_list,
        catalogs,
        "system: speed-range-power\nname: A\npoints: 44\nunits:\n  - unit: Medieval Knight\n    count: 2\n",
    )
    over = report_for(
        write_list,
        catalogs,
        "system: speed-range-power\nname: A\npoints: 43\nunits:\n  - unit: Medieval Knight\n    count: 2\n",
    )
    assert at.legal() and at.total == 44
    assert messages(over) == ["1 point over the 43-point limit (44 of 43)"]


def test_default_limit_is_the_texts_example_of_1000(write_list, catalogs):
    report = report_for(write_list, catalogs, "system: speed-range-power\nname: A\nunits:\n  - unit: WW2 Soldier\n")
    assert report.limit == 1000  # line 41: "such as 1000pts"


# --- might-skirmish (line 48) ------------------------------------------------------------------


def ms_list(entries, points: int | None = None) -> str:
    head = "system: might-skirmish\nname: Warband\n" + (f"points: {points}\n" if points else "")
    return head + "units:\n" + units_yaml(entries)


def test_fighter_costs_its_might(catalogs):
    # line 48: "The cost of a fighter is equal to their might value"; line 6: Hunter, Soldier, Might 10
    result = price(catalogs.get("might-skirmish"), {}, "Hunter")
    assert result.total == 10
    assert result.unit.stats == {"class": "Soldier", "might": 10}


def test_sixteen_fighters_are_allowed_seventeen_are_not(write_list, catalogs):
    # line 48: "a maximum of 16 fighters" (Shamblers: basic Warriors of Might 5)
    sixteen = report_for(write_list, catalogs, ms_list([("Shambler", 16)]))
    seventeen = report_for(write_list, catalogs, ms_list([("Shambler", 17)]))
    assert sixteen.legal() and sixteen.total == 80
    assert messages(seventeen) == ["1 fighter too many: 17 fighters, at most 16"]


def test_half_basic_boundary_with_seven_fighters(write_list, catalogs):
    # line 48: "at least half ... basic classes"; ruling: 7 fighters need 4 basic
    four = report_for(write_list, catalogs, ms_list([("Crow Swarm", 4), ("Grave Digger", 3)]))
    three = report_for(write_list, catalogs, ms_list([("Crow Swarm", 3), ("Grave Digger", 4)]))
    assert four.legal()
    assert messages(three) == ["1 basic fighter short: 3 of 7, at least 4 needed"]


def test_half_basic_with_an_even_count_needs_exactly_half(write_list, catalogs):
    assert report_for(write_list, catalogs, ms_list([("Crow Swarm", 4), ("Grave Digger", 4)])).legal()


def test_two_rare_fighters_are_allowed_three_are_not(write_list, catalogs):
    # line 48: "a maximum of 2 fighters with a rare class (Monsters, Mechs)"; points raised to isolate the rule
    two = report_for(write_list, catalogs, ms_list([("Grandpa Bones", 2), ("Shambler", 2)], points=200))
    three = report_for(write_list, catalogs, ms_list([("Grandpa Bones", 3), ("Shambler", 3)], points=200))
    assert two.legal()
    assert messages(three) == ["1 rare fighter too many: 3 rare fighters (Grandpa Bones ×3), at most 2"]
    assert three.problems[0].entry == "units[0] Grandpa Bones"


def test_standard_game_is_100_points(write_list, catalogs):
    # line 48: "A standard game is 100 points"
    at = report_for(write_list, catalogs, ms_list([("Hunter", 10)]))
    over = report_for(write_list, catalogs, ms_list([("Hunter", 10), ("Crow Swarm", 1)]))
    assert at.limit == 100 and at.total == 100 and at.legal()
    assert messages(over) == ["3 points over the 100-point limit (103 of 100)"]


def test_caps_hold_at_any_points_value(write_list, catalogs):
    # ruling: 16 fighters, half basic and 2 rare hold in bigger games too
    report = report_for(write_list, catalogs, ms_list([("Shambler", 17)], points=500))
    assert [p.rule_id for p in report.problems] == ["max-fighters"]


def test_might_must_be_at_least_one(write_list, catalogs):
    text = "system: might-skirmish\nname: W\nunits:\n  - name: Nobody\n    class: Soldier\n    might: {}\n"
    assert report_for(write_list, catalogs, text.format(1)).legal()
    assert messages(report_for(write_list, catalogs, text.format(0))) == ["Might 0 is 1 below the minimum of 1"]


def test_every_broken_rule_is_reported_together(write_list, catalogs):
    report = report_for(write_list, catalogs, ms_list([("Grandpa Bones", 3), ("Grave Digger", 15)]))
    assert [p.rule_id for p in report.problems] == ["points-limit", "max-fighters", "half-basic", "max-rare"]
    assert messages(report)[0] == "80 points over the 100-point limit (180 of 100)"
