"""Every number a web page is sent is read with a bound: a query's index, a form's count or stat,
a request's length. ``int()`` of more than 4,300 digits raises ValueError (a 500), and a count of
4,000 digits was written to the list; a digit such as '²' passes ``str.isdigit`` and fails ``int``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from asgiclient import Client
from conftest import EXAMPLES

from listbuilder.errors import InputError
from listbuilder.web import create_app
from listbuilder.web.forms import MAX_DIGITS, index, number, stats_of, whole

TOKEN = "token-of-the-numbers-test-0123456789"
PAGE = {"sec-fetch-site": "same-origin"}
HTMX = {**PAGE, "hx-request": "true"}
LIST = "zombies.yaml"
HUGE = "9" * 4301  # one digit past what int() reads
LONG = "9" * 4000  # int() reads it: a count that made a list's total nearly too long to print
SUPERSCRIPT = "²"  # str.isdigit() says yes, int() says no
SUPERSCRIPT_Q = "%C2%B2"  # as a query sends it


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / LIST).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    (tmp_path / "elves.yaml").write_bytes((EXAMPLES / "might-skirmish-windblade-elves.legal.yaml").read_bytes())
    return tmp_path


@pytest.fixture
def client(folder: Path) -> Client:
    return Client(create_app(folder, token=TOKEN))


def _version(client: Client) -> str:
    found = re.search(r'name="version" value="([0-9a-f]{16})"', client.get(f"/list/{LIST}", PAGE).text)
    assert found
    return found.group(1)


def _alert(page: str) -> str:
    found = re.search(r'role="alert">\s*(?:<pre>)?([^<]*)', page)
    assert found, "the page says nothing is wrong"
    return found.group(1).strip()


# --- a query's index: past the bound, no index, as a word there is ------------------------------


@pytest.mark.parametrize("at", [HUGE, SUPERSCRIPT_Q, "x"])
def test_the_entry_to_scroll_to_is_only_a_hint(client: Client, at: str):
    page = client.get(f"/list/{LIST}?at={at}", PAGE)
    assert page.status == 200 and "Zombie Family" in page.text


@pytest.mark.parametrize("entry", [HUGE, SUPERSCRIPT_Q, "1" + "0" * MAX_DIGITS])
def test_a_rules_link_to_an_entry_past_the_bound_is_no_entry(client: Client, entry: str):
    for headers in (PAGE, HTMX):
        page = client.get(f"/list/{LIST}/rules?entry={entry}", headers)
        assert page.status == 404
        assert "The list has no entry of that number: it has 8. Reload the list." in page.text
    assert "The list has no entry 10: it has 8." in client.get(f"/list/{LIST}/rules?entry=9", PAGE).text


@pytest.mark.parametrize("edit", [HUGE, SUPERSCRIPT_Q, "abc", "0", "99"])
def test_the_custom_form_for_what_is_no_custom_entry_is_the_empty_form(client: Client, edit: str):
    # (any of these was a 500 for the part htmx asks for: the template's pricing was not given)
    for headers in (PAGE, HTMX):
        part = client.get(f"/list/{LIST}/custom?edit={edit}", headers)
        assert part.status == 200 and "Make your own unit" in part.text
    assert client.get(f"/list/{LIST}?edit={edit}", PAGE).status == 200


@pytest.mark.parametrize("target", [HUGE, SUPERSCRIPT_Q])
def test_odds_against_a_unit_past_the_bound_ask_to_choose_one(client: Client, target: str):
    page = client.get(f"/list/{LIST}/play/odds?attacker=1&against=elves.yaml%23{target}", PAGE)
    assert page.status == 200
    assert _alert(page.text) == "choose the unit to attack"


# --- a form's number: past the bound, a 400 that says so --------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("count", HUGE, "the count must be a whole number of at most 9 digits, found one of 4,301 digits"),
        ("count", LONG, "the count must be a whole number of at most 9 digits, found one of 4,000 digits"),
        ("count", "x" * 5000, "the count must be a whole number, found '" + "x" * 40 + "…'"),
        ("index", HUGE, "the entry must be a whole number of at most 9 digits, found one of 4,301 digits"),
    ],
)
def test_a_change_with_a_number_past_the_bound_is_refused(
    client: Client, folder: Path, field: str, value: str, words: str
):
    before = (folder / LIST).read_bytes()
    fields = {"token": TOKEN, "version": _version(client), "change": "count", "index": "0", "count": "2"}
    answer = client.post(f"/list/{LIST}/change", {**fields, field: value}, PAGE)
    assert answer.status == 400
    assert _alert(answer.text) == words.replace("'", "&#39;")
    assert (folder / LIST).read_bytes() == before


def test_a_custom_unit_with_a_stat_past_the_bound_is_not_priced(client: Client):
    asked = client.post(f"/list/{LIST}/price", {"token": TOKEN, "name": "Big", "might": HUGE}, PAGE)
    assert asked.status == 303
    page = client.get(asked.headers["location"], PAGE)
    assert page.status == 200
    assert "Might must be a whole number of at most 9 digits, found one of 4,301 digits" in page.text


def test_a_new_list_with_a_limit_past_the_bound_is_refused(client: Client, folder: Path):
    answer = client.post("/new", {"token": TOKEN, "system": "might-skirmish", "name": "Big", "limit": HUGE}, PAGE)
    assert answer.status == 400
    assert "the limit must be a whole number of at most 9 digits, found one of 4,301 digits" in answer.text
    assert sorted(p.name for p in folder.glob("*.yaml")) == ["elves.yaml", LIST]


def test_a_loadout_count_past_the_bound_is_refused(catalogs):
    system = catalogs.get("deathzap")
    fields = {"name": ["V"], "figures": ["4"], "type": ["Infantry"], "weapons": [""], "weapons:Rifle": [HUGE]}
    with pytest.raises(InputError) as raised:
        stats_of(system, fields)
    words = "the figures carrying Rifle must be a whole number of at most 9 digits, found one of 4,301 digits"
    assert words in raised.value.render()


def test_a_request_length_past_any_bound_is_too_large(client: Client):
    for length in (HUGE, SUPERSCRIPT, "1" * 16):
        answer = client.request("POST", f"/list/{LIST}/change", b"", {**PAGE, "content-length": length})
        assert (answer.status, answer.text) == (413, "A request may carry at most 1,048,576 bytes.\n")


# --- the readers themselves -------------------------------------------------------------------


def test_the_readers_take_what_int_takes_up_to_the_bound():
    assert whole(" 12 ") == 12 and whole("-3") == -3 and whole("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    assert whole("9" * (MAX_DIGITS + 1)) is None and whole(HUGE) is None and whole(SUPERSCRIPT) is None
    assert number("", "the count") is None and number("7", "the count") == 7
    assert index("3") == 3 and index("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    for word in ("", "-1", " 3", SUPERSCRIPT, "٣", "9" * (MAX_DIGITS + 1)):
        assert index(word) is None, word
