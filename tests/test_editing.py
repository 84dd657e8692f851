"""Editing a list in place: every edit keeps the user's file byte for byte outside the lines it
must change, refuses broken files and conflicting writes, and never leaves a half-written list."""

from __future__ import annotations

import difflib
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.api.lists import check_list
from listbuilder.army.listfile import parse_list
from listbuilder.cli.views import command_hint
from listbuilder.editing import plan
from listbuilder.editing.apply import apply_change
from listbuilder.editing.changes import AddUnit, RemoveUnit, SetField
from listbuilder.editing.newlist import new_list
from listbuilder.errors import ConflictError, InputError, OutputError
from listbuilder.files import writing
from listbuilder.files.yamldoc import load_yaml, parse_yaml


def add_unit(path, catalogs, unit, count=1, *, write=True):
    return apply_change(path, catalogs, AddUnit(unit=unit, count=count), write=write)


def remove_unit(path, catalogs, unit, count=None):
    return apply_change(path, catalogs, RemoveUnit(unit=unit, count=count))


def set_key(path, catalogs, key, value):
    return apply_change(path, catalogs, SetField(key=key, value=value))


# A hand-written list: a schema line, full-line and inline comments (one with trailing spaces),
# blank lines, a double-quoted name, single-quoted and plain unit names in any case, aligned
# values, a flow-style list, and an entry on the last line.
HAND = [
    "# yaml-language-server: $schema=speed-range-power.schema.json",
    "# Saturday's force:  camels and friends   ",
    "system: speed-range-power   # the rules",
    'name: "Camel Corps"',
    "",
    "points:   300   # agreed with Sam",
    "units:",
    "  # the core",
    "  - unit: 'Cameleer'    # fast",
    "    count: 2",
    "",
    "  - unit: Lewis Gunner",
    "  - name: Home Brew      # our own",
    "    speed: 6",
    "    range: 12",
    "    power: 1",
    "    traits: [ attacker ]",
    "  - unit: vickers team",
]
HAND_TOTAL = 2 * 32 + 34 + 18 + 43
LAYOUTS = [("\n", True), ("\n", False), ("\r\n", True), ("\r\n", False)]
LAYOUT_IDS = ["LF", "LF-no-final-newline", "CRLF", "CRLF-no-final-newline"]


def as_bytes(lines: list[str], nl: str = "\n", final: bool = True) -> bytes:
    return (nl.join(lines) + (nl if final else "")).encode("utf-8")


def changed(lines: list[str], at: int, remove: int = 0, insert: tuple[str, ...] = ()) -> list[str]:
    """``lines`` with ``remove`` lines from index ``at`` replaced by ``insert``."""
    return lines[:at] + list(insert) + lines[at + remove :]


@pytest.fixture
def write_bytes(tmp_path: Path) -> Callable[..., Path]:
    """Write a list file byte for byte (no newline translation) and return its path."""

    def write(data: bytes | str, name: str = "list.yaml") -> Path:
        path = tmp_path / name
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        return path

    return write


# --- byte-for-byte preservation ---------------------------------------------------------------

EDITS = {
    "add existing unit, any case": (
        lambda p, c: add_unit(p, c, "CAMELEER"),
        changed(HAND, 9, 1, ("    count: 3",)),
        HAND_TOTAL + 32,
    ),
    "add existing unit without count": (
        lambda p, c: add_unit(p, c, "lewis gunner", 2),
        changed(HAND, 12, 0, ("    count: 3",)),
        HAND_TOTAL + 2 * 34,
    ),
    "add new unit after the last line": (
        lambda p, c: add_unit(p, c, "ww2 soldier", 3),
        [*HAND, "  - unit: WW2 Soldier", "    count: 3"],
        HAND_TOTAL + 3 * 30,
    ),
    "remove the entry on the last line": (
        lambda p, c: remove_unit(p, c, "Vickers Team"),
        HAND[:-1],
        HAND_TOTAL - 43,
    ),
    "remove some models": (
        lambda p, c: remove_unit(p, c, "cameleer", 1),
        changed(HAND, 9, 1, ("    count: 1",)),
        HAND_TOTAL - 32,
    ),
    "remove a whole entry with a count": (
        lambda p, c: remove_unit(p, c, "Cameleer"),
        changed(HAND, 8, 2),
        HAND_TOTAL - 64,
    ),
    "remove every model of an entry by count": (
        lambda p, c: remove_unit(p, c, "Cameleer", 2),
        changed(HAND, 8, 2),
        HAND_TOTAL - 64,
    ),
    "remove a custom unit": (
        lambda p, c: remove_unit(p, c, "home brew"),
        changed(HAND, 12, 5),
        HAND_TOTAL - 18,
    ),
    "set the limit": (
        lambda p, c: set_key(p, c, "points", "250"),
        changed(HAND, 5, 1, ("points:   250   # agreed with Sam",)),
        HAND_TOTAL,
    ),
    "set the name, keeping its quotes": (
        lambda p, c: set_key(p, c, "name", "Camel Corps: the return"),
        changed(HAND, 3, 1, ('name: "Camel Corps: the return"',)),
        HAND_TOTAL,
    ),
}


@pytest.mark.parametrize(("nl", "final"), LAYOUTS, ids=LAYOUT_IDS)
@pytest.mark.parametrize("what", list(EDITS))
def test_edits_change_only_their_lines(what, nl, final, write_bytes, catalogs):
    edit, expected, total = EDITS[what]
    path = write_bytes(as_bytes(HAND, nl, final))
    result = edit(path, catalogs)
    assert path.read_bytes() == as_bytes(expected, nl, final)
    assert result.text.encode("utf-8") == path.read_bytes()
    assert result.changed
    assert result.report.total == total
    assert result.report.total == check_list(path, catalogs).total


def test_a_byte_order_mark_is_kept(write_bytes, catalogs):
    path = write_bytes(b"\xef\xbb\xbf" + as_bytes(HAND))
    add_unit(path, catalogs, "Cameleer")
    assert path.read_bytes() == b"\xef\xbb\xbf" + as_bytes(changed(HAND, 9, 1, ("    count: 3",)))


def test_a_new_entry_copies_the_quoting_and_indentation_of_the_last_catalog_entry(write_bytes, catalogs):
    lines = [
        "system: speed-range-power",
        "name: Quoted",
        "units:",
        '-   unit:   "Cameleer"',
        "    count: 2",
        "-   name: Home Brew",
        "    speed: 6",
        "    range: 12",
        "    power: 1",
    ]
    path = write_bytes(as_bytes(lines))
    add_unit(path, catalogs, "ww2 soldier", 2)
    assert path.read_bytes() == as_bytes([*lines, '-   unit:   "WW2 Soldier"', "    count: 2"])


def test_a_new_entry_in_single_quotes(write_bytes, catalogs):
    lines = ["system: speed-range-power", "name: Quoted", "units:", "  - unit: 'Cameleer'   # one"]
    path = write_bytes(as_bytes(lines))
    add_unit(path, catalogs, "Lewis Gunner")
    assert path.read_bytes() == as_bytes([*lines, "  - unit: 'Lewis Gunner'"])


def test_an_entry_that_ends_in_a_comment_and_blank_lines(write_bytes, catalogs):
    lines = [
        "system: speed-range-power",
        "units:",
        "  - unit: Cameleer   # one",
        "  # - unit: Vickers Team   (next week)",
        "",
        "# the name comes last",
        "name: Late name",
    ]
    path = write_bytes(as_bytes(lines))
    add_unit(path, catalogs, "Lewis Gunner")
    assert path.read_bytes() == as_bytes(changed(lines, 3, 0, ("  - unit: Lewis Gunner",)))
    remove_unit(path, catalogs, "Cameleer")
    assert path.read_bytes() == as_bytes(
        [
            "system: speed-range-power",
            "units:",
            "  - unit: Lewis Gunner",
            "  # - unit: Vickers Team   (next week)",
            "",
            "# the name comes last",
            "name: Late name",
        ]
    )


def test_flow_style_units(write_bytes, catalogs):
    head = ["system: speed-range-power", "name: Flow"]
    path = write_bytes(as_bytes([*head, "units: [{unit: Cameleer}, { unit: Lewis Gunner, count: 2 }]  # short"]))
    add_unit(path, catalogs, "Cameleer")
    add_unit(path, catalogs, "Vickers Team", 2)
    assert path.read_bytes() == as_bytes(
        [
            *head,
            "units: [{unit: Cameleer, count: 2}, { unit: Lewis Gunner, count: 2 }, "
            "{ unit: Vickers Team, count: 2 }]  # short",
        ]
    )
    remove_unit(path, catalogs, "lewis gunner")
    remove_unit(path, catalogs, "vickers team")
    assert path.read_bytes() == as_bytes([*head, "units: [{unit: Cameleer, count: 2}]  # short"])
    remove_unit(path, catalogs, "cameleer")
    assert path.read_bytes() == as_bytes([*head, "units: []  # short"])


def test_flow_units_over_several_lines(write_bytes, catalogs):
    head = ["system: speed-range-power", "name: Flow"]
    lines = [*head, "units: [", "  {unit: Cameleer},   # first", "  {unit: Lewis Gunner}", "]"]
    path = write_bytes(as_bytes(lines))
    add_unit(path, catalogs, "Vickers Team")
    assert path.read_bytes() == as_bytes(changed(lines, 4, 1, ("  {unit: Lewis Gunner},", "  {unit: Vickers Team}")))
    remove_unit(path, catalogs, "Vickers Team")
    remove_unit(path, catalogs, "Cameleer")
    assert path.read_bytes() == as_bytes([*head, "units: [", "  {unit: Lewis Gunner}", "]"])


def test_empty_units_become_a_block_list_and_back(write_bytes, catalogs):
    head = ["system: speed-range-power", "name: Empty"]
    path = write_bytes(as_bytes([*head, "units: []   # none yet"], final=False))
    add_unit(path, catalogs, "Cameleer", 2)
    assert path.read_bytes() == as_bytes(
        [*head, "units:   # none yet", "  - unit: Cameleer", "    count: 2"], final=False
    )
    remove_unit(path, catalogs, "Cameleer")
    assert path.read_bytes() == as_bytes([*head, "units: []   # none yet"], final=False)


def test_removing_the_last_entry_leaves_an_empty_list(write_bytes, catalogs):
    lines = ["system: speed-range-power", "name: One", "units:  # all of them", "- unit: Cameleer", "  count: 3"]
    path = write_bytes(as_bytes(lines, "\r\n", final=False))
    result = remove_unit(path, catalogs, "Cameleer", 3)
    assert path.read_bytes() == as_bytes(
        ["system: speed-range-power", "name: One", "units: []  # all of them"], "\r\n", False
    )
    assert result.report.total == 0


def test_setting_a_missing_limit_adds_it_after_the_name(write_bytes, catalogs):
    lines = ["system: might-skirmish", "name: Zombie Family   # us", "units:", "  - unit: Hunter"]
    for nl, final in LAYOUTS:
        path = write_bytes(as_bytes(lines, nl, final))
        result = set_key(path, catalogs, "points", 80)
        assert path.read_bytes() == as_bytes(changed(lines, 2, 0, ("points: 80",)), nl, final)
        assert result.report.limit == 80


def test_set_a_name_that_needs_quotes(write_bytes, catalogs):
    lines = ["system: might-skirmish", "name: Zombie Family", "units: [{unit: Hunter}]"]
    path = write_bytes(as_bytes(lines))
    set_key(path, catalogs, "name", "1984")
    assert path.read_bytes() == as_bytes(changed(lines, 1, 1, ("name: '1984'",)))
    set_key(path, catalogs, "name", "  It's Grandpa: again ")
    assert path.read_bytes() == as_bytes(changed(lines, 1, 1, ("name: 'It''s Grandpa: again'",)))
    assert check_list(path, catalogs).army.name == "It's Grandpa: again"


def test_a_block_scalar_name_is_replaced_without_touching_the_next_lines(write_bytes, catalogs):
    lines = ["system: might-skirmish", "name: >", "  Zombie", "  Family", "", "units: [{unit: Hunter}]"]
    path = write_bytes(as_bytes(lines))
    set_key(path, catalogs, "name", "Zombies")
    assert path.read_bytes() == as_bytes(["system: might-skirmish", "name: Zombies", "", "units: [{unit: Hunter}]"])


def test_an_entry_with_a_leader_override_is_not_merged(write_bytes, catalogs):
    lines = [
        "system: speed-range-power",
        "name: Officers",
        "units:",
        "  - unit: Camel Corps Officer",
        "    leader: false",
    ]
    path = write_bytes(as_bytes(lines))
    add_unit(path, catalogs, "Camel Corps Officer")
    assert path.read_bytes() == as_bytes([*lines, "  - unit: Camel Corps Officer"])
    add_unit(path, catalogs, "Camel Corps Officer")
    assert path.read_bytes() == as_bytes([*lines, "  - unit: Camel Corps Officer", "    count: 2"])


def test_adding_to_a_custom_unit_raises_its_count(write_bytes, catalogs):
    lines = [*HAND]
    path = write_bytes(as_bytes(lines))
    add_unit(path, catalogs, "HOME BREW", 2)
    assert path.read_bytes() == as_bytes(changed(lines, 12, 1, ("  - name: Home Brew      # our own", "    count: 3")))


def test_remove_by_count_across_two_entries_takes_the_last_first(write_bytes, catalogs):
    lines = ["system: might-skirmish", "name: Twice", "units:", "  - unit: Hunter", "    count: 2", "  - unit: hunter"]
    path = write_bytes(as_bytes(lines))
    remove_unit(path, catalogs, "Hunter", 2)
    assert path.read_bytes() == as_bytes(changed(lines, 4, 2, ("    count: 1",)))


def test_remove_without_count_removes_every_entry_of_the_unit(write_bytes, catalogs):
    lines = [
        "system: might-skirmish",
        "name: Twice",
        "units:",
        "  - unit: Hunter",
        "  - unit: Shambler",
        "  - unit: hunter",
    ]
    path = write_bytes(as_bytes(lines))
    remove_unit(path, catalogs, "hunter")
    assert path.read_bytes() == as_bytes(["system: might-skirmish", "name: Twice", "units:", "  - unit: Shambler"])


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_adding_then_removing_a_unit_gives_back_every_example(example, write_bytes, catalogs):
    original = example.read_bytes()
    path = write_bytes(original)
    report = check_list(path, catalogs)
    present = {line.entry.unit.name.lower() for line in report.lines}
    spare = next(u.name for u in report.system.units.values() if u.name.lower() not in present)
    added = add_unit(path, catalogs, spare, 2)
    assert added.report.total > report.total
    remove_unit(path, catalogs, spare)
    assert path.read_bytes() == original


def test_write_false_and_no_change_do_not_write(write_bytes, catalogs):
    path = write_bytes(as_bytes(HAND))
    before = path.stat().st_mtime_ns
    dry = add_unit(path, catalogs, "Cameleer", write=False)
    assert dry.changed and dry.report.total == HAND_TOTAL + 32
    same = set_key(path, catalogs, "name", "Camel Corps")
    assert not same.changed
    assert path.read_bytes() == as_bytes(HAND) and path.stat().st_mtime_ns == before


def test_permissions_are_kept_and_symlinks_followed(write_bytes, catalogs, tmp_path):
    real = write_bytes(as_bytes(HAND), "real.yaml")
    real.chmod(0o640)
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    add_unit(link, catalogs, "Cameleer")
    assert link.is_symlink()
    assert real.read_bytes() == as_bytes(changed(HAND, 9, 1, ("    count: 3",)))
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


# --- new lists --------------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", ["might-skirmish", "speed-range-power", "deathmelt", "deathzap", "melee-module"])
def test_a_new_list_loads_and_grows(system_id, catalogs, write_bytes):
    system = catalogs.get(system_id)
    text = new_list(system, file_name="my list.yaml")
    assert text.splitlines()[0] == f"# yaml-language-server: $schema={system_id}.schema.json"
    assert "listbuilder validate 'my list.yaml'" in text
    army, _ = parse_list(parse_yaml(text, Path("new.yaml")), catalogs)
    assert army.name == f"New {system.definition.force}"
    assert army.entries == ()
    limit_line = f"{system.size_unit}: {system.definition.default_limit}"
    assert (limit_line in text.splitlines()) == (system.definition.default_limit is not None)
    path = write_bytes(text)
    unit = next(iter(system.units.values()))
    result = add_unit(path, catalogs, unit.name, 2)
    assert path.read_text().endswith(f"units:\n  - unit: {unit.name}\n    count: 2\n")
    assert [line.entry.count for line in result.report.lines] == [2]


def test_new_list_options(catalogs):
    system = catalogs.get("deathzap")
    text = new_list(system, name="Rangers: 2nd patrol", limit=30, schema_ref="../schemas/{id}.schema.json", revision=3)
    lines = text.splitlines()
    assert lines[0] == "# yaml-language-server: $schema=../schemas/deathzap.schema.json"
    assert lines[-5:] == ["system: deathzap", "revision: 3", "name: 'Rangers: 2nd patrol'", "figures: 30", "units: []"]
    no_schema = new_list(system, schema_ref=None)
    assert "$schema" not in no_schema
    army, _ = parse_list(parse_yaml(no_schema, Path("new.yaml")), catalogs)
    assert army.limit is None and army.name == "New force"
    for bad in (0, -5, True, "30"):
        with pytest.raises(InputError, match="whole number"):
            new_list(system, limit=bad)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="one line"):
        new_list(system, name="two\nlines")


# --- errors -----------------------------------------------------------------------------------


def test_unknown_unit_gets_a_hint_and_leaves_the_file(write_bytes, catalogs):
    path = write_bytes(as_bytes(HAND))
    with pytest.raises(InputError) as err:
        add_unit(path, catalogs, "Camelier")
    assert "did you mean 'Cameleer'?" in err.value.render()
    assert err.value.file == path
    with pytest.raises(InputError) as err:
        remove_unit(path, catalogs, "Vickers Teem")
    assert "did you mean 'Vickers Team'?" in err.value.render()
    with pytest.raises(InputError, match="no 'MK1 Tank' in this list"):
        remove_unit(path, catalogs, "MK1 Tank")
    assert path.read_bytes() == as_bytes(HAND)


def test_removing_too_many_is_located_and_refused(write_bytes, catalogs):
    path = write_bytes(as_bytes(HAND))
    with pytest.raises(InputError) as err:
        remove_unit(path, catalogs, "cameleer", 3)
    (detail,) = err.value.details
    assert "the list has 2 Cameleer" in detail.message
    assert detail.line == 9 and "remove at most 2" in (detail.hint or "")
    assert path.read_bytes() == as_bytes(HAND)


@pytest.mark.parametrize("count", [0, -1, True, 1.5])
def test_bad_counts_are_refused(count, write_bytes, catalogs):
    path = write_bytes(as_bytes(HAND))
    with pytest.raises(InputError, match="at least 1"):
        add_unit(path, catalogs, "Cameleer", count)
    with pytest.raises(InputError, match="at least 1"):
        remove_unit(path, catalogs, "Cameleer", count)
    assert path.read_bytes() == as_bytes(HAND)


@pytest.mark.parametrize(
    ("key", "value", "message", "hint"),
    [
        ("system", "deathzap", "cannot set 'system'", "edit the file"),
        ("nmae", "X", "cannot set 'nmae'", "did you mean 'name'?"),
        ("figures", 30, "cannot set 'figures'", "set 'points' instead"),
        ("points", "lots", "whole number", "for example: points 100"),
        ("points", "0", "whole number", "for example"),
        ("points", 2.5, "whole number", "for example"),
        ("points", True, "whole number", "for example"),
        ("name", "   ", "one line", "such as"),
        ("name", "a\rb", "one line", "such as"),
    ],
)
def test_set_key_refusals(key, value, message, hint, write_bytes, catalogs):
    path = write_bytes(as_bytes(HAND))
    with pytest.raises(InputError, match=message) as err:
        set_key(path, catalogs, key, value)
    assert hint in err.value.render(command_hint)  # the limit's example is the command line's words
    assert path.read_bytes() == as_bytes(HAND)


INVALID = sorted((ROOT / "tests" / "invalid_lists").glob("*.yaml"))


@pytest.mark.parametrize("broken", INVALID, ids=lambda p: p.name)
def test_a_file_that_does_not_load_is_never_edited(broken, write_bytes, catalogs):
    original = broken.read_bytes()
    path = write_bytes(original)
    with pytest.raises(InputError) as expected:
        check_list(path, catalogs)
    for edit in (
        lambda: add_unit(path, catalogs, "Hunter"),
        lambda: remove_unit(path, catalogs, "Hunter"),
        lambda: set_key(path, catalogs, "name", "Fixed"),
    ):
        with pytest.raises(InputError) as err:
            edit()
        assert err.value.render() == expected.value.render()  # the same located errors as 'validate'
    assert path.read_bytes() == original


def test_a_missing_file_is_an_input_error(tmp_path, catalogs):
    with pytest.raises(InputError, match="no such list file"):
        add_unit(tmp_path / "nope.yaml", catalogs, "Hunter")
    assert not (tmp_path / "nope.yaml").exists()


# --- concurrent writers and failed writes -----------------------------------------------------


def test_a_change_by_another_writer_is_not_overwritten(write_bytes, catalogs, monkeypatch):
    path = write_bytes(as_bytes(HAND))
    theirs = as_bytes(changed(HAND, 3, 1, ('name: "Their Corps"',)))
    real_parse = plan.parse_yaml

    def other_writer_then_parse(text, where, **options):  # runs after the read, before the write
        path.write_bytes(theirs)
        return real_parse(text, where, **options)

    monkeypatch.setattr(plan, "parse_yaml", other_writer_then_parse)
    with pytest.raises(ConflictError) as err:
        add_unit(path, catalogs, "Cameleer")
    assert "run the command again" in err.value.render()
    assert err.value.exit_code == 2
    assert path.read_bytes() == theirs
    assert sorted(p.name for p in path.parent.iterdir()) == ["list.yaml"]


def test_a_file_removed_during_the_edit_is_not_recreated(write_bytes, catalogs, monkeypatch):
    path = write_bytes(as_bytes(HAND))
    real_parse = plan.parse_yaml

    def remover(text, where, **options):  # runs after the read (twice: the edit, then its check), before the write
        path.unlink(missing_ok=True)
        return real_parse(text, where, **options)

    monkeypatch.setattr(plan, "parse_yaml", remover)
    with pytest.raises(ConflictError):
        set_key(path, catalogs, "points", 10)
    assert not path.exists()


def test_a_failing_rename_leaves_the_original_and_no_temp_file(write_bytes, catalogs, monkeypatch):
    path = write_bytes(as_bytes(HAND))

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputError) as err:
        add_unit(path, catalogs, "Cameleer")
    assert err.value.exit_code == 3 and "No space left on device" in err.value.render()
    assert path.read_bytes() == as_bytes(HAND)
    assert sorted(p.name for p in path.parent.iterdir()) == ["list.yaml"]


KILL_SCRIPT = """
import os, sys, time
from pathlib import Path
from listbuilder.editing.apply import apply_change
from listbuilder.editing.changes import AddUnit
from listbuilder.rules.catalog import Catalogs

real_write = os.write

def stalling(fd, data):
    '''Into the list's temp file: half the data, say so, and hang until the process is killed.'''
    name = os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))
    if not (name.startswith(".list.yaml.") and name.endswith(".tmp")):
        return real_write(fd, data)
    real_write(fd, bytes(data[: len(data) // 2]))
    Path(sys.argv[2]).write_text("half written")
    time.sleep(120)

os.write = stalling
apply_change(Path(sys.argv[1]), Catalogs(), AddUnit(unit="Cameleer", count=5))
"""


def test_a_process_killed_mid_write_leaves_the_list_intact(tmp_path, catalogs):
    folder = tmp_path / "lists"
    folder.mkdir()
    path = folder / "list.yaml"
    path.write_bytes(as_bytes(HAND))
    marker = tmp_path / "marker"
    env = {**os.environ, "LISTBUILDER_CATALOGS": ""}
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(path), str(marker)], env=env)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert proc.poll() is None, "the editing process ended before it started writing"
            assert time.monotonic() < deadline, "the editing process never started writing"
            time.sleep(0.02)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert path.read_bytes() == as_bytes(HAND)
    # The killed edit held the lock: its lock file stays (the kernel released the lock itself).
    assert (folder / ".list.yaml.lock").is_file()
    leftovers = [p for p in folder.iterdir() if p not in (path, folder / ".list.yaml.lock")]
    assert len(leftovers) == 1 and leftovers[0].name.startswith(".list.yaml.") and leftovers[0].suffix == ".tmp"
    assert 0 < leftovers[0].stat().st_size < len(as_bytes(HAND))

    # Under the list's lock no write of it is in progress: the next edit removes the leftover,
    # however young, takes the killed edit's lock file over and removes it too.
    result = add_unit(path, catalogs, "Cameleer")
    assert result.removed_temp_files == (leftovers[0],)
    assert sorted(p.name for p in folder.iterdir()) == ["list.yaml"]
    assert path.read_bytes() == as_bytes(changed(HAND, 9, 1, ("    count: 3",)))


def test_only_our_own_temp_files_are_cleaned_up(tmp_path):
    path = tmp_path / "list.yaml"
    names = [".list.yaml.abc_12xy.tmp", ".list.yaml.short.tmp", ".other.yaml.abc_12xy.tmp", "list.yaml.abc_12xy.tmp"]
    old = time.time() - 3600
    for name in names:
        (tmp_path / name).write_text("x")
        os.utime(tmp_path / name, (old, old))
    assert writing.remove_temp_files(path) == (tmp_path / names[0],)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[1:])


# --- packaging ---------------------------------------------------------------------------------


# --- any layout -------------------------------------------------------------------------------

NAMES = ["Hunter", "Shambler", "Rotting Hound", "Crow Swarm"]


@st.composite
def layouts(draw) -> str:
    """A might-skirmish list in a random but valid layout."""
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    flow_units = draw(st.booleans())
    indent = draw(st.sampled_from(["", "  ", "    "]))
    gap = draw(st.sampled_from([" ", "   "]))
    entries = []
    for name in draw(st.lists(st.sampled_from(NAMES), min_size=0 if flow_units else 1, max_size=4)):
        quoted = draw(st.sampled_from(["{}", "'{}'", '"{}"', "{}"])).format(name)
        count = draw(st.one_of(st.none(), st.integers(1, 3)))
        comment = draw(st.sampled_from(["", "  # note"]))
        if flow_units or draw(st.booleans()):
            body = "{unit: " + quoted + (f", count: {count}" if count else "") + "}"
            entries.append((body, comment, None))
        else:
            entries.append((f"unit: {quoted}", comment, f"count: {count}" if count else None))
    lines = ["# a list", "system: might-skirmish", "name: Random"]
    if flow_units:
        lines.append("units: [" + ", ".join(body for body, _, _ in entries) + "]")
    else:
        lines.append("units:")
        for body, comment, count in entries:
            lines.append(f"{indent}-{gap}{body}{comment}")
            if count:
                lines.append(f"{indent} {gap}{count}")
            if draw(st.booleans()):
                lines.append(draw(st.sampled_from(["", f"{indent}# between"])))
    final = draw(st.booleans())
    return nl.join(lines) + (nl if final else "")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    text=layouts(),
    op=st.sampled_from(["add", "add3", "remove", "remove1", "name", "points"]),
    name=st.sampled_from([*NAMES, "Grave Digger"]),
)
def test_any_layout_edits_cleanly(text, op, name, tmp_path, catalogs):
    path = tmp_path / "random.yaml"
    path.write_bytes(text.encode())
    before = load_yaml(path).data
    present = sum(u.get("count", 1) for u in before["units"] if u["unit"].lower() == name.lower())
    try:
        if op.startswith("add"):
            result = add_unit(path, catalogs, name, 3 if op == "add3" else 1)
        elif op.startswith("remove"):
            result = remove_unit(path, catalogs, name, 1 if op == "remove1" else None)
        elif op == "name":
            result = set_key(path, catalogs, "name", "Renamed: again")
        else:
            result = set_key(path, catalogs, "points", 77)
    except InputError:
        assert op.startswith("remove") and present == 0
        assert path.read_bytes() == text.encode()
        return
    after = result.report
    models = {line.entry.unit.name: 0 for line in after.lines}
    for line in after.lines:
        models[line.entry.unit.name] += line.entry.count
    wanted = {"add": present + 1, "add3": present + 3, "remove": 0, "remove1": present - 1}.get(op, present)
    canonical = catalogs.get("might-skirmish").find_unit(name).name
    assert models.get(canonical, 0) == wanted
    # The line endings and the final newline (or its absence) are kept, and an edit that adds
    # or sets rewrites at most the one or two old lines that hold what changed.
    new = path.read_bytes().decode()
    crlf = "\r\n" in text
    assert new.count("\n") == new.count("\r\n") if crlf else "\r" not in new
    if not op.startswith("remove"):  # (removing the last line after a blank one ends on a newline)
        assert new.endswith("\n") == text.endswith("\n")
        old_lines, new_lines = text.splitlines(), new.splitlines()
        kept = sum(b.size for b in difflib.SequenceMatcher(None, old_lines, new_lines).get_matching_blocks())
        assert len(old_lines) - kept <= 2
