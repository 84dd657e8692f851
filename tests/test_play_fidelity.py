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
ZOMBIES = "zombies.yaml"
SUMERIANS = "sumerians.yaml"
LEGION = "legion.yaml"
RANGERS = "rangers.yaml"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fidelity")
    for name, source in (
        (HIVE, "deathmelt-chitter-hive.legal.yaml"),
        (MARINES, "deathmelt-colonial-marines.legal.yaml"),
        (ZOMBIES, "might-skirmish-zombie-family.legal.yaml"),
        (SUMERIANS, "speed-range-power-sumerians.legal.yaml"),
        (LEGION, "melee-module-foreign-legion.legal.yaml"),
        (RANGERS, "deathzap-frontier-rangers.legal.yaml"),
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

    def refused(self, **fields: str) -> str:
        """Post a tap the game refuses; answers what the page says."""
        answer = self.server.post(play(self.file) + "/tap", {"token": self.token, "game": self.game, **fields})
        assert answer.status == 400
        return answer.text

    def value(self, marker: str, piece: str) -> str:
        """What a piece's marker shows: 'on', 'off', or a count's number."""
        page = self.page()
        toggle = re.search(rf'aria-pressed="(true|false)" aria-label="{re.escape(marker)}: {re.escape(piece)}"', page)
        if toggle:
            return "on" if toggle.group(1) == "true" else "off"
        count = re.search(
            rf'aria-label="{re.escape(marker)}: {re.escape(piece)}">.*?<span class="count-label">'
            rf"{re.escape(marker)}</span> <b>(\d+)</b>",
            page,
        )
        assert count, f"no {marker} on {piece}"
        return count.group(1)

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


# --- 4. the states the texts track, each cleared when its text clears it -------------------


def test_hunkering_down_drops_the_danger_tokens_and_ends_with_the_turn(server: Server):
    # 000 line 33: figures "Hunker Down for the turn"; one that does "immediately loses all Danger
    # Tokens currently on them"; line 79: it succeeds in melee only on 6s
    table = Table(server, HIVE)
    table.tap("mark|Danger|Skitterling 1")
    table.tap("mark|Danger|Skitterling 1")
    said = table.tap("mark|Hunkered down|Skitterling 1")
    assert said == "Hunkered down on: Skitterling 1 (Danger 2 → 0)"
    assert (table.value("Hunkered down", "Skitterling 1"), table.value("Danger", "Skitterling 1")) == ("on", "0")
    table.tap("mark|Hunkered down|Skitterling 2")  # no tokens to drop: nothing else said
    assert table.value("Danger", "Skitterling 2") == "0"
    assert "Hunkered down</dt>" not in table.page()  # the legend says when it clears
    assert "Hunkered down, cleared each turn; putting it on takes off Danger</dt>" in table.page()
    said = table.post(tap="next-turn")
    assert said == "Turn 2 began (2 markers cleared)"  # the turn is over: both stand up again
    assert table.value("Hunkered down", "Skitterling 1") == "off"
    table.post(tap="undo")  # the turn back: hunkered again
    assert table.value("Hunkered down", "Skitterling 1") == "on"
    table.tap("unmark|Hunkered down|Skitterling 2")
    table.post(tap="undo")
    table.post(tap="undo")  # the hunkering of Skitterling 2, then of Skitterling 1: its tokens come back
    table.post(tap="undo")
    assert (table.value("Hunkered down", "Skitterling 1"), table.value("Danger", "Skitterling 1")) == ("off", "2")
    assert "not played on" not in table.page()


def test_defending_doubles_might_until_the_fighters_next_activation(server: Server):
    # 004 line 39: "Warriors, Berserkers, Monsters and Mechs can defend ... their Might is doubled
    # until their next activation", which is in their side's next turn (one turn of the track)
    table = Table(server, ZOMBIES)
    page = table.page()
    assert 'aria-label="Defending: Shambler 1"' in page and 'aria-label="Defending: Grandpa Bones"' in page
    assert 'aria-label="Defending: Hunter 1"' not in page  # a Soldier cannot defend
    assert "Defending, until its next activation: the next turn takes it off</dt>" in page
    table.tap("mark|Defending|Shambler 1")
    table.tap("mark|Stunned|Shambler 2")
    assert table.value("Defending", "Shambler 1") == "on"
    assert table.post(tap="next-turn") == "Turn 2 began (1 marker cleared)"
    assert table.value("Defending", "Shambler 1") == "off"
    assert table.value("Stunned", "Shambler 2") == "on"  # line 41: a stun lasts until it recovers on a 5+


def test_a_model_that_failed_to_kill_cannot_attack_again_this_turn(server: Server):
    # 003 line 28: "If an attacking model fails to kill a target, and also survives, that model
    # cannot attack again in the same turn"
    table = Table(server, SUMERIANS)
    assert table.tap("mark|No more attacks|Sumerian Spearman 3") == "No more attacks on: Sumerian Spearman 3"
    table.tap("mark|Fought|Sumerian Spearman 3")
    assert table.post(tap="next-turn") == "Turn 2 began (2 markers cleared)"
    assert table.value("No more attacks", "Sumerian Spearman 3") == "off"


def test_the_melee_module_counts_rounds_of_each_melee_and_keeps_no_turns(server: Server):
    # 002 line 1: a module plugged into other rules; "Cavalry adds 2 in the first round", "stay
    # locked in melee until another round is fought": it counts the rounds of each melee
    table = Table(server, LEGION)
    page = table.page()
    assert 'value="next-turn"' not in page and 'class="turn-number"' not in page
    assert "this rule set keeps no turns of its own" in table.refused(tap="next-turn")
    table.tap("mark|Melee round|Spahis")
    table.tap("mark|Locked in melee|Spahis")  # a tie: both stay locked for another round
    table.tap("mark|Melee round|Spahis")
    assert (table.value("Melee round", "Spahis"), table.value("Locked in melee", "Spahis")) == ("2", "on")
    assert table.value("Melee round", "Legion Section 1") == "0"  # each melee its own count
    # "you must know exactly which figure becomes the casualty": the special figures of each unit
    assert table.tap("mark|Leader killed|Legion Colour Party") == "Leader killed on: Legion Colour Party"
    assert table.tap("mark|Colour bearer killed|Legion Colour Party") == "Colour bearer killed on: Legion Colour Party"
    page = table.page()
    assert 'aria-label="Heavy weapons killed: Legion Machine Gun Section"' in page
    assert 'aria-label="Heavy weapons killed: Legion Colour Party"' not in page  # it has none
    assert 'aria-label="Colour bearer killed: Legion Recruits"' not in page
    assert "· turn 1" not in page  # the log counts no turns either


# --- 5. readings: Immobilised per unit, and ties ---------------------------------------------


def test_deathzap_immobilised_is_one_marker_for_the_unit(server: Server):
    # 001 line 19: "Immobilised, the unit cannot move for the rest of the battle"
    table = Table(server, RANGERS)
    assert table.value("Immobilised", "Scout Buggies") == "off"  # a toggle for the two buggies, not 0 of 2
    assert table.tap("mark|Immobilised|Scout Buggies") == "Immobilised on: Scout Buggies"
    assert "Scout Buggies is already Immobilised" in table.refused(do="mark|Immobilised|Scout Buggies")


@pytest.mark.parametrize(
    ("file", "roll", "line"),
    [
        (ZOMBIES, "first", "004 line 14"),
        (SUMERIANS, "first", "003 line 13"),
        (MARINES, "first", "000 line 19"),
        (MARINES, "impetus", "000 line 29"),
    ],
)
def test_a_tied_roll_off_says_the_ruling_it_follows(server: Server, file: str, roll: str, line: str):
    # each text gives the roll to "the higher roller" and is silent on a tie: the catalog's
    # ruling roll-off-ties reads it as "roll again", and the page names the ruling
    table = Table(server, file)
    said = table.post(tap="roll", roll=roll, faces="4 4")
    assert said.endswith("you 4, your opponent 4: a tie, roll again (ruling roll-off-ties)"), line
    assert table.post(tap="roll", roll=roll, faces="4 3").endswith("you 4, your opponent 3: you roll higher"), line


def test_a_marker_declared_in_a_catalog_plays_and_prints_with_no_code(tmp_path: Path, cli):
    """A rule set written by the test declares states of its own, one cleared at the next
    activation and one that takes another off: the page and the printed roster follow its data."""
    import textwrap

    from test_catalogs import write_sixth
    from webserver import start

    root = write_sixth(tmp_path / "house")
    (root / "pocket-legions" / "reference.yaml").write_text(
        textwrap.dedent("""\
        turn: {phases: []}
        play_aids:
          markers:
            - {label: Shaken, kind: count, per: unit, source: test}
            - {label: Braced, per: unit, clears: activation, takes_off: [Shaken], text: Stands firm., source: test}
          half: {text: The legion breaks., source: test}
        """),
        encoding="utf-8",
    )
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "reds.yaml").write_text(
        "system: pocket-legions\nname: Reds\nunits:\n  - unit: Spearmen\n    count: 2\n  - unit: Ballista\n",
        encoding="utf-8",
    )
    server = start(lists, "--catalogs", str(root))
    try:
        table = Table(server, "reds.yaml")
        table.tap("mark|Shaken|Spearmen 2")
        assert table.tap("mark|Braced|Spearmen 2") == "Braced on: Spearmen 2 (Shaken 1 → 0)"
        page = table.page()
        assert "Braced, until its next activation: the next turn takes it off; putting it on takes off Shaken" in page
        assert "Half the legion</summary><p>The legion breaks.</p>" in page
        # stands: 4 + 4 Spearmen and a Ballista weighing 5 (the sixth rule set's count)
        assert table.lost() == "Out of the game: 0 of 13 · half at 7"
        assert table.post(tap="next-turn") == "Turn 2 began (1 marker cleared)"
    finally:
        server.stop()
    out = tmp_path / "reds.html"
    assert cli("render", "--catalogs", root, lists / "reds.yaml", "-o", out).exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert '<span class="tick-label">Braced</span>' in html
    assert "Rub out when it next activates: Braced" in html
