"""What a player picks a rule set by (``SystemChoice``): the same as the loaded rule set says, kept
in the cache under the rule set's system.yaml files alone, so a page that offers every rule set
loads none of them, and an edit to a system.yaml is seen while one to a faction file is not needed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import ROOT

from listbuilder import api
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.system import SystemChoice

SHIPPED = ROOT / "catalogs"


def test_each_choice_is_what_its_loaded_rule_set_says():
    choices = Catalogs().choices()
    loaded = Catalogs()
    assert choices == [SystemChoice.of(loaded.get(i)) for i in loaded.ids()]
    by_id = {c.id: c for c in choices}
    # catalogs/might-skirmish/system.yaml: a standard game of 100 points; deathzap counts figures
    assert by_id["might-skirmish"].default_limit == 100 and by_id["might-skirmish"].size_unit == "points"
    assert by_id["deathzap"].size_unit == "figures"
    assert by_id["might-skirmish-150"].default_limit == 150  # a variant: its own system.yaml over its base's


def test_a_kept_choice_loads_no_rule_set():
    Catalogs().choices()  # kept in the cache
    fresh = Catalogs()
    assert [c.id for c in fresh.choices()] == fresh.ids()
    assert fresh._loaded == {}


def _user_copy(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "mine"
    shutil.copytree(SHIPPED / "deathzap", root / "homezap")
    system = root / "homezap" / "system.yaml"
    system.write_text(system.read_text(encoding="utf-8").replace("id: deathzap", "id: homezap"), encoding="utf-8")
    return root, system


def test_an_edit_to_a_system_yaml_is_seen_and_one_to_a_faction_costs_no_load(tmp_path):
    root, system = _user_copy(tmp_path)
    first = {c.id: c for c in Catalogs([root]).choices()}["homezap"]
    assert first.name == "Deathzap (simplified)"
    faction = root / "homezap" / "factions" / "grox-swarm.yaml"
    faction.write_text(faction.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    after_faction = Catalogs([root])
    assert after_faction.choice("homezap") == first and "homezap" not in after_faction._loaded
    system.write_text(system.read_text(encoding="utf-8").replace("name: Deathzap (simplified)", "name: Homezap"))
    assert Catalogs([root]).choice("homezap").name == "Homezap"


def test_the_lists_page_offers_every_rule_set_by_its_choice(tmp_path):
    offered = api.system_choices(api.open_catalogs())
    assert [c.id for c in offered] == Catalogs().ids() and all(isinstance(c, SystemChoice) for c in offered)
