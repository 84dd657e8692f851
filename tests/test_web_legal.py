"""The web builder's verdicts and lists page over real HTTP, as a player meets them.

A list of a rule set with no standard size (deathmelt, deathzap, melee-module: texts 000, 001 and
002 give no points and no standard game) and no size of its own is "No size agreed", neither
Legal nor NOT LEGAL; a new list of one asks for the size; "Fill to the limit" greyed out says why.
On the lists page Delete asks first, deleted lists sit above the lists, and a list that cannot be
read can be downloaded, duplicated and deleted like any other, without the server's paths.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import EXAMPLES
from webserver import Server

# Ten Hive Titans and their Brood Herald: each Monster counts as 3 figures (deathmelt text, line
# 117), so the force is 10 x 3 + 1 = 31 figures, 11 on the table.
TITANS = "system: deathmelt\nname: Titan swarm\nunits:\n  - unit: Brood Herald\n  - unit: Hive Titan\n    count: 10\n"
TYPO = "system: might-skirmish\nname: Typo\nunits:\n  - unit: Huntr\n    mihgt: 3\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("legal")
    (root / "titans.yaml").write_text(TITANS, encoding="utf-8")
    (root / "hive.yaml").write_bytes((EXAMPLES / "deathmelt-chitter-hive.legal.yaml").read_bytes())
    (root / "zombies.yaml").write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    (root / "typo.yaml").write_text(TYPO, encoding="utf-8")
    (root / "latin1.yaml").write_bytes("system: might-skirmish\nname: Caf\xe9\nunits: []\n".encode("latin-1"))
    return root


def _card(page: str, file: str) -> str:
    """The lists page's card of ``file``."""
    cards = re.findall(r'<li class="list-card[^"]*">.*?</li>\s*(?=<li class="list-card|</ul>)', page, re.S)
    found = [c for c in cards if f'href="/list/{file}"' in c]
    assert len(found) == 1, file
    return found[0]


def test_a_list_without_a_size_is_no_size_agreed_on_its_card(server: Server):
    card = _card(server.get("/").text, "titans.yaml")
    assert card.startswith('<li class="list-card pending">')
    assert '<span class="verdict pending">No size agreed</span> 31 figures (11 figures on the table)' in card
    assert ">Legal<" not in card and "NOT LEGAL" not in card
    # the shipped Chitter Hive is played at 24 figures: 22 of them, the Hive Titan counting 3 (line 117)
    hive = _card(server.get("/").text, "hive.yaml")
    assert '<span class="verdict good">Legal</span> 22 of 24 figures (20 figures on the table)' in hive


def test_the_builder_says_no_size_agreed_and_where_to_set_it(server: Server):
    page = server.get("/list/titans.yaml").text
    assert '<p class="verdict pending" id="verdict">No size agreed</p>' in page
    assert (
        '<p class="headline">no size agreed: Titan swarm (deathmelt), 31 figures (11 figures on the table)</p>' in page
    )
    assert "Deathmelt has no standard size: nothing is legal or illegal until you and your opponent agree one" in page
    assert '<a href="#list-limit">Name and limit</a>' in page
    assert re.search(r'<details class="panel-part" id="settings" open>', page)  # the limit's box in sight
    assert re.search(r'<a class="tally-bar pending"[^>]*>\s*<span>31 figures</span>\s*<b>No size agreed</b>', page)
    assert "<meter" not in page


def test_fill_to_the_limit_greyed_out_says_why(server: Server, folder: Path):
    page = server.get("/list/titans.yaml").text
    assert '<button class="quiet" id="ask-fill" disabled aria-describedby="fill-why">Fill to the limit</button>' in page
    why = "“Fill to the limit” waits for a size: set the limit under “Name and limit”."
    assert f'<p class="why muted small" id="fill-why">{why}</p>' in page
    # Undo and Redo greyed out show a count of 0 steps: nothing to take back yet
    assert re.search(r'id="undo" disabled aria-label="Undo the last change" data-steps="0">↶ Undo</button>', page)
    assert re.search(r'id="redo" disabled aria-label="Redo" data-steps="0">↷ Redo</button>', page)
    # at the limit, 31 of 31: nothing to add, and it says so; at 32, one figure fits: the button works
    (folder / "full.yaml").write_text(TITANS.replace("units:", "figures: 31\nunits:"), encoding="utf-8")
    full = server.get("/list/full.yaml").text
    assert 'id="ask-fill" disabled aria-describedby="fill-why"' in full
    assert "“Fill to the limit” has nothing to add: the list is at its limit." in full
    (folder / "room.yaml").write_text(TITANS.replace("units:", "figures: 32\nunits:"), encoding="utf-8")
    room = server.get("/list/room.yaml").text
    assert '<button class="quiet" id="ask-fill">Fill to the limit</button>' in room and 'id="fill-why"' not in room


def test_setting_the_size_makes_it_legal(server: Server, folder: Path):
    (folder / "sized.yaml").write_text(TITANS, encoding="utf-8")
    fields = {"token": server.token(), "version": server.version("sized.yaml"), "change": "set", "key": "figures"}
    assert server.post("/list/sized.yaml/change", {**fields, "value": "31"}).status == 303
    page = server.get("/list/sized.yaml").text
    assert '<p class="verdict good" id="verdict">Legal</p>' in page and "no size agreed" not in page
    assert "figures: 31" in (folder / "sized.yaml").read_text(encoding="utf-8").splitlines()


def test_the_new_list_form_asks_for_the_size_where_there_is_no_standard_game(server: Server, folder: Path):
    page = server.get("/").text
    assert "the rule set&#39;s standard game" not in page.split('id="size-help"')[0]  # the old placeholder's promise
    assert '<option value="deathmelt" data-size="the figures agreed, e.g. 24" data-needs-size' in page
    assert (
        '<option value="might-skirmish" data-size="empty: 100 points">Might Skirmish (might-skirmish), 100 points'
        in page
    )
    help_text = re.search(r'<p class="muted small" id="size-help">(.*?)</p>', page, re.S)
    assert help_text and "Might Skirmish 100 points" in help_text.group(1)  # text 004, line 48
    assert "have no standard size: type the number of figures you and your opponent agreed" in help_text.group(1)
    assert 'aria-describedby="size-help"' in page
    token = server.token()
    refused = server.post("/new", {"token": token, "system": "deathmelt", "name": "Hive two", "limit": ""})
    assert refused.status == 400 and not (folder / "hive-two.yaml").exists()
    assert "Deathmelt has no standard size: a new list needs the size the players agreed" in refused.text
    assert "type the agreed size in the Size box" in refused.text
    assert '<option value="deathmelt"' in refused.text and 'value="Hive two"' in refused.text  # the form kept
    made = server.post("/new", {"token": token, "system": "deathmelt", "name": "Hive two", "limit": "24"})
    assert made.status == 303 and "figures: 24" in (folder / "hive-two.yaml").read_text(encoding="utf-8").splitlines()
    plain = server.post("/new", {"token": token, "system": "might-skirmish", "name": "Zeds", "limit": ""})
    assert plain.status == 303 and "points: 100" in (folder / "zeds.yaml").read_text(encoding="utf-8").splitlines()


# --- the lists page: delete asks first, deleted lists above, unreadable lists handled -------------


def test_delete_asks_first_and_deleted_lists_sit_above_the_lists(server: Server, folder: Path):
    (folder / "spare.yaml").write_bytes((EXAMPLES / "might-skirmish-windblade-elves.legal.yaml").read_bytes())
    card = _card(server.get("/").text, "spare.yaml")
    # the card's Delete opens a question; only its answer posts the deletion
    confirm = re.search(
        r'<details class="confirm">\s*<summary[^>]*>Delete<span class="sr-only"> Windblade Elves</span>'
        r'</summary>\s*<form method="post" action="/list/spare.yaml/delete"(.*?)</details>',
        card,
        re.S,
    )
    assert confirm, card
    assert "Delete Windblade Elves? It goes to “Deleted lists” above, where Restore brings it back." in confirm.group(1)
    assert '<button class="danger">Yes, delete<span class="sr-only"> Windblade Elves</span></button>' in confirm.group(
        1
    )
    assert card.count("/delete") == 1
    answer = server.post("/list/spare.yaml/delete", {"token": server.token()})
    assert answer.status == 303 and not (folder / "spare.yaml").exists()
    page = server.get(answer.headers["location"]).text
    assert "Deleted spare.yaml; Restore under “Deleted lists” brings it back" in page
    assert page.index('id="deleted-title"') < page.index('id="lists-title"')
    assert 'aria-label="Restore Windblade Elves"' in page


def test_a_list_that_cannot_be_read_can_be_downloaded_duplicated_and_deleted(server: Server, folder: Path):
    page = server.get("/").text
    card = _card(page, "typo.yaml")
    assert card.startswith('<li class="list-card broken">') and "Cannot be read" in card
    assert "did you mean &#39;Hunter&#39;?" in card
    assert str(folder) not in page and str(folder.resolve()) not in page  # never the server's own paths
    for label in ('aria-label="Download typo.yaml"', 'aria-label="Duplicate typo.yaml"'):
        assert label in card
    assert 'Delete<span class="sr-only"> typo.yaml</span>' in card
    download = server.get("/list/typo.yaml/download")
    assert download.status == 200 and download.body == TYPO.encode()
    assert download.headers["content-disposition"] == 'attachment; filename="typo.yaml"'
    # not UTF-8: cannot be read as a list, still downloaded as it is
    assert server.get("/list/latin1.yaml/download").body == "system: might-skirmish\nname: Caf\xe9\nunits: []\n".encode(
        "latin-1"
    )
    token = server.token()
    copied = server.post("/list/typo.yaml/duplicate", {"token": token})
    assert copied.status == 303 and (folder / "typo-copy.yaml").read_bytes() == TYPO.encode()  # byte for byte
    assert server.post("/list/typo-copy.yaml/delete", {"token": token}).status == 303
    assert not (folder / "typo-copy.yaml").exists()
    assert server.get("/list/nothing.yaml/download").status == 404
    assert server.get("/list/..%2Fsecret.yaml/download").status in (400, 404)


def test_a_readable_list_downloads_as_its_file(server: Server, folder: Path):
    answer = server.get("/list/zombies.yaml/download")
    assert answer.status == 200 and answer.body == (folder / "zombies.yaml").read_bytes()
    assert 'aria-label="Download Zombie Family"' in _card(server.get("/").text, "zombies.yaml")


def test_the_play_and_compare_pages_say_no_size_agreed(server: Server):
    play = server.get("/list/titans.yaml/play").text
    assert '<p class="message pending" id="play-verdict"><b>No size agreed</b> · Deathmelt has no standard size' in play
    assert '<a href="/list/titans.yaml#list-limit">set it in the builder</a>' in play
    assert 'id="play-verdict"' not in server.get("/list/hive.yaml/play").text  # 22 of 24: legal, nothing to say
    compare = server.get("/list/titans.yaml/compare?with=zombies.yaml").text
    assert '<span class="verdict small pending">No size agreed</span> 31 figures (11 figures on the table)' in compare
    assert '<span class="verdict small good">Legal</span> 98 of 100 points, 14 fighters' in compare
