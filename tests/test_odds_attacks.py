"""Kinds of attack: each odds grid says which it shows and offers the others (`--attack`), and
deathzap's melee is offered beside its shooting, with its own options, checked against an exact
enumeration of every die written from the text."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import EXAMPLES
from odds_oracles import bf_attack, bf_zap_melee

from listbuilder.api import lists, matchups, rulesets
from listbuilder.odds import OddsError, matchup
from listbuilder.odds.attacks import attack_kinds
from listbuilder.rules.formats import Unit

F = Fraction
ELVES = EXAMPLES / "might-skirmish-windblade-elves.legal.yaml"
ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
RANGERS = EXAMPLES / "deathzap-frontier-rangers.legal.yaml"


@pytest.fixture(scope="module")
def books():
    return rulesets.open_catalogs()


# --- might-skirmish: melee and ranged, one mechanic ------------------------------------------


def test_cousin_sniper_against_windblade_is_009_melee_and_023_ranged(books):
    # the example. Might 7 against Might 7 is the '=' column, 15/13 (lines 28-29); a
    # Sniper rolls 4D6 and keeps 3 only when shooting (line 30), 3D6 in melee.
    melee = matchups.odds(books, "might-skirmish", "Cousin Sniper", "Windblade", attack="melee")
    ranged = matchups.odds(books, "might-skirmish", "Cousin Sniper", "Windblade", attack="ranged")
    assert melee.expected_kills == bf_attack(7, 7)[0] == F(20, 216)
    assert ranged.expected_kills == bf_attack(7, 7, dice=4, keep=3)[0] == F(50, 216)
    assert (melee.attack, melee.attack_title) == ("melee", "Melee attack")
    assert (ranged.attack, ranged.attack_title) == ("ranged", "Ranged attack")
    assert matchups.outcome_text(ranged).startswith("Ranged attack: Cousin Sniper against Windblade")


def test_the_situation_names_the_kind_when_attack_is_not_given(books):
    # attack=ranged, as the situation's own option (line 25), is the ranged kind too
    outcome = matchups.odds(books, "might-skirmish", "Cousin Sniper", "Windblade", {"attack": "ranged"})
    assert outcome.attack == "ranged" and outcome.expected_kills == F(50, 216)
    assert matchups.odds(books, "might-skirmish", "Hunter", "Hunter").attack == "melee"  # the first is the default


def test_the_list_grid_names_its_kind_and_explains_kills_per_100_points(cli):
    for attack, sniper in (("melee", "0.09"), ("ranged", "0.23")):
        result = cli("odds", ZOMBIES, ELVES, "--attack", attack)
        assert result.exit_code == 0, result.stderr
        lines = result.stdout.splitlines()
        kind = "Melee attack" if attack == "melee" else "Ranged attack"
        assert (
            lines[0]
            == f"Zombie Family against Windblade Elves (might-skirmish, {kind}): expected models removed by one attack"
        )
        row = next(line for line in lines if line.strip().startswith("Cousin Sniper"))
        assert row.split()[2] == sniper  # against Windblade ×4, the first column
        assert lines[-1].strip().startswith("Kills per 100 points: the models one attack of the unit is expected")
    ranged = cli("odds", ZOMBIES, ELVES, "--attack", "ranged").stdout
    # a Shambler is a Warrior, which cannot shoot (line 26): a dash, explained once
    assert next(line for line in ranged.splitlines() if "Shambler" in line).split()[2] == "–"
    assert ranged.count("– : the row's unit cannot make this kind of attack (ranged attack) on the column's unit") == 1
    melee = cli("odds", ZOMBIES, ELVES).stdout
    assert "(might-skirmish, Melee attack)" in melee and "– :" not in melee  # everyone fights in melee


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("might-skirmish", "Hunter", "Hunter", "--attack", "rangd"), "did you mean 'ranged'?"),
        (("might-skirmish", "Hunter", "Hunter", "--attack", "magic"), "its kinds of attack: 'melee' or 'ranged'"),
        (("deathmelt", "Hive Warrior", "Hive Warrior", "--attack", "ranged"), "deathmelt has one kind of attack"),
        (
            ("might-skirmish", "Hunter", "Hunter", "attack=melee", "--attack", "ranged"),
            "the situation disagrees with the kind of attack 'ranged'",
        ),
        (("deathzap", "Brood Lord", "Brood Lord", "--attack", "melee", "--mechanic", "shooting"), "not both"),
        (
            ("deathzap", "Brood Lord", "Brood Lord", "--attack", "melee", "cover=soft"),
            "its options: charging, attacker_figures, target_figures",
        ),
    ],
)
def test_a_wrong_kind_of_attack_says_what_to_give(cli, args, expected):
    result = cli("odds", *args)
    assert result.exit_code == 2
    assert expected in result.stderr and "Traceback" not in result.stderr
    assert "No such option" not in result.stderr


def test_attacks_of_lists_each_rule_sets_kinds(books):
    kinds = {s: [k.id for k in matchups.attacks_of(books, s)] for s in ("might-skirmish", "deathzap", "deathmelt")}
    assert kinds == {"might-skirmish": ["melee", "ranged"], "deathzap": ["shooting", "melee"], "deathmelt": ["melee"]}
    # a variant without its own odds file has its base's kinds
    assert [k.id for k in attack_kinds(books.get("might-skirmish-150"))] == ["melee", "ranged"]


def test_render_vs_prints_one_grid_per_kind(cli, tmp_path):
    out = tmp_path / "sheet.html"
    result = cli("render", ZOMBIES, "--vs", ELVES, "--only", "reference", "-o", out)
    assert result.exit_code == 0, result.stderr
    html = out.read_text()
    assert html.count('<figure class="matrix">') == 2
    assert html.index("Melee attack: the models each attack") < html.index("Ranged attack: the models each attack")
    assert "– means the row&#39;s unit cannot make this kind of attack (ranged attack) on the column&#39;s unit" in html
    assert html.count("Kills per 100 points: the models one attack") == 2


# --- deathzap: melee, lines 23-32 ------------------------------------------------------------


def unit(figures: int, type_: str, weapons: tuple[str, ...] = ()) -> Unit:
    return Unit(name=f"{figures} {type_}", stats={"figures": figures, "type": type_, "weapons": weapons})


@pytest.mark.parametrize(
    ("attacker", "target", "situation"),
    [
        ((2, "Infantry"), (1, "Beasts"), {}),
        ((2, "Infantry"), (1, "Beasts"), {"charging": "target"}),  # line 24: the unit that moved strikes first
        ((3, "Infantry"), (2, "Infantry"), {"attacker_figures": 2, "target_figures": 1}),
        ((1, "Light Vehicles"), (3, "Infantry"), {"charging": "target"}),
    ],
)
def test_deathzap_melee_matches_an_enumeration_of_every_die(books, attacker, target, situation):
    dz = books.get("deathzap")
    left_a = situation.get("attacker_figures", attacker[0])
    left_t = situation.get("target_figures", target[0])
    out = matchup(dz, unit(*attacker), unit(*target), attack_kind="melee", **situation)
    if situation.get("charging") == "target":
        bf = bf_zap_melee((left_t, target[1]), (left_a, attacker[1]))
        wins, loses = bf.get("charger destroyed", 0), bf.get("charger wins", 0)
    else:
        bf = bf_zap_melee((left_a, attacker[1]), (left_t, target[1]))
        wins, loses = bf.get("charger wins", 0), bf.get("charger destroyed", 0)
    assert out["target destroyed"] == wins
    assert out["attacker destroyed"] == loses
    assert out["both destroyed"] == bf.get("both", 0)
    assert out.attack == "melee" and out.title == "Melee"


def test_two_infantry_charged_by_one_beast_by_hand(books):
    # line 24: the Beast charges (charging=target): its 2 dice hit on 6s (line 31), 11/36 for one
    # 6 or more, killing one Infantry; the survivor(s) strike back. Summed over the enumeration.
    dz = books.get("deathzap")
    out = matchup(dz, unit(2, "Infantry"), unit(1, "Beasts"), attack_kind="melee", charging="target")
    beast_first = matchup(dz, unit(1, "Beasts"), unit(2, "Infantry"), attack_kind="melee")
    assert out["target destroyed"] == beast_first["attacker destroyed"]
    assert out["attacker destroyed"] == beast_first["target destroyed"]
    assert out.expected_kills == beast_first.expected_losses


def test_a_melee_only_unit_has_melee_odds_and_no_shooting(books):
    # the Brood Lord carries no gun: no shooting (lines 2-9), but melee (line 24: all figures fight)
    dz = books.get("deathzap")
    lord = dz.find_unit("Brood Lord")
    assert lord is not None
    with pytest.raises(OddsError, match="no weapon"):
        matchup(dz, lord, lord, attack_kind="shooting")
    assert sum(r.chance for r in matchup(dz, lord, lord, attack_kind="melee").results) == 1


def test_more_figures_left_than_the_unit_has_is_refused(books):
    dz = books.get("deathzap")
    with pytest.raises(OddsError, match="3 Infantry has 3 figures, not 4"):
        matchup(dz, unit(3, "Infantry"), unit(2, "Infantry"), attack_kind="melee", attacker_figures=4)


def test_the_deathzap_grid_offers_shooting_and_melee(books):
    rangers = lists.check_list(RANGERS, books)
    grids = matchups.odds_grids(rangers, rangers)
    assert [g["mechanic"] for g in grids] == ["Shooting", "Melee"]
    assert all(g["kinds"] == [("shooting", "Shooting"), ("melee", "Melee")] for g in grids)
    melee = matchups.odds_grid(rangers, rangers, "melee")
    assert melee is not None and melee["attack"] == "melee" and not melee["impossible"]
