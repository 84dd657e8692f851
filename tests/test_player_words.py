"""The web builder in the player's words, as a player met it over HTTP (issue 31, items 7 and 8).

Each test is one thing a player saw that spoke YAML, the command line or an id instead: a custom
unit's loadout, a limit, the odds' situation, the play log, the play page's verdict and odds form.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import EXAMPLES
from webserver import Server

ZOMBIES = "zombies.yaml"
ELVES = "elves.yaml"
MASH = "mash.yaml"
MARINES = "marines.yaml"
HIVE = "hive.yaml"
RANGERS = "rangers.yaml"
HTMX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("player-words")
    for name, source in (
        (ZOMBIES, "might-skirmish-zombie-family.legal.yaml"),
        (ELVES, "might-skirmish-windblade-elves.legal.yaml"),
        (MASH, "might-skirmish-monster-mash.illegal.yaml"),
        (MARINES, "deathmelt-colonial-marines.legal.yaml"),
        (HIVE, "deathmelt-chitter-hive.legal.yaml"),
        (RANGERS, "deathzap-frontier-rangers.legal.yaml"),
    ):
        (root / name).write_bytes((EXAMPLES / source).read_bytes())
    return root


def visible(html: str) -> str:
    """The page's text as a reader sees it: no tags, no scripts, whitespace as one space."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    return " ".join(text.replace("&#39;", "'").replace("&quot;", '"').replace("&amp;", "&").split())


def play(file: str) -> str:
    return f"/list/{quote(file)}/play"


def started(server: Server, file: str) -> str:
    answer = server.post(play(file) + "/tap", {"token": server.token(), "tap": "start"})
    assert answer.status == 303
    found = re.search(r"game=(\d+)", answer.headers["location"])
    assert found
    return found.group(1)


# --- item 7: the odds' situation, the play log --------------------------------------------------


def test_the_odds_say_their_situation_in_the_forms_words_not_as_option_words(server: Server):
    # might-skirmish: Hunter's ranged attack on the Windblade through partial cover (004 lines 27-37)
    query = f"attacker=Hunter+1&against={ELVES}%230&attack=ranged&cover=partial&defending=on"
    page = server.get(play(ZOMBIES) + f"/odds?{query}", headers=HTMX).text
    said = re.search(r'<span class="muted">\((.*?)\)</span>', page)
    assert said, page
    assert said.group(1).endswith(": attack ranged, cover partial, defending")
    assert "=" not in said.group(1)


def test_the_play_log_names_a_roll_by_its_title_never_its_id(server: Server):
    game = started(server, MARINES)
    url = play(MARINES) + "/tap"
    fields = {"token": server.token(), "game": game, "tap": "roll", "roll": "objectives-1", "faces": "2"}
    answer = server.post(url, fields)
    assert answer.status == 303
    assert "done=Rolled+Objective+1+%28advanced+game%29%3A+2%3A+Assassinate" in answer.headers["location"]
    page = visible(server.get(play(MARINES) + f"?game={game}").text)
    # deathmelt's roll 'objectives-1' is titled "Objective 1 (advanced game)"; a 2 is Assassinate (lines 111-113)
    assert "Rolled Objective 1 (advanced game): 2: Assassinate" in page
    assert "objectives-1" not in page.split("Log")[-1]
    undone = server.post(url, {"token": server.token(), "game": game, "tap": "undo"})
    assert "done=Undone%3A+Rolled+Objective+1" in undone.headers["location"]


# --- item 8: the play page ----------------------------------------------------------------------


def test_the_play_page_says_a_list_is_not_legal(server: Server):
    page = server.get(play(MASH)).text
    said = re.search(r'<p class="message error" id="play-verdict">(.*?)</p>', page)
    assert said, page
    # Monster Mash: 114 of 100 points, 3 basic fighters of the 5 needed, 3 rare fighters of 2 (004 lines 48-52)
    assert visible(said.group(1)).startswith("NOT LEGAL · 3 problems: 14 points over the 100-point limit")
    assert f'href="/list/{MASH}#problems">See them in the builder</a>' in said.group(1)
    assert 'id="play-verdict"' not in server.get(play(ZOMBIES)).text  # a legal list: no such line


def test_the_odds_form_offers_no_dead_model_as_an_attacker(server: Server):
    game = started(server, ZOMBIES)
    form = {"token": server.token(), "game": game, "do": "mark|Dead|Hunter 2"}
    assert server.post(play(ZOMBIES) + "/tap", form).status == 303

    def attackers(query: str) -> list[str]:
        page = server.get(play(ZOMBIES) + f"/odds{query}").text
        select = re.search(r'<select name="attacker">(.*?)</select>', page, re.S)
        assert select, page
        return re.findall(r"<option[^>]*>([^<]+)</option>", select.group(1))

    for query in (f"?game={game}", ""):  # the game asked for, and by default the latest
        offered = attackers(query)
        assert "Hunter 2" not in offered and "Hunter 1" in offered
    assert server.post(play(ZOMBIES) + "/tap", {"token": server.token(), "game": game, "tap": "undo"}).status == 303
    assert "Hunter 2" in attackers(f"?game={game}")  # alive again


def test_the_odds_form_puts_the_players_own_list_last(server: Server):
    page = server.get(play(ZOMBIES) + "/odds").text
    groups = re.findall(r'<optgroup label="[^"]*\(([^)]+)\)">', page)
    assert groups[-1] == ZOMBIES and sorted(groups[:-1]) == [ELVES, MASH]
