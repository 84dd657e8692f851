"""Games: taps and their bounds, turns and what they clear, rolls, undo, the game file on disk,
a list edited during a game, and game files that cannot be trusted."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.api import play, rulesets
from listbuilder.errors import InputError
from listbuilder.play import gamefile
from listbuilder.play.game import GameState, initial, replay, step, undo
from listbuilder.play.trust import judge

ZOMBIES = "zombies.yaml"
ELVES = "elves.yaml"
MARINES = "marines.yaml"
RANGERS = "rangers.yaml"
SUMERIANS = "sumerians.yaml"

SOURCES = {
    ZOMBIES: "might-skirmish-zombie-family.legal.yaml",
    ELVES: "might-skirmish-windblade-elves.legal.yaml",
    MARINES: "deathmelt-colonial-marines.legal.yaml",
    RANGERS: "deathzap-frontier-rangers.legal.yaml",
    SUMERIANS: "speed-range-power-sumerians.legal.yaml",
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, source in SOURCES.items():
        (tmp_path / name).write_bytes((EXAMPLES / source).read_bytes())
    return tmp_path


def tap(folder, catalogs, game, t, name=ZOMBIES):
    return play.play_tap(folder, name, catalogs, game.id if hasattr(game, "id") else game, t).game


# --- taps -------------------------------------------------------------------------------------


def test_a_toggle_goes_on_and_off_and_not_twice(folder, catalogs):
    g = play.start_game(folder, ZOMBIES, catalogs)
    g = tap(folder, catalogs, g, play.Mark(piece="Hunter 2", marker="Stunned"))
    assert g.state.value("Hunter 2", "Stunned") == 1
    with pytest.raises(InputError, match="Hunter 2 is already Stunned"):
        tap(folder, catalogs, g, play.Mark(piece="Hunter 2", marker="Stunned"))
    g = tap(folder, catalogs, g, play.Unmark(piece="Hunter 2", marker="Stunned"))
    assert g.state.markers == {}
    with pytest.raises(InputError, match="has no Stunned to take off"):
        tap(folder, catalogs, g, play.Unmark(piece="Hunter 2", marker="Stunned"))


def test_a_tap_names_only_models_and_markers_the_list_has(folder, catalogs):
    g = play.start_game(folder, ZOMBIES, catalogs)
    with pytest.raises(InputError, match="'Hunter 3' is not a model of this list") as e:
        tap(folder, catalogs, g, play.Mark(piece="Hunter 3", marker="Stunned"))
    assert "did you mean 'Hunter 2'?" in e.value.render()
    with pytest.raises(InputError, match="'Panicked' is not a marker of Hunter 1"):
        tap(folder, catalogs, g, play.Mark(piece="Hunter 1", marker="Panicked"))


def test_danger_tokens_pile_up_on_a_deathmelt_figure(folder, catalogs):
    # 000 line 53: each penetrating hit adds a token; line 69: a passed save keeps them
    g = play.start_game(folder, MARINES, catalogs)
    for _ in range(7):
        g = tap(folder, catalogs, g, play.Mark(piece="Colonial Marine 3", marker="Danger"), MARINES)
    assert g.state.value("Colonial Marine 3", "Danger") == 7
    g = tap(folder, catalogs, g, play.NextTurn(), MARINES)
    assert g.state.value("Colonial Marine 3", "Danger") == 7  # a new turn does not clear them (line 33)


def test_a_count_stops_at_its_bound(folder, catalogs):
    g = play.start_game(folder, RANGERS, catalogs)
    for _ in range(3):  # 001 line 22, at most 3 left-over hits (a casualty takes at most 4, lines 11-15)
        g = tap(folder, catalogs, g, play.Mark(piece="Hover Tank", marker="Hits"), RANGERS)
    with pytest.raises(InputError, match="Hits on Hover Tank is at most 3"):
        tap(folder, catalogs, g, play.Mark(piece="Hover Tank", marker="Hits"), RANGERS)
    for _ in range(8):  # a squad of 8 figures (line 24) loses at most 8
        g = tap(folder, catalogs, g, play.Mark(piece="Ranger Squad 1", marker="Casualty"), RANGERS)
    with pytest.raises(InputError, match="at most 8"):
        tap(folder, catalogs, g, play.Mark(piece="Ranger Squad 1", marker="Casualty"), RANGERS)


def test_a_new_turn_clears_fought_and_undo_puts_it_back(folder, catalogs):
    # 003 line 27: Power drops for each further fight *in a single turn*: a new turn starts afresh
    g = play.start_game(folder, SUMERIANS, catalogs)
    piece = g.board.pieces[0].key
    for _ in range(2):
        g = tap(folder, catalogs, g, play.Mark(piece=piece, marker="Fought"), SUMERIANS)
    g = tap(folder, catalogs, g, play.Mark(piece=piece, marker="Casualty"), SUMERIANS)
    g = tap(folder, catalogs, g, play.NextTurn(), SUMERIANS)
    assert g.state.turn == 2 and g.state.markers == {piece: {"Casualty": 1}}
    g = tap(folder, catalogs, g, play.UndoTap(), SUMERIANS)
    assert g.state.turn == 1 and g.state.value(piece, "Fought") == 2


def test_the_turn_track_stops_at_the_rule_sets_length(folder, catalogs):
    g = play.start_game(folder, ZOMBIES, catalogs)
    for _ in range(4):
        g = tap(folder, catalogs, g, play.NextTurn())
    assert g.state.turn == 5  # 004 line 46: five turns each
    with pytest.raises(InputError, match="the game ends after turn 5"):
        tap(folder, catalogs, g, play.NextTurn())
    g = tap(folder, catalogs, g, play.End())
    with pytest.raises(InputError, match="the game has ended"):
        tap(folder, catalogs, g, play.Mark(piece="Hunter 1", marker="Dead"))
    g = tap(folder, catalogs, g, play.UndoTap())
    assert not g.state.ended


def test_fate_tokens_start_at_ten_and_never_go_below_nothing(folder, catalogs):
    g = play.start_game(folder, ZOMBIES, catalogs)
    assert g.state.scores["Fate tokens"] == 10  # 004 line 16
    g = tap(folder, catalogs, g, play.Score(track="Fate tokens", by=3))  # line 21: restock, no cap
    assert g.state.scores["Fate tokens"] == 13
    with pytest.raises(InputError, match="Fate tokens cannot go below 0"):
        tap(folder, catalogs, g, play.Score(track="Fate tokens", by=-14))
    g = tap(folder, catalogs, g, play.Score(track="Fate tokens", by=-13))
    assert g.state.scores["Fate tokens"] == 0


# --- rolls ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "zones"),
    [(1, "Side to side"), (3, "Side to side"), (4, "Corner to corner"), (6, "Corner to corner")],  # 004 line 12
)
def test_might_skirmish_deployment_roll(folder, catalogs, face, zones):
    g = play.start_game(folder, ZOMBIES, catalogs)
    played = play.play_tap(folder, ZOMBIES, catalogs, g.id, play.RollDice(roll="deployment", faces=(face,)))
    assert played.done.startswith(f"Rolled Deployment zones: {face}: {zones}")  # its title, never its id
    assert play.roll_result(played.game.board, played.game.state.rolls[-1]).startswith(zones)


@pytest.mark.parametrize(
    ("roll", "face", "objective"),
    [
        ("objectives-1", 2, "Assassinate"),  # 000 lines 111-113
        ("objectives-1", 3, "Hard Hitters"),  # lines 115-117
        ("objectives-1", 6, "Extermination"),  # lines 119-121
        ("objectives-2", 1, "Hold"),  # lines 125-127
        ("objectives-2", 4, "Push"),  # lines 129-131
        ("objectives-2", 5, "MacGuffin"),  # lines 133-135
    ],
)
def test_deathmelt_objective_rolls(folder, catalogs, roll, face, objective):
    g = play.start_game(folder, MARINES, catalogs)
    g = tap(folder, catalogs, g, play.RollDice(roll=roll, faces=(face,)), MARINES)
    assert play.roll_result(g.board, g.state.rolls[-1]).startswith(objective)


@pytest.mark.parametrize(("faces", "words"), [((5, 2), "you roll higher"), ((1, 6), "your opponent"), ((4, 4), "tie")])
def test_who_deploys_first_is_a_roll_off(folder, catalogs, faces, words):
    g = play.start_game(folder, MARINES, catalogs)
    g = tap(folder, catalogs, g, play.RollDice(roll="first", faces=faces), MARINES)  # 000 line 19
    assert words in play.roll_result(g.board, g.state.rolls[-1])


def test_a_roll_without_faces_rolls_fair_dice_and_keeps_them(folder, catalogs):
    g = play.start_game(folder, ZOMBIES, catalogs)
    for _ in range(30):
        g = tap(folder, catalogs, g, play.RollDice(roll="first"))
    seen = [f for line in g.state.rolls for f in line.faces]
    assert len(seen) == 60 and set(seen) <= set(range(1, 7)) and len(set(seen)) > 2
    with pytest.raises(InputError, match="takes 2 dice"):
        tap(folder, catalogs, g, play.RollDice(roll="first", faces=(7, 1)))
    assert play.die_face(1) == "⚀" and play.die_face(6) == "⚅"


# --- the game file ----------------------------------------------------------------------------


def test_playing_never_changes_the_list_file(folder, catalogs):
    before = (folder / ZOMBIES).read_bytes()
    g = play.start_game(folder, ZOMBIES, catalogs)
    for t in (play.Mark(piece="Hunter 1", marker="Dead"), play.NextTurn(), play.UndoTap(), play.End()):
        g = tap(folder, catalogs, g, t)
    assert (folder / ZOMBIES).read_bytes() == before
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == sorted(SOURCES)


def test_a_game_survives_a_new_process(folder, catalogs):
    g = play.start_game(folder, ZOMBIES, catalogs)
    g = tap(folder, catalogs, g, play.Mark(piece="Grandpa Bones", marker="Stunned"))
    g = tap(folder, catalogs, g, play.NextTurn())
    code = (
        "import sys; from pathlib import Path; from listbuilder.api import play, rulesets; "
        "c = rulesets.open_catalogs(None); g = play.load_game(Path(sys.argv[1]), 'zombies.yaml', c); "
        "print(g.trusted, g.state.turn, dict(g.state.markers['Grandpa Bones']))"
    )
    env = {**os.environ, "LISTBUILDER_CATALOGS": ""}
    out = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["True", "2", "{'Stunned':", "1}"]


def test_several_games_per_list_and_the_latest_is_resumed(folder, catalogs):
    first = play.start_game(folder, ZOMBIES, catalogs)
    tap(folder, catalogs, first, play.Mark(piece="Hunter 1", marker="Dead"))
    second = play.start_game(folder, ZOMBIES, catalogs)
    assert (first.id, second.id) == ("1", "2")
    assert play.load_game(folder, ZOMBIES, catalogs).id == "2"
    assert play.load_game(folder, ZOMBIES, catalogs, "1").state.value("Hunter 1", "Dead") == 1
    assert [s.id for s in play.games_of(folder, ZOMBIES)] == ["2", "1"]
    assert (folder / ".listbuilder" / "games" / ZOMBIES / "0001.yaml").is_file()


def test_the_game_file_is_plain_yaml_a_person_can_read(folder, catalogs):
    import yaml

    g = play.start_game(folder, ZOMBIES, catalogs)
    tap(folder, catalogs, g, play.Mark(piece="Hunter 1", marker="Stunned"))
    data = yaml.safe_load((folder / ".listbuilder/games" / ZOMBIES / "0001.yaml").read_text(encoding="utf-8"))
    assert data["list"] == ZOMBIES and data["turn"] == 1 and data["markers"] == {"Hunter 1": {"Stunned": 1}}
    # the log names a piece by its number in 'pieces', so a long game repeats no long name
    assert data["pieces"] == ["Hunter 1"] and data["format"] == 2
    assert data["log"] == [{"tap": "mark", "turn": 1, "piece": 0, "marker": "Stunned", "was": 0, "now": 1}]
    assert len(data["version"]) == 16 and data["roster"][0] == ["Hunter", 2]


def test_a_list_edited_during_a_game_is_noticed(folder, catalogs):
    g = play.start_game(folder, ZOMBIES, catalogs)
    g = tap(folder, catalogs, g, play.Mark(piece="Hunter 2", marker="Stunned"))
    g = tap(folder, catalogs, g, play.Mark(piece="Grandpa Bones", marker="Dead"))
    path = folder / ZOMBIES
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("  - unit: Hunter\n    count: 2\n", "  - unit: Hunter\n").replace("  - unit: Grandpa Bones\n", ""),
        encoding="utf-8",
    )
    g = play.load_game(folder, ZOMBIES, catalogs)
    assert g.trusted and g.list_changed
    assert g.changes == ("Hunter: 2 → 1", "Grandpa Bones is gone (was 1)")
    assert set(g.set_aside) == {"Hunter 2", "Grandpa Bones"}
    g = tap(folder, catalogs, g, play.Mark(piece="Hunter", marker="Dead"))  # plays on with the list as it is
    assert g.state.value("Hunter", "Dead") == 1 and g.list_changed


# --- files that cannot be trusted -------------------------------------------------------------


def game_file(folder: Path, name: str = ZOMBIES, number: int = 1) -> Path:
    return folder / ".listbuilder" / "games" / name / f"{number:04d}.yaml"


def edited(folder, catalogs, old, new):
    g = play.start_game(folder, ZOMBIES, catalogs)
    tap(folder, catalogs, g, play.Mark(piece="Hunter 1", marker="Stunned"))
    path = game_file(folder)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('"Hunter 1": {"Stunned": 1}', '"Hunter 9": {"Stunned": 1}', "'Hunter 9', which is not a model of this list"),
        ('"Hunter 1": {"Stunned": 1}', '"Hunter 1": {"Stunned": -1}', "Stunned on Hunter 1 is -1, outside 0 to 1"),
        ('"Hunter 1": {"Stunned": 1}', '"Hunter 1": {"Stunned": 4}', "Stunned on Hunter 1 is 4, outside 0 to 1"),
        ('"Hunter 1": {"Stunned": 1}', '"Hunter 1": {"Flying": 1}', "'Flying' on Hunter 1"),
        ('list: "zombies.yaml"', 'list: "elves.yaml"', "a game of another list ('elves.yaml')"),
        ('"Fate tokens": 10', '"Fate tokens": 99', "do not follow from its log"),
        ('"was": 0, "now": 1', '"was": 0, "now": 3', "log line 1"),
    ],
)
def test_a_hand_edited_game_is_shown_but_not_played(folder, catalogs, old, new, said):
    edited(folder, catalogs, old, new)
    g = play.load_game(folder, ZOMBIES, catalogs)
    assert not g.trusted and any(said in p for p in g.problems), g.problems
    for value in g.state.scores.values():
        assert value >= 0
    for piece, marks in g.state.markers.items():  # shown only within each marker's bounds
        control = {c.marker: c for c in g.board.piece(piece).controls}
        assert all(0 < v <= control[m].maximum for m, v in marks.items())
    with pytest.raises(InputError, match="cannot be played on"):
        tap(folder, catalogs, g, play.Mark(piece="Hunter 2", marker="Dead"))


def test_a_game_file_that_is_a_link_out_of_the_folder_is_not_read(folder, catalogs, tmp_path_factory):
    g = play.start_game(folder, ZOMBIES, catalogs)
    outside = tmp_path_factory.mktemp("outside") / "secret.yaml"
    outside.write_text(game_file(folder).read_text(encoding="utf-8"), encoding="utf-8")
    game_file(folder).unlink()
    game_file(folder).symlink_to(outside)
    with pytest.raises(InputError, match="symbolic link"):
        play.load_game(folder, ZOMBIES, catalogs, g.id)
    with pytest.raises(InputError, match="symbolic link"):
        tap(folder, catalogs, g, play.Mark(piece="Hunter 1", marker="Dead"))
    assert outside.read_text(encoding="utf-8").count("Dead") == 0  # nothing written through the link


def test_a_games_folder_that_is_a_link_is_refused(folder, catalogs, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere")
    (folder / ".listbuilder").mkdir()
    (folder / ".listbuilder" / "games").symlink_to(outside, target_is_directory=True)
    with pytest.raises(InputError, match="it is a link, and nothing of listbuilder") as refused:
        play.start_game(folder, ZOMBIES, catalogs)
    assert list(outside.iterdir()) == []
    said = refused.value.render()  # a game's refusal: no word of a list changed or of undo steps alone
    assert "nothing was changed" in said and "undo steps, deleted lists and games" in said
    assert "the list was not changed" not in said


def test_a_huge_game_file_is_refused_without_reading_it(folder, catalogs):
    g = play.start_game(folder, ZOMBIES, catalogs)
    with game_file(folder).open("ab") as fh:
        fh.truncate(gamefile.MAX_GAME_BYTES + 1)
    with pytest.raises(InputError, match="a game is at most"):
        play.load_game(folder, ZOMBIES, catalogs, g.id)
    assert next(s.error for s in play.games_of(folder, ZOMBIES)).startswith("this game file is")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("- just a list\n", "should be a mapping"),
        ("format: 7\n", "'format' should be 1"),
        ("format: 1\nlog: [{tap: mark, piece: [1]}]\n", "'log[0].piece' should be text"),
        ("format: 1\nlog: [{tap: mark\n", "not YAML"),
        ("format: 1\nturn: yes\n", "'turn' should be a whole number"),
        ("format: 1\nlog: [{tap: mark, rm: -rf}]\n", "'log[0]' should be a tap"),
        ("format: 1\nmarkers: {a: {b: 1.5}}\n", "'markers.a.b' should be a whole number"),
        ("\x00\x01", "not YAML"),
        # nested past any game file: refused before libyaml's composer recurses in C once per level
        ("format: 1\nlog: " + "[" * 100_000 + "]" * 100_000 + "\n", "nested at most 6 deep"),
        ("format: 1\nlog:\n" + "".join("  " * i + "- \n" for i in range(1, 400)), "nested at most 6 deep"),
    ],
)
def test_a_broken_game_file_says_what_is_wrong(folder, catalogs, text, said):
    path = game_file(folder)
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        play.load_game(folder, ZOMBIES, catalogs, "1")
    assert said in e.value.render() or said in e.value.summary, e.value.render()


def test_a_game_id_or_list_name_cannot_leave_the_folder(folder, catalogs):
    with pytest.raises(InputError, match="is not a game"):
        play.load_game(folder, ZOMBIES, catalogs, "../../zombies")
    with pytest.raises(InputError, match="not a list file of this folder"):
        play.start_game(folder, "../zombies.yaml", catalogs)


# --- any sequence of taps and undos ends where it should --------------------------------------

PIECES = ("Hunter 1", "Hunter 2", "Grandpa Bones")
TAPS = st.one_of(
    st.builds(play.Mark, piece=st.sampled_from(PIECES), marker=st.sampled_from(("Stunned", "Dead"))),
    st.builds(play.Unmark, piece=st.sampled_from(PIECES), marker=st.sampled_from(("Stunned", "Dead"))),
    st.builds(play.Score, track=st.just("Fate tokens"), by=st.integers(-3, 3)),
    st.just(play.NextTurn()),
    st.just(play.End()),
    st.just(play.UndoTap()),
    st.builds(play.RollDice, roll=st.just("deployment"), faces=st.tuples(st.integers(1, 6))),
)


@pytest.fixture(scope="module")
def zombie_board(catalogs):
    from listbuilder.army.listfile import parse_list
    from listbuilder.army.report import build_report
    from listbuilder.files.yamldoc import load_yaml
    from listbuilder.play.board import board_of

    army, system = parse_list(load_yaml(EXAMPLES / SOURCES[ZOMBIES]), catalogs)
    return board_of(build_report(army, system), ZOMBIES, "0" * 16)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(taps=st.lists(TAPS, max_size=40))
def test_any_taps_and_undos_end_where_a_stack_of_states_says(zombie_board, taps):
    """A model of the game: every accepted tap pushes a state, undo pops one. The engine must end
    in the model's state, keep every value within its bounds, and its log must replay to it."""
    board = zombie_board
    state = initial(board)
    stack: list[GameState] = []
    for t in taps:
        if isinstance(t, play.UndoTap):
            if stack:
                state, _ = undo(state)
                expected = stack.pop()
                assert (state.turn, state.ended, dict(state.markers), dict(state.scores)) == (
                    expected.turn,
                    expected.ended,
                    dict(expected.markers),
                    dict(expected.scores),
                )
            else:
                with pytest.raises(InputError):
                    undo(state)
            continue
        try:
            after = step(state, t, board)
        except InputError:
            continue
        stack.append(state)
        state = after
    assert len(state.log) == len(stack)
    assert 1 <= state.turn <= 5 and state.scores["Fate tokens"] >= 0
    for marks in state.markers.values():
        assert all(v == 1 for v in marks.values())
    again, problems = replay(board, state.log)
    assert problems == []
    assert (again.turn, again.ended, dict(again.markers), dict(again.scores)) == (
        state.turn,
        state.ended,
        dict(state.markers),
        dict(state.scores),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(taps=st.lists(TAPS, max_size=25))
def test_a_game_written_and_read_back_is_the_same_game(zombie_board, taps, tmp_path_factory):
    board = zombie_board
    state = initial(board)
    for t in taps:
        with contextlib.suppress(InputError):
            state = undo(state)[0] if isinstance(t, play.UndoTap) else step(state, t, board)
    gf = gamefile.GameFile(list=ZOMBIES, name="Z", system="might-skirmish", version="0" * 16, state=state)
    path = tmp_path_factory.mktemp("g") / "0001.yaml"
    path.write_text(gamefile.game_text(gf), encoding="utf-8")
    back = gamefile.read_game_file(path)
    judged = judge("1", back, board)
    assert judged.trusted, judged.problems
    assert judged.state.log == state.log and dict(judged.state.markers) == dict(state.markers)


def test_a_count_says_how_it_changed(folder, catalogs):
    g = play.start_game(folder, RANGERS, catalogs)
    played = play.play_tap(folder, RANGERS, catalogs, g.id, play.Mark(piece="Ranger Squad 1", marker="Casualty"))
    assert played.done == "Casualty on Ranger Squad 1: 0 → 1"  # a count, though it went from 0 to 1
    played = play.play_tap(folder, RANGERS, catalogs, g.id, play.UndoTap())
    assert played.done == "Undone: Casualty on Ranger Squad 1: 0 → 1"


def test_a_taps_json_is_its_name_then_its_fields_in_order():
    taps = [
        play.Start(),
        play.Mark(piece="Hunter 1", marker="Stunned"),
        play.Unmark(piece="Hunter 1", marker="Stunned"),
        play.Score(track="Fate", by=-2),
        play.NextTurn(),
        play.RollDice(roll="Deployment", faces=(3, 5)),
        play.UndoTap(),
        play.End(),
    ]
    assert [list(t.as_json().items()) for t in taps] == [
        [("tap", "start")],
        [("tap", "mark"), ("piece", "Hunter 1"), ("marker", "Stunned")],
        [("tap", "unmark"), ("piece", "Hunter 1"), ("marker", "Stunned")],
        [("tap", "score"), ("track", "Fate"), ("by", -2)],
        [("tap", "next-turn")],
        [("tap", "roll"), ("roll", "Deployment"), ("faces", [3, 5])],
        [("tap", "undo")],
        [("tap", "end")],
    ]


def test_a_sixth_rule_set_plays_from_its_data_alone(tmp_path):
    """A rule set written by the test, with its own markers, track, turns and roll: no code names it."""
    import textwrap

    from test_catalogs import write_sixth

    root = write_sixth(tmp_path / "house")
    (root / "pocket-legions" / "reference.yaml").write_text(
        textwrap.dedent("""\
        turn: {phases: [{name: Fight, summary: Everyone fights., source: test}]}
        tables:
          - id: weather
            title: Weather
            columns: [Roll, Sky]
            rows: [["1-2", Rain], ["3-6", Sun]]
            source: test
        play_aids:
          turns: 3
          markers:
            - {label: Wounds, kind: count, per: unit, maximum: figures, out: true, source: test}
            - {label: Routed, per: unit, source: test}
            - {label: Jammed, uses: {stat: arm, any_of: [Engine]}, clears: turn, source: test}
          tracks:
            - {label: Glory, start: 2, maximum: 5, capped: true, source: test}
          rolls:
            - {id: weather, title: Weather, table: weather, source: test}
        """),
        encoding="utf-8",
    )
    books = rulesets.open_catalogs([root])
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "reds.yaml").write_text(
        "system: pocket-legions\nname: Reds\nunits:\n  - unit: Spearmen\n    count: 2\n  - unit: Ballista\n",
        encoding="utf-8",
    )
    g = play.start_game(lists, "reds.yaml", books)
    spear = g.board.piece("Spearmen 1")
    assert [(c.marker, c.maximum) for c in spear.controls] == [("Wounds", 4), ("Routed", 1)]
    assert [c.marker for c in g.board.piece("Ballista").controls] == ["Wounds", "Routed", "Jammed"]
    for t in [play.Mark(piece="Spearmen 1", marker="Wounds")] * 4 + [play.Mark(piece="Ballista", marker="Jammed")]:
        g = play.play_tap(lists, "reds.yaml", books, g.id, t).game
    assert g.is_out(g.board.piece("Spearmen 1")) and g.lost() == (1, 4)
    g = play.play_tap(lists, "reds.yaml", books, g.id, play.NextTurn()).game
    assert g.state.value("Ballista", "Jammed") == 0 and g.state.value("Spearmen 1", "Wounds") == 4
    with pytest.raises(InputError, match="Glory is at most 5"):
        play.play_tap(lists, "reds.yaml", books, g.id, play.Score(track="Glory", by=4))
    played = play.play_tap(lists, "reds.yaml", books, g.id, play.RollDice(roll="weather", faces=(2,)))
    assert played.done == "Rolled Weather: 2: Rain"
    g = play.play_tap(lists, "reds.yaml", books, g.id, play.NextTurn()).game  # turn 3 of 3
    with pytest.raises(InputError, match="the game ends after turn 3"):
        play.play_tap(lists, "reds.yaml", books, g.id, play.NextTurn())


def test_a_reference_file_with_a_bad_play_aid_says_where(tmp_path):
    import textwrap

    from test_catalogs import write_sixth

    from listbuilder.rules.reference import load_reference

    root = write_sixth(tmp_path / "house")
    (root / "pocket-legions" / "reference.yaml").write_text(
        textwrap.dedent("""\
        turn: {phases: []}
        play_aids:
          markers:
            - {label: Routed, maximum: 3}
            - {label: Wounds, kind: count, maximum: 0}
            - Routed
          rolls:
            - {id: weather, title: Weather, table: nowhere}
        """),
        encoding="utf-8",
    )
    with pytest.raises(InputError) as e:
        load_reference(rulesets.open_catalogs([root]).get("pocket-legions"))
    said = e.value.render()
    assert "only a count has a maximum" in said and "at least 1, found 0" in said
    assert "'Routed' is declared twice" in said and "no table 'nowhere'" in said


def test_your_panicked_figures_add_to_your_opponents_impetus_roll(folder, catalogs):
    # 000 line 29: each player rolls a die, adding 1 for each panicked figure on the opposing side
    g = play.start_game(folder, MARINES, catalogs)
    for piece in ("Colonial Marine 1", "Colonial Marine 2"):
        g = tap(folder, catalogs, g, play.Mark(piece=piece, marker="Panicked"), MARINES)
    played = play.play_tap(folder, MARINES, catalogs, g.id, play.RollDice(roll="impetus", faces=(5, 4)))
    assert played.game.state.rolls[-1].bonus == 2
    assert played.done.endswith("you 5, your opponent 6 (4 + 2): your opponent rolls higher")
    played = play.play_tap(folder, MARINES, catalogs, g.id, play.RollDice(roll="impetus", faces=(6, 4)))
    assert played.done.endswith("you 6, your opponent 6 (4 + 2): a tie, roll again (ruling roll-off-ties)")
    assert play.load_game(folder, MARINES, catalogs).trusted  # the bonus is in the log and follows from it
    path = folder / ".listbuilder" / "games" / MARINES / "0001.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('"bonus": 2', '"bonus": 0', 1), encoding="utf-8")
    assert not play.load_game(folder, MARINES, catalogs).trusted
