"""A link in ``.listbuilder/deleted/`` is never read: the lists page never shows the name of the
file it points to, and restoring it is refused, as every other link under ``.listbuilder`` is
(``editing/history.safe_folder``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from asgiclient import Client
from conftest import EXAMPLES

from listbuilder.editing import folder as lists
from listbuilder.errors import InputError
from listbuilder.web import create_app

TOKEN = "token-of-the-deleted-links-test-0123"
PAGE = {"sec-fetch-site": "same-origin"}
SECRET = "Secret Rangers Of Elsewhere"
LINK = "20240101T000000000000-rangers.yaml"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    served = tmp_path / "served"
    deleted = served / ".listbuilder" / "deleted"
    deleted.mkdir(parents=True)
    outside = tmp_path / "outside.yaml"
    text = (EXAMPLES / "deathzap-frontier-rangers.legal.yaml").read_text(encoding="utf-8")
    outside.write_text(_renamed(text), encoding="utf-8")
    (deleted / LINK).symlink_to(outside)
    (deleted / "20240101T000000000001-dangling.yaml").symlink_to(tmp_path / "nowhere.yaml")
    return served


def _renamed(text: str) -> str:
    return "\n".join(f"name: {SECRET}" if line.startswith("name:") else line for line in text.splitlines()) + "\n"


def test_the_outside_file_holds_the_name(folder: Path):
    assert SECRET in (folder.parent / "outside.yaml").read_text(encoding="utf-8")  # what must not show


def test_a_link_among_the_deleted_lists_is_not_listed(folder: Path):
    assert lists.deleted(folder) == []
    page = Client(create_app(folder, token=TOKEN)).get("/")
    assert page.status == 200
    assert SECRET not in page.text
    assert "rangers" not in page.text


def test_a_link_among_the_deleted_lists_is_not_restored(folder: Path):
    client = Client(create_app(folder, token=TOKEN))
    answer = client.post("/restore", {"token": TOKEN, "id": LINK}, PAGE)
    assert answer.status == 400
    assert f"no deleted list &#39;{LINK}&#39;" in answer.text or f"no deleted list '{LINK}'" in answer.text
    assert SECRET not in answer.text
    assert not (folder / "rangers.yaml").exists()
    assert (folder / ".listbuilder" / "deleted" / LINK).is_symlink()


def test_a_real_deleted_list_beside_the_link_is_listed_and_restored(folder: Path):
    (folder / "zombies.yaml").write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    deleted_id = lists.delete(folder, "zombies.yaml")
    assert [found[0] for found in lists.deleted(folder)] == [deleted_id]
    assert "Zombie Family" in Client(create_app(folder, token=TOKEN)).get("/").text
    assert lists.restore(folder, deleted_id) == "zombies.yaml"


def test_a_deleted_list_is_read_only_as_a_regular_file(folder: Path):
    # the lists page reads a deleted list's name with it: a link swapped in after the folder was
    # listed is refused on the open, not followed
    with pytest.raises(InputError, match="a deleted list is a regular file"):
        lists.deleted_text(folder / ".listbuilder" / "deleted" / LINK)
    real = folder / ".listbuilder" / "deleted" / "20240101T000000000002-real.yaml"
    real.write_text("name: Real\n", encoding="utf-8")
    assert lists.deleted_text(real) == "name: Real\n"
