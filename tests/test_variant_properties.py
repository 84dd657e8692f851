"""Property tests of variant merging: any variant file either loads or fails with a located error."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from conftest import CATALOGS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder.errors import ListbuilderError
from listbuilder.files.yamldoc import Document
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.variant import merge, remove

SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)

keys = st.sampled_from(["id", "name", "stat", "kind", "count", "of", "rule", "constraints", "groups", "x"])
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 30), st.sampled_from(["max-fighters", "rare", "at_most", "Mech", "a"])
)
data = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)
BASE = yaml.safe_load((CATALOGS / "might-skirmish" / "system.yaml").read_text())


@SETTINGS
@given(data)
def test_laying_nothing_or_the_base_itself_over_the_base_changes_nothing(base):
    assert merge(base, {} if isinstance(base, dict) else base, (), (), {}) == base
    assert merge(base, base, (), (), {}) == base


@SETTINGS
@given(st.dictionaries(keys, data, max_size=5))
def test_a_merge_keeps_every_key_of_the_base_and_of_the_variant(over):
    merged = merge(BASE, over, (), (), {})
    assert set(merged) == set(BASE) | set(over)


@SETTINGS
@given(data)
def test_remove_never_crashes_and_only_drops(spec):
    errors: list = []
    doc = Document(path=Path("variant.yaml"), data={}, positions={}, text="")
    out = remove(BASE, spec, doc, ("remove",), errors)
    assert set(out) <= set(BASE)
    assert all(e.message for e in errors)


@SETTINGS
@given(st.dictionaries(keys, data, max_size=5))
def test_any_variant_file_loads_or_fails_with_a_located_error(tmp_path_factory, body):
    root = tmp_path_factory.mktemp("club")
    folder = root / "house"
    folder.mkdir()
    text = "extends: might-skirmish\nid: house\nname: House\n" + yaml.safe_dump(body, sort_keys=False)
    (folder / "system.yaml").write_text(text, encoding="utf-8")
    try:
        Catalogs([root], cache=False).get("house")
    except ListbuilderError as exc:
        assert exc.file is not None and exc.render()
    shutil.rmtree(root)
