"""The odds files: every rule set ships one that cites its source, a sixth rule set's works with no
code change, a malformed one gets located errors, and validate never pays for the dice library."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import typing
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import CATALOGS, EXAMPLES
from odds_oracles import bf_at_least, bf_pool

from listbuilder.errors import CatalogError
from listbuilder.odds import card_odds, load_odds, matchup, matrix
from listbuilder.odds.kinds import RatioTable, UnitMelee
from listbuilder.odds.mechanic import Mechanic
from listbuilder.odds.spec import MECHANIC_KINDS
from listbuilder.rules.catalog import Catalogs

SYSTEM_IDS = sorted(p.name for p in CATALOGS.iterdir() if (p / "system.yaml").is_file())


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_every_shipped_rule_set_has_odds_that_cite_the_source(catalogs, system_id):
    odds = load_odds(catalogs.get(system_id))
    assert odds.source and odds.rulings and all(r.source for r in odds.rulings)
    for m in odds.mechanics:
        assert m.source and m.title
        assert all(o.source and o.summary for o in m.options.values()), m.id
        for field in ("die_modifiers", "modifiers", "dice_changes", "requires", "bands", "special_rolls"):
            assert all(item.source for item in getattr(m, field, ())), (m.id, field)


def test_the_combat_modifier_ruling_is_declared_in_the_odds_file(catalogs):
    rulings = {r.id: r for r in load_odds(catalogs.get("speed-range-power")).rulings}
    ruling = rulings["combat-modifiers"]
    assert "each die" in ruling.text and "natural 6" in ruling.text
    assert ruling.source == "lines 23, 37 and 39"


def test_every_mechanic_kind_is_used_by_a_shipped_rule_set_or_the_sixth(catalogs, tmp_path):
    used = {m.kind for s in SYSTEM_IDS for m in load_odds(catalogs.get(s)).mechanics}
    used |= {m.kind for m in load_odds(sixth(tmp_path)).mechanics}
    assert used == {typing.get_args(typing.get_type_hints(k)["kind"])[0] for k in MECHANIC_KINDS}


def test_every_mechanic_kind_is_in_the_odds_pages_table():
    page = (Path(__file__).parent.parent / "docs" / "odds.md").read_text(encoding="utf-8")
    rows = {line.split("`")[1] for line in page.splitlines() if line.startswith("| `")}
    kinds = {typing.get_args(typing.get_type_hints(k)["kind"])[0] for k in MECHANIC_KINDS}
    assert kinds <= rows, f"add a row to docs/odds.md for: {', '.join(sorted(kinds - rows))}"


def test_each_mechanic_kind_is_one_class_with_its_check_engine_and_card():
    for kind in MECHANIC_KINDS:
        assert issubclass(kind, Mechanic)
        assert "check" in vars(kind) and "engine" in vars(kind), kind.__name__
    assert "card" in vars(RatioTable) and "card" not in vars(UnitMelee)  # a kind may print no table


def test_validate_does_not_import_the_dice_library():
    code = (
        "import sys\n"
        "import listbuilder.cli, listbuilder.api, listbuilder.odds.load\n"
        "print('ICEPOOL', 'icepool' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "ICEPOOL False" in out.stdout, out.stdout + out.stderr


# --- a sixth, made-up rule set ---------------------------------------------------------------

SIXTH_SYSTEM = """\
    id: clockwork-duels
    name: Clockwork Duels
    summary: A made-up rule set, written by a test, to prove odds need no code.
    source: the test suite
    revision: 1
    model: {singular: automaton, plural: automata}
    force: workshop
    measure: {singular: crown, plural: crowns}
    leader: {singular: foreman, plural: foremen}
    default_limit: 50
    stats:
      grit: {label: Grit, kind: number}
      frame:
        label: Frame
        kind: choice
        choices:
          - {name: Tin, properties: {cogs: 2, sparks_on: 5, plated: false}}
          - {name: Brass, properties: {cogs: 3, sparks_on: 4, plated: false}}
          - {name: Steel, properties: {cogs: 4, sparks_on: 3, plated: true}}
    cost: {kind: stat, stat: grit}
    constraints:
      - {kind: limit, id: grit-limit, rule: A workshop costs no more than its agreed grit., source: test}
"""

SIXTH_ODDS = """\
    source: the test suite
    matchup: duel
    card: [duel, gauge, plating]
    mechanics:
      - id: duel
        kind: opposed_pools
        title: Duel
        source: test
        options:
          oiled: {summary: The attacker was oiled this turn., kind: flag, default: false, source: test}
        dice: {stat: frame, property: cogs}
        success_from: {stat: frame, property: sparks_on}
        sides: 8
        explode_on: 8
        explode_depth: 4
        ties: target
        results: {won: unwound, lost: seized up}
        die_modifiers:
          - {side: attacker, add: 1, when: {oiled: true}, source: test}
      - id: gauge
        kind: ratio_table
        title: Pressure gauge
        source: test
        stat: grit
        roll: {dice: 2, sides: 8}
        bands:
          - {column: "weaker or equal", at_most: 1, needs: [14, 10], source: test}
          - {column: stronger, above: 1, needs: [12, 8], source: test}
        results:
          - {name: jammed, kills: 1}
          - {name: rattled}
        otherwise: {name: shrugs it off}
      - id: plating
        kind: banded_save
        title: Plating
        source: test
        options:
          dents: {summary: Dents on the automaton., kind: number, minimum: 1, default: 1, source: test}
        stat: grit
        against: dents
        sides: 8
        bands:
          - {column: below, below: 1, save_on: 7, source: test}
          - {column: at least, at_least: 1, save_on: 3, source: test}
        passes: [{name: holds}]
        fails: {name: bursts, kills: 1}
        damage_roll: {stat: frame, property: plated, removed_on: 5, sides: 8, source: test}
    rulings:
      - {id: made-up, text: Everything here is made up., source: test}
"""


def write_sixth(root: Path, odds: str = SIXTH_ODDS) -> Path:
    folder = root / "clockwork-duels"
    (folder / "factions").mkdir(parents=True, exist_ok=True)
    (folder / "system.yaml").write_text(textwrap.dedent(SIXTH_SYSTEM))
    (folder / "odds.yaml").write_text(textwrap.dedent(odds))
    (folder / "factions" / "gears.yaml").write_text(
        textwrap.dedent("""\
        faction: Gearwrights
        units:
          - {name: Tinker, frame: Tin, grit: 3}
          - {name: Clanker, frame: Brass, grit: 5}
          - {name: Juggernaut, frame: Steel, grit: 10}
    """)
    )
    return root


def sixth(tmp_path: Path, odds: str = SIXTH_ODDS):
    return Catalogs([write_sixth(tmp_path / "house", odds)]).get("clockwork-duels")


def test_a_sixth_rule_sets_odds_work_with_no_code_change(tmp_path):
    system = sixth(tmp_path)
    tinker, clanker, juggernaut = (system.find_unit(n) for n in ("Tinker", "Clanker", "Juggernaut"))
    duel = matchup(system, clanker, tinker, oiled=True)
    # 3 d8 needing 4+ (+1 each, oiled) against 2 d8 needing 5+; natural 8s explode 4 deep; ties to the target
    pools = bf_pool(3, 4, 1, 4, sides=8, explode_on=8), bf_pool(2, 5, 0, 4, sides=8, explode_on=8)
    won = 1 - bf_at_least(pools[1], pools[0])
    assert duel["unwound"] == won and duel["seized up"] == 1 - won and duel.names == ("unwound", "seized up")
    gauge = matchup(system, juggernaut, clanker, mechanic="gauge")  # 10 against 5: stronger
    assert gauge["jammed"] == Fraction(15, 64)  # 12+ on 2d8: 5+4+3+2+1 of 64
    assert gauge["rattled"] == Fraction(7 + 8 + 7 + 6, 64)
    plating = matchup(system, tinker, juggernaut, mechanic="plating", dents=11)  # 10 below 11: 7+
    assert plating["holds"] == Fraction(2, 8) and plating.expected_kills == Fraction(6, 8) * Fraction(4, 8)
    m = matrix(system, [tinker, clanker], [juggernaut, clanker, tinker])
    assert m.efficiency is not None and m.efficiency[0] == sum(m.expected_kills(0, j) for j in range(3)) / 3 * 100 / 3
    tables = card_odds(system)
    # the duel's roll needed depends on the frame, so it has no single grid to print
    assert [t.title for t in tables] == ["Pressure gauge", "Plating", "Plating: chance to save"]


# --- a malformed odds file -------------------------------------------------------------------

# (text replaced, its replacement, text on the line the error must point at, message, hint)
BROKEN = [
    ("stat: grit\n", "stat: grti\n", "stat: grti", "clockwork-duels has no stat 'grti'", "did you mean 'grit'?"),
    (
        "property: cogs}",
        "property: cog}",
        "property: cog}",
        "no choice of 'frame' has the property 'cog'",
        "did you mean 'cogs'?",
    ),
    (
        "stronger, above: 1,",
        "stronger, above: 2,",
        "column: stronger",
        "this band does not start where band 0 ends",
        "start it with above: 1",
    ),
    ("when: {oiled: true}", "when: {oilde: true}", "oilde", "no option 'oilde'", "did you mean 'oiled'?"),
    ("needs: [14, 10]", "needs: [14]", "needs: [14]", "1 numbers, but there are 2 results", None),
    ("needs: [12, 8]", "needs: [8, 12]", "needs: [8, 12]", "give the numbers best result first", None),
    (
        "ties: target\n",
        "ties: target\n        tie: target\n",
        "tie: target",
        "unknown key 'tie'",
        "did you mean 'ties'?",
    ),
    (
        "ties: target\n",
        "ties: target\n        save: {option: oiled, on: {yes: 5}, source: test}\n",
        "results: {won: unwound",
        "name the result 'saved'",
        "add 'saved:' under 'results'",
    ),
    (
        "kind: banded_save",
        "kind: banded_saves",
        "id: plating",
        "unknown kind 'banded_saves'",
        "did you mean 'banded_save'?",
    ),
    ("matchup: duel", "matchup: dual", "matchup: dual", "no mechanic 'dual'", "did you mean 'duel'?"),
    ("save_on: 3", "save_on: 9", "save_on: 9", "each band needs 'save_on' from 1 to 8", None),
    (
        "stat: grit\n        against",
        "stat: frame\n        against",
        "  stat: frame",
        "'frame' is a choice stat; expected a number stat",
        None,
    ),
]


@pytest.mark.parametrize(("old", "new", "marker", "message", "hint"), BROKEN, ids=[b[3][:40] for b in BROKEN])
def test_a_malformed_odds_file_gets_located_errors(tmp_path, old, new, marker, message, hint):
    assert old in SIXTH_ODDS
    broken = SIXTH_ODDS.replace(old, new, 1)
    with pytest.raises(CatalogError) as err:
        load_odds(sixth(tmp_path, broken))
    rendered = err.value.render()
    assert "odds.yaml: this odds file has errors" in rendered
    found = [d for d in err.value.details if message in d.message]
    assert found, rendered
    line = next(i for i, text in enumerate(textwrap.dedent(broken).splitlines(), 1) if marker in text)
    assert found[0].line == line, rendered
    assert found[0].hint == hint, rendered


def test_a_rule_set_without_an_odds_file_says_so(tmp_path, catalogs):
    system = sixth(tmp_path)
    (system.folder / "odds.yaml").unlink()
    with pytest.raises(CatalogError, match=r"has no odds\.yaml"):
        load_odds(system)


def test_example_lists_give_matrices_in_every_rule_set(catalogs):
    from listbuilder.api.lists import check_list
    from listbuilder.odds import fielded

    for path in sorted(EXAMPLES.glob("*.legal.yaml")):
        report = check_list(path, catalogs)
        units = fielded(report)[:6]
        m = matrix(report.system, units, units)
        assert len(m.cells) == len(units)
