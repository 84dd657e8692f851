"""Every API action checks the type of each argument it is given: a front end that passes the
wrong kind of value (a number for a name, text for a path, one string for a list of them) gets
a located ``InputError`` naming the argument, never an ``AttributeError`` or ``TypeError`` from
deep inside the library."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from conftest import EXAMPLES

from listbuilder import api
from listbuilder.errors import InputError

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"


@pytest.fixture(scope="module")
def books():
    return api.open_catalogs()


@pytest.fixture(scope="module")
def rules(books):
    return api.get_system(books, "might-skirmish")


@pytest.fixture(scope="module")
def report(books):
    return api.check_list(ZOMBIES, books)


def _calls(books, rules, report):
    """(action, call, the argument at fault) for a wrong type of every kind of argument."""
    text = ZOMBIES.read_text(encoding="utf-8")
    src = Path("pasted")
    return [
        ("open_catalogs", lambda: api.open_catalogs("my-folder"), "dirs"),
        ("open_catalogs", lambda: api.open_catalogs(Path("my-folder")), "dirs"),
        ("open_catalogs", lambda: api.open_catalogs(["my-folder"]), "dirs"),
        ("get_system", lambda: api.get_system(books, None), "system_id"),
        ("get_system", lambda: api.get_system(books, 3), "system_id"),
        ("systems", lambda: api.systems(None), "catalogs"),
        ("catalog_units", lambda: api.catalog_units(books, "might-skirmish", 5), "faction"),
        ("faction_named", lambda: api.faction_named(rules, None), "faction"),
        ("check_list", lambda: api.check_list(str(ZOMBIES), books), "path"),
        ("check_list", lambda: api.check_list(None, books), "path"),
        ("check_text", lambda: api.check_text(text.encode(), books), "text"),
        ("check_text", lambda: api.check_text(None, books), "text"),
        ("AddUnit", lambda: api.apply_to_text(text, books, api.AddUnit(unit=None), source=src), "unit"),
        ("AddUnit", lambda: api.apply_to_text(text, books, api.AddUnit(unit=3), source=src), "unit"),
        ("SetField", lambda: api.apply_to_text(text, books, api.SetField(key=None, value=1), source=src), "key"),
        ("apply_to_text", lambda: api.apply_to_text(text, books, "add Hunter", source=src), "change"),
        ("apply_change", lambda: api.apply_change(ZOMBIES, books, None), "change"),
        ("export_list", lambda: api.export_list(report, None), "format"),
        ("export_list", lambda: api.export_list(report, "yaml", embed="yes"), "embed"),
        ("export_list", lambda: api.export_list(None), "report"),
        ("render_card", lambda: api.render_card(rules, paper=None), "paper"),
        ("render_card", lambda: api.render_card(rules, format=3), "format"),
        ("render_reports", lambda: api.render_reports([report], only=True), "only"),
        ("render_reports", lambda: api.render_reports([report], strict="no"), "strict"),
        ("render_reports", lambda: api.render_reports(None), "reports"),
        ("render_reports", lambda: api.render_reports([3]), "reports"),
        ("render_reports", lambda: api.render_reports(report), "reports"),
        ("document_format", lambda: api.document_format("roster.pdf"), "path"),
        ("render_files", lambda: api.render_files([ZOMBIES], books, output="roster.pdf"), "output"),
        ("render_files", lambda: api.render_files(str(ZOMBIES), books), "paths"),
        ("editor_schema", lambda: api.editor_schema(books, 3), "system_id"),
        ("new_list_text", lambda: api.new_list_text(books, None), "system_id"),
        ("new_list_text", lambda: api.new_list_text(books, "might-skirmish", name=3), "name"),
        ("list_file_name", lambda: api.list_file_name(rules, 3), "name"),
        ("limit_option", lambda: api.limit_option("a", None), "points"),
        ("git_diff", lambda: api.git_diff(None, books), "args"),
        ("git_diff", lambda: api.git_diff("abcdefg", books), "args"),
        ("git_diff", lambda: api.git_diff([1] * 7, books), "args"),
        ("diff_lists", lambda: api.diff_lists(report, None), "new"),
        ("import_list", lambda: api.import_list(None, books), "text"),
        ("import_list", lambda: api.import_list(b"x", books), "text"),
        ("price", lambda: api.price(rules, "might=5"), "stats"),
        ("price", lambda: api.price(rules, {}, 3), "unit_name"),
        ("read_stats", lambda: api.read_stats(rules, None), "given"),
        ("read_stats", lambda: api.read_stats(rules, [3]), "given"),
        ("odds", lambda: api.odds(books, "might-skirmish", None, "Hunter"), "attacker"),
        ("odds", lambda: api.odds(books, None, "Hunter", "Hunter"), "system_id"),
        ("odds", lambda: api.odds(books, "might-skirmish", "Hunter", "Hunter", "cover=none"), "situation"),
        ("odds", lambda: api.odds(books, "might-skirmish", "Hunter", "Hunter", [3]), "situation"),
        ("odds_lists", lambda: api.odds_lists(report, None), "b"),
        ("fill_text", lambda: api.fill_text(text, books, None, 3), "faction"),
        ("fix_text", lambda: api.fix_text(3, books), "text"),
        ("fix_text", lambda: api.fix_text(text.encode(), books), "text"),
        ("fill_list", lambda: api.fill_list(str(ZOMBIES), books), "path"),
        ("ApplySuggestion", lambda: api.apply_to_text(text, books, api.ApplySuggestion(suggestion=None)), "suggestion"),
        ("write_file", lambda: api.write_file(Path("x.txt"), "text, not bytes"), "data"),
        ("write_file", lambda: api.write_file(None, b"x"), "path"),
    ]


ACTIONS = sorted(name for name in api.__all__ if inspect.isfunction(getattr(api, name)))


@pytest.mark.parametrize("name", ACTIONS)
def test_every_action_refuses_a_value_of_no_type_it_takes(name):
    # An action added later is checked too: api/__init__.py wraps every function it exports.
    action = getattr(api, name)
    required = [
        p
        for p in inspect.signature(action).parameters.values()
        if p.default is inspect.Parameter.empty and p.kind is not inspect.Parameter.VAR_POSITIONAL
    ]
    if not required:
        return  # nothing to get wrong
    nothing = object()
    args = [nothing for p in required if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    kwargs = {p.name: nothing for p in required if p.kind is inspect.Parameter.KEYWORD_ONLY}
    with pytest.raises(InputError) as exc:
        action(*args, **kwargs)
    assert exc.value.render().startswith(f"{name}(): the argument '{required[0].name}' must be ")


@pytest.mark.parametrize("index", range(len(_calls(None, None, None))))
def test_a_wrong_type_is_a_located_input_error(index, books, rules, report):
    action, call, argument = _calls(books, rules, report)[index]
    with pytest.raises(InputError) as exc:
        call()
    message = exc.value.render()
    assert f"{action}()" in message and f"'{argument}'" in message, message


def test_the_message_says_what_was_expected_and_found(books):
    with pytest.raises(InputError) as exc:
        api.catalog_units(books, "might-skirmish", 5)
    assert exc.value.render() == (
        "catalog_units(): the argument 'faction' must be text (str) or None, not int\n  faction: found 5"
    )
    with pytest.raises(InputError) as exc:  # one faction lookup for the catalog and the doctor
        api.fill_list(ZOMBIES, books, faction="Zombie Famly")
    assert exc.value.render() == (
        "no faction 'Zombie Famly' in the might-skirmish catalogs\n  did you mean 'Zombie Family'?"
    )


def test_paths_and_sequences_of_the_right_kind_still_pass(books):
    assert api.check_list(ZOMBIES, books).legal()
    assert api.open_catalogs([]) is not None and api.open_catalogs(()) is not None
    assert api.odds(books, "might-skirmish", "Hunter", "Hunter", {"attack": "melee"}).system == "might-skirmish"


def test_nothing_to_print_is_refused(books, report):
    with pytest.raises(InputError, match="nothing to print"):
        api.render_reports([], format="html")
    with pytest.raises(InputError, match="nothing to print"):
        api.render_files([], books, output=Path("roster.html"))


def test_every_record_an_action_returns_has_its_json(books, rules, report, tmp_path):
    import json

    mash = api.check_list(MASH, books)
    edited = api.apply_to_text(
        ZOMBIES.read_text(encoding="utf-8"), books, api.AddUnit(unit="Crow Swarm"), source=ZOMBIES
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
    diff = json.loads(json.dumps(api.diff_lists(report, mash).as_json()))
    # Monster Mash: 2x20 + 20 + 3x8 + 3x10 = 114, so 16 more than the Zombie Family's 98
    assert diff["total"] == {"before": 98, "after": 114} and diff["total_change"] == 16
    assert {u["name"]: u["cost_change"] for u in diff["units"]}["Hunter"] == 10  # 2 -> 3 Hunters at Might 10
    assert diff["verdict"] == {"before": True, "after": False}
    assert [p["rule_id"] for p in diff["now_breaks"]] == ["points-limit", "half-basic", "max-rare"]
    listed = [json.loads(json.dumps(s.as_json())) for s in api.systems(books)]
    ms = next(s for s in listed if s["id"] == "might-skirmish")
    assert ms["costed_in"] == "points" and ms["standard_game"] == 100 and "Zombie Family" in ms["factions"]


def test_the_api_refuses_what_the_cli_refuses(tmp_path):
    from listbuilder import api
    from listbuilder.errors import InputError

    books = api.open_catalogs([])
    ms = books.get("might-skirmish")
    cases = [
        (lambda: api.create_list(books, "might-skirmish", tmp_path / "a.yaml", None, 10, "figures"), "not figures"),
        (lambda: api.limit_option(10, 20), "give the limit in points or in figures, not both"),
        (lambda: api.list_file_name(ms, "🧟"), "cannot make a file name"),
        (lambda: api.diff_files(ZOMBIES, EXAMPLES / "deathzap-frontier-rangers.legal.yaml", books), "different rule"),
        (lambda: api.read_stats(ms, [("might", "6"), ("might", "7")]), "Might is given twice"),
        (lambda: api.price(ms, {}), "give the stats of the unit to price"),
        (lambda: api.odds(books, "might-skirmish", "Hunter", "Hunter", {"cover": "nowhere"}), "found 'nowhere'"),
        (lambda: api.odds(books, "might-skirmish", "Hunter", "Hunter", {"cover": True}), "'cover' needs a value"),
    ]
    for call, expected in cases:
        with pytest.raises(InputError) as caught:
            call()
        assert expected in caught.value.render(), caught.value.render()
    assert not (tmp_path / "a.yaml").exists()
    assert api.limit_option(None, 20) == (20, "figures") and api.limit_option(None, None) == (None, None)
    assert api.list_file_name(ms, "ゾンビ家族").name == "ゾンビ家族.yaml"
    changed = api.price(ms, api.read_stats(ms, [("might", "3")]), "Hunter")
    assert changed.unit.name == "Hunter with Might 3" and changed.total == 3 and changed.as_json()["total"] == 3
