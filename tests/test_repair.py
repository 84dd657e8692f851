"""Repairing a list that cannot be read (``api.repairs``): each problem in the player's words with
its fixes, each fix a change of the text that keeps every other byte, and the repair's undo steps
kept as text (a list that cannot be read on one side), refused once altered. Issue 31, item 3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from listbuilder.api import editing, folders, repairs
from listbuilder.editing.repair import fix_text
from listbuilder.errors import ConflictError, InputError
from listbuilder.rules.catalog import Catalogs


def diagnose(text: str, catalogs: Catalogs) -> repairs.Diagnosis:
    return repairs.check_list_text(text, catalogs)


def fix(found: repairs.Diagnosis, label: str, value: str = "") -> repairs.Fix:
    for trouble in found.troubles:
        for f in trouble.fixes:
            if f.label == label:
                return repairs.fix_of(f.kind, f.as_form(), value or f.value)  # as a form sends it back
    raise AssertionError(f"no fix {label!r} among {[f.label for t in found.troubles for f in t.fixes]}")


@pytest.mark.parametrize(
    ("text", "label", "mended"),
    [
        # a flow entry, a quoted name, a comment after it: only the name changes
        (
            "system: might-skirmish\nname: Z\nunits: [{unit: 'Huntr', count: 2}]  # c\n",
            "Use Hunter",
            "system: might-skirmish\nname: Z\nunits: [{unit: 'Hunter', count: 2}]  # c\n",
        ),
        # CRLF and no final newline
        (
            "system: might-skirmish\r\nname: Z\r\nunits:\r\n  - unit: Hunter\r\n  - unit: Huntr",
            "Drop entry 2, Huntr",
            "system: might-skirmish\r\nname: Z\r\nunits:\r\n  - unit: Hunter",
        ),
        # an entry's first key is the one that goes: the next takes its place after the dash
        (
            "system: might-skirmish\nname: Z\nunits:\n  - mihgt: 3\n    unit: Hunter\n",
            "Remove the key 'mihgt'",
            "system: might-skirmish\nname: Z\nunits:\n  - unit: Hunter\n",
        ),
        # in a flow mapping
        (
            "system: might-skirmish\nname: Z\nunits:\n  - {unit: Hunter, mihgt: 3}\n",
            "Remove the key 'mihgt'",
            "system: might-skirmish\nname: Z\nunits:\n  - {unit: Hunter}\n",
        ),
        # a misspelt stat of a custom unit is renamed where it stands
        (
            "system: might-skirmish\nname: Z\nunits:\n  - name: Gran  # mine\n    class: Monster\n    mihgt: 3\n",
            "Write 'might' instead",
            "system: might-skirmish\nname: Z\nunits:\n  - name: Gran  # mine\n    class: Monster\n    might: 3\n",
        ),
        # the only entry dropped leaves 'units: []'
        (
            "system: might-skirmish\nname: Z\nunits:\n  - unit: Huntr\n",
            "Drop entry 1, Huntr",
            "system: might-skirmish\nname: Z\nunits: []\n",
        ),
        # the measure of another rule set: renamed to this one's
        (
            "system: deathmelt\nname: Z\npoints: 20  # agreed\nunits: []\n",
            "Write 'figures' instead",
            "system: deathmelt\nname: Z\nfigures: 20  # agreed\nunits: []\n",
        ),
        # a byte-order mark stays
        (
            "\ufeffsystem: might-skirmsh\nname: Z\nunits: []\n",
            "Use might-skirmish",
            "\ufeffsystem: might-skirmish\nname: Z\nunits: []\n",
        ),
    ],
)
def test_each_fix_changes_only_what_it_says(catalogs: Catalogs, text: str, label: str, mended: str) -> None:
    found = diagnose(text, catalogs)
    assert not found.readable
    assert fix_text(text, fix(found, label)) == mended
    assert diagnose(mended, catalogs).readable


def test_a_missing_rule_set_is_added_from_the_installed_ones(catalogs: Catalogs) -> None:
    text = "# my list\nname: Z\nunits: []\n"
    found = diagnose(text, catalogs)
    assert [(t.line, t.place, t.message) for t in found.troubles] == [(2, "Rule set", "the key 'system' is missing")]
    choose = fix(found, "Use this rule set", "deathzap")
    assert ("deathzap", "Deathzap (simplified)") in next(f.choices for f in found.troubles[0].fixes)
    assert fix_text(text, choose) == "# my list\nsystem: deathzap\nname: Z\nunits: []\n"


def test_no_rename_onto_a_key_the_list_has(catalogs: Catalogs) -> None:
    found = diagnose("system: might-skirmish\nname: Z\nnmae: Y\nunits: []\n", catalogs)
    assert [f.label for f in found.troubles[0].fixes] == ["Remove the key 'nmae'"]


def test_places_are_words_not_data_paths(catalogs: Catalogs) -> None:
    text = "system: might-skirmish\nname: Z\nunits:\n  - unit: Hunter\n    count: two\n  - 7\n"
    found = diagnose(text, catalogs)
    assert [(t.line, t.place, t.quote) for t in found.troubles] == [
        (5, "Entry 1, Hunter", "    count: two"),
        (6, "Entry 2", "  - 7"),
    ]
    assert [f.label for f in found.troubles[0].fixes] == ["Remove the key 'count'", "Drop entry 1, Hunter"]
    assert not any("[" in t.place for t in found.troubles)


def test_a_fix_for_another_text_is_refused(catalogs: Catalogs) -> None:
    with pytest.raises(InputError, match="no longer fits the file"):
        fix_text("system: might-skirmish\nname: Z\nunits: []\n", repairs.fix_of("drop", '["units", 3]'))
    for kind, place in (("explode", '["units"]'), ("drop", "units"), ("drop", "[true]"), ("set", "[]")):
        with pytest.raises(InputError, match="not a fix of this page"):
            repairs.fix_of(kind, place)


def test_a_repair_is_undone_and_redone_through_the_history_and_a_tampered_step_is_refused(
    tmp_path: Path, catalogs: Catalogs
) -> None:
    broken = "system: might-skirmish\nname: Z  # keep\nunits:\n  - unit: Huntr\n"
    path = tmp_path / "z.yaml"
    path.write_text(broken, encoding="utf-8")
    found = repairs.diagnose_list(tmp_path, "z.yaml", catalogs)
    done = folders.change_list(
        tmp_path, "z.yaml", catalogs, repairs.ApplyFix(fix=fix(found, "Use Hunter")), expect=found.version
    )
    assert done.readable and done.done == "Wrote 'Hunter'" and done.state is not None
    mended = path.read_text(encoding="utf-8")
    assert mended == broken.replace("Huntr", "Hunter")
    with pytest.raises(ConflictError):  # a second fix from the same page: the file is not at its version
        folders.change_list(tmp_path, "z.yaml", catalogs, repairs.ReplaceText(text="x"), expect=found.version)
    undone = folders.change_list(tmp_path, "z.yaml", catalogs, editing.Undo())
    assert not undone.readable and undone.state is None and path.read_text(encoding="utf-8") == broken
    assert repairs.diagnose_list(tmp_path, "z.yaml", catalogs).redo == 1
    folders.change_list(tmp_path, "z.yaml", catalogs, editing.Redo())
    assert path.read_text(encoding="utf-8") == mended
    (step,) = (tmp_path / ".listbuilder" / "history" / "z.yaml" / "undo").iterdir()
    assert step.name.count("-") == 2  # NUMBER-VERSION-OWNVERSION: kept as text
    step.write_text(broken.replace("Z", "Y"), encoding="utf-8")
    with pytest.raises(InputError, match="its text is not the text that was kept"):
        folders.change_list(tmp_path, "z.yaml", catalogs, editing.Undo())
    assert path.read_text(encoding="utf-8") == mended and not step.exists()


def test_a_saved_text_keeps_the_files_line_endings_and_refuses_a_nul(tmp_path: Path, catalogs: Catalogs) -> None:
    path = tmp_path / "crlf.yaml"
    path.write_bytes(b"system: might-skirmish\r\nname: Z\r\nunits: [\r\n")
    typed = "system: might-skirmish\nname: Z\nunits: []\n"
    folders.change_list(tmp_path, "crlf.yaml", catalogs, repairs.ReplaceText(text=typed))
    assert path.read_bytes() == typed.replace("\n", "\r\n").encode()
    with pytest.raises(InputError, match="cannot be a list file"):
        folders.change_list(tmp_path, "crlf.yaml", catalogs, repairs.ReplaceText(text="a\x00b"))
    assert path.read_bytes() == typed.replace("\n", "\r\n").encode()
