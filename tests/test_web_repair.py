"""The repair view, through a real server: a list that cannot be read opens at its problems, each
at its line in the player's words with the fixes the readers know as buttons; a fix or a saved
text changes only the file's text, under the edit lock with its undo step; a stale save is
refused; the check as you type writes nothing. Issue 31, item 3.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from webserver import Answer, Server, start

HUNTR = (
    "system: might-skirmish  # the rules\nname: Zombies\npoints: 100\n"
    "units:\n  - unit: Hunter\n  - unit: Huntr   # typo\n    count: 2\n"
)
MIHGT = (
    "system: might-skirmish\nname: Zombies\nunits:\n  - unit: Hunter\n    mihgt: 3   # keep me? no\n  - unit: Hunter\n"
)
NOT_INSTALLED = "system: warhammer\nname: Zombies  # mine\nunits: []\n"
BROKEN_YAML = "system: might-skirmish\nname: Zombies\nunits:\n  - unit: Hunter\n\t- unit: Hunter\n"
WRONG_TYPE = "system: might-skirmish\nname: Zombies\npoints: lots\nunits:\n  - unit: Hunter\n    count: 2\n"
FIXED_YAML = "system: might-skirmish\nname: Zombies\nunits:\n  - unit: Hunter\n  - unit: Hunter\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    root = tmp_path_factory.mktemp("repair")
    server = start(root)
    yield server, root
    server.stop()


def put(served: tuple[Server, Path], name: str, text: str) -> tuple[Server, Path]:
    server, root = served
    path = root / name
    path.write_text(text, encoding="utf-8")
    return server, path


def fields_of(page: str, button: str) -> dict[str, str]:
    """The fields of the form whose button says ``button`` (as a browser would send them)."""
    for form in re.findall(r"<form\b.*?</form>", page, re.DOTALL):
        if button in [html.unescape(b) for b in re.findall(r"<button[^>]*>(.*?)</button>", form)]:
            return {
                html.unescape(n): html.unescape(v)
                for n, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
            }
    raise AssertionError(f"no button {button!r} on the page")


def text_of(page: str) -> str:
    found = re.search(r'<textarea id="repair-text"[^>]*>\n(.*?)</textarea>', page, re.DOTALL)
    assert found, "no editor on the page"
    return html.unescape(found.group(1))


def follow(server: Server, answer: Answer) -> Answer:
    assert answer.status == 303, answer.text
    return server.get(answer.headers["location"])


def problems(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", html.unescape(p)) for p in re.findall(r'<li class="trouble">\s*<p>(.*?)</p>', page)]


def test_a_misspelt_unit_opens_at_its_line_and_use_hunter_mends_it(served):
    server, path = put(served, "huntr.yaml", HUNTR)
    page = server.get("/list/huntr.yaml")
    assert page.status == 400 and "Repair huntr.yaml" in page.text  # the list, as asked for, cannot be read
    assert problems(page.text) == [
        "Line 6 · Entry 2, Huntr: no unit 'Huntr' in the might-skirmish catalogs (did you mean 'Hunter'?)"
    ]
    assert "units[1]" not in page.text and "This list cannot be shown" not in page.text  # no data paths
    assert "  - unit: Huntr   # typo" in page.text  # the line quoted as the file has it
    assert text_of(page.text) == HUNTR
    answer = server.post("/list/huntr.yaml/repair", fields_of(page.text, "Use Hunter"))
    assert answer.headers["location"].startswith("/list/huntr.yaml?done=")
    assert path.read_text(encoding="utf-8") == HUNTR.replace("Huntr   # typo", "Hunter   # typo")  # all else kept
    builder = follow(server, answer)
    assert "Wrote &#39;Hunter&#39;: the list reads again" in builder.text and 'id="catalog"' in builder.text


def test_drop_this_entry_deletes_its_lines_only(served):
    server, path = put(served, "drop.yaml", HUNTR)
    page = server.get("/list/drop.yaml").text
    answer = server.post("/list/drop.yaml/repair", fields_of(page, "Drop entry 2, Huntr"))
    assert answer.status == 303
    assert path.read_text(encoding="utf-8") == HUNTR.replace("  - unit: Huntr   # typo\n    count: 2\n", "")


def test_an_unknown_key_is_removed_with_its_line_and_undo_puts_it_back(served):
    server, path = put(served, "mihgt.yaml", MIHGT)
    page = server.get("/list/mihgt.yaml").text
    assert problems(page) == [
        "Line 5 · Entry 1, Hunter: unknown key 'mihgt' (an entry has 'unit', 'count', 'leader' or 'leaders')"
    ]
    answer = server.post("/list/mihgt.yaml/repair", fields_of(page, "Remove the key 'mihgt'"))
    builder = follow(server, answer)
    assert path.read_text(encoding="utf-8") == MIHGT.replace("    mihgt: 3   # keep me? no\n", "")
    assert "Removed the key &#39;mihgt&#39;: the list reads again" in builder.text
    # Undo, from the builder: the same history as every other change takes the repair back.
    version = re.search(r'name="version" value="([0-9a-f]{16})"', builder.text)
    assert version
    undone = server.post("/list/mihgt.yaml/undo", {"token": server.token(), "version": version.group(1)})
    assert undone.status == 303 and path.read_text(encoding="utf-8") == MIHGT
    page = follow(server, undone).text
    assert "Repair mihgt.yaml" in page and "Undone: the list cannot be read again" in page
    # ... and Redo, from the repair view, makes it again.
    redone = server.post("/list/mihgt.yaml/redo", fields_of(page, "↷ Redo"))
    assert redone.status == 303 and path.read_text(encoding="utf-8") == MIHGT.replace(
        "    mihgt: 3   # keep me? no\n", ""
    )


def test_a_rule_set_that_is_not_installed_is_chosen_from_the_installed_ones(served):
    server, path = put(served, "nosys.yaml", NOT_INSTALLED)
    page = server.get("/list/nosys.yaml").text
    assert problems(page)[0].startswith("Line 1 · Rule set: unknown rule set 'warhammer' (the rule sets are: deathmelt")
    assert '<option value="speed-range-power">' in page
    sent = {**fields_of(page, "Use this rule set"), "value": "speed-range-power"}
    builder = follow(server, server.post("/list/nosys.yaml/repair", sent))
    assert path.read_text(encoding="utf-8") == NOT_INSTALLED.replace("warhammer", "speed-range-power")
    assert "the list reads again" in builder.text
    refused = server.post("/list/nosys.yaml/repair", {**sent, "value": "x\ny"})  # a value of no form of ours
    assert refused.status in (400, 409)


def test_broken_yaml_is_shown_at_its_line_and_a_saved_text_mends_it(served):
    server, path = put(served, "tab.yaml", BROKEN_YAML)
    page = server.get("/list/tab.yaml").text
    assert problems(page) == ["Line 5: found a tab character that violates indentation (indent with spaces, not tabs)"]
    assert "Use " not in page  # no fix offered for YAML that does not parse: the editor mends it
    sent = {**fields_of(page, "Save the text"), "text": FIXED_YAML.replace("\n", "\r\n")}  # a browser's CRLF
    builder = follow(server, server.post("/list/tab.yaml/repair", sent))
    assert path.read_bytes() == FIXED_YAML.encode()  # the file's own line endings
    assert "Saved the text: the list reads again" in builder.text


def test_a_wrong_type_is_mended_by_removing_the_optional_key(served):
    server, path = put(served, "type.yaml", WRONG_TYPE)
    page = server.get("/list/type.yaml").text
    assert problems(page) == ["Line 3 · Limit: the limit must be a whole number of at least 1, found 'lots'"]
    follow(server, server.post("/list/type.yaml/repair", fields_of(page, "Remove the key 'points'")))
    assert path.read_text(encoding="utf-8") == WRONG_TYPE.replace("points: lots\n", "")


def test_a_save_that_leaves_it_unreadable_stays_in_the_repair_view(served):
    server, path = put(served, "still.yaml", HUNTR)
    page = server.get("/list/still.yaml").text
    half = HUNTR.replace("points: 100", "points: 99")
    answer = server.post("/list/still.yaml/repair", {**fields_of(page, "Save the text"), "text": half})
    page = follow(server, answer).text
    assert path.read_text(encoding="utf-8") == half
    assert "Saved the text; the list still cannot be read" in page and "Repair still.yaml" in page


def test_a_stale_save_is_refused_and_the_typed_text_is_kept_on_the_page(served):
    server, path = put(served, "stale.yaml", HUNTR)
    page = server.get("/list/stale.yaml").text
    elsewhere = HUNTR.replace("Zombies", "Zombies (edited elsewhere)")
    path.write_text(elsewhere, encoding="utf-8")
    typed = HUNTR.replace("Huntr", "Hunter")
    answer = server.post("/list/stale.yaml/repair", {**fields_of(page, "Save the text"), "text": typed})
    assert answer.status == 409 and "changed on disk" in answer.text
    assert path.read_text(encoding="utf-8") == elsewhere  # not written over
    assert text_of(answer.text) == elsewhere  # the file as it is now...
    assert (
        "Your text, not saved" in answer.text and html.escape(typed, quote=False) in answer.text
    )  # ...and the player's text
    fix = server.post("/list/stale.yaml/repair", fields_of(page, "Use Hunter"))  # a fix from the old page too
    assert fix.status == 409 and path.read_text(encoding="utf-8") == elsewhere


def test_the_check_reads_the_text_as_typed_and_writes_nothing(served):
    server, path = put(served, "check.yaml", HUNTR)
    page = server.get("/list/check.yaml").text
    sent = fields_of(page, "Save the text")
    hx = {"HX-Request": "true"}
    typed = server.post("/list/check.yaml/check", {**sent, "text": HUNTR.replace("Huntr", "Hunter")}, hx)
    assert (
        typed.status == 200 and "No problem left: this text reads as a list. Save it to open the builder." in typed.text
    )
    worse = server.post("/list/check.yaml/check", {**sent, "text": HUNTR + "  - unit: Zombi\n"}, hx).text
    assert problems(worse)[1].startswith("Line 8 · Entry 3, Zombi: no unit 'Zombi'")
    assert (
        "2 problems in the text as typed (not saved yet)" in worse and "<button" not in worse
    )  # no fixes for unsaved text
    same = server.post("/list/check.yaml/check", {**sent, "text": HUNTR}, hx).text
    assert "Use Hunter" in same  # the text as saved: its fixes fit the file
    plain = server.post("/list/check.yaml/check", {**sent, "text": "units: [\n"})  # without JavaScript: the page
    assert plain.status == 200 and "Repair check.yaml" in plain.text and text_of(plain.text) == "units: [\n"
    assert path.read_text(encoding="utf-8") == HUNTR
    assert not (served[1] / ".listbuilder" / "history" / "check.yaml").exists()


def test_writes_need_the_token_and_a_big_body_is_refused(served):
    server, path = put(served, "guard.yaml", HUNTR)
    page = server.get("/list/guard.yaml").text
    sent = fields_of(page, "Use Hunter")
    assert server.post("/list/guard.yaml/repair", {**sent, "token": "nope"}).status == 403
    assert server.post("/list/guard.yaml/check", {**sent, "token": ""}).status == 403
    huge = server.post("/list/guard.yaml/repair", {**fields_of(page, "Save the text"), "text": "#" * (1024 * 1024 + 1)})
    assert huge.status == 413
    assert server.post("/list/..%2Fescape.yaml/repair", sent).status in (400, 404)
    assert path.read_text(encoding="utf-8") == HUNTR


def test_a_read_only_server_shows_the_problems_and_offers_no_change(tmp_path: Path):
    (tmp_path / "ro.yaml").write_text(HUNTR, encoding="utf-8")
    server = start(tmp_path, "--read-only")
    try:
        page = server.get("/list/ro.yaml").text
        assert (
            problems(page)[0].startswith("Line 6 · Entry 2, Huntr")
            and "<textarea" not in page
            and "Use Hunter" not in page
        )
    finally:
        server.stop()


def test_the_builder_sends_htmx_to_the_repair_view_when_the_list_stops_reading(served):
    server, path = put(served, "htmx.yaml", MIHGT.replace("    mihgt: 3   # keep me? no\n", ""))
    path.write_text(MIHGT, encoding="utf-8")  # broken in an editor meanwhile
    hx = {"HX-Request": "true"}
    added = server.post("/list/htmx.yaml/change", {"token": server.token(), "change": "add", "unit": "Hunter"}, hx)
    assert added.status == 200 and added.headers["hx-redirect"].startswith("/list/htmx.yaml?done=Nothing+was+changed")
    assert path.read_text(encoding="utf-8") == MIHGT
    page = server.get("/list/htmx.yaml").text
    follow(server, server.post("/list/htmx.yaml/repair", fields_of(page, "Remove the key 'mihgt'")))
    version = server.version("htmx.yaml")
    undone = server.post("/list/htmx.yaml/undo", {"token": server.token(), "version": version}, hx)
    assert undone.headers["hx-redirect"] == "/list/htmx.yaml?done=Undone%3A+the+list+cannot+be+read+again"
    assert path.read_text(encoding="utf-8") == MIHGT
