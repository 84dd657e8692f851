"""What trips a player with an open tab, server side: a server restarted under it, a list deleted
in another tab, an error answer that must not nest a page inside the page.

Each test runs the app in this process (``asgiclient``): a restart is a second app over the same
folder with a new token, as ``serve`` makes one each time it starts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from asgiclient import Client
from conftest import EXAMPLES

from listbuilder.web import create_app

LIST = "zombies.yaml"
FIRST, SECOND = "token-of-the-first-run-0123456789", "token-of-the-second-run-987654321"
PAGE = {"sec-fetch-site": "same-origin"}  # what Chromium sends with a form posted from our page
HTMX = {**PAGE, "hx-request": "true", "hx-current-url": "http://127.0.0.1:8000/list/zombies.yaml"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / LIST).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    return tmp_path


def _version(page: str) -> str:
    found = re.search(r'name="version" value="([0-9a-f]{16})"', page)
    assert found, "the page holds no version"
    return found.group(1)


def _token(page: str) -> str:
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found, "the page holds no token"
    return found.group(1)


def _hunters(folder: Path) -> int:
    return int(re.search(r"unit: Hunter\n\s+count: (\d+)", (folder / LIST).read_text()).group(1))  # type: ignore[union-attr]


def test_a_change_from_before_a_restart_is_not_made_and_the_page_is_loaded_anew(folder: Path):
    before = Client(create_app(folder, token=FIRST))
    page = before.get(f"/list/{LIST}").text
    assert _token(page) == FIRST
    old = {"token": FIRST, "version": _version(page), "change": "add", "unit": "Hunter"}
    after = Client(create_app(folder, token=SECOND))  # the server restarted: a new token
    file = (folder / LIST).read_bytes()

    plain = after.post(f"/list/{LIST}/change", old, PAGE)  # without JavaScript
    assert (plain.status, plain.headers["location"]) == (303, f"/list/{LIST}?restarted=1")
    htmx = after.post(f"/list/{LIST}/change", old, HTMX)
    assert htmx.status == 403 and htmx.headers["hx-redirect"] == f"/list/{LIST}?restarted=1"
    assert "<html" not in htmx.text
    assert (folder / LIST).read_bytes() == file  # neither made the change

    reloaded = after.get(f"/list/{LIST}?restarted=1").text
    assert "The server was restarted after this page was loaded, so that change was not made." in reloaded
    assert _token(reloaded) == SECOND
    assert "was restarted" not in after.get(f"/list/{LIST}").text  # said once, on the page sent back to
    again = {**old, "token": SECOND, "version": _version(reloaded)}
    assert after.post(f"/list/{LIST}/change", again, PAGE).status == 303
    assert _hunters(folder) == 3  # made once: 2 in the example, one added


@pytest.mark.parametrize(
    ("path", "fields", "back"),
    [
        ("/new", {"system": "might-skirmish", "name": "Late"}, "/"),
        ("/import", {"text": "Zombie Family (might-skirmish)"}, "/"),
        (f"/list/{LIST}/delete", {}, f"/list/{LIST}"),
        (f"/list/{LIST}/duplicate", {"referer": "/"}, "/"),  # the lists page said, where it is posted from
        (f"/list/{LIST}/change", {"referer": "//elsewhere.example/x"}, f"/list/{LIST}"),
        (f"/list/{LIST}/undo", {}, f"/list/{LIST}"),
        (f"/list/{LIST}/play/tap", {"tap": "turn"}, f"/list/{LIST}/play"),
    ],
)
def test_every_write_from_before_a_restart_goes_back_to_its_page(folder: Path, path: str, fields: dict, back: str):
    files = sorted(p.name for p in folder.iterdir())
    after = Client(create_app(folder, token=SECOND))
    referer = fields.pop("referer", "")
    headers = {**PAGE, "referer": "http:" + referer if referer.startswith("//") else "http://127.0.0.1:8000" + referer}
    answer = after.post(path, {"token": FIRST, **fields}, headers if referer else PAGE)
    assert (answer.status, answer.headers["location"]) == (303, back + "?restarted=1")
    assert sorted(p.name for p in folder.iterdir()) == files


@pytest.mark.parametrize("token", ["", FIRST])
def test_a_client_that_is_no_page_still_gets_the_plain_refusal(folder: Path, token: str):
    after = Client(create_app(folder, token=SECOND))
    answer = after.post(f"/list/{LIST}/change", {"token": token, "change": "add", "unit": "Hunter"})
    assert answer.status == 403 and "token is missing or old" in answer.text
    empty = after.post(f"/list/{LIST}/change", {"token": "", "change": "add", "unit": "Hunter"}, PAGE)
    assert empty.status == 403  # no token at all is no page of any run of this server
    assert _hunters(folder) == 2


def test_the_token_is_kept_in_no_file_of_the_folder(folder: Path):
    """A served folder is often a git repository or a zip sent to a friend: the secret stays in memory."""
    client = Client(create_app(folder, token=SECOND))
    version = _version(client.get(f"/list/{LIST}").text)
    assert (
        client.post(
            f"/list/{LIST}/change", {"token": SECOND, "version": version, "change": "add", "unit": "Hunter"}, PAGE
        ).status
        == 303
    )
    assert client.post(f"/list/{LIST}/play/tap", {"token": SECOND, "tap": "start"}, PAGE).status in (303, 400)
    assert client.post(f"/list/{LIST}/duplicate", {"token": SECOND}, PAGE).status == 303
    assert client.post(f"/list/{LIST}/delete", {"token": SECOND}, PAGE).status == 303
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert len(files) >= 3  # the copy, the deleted list kept to restore, the history
    for p in files:
        assert SECOND.encode() not in p.read_bytes(), p


def test_a_list_deleted_in_another_tab_is_said_in_place_of_the_page(folder: Path):
    client = Client(create_app(folder, token=SECOND))
    version = _version(client.get(f"/list/{LIST}").text)
    assert client.post(f"/list/{LIST}/delete", {"token": SECOND}, PAGE).status == 303
    change = {"token": SECOND, "version": version, "change": "add", "unit": "Hunter"}
    htmx = client.post(f"/list/{LIST}/change", change, HTMX)
    assert htmx.status == 404
    assert (htmx.headers["hx-retarget"], htmx.headers["hx-reswap"]) == ("#main", "innerHTML")
    for whole_page in ("<html", "<header", "<footer", "<main"):
        assert whole_page not in htmx.text
    assert f"There is no list file {LIST} in this folder: it may have been deleted or renamed" in htmx.text
    assert "a deleted list can be restored there" in htmx.text
    assert not (folder / LIST).exists()  # and nothing was made in its place
    for path, target in ((f"/list/{LIST}/undo", {}), (f"/list/{LIST}/price", {"hx-target": "price"})):
        answer = client.post(path, {"token": SECOND, "version": version}, {**HTMX, **target})
        assert answer.status == 404 and "<html" not in answer.text and answer.headers["hx-retarget"] == "#main", path
    plain = client.post(f"/list/{LIST}/change", change, PAGE)  # without JavaScript: the whole page, once
    assert plain.status == 404 and plain.text.count("<header") == 1 and plain.text.count("<footer") == 1
    assert "No such list · listbuilder" in plain.text


def test_a_refusal_is_said_in_place_of_the_page_too(folder: Path):
    client = Client(create_app(folder, token=SECOND, read_only=True))
    answer = client.post(f"/list/{LIST}/change", {"token": SECOND, "change": "add", "unit": "Hunter"}, HTMX)
    assert answer.status == 403 and answer.headers["hx-retarget"] == "#main" and "<html" not in answer.text
    assert "served read-only" in answer.text


def _visible(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_compare_offers_the_lists_of_the_same_rule_set_by_their_names(folder: Path):
    for example in ("might-skirmish-windblade-elves.legal", "might-skirmish-monster-mash.illegal"):
        (folder / f"{example}.yaml").write_bytes((EXAMPLES / f"{example}.yaml").read_bytes())
    (folder / "rangers.yaml").write_bytes((EXAMPLES / "deathzap-frontier-rangers.legal.yaml").read_bytes())
    (folder / "mash-copy.yaml").write_bytes((EXAMPLES / "might-skirmish-monster-mash.illegal.yaml").read_bytes())
    client = Client(create_app(folder, token=SECOND))
    page = client.get(f"/list/{LIST}/compare").text
    offered = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', page)
    assert offered == [
        ("mash-copy.yaml", "Monster Mash (mash-copy.yaml)"),  # two lists called Monster Mash: the file tells them apart
        ("might-skirmish-monster-mash.illegal.yaml", "Monster Mash (might-skirmish-monster-mash.illegal.yaml)"),
        ("might-skirmish-windblade-elves.legal.yaml", "Windblade Elves"),
    ]  # not the Deathzap list, not this list itself
    alone = client.get("/list/rangers.yaml/compare").text
    assert "<select" not in alone
    assert "There is no other list of Deathzap (simplified) in this folder to compare this one with." in _visible(alone)


def test_the_lists_page_names_each_list_once_and_deleted_lists_by_their_names(folder: Path):
    for copy in ("a.yaml", "b.yaml"):
        (folder / copy).write_bytes((folder / LIST).read_bytes())
    (folder / "elves.yaml").write_bytes((EXAMPLES / "might-skirmish-windblade-elves.legal.yaml").read_bytes())
    client = Client(create_app(folder, token=SECOND))
    assert client.post("/list/elves.yaml/delete", {"token": SECOND}, PAGE).status == 303
    assert client.post("/list/a.yaml/delete", {"token": SECOND}, PAGE).status == 303
    page = client.get("/").text
    assert "<title>Your lists · listbuilder</title>" in page and '<h1 class="page-title">Your lists</h1>' in page
    labels = re.findall(r'aria-label="([^"]+)"', page)
    assert len(labels) == len(set(labels)), labels
    deletes = re.findall(r'Delete<span class="sr-only"> ([^<]+)</span>', page)
    assert sorted(deletes) == sorted([f"Zombie Family ({LIST})", "Zombie Family (b.yaml)"])
    assert "Restore Windblade Elves" in labels and "Restore Zombie Family" in labels  # one of each is deleted
    deleted = _visible(page[page.index("Deleted lists") :])
    assert deleted.startswith("Deleted lists Zombie Family a.yaml, deleted ")
    assert "Windblade Elves elves.yaml, deleted " in deleted


def test_undo_after_a_shell_edit_counts_only_the_steps_it_can_take(folder: Path):
    from listbuilder.api import editing, folders, rulesets

    catalogs = rulesets.open_catalogs()

    def add() -> None:
        folders.change_list(folder, LIST, catalogs, editing.AddUnit(unit="Hunter", count=1))

    for _ in range(3):
        add()
    state = folders.list_state(folder, LIST, catalogs)
    assert (state.undo, state.undo_kept, state.redo) == (3, 3, 0)
    (folder / LIST).write_text((folder / LIST).read_text() + "# edited in the shell\n")
    state = folders.list_state(folder, LIST, catalogs)
    assert (state.undo, state.undo_kept) == (0, 3)  # kept, but none can be taken: each would lose the edit
    add()  # a change made here after the edit: undo takes it back, and no further
    state = folders.list_state(folder, LIST, catalogs)
    assert (state.undo, state.undo_kept) == (1, 1)
    folders.change_list(folder, LIST, catalogs, editing.Undo())
    state = folders.list_state(folder, LIST, catalogs)
    assert (state.undo, state.undo_kept, state.redo) == (0, 0, 1)
    assert (folder / LIST).read_text().endswith("# edited in the shell\n") and _hunters(folder) == 5


def test_the_watch_on_the_list_says_what_undo_can_do_once_it_changed_elsewhere(folder: Path):
    client = Client(create_app(folder, token=SECOND))
    version = _version(client.get(f"/list/{LIST}").text)
    fields = {"token": SECOND, "version": version, "change": "add", "unit": "Hunter"}
    assert client.post(f"/list/{LIST}/change", fields, PAGE).status == 303
    page = client.get(f"/list/{LIST}").text
    version = _version(page)
    assert re.search(
        r'<button class="quiet" id="undo"\s+aria-label="Undo the last change" data-steps="1">↶ Undo</button>', page
    )
    assert client.get(f"/list/{LIST}/status?version={version}", HTMX).status == 204  # nothing new
    (folder / LIST).write_text((folder / LIST).read_text() + "# by hand\n")
    answer = client.get(f"/list/{LIST}/status?version={version}", HTMX).text
    assert '<div class="history" id="history" hx-swap-oob="true">' in answer
    assert re.search(r'<button class="quiet" id="undo" disabled aria-label="Undo the last change"', answer)
    assert "No undo: the list was changed outside the builder after the last change made here" in answer
