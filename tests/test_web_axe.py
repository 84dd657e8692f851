"""axe-core on every page the web builder has, in Chromium at a phone's width (390 px) and a desktop's
(1280 px), in the light and the dark colour scheme: no serious or critical violation anywhere.

axe-core comes from npm's global folder (``npm install -g axe-core``, as ``.ci/run`` does); without
it these tests skip, unless ``LISTBUILDER_REQUIRE_BROWSER=1``, which makes them fail."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe import serious_violations
from conftest import EXAMPLES
from webserver import Server, start

pytestmark = pytest.mark.axe

# One list of each rule set (a legal one and, for might-skirmish and deathmelt, one that breaks a rule).
LISTS = {
    "zombies.yaml": "might-skirmish-zombie-family.legal.yaml",
    "elves.yaml": "might-skirmish-windblade-elves.legal.yaml",
    "monsters.yaml": "might-skirmish-monster-mash.illegal.yaml",
    "clan.yaml": "might-skirmish-150-zombie-clan.legal.yaml",
    "marines.yaml": "deathmelt-colonial-marines.legal.yaml",
    "queens.yaml": "deathmelt-two-queens.illegal.yaml",
    "rangers.yaml": "deathzap-frontier-rangers.legal.yaml",
    "legion.yaml": "melee-module-foreign-legion.legal.yaml",
    "camels.yaml": "speed-range-power-camel-corps.legal.yaml",
}
PAGES = [
    "/",
    *(f"/list/{name}" for name in LISTS),
    "/list/monsters.yaml?doctor=fix",
    "/list/zombies.yaml/share",
    "/list/zombies.yaml/compare?with=elves.yaml",
    "/list/marines.yaml/compare?with=queens.yaml",
    "/card/might-skirmish",
    "/card/deathmelt",
    "/card/speed-range-power",
    "/list/zombies.yaml/play",
    "/list/marines.yaml/play",
    "/list/zombies.yaml/play/odds?attacker=Hunter+1&against=elves.yaml%230&attack=ranged",
    "/nowhere",
    "/list/broken.yaml",
    "restarted",  # a change posted from a page of an earlier run of the server: see _open
    "/list/zombies.yaml/play?restarted=1",
    "/list/history.yaml",  # undo and redo each show a count of steps
    "/list/zombies.yaml/rules?entry=0",  # a unit's rules on a page (the builder's link without JavaScript)
]
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("axe")
    for name, source in LISTS.items():
        (folder / name).write_bytes((EXAMPLES / source).read_bytes())
    (folder / "broken.yaml").write_text("system: might-skirmish\nname: B\nunits:\n  - unit: Huntr\n", encoding="utf-8")
    from listbuilder.api import editing, folders, play, rulesets

    catalogs = rulesets.open_catalogs(None)
    play.start_game(folder, "zombies.yaml", catalogs)
    play.start_game(folder, "marines.yaml", catalogs)
    (folder / "history.yaml").write_bytes((EXAMPLES / LISTS["zombies.yaml"]).read_bytes())
    for change in (editing.AddUnit(unit="Hunter", count=1), editing.AddUnit(unit="Shambler", count=1), editing.Undo()):
        folders.change_list(folder, "history.yaml", catalogs, change)
    s = start(folder)
    yield s
    s.stop()


@pytest.fixture(scope="module", params=["light", "dark"])
def scheme(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module", params=list(WIDTHS))
def context(request: pytest.FixtureRequest, browser: Any, scheme: str) -> Iterator[Any]:
    width, height = WIDTHS[request.param]
    # bypass_csp: the page's policy lets only its own scripts run, and axe is injected
    made = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme, bypass_csp=True)
    yield made
    made.close()


def _open(page: Any, server: Server, path: str) -> None:
    if path != "restarted":
        page.goto(server.url + path)
        return
    page.goto(server.url + "/")
    with page.expect_navigation():
        page.evaluate(
            """() => { const f = document.createElement('form'); f.method = 'post'; f.action = '/new';
            f.innerHTML = '<input name="token" value="old"><input name="system" value="might-skirmish">';
            document.body.append(f); f.submit(); }"""
        )
    # a browser is sent back to the page, which says the change was not made
    assert page.url.endswith("/?restarted=1") and "so that change was not made" in page.content()


@pytest.mark.parametrize("path", PAGES)
def test_no_serious_violation(context: Any, server: Server, scheme: str, path: str):
    page = context.new_page()
    try:
        _open(page, server, path)
        assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") is (scheme == "dark")
        assert serious_violations(page) == []
    finally:
        page.close()
