"""The player actions the web builder uses, as library functions (listbuilder.api): a folder of lists."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import COMMENTED, EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from listbuilder.api import doctor, editing, folders, lists, printing, rulesets, sharing
from listbuilder.editing import history
from listbuilder.editing.history import History
from listbuilder.errors import ConflictError, InputError
from listbuilder.web.forms import change_of, stats_of

pytestmark = pytest.mark.platform  # holds on Windows too: run again simulating it (.ci/run)

COMMENTS = [line.split("#", 1)[1] for line in COMMENTED.splitlines() if "#" in line]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "night.yaml").write_text(COMMENTED, encoding="utf-8")
    return tmp_path


def _text(folder: Path) -> str:
    return (folder / "night.yaml").read_text(encoding="utf-8")


def test_every_change_keeps_every_comment(folder, catalogs):
    steps = [
        editing.AddUnit(unit="Crow Swarm", count=2),
        editing.AddUnit(unit="hunter"),
        editing.SetCount(index=1, count=3),
        editing.SetLeader(index=2, leader=True),
        editing.RemoveUnit(unit="Crow Swarm", count=1),
        editing.SetField(key="name", value="Night Shift II"),
        editing.SetField(key="points", value="120"),
        editing.AddCustom(stats={"name": "Night Owl", "class": "Drone", "might": 3}),
        editing.SetCount(index=3, count=0),  # the Crow Swarm entry (an entry's own comments go with it)
    ]
    for step in steps:
        done = folders.change_list(folder, "night.yaml", catalogs, step)
        assert done.changed, step
        text = _text(folder)
        for comment in COMMENTS:
            assert comment in text, (step, comment)
    state = folders.list_state(folder, "night.yaml", catalogs)
    assert state.report.army.name == "Night Shift II" and state.report.limit == 120
    assert [(r.name, r.count, r.leader, r.custom) for r in state.rows] == [
        ("Hunter", 3, False, False),
        ("Shambler", 3, False, False),
        ("Grandpa Bones", 1, True, False),
        ("Night Owl", 1, False, True),
    ]
    assert state.report.total == 3 * 10 + 3 * 5 + 20 + 3
    assert state.undo == len(steps) and state.redo == 0


def test_undo_and_redo_are_kept_on_disk(folder, catalogs):
    folders.change_list(folder, "night.yaml", catalogs, editing.AddUnit(unit="Hunter"))
    after = _text(folder)
    fresh = rulesets.open_catalogs()  # as after a restart: nothing in memory
    undone = folders.change_list(folder, "night.yaml", fresh, editing.Undo())
    assert _text(folder) == COMMENTED and undone.state.redo == 1 and undone.state.undo == 0
    folders.change_list(folder, "night.yaml", fresh, editing.Redo())
    assert _text(folder) == after
    with pytest.raises(InputError, match="nothing to redo"):
        folders.change_list(folder, "night.yaml", fresh, editing.Redo())


def test_a_new_change_forgets_the_redo_steps(folder, catalogs):
    folders.change_list(folder, "night.yaml", catalogs, editing.AddUnit(unit="Hunter"))
    folders.change_list(folder, "night.yaml", catalogs, editing.Undo())
    done = folders.change_list(folder, "night.yaml", catalogs, editing.AddUnit(unit="Shambler"))
    assert (done.state.undo, done.state.redo) == (1, 0)


def test_undo_is_bounded(folder, catalogs, monkeypatch):
    monkeypatch.setattr(history, "MAX_STEPS", 3)
    for n in range(5):
        folders.change_list(folder, "night.yaml", catalogs, editing.SetField(key="points", value=str(101 + n)))
    assert History(folder / "night.yaml").depth() == (3, 0)
    for _ in range(3):
        folders.change_list(folder, "night.yaml", catalogs, editing.Undo())
    assert "points: 102" in _text(folder)  # the oldest two steps are gone
    with pytest.raises(InputError, match="nothing to undo"):
        folders.change_list(folder, "night.yaml", catalogs, editing.Undo())


def test_undo_never_loses_a_change_made_elsewhere(folder, catalogs):
    folders.change_list(folder, "night.yaml", catalogs, editing.AddUnit(unit="Hunter"))
    edited = _text(folder).replace("name: Night Shift", "name: Edited By Hand")
    (folder / "night.yaml").write_text(edited, encoding="utf-8")
    with pytest.raises(ConflictError, match="changed since"):
        folders.change_list(folder, "night.yaml", catalogs, editing.Undo())
    assert _text(folder) == edited


def test_a_change_to_a_list_that_changed_since_it_was_seen_writes_nothing(folder, catalogs):
    seen = folders.list_state(folder, "night.yaml", catalogs).version
    folders.change_list(folder, "night.yaml", catalogs, editing.AddUnit(unit="Hunter"), expect=seen)  # the first tab
    now = _text(folder)
    with pytest.raises(ConflictError, match="changed on disk since this page was loaded"):
        folders.change_list(folder, "night.yaml", catalogs, editing.AddUnit(unit="Shambler"), expect=seen)  # the second
    assert _text(folder) == now


def test_options_are_checked(folder, catalogs):
    system = catalogs.get("might-skirmish")
    with pytest.raises(InputError, match="unknown change"):
        change_of({"change": ["explode"]}, lambda: system)
    with pytest.raises(InputError, match="needs 'unit'"):
        change_of({"change": ["add"]}, lambda: system)
    assert change_of({"change": ["add"], "unit": ["Hunter"], "count": ["2"]}, lambda: system) == editing.AddUnit(
        unit="Hunter", count=2
    )
    with pytest.raises(InputError, match="no entry 7"):
        folders.change_list(folder, "night.yaml", catalogs, editing.SetCount(index=7, count=1))
    with pytest.raises(InputError, match="cannot be added"):
        folders.change_list(
            folder, "night.yaml", catalogs, editing.AddCustom(stats={"name": "X", "class": "Wizard", "might": 3})
        )
    assert _text(folder) == COMMENTED


@pytest.mark.parametrize("name", ["../night.yaml", "/etc/passwd", "..", ".listbuilder", "a/b.yaml", "x.txt", ""])
def test_names_outside_the_folder_are_refused(folder, name):
    with pytest.raises(InputError, match="not a list file of this folder"):
        folders.list_file(folder, name)


def test_a_link_out_of_the_folder_is_refused_and_unlisted(folder, tmp_path_factory, catalogs):
    outside = tmp_path_factory.mktemp("elsewhere") / "theirs.yaml"
    outside.write_text(COMMENTED, encoding="utf-8")
    (folder / "link.yaml").symlink_to(outside)
    with pytest.raises(InputError, match="outside the folder"):
        folders.list_file(folder, "link.yaml")
    assert [s.file for s in folders.folder_lists(folder, catalogs)] == ["night.yaml"]


def test_the_lists_page_shows_a_located_error_for_a_broken_file(folder, catalogs):
    (folder / "broken.yaml").write_text("system: might-skirmish\nname: B\nunits:\n  - unit: Huntr\n", encoding="utf-8")
    broken, good = folders.folder_lists(folder, catalogs)
    assert broken.file == "broken.yaml" and broken.error is not None
    assert "line 4" in broken.error and "did you mean 'Hunter'?" in broken.error
    assert good.legal and good.total_text == "60 of 100 points, 7 fighters"  # 2 x 10 + 4 x 5 + 20


def test_new_import_duplicate_delete_restore(folder, catalogs):
    file = folders.new_folder_list(folder, catalogs, "might-skirmish", "Zombie Family", None)
    assert file == "zombie-family.yaml"
    assert folders.new_folder_list(folder, catalogs, "might-skirmish", "Zombie Family", 150) == "zombie-family-2.yaml"
    text = sharing.export_list(lists.check_list(EXAMPLES / "might-skirmish-zombie-family.legal.yaml", catalogs), "text")
    imported = sharing.import_folder_list(folder, catalogs, text).file
    assert imported == "zombie-family-3.yaml"
    assert folders.list_state(folder, imported, catalogs).report.total == 98
    copy = folders.duplicate_list(folder, "night.yaml", catalogs)
    assert copy == "night-copy.yaml"
    assert folders.list_state(folder, copy, catalogs).report.army.name == "Night Shift (copy)"
    deleted_id = folders.delete_list(folder, "night.yaml")
    assert not (folder / "night.yaml").exists()
    assert [d[1] for d in folders.deleted_lists(folder)] == ["night.yaml"]
    assert folders.restore_list(folder, deleted_id) == "night.yaml"
    assert _text(folder) == COMMENTED
    assert folders.deleted_lists(folder) == ()


def test_restore_refuses_a_name_outside(folder):
    for bad in ("../x", "20260101T000000000000-../../x.yaml", "nothing"):
        with pytest.raises(InputError):
            folders.restore_list(folder, bad)


def test_the_custom_unit_form_prices_the_worked_example(catalogs):
    system = catalogs.get("speed-range-power")
    stats = stats_of(system, {"speed": ["6"], "range": ["24"], "power": ["2"], "traits": [""]})
    pricing = lists.price(system, stats)
    assert pricing.total == 30  # the rules' worked example: Speed 6, Range 24, Power 2
    assert [p.points for p in pricing.parts] == [6, 16, 8]
    with pytest.raises(InputError, match="whole number"):
        stats_of(system, {"speed": ["six"]})


def test_catalog_filter(catalogs):
    system = catalogs.get("might-skirmish")
    assert len(editing.unit_choices(system)) == 16
    assert [u.name for u in editing.unit_choices(system, "zombie sniper")] == ["Cousin Sniper"]
    assert [u.name for u in editing.unit_choices(system, "MONSTER")] == ["Storm Treant", "Grandpa Bones"]


def test_a_roster_can_carry_a_qr_code_of_the_list(catalogs):
    import segno

    report = lists.check_list(EXAMPLES / "might-skirmish-zombie-family.legal.yaml", catalogs)
    html = printing.render_reports([report], format="html", qr=True).data.decode()
    assert html.count('class="qr-code"') == 1
    plain = printing.render_reports([report], format="html").data.decode()
    assert "qr-code" not in plain
    # the code holds the text export, module for module as segno draws it
    code = segno.make(sharing.export_list(report, "text"), error="m", micro=False, boost_error=False)
    assert f'viewBox="0 0 {code.symbol_size(scale=1, border=4)[0]} ' in html


def test_records_have_json(folder, catalogs):
    done = folders.change_list(folder, "night.yaml", catalogs, editing.AddUnit(unit="Hunter"))
    data = done.as_json()
    assert data["done"] == "added 1 Hunter" and data["list"]["entries"][0]["count"] == 3
    assert folders.folder_lists(folder, catalogs)[0].as_json()["legal"] is True


def test_render_qr_on_the_command_line(cli, tmp_path):
    out = tmp_path / "roster.html"
    result = cli("render", EXAMPLES / "might-skirmish-zombie-family.legal.yaml", "--qr", "-o", out)
    assert result.exit_code == 0, result.stderr
    assert out.read_text().count('class="qr-code"') == 1
    plain = tmp_path / "plain.html"
    assert cli("render", EXAMPLES / "might-skirmish-zombie-family.legal.yaml", "-o", plain).exit_code == 0
    assert "qr-code" not in plain.read_text()


def test_a_change_says_what_it_did_in_the_units_words(folder, catalogs):
    done = folders.change_list(folder, "night.yaml", catalogs, editing.SetCount(index=1, count=5))
    assert done.done == "Shambler: 5 now" and done.entry == 1
    done = folders.change_list(folder, "night.yaml", catalogs, editing.SetCount(index=2, count=0))
    assert done.done == "removed the Grandpa Bones entry" and done.entry is None
    done = folders.change_list(folder, "night.yaml", catalogs, editing.AddUnit(unit="hunter"))
    assert done.done == "added 1 Hunter" and done.entry == 0


@settings(max_examples=300, deadline=None)
@given(name=st.text(max_size=40))
def test_no_name_reaches_outside_the_folder(tmp_path_factory, name):
    root = tmp_path_factory.mktemp("names", numbered=True)
    try:
        path = folders.list_file(root, name)
    except InputError:
        return
    assert os.path.realpath(path).startswith(os.path.realpath(root) + os.sep)
    assert path.parent == root and ".." not in path.parts and path.suffix in (".yaml", ".yml")


@settings(max_examples=200, deadline=None)
@given(
    fields=st.dictionaries(
        st.sampled_from(["name", "speed", "range", "power", "traits", "other"]),
        st.lists(st.text(max_size=8), max_size=3),
    )
)
def test_any_custom_unit_form_prices_or_says_why(catalogs, fields):
    system = catalogs.get("speed-range-power")
    try:
        pricing = lists.price(system, stats_of(system, fields))
    except InputError:
        return
    assert pricing.total >= 0


def test_file_names_follow_list_names_in_any_script(folder, catalogs):
    assert (
        folders.new_folder_list(folder, catalogs, "might-skirmish", "Légion étrangère", None) == "legion-etrangere.yaml"
    )
    assert folders.new_folder_list(folder, catalogs, "might-skirmish", "火の鳥 warband", None) == "火の鳥-warband.yaml"
    assert folders.new_folder_list(folder, catalogs, "might-skirmish", "!!!", None) == "list.yaml"
    names = [s.file for s in folders.folder_lists(folder, catalogs)]
    assert "火の鳥-warband.yaml" in names and "legion-etrangere.yaml" in names


def test_the_doctors_suggestions_apply_as_changes_with_undo(tmp_path, catalogs):
    (tmp_path / "mash.yaml").write_bytes((EXAMPLES / "might-skirmish-monster-mash.illegal.yaml").read_bytes())
    before = (tmp_path / "mash.yaml").read_bytes()
    answer = doctor.ask_doctor(tmp_path, "mash.yaml", catalogs, "fix")
    assert answer.status == "fixed" and len(answer.suggestions) == 3
    assert (tmp_path / "mash.yaml").read_bytes() == before
    with pytest.raises(InputError, match="no suggestion 4 to fix"):
        folders.change_list(tmp_path, "mash.yaml", catalogs, editing.FollowDoctor(question="fix", number=3))
    done = folders.change_list(tmp_path, "mash.yaml", catalogs, editing.FollowDoctor(question="fix", number=1))
    assert done.done == "fixed: " + ", ".join(c.text() for c in answer.suggestions[1].changes)
    assert done.state.report.legal() and done.state.report.total == answer.suggestions[1].report.total
    folders.change_list(tmp_path, "mash.yaml", catalogs, editing.Undo())
    assert (tmp_path / "mash.yaml").read_bytes() == before
    with pytest.raises(InputError, match="question"):
        doctor.ask_doctor(tmp_path, "mash.yaml", catalogs, "cure")


def test_a_rule_is_shown_at_the_entries_it_concerns_whatever_their_names(tmp_path, catalogs):
    # Three rare fighters break "at most 2" (catalogs/might-skirmish/system.yaml, source line 48);
    # a custom unit named like an entry label ("units[0] ...") must not pull the rule onto entry 0.
    decoy = '  - name: "units[0] Decoy"\n    class: Monster\n    might: 3\n'
    (tmp_path / "trick.yaml").write_text(
        "system: might-skirmish\nname: Trick\npoints: 1000\nunits:\n  - unit: Hunter\n" + decoy * 3,
        encoding="utf-8",
    )
    state = folders.list_state(tmp_path, "trick.yaml", catalogs)
    assert [[p.rule_id for p in r.problems] for r in state.rows] == [[], ["max-rare"], ["max-rare"], ["max-rare"]]


def test_an_undo_needs_a_file_with_history(folder, catalogs):
    with pytest.raises(InputError, match="needs the list's file"):
        editing.apply_to_text(COMMENTED, catalogs, editing.Undo())
    with pytest.raises(InputError, match="needs the list's history"):
        editing.apply_change(folder / "night.yaml", catalogs, editing.Redo())
    assert _text(folder) == COMMENTED
