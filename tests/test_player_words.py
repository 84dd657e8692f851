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


@pytest.mark.parametrize(
    ("situation", "said"),
    [
        # might-skirmish: Hunter's ranged attack on the Windblade through partial cover (004 lines 27-37)
        ("attack=ranged&cover=partial", "Ranged attack: cover partial"),
        ("attack=melee&defending=on", "Melee attack: defending"),
    ],
)
def test_the_odds_say_their_situation_in_the_forms_words_not_as_option_words(server: Server, situation, said):
    query = f"attacker=Hunter+1&against={ELVES}%230&{situation}"
    page = server.get(play(ZOMBIES) + f"/odds?{query}", headers=HTMX).text
    shown = re.search(r'<span class="muted">\((.*?)\)</span>', page)
    assert shown, page
    assert shown.group(1) == said


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


# --- item 7: the custom unit form, the limit ----------------------------------------------------


def _priced(server: Server, file: str, fields: list[tuple[str, str]]) -> str:
    """The custom unit form priced without JavaScript: posted, then the builder page it comes back to."""
    sent = [("token", server.token()), ("version", server.version(file)), ("preview", "1"), *fields]
    answer = server.post(f"/list/{quote(file)}/price", sent)
    assert answer.status == 303
    return server.get(answer.headers["location"].split("#")[0]).text


def _price_said(page: str) -> str:
    found = re.search(r'<div id="price"[^>]*>(.*?)</div>\s*<div class="buttons">', page, re.S)
    assert found, page
    return visible(found.group(1))


SQUAD = [("name", "Fire Team"), ("type", "Infantry")]


def test_a_loadout_short_of_its_figures_is_explained_by_the_forms_ticks(server: Server):
    # four figures, two of them with a rifle (deathzap's ruling one-weapon-each: lines 3-9)
    fields = [*SQUAD, ("figures", "4"), ("weapons", "Rifle"), ("weapons:Rifle", "2")]
    said = _price_said(_priced(server, RANGERS, fields))
    assert "Fire Team: the unit has 4 figures, but its weapons are carried by 2x Rifle = 2" in said
    assert "make the figures that carry none a unit of their own, with no weapons ticked" in said
    assert "weapons: []" not in said and "e.g." not in said and "joined by +" not in said
    assert "type each of its stats in the form" in said


def test_a_loadout_past_its_figures_is_explained_by_the_forms_ticks(server: Server):
    fields = [*SQUAD, ("figures", "2"), ("weapons", "Rifle"), ("weapons", "Repeater")]
    said = _price_said(_priced(server, RANGERS, [*fields, ("weapons:Rifle", "2"), ("weapons:Repeater", "2")]))
    assert "carried by 2x Rifle + 2x Repeater = 4" in said
    assert "make the figures that carry both a unit of their own, with Rifle and Repeater ticked" in said
    assert "weapons: [" not in said and "Weapons: Fire Team" not in said


def test_the_command_line_still_words_a_loadout_as_the_list_files_keys(cli, tmp_path: Path):
    listed = tmp_path / "squad.yaml"
    listed.write_text(
        "system: deathzap\nname: S\nunits:\n  - name: Fire Team\n    figures: 5\n    type: Infantry\n"
        "    weapons: [{weapon: Rifle, figures: 4}]\n"
    )
    result = cli("validate", listed)
    assert result.exit_code == 2
    assert (
        "make the figures carrying its weapons add up to 5: count all 5 figures, each carrying one of its weapons; "
        "figures that carry none go in an entry of their own with 'weapons: []'" in result.stderr
    )


@pytest.mark.parametrize(
    ("counts", "chosen"),
    [
        ([("weapons:Rifle", "3"), ("weapons:Repeater", "1")], "Rifle, Repeater"),  # typed, never ticked
        ([("weapons:Rifle", "4"), ("weapons:Repeater", "0")], "Rifle"),  # a 0 chooses nothing
    ],
)
def test_a_count_typed_beside_a_weapon_chooses_it_without_javascript(server: Server, counts, chosen):
    page = _priced(server, RANGERS, [*SQUAD, ("figures", "4"), ("weapons", ""), *counts])
    said = _price_said(page)
    assert "cannot" not in said, said
    ticked = re.findall(r'<input type="checkbox" name="weapons" value="([^"]+)" checked>', page)
    assert ", ".join(ticked) == chosen
    # 4 infantry with 3 rifles and 1 repeater is the Colony Volunteers' loadout (the shipped example)


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("0", "the limit must be a whole number of at least 1, found 0"),
        ("100001", "the limit must be at most 100,000, found 100,001"),
        ("99999999999999999999", "the limit must be at most 100,000, found 99,999,999,999,999,999,999"),
    ],
)
def test_a_limit_out_of_bounds_is_refused_in_the_forms_words(server: Server, folder: Path, value: str, said: str):
    before = (folder / ZOMBIES).read_bytes()
    fields = {"token": server.token(), "version": server.version(ZOMBIES), "change": "set", "key": "points"}
    answer = server.post(f"/list/{ZOMBIES}/change", {**fields, "value": value})
    assert answer.status == 400
    text = visible(answer.text)
    assert f"{said} 'points' counts the size of a game (type a whole number of points from 1 to 100,000)" in text
    assert "for example: points 100" not in text
    assert (folder / ZOMBIES).read_bytes() == before


def test_a_limit_at_the_bound_is_taken(server: Server, folder: Path):
    (folder / "big.yaml").write_bytes((folder / ZOMBIES).read_bytes())
    fields = {"token": server.token(), "version": server.version("big.yaml"), "change": "set", "key": "points"}
    assert server.post("/list/big.yaml/change", {**fields, "value": "100000"}).status == 303
    assert "points: 100000\n" in (folder / "big.yaml").read_text()


def test_a_new_list_past_the_bound_is_refused(server: Server, folder: Path):
    fields = {"token": server.token(), "system": "might-skirmish", "name": "Huge", "limit": "100001"}
    answer = server.post("/new", fields)
    assert answer.status == 400
    assert "the limit must be at most 100,000, found 100,001" in visible(answer.text)
    assert not [p for p in folder.glob("*.yaml") if "Huge" in p.read_text()]


@pytest.mark.parametrize(("limit", "code"), [(100_000, 0), (100_001, 2), (99999999999999999999, 2)])
def test_the_list_reader_bounds_a_limit(cli, tmp_path: Path, limit: int, code: int):
    listed = tmp_path / "big.yaml"
    listed.write_text(f"system: might-skirmish\nname: Big\npoints: {limit}\nunits:\n  - unit: Hunter\n")
    result = cli("validate", listed)
    out = result.stdout + result.stderr
    assert result.exit_code == code, out
    if code:
        assert f"line 3, column 9: points: the limit must be at most 100,000, found {limit:,}" in out
        assert "agree the size of a game played at a table" in out


# --- item 8: a rules card not found, the roster's kicker, the source of a rule ------------------


@pytest.mark.parametrize("path", ["/card/NOPE", "/card/deathzp", "/card/NOPE/download?format=html"])
def test_a_rules_card_of_no_rule_set_is_a_not_found_page_naming_it(server: Server, path: str):
    answer = server.get(path)
    assert answer.status == 404
    asked = path.split("/")[2]
    assert "<title>No such rule set · listbuilder</title>" in answer.text
    assert "cannot be shown" not in answer.text
    text = visible(answer.text)
    assert f"There is no rules card of “{asked}”: this builder has no rule set of that name." in text
    assert ('Did you mean <a href="/card/deathzap">deathzap</a>?' in answer.text) == (asked == "deathzp")
    for system in ("deathmelt", "deathzap", "melee-module", "might-skirmish", "speed-range-power"):
        assert f'<a href="/card/{system}">' in answer.text


def test_a_rules_card_of_a_long_name_quotes_only_its_start(server: Server):
    answer = server.get("/card/" + "x" * 500)
    assert answer.status == 404 and "x" * 40 + "…" in answer.text and "x" * 41 not in answer.text


def test_the_rosters_kicker_names_the_faction_only_where_the_list_is_called_otherwise(server: Server, folder: Path):
    def kicker(file: str) -> str:
        answer = server.get(f"/list/{file}/print?format=html")
        assert answer.status == 200, answer.text
        found = re.search(r'<p class="kicker">([^<]*roster[^<]*)</p>', answer.text)
        assert found, answer.text
        return found.group(1)

    assert kicker(ZOMBIES) == "Might Skirmish · warband roster"  # the list is called Zombie Family
    assert kicker(MASH) == "Might Skirmish · warband roster · Zombie Family"  # Monster Mash, of Zombie Family
    (folder / "shouting.yaml").write_text((folder / ZOMBIES).read_text().replace("Zombie Family", " ZOMBIE FAMILY"))
    assert kicker("shouting.yaml") == "Might Skirmish · warband roster"


def test_a_rules_source_on_the_web_names_the_text_it_is_a_line_of(server: Server):
    started(server, ZOMBIES)
    play_page = server.get(play(ZOMBIES)).text
    sources = re.findall(r'class="source">Source: ([^<]*)<', play_page)
    assert sources and all(s.startswith("the Might Skirmish text, line") for s in sources), sources
    # Fate tokens: 10 at the start (004 line 46)
    assert "Source: the Might Skirmish text, lines 46 and 48" in play_page
    rules = server.get(f"/list/{RANGERS}/rules?unit=Hover+Tank").text
    assert "Source: the Deathzap (simplified) text, lines 16-21 and 32" in rules
    card = server.get("/card/might-skirmish").text
    assert "Source: the Might Skirmish text, line 48" in card
    assert not re.search(r"Source: lines? \d", play_page + rules + card)
