"""The odds on the web, over HTTP against a real server: the compare page shows two armies as
opponents (forces side by side, the odds both ways, a switch between kinds of attack that needs no
JavaScript) and two versions of one list as a diff; the play page offers each kind of attack with
its own options (deathzap's melee, text 001 lines 23-31). Numbers are checked against
enumerations written from the texts (``odds_oracles``)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import EXAMPLES
from odds_oracles import bf_attack, bf_zap_melee
from webserver import Server

ZOMBIES = "zombies.yaml"
ELVES = "elves.yaml"
RANGERS = "rangers.yaml"
GROX = "grox.yaml"
SWARM = "swarm.yaml"  # the Grox Swarm without its broken entry
HTMX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("odds-web")
    for name, source in (
        (ZOMBIES, "might-skirmish-zombie-family.legal.yaml"),
        (ELVES, "might-skirmish-windblade-elves.legal.yaml"),
        (RANGERS, "deathzap-frontier-rangers.legal.yaml"),
        (GROX, "deathzap-grox-swarm.illegal.yaml"),
    ):
        (root / name).write_bytes((EXAMPLES / source).read_bytes())
    swarm = (root / GROX).read_text(encoding="utf-8")
    (root / SWARM).write_text(swarm[: swarm.index("  - name: Lost Brood")], encoding="utf-8")
    return root


def visible(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def compare(file: str, query: str = "") -> str:
    return f"/list/{quote(file)}/compare{'?' + query if query else ''}"


def cells(html: str, row: str) -> list[str]:
    """The cells of one row of each grid on a page, grid by grid."""
    return [
        re.findall(r"<td[^>]*>([^<]*)</td>", m) for m in re.findall(rf"<tr><th>{re.escape(row)}</th>(.*?)</tr>", html)
    ]


# --- compare: two armies are opponents ------------------------------------------------------------


def test_two_armies_are_compared_as_opponents_side_by_side_with_the_odds_both_ways(server: Server):
    page = server.get(compare(ZOMBIES, f"with={ELVES}")).text
    text = visible(page)
    # no version diff of two armies ("~ name 'Zombie Family' → 'Windblade Elves'", every unit removed)
    assert "→" not in text and '<pre class="diff">' not in page
    assert "Shown as opponents: two armies" in text
    assert f'href="{compare(ZOMBIES, f"with={ELVES}")}&amp;as=versions">Compare as two versions of one list</a>' in page
    # totals and forces side by side
    assert "Zombie Family zombies.yaml Legal 98 of 100 points, 14 fighters" in text
    assert "Windblade Elves elves.yaml Legal 99 of 100 points, 16 fighters" in text
    assert "<li>2× Hunter</li>" in page and "<li>4× Windblade</li>" in page
    # the odds both ways, melee first (the rule set's default kind)
    assert page.count('<figure class="matrix">') == 2
    assert page.index("Zombie Family against Windblade Elves") < page.index("Windblade Elves against Zombie Family")
    assert text.count("Melee attack: the models each attack is expected to remove.") == 2
    # Cousin Sniper (Might 7) against a Windblade (Might 7) in melee: 3D6 on the '=' column, 20/216
    # (004 lines 28-30): 0.09; each grid says what kills per 100 points means
    assert bf_attack(7, 7)[0] == Fraction(20, 216)
    assert cells(page, "Cousin Sniper")[0][0] == "0.09"
    assert text.count("Kills per 100 points: the models one attack of the unit is expected to remove") == 2


def test_the_kind_of_attack_is_switched_by_links_without_javascript(server: Server):
    page = server.get(compare(ZOMBIES, f"with={ELVES}")).text
    nav = page[page.index('<nav class="kinds"') : page.index("</nav>", page.index('<nav class="kinds"'))]
    assert 'aria-label="Kind of attack"' in nav
    assert re.findall(r'<a class="button[^"]*" href="([^"]+)"[^>]*>([^<]+)</a>', nav) == [
        (f"{compare(ZOMBIES, f'with={ELVES}')}&amp;as=opponents&amp;attack=melee", "Melee attack"),
        (f"{compare(ZOMBIES, f'with={ELVES}')}&amp;as=opponents&amp;attack=ranged", "Ranged attack"),
    ]
    assert 'attack=melee" aria-current="page">Melee attack' in nav
    ranged = server.get(compare(ZOMBIES, f"with={ELVES}&as=opponents&attack=ranged")).text
    assert 'attack=ranged" aria-current="page">Ranged attack' in ranged
    assert visible(ranged).count("Ranged attack: the models each attack is expected to remove.") == 2
    # the Sniper shoots 4D6 keeping 3 (004 line 30): 50/216, 0.23; a Shambler cannot shoot (line 26)
    assert bf_attack(7, 7, dice=4, keep=3)[0] == Fraction(50, 216)
    assert cells(ranged, "Cousin Sniper")[0][0] == "0.23"
    assert set(cells(ranged, "Shambler ×4")[0][:7]) == {"–"}
    dash = "– means the row&#39;s unit cannot make this kind of attack (ranged attack) on the column&#39;s unit"
    assert dash in ranged
    # a kind the rule set has not: its first kind, never an error page
    odd = server.get(compare(ZOMBIES, f"with={ELVES}&attack=magic"))
    assert odd.status == 200 and 'attack=melee" aria-current="page"' in odd.text


def test_deathzap_grids_offer_shooting_and_melee_and_the_brood_lord_fights(server: Server):
    page = server.get(compare(SWARM, f"with={RANGERS}&attack=melee")).text
    assert 'attack=melee" aria-current="page">Melee</a>' in page and ">Shooting</a>" in page
    assert visible(page).count("Melee: the models each attack is expected to remove.") == 2
    # the Brood Lord (1 Monster, 12 combat dice, 001 line 29) charging a Ranger Squad of 8 Infantry
    lord = cells(page, "Brood Lord")[0]
    assert lord[0] == "7.90"  # as `listbuilder odds deathzap "Brood Lord" "Ranger Squad" --attack melee`
    shooting = server.get(compare(SWARM, f"with={RANGERS}&attack=shooting")).text
    assert set(cells(shooting, "Brood Lord")[0]) == {"–"}  # it carries no gun (001 lines 2-9)
    assert "– means the row&#39;s unit cannot make this kind of attack (shooting) on the column&#39;s unit" in shooting


def test_the_same_list_twice_is_compared_as_two_versions(server: Server, folder: Path):
    (folder / "zombies-copy.yaml").write_text(
        (folder / ZOMBIES).read_text(encoding="utf-8").replace("name: Zombie Family", "name: Zombie Family (copy)")
        + "  - unit: Hunter\n",
        encoding="utf-8",
    )
    page = server.get(compare(ZOMBIES, "with=zombies-copy.yaml")).text
    text = visible(page)
    assert "Shown as two versions of one list: one name" in text
    assert '<pre class="diff">' in page and "~ Hunter 2 → 3" in text and '<figure class="matrix">' not in page
    assert 'as=opponents">Compare as opponents</a>' in page
    # either way round, on request
    opponents = server.get(compare(ZOMBIES, "with=zombies-copy.yaml&as=opponents")).text
    assert opponents.count('<figure class="matrix">') == 2 and '<pre class="diff">' not in opponents
    assert "Shown as opponents." in visible(opponents)
    versions = server.get(compare(ZOMBIES, f"with={ELVES}&as=versions")).text
    assert "~ name" in versions and '<figure class="matrix">' not in versions


def test_the_404_names_the_file_that_is_missing(server: Server):
    answer = server.get(compare(ZOMBIES, "with=gone.yaml"))
    assert answer.status == 404
    assert "There is no list file gone.yaml in this folder" in answer.text
    assert "There is no list file zombies.yaml" not in answer.text
    assert server.get(compare(ZOMBIES, "with=../x.yaml")).status == 404
    assert "There is no list file nope.yaml" in server.get(compare("nope.yaml", f"with={ELVES}")).text


def test_an_illegal_list_says_why_it_has_no_grid_not_that_it_is_empty(server: Server, folder: Path):
    # 35 item 6: the Grox Swarm has eight entries; its Lost Brood of 0 figures breaks 001 line 24
    text = visible(server.get(compare(RANGERS, f"with={GROX}")).text)
    assert "empty" not in text
    assert text.count("No odds grid") == 1  # one reason, both ways: said once
    assert "No odds grid: &#39;Lost Brood&#39; breaks the rules of deathzap, so there are no odds for it" in text
    assert "Figures 0 is 1 below the minimum of 1" in text
    (folder / "empty.yaml").write_text("system: deathzap\nname: Nobody Yet\nfigures: 30\nunits: []\n", encoding="utf-8")
    empty = visible(server.get(compare(RANGERS, "with=empty.yaml")).text)
    assert "No odds grid: Nobody Yet has no units yet" in empty


# --- the play page: each kind of attack, with its own options --------------------------------------


def test_the_play_odds_offer_deathzap_shooting_and_melee_each_with_its_options(server: Server):
    page = server.get(f"/list/{SWARM}/play/odds").text
    kinds = re.search(r'<select name="attack">(.*?)</select>', page)
    assert kinds is not None
    assert re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', kinds.group(1)) == [
        ("shooting", "Shooting"),
        ("melee", "Melee"),
    ]
    shooting = page[page.index("<legend>For shooting</legend>") : page.index("<legend>For melee</legend>")]
    melee = page[page.index("<legend>For melee</legend>") : page.index("Work out the odds")]
    assert re.findall(r'name="([a-z_]+)"', shooting) == ["cover", "weapon", "firing"]  # 001 lines 3-11, 24
    assert re.findall(r'name="([a-z_]+)"', melee) == ["charging", "attacker_figures", "target_figures"]  # line 24


def _rows(html: str) -> dict[str, str]:
    found = re.findall(r'<tr><td>([^<]+)</td><td class="num">([^<]+)</td></tr>', html)
    return {name: chance.replace("&lt;", "<") for name, chance in found}


def test_the_brood_lord_has_melee_odds_on_the_play_page(server: Server):
    query = f"attacker=Brood+Lord&against={RANGERS}%230&attack=melee&charging=attacker"
    answer = server.get(f"/list/{SWARM}/play/odds?{query}", headers=HTMX).text
    assert "(Melee" in answer
    bf = bf_zap_melee((1, "Monsters"), (8, "Infantry"))  # it charges: its 12 dice first (001 lines 24, 29)
    assert round(float(bf["charger wins"]) * 100, 1) == 98.5 and round(float(bf["charger destroyed"]) * 100, 1) == 1.5
    assert _rows(answer) == {
        "target destroyed": "98.5%",
        "attacker destroyed": "1.5%",
        "both destroyed": "<0.1%",  # 5.8 in ten million
        "expected kills": "7.90",
    }
    # the squad charges the Lord instead: its 8 dice strike first (line 24)
    back = server.get(f"/list/{SWARM}/play/odds?{query.replace('charging=attacker', 'charging=target')}", headers=HTMX)
    flipped = bf_zap_melee((8, "Infantry"), (1, "Monsters"))
    assert round(float(flipped["charger destroyed"]) * 100, 1) == 96.6
    assert _rows(back.text)["target destroyed"] == "96.6%" and _rows(back.text)["attacker destroyed"] == "3.4%"
    # shooting: the Lord carries no gun, and the page says so rather than a dash
    gun = server.get(f"/list/{SWARM}/play/odds?{query.replace('attack=melee', 'attack=shooting')}", headers=HTMX)
    assert "Brood Lord has no weapon to shoot with" in gun.text


def test_a_ranger_squad_shoots_with_cover_as_the_command_line_does(server: Server, cli):
    query = f"attacker=Ranger+Squad+1&against={SWARM}%230&attack=shooting&cover=soft&weapon=all&firing="
    page = server.get(f"/list/{RANGERS}/play/odds?{query}", headers=HTMX).text
    assert "(Shooting" in page
    out = cli("odds", "deathzap", "Ranger Squad", "Grox Brood", "--attack", "shooting", "cover=soft")
    printed = dict(re.findall(r"^  (.+?)\s{2,}(\S+%)$", out.stdout, flags=re.M))
    assert printed and {k: v for k, v in _rows(page).items() if k != "expected kills"} == printed


def test_lists_of_two_rule_sets_say_so_once_in_either_view(server: Server):
    # an address typed by hand: the page offers only lists of the same rule set
    opponents = server.get(compare(ZOMBIES, f"with={RANGERS}"))
    assert opponents.status == 200
    text = visible(opponents.text)
    assert text.count("No odds grid") == 1
    assert "No odds grid: the lists are for different rule sets: might-skirmish and deathzap" in text
    versions = server.get(compare(ZOMBIES, f"with={RANGERS}&as=versions"))
    assert versions.status == 200 and "No diff: the lists are for different rule sets" in visible(versions.text)


def test_what_reads_as_two_versions_of_one_list(tmp_path: Path):
    from listbuilder.api import lists, rulesets, sharing

    books = rulesets.open_catalogs()

    def report(name: str, units: str, system: str = "might-skirmish") -> lists.Report:
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.yaml"
        path.write_text(f"system: {system}\nname: {name}\nunits:\n{units}", encoding="utf-8")
        return lists.check_list(path, books)

    zombies = report("Zombie Family", "  - unit: Hunter\n")
    assert sharing.factions_of(zombies) == ("Zombie Family",)
    # a duplicate, a copy's copy, another case: one list
    assert sharing.versions_of_one_list(zombies, report("Zombie Family (copy)", "  - unit: Shambler\n"))
    assert sharing.versions_of_one_list(zombies, report("zombie family (Copy) (copy)", "  - unit: Hunter\n"))
    # one unit of another faction added: still a faction in common
    assert sharing.versions_of_one_list(zombies, report("Zombie Family", "  - unit: Hunter\n  - unit: Windblade\n"))
    # a list of custom units only names no faction: the name decides
    ghouls = report("Zombie Family", "  - {name: Ghoul, class: Soldier, might: 5}\n")
    assert sharing.versions_of_one_list(zombies, ghouls)
    # another name, or the same name with no faction in common, or another rule set: two armies
    assert not sharing.versions_of_one_list(zombies, report("Zombie Family II", "  - unit: Hunter\n"))
    assert not sharing.versions_of_one_list(zombies, report("Zombie Family", "  - unit: Windblade\n"))
    variant = report("Zombie Family", "  - unit: Hunter\n", "might-skirmish-150")
    assert not sharing.versions_of_one_list(zombies, variant)
