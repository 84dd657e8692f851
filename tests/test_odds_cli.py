"""`listbuilder odds`, `render --vs` and the odds on rules cards, as a player uses them."""

from __future__ import annotations

import json

from conftest import EXAMPLES
from pypdf import PdfReader

ELVES = EXAMPLES / "might-skirmish-windblade-elves.legal.yaml"
ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"


def pdf_text(path) -> str:
    return " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(path).pages)


def test_one_matchup_from_catalog_units(cli):
    # equal Might on 3D6 (source lines 28-29, column '='): kill on 15+ = 20/216, stun on 13-14 = 36/216
    result = cli("odds", "might-skirmish", "Hunter", "Hunter", "--exact")
    assert result.exit_code == 0, result.stderr
    lines = {line.split("  ")[1].strip(): line.split()[-2:] for line in result.stdout.splitlines()[1:4]}
    assert lines["target killed"] == ["9.3%", "5/54"]  # 20/216
    assert lines["target stunned"] == ["16.7%", "1/6"]  # 36/216


def test_one_matchup_from_stats_with_a_situation(cli):
    result = cli("odds", "--json", "might-skirmish", "class=Beast,might=6", "Grandpa Bones", "cover=partial")
    data = json.loads(result.stdout)
    assert data["attacker"] == "Beast, Might 6" and data["situation"]["cover"] == "partial"
    assert abs(sum(r["chance"] for r in data["results"]) - 1) < 1e-12


def test_bad_odds_requests_exit_2_with_a_hint(cli):
    for args, expected in [
        (("might-skirmish", "Hunter", "Hunter", "covr=partial"), "did you mean 'cover'?"),
        (("might-skirmish", "Huntr", "Hunter"), "did you mean 'Hunter'?"),
        (("might-skirmish", "Hunter"), "odds needs a rule set and two units"),
        ((ZOMBIES, EXAMPLES / "speed-range-power-ww2-platoon.legal.yaml"), "different rule sets"),
        (("might-skirmish", "Shambler", "Hunter", "attack=ranged"), "cannot make ranged attacks"),
    ]:
        result = cli("odds", *args)
        assert result.exit_code == 2, (args, result.stdout)
        assert expected in result.stderr, result.stderr


def test_list_matrix_with_points_efficiency(cli):
    result = cli("odds", "--json", ELVES, ZOMBIES)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert len(data["attackers"]) == 7 and len(data["targets"]) == 8  # entries of each list
    assert len(data["kills_per_100_points"]) == 7 and all(e > 0 for e in data["kills_per_100_points"])
    text = cli("odds", ELVES, ZOMBIES).stdout
    assert "Windblade ×4" in text and "kills/100 points" in text


def test_render_vs_adds_the_matrix_to_the_reference_sheet(cli, tmp_path):
    out = tmp_path / "vs.pdf"
    result = cli("render", ELVES, "--vs", ZOMBIES, "-o", out)
    assert result.exit_code == 0, result.stderr
    text = pdf_text(out)
    assert (
        "Windblade Elves against Zombie Family" in text.title()
        or "WINDBLADE ELVES AGAINST ZOMBIE FAMILY" in text.upper()
    )
    assert "KILLS PER 100 POINTS" in text.upper()
    html = tmp_path / "vs.html"
    cli("render", ELVES, "--vs", ZOMBIES, "-o", html)
    assert 'class="heat-4"' in html.read_text() or 'class="heat-3"' in html.read_text()


def test_render_vs_needs_the_same_rule_set(cli, tmp_path):
    result = cli("render", ELVES, "--vs", EXAMPLES / "deathzap-frontier-rangers.legal.yaml", "-o", tmp_path / "x.pdf")
    assert result.exit_code == 2 and "odds compare lists of one rule set" in result.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_cards_carry_their_core_table_with_odds(cli, tmp_path):
    out = tmp_path / "card.pdf"
    cli("card", "might-skirmish", "-o", out)
    text = pdf_text(out)
    assert "Target killed, 3D6 0.5% 1.9% 4.6% 9.3% 16.2% 25.9% 37.5%" in text
    assert text.count("Kill on 18 17 16") == 0  # the plain table is not printed twice
    cli("card", "deathmelt", "-o", out)
    assert "Armour save" in pdf_text(out)


def test_the_odds_legend_explains_a_dash_only_when_a_cell_has_one(cli):
    rangers = EXAMPLES / "deathzap-frontier-rangers.legal.yaml"
    grox = EXAMPLES / "deathzap-grox-swarm.illegal.yaml"
    out = cli("odds", rangers, grox).stdout
    table = out.splitlines()[1:-1] if out.rstrip().endswith("no such attack") else out.splitlines()[1:]
    has_dash = any("–" in line for line in table)
    assert ("– : the rules allow no such attack" in out) == has_dash
    family = cli("odds", ZOMBIES, ZOMBIES).stdout
    assert "–" not in family and "no such attack" not in family  # every cell has a number


def test_odds_with_an_unknown_option_says_so_first(cli):
    result = cli("odds", "might-skirmish", "Hunter", "Hunter", "foo=bar")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown option 'foo' for might-skirmish 'attack'")
    assert "its options: attack, cover, defending, stunned" in result.stderr


def test_odds_refuses_an_option_given_twice(cli):
    result = cli("odds", "might-skirmish", "Hunter", "Hunter", "cover=partial", "cover=none")
    assert result.exit_code == 2
    assert "the option 'cover' is given twice: 'cover=partial' and 'cover=none'" in result.stderr


def test_odds_reads_the_situation_words_and_says_what_each_lacks(cli):
    # a bare flag is on, flag=no is off: the situation said back is the one asked for
    on = json.loads(cli("odds", "--json", "might-skirmish", "Hunter", "Hunter", "defending").stdout)
    off = json.loads(cli("odds", "--json", "might-skirmish", "Hunter", "Hunter", "defending=no").stdout)
    assert on["situation"]["defending"] is True and off["situation"]["defending"] is False
    bare = cli("odds", "might-skirmish", "Hunter", "Hunter", "cover")
    assert bare.exit_code == 2
    assert bare.stderr.startswith("error: the option 'cover' needs a value\n  cover is 'none' or 'partial'")
    mechanic = cli("odds", "might-skirmish", "Hunter", "Hunter", "mechanic=attack")
    assert mechanic.exit_code == 2 and "(use --mechanic attack)" in mechanic.stderr
    fought = json.loads(cli("odds", "--json", "deathmelt", "Brood Herald", "Brood Herald", "target_fought=2").stdout)
    assert fought["situation"]["target_fought"] == 2  # a number's digits read as a number
    huge = cli("odds", "deathmelt", "Brood Herald", "Brood Herald", "target_fought=" + "9" * 30)
    assert huge.exit_code == 2 and "is far too large\n  give a number of at most 18 digits" in huge.stderr


def test_cost_names_an_option_given_no_value(cli):
    result = cli("cost", "might-skirmish", "--class", "Beast", "--might")
    assert result.exit_code == 2
    assert result.stderr == "error: the option --might needs a value\n  give it as --might VALUE, or --might=VALUE\n"
    # the engine's errors name the stat, never a command line
    wrong = cli("cost", "might-skirmish", "--migth", "6")
    assert wrong.stderr.startswith("error: these stats cannot be used\n  might-skirmish has no stat 'migth'")
