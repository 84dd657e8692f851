"""The pocket copy from the builder: "Pocket copy" on a list's print-and-share page, over HTTP
against a real server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import EXAMPLES
from webserver import Server

ZOMBIES = "zombies.yaml"
ELVES = "elves.yaml"
MASH = "mash.yaml"
MARINES = "marines.yaml"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pocket-web")
    for name, source in {
        ZOMBIES: "might-skirmish-zombie-family.legal.yaml",
        ELVES: "might-skirmish-windblade-elves.legal.yaml",
        MASH: "might-skirmish-monster-mash.illegal.yaml",
        MARINES: "deathmelt-colonial-marines.legal.yaml",
    }.items():
        (root / name).write_bytes((EXAMPLES / source).read_bytes())
    return root


def test_the_share_page_offers_a_pocket_copy_with_the_same_rule_sets_lists(server: Server):
    page = server.get(f"/list/{ZOMBIES}/share").text
    form = page[page.index('id="pocket-title"') :]
    form = form[: form.index("</form>")]
    assert f'action="/list/{ZOMBIES}/pocket"' in form
    offered = re.findall(r'name="vs" value="([^"]+)"', form)
    assert sorted(offered) == [ELVES, MASH]  # the might-skirmish lists, not itself, not the deathmelt one


def test_the_pocket_copy_downloads_with_the_chosen_opponents(server: Server, folder: Path):
    before = {p.name: p.read_bytes() for p in folder.glob("*.yaml")}
    answer = server.get(f"/list/{ZOMBIES}/pocket?vs={ELVES}&vs={MASH}")
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert 'attachment; filename="zombies-pocket.html"' in answer.headers["content-disposition"]
    html = answer.text
    assert "Zombie Family against Windblade Elves" in html and "Zombie Family against Monster Mash" in html
    board = json.loads(re.search(r'id="pocket-data">(.*?)</script>', html, re.S).group(1))
    assert board["name"] == "Zombie Family" and len(board["pieces"]) == 14
    assert {p.name: p.read_bytes() for p in folder.glob("*.yaml")} == before  # nothing written


@pytest.mark.parametrize(
    ("query", "status", "said"),
    [
        (f"vs={MARINES}", 400, "odds compare lists of one rule set"),
        ("vs=nope.yaml", 404, "nope.yaml"),
        ("vs=../outside.yaml", 404, ""),
        ("&".join(f"vs=x{i}.yaml" for i in range(5)), 400, "at most 4 opponents"),
    ],
)
def test_a_wrong_opponent_is_refused_by_name(server: Server, query: str, status: int, said: str):
    answer = server.get(f"/list/{ZOMBIES}/pocket?{query}")
    assert answer.status == status
    assert "Traceback" not in answer.text and "pocket-data" not in answer.text
    if said:
        assert said in answer.text


def test_a_list_that_is_not_legal_makes_a_pocket_copy_under_its_banner(server: Server):
    answer = server.get(f"/list/{MASH}/pocket")
    assert answer.status == 200 and "Not legal" in answer.text
