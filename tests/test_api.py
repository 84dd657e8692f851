"""The library API that every front end calls: each action, each bad option, each record's JSON."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from conftest import EXAMPLES

from listbuilder.api import doctor, editing, files, lists, matchups, printing, rulesets, sharing
from listbuilder.errors import InputError, ListbuilderError

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"


@pytest.fixture(scope="module")
def books():
    return rulesets.open_catalogs()


def test_rule_sets_and_catalog_units(books):
    ids = [s.id for s in books.all()]
    assert ids == sorted(ids) and "might-skirmish" in ids
    listing = rulesets.catalog_units(books, "might-skirmish", "zombie family")  # any case
    assert listing.faction == "Zombie Family"
    hunter = next(u for u in listing.units if u.unit.name == "Hunter")
    assert hunter.cost == hunter.unit.stats["might"]  # might-skirmish: a fighter costs its Might
    data = json.loads(json.dumps(listing.as_json()))
    assert data["unit_of_cost"] == "points" and {u["faction"] for u in data["units"]} == {"Zombie Family"}


def test_unknown_rule_set_and_faction_are_located_errors(books):
    with pytest.raises(InputError, match="unknown rule set 'might-skirmsh'") as exc:
        books.get("might-skirmsh")
    assert "did you mean 'might-skirmish'" in exc.value.render()
    with pytest.raises(InputError, match="no faction 'Zombie Famly'") as exc:
        rulesets.catalog_units(books, "might-skirmish", "Zombie Famly")
    assert "did you mean 'Zombie Family'" in exc.value.render()


def test_a_list_from_a_path_and_from_text_agree(books):
    from_file = lists.check_list(ZOMBIES, books)
    from_text = lists.check_text(ZOMBIES.read_text(encoding="utf-8"), books, source=ZOMBIES)
    assert from_text.total == from_file.total and from_text.problems == from_file.problems
    assert from_text.as_json() == from_file.as_json()


def test_bad_text_names_its_source(books):
    with pytest.raises(InputError) as exc:
        lists.check_text("system: might-skirmish\nname: X\nunits:\n  - unit: Huntr\n", books, source=Path("pasted"))
    assert exc.value.render().startswith("pasted: ")
    assert "did you mean 'Hunter'" in exc.value.render()


def test_points_json_carries_the_entries(books):
    data = lists.check_list(ZOMBIES, books).as_json(entries=True)
    assert sum(e["cost"] for e in data["entries"]) == data["total"]


def test_price_a_statline_by_the_formula(books):
    # speed-range-power worked example: WW2 Soldier 6"/24"/2 = 30 (source 003, the points examples)
    system = books.get("speed-range-power")
    result = lists.price(system, lists.read_stats(system, [("speed", "6"), ("range", "24"), ("power", "2")]))
    assert result.total == 30 and result.legal
    data = result.as_json()
    assert [p["cost"] for p in data["parts"]] == [6, 16, 8] and data["legal"] is True


def test_price_refuses_unknown_stats_and_units(books):
    system = books.get("speed-range-power")
    with pytest.raises(InputError, match="cannot be used") as exc:
        lists.read_stats(system, [("sped", "6")])
    assert "did you mean 'speed'" in exc.value.render() and "--" not in exc.value.render()
    with pytest.raises(InputError, match="no unit 'Nobody'"):
        lists.price(system, {}, "Nobody")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"paper": "a3"}, "unknown paper size 'a3'"),
        ({"only": "everything"}, "unknown part 'everything'"),
        ({"format": "docx"}, "unknown document format 'docx'"),
    ],
)
def test_render_checks_every_option(books, options, message):
    report = lists.check_list(ZOMBIES, books)
    with pytest.raises(InputError, match=message):
        printing.render_reports([report], **options)
    if "only" not in options:
        with pytest.raises(InputError, match=message):
            printing.render_card(books.get("might-skirmish"), **options)


def test_render_to_bytes_writes_nothing(books, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = lists.check_list(MASH, books)
    done = printing.render_reports([report], format="html", paper="LETTER", only="roster")
    assert done.format == "html" and done.illegal == ("Monster Mash",)
    assert b"Not legal" in done.data and b"Monster Mash" in done.data
    assert list(tmp_path.iterdir()) == []
    assert done.as_json()["bytes"] == len(done.data)
    card = printing.render_card(books.get("deathmelt"), format="html")
    assert card.data.startswith(b"<!DOCTYPE html>") or b"<html" in card.data[:200]


def test_strict_render_refuses_an_illegal_list(books):
    with pytest.raises(ListbuilderError) as exc:
        printing.render_reports([lists.check_list(MASH, books)], format="html", strict=True)
    assert exc.value.exit_code == 1


def test_write_file_is_a_separate_step(books, tmp_path):
    done = printing.render_reports([lists.check_list(ZOMBIES, books)], format="html")
    out = files.write_file(tmp_path / "roster.html", done.data, inputs=[ZOMBIES])
    assert out.read_bytes() == done.data


def test_render_files_refuses_a_bad_name_before_any_work(books, tmp_path):
    with pytest.raises(InputError, match="cannot tell what to write"):
        printing.render_files([ZOMBIES], books, output=tmp_path / "roster.docx")
    assert list(tmp_path.iterdir()) == []


def test_text_edits_write_nothing_and_keep_comments(books, tmp_path):
    text = ZOMBIES.read_text(encoding="utf-8")
    before = ZOMBIES.read_bytes()
    added = editing.apply_to_text(text, books, editing.AddUnit(unit="Hunter", count=1), source=ZOMBIES)
    hunter = lists.price(books.get("might-skirmish"), {}, "Hunter").total
    assert added.changed and added.report.total == lists.check_list(ZOMBIES, books).total + hunter
    assert [c for c in text.splitlines() if c.lstrip().startswith("#")] == [
        c for c in added.text.splitlines() if c.lstrip().startswith("#")
    ]
    renamed = editing.apply_to_text(added.text, books, editing.SetField(key="name", value="Zombie Kin"), source=ZOMBIES)
    assert renamed.report.army.name == "Zombie Kin"
    removed = editing.apply_to_text(renamed.text, books, editing.RemoveUnit(unit="Hunter", count=1), source=ZOMBIES)
    assert removed.report.total == lists.check_list(ZOMBIES, books).total
    assert ZOMBIES.read_bytes() == before


def test_text_edit_of_a_unit_the_list_lacks(books):
    with pytest.raises(InputError, match="there is no 'Bone Giant' in this list"):
        editing.apply_to_text(
            ZOMBIES.read_text(encoding="utf-8"), books, editing.RemoveUnit(unit="Bone Giant"), source=ZOMBIES
        )


def test_a_change_gives_the_same_text_on_a_file_as_on_its_text(books, tmp_path):
    copy = tmp_path / "zombies.yaml"
    copy.write_bytes(ZOMBIES.read_bytes())
    by_text = editing.apply_to_text(
        copy.read_text(encoding="utf-8"), books, editing.AddUnit(unit="Hunter", count=2), source=copy
    )
    by_file = editing.apply_change(copy, books, editing.AddUnit(unit="Hunter", count=2))
    assert by_file.text == by_text.text == copy.read_text(encoding="utf-8")


def test_new_list_text_and_file_name(books):
    system = books.get("might-skirmish")
    assert editing.list_file_name(system, "Zombie Family!").name == "zombie-family.yaml"
    report = lists.check_text(editing.new_list_text(books, "might-skirmish", "Zombie Family", 150), books)
    assert report.army.name == "Zombie Family" and report.limit == 150 and report.total == 0


@pytest.mark.parametrize(
    ("format", "embed", "message"),
    [
        ("docx", False, "unknown format 'docx'"),
        ("text", True, "written out in full only in a yaml export, not in text"),
    ],
)
def test_export_checks_its_options(books, format, embed, message):
    with pytest.raises(InputError, match=message):
        sharing.export_list(lists.check_list(ZOMBIES, books), format, embed=embed)


@pytest.mark.parametrize("format", ["text", "markdown", "json"])
def test_export_and_import_round_trip(books, format):
    report = lists.check_list(ZOMBIES, books)
    back = lists.check_text(sharing.import_list(sharing.export_list(report, format), books), books)
    assert [(ln.entry.unit.name, ln.entry.count) for ln in back.lines] == [
        (ln.entry.unit.name, ln.entry.count) for ln in report.lines
    ]


def test_export_yaml_is_a_clean_list_file(books):
    report = lists.check_list(ZOMBIES, books)
    clean = sharing.export_list(report, "yaml")
    again = lists.check_text(clean, books)
    assert again.total == report.total and "#" not in clean
    assert "- unit: Hunter" in clean  # catalog units by name, not written out
    embedded = sharing.export_list(report, "YAML", embed=True)
    assert "might:" in embedded and lists.check_text(embedded, books).total == report.total


# The Zombie Family and the Monster Mash, costed by hand from the catalog (might-skirmish:
# cost = Might, source 004 line 48; catalogs/might-skirmish/factions/zombie-family.yaml gives
# Hunter 10, Shambler 5, Rotting Hound 4, Crow Swarm 3, Grave Digger 8, Blunderbuss Uncle 9,
# Grandpa Bones 20, Cousin Sniper 7; the Mash's custom Old Mother is Might 20):
#   Zombie Family: 2x10 + 4x5 + 2x4 + 2x3 + 8 + 9 + 20 + 7 = 98
#   Monster Mash:  2x20 + 20 + 3x8 + 3x10 = 114
# and each unit's change from the one to the other: (name, before, after, cost change)
ZOMBIES_TO_MASH = [
    ("Hunter", 2, 3, 10),
    ("Shambler", 4, 0, -20),
    ("Rotting Hound", 2, 0, -8),
    ("Crow Swarm", 2, 0, -6),
    ("Grave Digger", 1, 3, 16),
    ("Blunderbuss Uncle", 1, 0, -9),
    ("Grandpa Bones", 1, 2, 20),
    ("Cousin Sniper", 1, 0, -7),
    ("Old Mother", 0, 1, 20),
]


def test_diff_lists(books):
    d = sharing.diff_files(ZOMBIES, MASH, books)
    data = d.as_json()
    assert data["total"] == {"before": 98, "after": 114} and d.total_change == 16  # 114 - 98
    assert [(u["name"], u["before"], u["after"], u["cost_change"]) for u in data["units"]] == ZOMBIES_TO_MASH
    assert sum(change for *_, change in ZOMBIES_TO_MASH) == 16
    # the Mash breaks the limit (114 of 100), half basic (3 basic of 9: Hunter x3) and two rare at most
    # (Grandpa Bones x2 and Old Mother are Monsters): the three rules of might-skirmish it breaks
    assert [p["rule_id"] for p in data["now_breaks"]] == ["points-limit", "half-basic", "max-rare"]
    assert data["verdict"] == {"before": True, "after": False}


def test_odds_of_one_matchup(books):
    outcome = matchups.odds(books, "might-skirmish", "Hunter", "Hunter")
    data = outcome.as_json()
    assert abs(sum(r["chance"] for r in data["results"]) - 1) < 1e-9


def test_odds_of_lists_of_different_rule_sets_is_refused(books):
    other = lists.check_list(EXAMPLES / "deathzap-frontier-rangers.legal.yaml", books)
    with pytest.raises(InputError, match="different rule sets"):
        matchups.odds_lists(lists.check_list(ZOMBIES, books), other)


def test_records_are_immutable(books):
    report = lists.check_list(ZOMBIES, books)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.total = 0  # type: ignore[misc]
    pricing = lists.price(books.get("might-skirmish"), {}, "Hunter")
    assert isinstance(pricing.parts, tuple) and isinstance(pricing.problems, tuple)


def test_text_is_held_to_the_size_of_a_file(books):
    from listbuilder.files.reading import MAX_FILE_BYTES

    huge = "system: might-skirmish\nname: X\nunits: []\n" + "#" * MAX_FILE_BYTES
    for action in (lists.check_text, doctor.fix_text):
        with pytest.raises(InputError, match="a YAML text is at most"):
            action(huge, books)


def test_the_doctor_finds_a_faction_as_the_catalog_does(books):
    with pytest.raises(InputError) as exc:  # one faction lookup for the catalog and the doctor
        doctor.fill_list(ZOMBIES, books, faction="Zombie Famly")
    assert exc.value.render() == (
        "no faction 'Zombie Famly' in the might-skirmish catalogs\n  did you mean 'Zombie Family'?"
    )


def test_paths_and_sequences_of_the_right_kind_pass(books):
    assert lists.check_list(ZOMBIES, books).legal()
    assert rulesets.open_catalogs([]) is not None and rulesets.open_catalogs(()) is not None
    assert matchups.odds(books, "might-skirmish", "Hunter", "Hunter", {"attack": "melee"}).system == "might-skirmish"


def test_nothing_to_print_is_refused(books):
    with pytest.raises(InputError, match="nothing to print"):
        printing.render_reports([], format="html")
    with pytest.raises(InputError, match="nothing to print"):
        printing.render_files([], books, output=Path("roster.html"))


def test_every_record_an_action_returns_has_its_json(books):
    report = lists.check_list(ZOMBIES, books)
    mash = lists.check_list(MASH, books)
    edited = editing.apply_to_text(
        ZOMBIES.read_text(encoding="utf-8"), books, editing.AddUnit(unit="Crow Swarm"), source=ZOMBIES
    )
    data = json.loads(json.dumps(edited.as_json()))
    assert data["file"] == str(ZOMBIES) and data["changed"] is True
    # The Zombie Family (98 points, 14 fighters: 2x10 + 4x5 + 2x4 + 2x3 + 8 + 9 + 20 + 7, cost =
    # Might, source 004 line 48) with one Crow Swarm more (Might 3): 101 of 100 points, 15 fighters,
    # so the points limit breaks by 1 and nothing else (11 basic of 15 is at least half; one rare).
    listed = data["list"]
    assert {k: listed[k] for k in ("system", "name", "legal", "total", "limit", "unit")} == {
        "system": "might-skirmish",
        "name": "Zombie Family",
        "legal": False,
        "total": 101,
        "limit": 100,
        "unit": "points",
    }
    assert [(p["rule_id"], p["message"]) for p in listed["problems"]] == [
        ("points-limit", "1 point over the 100-point limit (101 of 100)")
    ]
    diff = json.loads(json.dumps(sharing.diff_lists(report, mash).as_json()))
    # Monster Mash: 2x20 + 20 + 3x8 + 3x10 = 114, so 16 more than the Zombie Family's 98
    assert diff["total"] == {"before": 98, "after": 114} and diff["total_change"] == 16
    assert {u["name"]: u["cost_change"] for u in diff["units"]}["Hunter"] == 10  # 2 -> 3 Hunters at Might 10
    assert diff["verdict"] == {"before": True, "after": False}
    assert [p["rule_id"] for p in diff["now_breaks"]] == ["points-limit", "half-basic", "max-rare"]
    listed = [json.loads(json.dumps(s.as_json())) for s in books.all()]
    ms = next(s for s in listed if s["id"] == "might-skirmish")
    assert ms["costed_in"] == "points" and ms["standard_game"] == 100 and "Zombie Family" in ms["factions"]


def test_the_api_refuses_what_the_cli_refuses(tmp_path):
    books = rulesets.open_catalogs([])
    ms = books.get("might-skirmish")
    cases = [
        (lambda: editing.create_list(books, "might-skirmish", tmp_path / "a.yaml", None, 10, "figures"), "not figures"),
        (lambda: editing.list_file_name(ms, "🧟"), "cannot make a file name"),
        (
            lambda: sharing.diff_files(ZOMBIES, EXAMPLES / "deathzap-frontier-rangers.legal.yaml", books),
            "different rule",
        ),
        (lambda: lists.read_stats(ms, [("might", "6"), ("might", "7")]), "Might is given twice"),
        (lambda: lists.price(ms, {}), "give the stats of the unit to price"),
        (lambda: matchups.odds(books, "might-skirmish", "Hunter", "Hunter", {"cover": "nowhere"}), "found 'nowhere'"),
        (lambda: matchups.odds(books, "might-skirmish", "Hunter", "Hunter", {"cover": True}), "'cover' needs a value"),
    ]
    for call, expected in cases:
        with pytest.raises(InputError) as caught:
            call()
        assert expected in caught.value.render(), caught.value.render()
    assert not (tmp_path / "a.yaml").exists()
    assert editing.list_file_name(ms, "ゾンビ家族").name == "ゾンビ家族.yaml"
    changed = lists.price(ms, lists.read_stats(ms, [("might", "3")]), "Hunter")
    assert changed.unit.name == "Hunter with Might 3" and changed.total == 3 and changed.as_json()["total"] == 3
