"""What a change answers, over HTTP against a real server: with htmx, only the builder's parts it can
alter (swapped in by id, out of band), never the catalog; without it, a redirect to the whole page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import EXAMPLES
from webserver import Server

ELVES = "elves.yaml"
HTMX = {"HX-Request": "true"}
# The parts every change sends (builder.PARTS), by the id each has in the page.
EVERY = ["status", "messages", "list-head", "problems", "history", "doctor", "entries", "tally-bar", "page-version"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("changes")


@pytest.fixture
def elves(folder: Path) -> str:
    (folder / ELVES).write_bytes((EXAMPLES / "might-skirmish-windblade-elves.legal.yaml").read_bytes())
    return ELVES


class _Tops(HTMLParser):
    """The top-level elements of an HTML fragment: (id, attributes) of each."""

    VOID = frozenset({"input", "br", "img", "meta", "link", "hr"})

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.tops: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth == 0:
            self.tops.append(dict(attrs))
        if tag not in self.VOID:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID:
            self.depth -= 1


def _swapped(html: str) -> list[str]:
    """The ids of the answer's top-level elements, each of which must be swapped out of band."""
    parser = _Tops()
    parser.feed(html)
    assert parser.depth == 0
    assert all(top.get("hx-swap-oob") == "true" for top in parser.tops), parser.tops
    return [str(top.get("id")) for top in parser.tops]


def _post(server: Server, file: str, fields: dict[str, str], htmx: bool = True, what: str = "change") -> tuple:
    fields = {"token": server.token(), "version": server.version(file), **fields}
    answer = server.post(f"/list/{file}/{what}", fields, headers=HTMX if htmx else None)
    return answer.status, answer.text, answer.headers


def test_a_count_change_answers_with_the_parts_it_alters_and_not_the_catalog(server: Server, elves: str):
    status, html, _ = _post(server, elves, {"change": "count", "index": "0", "count": "5"})
    assert status == 200
    assert _swapped(html) == EVERY
    assert 'id="catalog"' not in html and "Add Gale Sniper" not in html
    assert '<p class="total" id="total"><b>106</b> / 100 points</p>' in html
    assert "Windblade: 5 now" in html and "6 points over the 100-point limit (106 of 100)" in html
    version = re.search(r'id="page-version" name="version" value="([0-9a-f]{16})"', html)
    assert version and version.group(1) == server.version(elves)


def test_each_form_part_comes_back_only_with_its_own_change(server: Server, elves: str):
    _, renamed, _ = _post(server, elves, {"change": "set", "key": "name", "value": "Gale Riders"})
    assert _swapped(renamed) == [*EVERY[:-1], "settings", "page-version"]
    assert '<details class="panel-part" id="settings" open hx-swap-oob="true">' in renamed
    assert 'id="list-name" name="value" value="Gale Riders"' in renamed
    fields = {"change": "custom", "name": "Scout", "class": "Soldier", "might": "3"}
    _, custom, _ = _post(server, elves, fields)
    assert _swapped(custom) == [*EVERY[:-1], "custom", "page-version"]


def test_an_error_keeps_the_custom_unit_typed_and_a_conflict_sends_every_part(server: Server, elves: str):
    status, html, _ = _post(server, elves, {"change": "custom", "name": "Odd", "might": "many"})
    assert status == 400 and _swapped(html)[-2:] == ["custom", "page-version"]
    assert "might must be a whole number, found &#39;many&#39;" in html.lower()
    assert 'value="Odd"' in html and 'value="many"' in html
    fields = {"token": server.token(), "version": "0" * 16, "change": "count", "index": "0", "count": "9"}
    answer = server.post(f"/list/{elves}/change", fields, headers=HTMX)
    assert answer.status == 409
    assert _swapped(answer.text) == [*EVERY[:-1], "settings", "custom", "page-version"]
    assert "The list changed on disk since this page was loaded, so your change was not made." in answer.text


def test_undo_answers_with_the_parts(server: Server, elves: str):
    _post(server, elves, {"change": "count", "index": "0", "count": "5"})
    status, html, _ = _post(server, elves, {}, what="undo")
    assert status == 200 and _swapped(html) == EVERY and "Undone" in html
    assert '<p class="total" id="total"><b>99</b> / 100 points</p>' in html


def test_without_javascript_a_change_redirects_to_the_whole_page(server: Server, elves: str):
    status, _, headers = _post(server, elves, {"change": "add", "unit": "Gale Sniper"}, htmx=False)
    assert status == 303 and headers["location"].startswith(f"/list/{elves}?done=")
    page = server.get(headers["location"]).text
    assert 'id="catalog"' in page and "added 1 Gale Sniper" in page
    assert re.search(r"2×</span> <a [^>]*>Gale Sniper</a>", page)  # its name links to its rules


def test_the_catalog_is_one_form_whose_buttons_name_their_unit(server: Server, elves: str):
    page = server.get(f"/list/{elves}").text
    catalog = page[page.index('<div id="catalog"') :]
    assert catalog.count("<form ") == 1
    buttons = re.findall(r'<button class="add" name="unit" value="([^"]+)"[^>]*aria-label="Add ([^"]+)"', catalog)
    assert len(buttons) == 16 and all(value == label for value, label in buttons)
    assert ("Gale Sniper", "Gale Sniper") in buttons


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"change": "count", "index": "0", "count": "five"}, "the count must be a whole number, found &#39;five&#39;"),
        (
            {"change": "count", "index": "first", "count": "2"},
            "the entry must be a whole number, found &#39;first&#39;",
        ),
        (
            {"change": "leaders", "index": "0", "leaders": "all"},
            "the number of leaders must be a whole number, found &#39;all&#39;",
        ),
        ({"change": "fix", "suggestion": "best"}, "the suggestion must be a whole number, found &#39;best&#39;"),
        (
            {"change": "add", "unit": "Windblade", "count": "2.5"},
            "the count must be a whole number, found &#39;2.5&#39;",
        ),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_with_a_page_that_says_so(server: Server, elves: str, fields, message):
    # A form's values are read at the edge (web/forms.py): none reaches the library unparsed.
    before = server.version(elves)
    for htmx in (True, False):
        status, html, _ = _post(server, elves, fields, htmx=htmx)
        assert status == 400 and message in html, (status, html[:300])
    assert server.version(elves) == before


def test_a_new_list_whose_limit_is_no_number_is_refused_with_the_lists_page(server: Server, folder: Path):
    before = sorted(p.name for p in folder.iterdir())
    fields = {"token": server.token(), "system": "might-skirmish", "name": "Odd", "limit": "lots"}
    answer = server.post("/new", fields)
    assert answer.status == 400 and "the limit must be a whole number, found &#39;lots&#39;" in answer.text
    assert sorted(p.name for p in folder.iterdir()) == before
