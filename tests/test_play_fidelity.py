"""Play mode read against the rule texts (issue 35), through the page over HTTP: what the impetus
roll counts, what a force's size is, the states the texts track and when they clear, and the
readings of ties. Each test names the source file and line it pins (the rules README: 000
deathmelt, 001 deathzap, 002 melee-module (one line), 003 speed-range-power, 004 might-skirmish)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, unquote_plus

import pytest
from conftest import EXAMPLES
from webserver import Server

HIVE = "hive.yaml"
MARINES = "marines.yaml"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fidelity")
    for name, source in (
        (HIVE, "deathmelt-chitter-hive.legal.yaml"),
        (MARINES, "deathmelt-colonial-marines.legal.yaml"),
    ):
        (root / name).write_bytes((EXAMPLES / source).read_bytes())
    return root


def play(file: str) -> str:
    return f"/list/{quote(file)}/play"


class Table:
    """One game of a list, played by posting the page's forms as a browser without JavaScript does."""

    def __init__(self, server: Server, file: str) -> None:
        self.server, self.file, self.token = server, file, server.token()
        answer = server.post(play(file) + "/tap", {"token": self.token, "tap": "start"})
        assert answer.status == 303
        found = re.search(r"game=(\d+)", answer.headers["location"])
        assert found
        self.game = found.group(1)

    def post(self, **fields: str) -> str:
        """Post a tap; answers what the notice says it did."""
        answer = self.server.post(play(self.file) + "/tap", {"token": self.token, "game": self.game, **fields})
        assert answer.status == 303, answer.text[:2000]
        found = re.search(r"done=([^&#]*)", answer.headers["location"])
        assert found
        return unquote_plus(found.group(1))

    def tap(self, button: str) -> str:
        """Press a piece's button: 'mark|Panicked|Skitterling 1'."""
        return self.post(do=button)

    def page(self) -> str:
        return self.server.get(f"{play(self.file)}?game={self.game}").text

    def lost(self) -> str:
        found = re.search(r'<p id="play-lost" class="play-lost">(.*?)</p>', self.page())
        assert found
        return re.sub(r"<[^>]+>", "", found.group(1))


# --- 1. impetus counts panicked figures still in the game (000 line 29) ----------------------


def test_a_panicked_figure_that_becomes_a_casualty_stops_adding_to_the_impetus(server: Server):
    # 000 line 29: "adding 1 for each panicked figure on the opposing side"; line 103: a panicked
    # figure that runs off the table is a casualty; line 71: a failed save makes one. A casualty is
    # no longer a figure of the opposing side, panicked or not.
    table = Table(server, HIVE)
    table.tap("mark|Panicked|Skitterling 1")
    table.tap("mark|Panicked|Skitterling 2")
    said = table.post(tap="roll", roll="impetus", faces="5 3")
    assert said.endswith("you 5, your opponent 5 (3 + 2): a tie, roll again (ruling roll-off-ties)")
    table.tap("mark|Casualty|Skitterling 1")  # it ran off the table
    said = table.post(tap="roll", roll="impetus", faces="5 3")
    assert said.endswith("you 5, your opponent 4 (3 + 1): you roll higher")
    table.tap("mark|Casualty|Skitterling 2")
    said = table.post(tap="roll", roll="impetus", faces="5 3")
    assert said.endswith("you 5, your opponent 3: you roll higher")  # no panicked figure left: nothing added
    table.post(tap="undo")
    table.tap("unmark|Casualty|Skitterling 2")  # both sides of the boundary: back in the game, it counts again
    said = table.post(tap="roll", roll="impetus", faces="5 3")
    assert said.endswith("you 5, your opponent 4 (3 + 1): you roll higher")
    assert "not played on" not in table.page()  # the game replays from its log as it was played


def test_the_casualty_marker_says_what_makes_a_casualty_in_the_texts_words(server: Server):
    Table(server, HIVE)
    page = server.get(play(HIVE)).text
    (said,) = re.findall(r"<dt>Casualty</dt><dd>(.*?)</dd>", page)
    assert "A failed armour save (a Vehicle or Monster rolls on the damage table instead" in said  # 000 line 71
    assert "a lost melee" in said  # line 75: the highest number of successes kills its opponent
    assert "ran off the table" in said  # line 103: a figure that moves off the table is a casualty
    assert "no longer adds to the other side&#39;s impetus roll" in said  # line 29
    assert "lines 29, 71, 75 and 103" in said


# --- 3. the force is counted as the Hard Hitters objective counts it (000 line 117) ----------


def test_the_force_counts_a_vehicle_or_monster_as_3_figures(server: Server):
    # 000 line 117: "vehicles and monsters count as 3 figures". The Chitter Hive is 20 figures on
    # the table, its Hive Titan (a Monster) counting 3: 22, as `validate` says.
    table = Table(server, HIVE)
    page = table.page()
    heading = '<h2 id="pieces-title">Force: 22 <span class="muted">(20 figures on the table)</span></h2>'
    assert heading in page
    assert table.lost() == "Out of the game: 0 of 22 · half at 11"
    table.tap("mark|Casualty|Hive Titan")
    assert table.lost() == "Out of the game: 3 of 22 · half at 11"  # the Monster counts 3
    for n in range(1, 8):
        table.tap(f"mark|Casualty|Skitterling {n}")
    assert table.lost() == "Out of the game: 10 of 22 · half at 11"  # one short of half
    table.tap("mark|Casualty|Skitterling 8")
    assert table.lost() == "Out of the game: 11 of 22 · half or more"  # half: Hard Hitters is scored
    assert "the first side to eliminate half of the" in table.page()  # the rule beside it, line 117


def test_a_force_without_a_heavy_figure_counts_its_figures(server: Server):
    # The marines: 16 figures, the APC counting 3 (line 117), so 18 (as `validate` says: 18 of 20)
    table = Table(server, MARINES)
    assert '>Force: 18 <span class="muted">(16 figures on the table)</span></h2>' in table.page()
    table.tap("mark|Casualty|Recon Bike")  # a Light Vehicle counts 1 (ruling vehicle-means-vehicle)
    assert table.lost() == "Out of the game: 1 of 18 · half at 9"


def test_a_game_logged_when_casualties_still_added_to_the_impetus_plays_on(tmp_path: Path, catalogs):
    # Logs made before a casualty stopped counting (000 line 29) hold the bonus that was rolled
    # then: such a line stands, and any other bonus is a hand edit.
    from listbuilder.api import play

    (tmp_path / MARINES).write_bytes((EXAMPLES / "deathmelt-colonial-marines.legal.yaml").read_bytes())
    g = play.start_game(tmp_path, MARINES, catalogs)
    for piece, marker in (("Colonial Marine 1", "Panicked"), ("Colonial Marine 2", "Panicked")):
        g = play.play_tap(tmp_path, MARINES, catalogs, g.id, play.Mark(piece=piece, marker=marker)).game
    g = play.play_tap(tmp_path, MARINES, catalogs, g.id, play.Mark(piece="Colonial Marine 1", marker="Casualty")).game
    played = play.play_tap(tmp_path, MARINES, catalogs, g.id, play.RollDice(roll="impetus", faces=(5, 4)))
    assert played.game.state.rolls[-1].bonus == 1  # the casualty adds nothing
    path = tmp_path / ".listbuilder" / "games" / MARINES / "0001.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count('"bonus": 1') == 1
    path.write_text(text.replace('"bonus": 1', '"bonus": 2'), encoding="utf-8")  # as it was logged before
    assert play.load_game(tmp_path, MARINES, catalogs).trusted
    path.write_text(text.replace('"bonus": 1', '"bonus": 3'), encoding="utf-8")  # no reading gives 3
    assert not play.load_game(tmp_path, MARINES, catalogs).trusted
