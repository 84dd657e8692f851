"""Play mode keeps every tap, whatever the names, the list's edits or the servers (issue 36), each
through real HTTP against a served folder: a long game's file stays small and is never written
past what it can read back; names of any length the list allows survive a restart; markers set
aside by an edit of the list come back with the model; two servers on one folder lose no tap; a
killed game write leaves nothing after a restart; a long game's page costs about what a new one does."""

from __future__ import annotations

import dataclasses
import os
import re
import threading
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import EXAMPLES
from webserver import Server, start

from listbuilder.api import play
from listbuilder.errors import InputError
from listbuilder.play import gamefile
from listbuilder.play.game import MAX_TAPS
from listbuilder.play.taps import Logged

HTMX = {"HX-Request": "true"}
ZOMBIES = "zombies.yaml"
LONG = "long.yaml"


def url(file: str) -> str:
    return f"/list/{quote(file)}/play"


def started(server: Server, file: str) -> str:
    answer = server.post(url(file) + "/tap", {"token": server.token(), "tap": "start"})
    assert answer.status == 303, answer.text[:500]
    found = re.search(r"game=(\d+)", answer.headers["location"])
    assert found
    return found.group(1)


def tapped(server: Server, file: str, game: str, do: str, htmx: bool = False) -> int:
    fields = {"token": server.token(), "game": game, "do": do}
    return server.post(url(file) + "/tap", fields, headers=HTMX if htmx else None).status


def game_path(folder: Path, file: str, game: str = "1") -> Path:
    return folder / ".listbuilder" / "games" / file / f"{int(game):04d}.yaml"


def deathmelt_with(name: str, count: int = 1, list_name: str = "Long names") -> str:
    """A deathmelt list of one custom figure named ``name`` (``count`` of them) and a Lieutenant."""
    return (
        f"system: deathmelt\nname: {list_name}\nfigures: 20\nunits:\n  - unit: Marine Lieutenant\n"
        f"  - name: {name}\n    count: {count}\n    type: Infantry\n    training: Basic\n    armour: 1\n"
    )


def long_game(folder: Path, file: str, catalogs, taps: int, piece: str, marker: str = "Danger") -> Path:
    """Game 1 of ``file`` with ``taps`` taps already played (``marker`` on and off ``piece``),
    written by listbuilder's own writer, as if played one tap at a time."""
    game = play.start_game(folder, file, catalogs)
    lines = [
        Logged(tap="mark" if i % 2 == 0 else "unmark", turn=1, piece=piece, marker=marker, was=i % 2, now=1 - i % 2)
        for i in range(taps)
    ]
    state = dataclasses.replace(game.state, log=tuple(lines), markers={piece: {marker: 1}} if taps % 2 else {})
    path = game_path(folder, file)
    gamefile.write_game(path, dataclasses.replace(gamefile.read_game_file(path), state=state))
    return path


# --- 1: a long game's file stays small, and is never written past what can be read back -------


def test_a_long_game_with_a_long_name_stays_small_and_plays_on(tmp_path, catalogs):
    # the figures: a 250-character name, 6,163 taps made a 2,097,279-byte file, refused
    name = "Sergeant " + "X" * 241
    (tmp_path / LONG).write_text(deathmelt_with(name), encoding="utf-8")
    path = long_game(tmp_path, LONG, catalogs, 6_200, name)
    assert path.stat().st_size < 700_000  # the log names the piece by a short reference
    server = start(tmp_path)
    try:
        assert tapped(server, LONG, "1", f"mark|Danger|{name}") == 303
        page = server.get(url(LONG)).text
        assert "cannot be played on" not in page and "cannot be read" not in page
        assert "Danger on " + name + ": 0 → 1" in page  # the newest tap, in the log
    finally:
        server.stop()
    game = gamefile.read_game_file(path)
    assert len(game.state.log) == 6_201 and game.state.markers == {name: {"Danger": 1}}


def test_a_tap_that_would_make_the_file_too_big_is_refused_and_every_earlier_tap_kept(tmp_path, catalogs):
    # a name of 520,000 characters, twice: the file holds the roster's and the first marker's
    # copies (about 1.6 MB); a marker on the second would take it past 2 MB
    name = "N" * 520_000
    (tmp_path / LONG).write_text(deathmelt_with(name, count=2), encoding="utf-8")
    server = start(tmp_path)
    try:
        game = started(server, LONG)
        assert tapped(server, LONG, game, f"mark|Danger|{name} 1", htmx=True) == 200
        before = game_path(tmp_path, LONG).read_bytes()
        fields = {"token": server.token(), "game": game, "do": f"mark|Danger|{name} 2"}
        answer = server.post(url(LONG) + "/tap", fields, headers=HTMX)
        assert answer.status == 400
        assert f"a game file is at most {gamefile.MAX_GAME_BYTES:,} bytes" in answer.text
        assert "every earlier tap is kept" in answer.text
        assert game_path(tmp_path, LONG).read_bytes() == before
        roll = {"token": server.token(), "game": game, "tap": "roll", "roll": "first", "faces": "3 4"}
        assert server.post(url(LONG) + "/tap", roll).status == 303  # a short tap still fits
    finally:
        server.stop()
    back = play.load_game(tmp_path, LONG, catalogs)
    assert back.trusted and back.state.value(f"{name} 1", "Danger") == 1 and len(back.state.log) == 2


# --- 2: names as long as the list allows survive a restart ------------------------------------


def test_long_names_are_read_back_as_they_were_written(tmp_path):
    name = "Corporal " + "Y" * 391  # 400 characters: the reader cut them to 300
    list_name = "Z" * 400
    (tmp_path / LONG).write_text(deathmelt_with(name, list_name=list_name), encoding="utf-8")
    server = start(tmp_path)
    try:
        game = started(server, LONG)
        assert tapped(server, LONG, game, f"mark|Danger|{name}") == 303
    finally:
        server.stop()
    again = start(tmp_path)
    try:
        page = again.get(url(LONG)).text
        assert "changed outside" not in page and "cannot be" not in page
        assert tapped(again, LONG, game, f"mark|Danger|{name}") == 303
    finally:
        again.stop()
    game_file = gamefile.read_game_file(game_path(tmp_path, LONG))
    assert game_file.name == list_name and game_file.state.markers == {name: {"Danger": 2}}


# --- 3: markers set aside by an edit of the list come back with the model --------------------


def test_a_models_markers_are_kept_while_it_is_out_of_the_list_and_come_back_with_it(tmp_path):
    original = (EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes()
    (tmp_path / ZOMBIES).write_bytes(original)
    server = start(tmp_path)
    try:
        game = started(server, ZOMBIES)
        assert tapped(server, ZOMBIES, game, "mark|Stunned|Grandpa Bones") == 303
        (tmp_path / ZOMBIES).write_bytes(original.replace(b"  - unit: Grandpa Bones\n", b""))
        assert tapped(server, ZOMBIES, game, "mark|Dead|Hunter 1") == 303
    finally:
        server.stop()
    text = game_path(tmp_path, ZOMBIES).read_text(encoding="utf-8")
    assert "Grandpa Bones" in text and "Stunned" in text  # kept in the file, not only in memory
    again = start(tmp_path)
    try:
        page = again.get(url(ZOMBIES)).text
        assert "set aside: the markers of Grandpa Bones, which the list no longer has" in page
        (tmp_path / ZOMBIES).write_bytes(original)  # put back byte for byte, as the builder's Undo does
        page = again.get(url(ZOMBIES)).text
        assert 'aria-pressed="true" aria-label="Stunned: Grandpa Bones"' in page
        assert 'aria-pressed="true" aria-label="Dead: Hunter 1"' in page
        assert "set aside" not in page and "cannot be played on" not in page
        assert tapped(again, ZOMBIES, game, "mark|Stunned|Hunter 2") == 303
    finally:
        again.stop()
    third = start(tmp_path)  # and after another restart
    try:
        page = third.get(url(ZOMBIES)).text
        assert 'aria-pressed="true" aria-label="Stunned: Grandpa Bones"' in page
        assert tapped(third, ZOMBIES, game, "unmark|Stunned|Grandpa Bones") == 303
        assert 'aria-pressed="false" aria-label="Stunned: Grandpa Bones"' in third.get(url(ZOMBIES)).text
    finally:
        third.stop()


# --- 4: two servers on one folder lose no tap --------------------------------------------------

AT_ONCE = 40


def test_two_servers_on_one_folder_keep_every_tap(tmp_path):
    (tmp_path / ZOMBIES).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    first, second = start(tmp_path), start(tmp_path)
    try:
        game = started(first, ZOMBIES)
        tokens = {id(s): s.token() for s in (first, second)}
        barrier = threading.Barrier(AT_ONCE, timeout=60)
        answers: list[int] = []

        def score(i: int) -> None:
            server = (first, second)[i % 2]
            fields = {"token": tokens[id(server)], "game": game, "tap": "score", "track": "Fate tokens", "by": "1"}
            barrier.wait()
            answers.append(server.post(url(ZOMBIES) + "/tap", fields).status)

        threads = [threading.Thread(target=score, args=(i,)) for i in range(AT_ONCE)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert answers == [303] * AT_ONCE
    finally:
        first.stop()
        second.stop()
    game_file = gamefile.read_game_file(game_path(tmp_path, ZOMBIES))
    assert len(game_file.state.log) == AT_ONCE
    assert game_file.state.scores["Fate tokens"] == 10 + AT_ONCE  # 004 line 16: ten to start with


# --- 6: a killed game write leaves nothing after a restart -------------------------------------


def test_a_killed_game_writes_temporary_file_goes_at_the_next_start(tmp_path):
    (tmp_path / ZOMBIES).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    server = start(tmp_path)
    try:
        started(server, ZOMBIES)
    finally:
        server.stop()
    games = game_path(tmp_path, ZOMBIES).parent
    leftovers = [games / ".0001.yaml.k3j4h5g6.tmp", games / ".0002.yaml.a1b2c3d4.tmp"]
    for p in leftovers:
        p.write_text("format: 1\nhalf a ga")
    keep = games / "notes.txt"
    keep.write_text("not ours")
    again = start(tmp_path)
    try:
        assert again.get(url(ZOMBIES)).status == 200
    finally:
        again.stop()
    assert not any(p.exists() for p in leftovers) and keep.exists()
    assert sorted(p.name for p in games.iterdir()) == ["0001.yaml", "notes.txt"]


# --- 7: a long game's page costs about what a new one does -------------------------------------


def cpu_seconds(server: Server) -> float:
    """The CPU time the server's process has used so far (user and system), from /proc."""
    fields = Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's CPU time from /proc")
def test_a_game_of_twenty_thousand_taps_loads_in_proportion(tmp_path, catalogs):
    marines = (EXAMPLES / "deathmelt-colonial-marines.legal.yaml").read_bytes()
    (tmp_path / "long-game.yaml").write_bytes(marines)
    (tmp_path / "new-game.yaml").write_bytes(marines)
    long_game(tmp_path, "long-game.yaml", catalogs, MAX_TAPS, "Colonial Marine 3")
    play.start_game(tmp_path, "new-game.yaml", catalogs)
    costs: dict[str, float] = {}
    for file in ("new-game.yaml", "long-game.yaml"):
        server = start(tmp_path)  # a first load, in a process that has read no game yet
        try:
            assert server.get("/").status == 200  # the server's own start-up work, before the figure
            before = cpu_seconds(server)
            page = server.get(url(file))
            costs[file] = cpu_seconds(server) - before
            assert page.status == 200 and "cannot be" not in page.text
        finally:
            server.stop()
    # was 1.6 s against 0.09 s; the page's own work (the board, the template) is the same for both
    assert costs["long-game.yaml"] < costs["new-game.yaml"] + 0.5, costs


# --- the file's format, read and written ------------------------------------------------------


def zombies(folder: Path) -> Path:
    (folder / ZOMBIES).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    return folder / ZOMBIES


def test_a_format_1_game_naming_pieces_in_full_is_still_read_and_played(tmp_path, catalogs):
    zombies(tmp_path)
    play.start_game(tmp_path, ZOMBIES, catalogs)
    path = game_path(tmp_path, ZOMBIES)
    text = path.read_text(encoding="utf-8").replace("format: 2", "format: 1").replace("pieces: []\n", "")
    line = '  - {"tap": "mark", "turn": 1, "piece": "Hunter 2", "marker": "Stunned", "was": 0, "now": 1}\n'
    text = text.replace("markers: {}\nlog: []\n", 'markers:\n  "Hunter 2": {"Stunned": 1}\nlog:\n' + line)
    path.write_text(text, encoding="utf-8")
    game = play.load_game(tmp_path, ZOMBIES, catalogs)
    assert game.trusted and game.state.value("Hunter 2", "Stunned") == 1
    play.play_tap(tmp_path, ZOMBIES, catalogs, game.id, play.Mark(piece="Hunter 1", marker="Dead"))
    written = path.read_text(encoding="utf-8")
    assert "format: 2" in written and 'pieces: ["Hunter 2", "Hunter 1"]' in written


def test_a_hand_edited_log_is_read_by_yaml_and_a_wrong_line_is_named_where_it_is(tmp_path, catalogs):
    zombies(tmp_path)
    game = play.start_game(tmp_path, ZOMBIES, catalogs)
    for t in [play.Mark(piece="Hunter 1", marker="Stunned"), play.Unmark(piece="Hunter 1", marker="Stunned")] * 2:
        play.play_tap(tmp_path, ZOMBIES, catalogs, game.id, t)
    path = game_path(tmp_path, ZOMBIES)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("log:\n", "log:  # played on Friday\n"), encoding="utf-8")  # not as written
    assert play.load_game(tmp_path, ZOMBIES, catalogs).trusted
    # the same line twice is read once; a wrong number in it is said at its first place
    path.write_text(
        text.replace(
            '"turn": 1, "piece": 0, "marker": "Stunned", "was": 1',
            '"turn": -7000000000, "piece": 0, "marker": "Stunned", "was": 1',
        ),
        encoding="utf-8",
    )
    with pytest.raises(InputError, match=r"'log\[1\]\.turn' should be a whole number from"):
        play.load_game(tmp_path, ZOMBIES, catalogs)
    path.write_text(text.replace('"piece": 0', '"piece": 3'), encoding="utf-8")
    with pytest.raises(InputError, match=r"'log\[0\]\.piece' should be a model's number in 'pieces', from 0 to 0"):
        play.load_game(tmp_path, ZOMBIES, catalogs)


def test_a_list_name_with_line_breaks_stays_out_of_the_files_comment(tmp_path, catalogs):
    path = zombies(tmp_path)
    path.write_text(
        path.read_text(encoding="utf-8").replace("name: Zombie Family", 'name: "Zombie\\rFamily\\u2028: x"')
    )
    game = play.start_game(tmp_path, ZOMBIES, catalogs)
    play.play_tap(tmp_path, ZOMBIES, catalogs, game.id, play.Mark(piece="Hunter 1", marker="Dead"))
    back = gamefile.read_game_file(game_path(tmp_path, ZOMBIES))
    assert back.name == "Zombie\rFamily\u2028: x" and len(back.state.log) == 1


def test_a_turn_and_a_roll_off_played_while_a_model_is_away_stay_trusted_when_it_returns(tmp_path, catalogs):
    marines = tmp_path / "marines.yaml"
    original = (EXAMPLES / "deathmelt-colonial-marines.legal.yaml").read_text(encoding="utf-8")
    marines.write_text(original, encoding="utf-8")

    def tap(t):
        return play.play_tap(tmp_path, "marines.yaml", catalogs, "1", t).game

    play.start_game(tmp_path, "marines.yaml", catalogs)
    tap(play.Mark(piece="Marine Sergeant", marker="Panicked"))
    marines.write_text(original.replace("  - unit: Marine Sergeant\n", ""), encoding="utf-8")
    game = tap(play.RollDice(roll="impetus", faces=(3, 4)))
    assert game.state.rolls[-1].bonus == 0 and game.set_aside == ("Marine Sergeant",)  # away: adds nothing
    game = tap(play.NextTurn())
    assert dict(game.state.leftovers) == {"Marine Sergeant": {"Panicked": 1}}
    marines.write_text(original, encoding="utf-8")  # back, byte for byte
    game = play.load_game(tmp_path, "marines.yaml", catalogs)
    assert game.trusted and game.set_aside == () and game.state.value("Marine Sergeant", "Panicked") == 1
    # 000 line 29: a panicked figure adds 1 to the opponent's die; worked out on the list as it is
    assert game.state.rolls[-1].bonus == 1
    game = tap(play.Mark(piece="Colonial Marine 1", marker="Danger"))
    assert game.trusted and game.state.turn == 2
