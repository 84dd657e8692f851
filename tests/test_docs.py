"""The documentation site: its generated pages are current, its quotations of the README and of
real files are found, and every page of its nav exists (``.ci/run`` builds it with --strict)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from listbuilder.authoring.fieldref import field_reference
from listbuilder.rules.forcerules import CONSTRAINT_KINDS

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nav(entries: list) -> list[str]:
    found = []
    for entry in entries:
        for value in entry.values():
            found += _nav(value) if isinstance(value, list) else [value]
    return found


def test_the_field_reference_is_what_the_loaders_records_say_now():
    page = (DOCS / "authors" / "fields.md").read_text(encoding="utf-8")
    assert page == field_reference(), "run: python -m listbuilder.authoring.fieldref docs/authors/fields.md"


def test_the_field_reference_documents_every_force_rule_kind_and_key():
    page = field_reference()
    for kind in CONSTRAINT_KINDS:
        assert f"### {kind.__name__} (`kind: " in page
    # where a first rule set's author stops: at_most counts 'of:' a group; a group's noun
    assert "| `of` | text | optional | a group name; leave out to count every model |" in page
    assert "| `noun` | [Noun](#noun) | optional | words for the group's members" in page


def test_every_page_in_the_nav_exists_and_every_page_is_in_the_nav():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = _nav(config["nav"])
    assert sorted(nav) == sorted(str(p.relative_to(DOCS)) for p in PAGES)
    for required in ("getting-started.md", "play.md", "architecture.md", "api.md", "authors/fields.md"):
        assert required in nav


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_what_a_page_quotes_is_there(page):
    text = page.read_text(encoding="utf-8")
    hooks = _hooks()
    for heading in re.findall(r"^<!-- readme: (#+ .+?) -->$", text, re.MULTILINE):
        assert hooks.readme_section(heading).strip(), heading
    for quoted in re.findall(r'^--8<-- "(.+?)"$', text, re.MULTILINE):
        assert (ROOT / quoted).is_file(), quoted
    for target in re.findall(r"\]\(([^)#:]+\.(?:md|png))(?:#[^)]*)?\)", hooks.on_page_markdown(text)):
        assert (page.parent / target).is_file(), f"{page.name} links to {target}"


def test_the_readme_sections_the_pages_quote_are_moved_whole():
    hooks = _hooks()
    codes = hooks.readme_section("## Exit codes")
    assert "| 130 |" in codes and "## " not in codes
    assert "<!-- readme: ## Exit codes -->" in (DOCS / "lists.md").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="no heading"):
        hooks.readme_section("## Nothing of the kind")


def test_the_readme_is_the_front_door_to_the_site():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "[`docs/`](docs/index.md)" in readme and "mkdocs serve" in readme
    for page in ("authors/guide.md", "authors/fields.md", "authors/variants.md", "authors/tests.md"):
        assert f"(docs/{page})" in readme
    # every page a player or an author reads next, and every picture, is found where it links
    linked = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", readme)
    assert {"docs/lists.md", "docs/browser.md", "docs/play.md", "docs/api.md"} <= set(linked)
    assert [target for target in linked if not (ROOT / target).is_file()] == []
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "mkdocs build --strict" in run and 'pip install -e ".[docs]"' in run


def test_the_guided_example_is_the_fixture_the_tests_run():
    guide = (DOCS / "authors" / "guide.md").read_text(encoding="utf-8")
    assert '--8<-- "tests/authors/goblins/system.yaml"' in guide
    assert Path(ROOT / "tests" / "authors" / "goblins" / "system.yaml").is_file()
