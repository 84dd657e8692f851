"""`render --pocket`: one HTML file that holds a list, its rules, its odds and a game tracker, and
asks nothing of any network. Its content as written (this module); the tracker in Chromium,
opened from disk with every request refused (test_pocket_browser.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html import unescape
from pathlib import Path

import pytest
from conftest import EXAMPLES

from listbuilder.api import lists, printing

ELVES = EXAMPLES / "might-skirmish-windblade-elves.legal.yaml"
ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
MARINES = EXAMPLES / "deathmelt-colonial-marines.legal.yaml"
RANGERS = EXAMPLES / "deathzap-frontier-rangers.legal.yaml"


def data_of(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="pocket-data">(.*?)</script>', html, re.S)
    assert found, "the board's JSON is in the file"
    return json.loads(found.group(1))


def scripts_of(html: str) -> list[str]:
    return re.findall(r"<script>(.*?)</script>", html, re.S)


@pytest.fixture
def pocket(cli, tmp_path):
    def make(list_file: Path, *vs: Path, name: str = "pocket.html") -> tuple[str, str]:
        out = tmp_path / name
        args = ["render", list_file, "--pocket", "-o", out]
        for v in vs:
            args += ["--vs", v]
        result = cli(*args)
        assert result.exit_code == 0, result.stderr
        return out.read_text(encoding="utf-8"), result.stderr

    return make


def test_a_pocket_copy_holds_the_roster_rules_card_odds_and_tracker(pocket):
    html, _ = pocket(ELVES, ZOMBIES, MASH)
    assert "<h1>Windblade Elves</h1>" in html or "Windblade Elves" in html
    assert 'class="sheet roster' in html and 'class="sheet reference' in html and 'class="sheet card' in html
    # a grid for each opponent, named
    assert "against Zombie Family" in html and "against Monster Mash" in html
    board = data_of(html)
    assert board["system"] == "Might Skirmish" and len(board["pieces"]) == 16
    assert [t["label"] for t in board["tracks"]] == ["Fate tokens", "Enemy points killed"]
    assert board["turns"] == 5  # might-skirmish: five turns each (the text's game length)


def test_the_file_asks_nothing_of_any_network(pocket):
    html, _ = pocket(ELVES, ZOMBIES)
    csp = unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1))
    assert "default-src 'none'" in csp and "connect-src 'none'" in csp and "form-action 'none'" in csp
    # the one script runs by its hash, and no other
    (code,) = scripts_of(html)
    digest = base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp
    # nothing in it names another place to load from
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
    assert "@import" not in html and "url(http" not in html and "fetch(" not in code and "XMLHttpRequest" not in code
    assert "@font-face" not in html  # system fonts: the shipped ones would double the file


def test_the_script_is_the_package_file(pocket):
    html, _ = pocket(ZOMBIES)
    shipped = (Path(printing.__file__).parents[1] / "printing" / "pocket.js").read_text(encoding="utf-8")
    assert scripts_of(html) == [shipped]


def test_a_hostile_name_is_text_everywhere(pocket, write_list):
    name = '</script><script>alert(1)</script> & "quoted" \u2028 <b>bold</b>'
    path = write_list(
        f"""\
        system: might-skirmish
        name: {json.dumps(name)}
        units:
          - unit: Hunter
            count: 2
          - name: "<img src=x onerror=alert(2)>'"
            class: Soldier
            might: 8
        """
    )
    html, _ = pocket(path)
    assert len(scripts_of(html)) == 1  # the name closed no element and opened none
    assert "<script>alert(1)" not in html and "<img src=x" not in html and "<b>bold</b>" not in html
    board = data_of(html)
    assert board["name"] == name  # and the tracker reads it back exactly
    assert board["pieces"][-1]["key"] == "<img src=x onerror=alert(2)>'"


def test_a_list_that_is_not_legal_still_makes_a_pocket_copy_under_its_banner(pocket):
    html, stderr = pocket(MASH)
    assert 'class="banner"' in html and "Not legal" in html
    assert "not legal" in stderr


def test_the_odds_in_the_file_are_the_odds_command(pocket, cli):
    html, _ = pocket(ELVES, ZOMBIES)
    asked = json.loads(cli("odds", "--json", ELVES, ZOMBIES).stdout)
    grid = html[html.index("Windblade Elves against Zombie Family") :]
    table = grid[: grid.index("</table>")]
    rows = re.findall(r"<tr><th>(.*?)</th>(.*?)</tr>", table[table.index("<tbody>") :], re.S)
    assert rows, "the grid has rows"
    for (name, cells), attacker, kills in zip(rows, asked["attackers"], asked["expected_kills"], strict=False):
        assert name.split(" ×")[0] == attacker
        shown = re.findall(r'<td class="heat-\d">([^<]*)</td>', cells)
        assert shown == [f"{k:.2f}" for k in kills[: len(shown)]]


def test_set_up_rolls_read_the_tables_as_the_served_game_does(catalogs):
    from listbuilder.play.board import board_of
    from listbuilder.play.rolls import result
    from listbuilder.play.taps import Logged
    from listbuilder.play.tracker import tracker_data

    report = lists.check_list(ZOMBIES, catalogs)
    board = board_of(report, ZOMBIES.name, "v")
    data = tracker_data(board)
    deployment = next(r for r in data["rolls"] if r["kind"] == "table")
    for face in range(1, 7):
        served = result(board, Logged(tap="roll", turn=1, roll=deployment["id"], faces=(face,)))
        assert deployment["faces"][str(face)] == served
    roll_off = next(r for r in data["rolls"] if r["kind"] == "roll-off")
    assert roll_off["higher"] == "you roll higher" and roll_off["lower"] == "your opponent rolls higher"


def test_every_marker_of_the_served_board_is_a_control_in_the_file(catalogs):
    """One description of play: the pocket's pieces and controls are the served board's."""
    from listbuilder.play.board import board_of
    from listbuilder.play.tracker import tracker_data

    for path in (ZOMBIES, MARINES, RANGERS, EXAMPLES / "melee-module-foreign-legion.legal.yaml"):
        board = board_of(lists.check_list(path, catalogs), path.name, "v")
        data = tracker_data(board)
        assert [p["key"] for p in data["pieces"]] == [p.key for p in board.pieces]
        for piece, shown in zip(board.pieces, data["pieces"], strict=True):
            controls = data["controls"][shown["controls"]]
            assert [(c["marker"], c["kind"], c["maximum"]) for c in controls] == [
                (c.marker, c.kind, c.maximum) for c in piece.controls
            ]


def test_two_lists_keep_two_games(pocket):
    one, _ = pocket(ZOMBIES, name="a.html")
    two, _ = pocket(ELVES, name="b.html")
    again, _ = pocket(ZOMBIES, name="c.html")
    assert data_of(one)["key"] != data_of(two)["key"]
    assert data_of(one)["key"] == data_of(again)["key"]  # the same list finds its game again


def test_sixteen_fighters_and_two_opponents_fit_in_300_kb(pocket):
    html, _ = pocket(ELVES, ZOMBIES, MASH)
    assert len(html.encode("utf-8")) <= 300_000


def test_a_pocket_copy_too_large_says_so_and_writes_nothing(cli, tmp_path, monkeypatch):
    from listbuilder.printing import pocket as made

    monkeypatch.setattr(made, "MAX_BYTES", 10_000)
    out = tmp_path / "big.html"
    result = cli("render", ELVES, "--pocket", "-o", out)
    assert result.exit_code == 2
    assert "past the 10,000 a pocket copy may weigh" in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (("-o", "x.pdf"), "a pocket copy is one HTML file"),
        (("--only", "roster"), "a pocket copy does not take --only"),
        (("--qr",), "a pocket copy does not take --qr"),
        ((str(ZOMBIES),), "a pocket copy holds one list, found 2"),
        (("--vs", str(MARINES)), "odds compare lists of one rule set"),
    ],
)
def test_what_a_pocket_copy_does_not_take_is_named(cli, tmp_path, monkeypatch, extra, said):
    monkeypatch.chdir(tmp_path)
    result = cli("render", ELVES, "--pocket", *extra)
    assert result.exit_code == 2 and said in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_printed_list_takes_one_opponent(cli, tmp_path):
    result = cli("render", ELVES, "-o", tmp_path / "x.html", "--vs", ZOMBIES, "--vs", MASH)
    assert result.exit_code == 2 and "make a pocket copy (--pocket), which takes several" in result.stderr


def test_by_default_the_pocket_copy_is_written_beside_the_list(cli, tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_bytes(ZOMBIES.read_bytes())
    result = cli("render", mine, "--pocket")
    assert result.exit_code == 0 and (tmp_path / "mine.html").is_file()
    assert mine.read_bytes() == ZOMBIES.read_bytes()


def test_the_api_makes_the_same_file_from_text(catalogs):
    text = ZOMBIES.read_text(encoding="utf-8")
    report = lists.check_list(ZOMBIES, catalogs)
    done = printing.render_pocket(text, report, [lists.check_list(ELVES, catalogs)])
    assert done.format == "html" and done.lists == ("Zombie Family",) and done.illegal == ()
