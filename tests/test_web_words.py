"""No page or message of the web builder names a command, an option or a placeholder to type.

The engine names next steps (``errors.Action``) and each face words them; the web's words are in
``web/hints.py``. Every page is rendered here for every example list and an empty list of every
rule set, and every message a form can bring back, and searched for what only a shell could take.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from asgiclient import Client
from conftest import EXAMPLES

from listbuilder.api import rulesets
from listbuilder.errors import ACTIONS, Action, ErrorDetail, InputError
from listbuilder.web import create_app
from listbuilder.web.hints import WORDS, error_text, hint

# "listbuilder add", "--type", "-o", "FILE", "SYSTEM"...: what the command line would say.
SHELL = re.compile(r"\blistbuilder [a-z]|(?<![\w!-])--?[a-z]+\b(?! ?[-\w]*\))|\b(FILE|SYSTEM|UNIT|DIR|STAT|VALUE)\b")
TOKEN = "words-test-token"
PAGE = {"sec-fetch-site": "same-origin"}
SYSTEMS = [s.id for s in rulesets.open_catalogs().all()]


def _shell_words(text: str) -> list[str]:
    visible = re.sub(r"<(script|style)\b.*?</\1>|<!--.*?-->", "", text, flags=re.S)
    visible = re.sub(
        r'\s(class|id|href|action|hx-[a-z]+|for|name|src|rel|type|content|aria-labelledby)="[^"]*"', "", visible
    )
    return [visible[max(0, m.start() - 60) : m.end() + 40] for m in SHELL.finditer(visible)]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("words")
    for example in EXAMPLES.glob("*.yaml"):
        shutil.copy(example, root / example.name)
    for system in SYSTEMS:
        (root / f"empty-{system}.yaml").write_text(f"system: {system}\nname: Empty {system}\nunits: []\n")
    return root


@pytest.fixture(scope="module")
def client(folder: Path) -> Client:
    return Client(create_app(folder, token=TOKEN))


def test_the_pattern_finds_what_a_shell_would_take():
    for said in ("add some with 'listbuilder add FILE UNIT'", "give --type Rifle", "e.g. -o my.yaml", "the FILE"):
        assert _shell_words(said), said
    for fine in ("exported by listbuilder.", "listbuilder 0.1.0", "2-for-1", "one-model entry", "well - said"):
        assert not _shell_words(fine), fine


def test_every_next_step_has_the_webs_words():
    assert set(WORDS) == set(ACTIONS)
    for kind in ACTIONS:
        words = hint(Action(kind=kind, system="deathzap", example=(("unit", "Ranger"), ("type", "Rifle"))))
        assert words and not _shell_words(words), (kind, words)
    assert (
        hint(Action(kind="price-unit", example=(("unit", "Ranger"),))) == "Ranger is in the catalog: add it from there"
    )
    assert hint(None) == ""


def test_an_error_says_the_webs_next_step():
    exc = InputError("no models", details=[ErrorDetail(message="no fighters yet", action=Action(kind="add"))])
    assert error_text(exc) == "no models\n  no fighters yet (add some from the catalog)"


def _pages(folder: Path) -> list[str]:
    paths = ["/"] + [f"/card/{s}" for s in SYSTEMS]
    for file in sorted(p.name for p in folder.glob("*.yaml")):
        base = f"/list/{file}"
        paths += [base, f"{base}/doctor?doctor=fix", f"{base}/doctor?doctor=fill", f"{base}/share", f"{base}/play"]
        paths += [f"{base}/compare"]
    return paths


def test_no_page_names_a_command(client: Client, folder: Path):
    found = {}
    for path in _pages(folder):
        answer = client.get(path)
        assert answer.status == 200, (path, answer.status)
        if _shell_words(answer.text):
            found[path] = _shell_words(answer.text)
    assert found == {}


@pytest.mark.parametrize("system", SYSTEMS)
def test_no_message_names_a_command(client: Client, system: str):
    file = f"empty-{system}.yaml"
    forms = [
        (f"/list/{file}/change", {"change": "custom"}),  # no stats at all
        (f"/list/{file}/change", {"change": "custom", "name": "Odd", **{k: "x" for k in ("might", "speed", "move")}}),
        (f"/list/{file}/change", {"change": "add", "unit": "Nobody At All"}),
        (f"/list/{file}/change", {"change": "set", "key": "points", "value": "lots"}),
        (f"/list/{file}/change", {"change": "fill", "suggestion": "0"}),
        (f"/list/{file}/change", {"change": "dance"}),
        (f"/list/{file}/price", {"name": "Odd"}),
        ("/new", {"system": system, "name": "!!!"}),
        ("/new", {"system": "no-such-game", "name": "X"}),
        ("/import", {"text": f"Nonsense ({system})\n- 2 Nobody"}),
    ]
    for htmx in (False, True):
        headers = {**PAGE, "hx-request": "true", "hx-target": "price"} if htmx else PAGE
        for path, fields in forms:
            page = client.get(f"/list/{file}").text  # a fill may have changed the list: its version now
            version = re.search(r'name="version" value="([0-9a-f]{16})"', page).group(1)  # type: ignore[union-attr]
            answer = client.post(path, {"token": TOKEN, "version": version, **fields}, headers)
            assert answer.status in (200, 303, 400, 404), (path, fields, answer.status)
            assert _shell_words(answer.text) == [], (path, fields)
    doctor = client.get(f"/list/{file}/doctor?doctor=fill").text  # an empty list without a limit
    assert _shell_words(doctor) == []


def test_a_list_changed_on_disk_is_said_once_in_words(client: Client, folder: Path):
    file = folder / "might-skirmish-zombie-family.legal.yaml"
    page = client.get(f"/list/{file.name}").text
    version = re.search(r'name="version" value="([0-9a-f]{16})"', page).group(1)  # type: ignore[union-attr]
    file.write_text(file.read_text() + "\n")  # the shell changed it
    fields = {"token": TOKEN, "version": version, "change": "add", "unit": "Hunter"}
    answer = client.post(f"/list/{file.name}/change", fields, {**PAGE, "hx-request": "true"})
    assert answer.status == 409
    message = re.search(r'<div class="message conflict" role="alert">(.*?)</div>', answer.text, re.S).group(1)  # type: ignore[union-attr]
    assert "<pre" not in message and message.count("changed on disk") == 1
    assert "The list changed on disk since this page was loaded, so your change was not made." in message


def test_the_doctor_says_the_webs_next_step(client: Client, folder: Path):
    """Filling a list of a rule set without a standard size, and no limit of its own."""
    answer = client.get("/list/empty-deathzap.yaml/doctor?doctor=fill").text
    assert "this list has no limit to fill to" in answer
    assert "(set the list&#39;s limit under “Name and limit”)" in answer


ONE_MANY = re.compile(r"(?<![\d,.])[−+-]?1 (figures|points|fighters|models|warriors|units|entries|leaders)\b")


def test_one_of_anything_is_said_in_the_singular_on_every_page(client: Client, folder: Path):
    """ "1 figures" nowhere: the builder, the lists page, compare (the diff), play, the cards."""
    by_system: dict[str, list[str]] = {}
    for file in sorted(p.name for p in folder.glob("*.yaml")):
        by_system.setdefault(yaml_system(folder / file), []).append(file)
    paths = _pages(folder)
    for files in by_system.values():
        paths += [f"/list/{a}/compare?with={b}" for a in files for b in files if a != b]
    found = {}
    for path in paths:
        visible = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", client.get(path).text))
        if ONE_MANY.search(visible):
            found[path] = [visible[max(0, m.start() - 50) : m.end()] for m in ONE_MANY.finditer(visible)]
    assert found == {}


def yaml_system(path: Path) -> str:
    return re.search(r"^system: *(\S+)", path.read_text(), re.M).group(1)  # type: ignore[union-attr]


def test_the_price_as_you_type_waits_for_a_stat_before_it_says_what_is_missing(client: Client):
    file = "empty-might-skirmish.yaml"
    htmx = {**PAGE, "hx-request": "true", "hx-target": "price"}

    def price(**fields: str) -> str:
        return client.post(f"/list/{file}/price", {"token": TOKEN, **fields}, htmx).text

    assert "Type its stats" in price(name="Odd") and "located" not in price(name="Odd")  # only a name typed
    missing = price(name="Odd", preview="1")  # "Price it" pressed: the missing stats are said
    assert 'class="located"' in missing and "Type its stats" not in missing
    assert "Type its stats" not in price(name="Odd", might="5")  # a stat typed: priced (or said why not)
