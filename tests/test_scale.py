"""Big inputs stay cheap: no step compares every item with every other.

Timings belong to benchmarks/; these tests pin the behaviour the fast paths must keep: the
same answers, and work that grows with the distinct things asked, not with their copies.
"""

from __future__ import annotations

import difflib
import random

import pytest
from conftest import EXAMPLES, units_yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from listbuilder.api.lists import check_list
from listbuilder.odds import ImpossibleMatchup, clear_caches, matchup, matrix
from listbuilder.odds import matchups as odds_api
from listbuilder.printing.pages import roster
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.formats import Unit
from listbuilder.words import SHORTLIST, did_you_mean


def plain_did_you_mean(found: str, options: list[str]) -> str | None:
    """The hint as difflib gives it over every option: the oracle of the shortlist."""
    by_lower = {o.lower(): o for o in options}
    close = difflib.get_close_matches(found.lower(), list(by_lower), n=1, cutoff=0.6)
    return f"did you mean '{by_lower[close[0]]}'?" if close else None


WORDS = ["horde", "fighter", "grave", "digger", "archer", "storm", "blade", "hound", "uncle", "shade", "crow"]


def big_catalog_names(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}" for i in range(count)]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_did_you_mean_over_a_big_catalog_finds_what_difflib_finds(data):
    names = big_catalog_names(2_000)
    name = data.draw(st.sampled_from(names))
    cut = data.draw(st.integers(0, len(name) - 1))
    typo = data.draw(st.sampled_from([name[:cut] + name[cut + 1 :], name[:cut] + "x" + name[cut:], name.upper()]))
    assert did_you_mean(typo, names) == plain_did_you_mean(typo, names)


def test_did_you_mean_on_a_short_list_is_difflib_itself():
    options = ["Hunter", "Shambler", "Rotting Hound"]
    assert len(options) <= SHORTLIST
    assert did_you_mean("huntr", options) == "did you mean 'Hunter'?"
    assert did_you_mean("zzzz", options) is None
    # past the shortlist too, a word with nothing close gets no hint
    assert did_you_mean("qqqqqqqq", big_catalog_names(500)) is None


def write_faction(root, units: list[str]) -> None:
    folder = root / "might-skirmish" / "factions"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "horde.yaml").write_text("faction: Horde\nunits:\n" + "".join(units))


def test_a_big_faction_loads_and_a_repeated_name_is_found_whatever_its_case(tmp_path, cli):
    names = [f"Horde Fighter {i}" for i in range(3_000)]
    lines = [f"  - name: {n}\n    class: Warrior\n    might: {1 + i % 20}\n" for i, n in enumerate(names)]
    write_faction(tmp_path, lines)
    system = Catalogs([tmp_path]).get("might-skirmish")
    assert len(system.factions["Horde"]) == 3_000 and system.find_unit("horde fighter 2999") is not None
    write_faction(
        tmp_path,
        [f"  - name: {n}\n    class: Warrior\n    might: 5\n" for n in [*names[:5], "HORDE fighter 3"]],
    )
    result = cli("validate", "--catalogs", tmp_path, EXAMPLES / "might-skirmish-zombie-family.legal.yaml")
    assert result.exit_code == 2
    assert "line 18" in result.stderr and "units[5].name" in result.stderr
    assert "the unit name 'HORDE fighter 3' is already used in this file" in result.stderr


@pytest.fixture(scope="module")
def ms():
    return Catalogs().get("might-skirmish")


def test_a_matrix_works_each_distinct_pair_of_stats_out_once_and_names_every_unit(ms, monkeypatch):
    clear_caches()
    kind = type(odds_api.mechanic_of(ms))
    engine = kind.engine
    calls = []

    def counting(self, *args):
        calls.append(args)
        return engine(self, *args)

    monkeypatch.setattr(kind, "engine", counting)
    # 60 fighters of three profiles, each copy named apart (as a long list fields them)
    profiles = [("Soldier", 8), ("Beast", 5), ("Warrior", 7)]
    units = [Unit(name=f"Fighter {i}", stats={"class": c, "might": m}) for i in range(20) for c, m in profiles]
    grid = matrix(ms, units, units)
    assert len(calls) == 9  # 3 x 3 distinct pairs, not 60 x 60
    assert [c.attacker for c in grid.cells[4]] == ["Fighter 1"] * 60
    assert [c.target for c in grid.cells[4]] == [u.name for u in units]
    alone = matchup(ms, units[4], units[59])
    assert grid.cells[4][59] == alone and len(calls) == 9


def test_a_refused_matchup_names_the_units_asked_about_even_when_known(ms):
    clear_caches()
    first = Unit(name="Shield Wall", stats={"class": "Warrior", "might": 7})
    twin = Unit(name="Spear Line", stats={"class": "Warrior", "might": 7})
    target = Unit(name="Crow", stats={"class": "Beast", "might": 3})
    with pytest.raises(ImpossibleMatchup, match="Shield Wall"):
        matchup(ms, first, target, attack="ranged")
    with pytest.raises(ImpossibleMatchup, match="Spear Line"):
        matchup(ms, twin, target, attack="ranged")
    grid = matrix(ms, [first, twin], [target], attack="ranged")
    assert grid.cells == ((None,), (None,))


def test_a_roster_names_its_factions_once(write_list, catalogs):
    mixed = write_list(
        "system: might-skirmish\nname: Mixed\nunits:\n" + units_yaml([("Hunter", 1), ("Windblade", 1), ("Shambler", 2)])
    )
    sheet = roster(check_list(mixed, catalogs))
    assert sheet.factions == ("Zombie Family", "Windblade Elves") and sheet.mixed_factions
    single = roster(check_list(EXAMPLES / "might-skirmish-zombie-family.legal.yaml", catalogs))
    assert single.factions == ("Zombie Family",) and not single.mixed_factions


def test_copies_of_one_unit_share_their_outcome_and_a_parse_leaves_the_collector_as_it_was(ms):
    import gc

    from listbuilder.files.yamldoc import parse_yaml

    hunter = Unit(name="H", stats={"class": "Soldier", "might": 10})
    hound = Unit(name="R", stats={"class": "Beast", "might": 4})
    grid = matrix(ms, [hunter, hunter], [hound, hound, hunter])
    assert grid.cells[0][0] is grid.cells[1][1] and grid.cells[0][0] == matchup(ms, hunter, hound)
    assert grid.cells[0] is grid.cells[1]  # a copy of an attacker shares its row
    assert grid.cells[0][2].target == "H" and grid.cells[0][2] is not grid.cells[0][0]
    before = gc.get_threshold()
    parse_yaml("units: [1, 2]\n", EXAMPLES / "x.yaml")
    assert gc.get_threshold() == before
