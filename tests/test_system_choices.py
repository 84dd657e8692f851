"""What a player picks a rule set by (``SystemChoice``): the same as the loaded rule set says, kept
in the rule set's cache entry so a page that offers every rule set loads none of them, there when
the rule set loads and only then (with the cache on, off or cold), and a rule set that cannot be
read said on the lists page rather than breaking it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from asgiclient import Client
from conftest import ROOT

from listbuilder.api import rulesets
from listbuilder.rules import cache
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.system import SystemChoice
from listbuilder.web import create_app

SHIPPED = ROOT / "catalogs"


def test_each_choice_is_what_its_loaded_rule_set_says():
    choices = Catalogs().choices()
    loaded = Catalogs()
    assert list(choices.offered) == [SystemChoice.of(loaded.get(i)) for i in loaded.ids()] and not choices.unreadable
    by_id = {c.id: c for c in choices.offered}
    # catalogs/might-skirmish/system.yaml: a standard game of 100 points; deathzap counts figures
    assert by_id["might-skirmish"].default_limit == 100 and by_id["might-skirmish"].size_unit == "points"
    assert by_id["deathzap"].size_unit == "figures"
    assert by_id["might-skirmish-150"].default_limit == 150  # a variant: its own system.yaml over its base's


def test_a_kept_choice_loads_no_rule_set():
    Catalogs().choices()  # kept in the cache
    fresh = Catalogs()
    assert [c.id for c in fresh.choices().offered] == fresh.ids()
    assert fresh._loaded == {}


def _user_copy(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "mine"
    shutil.copytree(SHIPPED / "deathzap", root / "homezap")
    system = root / "homezap" / "system.yaml"
    system.write_text(system.read_text(encoding="utf-8").replace("id: deathzap", "id: homezap"), encoding="utf-8")
    return root, system


@pytest.mark.parametrize("caching", ["on", "off"])
def test_a_rule_set_that_breaks_is_not_offered_whatever_the_cache(tmp_path, monkeypatch, caching):
    if caching == "off":
        monkeypatch.setenv("LISTBUILDER_NO_CACHE", "1")
    root, _ = _user_copy(tmp_path)
    assert Catalogs([root]).choice("homezap").name == "Deathzap (simplified)"  # kept, with the cache on
    faction = root / "homezap" / "factions" / "grox-swarm.yaml"
    faction.write_text(faction.read_text(encoding="utf-8") + "\nunits: [ {name: 3\n", encoding="utf-8")
    cache.clear()  # a new run
    choices = Catalogs([root]).choices()
    assert "homezap" not in [c.id for c in choices.offered]
    ((broken, why),) = choices.unreadable
    assert broken == "homezap" and "grox-swarm.yaml" in why and "not valid YAML" in why


def test_an_edit_to_a_system_yaml_is_seen_and_agrees_with_the_loaded_rule_set(tmp_path):
    root, system = _user_copy(tmp_path)
    Catalogs([root]).choices()  # kept in the cache
    books = Catalogs([root])  # a server's: its choice from the cache, the rule set not loaded
    assert books.choice("homezap").name == "Deathzap (simplified)" and "homezap" not in books._loaded
    system.write_text(system.read_text(encoding="utf-8").replace("name: Deathzap (simplified)", "name: Homezap"))
    assert Catalogs([root]).choice("homezap").name == "Homezap"
    # the server opens a list of it after the edit: it loads the edited rule set, and offers that
    assert books.get("homezap").definition.name == "Homezap" and books.choice("homezap").name == "Homezap"


def test_the_lists_page_says_a_broken_rule_set_and_offers_the_others(tmp_path):
    root, system = _user_copy(tmp_path)
    system.write_text(system.read_text(encoding="utf-8") + "\nnonsense: [\n", encoding="utf-8")
    folder = tmp_path / "lists"
    folder.mkdir()
    page = Client(create_app(folder, catalogs=[root], port=8000)).request("GET", "/")
    assert page.status == 200
    assert "The rule set homezap cannot be read, so no list can be started with it:" in page.text
    assert "system.yaml" in page.text and '<option value="homezap"' not in page.text
    assert '<option value="might-skirmish"' in page.text
    offered = rulesets.open_catalogs().choices()
    assert [c.id for c in offered.offered] == Catalogs().ids()
