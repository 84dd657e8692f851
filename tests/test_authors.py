"""Writing a rule set, as an author meets it: two rule sets of their own, and texts that follow their numbers.

``tests/authors/`` holds what the author wrote: ``goblins`` (a sixth game) and ``srp-house`` (a
variant of speed-range-power at 5 points per Power, one leader in five). The base's sentences
write their numbers as placeholders, so the variant's card follows; a base that states them as
figures is caught by ``check-catalog``, naming each stale sentence.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import CATALOGS, ROOT
from hypothesis import given
from hypothesis import strategies as st

from listbuilder.army.costing import unit_cost
from listbuilder.authoring.stale import source_lines, states
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.reference import load_reference
from listbuilder.rules.wording import Scope, fill, literal, names_in, term_points

AUTHORS = ROOT / "tests" / "authors"


def card_text(cli: Any, system: str, tmp_path: Path, *roots: Path) -> str:
    out = tmp_path / f"{system}-card.html"
    args = [a for root in roots for a in ("--catalogs", root)]
    assert cli("card", system, "-o", out, *args).exit_code == 0
    page = out.read_text(encoding="utf-8")
    body = re.sub(r"<[^>]+>", " ", page[page.index("<body") :])
    return " ".join(body.replace("&#34;", '"').replace("&#39;", "'").replace("&amp;", "&").split())


@pytest.mark.parametrize("folder", ["goblins", "srp-house"])
def test_the_authors_rule_sets_pass_their_own_tests(cli, folder):
    result = cli("check-catalog", AUTHORS / folder, "--catalogs", AUTHORS)
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines()[-1] == "12 passed"


def test_the_variant_card_says_5_per_power_and_one_leader_in_five(cli, tmp_path):
    text = card_text(cli, "srp-house", tmp_path, AUTHORS)
    # the costing line, the force rule, its ruling and the reference rule all follow the variant
    assert "5 per Power" in text and "4 per Power" not in text
    assert "One model in five may be a leader." in text
    assert "divided by 5, rounded down" in text and "4 models allow none, 5 to 9 allow one" in text
    assert "ten" not in text.replace('"One in ten of your models can be designated as a leader"', "")
    assert "Power 5 points per point minimum 1" in text
    # the worked examples, computed from the formula: 6+4+15, 6+16+10, 9+32+50, 6+0+20
    assert "(the T34 is 9+32+50 = 91)" in text
    assert 'WW2 Officer (Leader) 6" 6" 3 25 WW2 Soldier 6" 24" 2 32 T34 Tank 9" 48" 10 91' in text
    assert 'Medieval Knight 6" 0" 4 26' in text


def test_the_base_card_still_gives_the_texts_own_numbers(cli, tmp_path):
    text = card_text(cli, "speed-range-power", tmp_path)
    # 003 lines 47-50: 22, 30, 81 and 22 points; line 35: one in ten; line 45: 4 per Power
    assert 'WW2 Officer (Leader) 6" 6" 3 22 WW2 Soldier 6" 24" 2 30 T34 Tank 9" 48" 10 81' in text
    assert 'Medieval Knight 6" 0" 4 22' in text and "(the T34 is 9+32+40 = 81)" in text
    assert "One model in ten may be a leader." in text and "4 per Power" in text


def _plain(value: Any) -> Any:
    """A record as the plain YAML data it was read from."""
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def literal_copy(system_id: str, root: Path, new_id: str, extra: Path | None = None) -> Path:
    """A copy of a rule set whose texts state every number as a figure, as catalogs did before placeholders."""
    books = Catalogs([extra] if extra else [])
    system = books.get(system_id)
    folder = root / new_id
    shutil.copytree(system.folder / "factions", folder / "factions")
    data = _plain(system.definition)
    data["id"] = new_id
    (folder / "system.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    reference = _plain(load_reference(system))
    (folder / "reference.yaml").write_text(yaml.safe_dump(reference, sort_keys=False), encoding="utf-8")
    return root


SRP_HOUSE = (AUTHORS / "srp-house" / "system.yaml").read_text(encoding="utf-8")


def test_check_catalog_names_each_sentence_a_variant_keeps_with_a_changed_number(cli, tmp_path):
    root = literal_copy("speed-range-power", tmp_path / "club", "srp-literal")
    variant = root / "srp-house"
    variant.mkdir()
    (variant / "system.yaml").write_text(SRP_HOUSE.replace("extends: speed-range-power", "extends: srp-literal"))
    result = cli("check-catalog", variant, "--catalogs", root, "--json")
    assert result.exit_code == 1
    stale = {(r["file"], r["name"]): r["got"] for r in json.loads(result.stdout)["results"] if not r["passed"]}
    assert sorted(stale) == [
        ("reference.yaml", "rules[leaders].text"),
        ("reference.yaml", "tables[points].rows[2]"),
        ("reference.yaml", "tables[worked-examples].rows[0]"),
        ("reference.yaml", "tables[worked-examples].rows[1]"),
        ("reference.yaml", "tables[worked-examples].rows[2]"),
        ("reference.yaml", "tables[worked-examples].rows[3]"),
        ("reference.yaml", "tables[worked-examples].summary"),
        ("system.yaml", "constraints[leader-ratio].rule"),
        ("system.yaml", "constraints[leader-ratio].title"),
        ("system.yaml", "rulings[leader-ratio].text"),
    ]
    rule = stale[("system.yaml", "constraints[leader-ratio].rule")]
    assert rule.startswith("still states 10 (leader-ratio.per, now 5): 'One model in ten may be a leader.'")
    assert "writing {per} for 10" in rule and "srp-literal/system.yaml line " in rule
    power = stale[("reference.yaml", "tables[points].rows[2]")]
    assert power.startswith("still states 4 (cost.power.points, now 5): 'Power | 4 points per point | minimum 1'")
    tank = stale[("reference.yaml", "tables[worked-examples].rows[2]")]
    assert tank.startswith("still states 81 (the cost of T34 Tank, now 91)") and "{cost of T34 Tank}" in tank
    knight = stale[("reference.yaml", "tables[worked-examples].rows[3]")]
    assert knight.startswith("still states 22 (the cost of Medieval Knight, now 26)")
    # The line printed under FAIL names the file and the sentence, as the text output reads.
    text = cli("check-catalog", variant, "--catalogs", root).stdout
    assert "  FAIL  system.yaml: rulings[leader-ratio].text\n" in text and text.endswith("0 passed, 10 failed\n")


def test_the_variant_passes_once_its_texts_follow_their_numbers(cli, tmp_path):
    root = literal_copy("speed-range-power", tmp_path / "club", "srp-literal")
    variant = root / "srp-house"
    variant.mkdir()
    words = "    title: one leader in {per:words} models\n    rule: One model in {per:words} may be a leader.\n"
    ours = SRP_HOUSE.replace("extends: speed-range-power", "extends: srp-literal").replace(
        "    per: 5\n", "    per: 5\n" + words
    ) + textwrap.dedent("""\
        rulings:
          - id: leader-ratio
            text: Leaders are one in {leader-ratio.per:words}, rounded {leader-ratio.rounding}.
        """)
    (variant / "system.yaml").write_text(ours)
    (variant / "reference.yaml").write_text(
        textwrap.dedent("""\
        tables:
          - id: points
            rows:
              - [Speed, 1 point per 1", "multiples of 3, 0 allowed"]
              - [Range, 2 points per 3", "multiples of 3, 0 = base contact"]
              - [Power, "{cost.power.points} points per point", minimum 1]
          - id: worked-examples
            summary: Speed, plus 2 per 3" of Range, plus 5 per Power (the T34 is {sum of T34 Tank}).
            rows:
              - [WW2 Officer (Leader), 6", 6", "3", "{cost of WW2 Officer}"]
              - [WW2 Soldier, 6", 24", "2", "{cost of WW2 Soldier}"]
              - [T34 Tank, 9", 48", "10", "{cost of T34 Tank}"]
              - [Medieval Knight, 6", 0", "4", "{cost of Medieval Knight}"]
        rules:
          - id: leaders
            text: One model in five may be a leader.
        """)
    )
    result = cli("check-catalog", variant, "--catalogs", root)
    assert result.exit_code == 0, result.stdout
    assert "  ok    system.yaml: no sentence kept from 'srp-literal' states a number this variant changed" in (
        result.stdout
    )


GOBLINS = AUTHORS / "goblins"


def test_a_variant_that_changes_only_the_wolf_count_says_so_in_its_rule(cli, tmp_path, write_list):
    root = tmp_path / "club"
    (root / "wolf-pack").mkdir(parents=True)
    (root / "wolf-pack" / "system.yaml").write_text(
        "extends: goblins\nid: wolf-pack\nname: Wolf pack\nconstraints:\n  - {id: max-wolves, count: 4}\n"
    )
    books = Catalogs([AUTHORS, root])
    rule = next(c for c in books.get("wolf-pack").definition.constraints if c.id == "max-wolves")
    assert (rule.title, rule.rule) == ("at most 4 wolves", "At most 4 wolves.")
    five = write_list("system: wolf-pack\nname: Five\nunits:\n  - {unit: Wolf, count: 5}\n")
    result = cli("validate", five, "--catalogs", AUTHORS, "--catalogs", root)
    assert result.exit_code == 1 and "rule: At most 4 wolves." in result.stdout
    assert load_reference(books.get("wolf-pack")).rules[0].text == "A band takes at most 4 wolves."


def test_a_literal_goblins_base_fails_its_wolf_variant_at_each_stale_sentence(cli, tmp_path):
    root = literal_copy("goblins", tmp_path / "club", "goblins-literal", extra=AUTHORS)
    (root / "wolf-pack").mkdir()
    (root / "wolf-pack" / "system.yaml").write_text(
        "extends: goblins-literal\nid: wolf-pack\nname: Wolf pack\nconstraints:\n  - {id: max-wolves, count: 4}\n"
    )
    result = cli("check-catalog", root / "wolf-pack", "--catalogs", root, "--json")
    failed = [(r["file"], r["name"]) for r in json.loads(result.stdout)["results"] if not r["passed"]]
    assert result.exit_code == 1
    assert failed == [
        ("system.yaml", "constraints[max-wolves].rule"),
        ("system.yaml", "constraints[max-wolves].title"),
        ("reference.yaml", "rules[wolves].text"),
    ]


@pytest.mark.parametrize(
    ("text", "message", "hint"),
    [
        ("At most {cout} wolves.", "unknown placeholder {cout}", "(did you mean 'count'?)"),
        ("At most {max-wolfs.count} wolves.", "unknown placeholder {max-wolfs.count}", "'max-wolves.count'"),
        ("Costs {cost of Wolff} points.", "no catalog unit 'Wolff' for the placeholder {cost of Wolff}", "'Wolf'"),
    ],
)
def test_a_placeholder_that_names_nothing_is_located_with_a_did_you_mean(cli, tmp_path, text, message, hint):
    game = tmp_path / "club" / "goblins"
    shutil.copytree(GOBLINS, game)
    source = (game / "system.yaml").read_text()
    (game / "system.yaml").write_text(source.replace("rule: At most {count} wolves.", f"rule: {text}"))
    result = cli("check-catalog", game)
    assert result.exit_code == 2
    line = 1 + source.splitlines().index("    rule: At most {count} wolves.")
    assert f"line {line}, column 11: constraints[1].rule: {message}" in result.stderr
    assert hint in result.stderr


def test_braces_that_are_not_placeholders_read_as_written(catalogs):
    weapons = catalogs.get("deathzap").definition.stats["weapons"].summary
    assert "{weapon: Rifle, figures: 4}" in weapons


def test_worked_examples_are_priced_by_the_same_formula_as_every_list(catalogs):
    for system in catalogs.all():
        scope = Scope(system.definition, system.units)
        for unit in system.units.values():
            assert sum(term_points(system.definition, unit)) == unit_cost(system, unit)
            assert scope.lookup(f"cost of {unit.name}") == str(unit_cost(system, unit))


def test_every_shipped_placeholder_is_filled(catalogs):
    for system in catalogs.all():
        d = system.definition
        texts = [d.summary, *(c.rule for c in d.constraints), *(c.title for c in d.constraints)]
        texts += [r.text for r in d.rulings]
        ref = load_reference(system)
        texts += [cell for t in ref.tables for row in t.rows for cell in row] + [t.summary for t in ref.tables]
        texts += [r.text for r in ref.rules]
        left = [t for t in texts if re.search(r"\{[a-z][a-z_.-]*(?::words)?\}|\{(?:cost|sum) of ", t)]
        assert left == [], system.id


def test_catalogs_shipped_with_placeholders_cite_the_lines_their_numbers_come_from():
    # 003 line 35 "One in ten", lines 43-45 the formula; 004 line 48: 100 points, 16 fighters, 2 rare
    srp = (CATALOGS / "speed-range-power" / "system.yaml").read_text()
    assert "per: 10\n    rounding: down\n    source: line 35" in srp
    assert "- {stat: power, points: 4, per: 1}" in srp and "source: lines 43-45" in srp
    might = (CATALOGS / "might-skirmish" / "system.yaml").read_text()
    assert "default_limit: 100\ndefault_limit_source: line 48" in might
    assert "count: 16\n    source: line 48" in might


# --- where an author stops: each place a first rule set goes wrong, and what they are told ------


def author_copy(tmp_path: Path, name: str = "goblins") -> Path:
    """A copy of the author's catalog root, to break one thing in."""
    root = tmp_path / "club"
    shutil.copytree(AUTHORS, root, ignore=shutil.ignore_patterns("README.md"))
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_2_a_misspelt_rule_id_in_a_variant_is_named_with_the_rule_it_meant(cli, tmp_path):
    root = author_copy(tmp_path)
    edit(root / "srp-house" / "system.yaml", "  - id: leader-ratio\n", "  - id: leader-ration\n")
    result = cli("check-catalog", root / "srp-house", "--catalogs", root)
    assert result.exit_code == 2
    line = 1 + (root / "srp-house" / "system.yaml").read_text().splitlines().index("  - id: leader-ration")
    assert (
        f"line {line}, column 9: constraints[0].id: no rule 'leader-ration' in the base (did you mean "
        "'leader-ratio'?); a new rule needs 'kind:'"
    ) in result.stderr
    assert "unknown kind" not in result.stderr


def test_3_check_catalog_dot_inside_the_rule_sets_folder(cli, tmp_path, monkeypatch):
    root = author_copy(tmp_path)
    monkeypatch.chdir(root / "goblins")
    result = cli("check-catalog", ".")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(".: Goblins (goblins), catalog files load") and "12 passed" in result.stdout
    monkeypatch.chdir(root / "goblins" / "tests")
    assert cli("check-catalog", "..").exit_code == 0


def test_4_a_list_of_ones_own_rule_set_is_told_how_to_name_its_folder(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = cli("new", "srp-house", "--name", "House platoon", "--catalogs", AUTHORS)
    assert made.exit_code == 0, made.stderr
    header = (tmp_path / "house-platoon.yaml").read_text().splitlines()
    assert f"#   check it: listbuilder validate house-platoon.yaml --catalogs {AUTHORS}" in header
    assert f"#   units:    listbuilder catalog srp-house --catalogs {AUTHORS}" in header
    result = cli("validate", "house-platoon.yaml")
    assert result.exit_code == 2
    assert "unknown rule set 'srp-house'" in result.stderr
    assert "named in LISTBUILDER_CATALOGS" in result.stderr and "--catalogs DIR" in result.stderr
    # the command its header gives works as written
    assert cli("validate", "house-platoon.yaml", "--catalogs", AUTHORS).exit_code == 1  # no models yet


def test_4_a_shipped_rule_set_gives_no_catalogs_in_its_header(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli("new", "might-skirmish", "--name", "Zombies", "--catalogs", AUTHORS).exit_code == 0
    assert "--catalogs" not in (tmp_path / "zombies.yaml").read_text()


def test_5_catalogs_given_a_rule_set_folder_names_its_parent(cli):
    result = cli("systems", "--catalogs", AUTHORS / "srp-house")
    assert result.exit_code == 2
    assert "this is a rule set's folder (it holds system.yaml), not a catalog folder of rule sets" in result.stderr
    assert f"name the folder that holds it instead: {AUTHORS}" in result.stderr


def test_7_a_number_stat_with_no_minimum_is_warned_about(cli, tmp_path):
    root = author_copy(tmp_path)
    game = root / "goblins"
    text = (game / "system.yaml").read_text()
    start = text.index("  - kind: stat_range\n    id: fight-minimum")
    (game / "system.yaml").write_text(text[:start] + text[text.index("  - kind: stat_range\n    id: shoot-minimum") :])
    (game / "tests" / "illegal" / "fight-zero.yaml").unlink()
    result = cli("check-catalog", game, "--json")
    assert result.exit_code == 0  # a warning, not a failure
    assert json.loads(result.stdout)["warnings"] == [
        "the number stat 'fight' (Fight) has no minimum: a statline with Fight -3 costs -6 points and is legal; "
        "add a stat_range rule with 'minimum' for 'fight'"
    ]
    text_out = cli("check-catalog", game).stdout
    assert text_out.splitlines()[1].startswith("  warning  the number stat 'fight' (Fight) has no minimum")
    # and the author's point, from the command line: Fight -3 prices at -6 and is legal
    assert (
        "legal statline"
        in cli("cost", "goblins", "--kind", "Goblin", "--fight", "-3", "--shoot", "0", "--catalogs", root).stdout
    )


def test_7_every_shipped_number_stat_has_a_minimum(cli):
    for folder in sorted(p for p in CATALOGS.iterdir() if (p / "system.yaml").is_file()):
        assert json.loads(cli("check-catalog", folder, "--json").stdout)["warnings"] == [], folder.name


def test_8_a_rule_set_without_reference_yaml_says_so_on_its_sheet(cli, tmp_path, write_list):
    root = author_copy(tmp_path)
    (root / "goblins" / "reference.yaml").unlink()
    band = write_list("system: goblins\nname: Band\nunits:\n  - {unit: Goblin, count: 3}\n")
    out = tmp_path / "band.html"
    assert cli("render", band, "--catalogs", root, "-o", out).exit_code == 0
    sheet = out.read_text(encoding="utf-8").split('class="sheet reference"')[1]
    assert "Goblins has no reference tables or special rules to print: its catalog folder has no reference.yaml." in (
        sheet
    )
    warnings = json.loads(cli("check-catalog", root / "goblins", "--json").stdout)["warnings"]
    assert warnings == [
        "no reference.yaml: reference sheets and the rules card print no tables or special rules (a sheet says so)"
    ]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "  - kind: at_most\n",
            "  - kind: at_mots\n",
            "constraints[1]: unknown kind 'at_mots' (did you mean 'at_most'?)",
        ),
        ("  - kind: at_most\n", "  - kind: wolves\n", "unknown kind 'wolves' (the kinds: limit, at_most, at_least, "),
        ("    per: 5\n", "    pr: 5\n", "constraints[2].pr: unknown key 'pr' (did you mean 'per'?)"),
        ("    per: 5\n", "", "constraints[2].per: the key 'per' is missing (add 'per': how many models earn one more)"),
        (
            "any_of: [Wolf]",
            "any_of: [Wolff]",
            "groups.wolves.any_of: 'Wolff' is not a value of 'kind' (did you mean 'Wolf'?)",
        ),
    ],
)
def test_9_did_you_mean_for_kinds_nested_keys_and_a_groups_values(cli, tmp_path, old, new, expected):
    root = author_copy(tmp_path)
    edit(root / "goblins" / "system.yaml", old, new)
    result = cli("check-catalog", root / "goblins")
    assert result.exit_code == 2 and expected in result.stderr, result.stderr
    assert ".at_most_per." not in result.stderr  # the kind is not a key of the file


def test_9_did_you_mean_for_a_missing_list_file(cli, tmp_path, write_list):
    write_list("system: might-skirmish\nname: Raiders\nunits: []\n", name="zombie-raiders.yaml")
    result = cli("validate", tmp_path / "zombie-raiders.yml")
    assert result.exit_code == 2
    assert "no such list file" in result.stderr and "did you mean 'zombie-raiders.yaml'?" in result.stderr


def test_10_an_unquoted_comma_in_costs_yaml_is_a_broken_file(cli, tmp_path):
    root = author_copy(tmp_path)
    costs = root / "srp-house" / "tests" / "costs.yaml"
    costs.write_text("- {unit: WW2 Officer, cost: 25, source: house rule, 5 per Power}\n")
    result = cli("check-catalog", root / "srp-house", "--catalogs", root)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"{costs}: this costs file has errors" in result.stderr
    assert "line 1, column 53: [0].5 per Power: unknown key '5 per Power'" in result.stderr
    assert 'in {...} a comma ends a value: write "house rule, 5 per Power" in quotes' in result.stderr


# --- placeholders and stale numbers, for any text ---------------------------------------------


NAMES = {"count": "4", "per": "10", "max-wolves.count": "2"}


@given(st.text(max_size=200))
def test_a_sentence_without_placeholders_is_left_as_written(text):
    plain = text.replace("{", "(").replace("}", ")")
    assert fill(plain, NAMES.get) == (plain, [])
    assert literal(plain) == plain


@given(
    st.lists(
        st.one_of(st.sampled_from(["{count}", "{per}", "{cout}", "{{count}}", "{ x }", "{", "}"]), st.text(max_size=8)),
        max_size=12,
    )
)
def test_any_template_is_filled_or_its_unknown_names_reported(parts):
    text = "".join(parts)
    filled, unknown = fill(text, NAMES.get)
    # every placeholder is filled, or reported by name; doubled braces write one literally
    assert unknown == [name for name in names_in(text) if name not in NAMES]
    if not unknown:
        assert all(f"{{{name}}}" not in filled for name in NAMES if f"{{{{{name}}}}}" not in text)


@given(st.integers(min_value=0, max_value=10**7))
def test_a_number_is_found_as_written_and_not_inside_another(n):
    assert states(f"at most {n} models", n) and states(f"at most {n:,} models", n)
    assert not states(f"at most {n}5 models", n) and not states(f"at most 1{n} models", n)
    assert not states(f"Range {n}.5", n)


def test_numbers_in_words_and_source_lines():
    assert states("One model in ten may be a leader", 10) and not states("often", 10)
    assert source_lines("lines 37, 39 and 41-45") == {37, 39, 41, 42, 43, 44, 45}
    assert source_lines("line 35 (ruling leader-ratio)") == {35}
    assert source_lines("house rule (the text's standard game allows 16, line 48)") == {48}
