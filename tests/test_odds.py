"""Exact matchup odds: hand-computed values, brute-force and simulated oracles for every mechanic
kind, both sides of each band boundary, and properties that must hold for any unit."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from odds_oracles import bf_at_least, bf_attack, bf_chain, bf_pool, bf_totals

from listbuilder.api.lists import check_list
from listbuilder.odds import (
    ImpossibleMatchup,
    OddsError,
    card_odds,
    clear_caches,
    fielded,
    load_odds,
    matchup,
    matrix,
)
from listbuilder.odds.matchups import _MATCHUPS
from listbuilder.rules.formats import Unit

F = Fraction
SYSTEM_IDS = ["deathmelt", "deathzap", "melee-module", "might-skirmish", "speed-range-power"]


@pytest.fixture(scope="module")
def ms(catalogs):
    return catalogs.get("might-skirmish")


@pytest.fixture(scope="module")
def srp(catalogs):
    return catalogs.get("speed-range-power")


@pytest.fixture(scope="module")
def dm(catalogs):
    return catalogs.get("deathmelt")


@pytest.fixture(scope="module")
def dz(catalogs):
    return catalogs.get("deathzap")


@pytest.fixture(scope="module")
def mm(catalogs):
    return catalogs.get("melee-module")


def fighter(cls: str, might: int, name: str | None = None) -> Unit:
    return Unit(name=name or f"{cls} {might}", stats={"class": cls, "might": might})


def model(power: int, range_: int = 0, traits: tuple[str, ...] = ()) -> Unit:
    return Unit(name=f"Power {power}", stats={"speed": 6, "range": range_, "power": power, "traits": traits})


def total_is_one(outcome) -> bool:
    return sum(r.chance for r in outcome.results) == 1


# --- might-skirmish: the ratio table ---------------------------------------------------------


def test_hand_computed_equal_might(ms):
    out = matchup(ms, fighter("Soldier", 10), fighter("Soldier", 10))
    assert out["target killed"] == F(20, 216)
    assert out["target stunned"] == F(36, 216)
    assert out["no effect"] == F(160, 216)
    assert out.names == ("target killed", "target stunned", "no effect")
    assert out.expected_kills == F(20, 216) and out.truncation == 0


@pytest.mark.parametrize(
    ("a", "t", "kill_on", "stun_on"),
    [
        (10, 40, 18, 16),  # exactly a quarter
        (11, 40, 17, 15),  # just above a quarter
        (5, 10, 17, 15),  # exactly half
        (6, 10, 16, 14),  # just above half
        (9, 10, 16, 14),  # just below equal
        (10, 10, 15, 13),
        (11, 10, 14, 12),  # just above equal
        (19, 10, 14, 12),  # just below double
        (20, 10, 13, 11),  # exactly double
        (39, 10, 13, 11),  # just below four times
        (40, 10, 12, 10),  # exactly four times
    ],
)
def test_both_sides_of_each_column_boundary(ms, a, t, kill_on, stun_on):
    out = matchup(ms, fighter("Soldier", a), fighter("Soldier", t))
    totals = bf_totals(3)
    assert out["target killed"] == sum(p for s, p in totals.items() if s >= kill_on)
    assert out["target stunned"] == sum(p for s, p in totals.items() if stun_on <= s < kill_on)


@pytest.mark.parametrize("a", [1, 3, 5, 7, 10, 14, 20, 25, 40, 41])
@pytest.mark.parametrize(
    "situation",
    [
        {},
        {"cover": "partial"},
        {"defending": True},
        {"stunned": True},
        {"stunned": True, "defending": True, "cover": "partial"},
    ],
)
def test_ratio_table_matches_enumeration(ms, a, situation):
    out = matchup(ms, fighter("Soldier", a), fighter("Warrior", 10), **situation)
    kill, stun = bf_attack(
        a,
        10,
        partial=situation.get("cover") == "partial",
        defending=situation.get("defending", False),
        stunned=situation.get("stunned", False),
    )
    assert (out["target killed"], out["target stunned"]) == (kill, stun)
    assert total_is_one(out)


def test_four_dice_drop_the_lowest_by_class_and_attack(ms):
    sniper, berserker, monster, soldier = (fighter(c, 10) for c in ("Sniper", "Berserker", "Monster", "Soldier"))
    target = fighter("Soldier", 10)
    four = bf_attack(10, 10, dice=4, keep=3)
    three = bf_attack(10, 10)
    assert (matchup(ms, sniper, target, attack="ranged")["target killed"], four[0]) == (four[0], four[0])
    assert matchup(ms, sniper, target, attack="melee")["target killed"] == three[0]  # only when shooting
    assert matchup(ms, berserker, target)["target killed"] == four[0]
    assert matchup(ms, monster, target, attack="melee")["target killed"] == four[0]
    assert matchup(ms, monster, target, attack="ranged")["target killed"] == three[0]
    assert matchup(ms, soldier, target, attack="ranged")["target killed"] == three[0]
    assert (
        matchup(ms, sniper, target, attack="ranged", cover="partial")["target killed"]
        == bf_attack(10, 10, dice=4, keep=3, partial=True)[0]
    )


def test_defending_doubles_and_stunned_halves_the_target(ms):
    attacker = fighter("Soldier", 10)
    assert (
        matchup(ms, attacker, fighter("Warrior", 5), defending=True).results
        == matchup(ms, attacker, fighter("Warrior", 10)).results
    )
    stunned = matchup(ms, fighter("Soldier", 5), fighter("Warrior", 10), stunned=True)
    assert stunned["target killed"] == F(20 + 36, 216) and stunned["target stunned"] == 0  # a stun kills
    odd = matchup(ms, fighter("Soldier", 7), fighter("Warrior", 7), stunned=True)  # 7 vs 3.5: exactly double
    assert odd["target killed"] == sum(p for s, p in bf_totals(3).items() if s >= 11)


def test_partial_cover_makes_odd_totals_fail(ms):
    out = matchup(ms, fighter("Soldier", 10), fighter("Soldier", 10), cover="partial")
    assert out["target killed"] == F(6 + 1, 216)  # 16 and 18
    assert out["target stunned"] == F(15, 216)  # 14 only


def test_a_class_that_cannot_shoot_has_no_ranged_attack(ms):
    with pytest.raises(ImpossibleMatchup, match="Windblade cannot make ranged attacks"):
        matchup(ms, fighter("Warrior", 7, "Windblade"), fighter("Soldier", 6), attack="ranged")


# --- speed-range-power: opposed exploding pools ----------------------------------------------


def test_one_die_each_against_the_unending_series(srp):
    # P(A >= B) for one exploding die each: P(A >= b) = 3 * 6**-b and P(B = b) = 5/2 * 6**-b for
    # b >= 1, so the sum is 1/2 + 15/2 * 1/35 = 5/7.
    out = matchup(srp, model(1), model(1))
    assert abs(out["target killed"] - F(5, 7)) <= out.truncation
    assert 0 < out.truncation < F(1, 10**7)


@pytest.mark.parametrize(("a", "b"), [(1, 1), (1, 2), (2, 1), (2, 3), (3, 3)])
def test_pools_match_truncated_enumeration(srp, a, b):
    out = matchup(srp, model(a), model(b))
    won = bf_at_least(bf_pool(a, 4, 0, 10), bf_pool(b, 4, 0, 10))
    assert out["target killed"] == won  # the same truncated game, so exactly equal
    assert out["attacker killed"] == 1 - won


@pytest.mark.parametrize(
    ("traits_a", "traits_b", "situation", "mods", "dice"),
    [
        (("attacker",), (), {}, (1, 0), (3, 3)),
        ((), ("attacker",), {}, (0, -1), (3, 3)),
        (("defender",), ("defender",), {}, (-1, 1), (3, 3)),
        (("big-guns",), ("big-guns",), {}, (1, 1), (3, 3)),
        (("big-guns",), ("big-guns",), {"attacker_fight": 2, "target_fight": 3}, (-1, -1), (2, 1)),
        (("big-guns", "attacker"), (), {"attacker_fight": 2}, (0, 0), (2, 3)),
        ((), (), {"attacker_fight": 5, "target_fight": 9}, (0, 0), (0, 1)),
    ],
)
def test_modifiers_change_each_die_and_fights_take_power(srp, traits_a, traits_b, situation, mods, dice):
    attacker, target = model(3, traits=traits_a), model(3, traits=traits_b)
    if dice[0] == 0:
        with pytest.raises(ImpossibleMatchup, match="no dice left"):
            matchup(srp, attacker, target, **situation)
        return
    out = matchup(srp, attacker, target, **situation)
    assert out["target killed"] == bf_at_least(bf_pool(dice[0], 4, mods[0], 10), bf_pool(dice[1], 4, mods[1], 10))


def test_a_modifier_never_makes_a_natural_5_explode():
    # with +1 a natural 5 counts 6 and succeeds, but only a natural 6 adds a die (the ruling)
    plus = bf_chain(4, 1, 10)
    assert plus[0] == F(2, 6)  # 1 and 2 fail
    assert sum(p for s, p in plus.items() if s >= 2) < F(1, 6) + F(1, 10**6)


def test_cover_save_and_range_decide_who_dies(srp):
    won = bf_at_least(bf_pool(2, 4, 0, 10), bf_pool(2, 4, 0, 10))
    soft = matchup(srp, model(2, 12), model(2, 12), cover="soft")
    assert soft["target killed"] == won * F(4, 6) and soft["target saves"] == won * F(2, 6)
    hard = matchup(srp, model(2, 12), model(2, 12), cover="hard")
    assert hard["target saves"] == won / 2 and hard.expected_kills == won / 2
    # a target with less range than the distance cannot kill its attacker: the attack just fails
    far = matchup(srp, model(2, 24), model(2, 6))
    assert far["attacker killed"] == 0 and far["attack fails"] == 1 - won
    near = matchup(srp, model(2, 24), model(2, 6), distance=6)
    assert near["attacker killed"] == 1 - won and near["attack fails"] == 0
    with pytest.raises(ImpossibleMatchup, match="cannot reach"):
        matchup(srp, model(2, 6), model(2, 6), distance=12)


def simulate_srp(rng, a: Unit, t: Unit, cover: str, n: int) -> Counter:
    """The combat of lines 23-30 and 36-39, rolled with real dice."""
    saves = {"none": 7, "soft": 5, "hard": 4}[cover]

    def successes(power: int, mod: int) -> int:
        dice, total = power, 0
        while dice:
            dice -= 1
            face = rng.randint(1, 6)
            total += face + mod >= 4
            dice += face == 6
        return total

    def mod(unit: Unit, own_turn: bool) -> int:
        traits = unit.stats["traits"]
        m = 1 if "big-guns" in traits else 0
        m += (1 if own_turn else -1) if "attacker" in traits else 0
        m += (-1 if own_turn else 1) if "defender" in traits else 0
        return m

    out: Counter = Counter()
    for _ in range(n):
        won = successes(a.stats["power"], mod(a, True)) >= successes(t.stats["power"], mod(t, False))
        if won:
            out["saved" if rng.randint(1, 6) >= saves else "killed"] += 1
        else:
            out["lost"] += 1
    return out


@pytest.mark.parametrize(
    ("a", "t", "cover"),
    [
        (model(4, traits=("attacker",)), model(5, traits=("defender",)), "soft"),
        (model(6, traits=("big-guns",)), model(3, traits=("attacker",)), "hard"),
        (model(2), model(7, traits=("big-guns", "defender")), "none"),
    ],
)
def test_pools_agree_with_a_seeded_simulation(srp, a, t, cover):
    n = 20_000
    counts = simulate_srp(random.Random(1066), a, t, cover, n)
    out = matchup(srp, a, t, cover=cover)
    for name, key in (("target killed", "killed"), ("target saves", "saved"), ("attacker killed", "lost")):
        assert abs(float(out[name]) - counts[key] / n) < 0.015, name


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    power=st.integers(1, 11),
    other=st.integers(1, 12),
    traits=st.sampled_from([(), ("attacker",), ("defender",), ("big-guns",), ("big-guns", "defender")]),
    cover=st.sampled_from(["none", "soft", "hard"]),
    fight=st.integers(1, 3),
)
def test_more_power_never_lowers_the_win_chance(srp, power, other, traits, cover, fight):
    target = model(other, traits=traits)
    weaker = matchup(srp, model(power, traits=traits), target, cover=cover, target_fight=fight)
    stronger = matchup(srp, model(power + 1, traits=traits), target, cover=cover, target_fight=fight)
    assert stronger["target killed"] >= weaker["target killed"]
    assert stronger["attacker killed"] <= weaker["attacker killed"]
    assert total_is_one(weaker) and total_is_one(stronger)


# --- deathmelt: the banded save and the exploding melee --------------------------------------


def figure(type_: str = "Infantry", training: str = "Regular", armour: int = 2) -> Unit:
    return Unit(
        name=f"{training} {type_}", stats={"type": type_, "training": training, "armour": armour, "weapons": ()}
    )


@pytest.mark.parametrize(
    ("armour", "tokens", "save_on"),
    [
        (2, 1, 2),  # exactly double
        (4, 2, 2),
        (3, 2, 3),  # above, below double
        (5, 3, 3),
        (2, 2, 4),  # equal
        (3, 4, 5),  # below, above half
        (2, 3, 5),
        (2, 4, 6),  # exactly half
        (1, 3, 6),  # below half
    ],
)
def test_armour_save_bands_on_both_sides_of_each_boundary(dm, armour, tokens, save_on):
    out = matchup(dm, figure(), figure(armour=armour), mechanic="armour-save", tokens=tokens)
    faces = range(save_on, 7)
    assert out["saved"] == F(len([f for f in faces if f != 6]), 6)
    assert out["saved but panicked"] == F(1, 6)  # every passed save that rolled a 6
    assert out["casualty"] == F(save_on - 1, 6) == out.expected_kills


def test_a_vehicle_that_fails_its_save_rolls_for_damage(dm):
    out = matchup(dm, figure(), figure("Vehicle", armour=6), mechanic="armour-save", tokens=6)
    assert out["casualty"] == F(3, 6) and out.expected_kills == F(3, 6) * F(3, 6)


@pytest.mark.parametrize(
    ("a", "t", "situation", "dice", "needs"),
    [
        (figure("Infantry", "Elite"), figure("Infantry", "Basic"), {}, (3, 3), (3, 5)),
        (figure("Beast", "Regular"), figure("Infantry", "Regular"), {"target_state": "panicked"}, (5, 3), (4, 6)),
        (figure("Infantry", "Basic"), figure("Beast", "Elite"), {"target_fought": 2}, (5, 5), (5, 3)),
        (figure("Infantry", "Elite"), figure("Infantry", "Elite"), {"attacker_state": "panicked"}, (3, 3), (6, 3)),
        (figure("Infantry", "Elite"), figure("Infantry", "Elite"), {"target_state": "hunkered down"}, (3, 3), (3, 6)),
        (figure("Infantry", "Regular"), figure("Infantry", "Regular"), {"attacker_fought": 3}, (3, 6), (4, 4)),
    ],
)
def test_melee_pools_match_truncated_enumeration(dm, a, t, situation, dice, needs):
    out = matchup(dm, a, t, **situation)
    won = bf_at_least(bf_pool(dice[0], needs[0], 0, 10), bf_pool(dice[1], needs[1], 0, 10))
    assert out["target killed"] == won and out["attacker killed"] == 1 - won


def test_card_odds_for_deathmelt_show_each_band_and_a_grid(dm):
    bands, grid = card_odds(dm)
    assert [row[1] for row in bands.rows] == ["6+", "5+", "4+", "3+", "2+"]
    assert bands.rows[-1][2:] == ("66.7%", "16.7%", "16.7%")
    assert grid.columns[1:] == ("1", "2", "3", "4", "5", "6") and len(grid.rows) == 6
    assert grid.rows[1][1:3] == ("83.3%", "50.0%")  # armour 2: 2+ against 1 token, 4+ against 2


# --- deathzap: hits per casualty and unit melee ----------------------------------------------


def unit(figures: int, type_: str, weapons: tuple[str, ...] = ()) -> Unit:
    return Unit(name=f"{figures} {type_}", stats={"figures": figures, "type": type_, "weapons": weapons})


def binomial(n: int, k: int) -> Fraction:
    return F(math.comb(n, k) * 5 ** (n - k), 6**n)


@pytest.mark.parametrize(("cover", "per"), [("open", 1), ("soft", 2), ("hard", 3)])
def test_shooting_casualties_by_cover(dz, cover, per):
    out = matchup(dz, unit(8, "Infantry", ("Rifle",)), unit(3, "Infantry"), cover=cover)
    expected: Counter = Counter()
    for hits in range(9):
        expected[min(3, hits // per)] += binomial(8, hits)
    assert [r.chance for r in out.results] == [expected[k] for k in range(len(out.results))]
    assert out.names[:2] == ("no casualties", "1 casualty")
    assert out.expected_kills == sum(k * p for k, p in expected.items())


def test_shooting_matches_enumeration_of_every_die(dz):
    out = matchup(dz, unit(2, "Infantry", ("Repeater", "Rifle")), unit(5, "Beasts"), cover="soft")
    counts: Counter = Counter(min(5, sum(f == 6 for f in r) // 2) for r in itertools.product(range(1, 7), repeat=6))
    assert [r.chance for r in out.results] == [F(counts[k], 6**6) for k in range(len(out.results))]


def test_only_destroyers_harm_big_and_tough_targets(dz):
    monster = unit(1, "Monsters")
    assert matchup(dz, unit(10, "Infantry", ("Heavy Repeater",)), monster).results[0].chance == 1
    out = matchup(dz, unit(2, "Infantry", ("Destroyer", "Rifle")), monster)
    hit_twice = 1 - binomial(6, 0) - binomial(6, 1)  # 6 Destroyer shots; the rifles do nothing
    assert out["1 casualty"] == hit_twice
    assert out.expected_kills == hit_twice / 2  # the damage table removes it on 4-6
    rifles_only = matchup(dz, unit(4, "Infantry", ("Destroyer", "Rifle")), monster, weapon="Rifle")
    assert rifles_only.names == ("no casualties",) and rifles_only.expected_kills == 0
    light = matchup(dz, unit(3, "Infantry", ("Rifle",)), unit(2, "Light Vehicles"))
    assert light.results[0].chance == 1  # Light Vehicles are big and tough too (see system.yaml)
    firing = matchup(dz, unit(5, "Infantry", ("Rifle",)), unit(5, "Infantry"), firing=4)
    assert firing["no casualties"] == binomial(4, 0)
    with pytest.raises(ImpossibleMatchup, match="no weapon"):
        matchup(dz, unit(5, "Infantry"), unit(5, "Infantry"))


def test_melee_of_one_infantry_each_by_hand(dz):
    # the charger's die: 1/6 wins outright; then the target's: 1/6 wins; a 0-0 draw is refought
    # simultaneously: 5/36 each side wins, 1/36 both die, 25/36 again -> 5/11, 5/11, 1/11
    out = matchup(dz, unit(1, "Infantry"), unit(1, "Infantry"), mechanic="melee")
    assert out["target destroyed"] == F(1, 6) + F(25, 36) * F(5, 11) == F(191, 396)
    assert out["attacker destroyed"] == F(5, 36) + F(25, 36) * F(5, 11) == F(180, 396)
    assert out["both destroyed"] == F(25, 396)
    assert out.names == ("target destroyed", "attacker destroyed", "both destroyed")


def simulate_zap_melee(rng, na, da, ha, nb, db, hb, n):
    """Lines 24-31 rolled with real dice: the charger strikes, survivors strike back, draws refought."""

    def hits(dice: int) -> int:
        return sum(rng.randint(1, 6) == 6 for _ in range(dice))

    out: Counter = Counter()
    removed = 0
    for _ in range(n):
        a, b = na, nb
        cb = min(b, hits(a * da) // hb)
        ca = min(a, hits((b - cb) * db) // ha)
        while True:
            a, b = a - ca, b - cb
            if a == 0 and b == 0:
                result = "both destroyed"
            elif a == 0 or (b and ca > cb):
                result = "attacker destroyed"
            elif b == 0 or cb > ca:
                result = "target destroyed"
            else:
                cb, ca = min(b, hits(a * da) // hb), min(a, hits(b * db) // ha)
                continue
            break
        out[result] += 1
        removed += nb if result != "attacker destroyed" else nb - b
    return out, removed / n


@pytest.mark.parametrize(
    ("a", "t"),
    [
        (unit(6, "Infantry"), unit(4, "Beasts")),
        (unit(1, "Monsters"), unit(10, "Infantry")),
        (unit(2, "Light Vehicles"), unit(5, "Infantry")),
    ],
)
def test_unit_melee_agrees_with_a_seeded_simulation(dz, a, t):
    props = {c.name: c.properties for c in dz.definition.stats["type"].choices}
    pa, pt = props[a.stats["type"]], props[t.stats["type"]]
    n = 20_000
    counts, kills = simulate_zap_melee(
        random.Random(7),
        a.stats["figures"],
        pa["melee_dice"],
        pa["melee_hits"],
        t.stats["figures"],
        pt["melee_dice"],
        pt["melee_hits"],
        n,
    )
    out = matchup(dz, a, t, mechanic="melee")
    assert total_is_one(out)
    for r in out.results:
        assert abs(float(r.chance) - counts[r.name] / n) < 0.015, r.name
    assert abs(float(out.expected_kills) - kills) < 0.1


# --- melee-module: paired rolls -------------------------------------------------------------


def bf_pairing(mine: list[int], theirs: list[int]) -> tuple[int, int]:
    """(target figures killed, attacker figures killed) over every roll, by the text's six outcomes."""
    kills = losses = F(0)
    rolls = list(itertools.product(range(1, 7), repeat=len(mine) + len(theirs)))
    for r in rolls:
        a = [x + m for x, m in zip(r[: len(mine)], mine, strict=True)]
        t = [x + m for x, m in zip(r[len(mine) :], theirs, strict=True)]
        if len(a) == len(t) == 1:
            k, loss = (1, 0) if a[0] > t[0] else (0, 1) if a[0] < t[0] else (1, 1)
        else:
            single, pair, single_is_attacker = (a[0], t, True) if len(a) == 1 else (t[0], a, False)
            if single > sum(pair):
                dead_single, dead_pair = 0, 2
            elif single == sum(pair):
                dead_single, dead_pair = 1, 2
            elif single >= min(pair):
                dead_single, dead_pair = 1, 1
            else:
                dead_single, dead_pair = 1, 0
            k, loss = (dead_pair, dead_single) if single_is_attacker else (dead_single, dead_pair)
        kills += F(k, len(rolls))
        losses += F(loss, len(rolls))
    return kills, losses


def regiment(traits=(), specials=(), figures=10) -> Unit:
    return Unit(name="Regiment", stats={"figures": figures, "traits": tuple(traits), "specials": tuple(specials)})


def test_one_on_one_by_hand(mm):
    out = matchup(mm, regiment(), regiment())
    assert (out["target killed"], out["attacker killed"], out["both killed"]) == (F(15, 36), F(15, 36), F(6, 36))


@pytest.mark.parametrize(
    ("a", "t", "situation", "mine", "theirs"),
    [
        (regiment(["elite"]), regiment(), {}, [1], [0]),
        (regiment(["cavalry"]), regiment(["elite"]), {"pairing": "2-on-1"}, [2, 2], [1]),
        (regiment(["cavalry"]), regiment(["elite"]), {"pairing": "2-on-1", "round": "later"}, [0, 0], [1]),
        (regiment(["charge-bonus"]), regiment(["charge-bonus"]), {"pairing": "1-on-2"}, [1], [0, 0]),
        (regiment(["charge-bonus"]), regiment(), {"charging": "target"}, [0], [0]),
        (regiment(), regiment(), {"defending": "target", "pairing": "1-on-2"}, [0], [1, 1]),
        (regiment(specials=["leader"]), regiment(), {"leader": "attacker", "pairing": "2-on-1"}, [1, 0], [0]),
        (
            regiment(["elite"], ["leader"]),
            regiment(["cavalry"], ["leader", "colour-bearer"]),
            {"leader": "both", "pairing": "1-on-2", "defending": "attacker"},
            [3],
            [3, 2],
        ),
    ],
)
def test_paired_rolls_match_the_texts_outcomes(mm, a, t, situation, mine, theirs):
    out = matchup(mm, a, t, **situation)
    assert total_is_one(out)
    assert (out.expected_kills, out.expected_losses) == bf_pairing(mine, theirs)


def test_a_leader_must_be_in_the_unit(mm):
    with pytest.raises(ImpossibleMatchup, match="has no leader figure"):
        matchup(mm, regiment(), regiment(), leader="attacker")


# --- the API: situations, caching, matrices, cards -------------------------------------------


def test_unknown_situation_keys_and_bad_values_raise_clear_errors(ms, srp):
    with pytest.raises(OddsError) as err:
        matchup(ms, fighter("Soldier", 5), fighter("Soldier", 5), cvoer="partial", defending="yes")
    text = str(err.value)
    assert "unknown option 'cvoer' (did you mean 'cover'?)" in text
    assert "defending: expected true or false, found 'yes'" in text
    with pytest.raises(OddsError, match="expected 'none' or 'partial', found 'full'"):
        matchup(ms, fighter("Soldier", 5), fighter("Soldier", 5), cover="full")
    with pytest.raises(OddsError, match="a whole number from 1"):
        matchup(srp, model(3), model(3), attacker_fight=0)
    with pytest.raises(OddsError, match="no mechanic 'shoting'"):
        matchup(srp, model(3), model(3), mechanic="shoting")


def test_repeated_matchups_are_cached(ms):
    clear_caches()
    a, t = fighter("Soldier", 8), fighter("Beast", 5)
    first = matchup(ms, a, t, cover="partial")
    size = len(_MATCHUPS)
    assert matchup(ms, a, t, cover="partial") == first and len(_MATCHUPS) == size
    assert matchup(ms, a, t, cover="none") != first and len(_MATCHUPS) == size + 1


def test_matrix_of_two_lists_with_points_efficiency(catalogs, ms):
    elves = fielded(check_list(EXAMPLES / "might-skirmish-windblade-elves.legal.yaml", catalogs))
    zombies = fielded(check_list(EXAMPLES / "might-skirmish-zombie-family.legal.yaml", catalogs))
    assert len(elves) == 16 and len(zombies) == 14
    m = matrix(ms, elves, zombies)
    assert len(m.cells) == 16 and all(len(row) == 14 for row in m.cells)
    assert m.costs is not None and m.efficiency is not None
    i = next(k for k, u in enumerate(elves) if u.name == "Gale Sniper")
    kills = sum(m.expected_kills(i, j) for j in range(14))
    assert m.efficiency[i] == kills / 14 * 100 / 9  # Might 9 costs 9 points
    assert m.cells[i][0] == matchup(ms, elves[i], zombies[0])
    ranged = matrix(ms, elves, zombies, attack="ranged")
    w = next(k for k, u in enumerate(elves) if u.name == "Windblade")
    # Warriors cannot shoot (004 line 26): no attack at all is a dash in kills per 100 points, not 0
    assert all(c is None for c in ranged.cells[w]) and ranged.efficiency[w] is None
    rows = ranged.rows()
    assert rows[0][-1] == "kills per 100 points" and rows[w + 1][1] == "–" and rows[w + 1][-1] == "–"


def test_a_figures_rule_set_has_no_points_efficiency(dz):
    m = matrix(dz, [unit(8, "Infantry", ("Rifle",))], [unit(5, "Infantry"), unit(1, "Monsters")])
    assert m.efficiency is None and m.costs is None
    assert m.expected_kills(0, 1) == 0 and m.expected_kills(0, 0) > 1


def test_might_skirmish_card_has_kill_and_stun_beside_each_column(ms):
    (table,) = card_odds(ms)
    # the column headings of the source's table (line 28), in words the shipped fonts can print
    assert table.columns[1:] == ("¼ or less", "½ or less", "less", "equal", "more", "2× or more", "4× or more")
    rows = {row[0]: row[1:] for row in table.rows}
    assert rows["Target killed on"] == ("18", "17", "16", "15", "14", "13", "12")
    assert rows["Target killed, 3D6"][3] == "9.3%" and rows["Target stunned, 3D6"][3] == "16.7%"
    assert "Target killed, 4D6 drop the lowest" in rows
    assert "Sniper when shooting" in table.note and "Berserker, Monster in melee" in table.note


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_every_card_is_rows_of_strings_of_one_width(catalogs, system_id):
    tables = card_odds(catalogs.get(system_id))
    assert tables
    for table in tables:
        assert table.title and table.rows
        assert all(len(row) == len(table.columns) and all(isinstance(c, str) for c in row) for row in table.rows)


# --- any unit, any situation ------------------------------------------------------------------


def situations(system, mechanic):
    """A strategy for every situation a mechanic's options allow."""
    from listbuilder.odds.situation import option_values

    parts = {}
    for key, option in mechanic.options.items():
        if option.kind == "flag":
            parts[key] = st.booleans()
        elif option.kind == "number":
            low = option.minimum if option.minimum is not None else 0
            parts[key] = (
                st.one_of(st.none(), st.integers(low, low + 3)) if option.default is None else st.integers(low, low + 3)
            )
        else:
            parts[key] = st.sampled_from(option_values(system, option))
    return st.fixed_dictionaries({}, optional=parts)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_mechanic_gives_chances_that_sum_to_one(catalogs, system_id, data):
    system = catalogs.get(system_id)
    units = sorted((u for us in system.factions.values() for u in us), key=lambda u: u.name)
    mechanic = data.draw(st.sampled_from(load_odds(system).mechanics), label="mechanic")
    a, t = data.draw(st.sampled_from(units), label="attacker"), data.draw(st.sampled_from(units), label="target")
    situation = data.draw(situations(system, mechanic), label="situation")
    try:
        out = matchup(system, a, t, mechanic=mechanic.id, **situation)
    except ImpossibleMatchup:
        return
    except OddsError as exc:  # a situation that names more figures than the unit has
        assert "figures" in str(exc)
        return
    assert total_is_one(out)
    assert all(0 <= r.chance <= 1 for r in out.results)
    assert out.expected_kills >= 0 and out.expected_losses >= 0
