"""The play page over HTTP, against a real server: forms without JavaScript, htmx answers, the
server's checks on every game action, read-only, and odds equal to ``listbuilder odds``."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import EXAMPLES
from webserver import Server, start

ZOMBIES = "zombies.yaml"
ELVES = "elves.yaml"
MARINES = "marines.yaml"
HIVE = "hive.yaml"
HTMX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("play")
    for name, source in (
        (ZOMBIES, "might-skirmish-zombie-family.legal.yaml"),
        (ELVES, "might-skirmish-windblade-elves.legal.yaml"),
        (MARINES, "deathmelt-colonial-marines.legal.yaml"),
        (HIVE, "deathmelt-chitter-hive.legal.yaml"),
    ):
        (root / name).write_bytes((EXAMPLES / source).read_bytes())
    return root


def play(file: str) -> str:
    return f"/list/{quote(file)}/play"


def started(server: Server, file: str) -> str:
    answer = server.post(play(file) + "/tap", {"token": server.token(), "tap": "start"})
    assert answer.status == 303
    found = re.search(r"game=(\d+)", answer.headers["location"])
    assert found
    return found.group(1)


def test_the_lists_page_and_the_builder_have_a_play_button(server: Server):
    assert f'href="/list/{ZOMBIES}/play" aria-label="Play Zombie Family"' in server.get("/").text
    assert f'href="/list/{ZOMBIES}/play">Play</a>' in server.get(f"/list/{ZOMBIES}").text


def test_a_list_without_a_game_offers_to_start_one(server: Server, folder: Path):
    page = server.get(play(ELVES)).text
    assert "No game yet" in page and 'value="start"' in page


def test_a_tap_without_javascript_posts_and_comes_back(server: Server, folder: Path):
    game = started(server, ZOMBIES)
    answer = server.post(play(ZOMBIES) + "/tap", {"token": server.token(), "game": game, "do": "mark|Stunned|Hunter 2"})
    assert answer.status == 303
    assert answer.headers["location"].endswith("#piece-2") and "done=Stunned+on" in answer.headers["location"]
    page = server.get(answer.headers["location"].split("#")[0]).text
    assert 'aria-pressed="true" aria-label="Stunned: Hunter 2"' in page
    assert 'aria-pressed="false" aria-label="Dead: Hunter 2"' in page
    assert "Stunned on: Hunter 2" in page  # the notice and the log


def test_each_rule_under_a_score_or_a_roll_is_named_by_what_it_is_the_rule_of(server: Server):
    """Four disclosures were all called "The rule": a screen reader's list of them could not tell one from another."""
    started(server, ZOMBIES)
    summaries = re.findall(r'<details class="play-rule"><summary>(.*?)</summary>', server.get(play(ZOMBIES)).text)
    assert summaries == [
        'The rule<span class="sr-only"> of Fate tokens</span>',
        'The rule<span class="sr-only"> of Enemy points killed</span>',
        "The markers",
        'The rule<span class="sr-only"> of Deployment zones</span>',
        'The rule<span class="sr-only"> of Who deploys first</span>',
    ]


def test_an_htmx_tap_answers_with_the_row_and_the_bar(server: Server):
    game = started(server, ZOMBIES)
    answer = server.post(
        play(ZOMBIES) + "/tap",
        {"token": server.token(), "game": game, "do": "mark|Dead|Grandpa Bones"},
        headers=HTMX,
    )
    assert answer.status == 200
    text = answer.text
    assert text.lstrip().startswith('<li id="piece-13" class="piece out" hx-swap-oob="true">')
    assert 'id="play-bar" class="play-bar" hx-swap-oob="true"' in text and 'id="play-log"' in text
    assert '<p id="play-lost" class="play-lost" hx-swap-oob="true">Out of the game: <b>1</b> of 14' in text
    assert "<html" not in text and len(text) < 6000  # a small swap


def test_a_refused_htmx_tap_leaves_the_page_and_says_why(server: Server):
    game = started(server, ZOMBIES)
    fields = {"token": server.token(), "game": game, "do": "unmark|Dead|Hunter 1"}
    answer = server.post(play(ZOMBIES) + "/tap", fields, headers=HTMX)
    assert answer.status == 400 and answer.headers.get("hx-reswap") == "none"
    assert "Hunter 1 has no Dead to take off" in answer.text and 'hx-swap-oob="true"' in answer.text


def test_a_refused_plain_tap_shows_the_page_with_the_error(server: Server):
    game = started(server, ZOMBIES)
    answer = server.post(play(ZOMBIES) + "/tap", {"token": server.token(), "game": game, "tap": "fly"})
    assert answer.status == 400 and "&#39;fly&#39; is not a game action" in answer.text


def test_scores_rolls_turns_undo_through_forms(server: Server):
    game = started(server, MARINES)
    token = server.token()
    url = play(MARINES) + "/tap"
    assert (
        server.post(url, {"token": token, "game": game, "tap": "score", "track": "Victory points", "by": "3"}).status
        == 303
    )
    assert (
        server.post(url, {"token": token, "game": game, "tap": "roll", "roll": "objectives-1", "faces": "2"}).status
        == 303
    )
    assert server.post(url, {"token": token, "game": game, "tap": "next-turn"}).status == 303
    page = server.get(play(MARINES) + f"?game={game}").text
    assert '<b class="score-value" aria-live="polite">3</b>' in page
    assert "Assassinate" in page and "⚁" in page  # the objective and its die face (000 lines 111-113)
    assert '<b class="turn-number">2</b><span class="turn-of"> of 5</span>' in page
    assert server.post(url, {"token": token, "game": game, "tap": "undo"}).status == 303
    assert '<b class="turn-number">1</b>' in server.get(play(MARINES) + f"?game={game}").text


def test_a_tap_with_a_value_of_the_wrong_kind_is_refused_with_a_page_that_says_so(server: Server):
    game = started(server, MARINES)
    url = play(MARINES) + "/tap"
    token = server.token()
    answer = server.post(url, {"token": token, "game": game, "tap": "score", "track": "Victory points", "by": "lots"})
    assert answer.status == 400 and "the amount must be a whole number, found &#39;lots&#39;" in answer.text
    answer = server.post(url, {"token": token, "game": game, "tap": "roll", "roll": "objectives-1", "faces": "two"})
    assert answer.status == 400 and "a die must be a whole number, found &#39;two&#39;" in answer.text
    odds = server.get(play(MARINES) + "/odds?attacker=x&against=zombies.yaml%23first")
    assert odds.status == 200 and "choose the unit to attack" in odds.text


def test_every_game_action_needs_the_token_the_host_and_the_origin(server: Server, folder: Path):
    game = started(server, ZOMBIES)
    path = folder / ".listbuilder" / "games" / ZOMBIES / f"{int(game):04d}.yaml"
    before = path.read_bytes()
    fields = {"game": game, "do": "mark|Dead|Hunter 1"}
    assert server.post(play(ZOMBIES) + "/tap", fields).status == 403  # no token
    assert server.post(play(ZOMBIES) + "/tap", {**fields, "token": "forged"}).status == 403
    token = server.token()
    assert (
        server.post(play(ZOMBIES) + "/tap", {**fields, "token": token}, headers={"Host": "evil.example"}).status == 421
    )
    assert (
        server.post(
            play(ZOMBIES) + "/tap", {**fields, "token": token}, headers={"Origin": "http://evil.example"}
        ).status
        == 403
    )
    assert (
        server.post(play(ZOMBIES) + "/tap", {**fields, "token": token}, headers={"Sec-Fetch-Site": "cross-site"}).status
        == 403
    )
    big = {**fields, "token": token, "pad": "x" * (1024 * 1024 + 10)}
    assert server.post(play(ZOMBIES) + "/tap", big).status == 413
    assert path.read_bytes() == before


@pytest.mark.parametrize("name", ["..%2Fzombies.yaml", "%2Fetc%2Fpasswd", ".listbuilder", "notes.txt"])
def test_a_play_path_out_of_the_folder_is_refused(server: Server, name: str):
    assert server.get(f"/list/{name}/play").status in (400, 404)
    assert server.post(f"/list/{name}/play/tap", {"token": server.token(), "tap": "start"}).status in (400, 404)


def test_read_only_shows_games_and_changes_nothing(server: Server, folder: Path):
    game = started(server, ELVES)
    server.post(play(ELVES) + "/tap", {"token": server.token(), "game": game, "do": "mark|Dead|Windblade 1"})
    path = folder / ".listbuilder" / "games" / ELVES / f"{int(game):04d}.yaml"
    before = path.read_bytes()
    listing = sorted(p.name for p in path.parent.iterdir())
    ro = start(folder, "--read-only")
    try:
        page = ro.get(play(ELVES)).text
        assert 'aria-pressed="true" aria-label="Dead: Windblade 1"' in page
        assert "disabled" in page and 'value="start"' not in page and "End this game" not in page
        token = re.search(r'name="token" value="([^"]+)"', ro.get("/").text)
        fields = {"token": token.group(1) if token else "", "game": game, "do": "unmark|Dead|Windblade 1"}
        assert ro.post(play(ELVES) + "/tap", fields).status == 403
        assert ro.post(play(ELVES) + "/tap", {**fields, "tap": "start"}).status == 403
    finally:
        ro.stop()
    assert path.read_bytes() == before and sorted(p.name for p in path.parent.iterdir()) == listing


def test_a_tampered_game_is_shown_with_what_is_wrong(server: Server, folder: Path):
    game = started(server, HIVE)
    path = folder / ".listbuilder" / "games" / HIVE / f"{int(game):04d}.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("markers: {}", 'markers:\n  "Nobody": {"Danger": 3}'))
    page = server.get(play(HIVE) + f"?game={game}").text
    assert "This game file was changed outside listbuilder" in page
    assert "which is not a model of this list" in page
    answer = server.post(play(HIVE) + "/tap", {"token": server.token(), "game": game, "tap": "next-turn"})
    assert answer.status == 400 and "cannot be played on" in answer.text


def _percents(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<tr><td>([^<]+)</td><td class="num">([^<]+)</td></tr>', html)


@pytest.mark.parametrize(
    ("file", "attacker", "against", "target", "options"),
    [
        # might-skirmish: Hunter's ranged attack on the Windblade through partial cover (004 lines 27-37)
        (ZOMBIES, "Hunter 1", ELVES, 0, {"attack": "ranged", "cover": "partial"}),
        (ZOMBIES, "Grandpa Bones", ELVES, 0, {"attack": "melee", "defending": "on"}),
        (MARINES, "Colonial Marine 1", HIVE, 2, {}),
    ],
)
def test_the_odds_on_the_page_are_listbuilders_odds(server, folder, cli, file, attacker, against, target, options):
    import yaml

    query = "&".join(
        [f"attacker={quote(attacker)}", f"against={quote(against)}%23{target}"]
        + [f"{k}={v}" for k, v in options.items()]
    )
    page = server.get(play(file) + f"/odds?{query}", headers=HTMX).text
    shown = _percents(page)
    assert shown, page
    system = yaml.safe_load((folder / file).read_text(encoding="utf-8"))["system"]
    unit_a = re.sub(r" \d+$", "", attacker)
    units_b = yaml.safe_load((folder / against).read_text(encoding="utf-8"))["units"]
    unit_b = units_b[target].get("unit") or units_b[target]["name"]
    out = cli("odds", system, unit_a, unit_b, *cli_args_of(options))
    assert out.exit_code == 0, out.stdout
    printed = re.findall(r"^  (.+?)\s{2,}(\d+(?:\.\d+)?%)$", out.stdout, flags=re.M)
    assert [row for row in shown if row[0] != "expected kills"] == printed


def cli_args_of(options: dict[str, str]) -> list[str]:
    return [k if v == "on" else f"{k}={v}" for k, v in options.items()]


def test_the_odds_form_lists_only_lists_of_the_same_rule_set(server: Server):
    assert 'href="/list/zombies.yaml/play/odds' in server.get(play(ZOMBIES)).text
    page = server.get(play(ZOMBIES) + "/odds").text
    assert f'<optgroup label="Windblade Elves ({ELVES})">' in page
    assert HIVE not in page.split('id="odds-section"')[1]
    for key in ("attack", "cover", "defending", "stunned"):  # might-skirmish's situation options (odds.yaml)
        assert f'name="{key}"' in page


def test_a_list_edited_mid_game_is_said_on_the_page(server: Server, folder: Path):
    (folder / "edited.yaml").write_bytes((folder / ZOMBIES).read_bytes())
    game = started(server, "edited.yaml")
    server.post(play("edited.yaml") + "/tap", {"token": server.token(), "game": game, "do": "mark|Dead|Hunter 2"})
    text = (folder / "edited.yaml").read_text(encoding="utf-8")
    (folder / "edited.yaml").write_text(text.replace("  - unit: Hunter\n    count: 2\n", "  - unit: Hunter\n"))
    page = server.get(play("edited.yaml")).text
    assert "The list was edited since this game began" in page and "Hunter: 2 → 1" in page
    assert "set aside: the markers of Hunter 2, which the list no longer has" in page
    assert 'class="badge warn" href="#list-changed">list edited</a>' in page
    answer = server.post(
        play("edited.yaml") + "/tap", {"token": server.token(), "game": game, "do": "mark|Dead|Hunter"}
    )
    assert answer.status == 303  # it plays on with the list as it is
