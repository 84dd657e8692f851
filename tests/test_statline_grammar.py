"""One statline grammar: what ``catalog`` prints, ``cost`` and ``odds`` read, text export
writes and import reads back, so a player learns one form.

Costs are speed-range-power's formula (catalogs/speed-range-power/system.yaml, source lines
43-45 of 006_*.txt: 1 point per inch of Speed, 2 per full 3" of Range, 4 per Power; traits cost
nothing, lines 36-39) and might-skirmish's cost = Might (004_*.txt line 48).
"""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.rules.statline import parse_stats, stats_text

# The Vickers Team (camel-corps.yaml): Speed 3 + 2 * 36/3 + 4 * 4 = 3 + 24 + 16 = 43 points.
VICKERS = 'Speed 3", Range 36", Power 4, Traits big-guns + defender'


def test_catalog_prints_the_statline_that_cost_reads_back(cli):
    catalog = cli("catalog", "speed-range-power", "--faction", "WW1 British Camel Corps")
    line = next(x for x in catalog.stdout.splitlines() if "Vickers Team" in x)
    assert VICKERS in line and line.endswith("43 points")
    priced = cli("cost", "speed-range-power", VICKERS)
    assert priced.exit_code == 0, priced.stderr
    assert priced.stdout.splitlines()[0] == f"Custom unit (speed-range-power): {VICKERS}"
    assert "43 points" in priced.stdout


@pytest.mark.parametrize(
    "args",
    [
        [VICKERS],
        ["--speed", "3", "--range", "36", "--power", "4", "--traits", "big-guns+defender"],
        ["--speed", "3", "--range", "36", "--power", "4", "--traits", "big-guns + defender"],
        ["--speed=3", "--range=36", "--power=4", "--traits=big-guns,defender"],  # the old comma form reads too
        ["speed=3, range=36, power=4, traits=big-guns+defender"],  # the odds command's form
    ],
)
def test_cost_reads_every_spelling_of_one_grammar_alike(cli, args):
    result = cli("cost", "--json", "speed-range-power", *args)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["total"] == 43
    assert data["stats"] == {"speed": 3, "range": 36, "power": 4, "traits": ["big-guns", "defender"]}


def test_cost_prints_a_list_stat_as_the_grammar_writes_it(cli):
    result = cli("cost", "speed-range-power", "--speed", "6", "--range", "24", "--power", "2", "--traits", "attacker")
    assert (
        result.stdout.splitlines()[0]
        == 'Custom unit (speed-range-power): Speed 6", Range 24", Power 2, Traits attacker'
    )


def test_odds_names_a_statline_unit_by_the_grammar_and_reads_the_old_form_alike(cli):
    new = cli("odds", "--json", "might-skirmish", "Beast, Might 6", "Grandpa Bones", "cover=partial")
    old = cli("odds", "--json", "might-skirmish", "class=Beast,might=6", "Grandpa Bones", "cover=partial")
    assert new.exit_code == old.exit_code == 0, new.stderr + old.stderr
    a, b = json.loads(new.stdout), json.loads(old.stdout)
    assert a["attacker"] == b["attacker"] == "Beast, Might 6"
    assert a["results"] == b["results"]
    text = cli("odds", "speed-range-power", VICKERS, "Vickers Team")
    assert text.stdout.splitlines()[0].startswith(f"Combat: {VICKERS} against Vickers Team")


def test_text_export_writes_the_same_statline_and_import_reads_it_back(cli, write_list, tmp_path):
    listed = write_list(
        """\
        system: speed-range-power
        name: Gunners
        units:
          - name: Home Vickers
            speed: 3
            range: 36
            power: 4
            traits: [big-guns, defender]
        """
    )
    exported = cli("export", listed)
    assert f"1x Home Vickers [{VICKERS}] - 43 points" in exported.stdout
    text = tmp_path / "post.txt"
    text.write_text(exported.stdout, encoding="utf-8")
    back = cli("import", text)
    assert back.exit_code == 0 and back.stderr == ""
    assert "traits: [big-guns, defender]" in back.stdout


def test_an_old_shared_text_with_labels_and_colons_still_imports(cli, tmp_path):
    # Texts shared before the grammar was settled wrote 'Weapons: Rifle' and key=value pairs.
    text = tmp_path / "old.txt"
    text.write_text(
        "Old Post\nMight Skirmish (might-skirmish): 6 of 100 points\n\n1x Biter [class=Beast, might=6] - 6 points\n",
        encoding="utf-8",
    )
    back = cli("import", text)
    assert back.exit_code == 0, back.stderr
    assert "class: Beast\n" in back.stdout and "might: 6\n" in back.stdout


def test_a_stat_given_twice_is_refused_in_every_spelling(cli):
    odds = cli("odds", "might-skirmish", "might=6,might=7,class=Beast", "Hunter")
    assert odds.exit_code == 2 and "Might is given twice" in odds.stderr
    cost = cli("cost", "might-skirmish", "--might", "6", "--might", "7", "--class", "Beast")
    assert cost.exit_code == 2 and "Might is given twice" in cost.stderr
    mixed = cli("cost", "might-skirmish", "Beast, Might 6", "--might", "7")
    assert mixed.exit_code == 2 and "Might is given twice" in mixed.stderr


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    speed=st.integers(0, 99),
    range_=st.integers(0, 99),
    power=st.integers(0, 99),
    traits=st.lists(st.sampled_from(["big-guns", "attacker", "defender"]), unique=True),
    spelling=st.sampled_from(["printed", "keys", "colons"]),
)
def test_any_statline_reads_back_in_any_spelling(catalogs, speed, range_, power, traits, spelling):
    from listbuilder.rules.formats import Unit

    system = catalogs.get("speed-range-power")
    stats = {"speed": speed, "range": range_, "power": power, "traits": tuple(traits)}
    printed = stats_text(system, Unit(name="x", stats=stats))
    if spelling == "keys":
        text = ",".join(f"{k}={'+'.join(v) if isinstance(v, tuple) else v}" for k, v in stats.items() if v != ())
    elif spelling == "colons":
        text = printed.replace("Speed ", "Speed: ").replace("Power ", "power: ")
    else:
        text = printed
    read = parse_stats(system, text)
    assert isinstance(read, dict), read
    assert {**read, "traits": tuple(read.get("traits", ()))} == stats


def test_printed_statlines_use_the_terminal_grammar(cli, tmp_path):
    # the statline grammar joins a list stat's values with '+', in the terminal and on paper alike
    zulu = EXAMPLES / "melee-module-zulu-big-regiment.legal.yaml"
    assert "Traits elite + charge-bonus" in cli("catalog", "melee-module").stdout
    html = tmp_path / "zulu.html"
    assert cli("render", zulu, "-o", html).exit_code == 0
    assert "<small>Traits</small> elite + charge-bonus" in html.read_text()
    assert "elite, charge-bonus" not in html.read_text()
