"""The web builder's pages over HTTP, against a real server: what each page shows and what each link gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import EXAMPLES
from webserver import Server, start

ZOMBIES = "zombies.yaml"
ELVES = "elves.yaml"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pages")
    (root / ZOMBIES).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    (root / ELVES).write_bytes((EXAMPLES / "might-skirmish-windblade-elves.legal.yaml").read_bytes())
    (root / "broken.yaml").write_text("system: might-skirmish\nname: B\nunits:\n  - unit: Huntr\n", encoding="utf-8")
    (root / "notes.txt").write_text("not a list")
    return root


def test_the_lists_page_shows_every_list_and_a_located_error(server: Server):
    page = server.get("/").text
    assert page.count('class="list-card') == 3 and "notes.txt" not in page
    assert "98 of 100 points, 14 fighters" in page and "99 of 100 points, 16 fighters" in page
    assert "broken.yaml" in page and "line 4" in page and "did you mean &#39;Hunter&#39;?" in page
    assert (
        'Delete<span class="sr-only"> Zombie Family</span>' in page and 'aria-label="Duplicate Zombie Family"' in page
    )


def test_a_broken_list_gets_a_page_that_says_why(server: Server):
    answer = server.get("/list/broken.yaml")
    assert answer.status == 400
    assert "no unit &#39;Huntr&#39;" in answer.text


def test_the_builder_names_every_control(server: Server):
    page = server.get(f"/list/{ZOMBIES}").text
    for label in (
        "Add Hunter",
        "Add one Hunter",
        "Remove one Hunter",
        "Remove the Hunter entry",
        "Undo the last change",
    ):
        assert f'aria-label="{label}"' in page, label
    assert '<p class="verdict good" id="verdict">Legal</p>' in page
    assert '<meter class="bar" min="0" max="100" value="98" aria-label="98 of 100 points">' in page
    assert "★" not in page  # might-skirmish counts no leaders: no leader buttons


def test_leader_buttons_where_the_rule_set_counts_leaders(server: Server, folder: Path):
    (folder / "hive.yaml").write_bytes((EXAMPLES / "deathmelt-chitter-hive.legal.yaml").read_bytes())
    page = server.get("/list/hive.yaml").text
    # one model: a ★ pressed or not; a squad: how many of its models lead, one fewer and one more
    assert re.search(r'aria-label="Leader: [^"]+" aria-pressed="(true|false)">★<', page)
    assert re.search(r'aria-label="One more leader: [^"]+"', page)


def test_the_catalog_filter_answers_with_the_matching_units(server: Server):
    part = server.get(f"/list/{ZOMBIES}/catalog?q=sniper", headers={"HX-Request": "true"}).text
    assert part.startswith('<div id="catalog"')
    assert re.findall(r'aria-label="Add ([^"]+)"', part) == ["Gale Sniper", "Cousin Sniper"]
    assert "2 units match “sniper”" in part


def test_the_status_says_when_the_file_changed(server: Server, folder: Path):
    version = server.version(ZOMBIES)
    assert server.get(f"/list/{ZOMBIES}/status?version={version}").status == 204
    changed = server.get(f"/list/{ZOMBIES}/status?version=0000000000000000")
    assert changed.status == 200 and "changed on disk" in changed.text


def test_exports_and_the_qr_code(server: Server, folder: Path):
    text = server.get(f"/list/{ZOMBIES}/export/text")
    assert text.headers["content-type"].startswith("text/plain") and text.text.startswith("Zombie Family\n")
    assert "2x Hunter - 20 points" in text.text
    md = server.get(f"/list/{ZOMBIES}/export/markdown?download=1")
    assert md.headers["content-disposition"] == 'attachment; filename="zombies.md"'
    raw = server.get(f"/list/{ZOMBIES}/export/yaml")
    assert raw.body == (folder / ZOMBIES).read_bytes()  # the file itself, comments and all
    embedded = server.get(f"/list/{ZOMBIES}/export/yaml?embed=1").text
    assert "- name: Hunter" in embedded and "might: 10" in embedded
    assert server.get(f"/list/{ZOMBIES}/export/pdf").status == 400
    qr = server.get(f"/list/{ZOMBIES}/qr.svg")
    assert qr.headers["content-type"] == "image/svg+xml" and qr.text.startswith("<svg")
    assert "<title>Zombie Family: the list as text</title>" in qr.text


def test_print_downloads(server: Server):
    html = server.get(f"/list/{ZOMBIES}/print?format=html&only=roster&paper=letter&qr=1")
    assert html.headers["content-disposition"] == 'attachment; filename="zombies-roster.html"'
    assert "qr-code" in html.text and "size: Letter" in html.text and "sheet reference" not in html.text
    assert server.get(f"/list/{ZOMBIES}/print?format=docx").status == 400
    assert server.get(f"/list/{ZOMBIES}/print?paper=a3").status == 400
    card = server.get("/card/deathzap/download?format=html")
    assert card.headers["content-disposition"] == 'attachment; filename="deathzap-card.html"'


def test_compare_gives_both_odds_grids_and_the_diff_on_request(server: Server):
    page = server.get(f"/list/{ZOMBIES}/compare?with={ELVES}").text  # two armies: opponents
    assert page.count('<figure class="matrix">') == 2
    versions = server.get(f"/list/{ZOMBIES}/compare?with={ELVES}&as=versions").text
    assert "Windblade Elves (might-skirmish): 98 → 99 points of 100 (+1)" in versions
    assert "Zombie Family against Windblade Elves" in page and "Windblade Elves against Zombie Family" in page
    assert server.get(f"/list/{ZOMBIES}/compare?with=../x.yaml").status == 404


def test_the_rules_card_as_a_page(server: Server):
    page = server.get("/card/might-skirmish")
    # laid out for a screen by web.css, not with the print stylesheet's paper columns
    assert page.status == 200 and '<div class="web-card">' in page.text and "/print.css" not in page.text
    assert "<h2>Turn sequence</h2>" in page.text
    assert "A warband has at most 16 fighters." in page.text
    assert server.get("/card/no-such-game").status == 404  # a page that names it: test_player_words
    css = server.get("/print.css")
    assert css.headers["content-type"].startswith("text/css") and "@page" in css.text
    assert server.get("/fonts/Cabin-Regular.otf").headers["content-type"] == "font/otf"
    assert server.get("/fonts/..%2F..%2Fprint.css").status == 404


def test_delete_then_restore_over_http(server: Server, folder: Path):
    (folder / "spare.yaml").write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    token = server.token()
    answer = server.post("/list/spare.yaml/delete", {"token": token})
    assert answer.status == 303 and not (folder / "spare.yaml").exists()
    page = server.get("/").text
    deleted_id = re.search(r'name="id" value="([^"]+spare\.yaml)"', page)
    assert deleted_id and 'aria-label="Restore Zombie Family"' in page  # by its name, not its file's
    assert server.post("/restore", {"token": token, "id": deleted_id.group(1)}).status == 303
    assert (folder / "spare.yaml").exists()


def test_the_users_templates_override_the_pages(folder: Path, tmp_path: Path):
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "_catalog.html").write_text(
        '<div id="catalog"><p class="ours">Our club’s catalog: {{ found }} units</p></div>', encoding="utf-8"
    )
    s = start(folder, "--templates", str(tmp_path))
    try:
        page = s.get(f"/list/{ZOMBIES}").text
        assert "Our club’s catalog: 16 units" in page and 'aria-label="Add Hunter"' not in page
        assert '<p class="verdict good" id="verdict">Legal</p>' in page  # the rest is built in
    finally:
        s.stop()


def test_a_missing_page(server: Server):
    answer = server.get("/nowhere")
    assert answer.status == 404 and "There is no such page here." in answer.text


def test_a_list_named_in_another_script(server: Server, folder: Path):
    (folder / "火の鳥.yaml").write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    assert "/list/%E7%81%AB%E3%81%AE%E9%B3%A5.yaml" in server.get("/").text
    assert server.get("/list/%E7%81%AB%E3%81%AE%E9%B3%A5.yaml").status == 200
    download = server.get("/list/%E7%81%AB%E3%81%AE%E9%B3%A5.yaml/export/yaml")
    assert download.headers["content-disposition"] == (
        "attachment; filename=\"___.yaml\"; filename*=UTF-8''%E7%81%AB%E3%81%AE%E9%B3%A5.yaml"
    )


def test_any_asgi_server_runs_the_factory(folder: Path):
    """`uvicorn --factory listbuilder.web:create_app` serves the current folder, with the same guard."""
    import http.client
    import os
    import subprocess
    import sys

    env = {**os.environ, "LISTBUILDER_CATALOGS": ""}
    cmd = [sys.executable, "-m", "uvicorn", "--factory", "listbuilder.web:create_app", "--port", "0"]
    proc = subprocess.Popen(cmd, cwd=folder, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stderr is not None
        port = None
        for line in proc.stderr:
            found = re.search(r"running on http://127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
                break
        assert port, "uvicorn did not start"

        def get(host: str) -> int:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", "/", headers={"Host": host})
            status = conn.getresponse().status
            conn.close()
            return status

        assert get(f"127.0.0.1:{port}") == 200
        assert get(f"evil.example:{port}") == 421
    finally:
        proc.terminate()
        proc.wait(timeout=15)
